import RainCore
import XCTest

@testable import RainDaemon

final class StatusEncodingCacheTests: XCTestCase {
    private func status(uptime: Double, selected: Location? = nil, subscribers: Int = 2) -> WeatherStatus {
        WeatherStatus(
            version: "1.2.3", uptimeSeconds: uptime, provider: "open-meteo", online: true, units: .si,
            refreshMinutes: 30, locations: selected == nil ? 0 : 1, selected: selected, lastRefresh: 1_700_000_000.5,
            lastError: RefreshFailure(error: .offline, message: "no \"network\""), nextRefresh: nil,
            usage: BudgetUsage(), dailyBudget: 1000, monthlyBudget: nil, subscribers: subscribers)
    }

    private func framed(_ status: WeatherStatus) -> [UInt8] {
        VarlinkFramer.frame(VarlinkReply(parameters: GetStatusCall.Reply(status: status).json).json)
    }

    func testWrite_isTheFreshEncoding_forEveryUptimeAndSubscriberCount() throws {
        let cache = StatusEncodingCache.getStatusReply(status(uptime: 5))
        let paris = Location(
            id: LocationID("paris-fr"), name: "Paris", latitude: 48.85, longitude: 2.35, source: .geonames(id: 2988507))
        func snapshot(_ status: WeatherStatus) -> [UInt8] {
            var bytes: [UInt8] = []
            VarlinkFramer.frameReply(
                SubscribeReply.snapshot(status: status, locations: [paris], selected: paris.id, forecast: nil),
                continues: true, into: &bytes)
            return bytes
        }
        let snapshots = StatusEncodingCache(status: status(uptime: 5), encoding: snapshot)
        for uptime in [0, 1, 12.25, 86_400.123456, 1e-7, 3e15] {
            for subscribers in [0, 1, 2, 10, 1000] {
                let status = status(uptime: uptime, subscribers: subscribers)
                var bytes: [UInt8] = []
                cache.write(status, into: &bytes)
                XCTAssertEqual(String(decoding: bytes, as: UTF8.self), String(decoding: framed(status), as: UTF8.self))
                var snapshotBytes: [UInt8] = []
                snapshots.write(status, into: &snapshotBytes)
                XCTAssertEqual(
                    String(decoding: snapshotBytes, as: UTF8.self), String(decoding: snapshot(status), as: UTF8.self))
            }
        }
    }

    func testMatches_ignoresTheUptimeAndSubscriberCount_butNoOtherField() throws {
        let paris = Location(
            id: LocationID("paris-fr"), name: "Paris", latitude: 48.85, longitude: 2.35, source: .geonames(id: 2988507))
        let cache = StatusEncodingCache.getStatusReply(status(uptime: 5))
        XCTAssertTrue(cache.matches(status(uptime: 99)))
        XCTAssertTrue(cache.matches(status(uptime: 99, subscribers: 7)))
        XCTAssertFalse(cache.matches(status(uptime: 5, selected: paris)))
        var counted = status(uptime: 5)
        counted.requestsToday += 1
        XCTAssertFalse(cache.matches(counted))
    }

    /// GetStatus's cache keeps its last encoding: repeating, changing and
    /// going back to an uptime or a count must each give the fresh encoding.
    func testWrite_ofTheSameNumbersAgain_isTheFreshEncodingStill() {
        let cache = StatusEncodingCache.getStatusReply(status(uptime: 5))
        for (uptime, subscribers) in [(1.5, 2), (1.5, 2), (1.5, 3), (2.25, 3), (1.5, 2), (0.0, 0), (-0.0, 0), (0.0, 0)]
        {
            let status = status(uptime: uptime, subscribers: subscribers)
            var bytes: [UInt8] = [1, 2, 3]
            cache.write(status, into: &bytes)
            XCTAssertEqual(
                String(decoding: bytes.dropFirst(3), as: UTF8.self), String(decoding: framed(status), as: UTF8.self))
        }
    }
}
