import RainCore

/// One entry of a Locationforecast 2.0 answer's `properties.timeseries`, read
/// and checked: the values at `time` (`data.instant.details`) and the
/// periods that start there (`data.next_1_hours`, `next_6_hours`,
/// `next_12_hours`), in raind's units (°C, m/s, hPa, mm, fractions 0...1).
///
/// Every value raind's forecast has no field for (humidity, gusts, pressure,
/// cloud and fog cover, UV index, dew point, the chance of thunder) is read
/// and checked too, so an answer of the wrong shape is refused whatever
/// field it breaks, and so the values are ready where the model grows them.
struct MetNorwayStep: Equatable, Sendable {
    /// Unix seconds.
    var time: Double
    var instant: Instant
    var nextHour: Period?
    var nextSixHours: Period?
    var nextTwelveHours: Period?

    /// The step's periods, shortest first.
    var periods: [Period] { [nextHour, nextSixHours, nextTwelveHours].compactMap { $0 } }

    /// `data.instant.details`: the weather at the step's time.
    struct Instant: Equatable, Sendable {
        var temperature: Double?
        /// 0...1
        var humidity: Double?
        var windSpeed: Double?
        var windGust: Double?
        /// Degrees, where the wind comes from.
        var windBearing: Double?
        /// At sea level, hPa.
        var pressure: Double?
        /// 0...1
        var cloudCover: Double?
        /// 0...1
        var fogCover: Double?
        /// The UV index under a clear sky (met.no gives no index for the sky forecast).
        var uvIndexClearSky: Double?
        var dewPoint: Double?
    }

    /// `data.next_N_hours`: the `hours` from the step's time.
    struct Period: Equatable, Sendable {
        var start: Double
        /// 1, 6 or 12.
        var hours: Int
        /// nil when the period names none, or one met.no does not document.
        var symbol: MetNorwaySymbol?
        /// The amount over the whole period, mm.
        var precipitation: Double?
        /// 0...1; only `complete` answers have it.
        var probability: Double?
        /// 0...1; only `complete` answers have it.
        var thunderProbability: Double?
        /// The highest and lowest temperature in the period (6-hour periods).
        var temperatureMax: Double?
        var temperatureMin: Double?

        var end: Double { start + Double(hours * 3600) }

        /// The period's mean rate in mm/h: its amount spread over its hours.
        /// An amount over 6 hours says nothing of how it falls within them,
        /// so the mean is the rate raind can tell for each of those hours.
        var intensity: Double? { precipitation.map { $0 / Double(hours) } }
    }
}

extension MetNorwayStep {
    /// Reads steps with the units an answer declares, collecting what it
    /// leaves out: values outside what the weather can be (a humidity of
    /// 140 %) are unknown, and symbol codes met.no does not document are
    /// shown as unknown; `notes` says which, for the log.
    struct Reader {
        /// Labels met.no documents in `properties.meta.units`, which are
        /// raind's units but for percentages. An answer naming another unit
        /// for a field is refused rather than read wrong.
        static let documentedUnits: [String: String] = [
            "air_temperature": "celsius", "air_temperature_max": "celsius", "air_temperature_min": "celsius",
            "dew_point_temperature": "celsius", "wind_speed": "m/s", "wind_speed_of_gust": "m/s",
            "wind_from_direction": "degrees", "air_pressure_at_sea_level": "hPa", "precipitation_amount": "mm",
            "relative_humidity": "%", "cloud_area_fraction": "%", "fog_area_fraction": "%",
            "probability_of_precipitation": "%", "probability_of_thunder": "%", "ultraviolet_index_clear_sky": "1",
        ]

        // What the weather can be; a value beyond it is broken data.
        static let temperatures: ClosedRange<Double> = -100...70
        static let percentages: ClosedRange<Double> = 0...100
        static let windSpeeds: ClosedRange<Double> = 0...150
        static let bearings: ClosedRange<Double> = 0...360
        static let pressures: ClosedRange<Double> = 800...1100
        static let uvIndexes: ClosedRange<Double> = 0...50

        /// How many left-out values and codes a note names before "and N more".
        static let namedInNote = 3
        /// Characters of an unknown code kept in a note.
        static let codeLength = 40

        let provider: String
        /// The first values left out, and how many there were.
        private(set) var dropped: [String] = []
        private(set) var droppedCount = 0
        /// Each unknown code once.
        private(set) var unknownCodes: Set<String> = []

        /// Checks the units block (absent: the documented units).
        init(provider: String, units: ProviderJSON?) throws(ProviderParseError) {
            self.provider = provider
            guard let units else { return }
            for (field, documented) in Self.documentedUnits.sorted(by: { $0.key < $1.key }) {
                guard let label = try units.string(field), label != documented else { continue }
                throw units.error(
                    .invalidValue(
                        "unknown unit \"\(label.prefix(Self.codeLength))\" for \(field) (met.no documents \"\(documented)\")"
                    ),
                    at: units.childPath(field))
            }
        }

