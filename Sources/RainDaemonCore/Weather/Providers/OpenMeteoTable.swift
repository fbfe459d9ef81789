import RainCore

/// One of Open-Meteo's column blocks (`hourly`, `daily`: parallel arrays
/// keyed by variable, with `time` giving the rows) or a single-row block
/// (`current`, `current_weather`: one value per variable), together with its
/// `*_units` block, read into SI values.
struct OpenMeteoTable {
    /// How a column's values are read.
    enum Kind {
        /// A measurement, converted from the unit the units block names.
        case quantity(Quantity)
        /// A percentage, read as a fraction 0...1.
        case percent
        /// Taken as it is (codes, degrees, flags, indexes).
        case plain
        /// A time, like the `time` column (sunrise, sunset).
        case time
    }

    let block: ProviderJSON
    let units: ProviderJSON?
    let offset: Int
    let isSingleRow: Bool
    /// Unix seconds of each row.
    let times: [Double]

    /// A column block; its `time` array must be present.
    init(block: ProviderJSON, units: ProviderJSON?, offset: Int) throws(ProviderParseError) {
        guard let timeCells = try block.array("time") else {
            throw block.error(.missing, at: block.childPath("time"))
        }
        var times: [Double] = []
        times.reserveCapacity(timeCells.count)
        for cell in timeCells {
            guard let time = try Self.time(cell, offset: offset) else {
                throw cell.error(.wrongType(expected: "a time", got: "null"))
            }
            times.append(time)
        }
        self.block = block
        self.units = units
        self.offset = offset
        self.isSingleRow = false
        self.times = times
    }

    /// A single-row block; its `time` must be present.
    init(single block: ProviderJSON, units: ProviderJSON?, offset: Int) throws(ProviderParseError) {
        let cell = try block.required("time")
        guard let time = try Self.time(cell, offset: offset) else {
            throw cell.error(.wrongType(expected: "a time", got: "null"))
        }
        self.block = block
        self.units = units
        self.offset = offset
        self.isSingleRow = true
        self.times = [time]
    }

    /// The column `name` (or its older spelling `alias`), one value per row:
    /// nil where the value is null or the column is absent or short.
    func column(_ name: String, _ kind: Kind, alias: String? = nil) throws(ProviderParseError) -> [Double?] {
        var key = name
        if block[name] == nil, let alias, block[alias] != nil { key = alias }
        guard let member = block[key] else { return Array(repeating: nil, count: times.count) }
        let cells: [ProviderJSON]
        if isSingleRow {
            cells = [member]
        } else {
            guard let array = try block.array(key) else { return Array(repeating: nil, count: times.count) }
            cells = array
        }
        let convert = try converter(for: key, kind)
        var values: [Double?] = []
        values.reserveCapacity(times.count)
        for index in times.indices {
            guard index < cells.count else {
                values.append(nil)
                continue
            }
            let cell = cells[index]
            if case .time = kind {
                values.append(try Self.time(cell, offset: offset))
            } else {
                values.append(try cell.asNumber().map(convert))
            }
        }
        return values
    }

    private func converter(for key: String, _ kind: Kind) throws(ProviderParseError) -> (Double) -> Double {
        switch kind {
        case .plain, .time: return { $0 }
        case .percent: return { $0 / 100 }
        case .quantity(let quantity):
            let label = try units?.string(key)
            guard let unit = Self.unit(label: label, quantity: quantity) else {
                throw ProviderParseError(
                    provider: block.provider, field: units?.childPath(key) ?? key,
                    problem: .invalidValue("unknown unit \"\(label ?? "")\" for \(quantity.rawValue)"))
            }
            return unit.toBase
        }
    }

    /// The unit an Open-Meteo label names for `quantity`. No label, an empty
    /// one or `undefined` (Open-Meteo's label for variables it has no data
    /// for) means the API's default unit; an unknown label is nil.
    static func unit(label: String?, quantity: Quantity) -> MeasurementUnit? {
        let label = label ?? ""
        switch quantity {
        case .temperature:
            switch label {
            case "", "undefined", "°C", "C": return .celsius
            case "°F", "F": return .fahrenheit
            default: return nil
            }
        case .windSpeed:
            switch label {
            case "", "undefined", "km/h": return .kilometresPerHour
            case "m/s": return .metresPerSecond
            case "mp/h", "mph": return .milesPerHour
            case "kn", "kt": return .knots
            default: return nil
            }
        case .precipitationIntensity:
            // Hourly sums: an amount per one-hour step is a rate per hour.
            switch label {
            case "", "undefined", "mm", "mm/h": return .millimetresPerHour
            case "inch", "in", "in/h": return .inchesPerHour
            default: return nil
            }
        case .precipitationAccumulation:
            switch label {
            case "", "undefined", "mm": return .millimetres
            case "cm": return .centimetres
            case "inch", "in": return .inches
            default: return nil
            }
        case .pressure:
            switch label {
            case "", "undefined", "hPa", "mb", "mbar": return .hectopascals
            default: return nil
            }
        case .visibility:
            switch label {
            case "", "undefined", "m": return .metres
            case "km": return .kilometres
            case "ft": return .feet
            case "mi": return .miles
            default: return nil
            }
        }
    }

    /// A time cell: Unix seconds, or an ISO 8601 local time made absolute
    /// with the place's offset. Null is nil.
    static func time(_ cell: ProviderJSON, offset: Int) throws(ProviderParseError) -> Double? {
        switch cell.value {
        case .null: return nil
        case .number(let seconds): return seconds
        case .string(let text):
            guard let civil = CivilDateTime(iso8601Local: text) else {
                throw cell.error(
                    .invalidValue("expected a local time like 2026-10-03T12:30 or 2026-10-03, got \"\(text)\""))
            }
            return civil.unixSeconds(utcOffsetSeconds: offset)
        default:
            throw cell.error(.wrongType(expected: "Unix seconds or an ISO 8601 time", got: cell.value.kindName))
        }
    }
}
