import RainCore
import RainDaemonCore
import XCTest

@testable import RainDaemon

/// What goes to the notification server as summary and body: text, never
/// markup, whoever wrote it and however it was encoded; nothing that turns
/// text around. Every builder (one alert, several, rain, air) alike.
final class DesktopNotificationTests: XCTestCase {
    let place = Location(
        id: LocationID("paris-fr"), name: "Paris\u{202E}", region: "Île-de-France", country: "France",
        countryCode: "FR", latitude: 48.85, longitude: 2.35, source: .geonames(id: 2_988_507))
    static let hostile = "<a href=x>Flood</a> &lt;b&gt;now&lt;/b&gt; \u{2066}ok\u{2069} &#x202E;evil"
    /// `hostile` as a server shows it once it has read the markup: the same characters, as text.
    static let shown = "&lt;a href=x&gt;Flood&lt;/a&gt; &lt;b&gt;now&lt;/b&gt; ok evil"

    func strings(_ notification: DesktopNotification) -> (summary: String, body: String) {
        let arguments = notification.arguments
        guard case .string(let summary) = arguments[3], case .string(let body) = arguments[4] else {
            XCTFail("Notify takes (susss...)")
            return ("", "")
        }
        return (summary, body)
    }

    func local(_ time: Double) -> CivilDateTime { CivilDateTime(unixSeconds: time, utcOffsetSeconds: 0) }

    func testOneAlertsSummaryAndBody_areTextWithoutBidiControls() {
        let alert = WeatherAlert(
            title: Self.hostile, severity: .severe, start: 1_800_000_000, end: 1_800_003_600,
            description: Self.hostile)
        let sent = strings(
            DesktopNotification.alerts([alert], at: place, now: 1_800_000_000, local: local, replaces: 0))
        XCTAssertEqual(sent.summary, Self.shown + " — Paris")
        XCTAssertTrue(sent.body.hasPrefix("Severe alert for Paris, Île-de-France, France: " + Self.shown), sent.body)
    }

    func testSeveralAlerts_rainAndAir_areTextToo() {
        let alerts = [
            WeatherAlert(title: "x", severity: .severe, id: "1", event: Self.hostile),
            WeatherAlert(title: "y", severity: .moderate, id: "2", event: "Gale & <i>rain</i>"),
        ]
        let several = strings(
            DesktopNotification.alerts(alerts, at: place, now: 1_800_000_000, local: local, replaces: 0))
        XCTAssertEqual(several.summary, "2 warnings for Paris: " + Self.shown + ", Gale &amp; &lt;i&gt;rain&lt;/i&gt;")
        XCTAssertTrue(several.body.hasPrefix(Self.shown + " (Severe)\nGale &amp; &lt;i&gt;rain&lt;/i&gt; (Moderate)"))
        let rain = strings(DesktopNotification.rainSoon(at: place, summary: Self.hostile, replaces: 0))
        XCTAssertEqual(rain.summary, "Rain soon — Paris")
        XCTAssertEqual(rain.body, Self.shown)
        for text in [several.summary, several.body, rain.summary, rain.body] {
            XCTAssertFalse(text.unicodeScalars.contains { String.isControl($0) && $0 != "\n" }, text)
            XCTAssertFalse(text.contains("<"), text)
        }
    }
}
