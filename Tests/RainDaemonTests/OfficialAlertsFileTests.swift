import Foundation
import RainCore
import RainDaemonCore
import XCTest

@testable import RainDaemon

/// The cache file of a place's official alerts, read back as input from
/// outside: what breaks a rule is refused naming the field, and the file goes.
final class OfficialAlertsFileTests: XCTestCase {
    let id = LocationID("portland-us")
    let service = AlertService(source: "nws", checkedAt: 1_800_000_000)

    func alert(_ change: (inout WeatherAlert) -> Void = { _ in }) -> WeatherAlert {
        var alert = WeatherAlert(
            title: "Flood Warning", severity: .severe, start: 1_800_000_000, end: 1_800_010_000, id: "urn:1",
            onset: 1_800_000_000, source: "nws")
        change(&alert)
        return alert
    }

    func problem(_ file: OfficialAlertsFile) -> String? {
        file.validationProblem().map { "\($0.field): \($0.reason)" }
    }

    func testTheRules() {
        XCTAssertNil(problem(OfficialAlertsFile(messages: [alert()], service: service)))
        XCTAssertEqual(
            problem(OfficialAlertsFile(messages: [alert()], service: AlertService(source: "elsewhere"))),
            "service.source: names no alert source raind has")
        XCTAssertEqual(
            problem(OfficialAlertsFile(messages: [alert { $0.onset = 1e300 }], service: service)),
            "messages[0].onset: 1e+300 is no time raind accepts")
        XCTAssertEqual(
            problem(OfficialAlertsFile(messages: [alert { $0.source = "dwd" }], service: service)),
            "messages[0].source: is not the service's")
        XCTAssertEqual(
            problem(OfficialAlertsFile(messages: Array(repeating: alert(), count: 401), service: service)),
            "messages: 401 messages, more than 400")
        let wordy = FailureWording(kind: "timedOut", parameters: ["url": String(repeating: "x", count: 1025)])
        XCTAssertEqual(
            problem(
                OfficialAlertsFile(
                    messages: [], service: AlertService(source: "nws", problem: "timed out", wording: wordy))),
            "service.wording: more or longer parameters than raind writes")
    }

    func testWrittenAndReadBack_asPlainText_andABadFileIsDiscarded() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-official-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = ForecastCache(directory: directory.path, logger: Logger(subsystem: "test", threshold: .error))
        let kept = OfficialAlerts(messages: [alert()], service: service)
        cache.storeOfficialAlerts(kept, for: id)
        XCTAssertEqual(cache.loadOfficialAlerts(of: id), kept)

        // Markup written into the file by someone else is made text again.
        let file = try XCTUnwrap(cache.alertsPath(for: id))
        var text = try String(contentsOfFile: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"Flood Warning\"", with: "\"Flood <b>Warning</b>\\u0007\"")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(cache.loadOfficialAlerts(of: id)?.messages.first?.title, "Flood Warning")

        for bad in ["{", "{\"version\": 2}", "[]", text.replacingOccurrences(of: "\"nws\"", with: "\"x\"")] {
            try bad.write(toFile: file, atomically: true, encoding: .utf8)
            XCTAssertNil(cache.loadOfficialAlerts(of: id), bad)
            XCTAssertFalse(FileManager.default.fileExists(atPath: file), "discarded: \(bad)")
        }
        cache.storeOfficialAlerts(kept, for: id)
        cache.remove(id)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "goes with the place")
    }

    func testMoreMessagesThanTheFileHolds_areWrittenToTheBound_andReadBack() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("raind-official-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = ForecastCache(directory: directory.path, logger: Logger(subsystem: "test", threshold: .error))
        let many = (0..<600).map { index in alert { $0.id = "urn:\(index)" } }
        cache.storeOfficialAlerts(OfficialAlerts(messages: many, service: service), for: id)
        let read = try XCTUnwrap(cache.loadOfficialAlerts(of: id), "what raind wrote, raind reads")
        XCTAssertEqual(read.messages, Array(many.prefix(OfficialAlertsFile.maximumMessages)))
        XCTAssertEqual(OfficialAlertsFile.maximumMessages, AlertLimits.alertsPerPlace)
    }
}
