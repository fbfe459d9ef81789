import RainCore

/// The station whose observations judge a place's forecasts: the nearest
/// one within `maximumDistanceMetres` whose height differs from the
/// place's by at most `maximumHeightDifferenceMetres` (docs/OBSERVATIONS.md,
/// "The verifying station", says why these limits). A place with no such
/// station is not scored: it says so, instead of being judged against
/// weather that is not its own.
public enum VerifyingStation {
    /// 25 km: about the distance over which hourly temperature at two
    /// points in open country stays within the 2 °C a forecast is judged
    /// by, and the distance at which raind already calls a Bright Sky
    /// station far (`BrightSky.farStationMetres`). Beyond it, showers and
    /// sea breezes differ between the place and the station more often than
    /// forecasts differ from each other.
    public static let maximumDistanceMetres = 25_000.0
    /// 300 m: at the standard lapse rate (6.5 °C per km) a station 300 m
    /// higher or lower is some 2 °C colder or warmer, the whole margin a
    /// forecast is given; the same limit raind puts on Bright Sky's
    /// fallback stations (`BrightSky.maximumHeightDifference`).
    public static let maximumHeightDifferenceMetres = 300.0
    /// Stations considered from one list (a box around a place, a grid
    /// cell's list): the nearest hundred hold every one within reach.
    public static let maximumCandidates = 100

    /// What was chosen for a place.
    public enum Choice: Equatable, Sendable {
        /// This station, this far from the place; `heightDifferenceMetres`
        /// the station's height minus the place's, nil when either is unknown.
        case station(ObservationStation, distanceMetres: Double, heightDifferenceMetres: Double?)
        /// No station represents the place: why, for people.
        case none(String)
    }

    /// The nearest of `candidates` to `place` within both limits.
    /// `placeHeight`: the place's height above sea level in metres, when
    /// known; unknown, only the distance is checked.
    public static func choose(
        _ candidates: [ObservationStation], for place: Location, placeHeight: Double?
    ) -> Choice {
        let measured =
            candidates.prefix(maximumCandidates)
            .map { ($0, $0.distanceMetres(latitude: place.latitude, longitude: place.longitude)) }
            .filter { $0.1.isFinite }
            .sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
        var tooHigh: (ObservationStation, Double)?
        for (station, distance) in measured where distance <= maximumDistanceMetres {
            let difference = heightDifference(station, placeHeight: placeHeight)
            if let difference, abs(difference) > maximumHeightDifferenceMetres {
                if tooHigh == nil { tooHigh = (station, difference) }
                continue
            }
            return .station(station, distanceMetres: distance, heightDifferenceMetres: difference)
        }
        if let found = tooHigh {
            let (station, difference) = found
            let metres = Int(abs(difference).rounded())
            let side = difference > 0 ? "higher" : "lower"
            return .none(
                "the nearest station within \(Int(maximumDistanceMetres / 1000)) km, \(station.name), stands \(metres) m \(side) than the place, more than \(Int(maximumHeightDifferenceMetres)) m"
            )
        }
        if let nearest = measured.first {
            let (station, distance) = nearest
            return .none(
                "the nearest station, \(station.name), is \(Int((distance / 1000).rounded())) km away, more than \(Int(maximumDistanceMetres / 1000)) km"
            )
        }
        return .none("no station reports within \(Int(maximumDistanceMetres / 1000)) km")
    }

    /// The station's height minus the place's, to the metre; nil when either is unknown.
    static func heightDifference(_ station: ObservationStation, placeHeight: Double?) -> Double? {
        guard let height = station.heightMetres, let placeHeight, placeHeight.isFinite else { return nil }
        return (height - placeHeight).rounded()
    }
}
