import XCTest

@testable import RainCore
@testable import RainDaemonCore

final class ConfigParserTests: XCTestCase {
    func testParse_readsEveryKnownKey() {
        var parser = ConfigParser()
        parser.apply(
            text: """
                # comment
                [Provider]
                Name=pirateweather
                BaseURL=http://127.0.0.1:8080/
                ApiKeyFile=/etc/raind/key
                Proxy=yes
                TimeoutSec=5
                [Refresh]
                IntervalMinutes = 20
                StaleAfterMinutes=10
                DailyBudget=100
                MonthlyBudget=2500
                [Socket]
                Path=/tmp/x.sock
                [Places]
                OnlineGeocoder=no
                """, file: "/etc/raind/raind.conf")
        XCTAssertEqual(parser.diagnostics, [])
        let c = parser.configuration
        XCTAssertEqual(c.provider, .pirateWeather)
        XCTAssertEqual(c.baseURL, "http://127.0.0.1:8080")
        XCTAssertEqual(c.apiKeyFile, "/etc/raind/key")
        XCTAssertTrue(c.proxy)
        XCTAssertFalse(Configuration().proxy)
        XCTAssertEqual(c.timeoutSeconds, 5)
        XCTAssertEqual(c.intervalMinutes, 20)
        XCTAssertEqual(c.staleAfterMinutes, 10)
        XCTAssertEqual(c.dailyBudget, 100)
        XCTAssertEqual(c.monthlyBudget, 2500)
        XCTAssertEqual(c.socketPath, "/tmp/x.sock")
        XCTAssertFalse(c.onlineGeocoder)
    }

    func testParse_unknownKey_isWarningNamingFileAndLine() {
        var parser = ConfigParser()
        parser.apply(text: "[Refresh]\nIntervalMinutes=10\nColour=blue\n", file: "a.conf")
        XCTAssertEqual(parser.diagnostics.count, 1)
        XCTAssertEqual(parser.diagnostics[0].severity, .warning)
        XCTAssertEqual(
            parser.diagnostics[0].description, "a.conf:3: warning: unknown key Colour= in [Refresh], ignored")
        XCTAssertEqual(parser.configuration.intervalMinutes, 10)
    }

    func testParse_100000UnknownKeys_giveTenLinesAndOneSummary() {
        var parser = ConfigParser()
        let keys = (0..<100_000).map { "Unknown\($0)=1" }.joined(separator: "\n")
        parser.apply(text: "[Refresh]\n" + keys + "\n[Refresh]\nIntervalMinutes=20\n", file: "/etc/raind/raind.conf")
        XCTAssertEqual(parser.diagnostics.count, ConfigParser.listedPerFile + 1)
        let summary = parser.diagnostics.last
        XCTAssertEqual(summary?.severity, .warning)
        XCTAssertEqual(summary?.line, ConfigParser.listedPerFile + 2)
        XCTAssertEqual(
            summary?.message,
            "99990 more warnings in this file, from this line on, not listed one by one (only a file's first 10 findings are)"
        )
        XCTAssertEqual(parser.configuration.intervalMinutes, 20, "the rest of the file still applies")
        // The next file lists its own first findings.
        parser.apply(text: "[Refresh]\nOther=1\nIntervalMinutes=2\n", file: "/etc/raind/raind.conf.d/50.conf")
        XCTAssertEqual(parser.diagnostics.count, ConfigParser.listedPerFile + 3)
        XCTAssertEqual(parser.errors.count, 1, "an error is never hidden among warnings")
    }

    func testParse_keyBeforeAnySection_isErrorNamingWhereItBelongs() {
        var parser = ConfigParser()
        parser.apply(text: "RainSoon=no\nColour=blue\n", file: "c.conf")
        XCTAssertEqual(
            parser.errors.map(\.description),
            [
                "c.conf:1: error: RainSoon= is outside any section (put it under [Notifications])",
                "c.conf:2: error: Colour= is outside any section (put it under the section it belongs to: "
                    + "[Provider], [Refresh], [Socket], [Places], [Alerts], [Observations], [Accuracy], [Notifications], "
                    + "[Air], [Nowcast])",
            ])
    }

    func testParse_badValue_isErrorNamingValueAndExpectedForm() {
        var parser = ConfigParser()
        parser.apply(text: "[Refresh]\nIntervalMinutes=soon\n", file: "b.conf")
        XCTAssertEqual(
            parser.errors.map(\.description),
            [
                "b.conf:2: error: [Refresh] IntervalMinutes=soon is not valid: expected whole minutes from 5 to 1440"
            ])
        XCTAssertEqual(parser.configuration.intervalMinutes, Configuration().intervalMinutes)
    }

    func testCorrectTemperature_isOffByDefault_takesABoolean_andRefusesAnythingElse() {
        XCTAssertFalse(Configuration().correctTemperature)
        var parser = ConfigParser()
        parser.apply(text: "[Accuracy]\nCorrectTemperature=yes\n", file: "a.conf")
        XCTAssertEqual(parser.errors.map(\.description), [])
        XCTAssertTrue(parser.configuration.correctTemperature)
        var bad = ConfigParser()
        bad.apply(text: "[Accuracy]\nCorrectTemperature=a little\n", file: "a.conf")
        XCTAssertEqual(
            bad.errors.map(\.description),
            ["a.conf:2: error: [Accuracy] CorrectTemperature=a little is not valid: expected yes or no"])
        XCTAssertFalse(bad.configuration.correctTemperature)
    }

    func testParse_keyOutsideSection_andGarbageLine_areErrors() {
        var parser = ConfigParser()
        parser.apply(text: "Name=x\n[Provider\nhello\n", file: "c.conf")
        XCTAssertEqual(parser.errors.map(\.line), [1, 2, 3])
    }

    func testDropIns_laterFileWins_andEmptyValueResets() {
        var parser = ConfigParser()
        parser.apply(text: "[Refresh]\nIntervalMinutes=10\nDailyBudget=9\n", file: "raind.conf")
        parser.apply(text: "[Refresh]\nIntervalMinutes=15\n", file: "raind.conf.d/10-a.conf")
        parser.apply(text: "[Refresh]\nDailyBudget=\n", file: "raind.conf.d/20-b.conf")
        XCTAssertEqual(parser.configuration.intervalMinutes, 15)
        XCTAssertEqual(parser.configuration.dailyBudget, Configuration().dailyBudget)
    }

    func testParse_rejectsNonHTTPBaseURL() {
        var parser = ConfigParser()
        parser.apply(text: "[Provider]\nBaseURL=ftp://example.org\n", file: "d.conf")
        XCTAssertEqual(parser.errors.count, 1)
        XCTAssertTrue(parser.errors[0].message.contains("expected an http:// or https:// URL"))
    }
}
