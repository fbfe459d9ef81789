import XCTest

@testable import RainCore

final class HTTPURLRedactionTests: XCTestCase {
    private let url = "https://api.pirateweather.net/forecast/Abc123SecretKey/52.22,6.89?units=si"
    private let redacted = "https://api.pirateweather.net/forecast/<redacted>/52.22,6.89?units=si"

    func testScrub_replacesTheWholeURL() {
        let text = "Failed to fetch \(url) after 3 tries"
        XCTAssertEqual(
            URLRedaction.scrub(text, url: url, redactedURL: redacted), "Failed to fetch \(redacted) after 3 tries")
    }

    func testScrub_replacesTheSecretOnItsOwn() {
        let text = "path /forecast/Abc123SecretKey/52.22,6.89 rejected; key Abc123SecretKey"
        let scrubbed = URLRedaction.scrub(text, url: url, redactedURL: redacted)
        XCTAssertFalse(scrubbed.contains("Abc123SecretKey"), scrubbed)
        XCTAssertTrue(scrubbed.contains("/forecast/<redacted>/52.22,6.89"), scrubbed)
    }

    func testScrub_findsASecretInTheQuery_andSeveralSecrets() {
        let url = "https://example.org/v1?appid=K1K1K1K1&lat=1&token=T2T2T2T2"
        let redacted = "https://example.org/v1?appid=<redacted>&lat=1&token=<redacted>"
        let scrubbed = URLRedaction.scrub("bad appid K1K1K1K1 or token T2T2T2T2", url: url, redactedURL: redacted)
        XCTAssertEqual(scrubbed, "bad appid <redacted> or token <redacted>")
    }

    func testScrub_leavesTextWithoutSecretsAlone() {
        let text = "Could not resolve host: api.pirateweather.net"
        XCTAssertEqual(URLRedaction.scrub(text, url: url, redactedURL: redacted), text)
        XCTAssertEqual(URLRedaction.scrub("\(url)", url: url, redactedURL: url), url, "no secret: nothing to do")
    }
}
