/// IDL `PlaceObservation`: what raind holds of a place's verifying
/// station (docs/OBSERVATIONS.md), in `GetForecast`: the station, how far
/// from the place and how much higher or lower, its latest observation,
/// and what went wrong; or, for a place no station represents, why.
public struct PlaceObservation: Codable, Sendable, Equatable {
    /// The place.
    public var id: LocationID
    /// The source (`metar`, `nws`, `dwd`); nil when the place has no station.
    public var source: String?
    public var station: ObservationStation?
    /// Metres from the place.
    public var distanceMetres: Double?
    /// The station's height minus the place's, metres; nil when either is unknown.
    public var heightDifferenceMetres: Double?
    /// The latest observation; nil until the station first answers.
    public var observation: Observation?
    /// Why the place has no station, or why the last poll failed.
    public var problem: String?
    /// The credit the source's licence asks for, shown with its observations; nil without a station.
    public var attribution: Attribution?

    public init(
        id: LocationID, source: String? = nil, station: ObservationStation? = nil, distanceMetres: Double? = nil,
        heightDifferenceMetres: Double? = nil, observation: Observation? = nil, problem: String? = nil,
        attribution: Attribution? = nil
    ) {
        self.attribution = attribution
        self.id = id
        self.source = source
        self.station = station
        self.distanceMetres = distanceMetres
        self.heightDifferenceMetres = heightDifferenceMetres
        self.observation = observation
        self.problem = problem
    }
}
