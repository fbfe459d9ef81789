/// The eight phases people name. The four principal ones hold on the
/// local day their instant falls on (as almanacs and calendars print
/// them: "First quarter" on the day of the first quarter), the four in
/// between on the days from one to the next.
public enum MoonPhaseName: String, CaseIterable, Equatable, Sendable {
    case new = "new-moon"
    case waxingCrescent = "waxing-crescent"
    case firstQuarter = "first-quarter"
    case waxingGibbous = "waxing-gibbous"
    case full = "full-moon"
    case waningGibbous = "waning-gibbous"
    case lastQuarter = "last-quarter"
    case waningCrescent = "waning-crescent"

    /// The name of a principal phase's day.
    init(_ phase: LunarPhase) {
        switch phase {
        case .new: self = .new
        case .firstQuarter: self = .firstQuarter
        case .full: self = .full
        case .lastQuarter: self = .lastQuarter
        }
    }

    /// The name of the days after a principal phase, up to the next.
    init(after phase: LunarPhase) {
        switch phase {
        case .new: self = .waxingCrescent
        case .firstQuarter: self = .waxingGibbous
        case .full: self = .waningGibbous
        case .lastQuarter: self = .waningCrescent
        }
    }

    /// Whether this is one of the four principal phases.
    public var isPrincipal: Bool {
        switch self {
        case .new, .firstQuarter, .full, .lastQuarter: return true
        default: return false
        }
    }
}
