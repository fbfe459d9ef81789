import XCTest

@testable import RainCore
@testable import RainDaemonCore

final class HTTPResponseHeadTests: XCTestCase {
    private func head(_ lines: [String], maxBytes: Int = 64 * 1024) -> HTTPResponseHead {
        var head = HTTPResponseHead(maxBytes: maxBytes)
        for line in lines { head.consume(line: Array((line + "\r\n").utf8)) }
        return head
    }

    func testConsume_statusAndFields_lowerCasedAndTrimmed() {
        let result = head([
            "HTTP/1.1 200 OK", "Content-Type: application/json", "ETag:  \"abc\" ", "Cache-Control:max-age=60", "",
        ])
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.protocolVersion, "HTTP/1.1")
        XCTAssertEqual(
            result.fields, ["content-type": "application/json", "etag": "\"abc\"", "cache-control": "max-age=60"])
        XCTAssertTrue(result.isComplete)
    }

    func testConsume_repeatedFieldsAreJoined_andFoldedLinesUnfolded() {
        let result = head([
            "HTTP/2 200", "Cache-Control: public", "cache-control: max-age=5", "X-Long: first", "\tsecond", "",
        ])
        XCTAssertEqual(result.fields["cache-control"], "public, max-age=5")
        XCTAssertEqual(result.fields["x-long"], "first second")
        XCTAssertEqual(result.protocolVersion, "HTTP/2")
    }

    func testConsume_eachStatusLineStartsOver_soOnlyTheFinalResponseRemains() {
        let result = head([
            "HTTP/1.1 302 Found", "Location: /b", "Retry-After: 9", "",
            "HTTP/1.1 100 Continue", "",
            "HTTP/1.1 429 Too Many Requests", "Retry-After: 2", "",
        ])
        XCTAssertEqual(result.status, 429)
        XCTAssertEqual(result.fields, ["retry-after": "2"])
    }

    func testConsume_ignoresJunkLines() {
        let result = head(["HTTP/1.1 200 OK", "no colon here", ": empty name", "Bad Name: x", "Good: y", ""])
        XCTAssertEqual(result.fields, ["good": "y"])
    }

    func testConsume_capsTheBytesKept() {
        let lines = ["HTTP/1.1 200 OK"] + (0..<100).map { "X-Filler-\($0): " + String(repeating: "v", count: 50) }
        let result = head(lines + ["ETag: \"late\""], maxBytes: 1024)
        XCTAssertLessThanOrEqual(result.keptBytes, 1024)
        XCTAssertLessThan(result.fields.count, 100)
        XCTAssertNotNil(result.fields["x-filler-0"])
    }

    func testConsume_badStatusCode_leavesStatusUnknown() {
        XCTAssertNil(head(["HTTP/1.1 2000 Huh", ""]).status)
        XCTAssertNil(head(["HTTP/1.1", ""]).status)
    }
}
