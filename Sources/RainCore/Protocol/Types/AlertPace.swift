/// IDL `AlertPace`: how often one place's official alerts are asked for
/// now, and why (docs/ALERTS.md, "Polling that follows the weather").
public struct AlertPace: Codable, Sendable, Equatable {
    /// Why a place is polled at its pace: an alert, a severe signal in its
    /// forecast for the next 12 hours, no forecast to judge by, or calm.
    public enum Reason: String, WireEnum {
        case alertInEffect, alertUpcoming
        case thunderstorm, gusts, wind, heavyRain, heavySnow, heat, cold
        case noForecast, calm
    }

    /// The place (its id).
    public var place: LocationID
    /// Seconds between two polls of the place now, before jitter.
    public var pollingSeconds: Double
    /// Whether that is the service's own rate (true) or the calm one.
    public var fast: Bool
    public var reason: Reason
    /// When the alert or the forecast's signal begins (Unix seconds); nil for the others.
    public var at: Double?
    /// The longest a warning the service publishes can take to reach raind
    /// at this pace while the service answers: the interval with its
    /// jitter, and the age of an answer shared with another place.
    public var worstDelaySeconds: Double

    public init(
        place: LocationID, pollingSeconds: Double, fast: Bool, reason: Reason, at: Double? = nil,
        worstDelaySeconds: Double
    ) {
        self.place = place
        self.pollingSeconds = pollingSeconds
        self.fast = fast
        self.reason = reason
        self.at = at
        self.worstDelaySeconds = worstDelaySeconds
    }
}
