import RainCore

/// The selected place's nowcast demand: whether anyone can use its short
/// refreshes (`NowcastWatch`), told to the scheduler, and `NowcastChanged`
/// when its outlook changes.
extension Refresher {
    /// Set while rain notifications can be shown: someone can use the
    /// nowcast even with no subscriber connected.
    public var notificationsWantNowcast: Bool {
        get { nowcast.notificationsWant }
        set {
            nowcast.notificationsWant = newValue
            nowcastDemandChanged()
        }
    }

    /// Someone may have started or stopped being able to use the nowcast (a
    /// subscriber came or went, notifications were turned on or off): the
    /// selected place's next refresh follows.
    public func nowcastDemandChanged() {
        updateNowcastDemand()
        reschedule()
    }

    /// Tells the scheduler whether the selected place's nowcast is wanted.
    func updateNowcastDemand() {
        let selected = list.selectedID
        let hasNowcast = selected.flatMap { store[$0]?.forecast.nowcast } != nil
        scheduler.setNowcastWanted(nowcast.wanted(hasNowcast: hasNowcast), selected: selected, now: now)
    }

    /// Publishes `NowcastChanged` when the selected place's outlook,
    /// `current` (as served with its forecast), differs materially from the
    /// one last published.
    func publishNowcastChange(_ id: LocationID, _ current: Nowcast?) {
        guard id == list.selectedID, let change = nowcast.change(of: id, to: current) else { return }
        events.emit(.published(.nowcastChanged(id, current, change)))
    }

    func resetNowcastBaseline(now time: Double) {
        let selected = list.selectedID
        nowcast.resetBaseline(selected, selected.flatMap { store[$0]?.forecast.nowcast?.at(time) })
    }
}
