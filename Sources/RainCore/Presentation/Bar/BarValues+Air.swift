/// The air's template fields and bar class (`Forecast.air`).
extension BarValues {
    /// The air, while recent enough to speak of now (`ForecastPresenter.airShownFor`).
    public var air: AirQuality? {
        guard let air = forecast?.air, now - air.fetchedAt < ForecastPresenter.airShownFor else { return nil }
        return air
    }

    /// The CSS class of the air's level (`aqi-good` … `aqi-extremely-poor`),
    /// on the scale both indexes share; nil without air data.
    public var airClass: String? {
        air?.level.flatMap(AirQualityLevel.name).map { "aqi-" + $0 }
    }

    /// `{aqi}` `44`; `{aqi_category}` `Moderate`; `{pm25}` `12 µg/m³`
    /// (`:value` `12`); `{uv_category}` `high`; `{pollen}` `birch 35`
    /// (`:value` `35`), empty without pollen. `–` where unknown.
    func airText(_ field: BarTemplate.Field, bare: Bool) -> String {
        let air = self.air
        switch field {
        case .aqi: return air?.aqi.map(String.init) ?? UnitFormatter.missing
        case .aqiCategory: return air?.category.map(AirWording.word) ?? UnitFormatter.missing
        case .pm25: return AirWording.concentration(air?.pm25, bare: bare)
        case .pm10: return AirWording.concentration(air?.pm10, bare: bare)
        case .o3: return AirWording.concentration(air?.o3, bare: bare)
        case .uvCategory:
            return (conditions?.uvIndex ?? air?.uvIndex).map { AirWording.word(UVCategory(index: $0)) }
                ?? UnitFormatter.missing
        case .pollen:
            guard let top = air?.highestPollen, let count = DecimalText.format(top.grains, fractionDigits: 0) else {
                return ""
            }
            return bare ? count : "\(AirWording.name(top.kind)) \(count)"
        default: return ""
        }
    }
}
