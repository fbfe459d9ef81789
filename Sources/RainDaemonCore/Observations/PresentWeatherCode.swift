import RainCore

/// The present-weather groups of a METAR (WMO code form FM 15, table 4678)
/// read into `ObservedWeather`: `-SN` light snow, `+TSRA` a heavy
/// thunderstorm with rain, `FZDZ` freezing drizzle, `BR` mist. Each group
/// is an optional intensity (`-`, `+`), descriptors (`MI BC PR DR BL SH TS
/// FZ`) and phenomena (`DZ RA SN SG IC PL GR GS UP`, `BR FG FU VA DU SA HZ
/// PY`, `PO SQ FC SS DS`). aviationweather.gov's `wxString` and the NWS's
/// `presentWeather[].rawString` are written so.
///
/// Left out: weather in the vicinity (`VC…`), which is not at the
/// station; snow, sand or dust blown or drifting (`BLSN`, `DRSN`), which is
/// not falling; and a group raind cannot read whole, which is not guessed at.
public enum PresentWeatherCode {
    /// Groups read from one string; a METAR holds at most three.
    static let maximumGroups = 8
    static let maximumGroupLength = 16

    private static let descriptors: Set<String> = ["MI", "BC", "PR", "DR", "BL", "SH", "TS", "FZ"]
    private static let phenomena: Set<String> = [
        "DZ", "RA", "SN", "SG", "IC", "PL", "GR", "GS", "UP", "BR", "FG", "FU", "VA", "DU", "SA", "HZ", "PY", "PO",
        "SQ", "FC", "SS", "DS",
    ]

    /// The weather of every group of `text` raind can read, most
    /// significant first, each kind once (the strongest kept), at most
    /// `Observation.maximumWeather`.
    public static func decode(_ text: String) -> [ObservedWeather] {
        var found: [ObservedWeather] = []
        let groups = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).prefix(maximumGroups)
        for group in groups where group.utf8.count <= maximumGroupLength {
            if let weather = decodeGroup(String(group)) { found.append(weather) }
        }
        return strongestOfEachKind(found)
    }

    /// One kind once, the strongest, ordered as `ObservedWeather.Kind` is (most significant first).
    static func strongestOfEachKind(_ weather: [ObservedWeather]) -> [ObservedWeather] {
        var byKind: [ObservedWeather.Kind: ObservedWeather] = [:]
        for entry in weather {
            guard let kept = byKind[entry.kind] else {
                byKind[entry.kind] = entry
                continue
            }
            if rank(entry.intensity) > rank(kept.intensity) { byKind[entry.kind] = entry }
        }
        let ordered = ObservedWeather.Kind.allCases.compactMap { byKind[$0] }
        return Array(ordered.prefix(Observation.maximumWeather))
    }

    private static func rank(_ intensity: ObservedWeather.Intensity?) -> Int {
        switch intensity {
        case .light: 0
        case nil: 1
        case .heavy: 2
        }
    }

    /// One group's weather; nil for one raind leaves out or cannot read.
    static func decodeGroup(_ group: String) -> ObservedWeather? {
        var rest = Substring(group)
        var intensity: ObservedWeather.Intensity?
        if rest.hasPrefix("-") {
            intensity = .light
            rest = rest.dropFirst()
        } else if rest.hasPrefix("+") {
            intensity = .heavy
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty, rest.utf8.count.isMultiple(of: 2), !rest.hasPrefix("VC") else { return nil }
        var codes: [String] = []
        while !rest.isEmpty {
            codes.append(String(rest.prefix(2)))
            rest = rest.dropFirst(2)
        }
        var described: Set<String> = []
        var present: Set<String> = []
        for code in codes {
            if present.isEmpty, descriptors.contains(code) {
                described.insert(code)
            } else if phenomena.contains(code) {
                present.insert(code)
            } else {
                return nil
            }
        }
        let showers = described.contains("SH")
        func weather(_ kind: ObservedWeather.Kind, strength: Bool = true) -> ObservedWeather {
            ObservedWeather(kind, intensity: strength ? intensity : nil, showers: showers)
        }
        if described.contains("TS") { return weather(.thunderstorm) }
        if present.isEmpty { return nil }
        if described.contains("BL") || described.contains("DR") {
            if !present.isDisjoint(with: ["DU", "SA"]) { return weather(.dust, strength: false) }
            return nil
        }
        if described.contains("FZ"), !present.isDisjoint(with: ["RA", "DZ"]) { return weather(.freezingRain) }
        if !present.isDisjoint(with: ["GR", "GS"]) { return weather(.hail) }
        if !present.isDisjoint(with: ["PL", "IC"]) { return weather(.sleet) }
        let snow = !present.isDisjoint(with: ["SN", "SG"])
        if snow, !present.isDisjoint(with: ["RA", "DZ"]) { return weather(.sleet) }
        if snow { return weather(.snow) }
        if present.contains("RA") { return weather(.rain) }
        if present.contains("DZ") { return weather(.drizzle) }
        if present.contains("UP") { return weather(.precipitation) }
        if present.contains("FC") { return weather(.funnelCloud, strength: false) }
        if present.contains("SQ") { return weather(.squall, strength: false) }
        if present.contains("FG") { return weather(.fog, strength: false) }
        if !present.isDisjoint(with: ["BR", "PY"]) { return weather(.mist, strength: false) }
        if !present.isDisjoint(with: ["HZ", "FU", "VA"]) { return weather(.haze, strength: false) }
        if !present.isDisjoint(with: ["DU", "SA", "SS", "DS", "PO"]) { return weather(.dust, strength: false) }
        return nil
    }
}
