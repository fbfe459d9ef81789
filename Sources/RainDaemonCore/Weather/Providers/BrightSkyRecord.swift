import RainCore

/// One of Bright Sky's weather records (`/weather`'s hourly ones, or
/// `/current_weather`'s one), read in `units=dwd` into SI values. Every
/// number is checked against what weather can be: a value outside it is
/// dropped (unknown) and counted in `Dropped`; a value of the wrong type is
/// an error naming its field.
struct BrightSkyRecord {
    /// Unix seconds of `timestamp`.
    let time: Double
    /// The UTC offset `timestamp` was written with (the zone asked for).
    let utcOffsetSeconds: Int?
    /// The source of the record's values, and the sources that filled the
    /// ones it lacked, by field (`fallback_source_ids`).
    let sourceID: Int?
    let fallbackSourceIDs: [(field: String, sourceID: Int)]

    var temperature: Double?
    /// mm/h: an hourly record's `precipitation` (mm in the hour before it),
    /// or the current one's last 10, 30 or 60 minutes scaled to an hour.
    var precipitation: Double?
    /// 0...1; only forecasts have one.
    var precipProbability: Double?
    /// m/s.
    var windSpeed: Double?
    var windBearing: Double?
    /// m/s.
    var windGust: Double?
    /// 0...1.
    var cloudCover: Double?
    /// 0...1.
    var humidity: Double?
    /// hPa.
    var pressure: Double?
    /// km.
    var visibility: Double?
    /// raind's icon word, `unknownIcon` when Bright Sky sent none it knows.
    var icon: String
    var summary: String

    /// The icon of weather raind does not know.
    static let unknownIcon = WeatherIcon.unknown

    /// The hourly record's fields raind uses (`cloud_cover` and
    /// `condition` through Bright Sky's icon); the others feed none of raind's.
    static let hourFields = [
        "temperature", "precipitation", "precipitation_probability", "wind_speed", "wind_direction", "cloud_cover",
        "condition",
    ]

    /// The current record's fields raind uses (`dew_point`: Bright Sky
    /// computes a missing humidity from it).
    static let currentFields =
        ["temperature", "relative_humidity", "dew_point", "pressure_msl", "visibility", "cloud_cover", "condition"]
        + windows.flatMap { suffix in
            ["precipitation", "wind_speed", "wind_direction", "wind_gust_speed"].map { $0 + suffix }
        }

    /// The current record's averaging windows, shortest (closest to now) first.
    static let windows = ["_10", "_30", "_60"]

    /// Values outside these are no weather (°C, mm in an hour, %, km/h,
    /// degrees, hPa, metres).
    static let temperatures: ClosedRange<Double> = -90...60
    static let precipitationSums: ClosedRange<Double> = Nowcast.plausibleIntensity
    static let percentages: ClosedRange<Double> = 0...100
    static let windSpeeds: ClosedRange<Double> = 0...500
    static let bearings: ClosedRange<Double> = 0...360
    static let pressures: ClosedRange<Double> = 800...1100
    static let visibilities: ClosedRange<Double> = 0...1_000_000

    /// The values dropped as impossible, counted for one note.
    struct Dropped {
        var count = 0
        var examples: [String] = []

        mutating func add(_ field: String, _ value: Double) {
            count += 1
            if examples.count < 3 { examples.append("\(field) = \(value)") }
        }

        /// The note for `leftOut`, nil when nothing was dropped.
        var note: String? {
            guard count > 0 else { return nil }
            return "\(BrightSky.providerName) sent \(count) value(s) no weather has, left out as unknown: "
                + examples.joined(separator: ", ") + (count > examples.count ? ", …" : "")
        }
    }

