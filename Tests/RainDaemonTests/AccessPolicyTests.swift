import XCTest

@testable import RainDaemon
@testable import RainSystem

/// Who may do what on the socket (docs/PROTOCOL.md, "Access").
final class AccessPolicyTests: XCTestCase {
    private func peer(uid: UInt32, gid: UInt32 = 100, groups: [UInt32] = []) -> PeerCredentials {
        PeerCredentials(pid: 1, uid: uid, gid: gid, groups: groups)
    }

    func testAUserInstance_letsOnlyItsUserAndRootIn_andBothChangeThings() {
        let policy = AccessPolicy(mode: .user, ownUID: 1000, raindGroup: nil)
        XCTAssertEqual(policy.access(for: peer(uid: 1000)), .change)
        XCTAssertEqual(policy.access(for: peer(uid: 0)), .change)
        XCTAssertNil(policy.access(for: peer(uid: 1001)), "another user is turned away")
        XCTAssertNil(policy.admission(for: peer(uid: 1001)))
        XCTAssertEqual(policy.admission(for: peer(uid: 0))?.isPrivileged, true, "root may use the reserve")
        XCTAssertEqual(policy.admission(for: peer(uid: 1000))?.isPrivileged, false)
    }

    func testTheSystemInstance_letsEveryoneRead_andRootOrGroupRaindChange() {
        let policy = AccessPolicy(mode: .system, ownUID: 990, raindGroup: 991)
        XCTAssertEqual(policy.access(for: peer(uid: 1000)), .read)
        XCTAssertEqual(policy.access(for: peer(uid: 1000, gid: 991)), .change, "primary group raind")
        XCTAssertEqual(policy.access(for: peer(uid: 1000, groups: [27, 991])), .change, "supplementary group raind")
        XCTAssertEqual(policy.access(for: peer(uid: 990)), .change, "raind's own user")
        XCTAssertEqual(policy.access(for: peer(uid: 0)), .change)
        XCTAssertEqual(policy.admission(for: peer(uid: 1000, groups: [991]))?.isPrivileged, true)
        XCTAssertEqual(policy.admission(for: peer(uid: 1000))?.isPrivileged, false, "a reader has no reserve")
        let withoutGroup = AccessPolicy(mode: .system, ownUID: 990, raindGroup: nil)
        XCTAssertEqual(withoutGroup.access(for: peer(uid: 1000, groups: [991])), .read)
    }
}
