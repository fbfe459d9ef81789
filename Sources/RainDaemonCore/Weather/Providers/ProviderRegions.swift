import RainCore

/// Which providers `[Provider] Name=auto` asks for a place, best first: the
/// national weather service where one publishes a free, keyless forecast
/// for it, then Open-Meteo, then MET Norway (both worldwide), so a failing
/// provider always has a keyless one behind it. The region is the place's
/// country code, or for a place known only by its coordinates, the box of
/// the country it falls in (coarse: a place near a border may get the
/// neighbour's service first, which still covers it or fails over).
public enum ProviderRegions {
    /// A region with its own first choice.
    struct Region {
        /// ISO 3166-1 alpha-2 codes, upper case.
        let countries: Set<String>
        /// Latitude and longitude boxes (south, north, west, east) for places without a country code.
        let boxes: [(south: Double, north: Double, west: Double, east: Double)]
        /// Providers in order of preference, before the worldwide ones.
        let first: [ProviderName]
    }

    /// The United States and the territories the NWS forecasts for.
    static let unitedStates = Region(
        countries: ["US", "PR", "VI", "GU", "AS", "MP", "UM"],
        boxes: [
            (24.4, 49.4, -125.0, -66.9),  // the contiguous states
            (51.0, 71.5, -170.0, -129.9),  // Alaska
            (18.9, 22.3, -160.3, -154.8),  // Hawaii
            (17.8, 18.6, -67.3, -64.5),  // Puerto Rico and the Virgin Islands
        ], first: [.nws])
    /// MET Norway's own area: its models are made for the Nordic countries.
    static let nordic = Region(
        countries: ["NO", "SE", "FI", "DK", "IS", "FO", "GL", "SJ", "AX"],
        boxes: [(54.5, 71.2, 4.5, 31.6), (63.3, 66.6, -24.6, -13.5), (76.4, 80.9, 10.0, 33.5)], first: [.metNorway])
    /// The DWD's open data through Bright Sky: station observations and MOSMIX.
    static let germany = Region(
        countries: ["DE"], boxes: [(47.27, 55.06, 5.87, 15.04)], first: [.brightSky])

    static let regions = [unitedStates, nordic, germany]

    /// Open-Meteo, then MET Norway: both cover the whole world without a key.
    static let worldwide: [ProviderName] = [.openMeteo, .metNorway]

    /// The providers `Name=auto` asks for `place`, best first.
    public static func preferred(for place: Location) -> [ProviderName] {
        var seen: Set<ProviderName> = []
        return ((region(of: place)?.first ?? []) + worldwide).filter { seen.insert($0).inserted }
    }

    /// The region of `place` with its own first choice; nil elsewhere.
    static func region(of place: Location) -> Region? {
        let code = place.countryCode.uppercased()
        if !code.isEmpty { return regions.first { $0.countries.contains(code) } }
        return regions.first { region in
            region.boxes.contains { box in
                (box.south...box.north).contains(place.latitude) && (box.west...box.east).contains(place.longitude)
            }
        }
    }
}
