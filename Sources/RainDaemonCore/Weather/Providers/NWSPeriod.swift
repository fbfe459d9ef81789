import RainCore

/// One period of an api.weather.gov forecast, an hour of `/forecast/hourly`
/// or a day or night of `/forecast`, in SI units.
///
/// The API writes `temperature` as a whole number with `temperatureUnit`
/// (`F` or `C`), `windSpeed` as text (`10 mph`, `5 to 10 mph`, `16 km/h`)
/// and `windDirection` as a 16-point compass word; the `forecast_temperature_qv`
/// and `forecast_wind_speed_qv` feature flags make them quantitative values
/// (`{"unitCode": "wmoUnit:degC", "value": ...}`), which are read too.
/// `probabilityOfPrecipitation` is a quantitative value in percent since
/// 2022 and absent before: absent or null, the chance is unknown.
struct NWSPeriod: Equatable {
    var start: Double
    var end: Double
    /// The offsets `startTime` and `endTime` are written with: the place's local time.
    var offset: Int
    var endOffset: Int
    var isDaytime: Bool?
    var temperature: Double?
    /// The top of the range the text gives: the grid's `windSpeed` is the
    /// "maximum prevailing wind speed", and a range is its spread.
    var windSpeed: Double?
    /// Degrees the wind comes from.
    var windBearing: Double?
    /// 0...1
    var precipProbability: Double?
    var summary: String
    var icon: String

    /// Longest summary kept, in characters; the API's short forecasts are a few words.
    static let maximumSummary = 200

    /// Texts the API wrote that raind could not read, by what they were
    /// (`wind speed`): the first such text and where it was.
    typealias Unreadable = [String: String]

    init(_ period: ProviderJSON, unreadable: inout Unreadable) throws(ProviderParseError) {
        let (start, offset) = try Self.instant(period, "startTime")
        let (end, endOffset) = try Self.instant(period, "endTime")
        guard end > start else {
            throw period.error(.invalidValue("endTime is not after startTime"), at: period.childPath("endTime"))
        }
        self.start = start
        self.end = end
        self.offset = offset
        self.endOffset = endOffset
        if let flag = period["isDaytime"] {
            guard let value = flag.value.boolValue else {
                throw flag.error(.wrongType(expected: "a boolean", got: flag.value.kindName))
            }
            isDaytime = value
        }
        temperature = try Self.temperature(period)
        windSpeed = try Self.windSpeed(period, unreadable: &unreadable)
        windBearing = try Self.bearing(period, unreadable: &unreadable)
        precipProbability = try Self.probability(period)
        summary = Self.oneLine(try period.string("shortForecast") ?? "")
        icon = try period.string("icon").map(NWSIcon.icon(url:)) ?? NWSIcon.unknown
    }

    private static func instant(
        _ period: ProviderJSON, _ key: String
    ) throws(ProviderParseError) -> (Double, Int) {
        let field = try period.required(key)
        guard let text = field.value.stringValue else {
            throw field.error(.wrongType(expected: "a string", got: field.value.kindName))
        }
        guard let instant = NWSTime.instant(text) else {
            throw field.error(.invalidValue("\"\(oneLine(text))\" is not an ISO 8601 time with a UTC offset"))
        }
        return instant
    }

    /// Plausible temperatures on Earth, in °C; others are unknown.
    static let temperatures = -100.0...70.0

    private static func temperature(_ period: ProviderJSON) throws(ProviderParseError) -> Double? {
        guard let field = period["temperature"] else { return nil }
        let celsius: Double?
        switch field.value {
        case .number(let value):
            let unit = try period.required("temperatureUnit")
            switch unit.value.stringValue {
            case "F": celsius = MeasurementUnit.fahrenheit.toBase(value)
            case "C": celsius = value
            default: throw unit.error(.invalidValue("unknown temperature unit (expected F or C)"))
            }
        case .object:
            celsius = try NWS.quantity(field, .temperature)
        default:
            throw field.error(.wrongType(expected: "a number or a quantitative value", got: field.value.kindName))
        }
        return celsius.flatMap { temperatures.contains($0) ? $0 : nil }
    }

    /// Wind speeds raind believes, in m/s; above it (about 330 mph) is unknown.
    static let windSpeeds = 0.0...150.0

    private static func windSpeed(
        _ period: ProviderJSON, unreadable: inout Unreadable
    ) throws(ProviderParseError) -> Double? {
        guard let field = period["windSpeed"] else { return nil }
        let speed: Double?
        switch field.value {
        case .string(let text):
            speed = windSpeed(text: text)
            if speed == nil, !text.isEmpty { note(&unreadable, "wind speed", text, at: field) }
        case .object:
            // A range's top, as for the text.
            if let top = try field.number("maxValue") {
                speed = try NWS.quantity(field, .windSpeed, value: top)
            } else {
                speed = try NWS.quantity(field, .windSpeed)
            }
        default:
            throw field.error(.wrongType(expected: "a string or a quantitative value", got: field.value.kindName))
        }
        return speed.flatMap { windSpeeds.contains($0) ? $0 : nil }
    }

    /// `10 mph`, `5 to 10 mph`, `16 km/h`, `8 kt`: the (top) speed in m/s.
    static func windSpeed(text: String) -> Double? {
        let words = text.split(separator: " ")
        guard words.count == 2 || (words.count == 4 && words[1] == "to"), let unit = windUnits[String(words.last!)],
            let speed = decimal(words[words.count - 2])
        else { return nil }
        if words.count == 4 {
            guard let low = decimal(words[0]), low <= speed else { return nil }
        }
        return unit.toBase(speed)
    }

    static let windUnits: [String: MeasurementUnit] = [
        "mph": .milesPerHour, "km/h": .kilometresPerHour, "kt": .knots, "kts": .knots,
    ]

    /// Digits with at most one decimal point; no sign, no exponent.
    private static func decimal(_ word: Substring) -> Double? {
        let bytes = Array(word.utf8)
        guard (1...6).contains(bytes.count), bytes.filter({ $0 == UInt8(ascii: ".") }).count <= 1,
            bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".") }),
            bytes.first != UInt8(ascii: "."), bytes.last != UInt8(ascii: ".")
        else { return nil }
        return Double(word)
    }

    /// The 16 points of the compass, clockwise from north, 22.5° apart.
    static let compass = [
        "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
    ]

    private static func bearing(
        _ period: ProviderJSON, unreadable: inout Unreadable
    ) throws(ProviderParseError) -> Double? {
        guard let field = period["windDirection"] else { return nil }
        guard let text = field.value.stringValue else {
            throw field.error(.wrongType(expected: "a string", got: field.value.kindName))
        }
        guard let point = compass.firstIndex(of: text) else {
            if !text.isEmpty { note(&unreadable, "wind direction", text, at: field) }
            return nil
        }
        return Double(point) * 22.5
    }

    private static func probability(_ period: ProviderJSON) throws(ProviderParseError) -> Double? {
        guard let field = try period.object("probabilityOfPrecipitation") else { return nil }
        return try NWS.percent(field)
    }

    private static func note(_ unreadable: inout Unreadable, _ what: String, _ text: String, at field: ProviderJSON) {
        if unreadable[what] == nil { unreadable[what] = "\"\(oneLine(text))\" at \(field.path)" }
    }

    /// `text` on one line and at most `maximumSummary` characters: it is shown and logged.
    static func oneLine(_ text: String) -> String {
        let line = text.split(whereSeparator: { character in
            character.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        }).joined(separator: " ")
        return line.count > maximumSummary ? String(line.prefix(maximumSummary)) + "…" : line
    }
}