        /// What was left out, one line each, naming the provider.
        var notes: [String] {
            var notes: [String] = []
            if droppedCount > 0 {
                notes.append(
                    "\(provider) sent \(droppedCount) value(s) outside what the weather can be, kept as unknown: "
                        + Self.list(dropped, of: droppedCount))
            }
            if !unknownCodes.isEmpty {
                notes.append(
                    "\(provider) sent symbol code(s) its documentation does not list, shown as unknown: "
                        + Self.list(Array(unknownCodes.sorted().prefix(Self.namedInNote)), of: unknownCodes.count))
            }
            return notes
        }

        private static func list(_ named: [String], of count: Int) -> String {
            let text = named.joined(separator: ", ")
            return count > named.count ? "\(text) and \(count - named.count) more" : text
        }

        /// A UTC time as met.no writes it, `2026-10-03T12:00:00Z`.
        static func time(_ field: ProviderJSON) throws(ProviderParseError) -> Double {
            guard let text = field.value.stringValue else {
                throw field.error(.wrongType(expected: "a time like 2026-10-03T12:00:00Z", got: field.value.kindName))
            }
            guard text.hasSuffix("Z"), let civil = CivilDateTime(iso8601Local: String(text.dropLast())) else {
                throw field.error(
                    .invalidValue("expected a UTC time like 2026-10-03T12:00:00Z, got \"\(text.prefix(codeLength))\""))
            }
            let time = civil.unixSeconds(utcOffsetSeconds: 0)
            guard Forecast.plausibleTimes.contains(time) else {
                throw field.error(.invalidValue("\(text) is not between 1970 and 3000"))
            }
            return time
        }

        /// One `timeseries` entry; `time` and `data` must be there.
        mutating func step(_ entry: ProviderJSON) throws(ProviderParseError) -> MetNorwayStep {
            guard case .object = entry.value else {
                throw entry.error(.wrongType(expected: "an object", got: entry.value.kindName))
            }
            let time = try Self.time(try entry.required("time"))
            guard let data = try entry.object("data") else { throw entry.error(.missing, at: entry.childPath("data")) }
            return MetNorwayStep(
                time: time, instant: try instant(try data.object("instant")?.object("details")),
                nextHour: try period(try data.object("next_1_hours"), start: time, hours: 1),
                nextSixHours: try period(try data.object("next_6_hours"), start: time, hours: 6),
                nextTwelveHours: try period(try data.object("next_12_hours"), start: time, hours: 12))
        }

        private mutating func instant(_ details: ProviderJSON?) throws(ProviderParseError) -> Instant {
            guard let details else { return Instant() }
            return Instant(
                temperature: try value(details, "air_temperature", Self.temperatures),
                humidity: try value(details, "relative_humidity", Self.percentages).map { $0 / 100 },
                windSpeed: try value(details, "wind_speed", Self.windSpeeds),
                windGust: try value(details, "wind_speed_of_gust", Self.windSpeeds),
                windBearing: try value(details, "wind_from_direction", Self.bearings),
                pressure: try value(details, "air_pressure_at_sea_level", Self.pressures),
                cloudCover: try value(details, "cloud_area_fraction", Self.percentages).map { $0 / 100 },
                fogCover: try value(details, "fog_area_fraction", Self.percentages).map { $0 / 100 },
                uvIndexClearSky: try value(details, "ultraviolet_index_clear_sky", Self.uvIndexes),
                dewPoint: try value(details, "dew_point_temperature", Self.temperatures))
        }

        private mutating func period(
            _ block: ProviderJSON?, start: Double, hours: Int
        ) throws(ProviderParseError)
            -> Period?
        {
            guard let block else { return nil }
            let details = try block.object("details")
            // Rain beyond Nowcast.plausibleIntensity in every hour is broken data.
            let amounts = 0...(Nowcast.plausibleIntensity.upperBound * Double(hours))
            return Period(
                start: start, hours: hours, symbol: try symbol(try block.object("summary")),
                precipitation: try value(details, "precipitation_amount", amounts),
                probability: try value(details, "probability_of_precipitation", Self.percentages).map { $0 / 100 },
                thunderProbability: try value(details, "probability_of_thunder", Self.percentages).map { $0 / 100 },
                temperatureMax: try value(details, "air_temperature_max", Self.temperatures),
                temperatureMin: try value(details, "air_temperature_min", Self.temperatures))
        }

        private mutating func symbol(_ summary: ProviderJSON?) throws(ProviderParseError) -> MetNorwaySymbol? {
            guard let code = try summary?.string("symbol_code") else { return nil }
            guard let symbol = MetNorwaySymbol(code: code) else {
                unknownCodes.insert("\"\(code.prefix(Self.codeLength))\"")
                return nil
            }
            return symbol
        }

        /// The number `key` of `details`: nil when absent or null, and when
        /// outside `range` (noted).
        private mutating func value(
            _ details: ProviderJSON?, _ key: String, _ range: ClosedRange<Double>
        ) throws(ProviderParseError) -> Double? {
            guard let field = details?[key], let number = try field.asNumber() else { return nil }
            guard number.isFinite, range.contains(number) else {
                droppedCount += 1
                if dropped.count < Self.namedInNote { dropped.append("\(field.path) (\(number))") }
                return nil
            }
            return number
        }
    }
}
