import Foundation
import RainCore
import TestSupport
import XCTest

@testable import RainDaemon

/// The alert services' answers kept by URL, through the real HTTP client
/// from the fixture server: what is kept is bounded in bytes, the oldest
/// going first, so a feed naming new large documents each poll cannot
/// grow raind.
final class SharedAnswersTests: XCTestCase {
    static let documentBytes = 1 << 20

    func testKeptAnswersStayWithinTheirBytes_theOldestGoingFirst() throws {
        let names = (0..<5).map { "document-\($0).xml" }
        var files: [String: [UInt8]] = [:]
        for (index, name) in names.enumerated() {
            files[name] = Array(repeating: UInt8(ascii: "a") + UInt8(index), count: Self.documentBytes)
        }
        let server = try FixtureServer(files: files)
        defer { server.stop() }
        let harness = try ClientHarness()
        var time = 1_800_000_000.0
        let bound = 3 * Self.documentBytes + Self.documentBytes / 2
        let answers = SharedAnswers(
            http: harness.http, later: { [loop = harness.loop] in loop.later($0) }, clock: { time },
            maximumBytes: bound)
        var requests: [String] = []
        var tickets: [any HTTPCancellable] = []
        // One loop run (an sd-event loop runs once): each step fetches one
        // name, checks what came, and starts the next.
        var steps: [(name: String, check: (HTTPResponse) -> Void)] = []
        for name in names {
            steps.append(
                (
                    name,
                    { response in
                        XCTAssertEqual(response.body.count, Self.documentBytes)
                        XCTAssertLessThanOrEqual(answers.keptBytes, bound, "after \(name)")
                    }
                ))
        }
        steps.append(
            (
                names[4],
                { _ in
                    XCTAssertEqual(answers.keptCount, 3, "three of the five fit")
                    XCTAssertEqual(requests, names, "the newest are reused: no request")
                }
            ))
        steps.append((names[2], { _ in XCTAssertEqual(requests, names) }))
        steps.append(
            (
                names[0],
                { response in
                    XCTAssertEqual(response.body.first, UInt8(ascii: "a"))
                    XCTAssertEqual(requests, names + [names[0]], "the oldest was forgotten and is asked again")
                    XCTAssertLessThanOrEqual(answers.keptBytes, bound)
                }
            ))
        func step(_ index: Int) {
            guard index < steps.count else { return harness.finish() }
            time += 60
            let (name, check) = steps[index]
            tickets.append(
                answers.fetch(
                    HTTPRequest(url: server.url("/" + name), redactedURL: name), conditional: false,
                    freshFor: .infinity, counted: { _ in requests.append(name) }
                ) { outcome in
                    switch outcome {
                    case .success(let answer): check(answer.response)
                    case .failure(let failure): XCTFail("\(name): \(failure.message)")
                    }
                    step(index + 1)
                })
        }
        harness.loop.later { step(0) }
        XCTAssertTrue(try harness.run(timeout: 20), "every step answered")
        XCTAssertEqual(tickets.count, steps.count)
    }

    func testAnAnswerLargerThanTheBoundAloneIsNotKept() throws {
        let server = try FixtureServer(files: ["large.xml": Array(repeating: UInt8(ascii: "x"), count: 200_000)])
        defer { server.stop() }
        let harness = try ClientHarness()
        let answers = SharedAnswers(
            http: harness.http, later: { [loop = harness.loop] in loop.later($0) }, clock: { 1_800_000_000 },
            maximumBytes: 100_000)
        var status: Int?
        let ticket = answers.fetch(
            HTTPRequest(url: server.url("/large.xml"), redactedURL: "large.xml"), conditional: false,
            freshFor: .infinity, counted: { _ in }
        ) {
            status = try? $0.get().response.status
            harness.finish()
        }
        XCTAssertTrue(try harness.run(timeout: 5))
        _ = ticket
        XCTAssertEqual(status, 200, "the caller gets it all the same")
        XCTAssertEqual(answers.keptCount, 0)
        XCTAssertEqual(answers.keptBytes, 0)
    }

    func testTheDaemonsBoundIsDocumented() throws {
        let text = try String(contentsOfFile: Repository.path("docs/ALERTS.md"), encoding: .utf8)
        XCTAssertEqual(SharedAnswers.maximumBytes, 16 << 20)
        XCTAssertTrue(text.contains("16 MiB"), "docs/ALERTS.md says how much SharedAnswers keeps")
    }
}
