import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// The daily decision of which provider leads a place's list under
/// `Name=auto` (docs/ACCURACY.md, "The best provider serves"): the margin,
/// the minimum pairs, the days in a row, the way back, and one decision a day.
final class ProviderRankingTests: XCTestCase {
    static let start = 1_793_491_200.0
    static let day = 86_400.0
    static let regional: [ProviderName] = [.openMeteo, .metNorway]

    private func score(_ provider: String, error: Double?, pairs: Int = 200, lead: Int = 24) -> AccuracyScore {
        var score = AccuracyScore(provider: provider, leadHours: lead)
        score.pairs = pairs
        score.temperaturePairs = pairs
        score.temperatureError = error
        return score
    }

    /// `days` daily decisions with the same scores; the day each changed the leader.
    private func run(
        _ ranking: inout ProviderRanking, _ scores: [AccuracyScore], days: Int, from first: Int = 0
    ) -> [Int] {
        var changes: [Int] = []
        for day in first..<(first + days)
        where ranking.decide(regional: Self.regional, scores: scores, now: Self.start + Double(day) * Self.day) {
            changes.append(day)
        }
        return changes
    }

    func testBetterByTheMarginForThreeDays_movesUp_andOrdersTheListWithTheRegionBehind() {
        var ranking = ProviderRanking()
        let scores = [score("open-meteo", error: 2.0), score("metno", error: 1.6)]
        XCTAssertEqual(run(&ranking, scores, days: 5), [2], "the third day in a row")
        XCTAssertEqual(ranking.leader, "metno")
        XCTAssertEqual(ranking.order(Self.regional), [.metNorway, .openMeteo])
        XCTAssertEqual(ranking.order([.nws, .openMeteo, .metNorway]), [.metNorway, .nws, .openMeteo])
        XCTAssertEqual(ProviderRanking().order(Self.regional), Self.regional, "no leader: the region's order")
    }

    func testWithinTheMargin_nothingMoves() {
        var ranking = ProviderRanking()
        // 0.29 °C better: below 0.3 °C.
        XCTAssertEqual(run(&ranking, [score("open-meteo", error: 2.0), score("metno", error: 1.71)], days: 10), [])
        // 0.35 °C better, but 14 % of 2.5 °C: below 15 %.
        XCTAssertEqual(run(&ranking, [score("open-meteo", error: 2.5), score("metno", error: 2.15)], days: 10), [])
        XCTAssertNil(ranking.leader)
    }

    func testTooFewPairs_forEitherProvider_nothingMoves() {
        var ranking = ProviderRanking()
        XCTAssertEqual(
            run(&ranking, [score("open-meteo", error: 3), score("metno", error: 1, pairs: 71)], days: 10), [])
        XCTAssertEqual(
            run(&ranking, [score("open-meteo", error: 3, pairs: 71), score("metno", error: 1)], days: 10, from: 10),
            [])
        XCTAssertEqual(run(&ranking, [score("open-meteo", error: 3), score("metno", error: 1, lead: 6)], days: 10), [])
        XCTAssertEqual(
            run(&ranking, [score("open-meteo", error: 3), score("metno", error: 1, pairs: 72)], days: 3, from: 20),
            [22])
    }

    func testABrokenRun_startsTheDaysAnew() {
        var ranking = ProviderRanking()
        let better = [score("open-meteo", error: 2.0), score("metno", error: 1.0)]
        let even = [score("open-meteo", error: 2.0), score("metno", error: 1.9)]
        XCTAssertEqual(run(&ranking, better, days: 2), [])
        XCTAssertEqual(run(&ranking, even, days: 1, from: 2), [])
        XCTAssertEqual(run(&ranking, better, days: 2, from: 3), [])
        XCTAssertEqual(run(&ranking, better, days: 1, from: 5), [5])
    }

    func testHysteresis_theLeaderStaysUntilTheFirstBeatsItByTheMargin_thenMovesBack() {
        var ranking = ProviderRanking()
        XCTAssertEqual(run(&ranking, [score("open-meteo", error: 2.0), score("metno", error: 1.5)], days: 3), [2])
        // Open-Meteo now a little better: within the margin, metno keeps leading.
        XCTAssertEqual(
            run(&ranking, [score("open-meteo", error: 1.4), score("metno", error: 1.5)], days: 30, from: 3), [])
        XCTAssertEqual(ranking.leader, "metno")
        // Better by the margin for three days: back to the region's order.
        XCTAssertEqual(
            run(&ranking, [score("open-meteo", error: 1.0), score("metno", error: 1.5)], days: 3, from: 33), [35])
        XCTAssertNil(ranking.leader)
        XCTAssertEqual(ranking.order(Self.regional), Self.regional)
    }

    func testOneDecisionADay_andALeaderNoLongerListedIsDropped() {
        var ranking = ProviderRanking()
        let scores = [score("open-meteo", error: 2.0), score("metno", error: 1.0)]
        for hour in 0..<48 {
            ranking.decide(regional: Self.regional, scores: scores, now: Self.start + Double(hour) * 3600)
        }
        XCTAssertEqual(ranking.streak, 2, "two days, two decisions")
        XCTAssertEqual(ranking.decidedAt, Self.start + Self.day)
        ranking.leader = "brightsky"
        ranking.decide(regional: Self.regional, scores: [], now: Self.start + 10 * Self.day)
        XCTAssertNil(ranking.leader)
        XCTAssertEqual(ranking.streak, 0)
    }

    func testVerdict_theServingProvidersErrorAgainstTheBestOther() {
        let scores = [
            score("open-meteo", error: 1.9, pairs: 212), score("metno", error: 1.1, pairs: 300),
            score("nws", error: 2.5, pairs: 300), score("metno", error: 0.5, lead: 6),
        ]
        XCTAssertEqual(
            ProviderRanking.verdict(serving: "metno", regional: [.nws, .openMeteo, .metNorway], scores: scores),
            ProviderRanking.Verdict(provider: "metno", error: 1.1, other: "open-meteo", otherError: 1.9, pairs: 212))
        XCTAssertNil(ProviderRanking.verdict(serving: "metno", regional: [.metNorway], scores: scores))
        XCTAssertNil(
            ProviderRanking.verdict(
                serving: "metno", regional: Self.regional, scores: [score("metno", error: 1, pairs: 10)]))
    }
}
