import RainCore
import XCTest

@testable import RainDaemon

final class StatusReplyCacheTests: XCTestCase {
    private func status(uptime: Double, selected: Location? = nil) -> WeatherStatus {
        WeatherStatus(
            version: "1.2.3", uptimeSeconds: uptime, provider: "open-meteo", online: true, units: .si,
            refreshMinutes: 30, locations: selected == nil ? 0 : 1, selected: selected, lastRefresh: 1_700_000_000.5,
            lastError: RefreshFailure(error: .offline, message: "no \"network\""), nextRefresh: nil,
            usage: BudgetUsage(), dailyBudget: 1000, monthlyBudget: nil, subscribers: 2)
    }

    private func framed(_ status: WeatherStatus) -> [UInt8] {
        VarlinkFramer.frame(VarlinkReply(parameters: GetStatusCall.Reply(status: status).json).json)
    }

    func testWrite_isTheFreshEncoding_forEveryUptime() throws {
        let cache = StatusReplyCache(status: status(uptime: 5))
        for uptime in [0, 1, 12.25, 86_400.123456, 1e-7, 3e15] {
            var bytes: [UInt8] = []
            cache.write(uptime: uptime, into: &bytes)
            XCTAssertEqual(
                String(decoding: bytes, as: UTF8.self), String(decoding: framed(status(uptime: uptime)), as: UTF8.self))
        }
    }

    func testMatches_ignoresTheUptime_butNoOtherField() throws {
        let paris = Location(
            id: LocationID("paris-fr"), name: "Paris", latitude: 48.85, longitude: 2.35, source: .geonames(id: 2988507))
        let cache = StatusReplyCache(status: status(uptime: 5))
        XCTAssertTrue(cache.matches(status(uptime: 99)))
        XCTAssertFalse(cache.matches(status(uptime: 5, selected: paris)))
        var counted = status(uptime: 5)
        counted.requestsToday += 1
        XCTAssertFalse(cache.matches(counted))
    }
}
