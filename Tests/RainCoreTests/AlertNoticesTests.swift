import Testing

@testable import RainCore
@testable import RainDaemonCore

/// Which alerts notify, grouped, replaced and closed, with the tests' clock.
@Suite struct AlertNoticesTests {
    let munich = LocationID("munich-de")
    let now = 1_800_000_000.0

    func alert(
        _ id: String, _ severity: AlertSeverity = .severe, event: String? = nil, onset: Double? = nil,
        end: Double? = nil, type: AlertMessageType = .alert, references: [String]? = nil
    ) -> WeatherAlert {
        WeatherAlert(
            title: "\(event ?? id) warning", severity: severity, start: now - 600, end: end ?? now + 7200, id: id,
            event: event, onset: onset, messageType: type, references: references, source: "dwd")
    }

    func decide(
        _ alerts: [WeatherAlert], _ record: NotificationRecord = NotificationRecord(), minimum: AlertSeverity = .severe,
        at time: Double? = nil
    ) -> (actions: [AlertNotices.Action], record: NotificationRecord) {
        AlertNotices.decide(place: munich, alerts: alerts, record: record, minimum: minimum, now: time ?? now)
    }

    /// The record after `decide`, as if the server had answered every Notify with `id`.
    func answered(_ record: NotificationRecord, id: UInt32) -> NotificationRecord {
        var record = record
        for index in record.alerts.indices where record.alerts[index].notification == 0 {
            record.alerts[index].notification = id
        }
        return record
    }

    func shown(_ actions: [AlertNotices.Action]) -> [AlertNotices.Notice] {
        actions.compactMap { if case .show(let notice) = $0 { return notice } else { return nil } }
    }

    @Test func alertsInEffect_areTheOnesBegunAndNotEnded() {
        let begun = WeatherAlert(title: "a", start: now - 60, end: now + 60)
        #expect(begun.isInEffect(at: now))
        #expect(WeatherAlert(title: "no times").isInEffect(at: now))
        #expect(WeatherAlert(title: "at its start", start: now).isInEffect(at: now))
        #expect(!WeatherAlert(title: "at its end", start: now - 60, end: now).isInEffect(at: now))
        // The onset rules over the start: issued now for the afternoon is upcoming.
        let afternoon = WeatherAlert(title: "later", start: now - 60, end: now + 9000, onset: now + 3600)
        #expect(!afternoon.isInEffect(at: now))
        #expect(afternoon.isUpcoming(at: now))
        #expect(afternoon.isInEffect(at: now + 3600))
        #expect(!afternoon.isUpcoming(at: now + 3600))
        #expect(!WeatherAlert(title: "c", start: now - 60, messageType: .cancel).isInEffect(at: now))
    }

    @Test func newAlertsAtOnePlace_makeOneNotification_mostSevereFirst() {
        let alerts = [
            alert("storm", .severe, event: "Storm"), alert("frost", .moderate, event: "Frost"),
            alert("rain", .extreme, event: "Heavy rain"), alert("fog", .minor, event: "Fog"),
        ]
        let decision = decide(alerts, minimum: .moderate)
        let notices = shown(decision.actions)
        #expect(decision.actions.count == 1)
        #expect(notices.first?.alerts.map(\.event) == ["Heavy rain", "Storm", "Frost"], "Fog is below the minimum")
        #expect(notices.first?.replaces == 0)
        #expect(notices.first?.isUpdate == false)
        #expect(decision.record.alerts.map(\.key) == ["storm", "frost", "rain"])
        #expect(Set(decision.record.alerts.map(\.group)).count == 1, "one notification for the three")
        // Reported again: nothing more.
        #expect(decide(alerts, answered(decision.record, id: 4), minimum: .moderate).actions.isEmpty)
    }

    @Test func anUpcomingAlert_isNotifiedAtItsOnset() {
        let frost = alert("frost", event: "Frost", onset: now + 3600, end: now + 9000)
        let before = decide([frost])
        #expect(before.actions.isEmpty)
        #expect(before.record.alerts.isEmpty)
        let atOnset = decide([frost], before.record, at: now + 3600)
        #expect(shown(atOnset.actions).map(\.alerts) == [[frost]])
    }

