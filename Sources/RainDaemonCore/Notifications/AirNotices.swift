import RainCore

/// When the air or the sun at a place notifies (docs/PROTOCOL.md, "Desktop
/// notifications"): once per episode, with hysteresis. Pure: the notifier
/// gives it the air as served, the episodes shown (`NotificationRecord.air`)
/// and the thresholds, and does what it returns.
///
/// - **Air.** An episode begins when the index rises into the configured
///   level (`[Notifications] AirQuality=poor`: the index's category at or
///   above it). While it lasts, a rise into a worse category updates its
///   notification in place; hovering at the threshold, or falling back
///   within the band, shows nothing. It ends, and its notification closes,
///   only when the index falls `AirQualityIndex.hysteresis` points below
///   the threshold's lower bound (5 European, 10 US points).
/// - **UV.** An episode begins when the UV index reaches the configured WHO
///   category (`UVIndex=very-high`: 8, that is 7.5 before rounding) and ends
///   when it falls a whole point below that (6.5): the sun's daily course
///   makes one episode a day at most.
/// - Air data that stops (the place removed, `[Air] Enabled=no`) ends its
///   episodes; a value the provider did not give changes nothing.
public enum AirNotices {
    /// What a notice is about.
    public enum Kind: String, Sendable, Codable, Equatable {
        case air, uv
    }

    /// One notification to show (or to update in place, `replaces` ≠ 0).
    public struct Notice: Equatable, Sendable {
        public var place: LocationID
        public var kind: Kind
        public var title: String
        /// The index's or the WHO's health advice.
        public var advice: String
        /// The notification it updates; 0 for a new episode.
        public var replaces: UInt32
    }

    public enum Action: Equatable, Sendable {
        case show(Notice)
        /// The episode ended: close its notification (0: none known yet).
        case close(place: LocationID, kind: Kind, notification: UInt32)
    }

    /// What to do for `place`'s `air` (nil: no air data any more) given the
    /// episodes shown; `airLevel` (2–6) and `uv` are the thresholds, nil for
    /// off. Returns the episodes as they are after the actions.
    public static func decide(
        place: LocationID, placeName: String, air: AirQuality?, episodes: [NotificationRecord.AirEntry],
        airLevel: Int?, uv: UVCategory?
    ) -> (episodes: [NotificationRecord.AirEntry], actions: [Action]) {
        var kept = episodes.filter { $0.place != place }
        var actions: [Action] = []
        let mine = episodes.filter { $0.place == place }
        for kind in [Kind.air, .uv] {
            let shown = mine.first { $0.kind == kind }
            let reading: (rank: Int, value: Double, start: Double, end: Double, title: String, advice: String)?
            switch kind {
            case .air:
                guard let air, let threshold = airLevel, let aqi = air.aqi, let category = air.category else {
                    reading = nil
                    break
                }
                let bound = Double(air.index.lowerBound(ofLevel: threshold))
                reading = (
                    category.level, Double(aqi), bound, bound - Double(air.index.hysteresis),
                    AirWording.alertTitle(place: placeName, air), AirWording.advice(category)
                )
            case .uv:
                guard let air, let threshold = uv, let index = air.uvIndex else {
                    reading = nil
                    break
                }
                let category = UVCategory(index: index)
                reading = (
                    UVCategory.allCases.firstIndex(of: category) ?? 0, index, threshold.lowerBound,
                    threshold.lowerBound - 1, AirWording.uvTitle(place: placeName, index: index),
                    AirWording.advice(category)
                )
            }
            guard let reading else {
                // No data any more (or the threshold is off): the episode ends.
                // A value merely missing from fresh data keeps it.
                let valueMissing = air != nil && (kind == .air ? airLevel != nil : uv != nil)
                if let shown {
                    if valueMissing {
                        kept.append(shown)
                    } else {
                        actions.append(.close(place: place, kind: kind, notification: shown.notification))
                    }
                }
                continue
            }
            if var shown {
                if reading.value < reading.end {
                    actions.append(.close(place: place, kind: kind, notification: shown.notification))
                    continue
                }
                if reading.rank > shown.rank {
                    shown.rank = reading.rank
                    actions.append(
                        .show(
                            Notice(
                                place: place, kind: kind, title: reading.title, advice: reading.advice,
                                replaces: shown.notification)))
                }
                kept.append(shown)
            } else if reading.value >= reading.start {
                kept.append(NotificationRecord.AirEntry(place: place, kind: kind, rank: reading.rank, notification: 0))
                actions.append(
                    .show(
                        Notice(
                            place: place, kind: kind, title: reading.title, advice: reading.advice, replaces: 0)))
            }
        }
        return (kept, actions)
    }

    /// Forgets `place`'s episodes (it was removed), with the notifications to close.
    public static func forget(
        place: LocationID, in episodes: [NotificationRecord.AirEntry]
    ) -> (
        episodes: [NotificationRecord.AirEntry], closing: [UInt32]
    ) {
        (episodes.filter { $0.place != place }, episodes.filter { $0.place == place }.map(\.notification))
    }
}
