/// Which unit each unit system shows, following the Forecast API (Dark Sky)
/// conventions the app used:
///
/// | quantity | us | si | ca | uk |
/// | --- | --- | --- | --- | --- |
/// | temperature | °F | °C | °C | °C |
/// | wind | mph | m/s | km/h | mph |
/// | precipitation intensity | in/h | mm/h | mm/h | mm/h |
/// | precipitation accumulation | in | mm | mm | mm |
/// | pressure | mb | hPa | hPa | hPa |
/// | visibility | mi | km | km | mi |
///
/// Pressure in `us` is millibars, as the Forecast API reported it (numerically
/// equal to hPa), rather than inches of mercury. Accumulation is shown in
/// millimetres rather than the API's centimetres because rain totals are
/// usually a few millimetres.
extension UnitSystem {
    /// The unit this system shows `quantity` in.
    public func unit(for quantity: Quantity) -> MeasurementUnit {
        switch (quantity, self) {
        case (.temperature, .us): return .fahrenheit
        case (.temperature, _): return .celsius
        case (.windSpeed, .us), (.windSpeed, .uk): return .milesPerHour
        case (.windSpeed, .si): return .metresPerSecond
        case (.windSpeed, .ca): return .kilometresPerHour
        case (.precipitationIntensity, .us): return .inchesPerHour
        case (.precipitationIntensity, _): return .millimetresPerHour
        case (.precipitationAccumulation, .us): return .inches
        case (.precipitationAccumulation, _): return .millimetres
        case (.pressure, .us): return .millibars
        case (.pressure, _): return .hectopascals
        case (.visibility, .us), (.visibility, .uk): return .miles
        case (.visibility, _): return .kilometres
        }
    }

    /// Unit labels for every quantity, keyed by `Quantity.rawValue`
    /// (`{"temperature": "°F", "windSpeed": "mph", ...}`), for JSON output
    /// that states the units of the values beside it.
    public var unitLabels: JSON {
        var object = JSONObject()
        for quantity in Quantity.allCases {
            object[quantity.rawValue] = .string(unit(for: quantity).symbol)
        }
        return .object(object)
    }
}
