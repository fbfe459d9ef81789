/// Rain in the next one to two hours at a place, from the provider's
/// short-range data (Open-Meteo's `minutely_15`, Pirate Weather's `minutely`):
/// whether it is raining now, when rain starts or stops, how heavy it gets at
/// its peak, and one line saying so. Derived from `steps` as of `time`; the
/// same steps give another nowcast a little later (`at(_:)`), so the daemon
/// derives it anew whenever it serves a forecast.
///
/// The rules (docs/PROTOCOL.md, "Nowcast"):
/// - a step is wet when its intensity is at least `wetIntensity` (0.1 mm/h)
///   and its probability, when the provider gives one, at least
///   `wetProbability` (0.5: more likely than not);
/// - only known steps count, from the one containing `time` for at most
///   `horizon` (2 h): the first unknown step (a null, a -999, a negative or
///   absurd value, a gap in the times) ends what is known, `coveredUntil`;
/// - the rain spoken of is the episode in progress, else the first one
///   ahead; its peak intensity gives the class (`RainIntensity`).
public struct Nowcast: Equatable, Sendable, Codable {
    /// The moment this nowcast is for (Unix seconds).
    public var time: Double
    /// How long each step lasts: 900 s for Open-Meteo, 60 s for Pirate Weather.
    public var resolutionSeconds: Int
    /// The end of the known data looked at (at most `horizon` after `time`).
    public var coveredUntil: Double
    public var rainingNow: Bool
    /// When rain starts, if it is not raining now and rain comes within the data.
    public var startsAt: Double?
    /// When the rain in progress or ahead stops; nil when it does not stop within the data (or there is none).
    public var stopsAt: Double?
    /// The highest intensity of that rain, mm/h.
    public var peakIntensity: Double?
    public var intensity: RainIntensity?
    /// Whether more rain follows after that rain stops, within the data.
    public var intermittent: Bool
    /// One line for people: "Light rain starting in about 20 min, for about 40 min".
    public var summary: String
    /// The provider's steps, oldest first, each `resolutionSeconds` long.
    public var steps: [NowcastStep]

    /// How far ahead a nowcast looks.
    public static let horizon: Double = 7200
    /// The least intensity that counts as rain, mm/h.
    public static let wetIntensity = 0.1
    /// The least probability (when given) that counts as rain.
    public static let wetProbability = 0.5
    /// Intensities above this (mm/h) are not rain but broken data, and read as unknown.
    public static let plausibleIntensity: ClosedRange<Double> = 0...500

    /// The nowcast of `steps` as of `now`; nil when no known step contains
    /// `now` or starts within one step after it (the data is too old, or there is none).
    public init?(steps: [NowcastStep], resolutionSeconds: Int, now: Double) {
        // A time no forecast may hold (`Forecast.plausibleTimes`) makes the
        // whole series unusable, never the forecast it came with.
        guard resolutionSeconds > 0, now.isFinite,
            steps.allSatisfy({ Forecast.plausibleTimes.contains($0.time) })
        else { return nil }
        let resolution = Double(resolutionSeconds)
        let end = now + Self.horizon
        guard let first = steps.firstIndex(where: { now < $0.time + resolution }),
            steps[first].time < now + resolution
        else { return nil }
        // The known steps, contiguous, from the one containing `now`.
        var window: [(start: Double, intensity: Double, wet: Bool)] = []
        var expected = steps[first].time
        for step in steps[first...] {
            guard step.time < end, abs(step.time - expected) < 1, let intensity = step.precipIntensity else { break }
            window.append((step.time, intensity, step.isWet))
            expected = step.time + resolution
        }
        guard let last = window.last else { return nil }
        self.time = now
        self.resolutionSeconds = resolutionSeconds
        self.steps = steps
        coveredUntil = min(last.start + resolution, end)
        rainingNow = window[0].wet && window[0].start <= now
        intermittent = false
        startsAt = nil
        stopsAt = nil
        peakIntensity = nil
        intensity = nil
        if let rainStart = window.firstIndex(where: \.wet) {
            let rainEnd = window[rainStart...].firstIndex { !$0.wet }
            startsAt = rainingNow ? nil : max(now, window[rainStart].start)
            stopsAt = rainEnd.map { window[$0].start }
            let peak = window[rainStart..<(rainEnd ?? window.count)].map(\.intensity).max() ?? 0
            peakIntensity = peak
            intensity = RainIntensity(millimetresPerHour: peak)
            if let rainEnd { intermittent = window[rainEnd...].contains(where: \.wet) }
        }
        summary = ""
        summary = describe()
    }