    @Test func anUpdate_replacesTheNotificationItUpdates() {
        let first = answered(decide([alert("w1", .severe)]).record, id: 7)
        let update = alert("w2", .extreme, type: .update, references: ["w1"])
        let decision = decide([update], first)
        #expect(
            decision.actions == [
                .show(
                    .init(
                        place: munich, group: first.alerts[0].group ?? 0, alerts: [update], replaces: 7, isUpdate: true)
                )
            ])
        #expect(decision.record.alerts.map(\.key) == ["w2"])
        #expect(decision.record.alerts.map(\.notification) == [7])
        // The original and its update in one report (no lifecycle applied): the update only.
        #expect(shown(decide([alert("w1"), update], first).actions).map(\.alerts) == [[update]])
        // An update of an alert shown shows however low its severity now is.
        let lowered = alert("w3", .minor, type: .update, references: ["w1"])
        #expect(shown(decide([lowered], first).actions).map(\.replaces) == [7])
    }

    @Test func theSameAlertMoreSevere_replacesIt_lessSevere_doesNot() {
        let first = answered(decide([alert("w1", .severe)]).record, id: 3)
        #expect(shown(decide([alert("w1", .extreme)], first).actions).map(\.replaces) == [3])
        #expect(decide([alert("w1", .moderate)], first).actions.isEmpty)
    }

    @Test func aCancelledAlert_closesItsNotification() {
        let first = answered(decide([alert("w1")]).record, id: 9)
        let cancel = alert("w1-cancel", type: .cancel, references: ["w1"])
        let decision = decide([cancel], first)
        #expect(decision.actions == [.close(place: munich, group: first.alerts[0].group ?? 0, notification: 9)])
        #expect(decision.record.alerts.isEmpty)
        // Withdrawn without a word (no longer reported) closes it too, and so does its end.
        #expect(decide([], first).actions.count == 1)
        let ended = decide([alert("w1")], first, at: now + 7200)
        #expect(ended.actions == [.close(place: munich, group: first.alerts[0].group ?? 0, notification: 9)])
    }

    @Test func inAGroup_oneWithdrawnIsTakenOut_oneThatRanOutIsLeft_theLastClosesIt() {
        let short = alert("short", event: "Storm", end: now + 600)
        let long = alert("long", event: "Frost", end: now + 7200)
        let other = alert("other", event: "Rain", end: now + 7200)
        let shown3 = answered(decide([short, long, other]).record, id: 5)
        let group = shown3.alerts[0].group ?? 0
        // "other" is cancelled: the notification is shown again without it.
        let cancelled = decide([short, long, alert("c", type: .cancel, references: ["other"])], shown3)
        #expect(
            cancelled.actions == [
                .show(.init(place: munich, group: group, alerts: [short, long], replaces: 5, isUpdate: true))
            ])
        // "short" runs out: its end was in the notification, which stays as it is.
        let ranOut = decide([short, long], cancelled.record, at: now + 600)
        #expect(ranOut.actions.isEmpty)
        #expect(ranOut.record.alerts.map(\.key) == ["long"])
        // The last one ends: closed.
        #expect(
            decide([long], ranOut.record, at: now + 7200).actions == [
                .close(place: munich, group: group, notification: 5)
            ])
    }

    @Test func newAlertsBesideOnesShown_makeANotificationOfTheirOwn() {
        let first = answered(decide([alert("a")]).record, id: 1)
        let decision = decide([alert("a"), alert("b"), alert("c")], first)
        let notices = shown(decision.actions)
        #expect(notices.map { $0.alerts.compactMap(\.id) } == [["b", "c"]])
        #expect(notices.first?.replaces == 0)
        #expect(notices.first?.group != first.alerts[0].group)
    }

    @Test func aLowerMinimum_showsTheAlertsInEffectItNowLetsThrough() {
        let alerts = [alert("s", .severe), alert("m", .moderate), alert("n", .minor)]
        let strict = answered(decide(alerts).record, id: 2)
        #expect(strict.alerts.map(\.key) == ["s"])
        // A reload with MinimumSeverity=moderate decides the same alerts anew.
        let lowered = decide(alerts, strict, minimum: .moderate)
        #expect(shown(lowered.actions).map { $0.alerts.compactMap(\.id) } == [["m"]])
        // Raised again: nothing is shown, and what was shown stays until it ends.
        let raised = decide(alerts, answered(lowered.record, id: 3), minimum: .extreme)
        #expect(raised.actions.isEmpty)
        #expect(raised.record.alerts.map(\.key) == ["s", "m"])
    }

    @Test func anAlertOfUnknownSeverity_notifiesUnderEveryMinimumButExtreme() {
        let unknown = alert("u", .unknown)
        #expect(AlertNotices.notifies(unknown, minimum: .severe))
        #expect(AlertNotices.notifies(unknown, minimum: .moderate))
        #expect(AlertNotices.notifies(unknown, minimum: .unknown))
        #expect(!AlertNotices.notifies(unknown, minimum: .extreme))
        #expect(!AlertNotices.notifies(alert("m", .moderate), minimum: .severe))
        #expect(AlertNotices.notifies(alert("m", .minor), minimum: .unknown))
        #expect(shown(decide([unknown]).actions).count == 1, "the default does not drop it")
    }

    /// Read back after a restart, the alerts that ended meanwhile are
    /// dropped; those in force are kept, so they are not shown again.
    @Test func alertsThatEndedWhileStopped_leaveTheRecord_theOthersStay() {
        let record = answered(decide([alert("over", end: now + 600), alert("on", end: now + 7200)]).record, id: 3)
        #expect(record.alerts.count == 2)
        let later = record.withoutAlertsEnded(before: now + 3600)
        #expect(later.alerts.map(\.key) == ["on"])
        #expect(shown(decide([alert("on", end: now + 7200)], later, at: now + 3600).actions).isEmpty, "not again")
    }

    @Test func theRecordStaysBounded_andAnOlderRecordIsRead() throws {
        let many = (0..<700).map { alert("a\($0)") }
        let decision = decide(many)
        #expect(decision.record.alerts.count == NotificationRecord.maximumAlerts)
        #expect(decision.actions.count == 1)
        #expect(NotificationRecord(bytes: decision.record.bytes) == decision.record)
        // A record written before groups: each alert is its own notification.
        let old = Array(
            #"{"alerts":[{"place":"munich-de","key":"a","severity":"Severe","notification":4},{"place":"munich-de","key":"b","severity":"Severe","notification":5}],"rain":null}"#
                .utf8)
        let record = try #require(NotificationRecord(bytes: old))
        let cancelB = decide([alert("a")], record)
        #expect(cancelB.actions.count == 1)
        guard case .close(_, _, let id) = cancelB.actions.first else {
            Issue.record("b no longer reported: its notification closes")
            return
        }
        #expect(id == 5)
    }
}
