import Testing

@testable import RainCore
@testable import RainDaemonCore

/// The places a person looks at (`PlaceAttention`): the selected one, and
/// those asked for within the hour; with the clock as a parameter.
@Suite struct PlaceAttentionTests {
    let t0 = 1_800_000_000.0
    let paris = LocationID("paris-fr")
    let berlin = LocationID("berlin-de")
    let portland = LocationID("portland-us")

    @Test func theSelectedPlaceAndThoseAskedForWithinTheHour() {
        var attention = PlaceAttention()
        let ids = [berlin, paris, portland]
        #expect(attention.lookedAt(ids, selected: paris, now: t0) == [paris])
        attention.asked(portland, at: t0)
        #expect(attention.lookedAt(ids, selected: paris, now: t0 + 3599) == [paris, portland])
        #expect(attention.lookedAt(ids, selected: paris, now: t0 + 3600) == [paris], "an hour later: not any more")
        #expect(attention.lookedAt(ids, selected: nil, now: t0 + 60) == [portland])
        attention.keep(only: [paris])
        #expect(attention.lookedAt(ids, selected: nil, now: t0 + 60).isEmpty, "a place removed is forgotten")
    }

    @Test func whatFellDueWhileAsleep_atOnceWhenLookedAt_spreadOverTheIntervalOtherwise() {
        let due = t0 - 7200
        // On time (the timer's slack): when it was due, whoever looks.
        #expect(PlaceAttention.catchUp(due: t0 - 30, now: t0, interval: 1800, lookedAt: false, draw: 0.5) == t0 - 30)
        // Fell due while asleep, looked at: when it was due, that is at once.
        #expect(PlaceAttention.catchUp(due: due, now: t0, interval: 1800, lookedAt: true, draw: 0.5) == due)
        // Nobody looks: at its draw of the interval from now.
        #expect(PlaceAttention.catchUp(due: due, now: t0, interval: 1800, lookedAt: false, draw: 0.5) == t0 + 900)
        #expect(PlaceAttention.catchUp(due: due, now: t0, interval: 1800, lookedAt: false, draw: 7) == t0 + 1800)
    }
}
