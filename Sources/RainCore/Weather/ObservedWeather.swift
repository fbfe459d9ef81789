/// One kind of weather a station reported: what (`kind`) and how strong
/// (`intensity`). Read from a METAR's present-weather groups (`-SN`,
/// `+TSRA`, `BR`), the NWS's `presentWeather` and the DWD's `condition`.
public struct ObservedWeather: Codable, Sendable, Equatable, Hashable {
    public enum Kind: String, WireEnum {
        case thunderstorm, freezingRain, hail, sleet, snow, rain, drizzle, precipitation
        case fog, mist, haze, dust, squall, funnelCloud
    }

    public enum Intensity: String, WireEnum {
        case light, heavy
    }

    public var kind: Kind
    /// nil: moderate, or not said.
    public var intensity: Intensity?
    /// Showers (`SH`): falling from convective clouds, on and off.
    public var showers: Bool

    public init(_ kind: Kind, intensity: Intensity? = nil, showers: Bool = false) {
        self.kind = kind
        self.intensity = intensity
        self.showers = showers
    }

    /// Whether it is something falling (rain, snow, hail…), not something in the air.
    public var isPrecipitation: Bool {
        switch kind {
        case .thunderstorm, .freezingRain, .hail, .sleet, .snow, .rain, .drizzle, .precipitation: true
        case .fog, .mist, .haze, .dust, .squall, .funnelCloud: false
        }
    }
}
