import Testing

@testable import RainCore
@testable import RainDaemonCore

@Suite struct AlertLifecycleTests {
    /// Wednesday 2025-09-17 08:00 UTC: the tests' clock starts here.
    let t0 = 1_758_096_000.0
    let hour = 3600.0

    func warning(
        _ id: String?, _ type: AlertMessageType? = .alert, references: [String]? = nil,
        severity: AlertSeverity = .severe, event: String? = "Wind Warning", start: Double? = nil,
        onset: Double? = nil, end: Double? = nil, regions: [String] = [], source: String = "dwd"
    ) -> WeatherAlert {
        WeatherAlert(
            title: "Official WARNING of \(event ?? "weather")", severity: severity, regions: regions, start: start,
            end: end, id: id, event: event, onset: onset, messageType: type, references: references, source: source)
    }

    @Test func upcomingThenInEffectThenUpdatedThenCancelled() {
        // Issued at 08:00 for a storm from 14:00 to 20:00.
        let issued = warning(
            "A", start: t0, onset: t0 + 6 * hour, end: t0 + 12 * hour, regions: ["Stadt Göttingen"])
        var messages = [issued]

        let morning = t0 + hour
        #expect(AlertLifecycle.current(messages, now: morning) == [issued])
        #expect(AlertLifecycle.isUpcoming(issued, now: morning) && !AlertLifecycle.isInEffect(issued, now: morning))
        // The daemon wakes at the onset to notify it.
        #expect(AlertLifecycle.nextChange(messages, after: morning) == t0 + 6 * hour)

        let onset = t0 + 6 * hour
        #expect(AlertLifecycle.isInEffect(issued, now: onset) && !AlertLifecycle.isUpcoming(issued, now: onset))
        #expect(AlertLifecycle.current(messages, now: onset) == [issued])
        #expect(AlertLifecycle.nextChange(messages, after: onset) == t0 + 12 * hour)

        // At 15:00 an update raises it to extreme and extends it to 22:00: the update is shown instead.
        let updated = warning(
            "B", .update, references: ["A"], severity: .extreme, start: t0 + 7 * hour, onset: t0 + 6 * hour,
            end: t0 + 14 * hour, regions: ["Stadt Göttingen"])
        messages.append(updated)
        #expect(AlertLifecycle.current(messages, now: t0 + 7 * hour) == [updated])
        #expect(AlertLifecycle.isInEffect(updated, now: t0 + 7 * hour))
        #expect(
            AlertLifecycle.nextChange(AlertLifecycle.current(messages, now: t0 + 7 * hour), after: t0 + 7 * hour)
                == t0 + 14 * hour)

