/// The words raind shows for air quality, UV and pollen, each a whole label
/// or sentence (with placeholders filled in one place), so a catalogue can
/// translate it: category names as each index defines them, the WHO's UV
/// categories, pollutant and pollen names, and each index's health advice.
public enum AirWording {
    /// The index's name: `European AQI`, `US AQI`.
    public static func name(_ index: AirQualityIndex) -> String {
        switch index {
        case .european: return "European AQI"
        case .us: return "US AQI"
        }
    }

    /// The category as its index names it (the EEA's and the EPA's words).
    public static func word(_ category: AirQualityCategory) -> String {
        switch category {
        case .good: return "Good"
        case .fair: return "Fair"
        case .moderate: return "Moderate"
        case .poor: return "Poor"
        case .veryPoor: return "Very poor"
        case .extremelyPoor: return "Extremely poor"
        case .unhealthyForSensitiveGroups: return "Unhealthy for sensitive groups"
        case .unhealthy: return "Unhealthy"
        case .veryUnhealthy: return "Very unhealthy"
        case .hazardous: return "Hazardous"
        }
    }

    /// The pollutant as people read it.
    public static func name(_ pollutant: Pollutant) -> String {
        switch pollutant {
        case .pm25: return "PM2.5"
        case .pm10: return "PM10"
        case .o3: return "ozone"
        case .no2: return "nitrogen dioxide"
        case .so2: return "sulphur dioxide"
        }
    }

    /// The WHO's category names.
    public static func word(_ category: UVCategory) -> String {
        switch category {
        case .low: return "low"
        case .moderate: return "moderate"
        case .high: return "high"
        case .veryHigh: return "very high"
        case .extreme: return "extreme"
        }
    }

    public static func name(_ kind: PollenKind) -> String {
        switch kind {
        case .alder: return "alder"
        case .birch: return "birch"
        case .grass: return "grass"
        case .mugwort: return "mugwort"
        case .olive: return "olive"
        case .ragweed: return "ragweed"
        }
    }

    /// `now`'s Air row: `Moderate (European AQI 44), mostly PM2.5`, or
    /// without a dominant pollutant `Moderate (European AQI 44)`.
    public static func summary(_ air: AirQuality) -> String? {
        guard let aqi = air.aqi, let category = air.category else { return nil }
        let index = name(air.index)
        guard let dominant = air.dominant else { return "\(word(category)) (\(index) \(aqi))" }
        return "\(word(category)) (\(index) \(aqi)), mostly \(name(dominant))"
    }

    /// `now`'s UV row: `6, high`.
    public static func uv(_ index: Double) -> String? {
        guard let number = DecimalText.format(index, fractionDigits: 0) else { return nil }
        return "\(number), \(word(UVCategory(index: index)))"
    }

    /// One pollen type's count: `birch 35 grains/m³`.
    public static func pollen(_ entry: Pollen) -> String {
        let count = DecimalText.format(entry.grains, fractionDigits: 0) ?? UnitFormatter.missing
        return "\(name(entry.kind)) \(count) grains/m³"
    }

    /// `now`'s Pollen row: the types present, most first; nil with none.
    public static func pollenList(_ air: AirQuality) -> String? {
        let present = air.pollen.filter { $0.grains >= 0.5 }.sorted { $0.grains > $1.grains }
        guard !present.isEmpty else { return nil }
        return present.map(pollen).joined(separator: ", ")
    }

    /// A concentration: `12 µg/m³`.
    public static func concentration(_ value: Double?, bare: Bool = false) -> String {
        guard let value, let number = DecimalText.format(value, fractionDigits: 0) else { return UnitFormatter.missing }
        return bare ? number : "\(number) µg/m³"
    }

    /// The line under `now` when the last fetch failed:
    /// `Air quality: last update failed (HTTP 503)`.
    public static func problemLine(_ problem: String) -> String {
        "Air quality: last update failed (\(ForecastPresenter.brief(problem)))"
    }

    /// The notification's title when the air at `place` turns bad:
    /// `Air quality at Paris: Poor (European AQI 64)`.
    public static func alertTitle(place: String, _ air: AirQuality) -> String {
        let aqi = air.aqi.map(String.init) ?? UnitFormatter.missing
        let category = air.category.map(word) ?? UnitFormatter.missing
        return "Air quality at \(place): \(category) (\(name(air.index)) \(aqi))"
    }

    /// The notification's title when UV is high: `UV index at Paris: 9, very high`.
    public static func uvTitle(place: String, index: Double) -> String {
        "UV index at \(place): \(uv(index) ?? UnitFormatter.missing)"
    }

    /// The index's own health advice for `category`, to the general
    /// population and to sensitive groups: the EEA's messages for the
    /// European index, the EPA's cautionary statements for the US index.
    public static func advice(_ category: AirQualityCategory) -> String {
        switch category {
        case .good:
            return "The air quality is good. Enjoy your usual outdoor activities."
        case .fair:
            return "Enjoy your usual outdoor activities."
        case .moderate:
            return
                "Enjoy your usual outdoor activities. Sensitive groups should consider reducing intense outdoor activities if they experience symptoms."
        case .poor:
            return
                "Consider reducing intense activities outdoors if you experience symptoms such as sore eyes, a cough or a sore throat. Sensitive groups should consider reducing physical activities, particularly outdoors."
        case .veryPoor:
            return
                "Consider reducing physical activities outdoors. Sensitive groups should reduce physical activities, particularly outdoors."
        case .extremelyPoor:
            return "Reduce physical activities outdoors. Sensitive groups should avoid physical activities outdoors."
        case .unhealthyForSensitiveGroups:
            return
                "People with heart or lung disease, older adults, children and teenagers should reduce prolonged or heavy exertion outdoors."
        case .unhealthy:
            return
                "Everyone should reduce prolonged or heavy exertion outdoors. Sensitive groups should avoid it."
        case .veryUnhealthy:
            return
                "Everyone should avoid prolonged or heavy exertion outdoors. Sensitive groups should avoid all physical activity outdoors."
        case .hazardous:
            return "Everyone should avoid all physical activity outdoors."
        }
    }

    /// The WHO's advice for a UV category.
    public static func advice(_ category: UVCategory) -> String {
        switch category {
        case .low:
            return "No protection is needed."
        case .moderate, .high:
            return
                "Protection is needed: seek shade during midday hours, cover up, and wear a hat, sunglasses and sunscreen."
        case .veryHigh, .extreme:
            return
                "Extra protection is needed: avoid being outside during midday hours, seek shade, and wear a shirt, a hat, sunglasses and sunscreen."
        }
    }
}
