import Glibc
import RainCore

/// How raind names a position: the way a person names it.
///
/// Nearest point wins is wrong in cities: GeoNames holds districts and
/// landmarks of 15,000 people or more, so the nearest point to the
/// Brandenburg Gate is Mitte, to Times Square "Times Square", to Tokyo
/// Station Chūō. People say Berlin, New York City, Tokyo. The data has
/// population but no boundaries and no feature codes, so a city's extent is
/// estimated from its population: a disc of `coreDensity` (20,000 people per
/// km², the density of the inner parts of big cities) around its point —
/// 7.4 km for Berlin, 11.8 km for New York, 12.4 km for Tokyo, 0.6 km for a
/// town of 20,000.
///
/// The rule: among the places whose disc holds the position and which lie in
/// the same country and first-level division as the nearest place, the most
/// populous names it; when no disc holds it, the nearest place does. A town
/// next to a big city keeps its name when it lies outside the city's disc
/// (Boulogne-Billancourt, Potsdam, Kawasaki) or across a division border
/// (Hoboken, New Jersey, beside New York). Population is weighed against
/// distance through the disc's size: a city of 100 times the people reaches
/// 10 times as far.
public enum PositionNaming {
    /// People per km² in the disc that stands for a city's extent.
    public static let coreDensity = 20_000.0
    /// Within this distance of the nearest place a position takes its name...
    public static let namedAfterKilometres = 25.0
    /// ...within this one its region, country and time zone, and is "Near"
    /// it; farther out, its coordinates name it.
    public static let sameRegionKilometres = 100.0
    /// How far the search for discs reaches: the disc of a city of 39 million.
    static let coverageSearchKilometres = 25.0

    /// Radius of the disc of a place of `population` people, in km.
    public static func coreRadiusKilometres(population: Int) -> Double {
        (Double(max(0, population)) / (Double.pi * coreDensity)).squareRoot()
    }

    /// A place at coordinates, named as given (`name`) or the way a person
    /// would name it, with the region, country and time zone of the nearest
    /// place when it is near enough to belong there; coordinates name a place
    /// far from every known one. `directory` nil: only `name` and coordinates.
    public static func candidate(
        latitude: Double, longitude: Double, name: String?, directory: PlaceDirectory?
    ) -> PlaceCandidate {
        var candidate = PlaceCandidate(name: name ?? "", latitude: latitude, longitude: longitude, source: .coordinates)
        if let directory, let nearest = directory.nearest(latitude: latitude, longitude: longitude) {
            let distance = GeoDistance.kilometres(
                latitude1: latitude, longitude1: longitude, latitude2: nearest.latitude, longitude2: nearest.longitude)
            if distance <= sameRegionKilometres {
                candidate.region = nearest.region
                candidate.country = nearest.country
                candidate.countryCode = nearest.countryCode
                candidate.timeZone = nearest.timeZone
                if name == nil {
                    if let city = directory.placeNaming(latitude: latitude, longitude: longitude) {
                        candidate.name = city.name
                    } else {
                        candidate.name = distance <= namedAfterKilometres ? nearest.name : "Near \(nearest.name)"
                    }
                }
            }
        }
        if candidate.name.isEmpty {
            candidate.name = "\(rounded(latitude)), \(rounded(longitude))"
        }
        return candidate
    }

    /// Two decimals (about a kilometre): "52.52, 13.41".
    static func rounded(_ value: Double) -> String {
        let scaled = (value * 100).rounded() / 100
        return "\(scaled)"
    }
}

extension PlaceDirectory {
    /// The place a person names a position after (`PositionNaming`): the most
    /// populous place whose estimated extent holds it, in the nearest place's
    /// division; nil when no place's extent holds it (then the nearest place,
    /// at some distance, is the best name).
    public func placeNaming(latitude: Double, longitude: Double) -> PlaceCandidate? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, count > 0 else { return nil }
        var nearestSearch = NearestSearch(file: file, latitude: latitude, longitude: longitude)
        nearestSearch.run()
        let nearest = nearestSearch.bestPlace
        var search = RadiusSearch(
            file: file, latitude: latitude, longitude: longitude,
            kilometres: PositionNaming.coverageSearchKilometres)
        search.run()
        var best: Int?
        for place in search.places
        where file.placeCountry(place) == file.placeCountry(nearest)
            && file.placeDivision(place) == file.placeDivision(nearest)
        {
            let population = file.placePopulation(place)
            if let current = best, file.placePopulation(current) >= population { continue }
            let distance = GeoDistance.kilometres(
                latitude1: latitude, longitude1: longitude,
                latitude2: file.placeLatitude(place), longitude2: file.placeLongitude(place))
            if distance <= PositionNaming.coreRadiusKilometres(population: population) { best = place }
        }
        return best.map(candidate)
    }
}