        // At 18:00 it is cancelled: nothing is shown, the cancellation neither.
        let cancelled = warning("C", .cancel, references: ["B"], start: t0 + 10 * hour, end: t0 + 10.5 * hour)
        messages.append(cancelled)
        #expect(AlertLifecycle.current(messages, now: t0 + 10 * hour).isEmpty)
        // A source that has dropped the first two still withdraws nothing else.
        #expect(AlertLifecycle.current([updated, cancelled], now: t0 + 10 * hour).isEmpty)
    }

    @Test func anAlertEndsAtItsEnd() {
        let ending = warning("A", start: t0, end: t0 + hour)
        let open = warning("B", event: "Frost", start: t0, end: nil)
        #expect(AlertLifecycle.current([ending, open], now: t0 + hour - 1).map(\.id) == ["A", "B"])
        #expect(AlertLifecycle.current([ending, open], now: t0 + hour).map(\.id) == ["B"])
        #expect(
            !AlertLifecycle.isInEffect(ending, now: t0 + hour) && !AlertLifecycle.isUpcoming(ending, now: t0 + hour))
        // An alert with no time at all is in effect while a source reports it.
        let timeless = warning("C")
        #expect(AlertLifecycle.isInEffect(timeless, now: t0) && AlertLifecycle.nextChange([timeless], after: t0) == nil)
        // Without an onset, the start is when it begins.
        let later = warning("D", start: t0 + hour)
        #expect(AlertLifecycle.isUpcoming(later, now: t0) && AlertLifecycle.nextChange([later], after: t0) == t0 + hour)
    }

    @Test func anUpdateOfAnAlertNeverSeenIsShownAsTheAlert() {
        let update = warning("B", .update, references: ["never-seen"], start: t0, end: t0 + hour)
        #expect(AlertLifecycle.current([update], now: t0) == [update])
    }

    @Test func aCancellationOfAnUnknownAlertIsIgnored() {
        let other = warning("A", start: t0, end: t0 + hour)
        let cancel = warning("C", .cancel, references: ["never-seen"], start: t0, end: t0 + hour)
        #expect(AlertLifecycle.current([cancel, other], now: t0) == [other])
        #expect(AlertLifecycle.current([cancel], now: t0).isEmpty)
        // A message naming itself does not withdraw itself.
        let selfish = warning("S", .update, references: ["S"], start: t0)
        #expect(AlertLifecycle.current([selfish], now: t0) == [selfish])
    }

    @Test func theSameWarningFromTwoSourcesIsOneAlert() {
        let national = warning(
            "dwd-1", start: t0, onset: t0 + hour, end: t0 + 5 * hour, regions: ["Kreis Lörrach"], source: "dwd")
        let continental = WeatherAlert(
            title: "Orange wind warning", severity: .severe, regions: ["Lörrach", "Kreis Lörrach"], start: t0 + 20,
            end: t0 + 5 * hour - 30, uri: "https://meteoalarm.org/x", id: "ma-9", event: "wind warning",
            onset: t0 + hour + 45, messageType: .alert, source: "meteoalarm", approximate: true)
        let shown = AlertLifecycle.current([national, continental], now: t0 + 2 * hour)
        #expect(shown.count == 1)
        #expect(shown.first?.id == "dwd-1" && shown.first?.source == "dwd")
        #expect(shown.first?.regions == ["Kreis Lörrach", "Lörrach"])
        #expect(shown.first?.uri == "https://meteoalarm.org/x" && shown.first?.approximate == nil)
        // Another severity, or onsets more than a minute apart, are other warnings.
        var milder = continental
        milder.severity = .moderate
        #expect(AlertLifecycle.current([national, milder], now: t0 + 2 * hour).count == 2)
        var later = continental
        later.onset = t0 + hour + 61
        #expect(AlertLifecycle.current([national, later], now: t0 + 2 * hour).count == 2)
        // The same id is the same message, whatever else differs.
        let again = warning("dwd-1", severity: .minor, event: "Frost", start: t0, regions: ["Stadt Lörrach"])
        #expect(
            AlertLifecycle.current([national, again], now: t0 + 2 * hour).map(\.regions) == [
                ["Kreis Lörrach", "Stadt Lörrach"]
            ])
    }

    @Test func aProvidersOwnAlertsAreAlertsKnownByTitleAndStart() {
        let pirate = WeatherAlert(
            title: "Flood Watch", severity: .severe, regions: ["Tillamook"], start: t0, end: t0 + hour,
            source: "pirateweather")
        var repeated = pirate
        repeated.regions = ["Clatsop"]
        let shown = AlertLifecycle.current([pirate, repeated], now: t0)
        #expect(shown.count == 1 && shown.first?.messageType == .alert)
        #expect(shown.first?.regions == ["Tillamook", "Clatsop"])
        #expect(AlertLifecycle.key(of: pirate) == AlertNotices.key(of: pirate))
        // The official report of the same watch, with the event the provider's title names.
        let official = warning(
            "NWS-1", severity: .severe, event: "Flood Watch", start: t0 + 30, end: t0 + hour,
            regions: ["North Oregon Coast"],
            source: "nws")
        #expect(AlertLifecycle.current([official, pirate], now: t0 + 60).map(\.id) == ["NWS-1"])
    }

    @Test func inEffectFirstThenMostSevereThenEarliest() {
        let upcomingExtreme = warning("1", severity: .extreme, event: "Hurricane", start: t0, onset: t0 + 5 * hour)
        let minor = warning("2", severity: .minor, event: "Frost", start: t0 - hour)
        let severeLater = warning("3", severity: .severe, event: "Storm", start: t0 - hour, onset: t0 - 10)
        let severeEarlier = warning("4", severity: .severe, event: "Gale", start: t0 - 2 * hour)
        let unknown = warning("5", severity: .unknown, event: "Statement", start: t0 - 3 * hour)
        let upcomingMinor = warning("6", severity: .minor, event: "Fog", start: t0 + hour)
        let shown = AlertLifecycle.current(
            [upcomingMinor, upcomingExtreme, minor, unknown, severeLater, severeEarlier], now: t0)
        #expect(shown.map(\.id) == ["4", "3", "2", "5", "1", "6"])
    }

    @Test func manyMessagesAreBounded() {
        let messages = (0..<1000).map { index in
            warning("id-\(index)", event: "Event \(index)", start: t0, end: t0 + hour)
        }
        let shown = AlertLifecycle.current(messages, now: t0)
        #expect(shown.count == AlertLimits.alertsPerPlace)
        #expect(shown.first?.id == "id-0")
        let manyRegions = (0..<100).map { index in
            warning("same", start: t0, regions: ["Area \(index)"])
        }
        #expect(AlertLifecycle.current(manyRegions, now: t0).first?.regions.count == AlertLimits.regions)
    }

    @Test func timesThatAreNoTimesAreNone() {
        let broken = warning("A", start: .nan, onset: .infinity, end: .nan)
        #expect(AlertLifecycle.isInEffect(broken, now: t0))
        #expect(AlertLifecycle.current([broken], now: t0).count == 1)
        #expect(AlertLifecycle.nextChange([broken], after: t0) == nil)
    }
}
