/// The words raind shows for air quality, UV and pollen, each a whole label
/// or sentence (with placeholders filled in one place), so a catalogue can
/// translate it: category names as each index defines them, the WHO's UV
/// categories, pollutant and pollen names, and each index's health advice.
public enum AirWording {
    /// The index's name: `European AQI`, `US AQI`.
    public static func name(_ index: AirQualityIndex) -> String {
        switch index {
        case .european: return tr("European AQI")
        case .us: return tr("US AQI")
        }
    }

    /// The category as its index names it (the EEA's and the EPA's words),
    /// apart from the same English words for the weather and alerts.
    public static func word(_ category: AirQualityCategory) -> String {
        switch category {
        case .good: return trc("air quality", "Good")
        case .fair: return trc("air quality", "Fair")
        case .moderate: return trc("air quality", "Moderate")
        case .poor: return trc("air quality", "Poor")
        case .veryPoor: return trc("air quality", "Very poor")
        case .extremelyPoor: return trc("air quality", "Extremely poor")
        case .unhealthyForSensitiveGroups: return trc("air quality", "Unhealthy for sensitive groups")
        case .unhealthy: return trc("air quality", "Unhealthy")
        case .veryUnhealthy: return trc("air quality", "Very unhealthy")
        case .hazardous: return trc("air quality", "Hazardous")
        }
    }

    /// The pollutant as people read it.
    public static func name(_ pollutant: Pollutant) -> String {
        switch pollutant {
        case .pm25: return "PM2.5"  // l10n: a pollutant's symbol
        case .pm10: return "PM10"  // l10n: a pollutant's symbol
        case .o3: return tr("ozone")
        case .no2: return tr("nitrogen dioxide")
        case .so2: return tr("sulphur dioxide")
        }
    }

    /// The WHO's category names.
    public static func word(_ category: UVCategory) -> String {
        switch category {
        case .low: return tr("low")
        case .moderate: return tr("moderate")
        case .high: return tr("high")
        case .veryHigh: return tr("very high")
        case .extreme: return tr("extreme")
        }
    }

    public static func name(_ kind: PollenKind) -> String {
        switch kind {
        case .alder: return tr("alder")
        case .birch: return tr("birch")
        case .grass: return tr("grass")
        case .mugwort: return tr("mugwort")
        case .olive: return tr("olive")
        case .ragweed: return tr("ragweed")
        }
    }

    /// `now`'s Air row: `Moderate (European AQI 44), mostly PM2.5`, or
    /// without a dominant pollutant `Moderate (European AQI 44)`.
    public static func summary(_ air: AirQuality) -> String? {
        guard let aqi = air.aqi, let category = air.category else { return nil }
        let index = name(air.index)
        let values: KeyValuePairs<String, String> = [
            "category": word(category), "index": index, "aqi": String(aqi),
            "pollutant": air.dominant.map(name) ?? "",
        ]
        guard air.dominant != nil else { return tr("{category} ({index} {aqi})", values) }
        return tr("{category} ({index} {aqi}), mostly {pollutant}", values)
    }

    /// `now`'s UV row: `6, high`.
    public static func uv(_ index: Double) -> String? {
        guard let number = DecimalText.format(index, fractionDigits: 0) else { return nil }
        return tr("{uv}, {uvcategory}", ["uv": number, "uvcategory": word(UVCategory(index: index))])
    }

    /// One pollen type's count: `birch 35 grains/m³`, in the plural form
    /// the count takes (Polish `brzoza 22 ziarna/m³`, `brzoza 5 ziaren/m³`).
    public static func pollen(_ entry: Pollen) -> String {
        // The service's count is checked to be 0…1e6 (`AirQualityService`); a count from elsewhere still cannot trap.
        guard entry.grains.isFinite else { return name(entry.kind) + " " + UnitFormatter.missing }
        let count = Int(min(max(entry.grains, 0), 1e9).rounded())
        return trn("{type} {count} grain/m³", "{type} {count} grains/m³", count, ["type": name(entry.kind)])
    }