    /// An hourly record of `/weather`.
    init(hour record: ProviderJSON, dropped: inout Dropped) throws(ProviderParseError) {
        try self.init(common: record, dropped: &dropped)
        precipitation = try Self.number(record, "precipitation", Self.precipitationSums, &dropped)
        precipProbability = try Self.number(record, "precipitation_probability", Self.percentages, &dropped)
            .map { $0 / 100 }
        windSpeed = try Self.number(record, "wind_speed", Self.windSpeeds, &dropped).map(Self.metresPerSecond)
        windBearing = try Self.number(record, "wind_direction", Self.bearings, &dropped)
        windGust = try Self.number(record, "wind_gust_speed", Self.windSpeeds, &dropped).map(Self.metresPerSecond)
    }

    /// The record of `/current_weather`: of each quantity measured over the
    /// last 10, 30 and 60 minutes, the shortest window that has a value.
    init(current record: ProviderJSON, dropped: inout Dropped) throws(ProviderParseError) {
        try self.init(common: record, dropped: &dropped)
        for (suffix, perHour) in zip(Self.windows, [6.0, 2, 1]) where precipitation == nil {
            precipitation = try Self.number(record, "precipitation" + suffix, Self.precipitationSums, &dropped)
                .map { $0 * perHour }
        }
        for suffix in Self.windows {
            if windSpeed == nil {
                windSpeed = try Self.number(record, "wind_speed" + suffix, Self.windSpeeds, &dropped)
                    .map(Self.metresPerSecond)
            }
            if windBearing == nil {
                windBearing = try Self.number(record, "wind_direction" + suffix, Self.bearings, &dropped)
            }
            if windGust == nil {
                windGust = try Self.number(record, "wind_gust_speed" + suffix, Self.windSpeeds, &dropped)
                    .map(Self.metresPerSecond)
            }
        }
    }

    /// What both kinds of record share.
    private init(common record: ProviderJSON, dropped: inout Dropped) throws(ProviderParseError) {
        guard case .object = record.value else {
            throw record.error(.wrongType(expected: "an object", got: record.value.kindName))
        }
        let stamp = try record.required("timestamp")
        guard let text = stamp.value.stringValue else {
            throw stamp.error(.wrongType(expected: "a string", got: stamp.value.kindName))
        }
        guard let instant = Self.instant(text) else {
            throw stamp.error(.invalidValue("\"\(text.prefix(40))\" is not an ISO 8601 time with a UTC offset"))
        }
        time = instant.unixSeconds
        utcOffsetSeconds = instant.utcOffsetSeconds
        sourceID = try Self.sourceID(record["source_id"])
        var fallbacks: [(field: String, sourceID: Int)] = []
        if let block = try record.object("fallback_source_ids"), let object = block.value.objectValue {
            for field in object.keys {
                guard let member = block[field], let id = try Self.sourceID(member) else { continue }
                fallbacks.append((field, id))
            }
        }
        fallbackSourceIDs = fallbacks
        temperature = try Self.number(record, "temperature", Self.temperatures, &dropped)
        cloudCover = try Self.number(record, "cloud_cover", Self.percentages, &dropped).map { $0 / 100 }
        humidity = try Self.number(record, "relative_humidity", Self.percentages, &dropped).map { $0 / 100 }
        pressure = try Self.number(record, "pressure_msl", Self.pressures, &dropped)
        visibility = try Self.number(record, "visibility", Self.visibilities, &dropped).map { $0 / 1000 }
        let weather = Self.weather(icon: try record.string("icon"), condition: try record.string("condition"))
        icon = weather.icon
        summary = weather.summary
    }

    /// The current conditions this record (from `/current_weather`) makes:
    /// an observation, so no chance of rain; no feels-like, no UV.
    var conditions: CurrentConditions {
        CurrentConditions(
            time: time, summary: summary, icon: icon, temperature: temperature, apparentTemperature: nil,
            humidity: humidity, windSpeed: windSpeed, windGust: windGust, windBearing: windBearing,
            precipIntensity: precipitation, precipProbability: nil, pressure: pressure, visibility: visibility,
            uvIndex: nil, cloudCover: cloudCover)
    }

