import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// Open-Meteo's error bodies (`{"error": true, "reason": ...}`, sent with 400
/// and 429 and no Retry-After) read into the reason and a wait.
final class OpenMeteoErrorReplyTests: XCTestCase {
    private func reply(_ text: String) -> OpenMeteoErrorReply? { OpenMeteoErrorReply(body: Array(text.utf8)) }

    func testReason_isReadFromTheErrorObject() {
        let body =
            #"{"error":true,"reason":"Cannot initialize WeatherVariable from invalid String value tempeture_2m for key hourly"}"#
        XCTAssertEqual(
            reply(body)?.reason,
            "Cannot initialize WeatherVariable from invalid String value tempeture_2m for key hourly")
        XCTAssertNil(reply(#"{"error":false,"reason":"x"}"#))
        XCTAssertNil(reply(#"{"reason":"x"}"#))
        XCTAssertNil(reply("<html>429</html>"))
        XCTAssertEqual(reply("{\"error\":true,\"reason\":\"two\\nlines\"}")?.reason, "two lines")
    }

    func testRateLimitReasons_sayHowLongToWait() {
        let now = 1_768_467_600.0 + 123  // 2026-01-15 09:02:03 UTC
        let minutely = reply(
            #"{"error":true,"reason":"Minutely API request limit exceeded. Please try again in one minute."}"#)
        XCTAssertEqual(minutely?.limit, .minutely)
        XCTAssertEqual(minutely?.retryAfter(now: now), now + 60)
        let hourly = reply(
            #"{"error":true,"reason":"Hourly API request limit exceeded. Please try again in the next hour."}"#)
        XCTAssertEqual(hourly?.retryAfter(now: now), now + 3600)
        let daily = reply(#"{"error":true,"reason":"Daily API request limit exceeded. Please try again tomorrow."}"#)
        XCTAssertEqual(daily?.retryAfter(now: now), 1_768_521_600)  // 2026-01-16 00:00 UTC
        XCTAssertNil(OpenMeteoErrorReply(reason: "Too many requests").retryAfter(now: now))
    }
}
