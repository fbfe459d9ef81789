import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// Air and UV notifications: once per episode, hysteresis at the threshold,
/// a worse category updating in place, the end closing it.
final class AirNoticesTests: XCTestCase {
    private let paris = LocationID("paris")

    private func air(_ aqi: Int?, uv: Double? = nil, index: AirQualityIndex = .european) -> AirQuality {
        AirQuality(provider: "open-meteo", fetchedAt: 1000, index: index, aqi: aqi, dominant: .pm25, uvIndex: uv)
    }

    /// Feeds the readings in turn, as the notifier does (a shown
    /// notification gets the server's id 7 at once), and returns what
    /// each step did: "show", "update", "close" or "".
    private func run(
        _ readings: [AirQuality?], airLevel: Int? = 4, uv: UVCategory? = .veryHigh, kind: AirNotices.Kind = .air
    ) -> [String] {
        var episodes: [NotificationRecord.AirEntry] = []
        var steps: [String] = []
        for reading in readings {
            let decision = AirNotices.decide(
                place: paris, placeName: "Paris", air: reading, episodes: episodes, airLevel: airLevel, uv: uv)
            episodes = decision.episodes.map { entry in
                var entry = entry
                if entry.notification == 0 { entry.notification = 7 }
                return entry
            }
            let mine = decision.actions.filter { action in
                switch action {
                case .show(let notice): return notice.kind == kind
                case .close(_, let k, _): return k == kind
                }
            }
            steps.append(
                mine.map { action -> String in
                    switch action {
                    case .show(let notice): return notice.replaces == 0 ? "show" : "update"
                    case .close(_, _, let id):
                        XCTAssertEqual(id, 7, "closes the notification it showed")
                        return "close"
                    }
                }.joined(separator: ","))
        }
        return steps
    }

    func testAirHoveringAtTheThreshold_notifiesOncePerEpisode() {
        // Poor begins at 61; the episode ends below 61 - 5 = 56.
        let values = [55, 62, 59, 63, 57, 56, 61, 55, 62]
        XCTAssertEqual(
            run(values.map { air($0) }),
            ["", "show", "", "", "", "", "", "close", "show"])
    }

    func testAWorseCategory_updatesTheNotificationInPlace_andABetterOneDoesNot() {
        XCTAssertEqual(
            run([air(65), air(85), air(70), air(90), air(40)]),
            ["show", "update", "", "", "close"])
    }

    func testTheUSIndex_endsTenPointsBelowItsThreshold() {
        // Unhealthy for sensitive groups (level 4) begins at 101; ends below 91.
        XCTAssertEqual(
            run([air(101, index: .us), air(92, index: .us), air(90, index: .us)]),
            ["show", "", "close"])
    }

    func testUV_reachingVeryHigh_notifiesOnce_andEndsAPointBelow() {
        let readings = [2.0, 7.4, 7.6, 7.0, 8.5, 6.6, 6.4, 7.6].map { air(20, uv: $0) }
        XCTAssertEqual(run(readings, kind: .uv), ["", "", "show", "", "", "", "close", "show"])
    }

    func testOff_notifiesNothing_andEndsAnEpisodeInProgress() {
        XCTAssertEqual(run([air(90), air(90)], airLevel: nil), ["", ""])
        var episodes = [NotificationRecord.AirEntry(place: paris, kind: .air, rank: 4, notification: 9)]
        let decision = AirNotices.decide(
            place: paris, placeName: "Paris", air: air(90), episodes: episodes, airLevel: nil, uv: nil)
        XCTAssertEqual(decision.actions, [.close(place: paris, kind: .air, notification: 9)])
        episodes = decision.episodes
        XCTAssertEqual(episodes, [])
    }

    func testAMissingValue_keepsTheEpisode_andNoDataEndsIt() {
        XCTAssertEqual(run([air(70), air(nil), air(70)]), ["show", "", ""])
        XCTAssertEqual(run([air(70), nil]), ["show", "close"])
    }

    func testTheNotice_carriesTheIndexsAdviceAndNamesThePlace() throws {
        let decision = AirNotices.decide(
            place: paris, placeName: "Paris", air: air(74), episodes: [], airLevel: 4, uv: nil)
        guard case .show(let notice)? = decision.actions.first else { return XCTFail("no notice") }
        XCTAssertEqual(notice.title, "Air quality at Paris: Poor (European AQI 74)")
        XCTAssertEqual(notice.advice, AirWording.advice(AirQualityCategory.poor))
        XCTAssertTrue(notice.advice.contains("sore eyes"))
    }

    func testOtherPlacesEpisodes_areLeftAsTheyAre() {
        let other = NotificationRecord.AirEntry(place: LocationID("oslo"), kind: .air, rank: 5, notification: 3)
        let decision = AirNotices.decide(
            place: paris, placeName: "Paris", air: air(10), episodes: [other], airLevel: 4, uv: .veryHigh)
        XCTAssertEqual(decision.episodes, [other])
        XCTAssertEqual(decision.actions, [])
    }

    func testTheRecord_keepsEpisodesAcrossARestart() throws {
        let record = NotificationRecord(
            air: [NotificationRecord.AirEntry(place: paris, kind: .uv, rank: 3, notification: 12)])
        XCTAssertEqual(NotificationRecord(bytes: record.bytes), record)
        // A record from before air episodes reads with none.
        XCTAssertEqual(NotificationRecord(bytes: Array("{\"alerts\": []}".utf8))?.air, nil)
    }
}
