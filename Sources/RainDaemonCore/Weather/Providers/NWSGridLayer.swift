import RainCore

/// One layer of an NWS cell's raw grid data (`/gridpoints/{office}/{x},{y}`),
/// `{"uom": "wmoUnit:degC", "values": [{"validTime": "2022-02-04T03:00:00+00:00/PT3H", "value": 21.1}]}`:
/// values over intervals, in SI. Equal hours are merged into one interval
/// (https://weather-gov.github.io/api/gridpoints), so a value holds for
/// every hour its interval covers; null is "no applicable data".
struct NWSGridLayer: Equatable {
    /// What a layer measures, which says the units it may come in.
    enum Kind {
        /// °C or °F, stored in °C.
        case temperature
        /// Percent, stored as a fraction 0...1.
        case percent
        /// An amount over the interval (mm or in), stored as a mean rate in mm/h.
        case amountOverInterval
    }

    struct Value: Equatable {
        var start: Double
        var end: Double
        var value: Double?
    }

    var values: [Value]

    /// Values read from a layer; the API sends one value an hour for a week, at most.
    static let maximumValues = 1000

    /// The layer `name` of the grid's `properties`; nil when the grid has none.
    init?(_ properties: ProviderJSON, _ name: String, _ kind: Kind) throws(ProviderParseError) {
        guard let layer = try properties.object(name) else { return nil }
        let entries = try layer.array("values") ?? []
        guard let code = try layer.string("uom") else {
            if entries.isEmpty { return nil }
            throw layer.error(.missing, at: layer.childPath("uom"))
        }
        let convert = try Self.conversion(kind, unit: code, at: layer)
        var values: [Value] = []
        for entry in entries.prefix(Self.maximumValues) {
            let time = try entry.required("validTime")
            guard let text = time.value.stringValue else {
                throw time.error(.wrongType(expected: "a string", got: time.value.kindName))
            }
            guard let interval = NWSTime.interval(text) else {
                throw time.error(
                    .invalidValue("\"\(NWSPeriod.oneLine(text))\" is not an ISO 8601 interval (start/duration)"))
            }
            let value = try entry.number("value").flatMap { convert($0, (interval.end - interval.start) / 3600) }
            values.append(Value(start: interval.start, end: interval.end, value: value))
        }
        self.values = values
    }

    init(values: [Value]) { self.values = values }

    /// The value whose interval covers the whole hour from `hour`; nil when
    /// none does (the hour is outside the grid's time, or falls across two
    /// intervals) or its value is null.
    func value(coveringHourAt hour: Double) -> Double? {
        values.first { $0.start <= hour && hour + 3600 <= $0.end }?.value
    }

    /// How a value in `unit` over an interval of so many hours becomes
    /// raind's; it gives nil for a value no forecast has. Throws for a unit
    /// that is not one of `kind`'s.
    private static func conversion(
        _ kind: Kind, unit code: String, at layer: ProviderJSON
    ) throws(ProviderParseError) -> (Double, Double) -> Double? {
        let unit = NWS.unit(code)
        switch kind {
        case .temperature:
            guard let unit, unit.quantity == .temperature else { throw unknown(code, "a temperature", at: layer) }
            return { value, _ in
                let celsius = unit.toBase(value)
                return NWSPeriod.temperatures.contains(celsius) ? celsius : nil
            }
        case .percent:
            guard NWS.isPercent(code) else { throw unknown(code, "percent", at: layer) }
            return { value, _ in (0...100).contains(value) ? value / 100 : nil }
        case .amountOverInterval:
            guard let unit, unit.quantity == .precipitationAccumulation else {
                throw unknown(code, "an amount of precipitation", at: layer)
            }
            return { value, hours in
                let millimetres = unit.toBase(value)
                // More than a metre of rain in an interval is no forecast.
                return millimetres >= 0 && millimetres <= 1000 ? millimetres / hours : nil
            }
        }
    }

    private static func unknown(_ code: String, _ expected: String, at layer: ProviderJSON) -> ProviderParseError {
        layer.error(
            .invalidValue("unit \"\(NWSPeriod.oneLine(code))\" is not \(expected)"), at: layer.childPath("uom"))
    }
}