    // MARK: - Values

    private static func metresPerSecond(_ kilometresPerHour: Double) -> Double {
        MeasurementUnit.kilometresPerHour.toBase(kilometresPerHour)
    }

    /// The number `key` when it lies in `range`; nil when absent, null or
    /// dropped as impossible.
    private static func number(
        _ record: ProviderJSON, _ key: String, _ range: ClosedRange<Double>, _ dropped: inout Dropped
    ) throws(ProviderParseError) -> Double? {
        guard let value = try record.number(key) else { return nil }
        guard value.isFinite, range.contains(value) else {
            dropped.add(record.childPath(key), value)
            return nil
        }
        return value
    }

    /// A source id: a whole number; nil when absent or null.
    static func sourceID(_ field: ProviderJSON?) throws(ProviderParseError) -> Int? {
        guard let field, let value = try field.asNumber() else { return nil }
        guard value == value.rounded(), abs(value) < 1e15 else {
            throw field.error(.invalidValue("\(value) is not a source id"))
        }
        return Int(value)
    }

    // MARK: - Weather words

    /// Bright Sky's icons in raind's vocabulary, with the summary word. The
    /// Forecast API's vocabulary has no hail: Bright Sky's `hail` is shown
    /// as `sleet`, the icon of ice falling, and keeps "Hail" as its summary.
    static let icons: [String: (icon: String, word: String)] = [
        "clear-day": ("clear-day", Localization.marked("Clear")),
        "clear-night": ("clear-night", Localization.marked("Clear")),
        "partly-cloudy-day": ("partly-cloudy-day", Localization.marked("Partly cloudy")),
        "partly-cloudy-night": ("partly-cloudy-night", Localization.marked("Partly cloudy")),
        "cloudy": ("cloudy", Localization.marked("Cloudy")),
        "fog": ("fog", Localization.marked("Fog")), "wind": ("wind", Localization.marked("Windy")),
        "rain": ("rain", Localization.marked("Rain")), "sleet": ("sleet", Localization.marked("Sleet")),
        "snow": ("snow", Localization.marked("Snow")), "hail": ("sleet", Localization.marked("Hail")),
        "thunderstorm": ("thunderstorm", Localization.marked("Thunderstorm")),
    ]

    /// Bright Sky's conditions, as words.
    static let conditions: [String: String] = [
        "dry": Localization.marked("Dry"), "fog": Localization.marked("Fog"), "rain": Localization.marked("Rain"),
        "sleet": Localization.marked("Sleet"), "snow": Localization.marked("Snow"), "hail": Localization.marked("Hail"),
        "thunderstorm": Localization.marked("Thunderstorm"),
    ]

    /// The icon and summary of an icon and condition as Bright Sky sent
    /// them. The summary is the icon's word, with the condition when it
    /// says more ("Cloudy with rain": rain too light for Bright Sky's rain
    /// icon); without an icon raind knows, the icon is `unknown` and the
    /// summary the condition's word, or empty.
    static func weather(icon: String?, condition: String?) -> (icon: String, summary: String) {
        let said = condition.flatMap { conditions[$0] }
        guard let known = icon.flatMap({ icons[$0] }) else { return (unknownIcon, said ?? "") }
        guard let said, said != known.word, condition != "dry" else { return (known.icon, known.word) }
        return (known.icon, known.word + " with " + said.lowercased())
    }

    // MARK: - Times

    /// `2025-09-18T13:30:00+00:00` (Python's `isoformat`), also with a
    /// fraction of a second, `Z`, or an offset without its colon; nil for
    /// anything else, a time without an offset included (it names no instant).
    static func instant(_ text: String) -> (unixSeconds: Double, utcOffsetSeconds: Int)? {
        ISO8601Instant.parse(text, allowing: [.fractions, .colonlessOffsets])
    }
}
