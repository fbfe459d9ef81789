import RainSystem

/// Who may do what on raind's socket (docs/PROTOCOL.md, "Access"): in a
/// user instance only the same user and root; in the system instance
/// everyone reads and root or group `raind` change. The server asks it
/// about each peer as it connects.
public struct AccessPolicy: Sendable {
    public var mode: DaemonPaths.Mode
    /// The user raind runs as.
    public var ownUID: UInt32
    /// Group `raind`'s id; nil when there is none (only root and raind's own user change).
    public var raindGroup: UInt32?

    public init(mode: DaemonPaths.Mode, ownUID: UInt32, raindGroup: UInt32?) {
        self.mode = mode
        self.ownUID = ownUID
        self.raindGroup = raindGroup
    }

    /// What `peer` may do; nil turns it away.
    public func access(for peer: PeerCredentials) -> VarlinkServer.Access? {
        switch mode {
        case .user:
            return peer.uid == ownUID || peer.uid == 0 ? .change : nil
        case .system:
            if peer.uid == 0 || peer.uid == ownUID { return .change }
            if let raindGroup, peer.gid == raindGroup || peer.groups.contains(raindGroup) { return .change }
            return .read
        }
    }

    /// `access(for:)`, and whether the peer may use the reserve of
    /// connections: root, and on the system instance those who may change things.
    public func admission(for peer: PeerCredentials) -> VarlinkServer.Admission? {
        guard let access = access(for: peer) else { return nil }
        return .init(access: access, isPrivileged: peer.uid == 0 || (mode == .system && access == .change))
    }
}

/// What answers the calls to the interfaces a `VarlinkServer` serves
/// beside `org.varlink.service` (raind's `WeatherService`).
public protocol VarlinkRequestHandler: AnyObject {
    /// Answers `request`, now or later; false for a method it does not
    /// have, which the server then answers. It is asked first, so it must
    /// answer no method of another interface.
    func handle(_ request: VarlinkRequest) -> Bool
}