    /// A nowcast as it was derived and stored, field by field: what the
    /// daemon reads back from its cache (`Forecast+Reading.swift`, in RainDaemonCore).
    public init(
        time: Double, resolutionSeconds: Int, coveredUntil: Double, rainingNow: Bool, startsAt: Double?,
        stopsAt: Double?, peakIntensity: Double?, intensity: RainIntensity?, intermittent: Bool, summary: String,
        steps: [NowcastStep]
    ) {
        self.time = time
        self.resolutionSeconds = resolutionSeconds
        self.coveredUntil = coveredUntil
        self.rainingNow = rainingNow
        self.startsAt = startsAt
        self.stopsAt = stopsAt
        self.peakIntensity = peakIntensity
        self.intensity = intensity
        self.intermittent = intermittent
        self.summary = summary
        self.steps = steps
    }

    /// The same data as of another moment.
    public func at(_ now: Double) -> Nowcast? {
        Nowcast(steps: steps, resolutionSeconds: resolutionSeconds, now: now)
    }

    /// The rain this nowcast speaks of, from its start (which may lie before
    /// `time` when it is raining now) to its end (nil: beyond the data).
    public var episode: RainEpisode? {
        if let startsAt { return RainEpisode(start: startsAt, end: stopsAt, coveredUntil: coveredUntil) }
        guard rainingNow else { return nil }
        // Walk back over the wet steps before now for when this rain began.
        let resolution = Double(resolutionSeconds)
        guard var index = steps.lastIndex(where: { $0.time <= time }) else { return nil }
        var start = steps[index].time
        while index > 0, abs(steps[index - 1].time + resolution - start) < 1, steps[index - 1].isWet {
            index -= 1
            start = steps[index].time
        }
        return RainEpisode(start: start, end: stopsAt, coveredUntil: coveredUntil)
    }

    /// A value the provider sent as a step's intensity, as raind keeps it:
    /// nil unless a finite number in `plausibleIntensity` (a -999 marker, a
    /// negative or absurd value is unknown, not rain).
    public static func checkedIntensity(_ value: Double?) -> Double? {
        guard let value, value.isFinite, plausibleIntensity.contains(value) else { return nil }
        return value
    }

    /// A probability as raind keeps it: nil unless a finite number in 0...1.
    public static func checkedProbability(_ value: Double?) -> Double? {
        guard let value, value.isFinite, (0...1).contains(value) else { return nil }
        return value
    }

    // MARK: Summary

    private func describe() -> String {
        // Whole sentences, one per case, so a translation can order its parts.
        guard let intensity else { return tr("No rain in the next {span}", ["span": Self.span(coveredUntil - time)]) }
        let rain = intensity.phrase
        if rainingNow {
            guard let stopsAt else {
                return tr(
                    "{rain} for at least the next {span}", ["rain": rain, "span": Self.span(coveredUntil - time)])
            }
            let span = Self.span(stopsAt - time)
            return intermittent
                ? tr("{rain} stopping in about {span}, then on and off", ["rain": rain, "span": span])
                : tr("{rain} stopping in about {span}", ["rain": rain, "span": span])
        }
        guard let startsAt else { return rain }
        let soon = startsAt - time < 60
        let start = Self.span(startsAt - time)
        guard let stopsAt else {
            return soon
                ? tr("{rain} starting now", ["rain": rain])
                : tr("{rain} starting in about {start}", ["rain": rain, "start": start])
        }
        let length = Self.span(stopsAt - startsAt)
        switch (soon, intermittent) {
        case (true, false):
            return tr("{rain} starting now, for about {length}", ["rain": rain, "length": length])
        case (true, true):
            return tr("{rain} starting now, for about {length}, then on and off", ["rain": rain, "length": length])
        case (false, false):
            return tr(
                "{rain} starting in about {start}, for about {length}",
                ["rain": rain, "start": start, "length": length])
        case (false, true):
            return tr(
                "{rain} starting in about {start}, for about {length}, then on and off",
                ["rain": rain, "start": start, "length": length])
        }
    }

    /// A duration rounded as people say it: whole minutes under 10, fives
    /// under an hour, quarters of an hour beyond.
    static func span(_ seconds: Double) -> String {
        let minutes = max(0, seconds) / 60
        let rounded: Int
        if minutes < 9.5 {
            rounded = max(1, Int(minutes.rounded()))
        } else if minutes < 57.5 {
            rounded = Int((minutes / 5).rounded()) * 5
        } else {
            rounded = Int((minutes / 15).rounded()) * 15
        }
        if rounded < 60 { return trn("{count} min", "{count} min", rounded) }
        let hours = rounded / 60
        let rest = rounded % 60
        let whole = trn("{count} h", "{count} h", hours)
        return rest == 0
            ? whole : tr("{hours} {minutes}", ["hours": whole, "minutes": trn("{count} min", "{count} min", rest)])
    }
}
