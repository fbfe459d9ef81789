/// What changed between two nowcasts of a place in a way a person would care
/// about: rain started or stopped, rain is now expected or no longer, its
/// start or end moved by more than the data's resolution, or its intensity
/// class changed. Time passing alone, or a refresh with the same outlook,
/// changes nothing. raind publishes `NowcastChanged` only when `between`
/// finds a change; a notifier shows "rain soon" once per `newEpisode`.
public struct NowcastChange: Equatable, Sendable {
    public enum Reason: String, WireEnum {
        case rainStarted, rainStopped, rainExpected, rainNoLongerExpected, startMoved, stopMoved, intensityChanged
    }

    public var reasons: [Reason]
    /// The rain the new nowcast speaks of is not the old one's (there was none, or it does not overlap).
    public var newEpisode: Bool

    public init(reasons: [Reason], newEpisode: Bool) {
        self.reasons = reasons
        self.newEpisode = newEpisode
    }

    /// The material change from `old` to `new`, or nil when there is none.
    /// A missing nowcast counts as one without rain: the first data showing
    /// no rain is no change, the first showing rain is.
    public static func between(_ old: Nowcast?, _ new: Nowcast?) -> NowcastChange? {
        let tolerance = Double(max(old?.resolutionSeconds ?? 0, new?.resolutionSeconds ?? 0))
        var reasons: [Reason] = []
        let wasRaining = old?.rainingNow ?? false
        let isRaining = new?.rainingNow ?? false
        let oldStart = wasRaining ? nil : old?.startsAt
        let newStart = isRaining ? nil : new?.startsAt
        if isRaining != wasRaining {
            reasons.append(isRaining ? .rainStarted : .rainStopped)
        } else if !isRaining {
            switch (oldStart, newStart) {
            case (nil, .some): reasons.append(.rainExpected)
            case (.some, nil): reasons.append(.rainNoLongerExpected)
            case (let before?, let after?) where abs(before - after) > tolerance: reasons.append(.startMoved)
            default: break
            }
        }
        let hadRain = old?.intensity != nil
        let hasRain = new?.intensity != nil
        if hadRain, hasRain {
            switch (old?.stopsAt, new?.stopsAt) {
            case (nil, .some), (.some, nil): reasons.append(.stopMoved)
            case (let before?, let after?) where abs(before - after) > tolerance: reasons.append(.stopMoved)
            default: break
            }
            if old?.intensity != new?.intensity { reasons.append(.intensityChanged) }
        }
        guard !reasons.isEmpty else { return nil }
        var newEpisode = false
        if let episode = new?.episode {
            newEpisode = !(old?.episode.map { $0.isSame(as: episode, tolerance: tolerance) } ?? false)
        }
        return NowcastChange(reasons: reasons, newEpisode: newEpisode)
    }
}