    /// `now`'s Pollen row: the types present, most first, as the reader's
    /// language lists them (`Localization.list`); nil with none.
    public static func pollenList(_ air: AirQuality) -> String? {
        let present = air.pollen.filter { $0.grains >= 0.5 }.sorted { $0.grains > $1.grains }
        guard !present.isEmpty else { return nil }
        return Localization.list(present.map(pollen))
    }

    /// A concentration: `12 µg/m³`.
    public static func concentration(_ value: Double?, bare: Bool = false) -> String {
        guard let value, let number = DecimalText.format(value, fractionDigits: 0) else { return UnitFormatter.missing }
        // Translators: a unit symbol after a number ("12 µg/m³", micrograms per cubic metre), as your readers write it.
        return bare ? number : number + " " + trc("unit", "µg/m³")
    }

    /// The line under `now` when the last fetch failed:
    /// `Air quality: last update failed (HTTP 503)`.
    public static func problemLine(_ problem: String) -> String {
        tr("Air quality: last update failed ({problem})", ["problem": ForecastPresenter.brief(problem)])
    }

    /// The notification's title when the air at `place` turns bad:
    /// `Air quality at Paris: Poor (European AQI 64)`.
    public static func alertTitle(place: String, _ air: AirQuality) -> String {
        let aqi = air.aqi.map(String.init) ?? UnitFormatter.missing
        let category = air.category.map(word) ?? UnitFormatter.missing
        return tr(
            "Air quality at {place}: {category} ({index} {aqi})",
            ["place": place, "category": category, "index": name(air.index), "aqi": aqi])
    }

    /// The notification's title when UV is high: `UV index at Paris: 9, very high`.
    public static func uvTitle(place: String, index: Double) -> String {
        guard let number = DecimalText.format(index, fractionDigits: 0) else {
            return tr("UV index at {place}: {uv}", ["place": place, "uv": UnitFormatter.missing])
        }
        return tr(
            "UV index at {place}: {uv}, {uvcategory}",
            ["place": place, "uv": number, "uvcategory": word(UVCategory(index: index))])
    }

    /// The index's own health advice for `category`, to the general
    /// population and to sensitive groups: the EEA's messages for the
    /// European index, the EPA's cautionary statements for the US index.
    public static func advice(_ category: AirQualityCategory) -> String {
        switch category {
        case .good:
            return tr("The air quality is good. Enjoy your usual outdoor activities.")
        case .fair:
            return tr("Enjoy your usual outdoor activities.")
        case .moderate:
            return
                tr(
                    "Enjoy your usual outdoor activities. Sensitive groups should consider reducing intense outdoor activities if they experience symptoms."
                )
        case .poor:
            return
                tr(
                    "Consider reducing intense activities outdoors if you experience symptoms such as sore eyes, a cough or a sore throat. Sensitive groups should consider reducing physical activities, particularly outdoors."
                )
        case .veryPoor:
            return
                tr(
                    "Consider reducing physical activities outdoors. Sensitive groups should reduce physical activities, particularly outdoors."
                )
        case .extremelyPoor:
            return tr(
                "Reduce physical activities outdoors. Sensitive groups should avoid physical activities outdoors.")
        case .unhealthyForSensitiveGroups:
            return
                tr(
                    "People with heart or lung disease, older adults, children and teenagers should reduce prolonged or heavy exertion outdoors."
                )
        case .unhealthy:
            return
                tr("Everyone should reduce prolonged or heavy exertion outdoors. Sensitive groups should avoid it.")
        case .veryUnhealthy:
            return
                tr(
                    "Everyone should avoid prolonged or heavy exertion outdoors. Sensitive groups should avoid all physical activity outdoors."
                )
        case .hazardous:
            return tr("Everyone should avoid all physical activity outdoors.")
        }
    }

    /// The WHO's advice for a UV category.
    public static func advice(_ category: UVCategory) -> String {
        switch category {
        case .low:
            return tr("No protection is needed.")
        case .moderate, .high:
            return
                tr(
                    "Protection is needed: seek shade during midday hours, cover up, and wear a hat, sunglasses and sunscreen."
                )
        case .veryHigh, .extreme:
            return
                tr(
                    "Extra protection is needed: avoid being outside during midday hours, seek shade, and wear a shirt, a hat, sunglasses and sunscreen."
                )
        }
    }
}
