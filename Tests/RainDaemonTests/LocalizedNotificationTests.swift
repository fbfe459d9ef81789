import Foundation
import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemon
@testable import RainDaemonCore

/// The desktop notifications in the session's language, through the real
/// glibc and msgfmt's catalogues (as `LocalizedViewTests` does for the
/// views), compared with `Tests/Fixtures/Golden/l10n/notifications.LOCALE.txt`;
/// `RAIND_UPDATE_GOLDEN=1` rewrites them.
final class LocalizedNotificationTests: XCTestCase {
    static let locales = [
        "de_DE.UTF-8", "fr_FR.UTF-8", "pl_PL.UTF-8", "en_US.UTF-8", "en_GB.UTF-8", "ja_JP.UTF-8", "C",
        "ru_RU.UTF-8",
        "uk_UA.UTF-8",
        "zh_CN.UTF-8",
        "cs_CZ.UTF-8",
        "tr_TR.UTF-8",
    ]

    static let bound: Bool = {
        guard let directory = Catalogues.compiled else { return false }
        Localization.bind(environment: ["RAIND_LOCALE_DIR": directory], executablePath: nil)
        return true
    }()

    func testNotifications_matchGoldenFiles_inEachLocale() throws {
        XCTAssertTrue(Self.bound, "msgfmt (Debian's gettext) could not compile po/*.po")
        let place = Location(
            id: LocationID("berlin-de"), name: "Berlin", country: "Germany", countryCode: "DE", latitude: 52.52,
            longitude: 13.405, timeZone: "UTC", source: .geonames(id: 2_950_159))
        // Thursday 15 January 2026, 09:00 UTC.
        let now = 1_768_467_600.0
        let storm = WeatherAlert(
            title: "Storm warning", severity: .severe, start: now - 3600, end: now + 9 * 3600,
            description: "Gusts up to 100 km/h.", source: "dwd")
        let frost = WeatherAlert(
            title: "Frost warning", severity: .moderate, start: now + 86_400, end: now + 86_400 + 7 * 3600,
            event: "Frost", onset: now + 86_400, source: "dwd", approximate: true)
        let many = (0..<12).map {
            WeatherAlert(title: "Warning \($0)", severity: .minor, end: now + 3600, event: "Wind \($0)")
        }
        let local = { (time: Double) in CivilDateTime(unixSeconds: time, utcOffsetSeconds: 0) }
        let update = ProcessInfo.processInfo.environment["RAIND_UPDATE_GOLDEN"] == "1"
        let directory = Fixtures.goldenDirectory + "/l10n"
        for locale in Self.locales {
            let rendered = Localization.with(locale: locale) { () -> String in
                // Poor air (European AQI 70) and a very high UV index, as the notifier decides them.
                let air = AirQuality(
                    provider: "open-meteo", attribution: OpenMeteoAirQuality().attribution, fetchedAt: now,
                    index: .european, aqi: 70, uvIndex: 9)
                let notices = AirNotices.decide(
                    place: place.id, placeName: place.name, air: air, episodes: [], airLevel: 4, uv: .high
                ).actions.compactMap { action -> DesktopNotification? in
                    guard case .show(let notice) = action else { return nil }
                    return DesktopNotification.air(notice, credit: ForecastPresenter.creditLine(air))
                }
                let shown =
                    [
                        DesktopNotification.alerts([storm], at: place, now: now, local: local, replaces: 0),
                        DesktopNotification.alerts([storm, frost], at: place, now: now, local: local, replaces: 0),
                        DesktopNotification.alerts(many, at: place, now: now, local: local, replaces: 0),
                        DesktopNotification.rainSoon(
                            at: place,
                            summary: tr(
                                "{rain} starting in about {start}", ["rain": tr("Light rain"), "start": "20 min"]),
                            replaces: 0),
                    ] + notices
                return shown.map { "== \($0.summary) ==\n\($0.body)\n" }.joined()
            }
            let actual = try XCTUnwrap(
                rendered, "locale \(locale) is not installed: run locale-gen (./scripts/test does)")
            let path = directory + "/notifications.\(locale).txt"
            if update {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: URL(fileURLWithPath: path))
                continue
            }
            XCTAssertEqual(actual, try TestFile.text(path), "notifications under \(locale) differ from \(path)")
        }
    }

    /// The alert's heading and its description, and the alerts' names, are
    /// joined as the language writes them (the catalogue's `{heading}:
    /// {description}` and list separator), not with English punctuation:
    /// French puts a no-break space before the colon, Japanese and Chinese
    /// write `：` and `、`.
    func testJoins_followTheLanguagesPunctuation() throws {
        XCTAssertTrue(Self.bound, "msgfmt (Debian's gettext) could not compile po/*.po")
        let place = Location(
            id: LocationID("berlin-de"), name: "Berlin", country: "Germany", countryCode: "DE", latitude: 52.52,
            longitude: 13.405, timeZone: "UTC", source: .geonames(id: 2_950_159))
        let now = 1_768_467_600.0
        let storm = WeatherAlert(
            title: "Storm warning", severity: .severe, end: now + 3600, description: "Gusts.", event: "Storm")
        let frost = WeatherAlert(title: "Frost warning", severity: .minor, end: now + 3600, event: "Frost")
        let local = { (time: Double) in CivilDateTime(unixSeconds: time, utcOffsetSeconds: 0) }
        let shown = { (locale: String) in
            try XCTUnwrap(
                Localization.with(locale: locale) {
                    (
                        DesktopNotification.alerts([storm], at: place, now: now, local: local, replaces: 0).body,
                        DesktopNotification.alerts([storm, frost], at: place, now: now, local: local, replaces: 0)
                            .summary
                    )
                }, "\(locale) is not installed: run locale-gen (./scripts/test does)")
        }
        let french = try shown("fr_FR.UTF-8")
        XCTAssertTrue(french.0.contains("\u{A0}: Gusts."), french.0)
        let japanese = try shown("ja_JP.UTF-8")
        XCTAssertTrue(japanese.0.contains("：Gusts."), japanese.0)
        XCTAssertTrue(japanese.1.contains("Storm、Frost"), japanese.1)
        let chinese = try shown("zh_CN.UTF-8")
        XCTAssertTrue(chinese.0.contains("：Gusts."), chinese.0)
        XCTAssertTrue(chinese.1.contains("Storm、Frost"), chinese.1)
        let english = try shown("C")
        XCTAssertTrue(english.0.hasPrefix("Severe alert for Berlin, Germany: Gusts."), english.0)
        XCTAssertTrue(english.1.hasSuffix(": Storm, Frost"), english.1)
    }
}
