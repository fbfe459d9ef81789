import RainCore

/// Bright Sky (https://brightsky.dev), a free and keyless JSON API over the
/// open data of the Deutscher Wetterdienst (DWD): hourly observations from
/// DWD's stations and MOSMIX point forecasts (about ten days ahead, for
/// some 5,400 places world-wide, densest in and around Germany), and
/// current conditions compiled from the last SYNOP reports of DWD's
/// stations in Germany. raind asks two questions for a forecast:
///
/// 1. `/weather?lat=..&lon=..&date=..&last_date=..&tz=..&units=dwd`: the
///    hours of the place's day, observed as far as they are past, then
///    forecast to MOSMIX's end;
/// 2. `/current_weather?lat=..&lon=..&tz=..&units=dwd`: one observation.
///
/// `units=dwd` (the server's default, written out so the meaning never
/// depends on it) sends °C, hPa, km/h, metres and millimetres; the answers
/// name no units, so the parser reads them as asked and drops a value no
/// weather has (a kelvin temperature, a pascal pressure) with a note.
///
/// Every value of an hourly record that Bright Sky documents as "during the
/// previous hour" (precipitation and its probability, the mean wind and its
/// direction) covers the hour *ending* at its timestamp, and so does the
/// record's `condition` and `icon`, which Bright Sky derives from them. So
/// the hour starting at T takes them from the record stamped T + 1 h, as
/// raind does with Open-Meteo's hourly sums; the temperature is the one at
/// T. Without a record an hour later they are unknown.
///
/// Days are derived from the hours in the place's time zone
/// (`BrightSkyDays`); sunrise and sunset are not given. Bright Sky sends no
/// feels-like temperature and no UV index: both stay unknown.
///
/// Bright Sky picks the nearest station with data for each value. When one
/// that raind uses lies more than `farStationMetres` away, the forecast is
/// kept and `leftOut` is told which station it is and how far
/// (`BrightSkySources`).
public enum BrightSky {
    /// The provider's name in configuration and in `Forecast.provider`.
    public static let providerName = "brightsky"

    /// Where requests go unless `[Provider] BaseURL=` says otherwise.
    public static let defaultBaseURL = "https://api.brightsky.dev"

    /// Days asked for after the first one. MOSMIX runs 240 hours ahead of
    /// its hourly run; the first day asked may be yesterday (`firstDay`), so
    /// eleven more days reach MOSMIX's end whatever the hour. Bright Sky
    /// answers with the records it has, so asking past the end costs nothing.
    public static let forecastDays = 11

    /// A station raind's data comes from that is farther from the place than
    /// this is named in a note: 25 km, about the spacing of DWD's observing
    /// stations, beyond which a shower or a cold valley at the station says
    /// little about the place. Bright Sky itself looks no farther than 50 km
    /// (its default `max_dist`).
    public static let farStationMetres = 25_000.0

    /// A station that stands more than this higher or lower than the
    /// place's own is not used for its current conditions (the forecast's
    /// hour in progress stands in, as for a provider without observations):
    /// 300 m is about 2 °C at the standard atmosphere's lapse rate of
    /// 6.5 °C per km, more than the difference people read a temperature
    /// for, and in mountains it is the difference between a summit and its
    /// valley town (the Feldberg's station at 1,490 m and Freiburg's at 236 m).
    public static let maximumHeightDifference = 300.0

    /// Records read from `/weather`: 15 days of hours, more than raind asks
    /// for; the rest of a longer answer is left out with a note.
    static let maximumRecords = 15 * 24

    /// Path and query of the hourly request, to append to the base URL.
    /// Coordinates are on the request grid (`ProviderQuery.gridDigits`);
    /// `date` is the place's day at `now` (`firstDay`) and `last_date`
    /// `forecastDays` later, both local dates that Bright Sky reads in `tz`;
    /// `tz` is the place's zone percent-encoded (`Europe%2FBerlin`), or
    /// `UTC` when the place has none.
    public static func weatherPath(latitude: Double, longitude: Double, timeZone: String, now: Double) -> String {
        let first = firstDay(longitude: longitude, now: now)
        let query: [(String, String)] = [
            ("lat", ProviderQuery.coordinate(latitude)),
            ("lon", ProviderQuery.coordinate(longitude)),
            ("date", dateText(first)),
            ("last_date", dateText(first + forecastDays)),
            ("tz", zoneParameter(timeZone)),
            ("units", "dwd"),
        ]
        return "/weather?" + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// Path and query of the current-conditions request.
    public static func currentWeatherPath(latitude: Double, longitude: Double, timeZone: String) -> String {
        let query: [(String, String)] = [
            ("lat", ProviderQuery.coordinate(latitude)),
            ("lon", ProviderQuery.coordinate(longitude)),
            ("tz", zoneParameter(timeZone)),
            ("units", "dwd"),
        ]
        return "/current_weather?" + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// The zone Bright Sky is told (which it also reads `date` in): the
    /// place's IANA name, or UTC for a place without one or with a name
    /// that is not a plain IANA name.
    static func zoneName(_ timeZone: String) -> String? {
        ZoneInfo.isPlainName(timeZone) ? timeZone : nil
    }

    static func zoneParameter(_ timeZone: String) -> String {
        ProviderQuery.percentEncoded(zoneName(timeZone) ?? "UTC")
    }

    /// The first day asked for, in days since 1970-01-01: the place's date
    /// at `now`. A plan is made without the zone's rules, so the date is
    /// reckoned from the place's mean solar time (15° of longitude an hour)
    /// less three hours, which no zone's clock trails by: the day asked is
    /// the place's today, or yesterday in the first hours after its
    /// midnight (in Berlin until about 03:00, 04:00 in summer), never
    /// tomorrow (a clock far ahead of the sun, as on Kiritimati, may make
    /// it two days early). Earlier hours cost a few kilobytes and are not
    /// shown.
    static func firstDay(longitude: Double, now: Double) -> Int {
        let degrees = longitude.isFinite ? min(max(longitude, -180), 180) : 0
        let instant = (now.isFinite ? min(max(now, 0), 1e12) : 0) + degrees / 15 * 3600 - 3 * 3600
        return CivilDateTime.floorDivide(Int(instant.rounded(.down)), 86_400)
    }

    /// `2025-09-18`.
    static func dateText(_ daysSinceEpoch: Int) -> String {
        let date = CivilDateTime(unixSeconds: Double(daysSinceEpoch) * 86_400, utcOffsetSeconds: 0)
        let year = String(date.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-"
            + CivilDateTime.twoDigits(date.month) + "-" + CivilDateTime.twoDigits(date.day)
    }

    /// Normalizes the answers to `weatherPath` and `currentWeatherPath` into a
    /// `Forecast` in SI units. `timeZone` is the place's zone (the one asked
    /// for), `zone` its rules: the days derived from the hours are the
    /// place's days, UTC days when `zone` is nil. Throws when an answer is
    /// not JSON, is Bright Sky's error object (`{"detail": ...}`), lacks its
    /// `weather`, or has a field of the wrong type; a field of the current
    /// conditions' answer is named under `current_weather.`. `leftOut` is
    /// told of values dropped as impossible, of repeated or surplus hours,
    /// and of stations farther than `farStationMetres`.
    public static func parseForecast(
        weather weatherBody: [UInt8], current currentBody: [UInt8], timeZone: String, zone: TimeZoneRules?,
        fetchedAt: Double, leftOut: (String) -> Void = { _ in }
    ) throws(ProviderParseError) -> Forecast {
        let weatherRoot = try root(weatherBody, answer: nil)
        guard let cells = try weatherRoot.array("weather") else {
            throw reported(weatherRoot) ?? weatherRoot.error(.missing, at: "weather")
        }
        let currentRoot = try root(currentBody, answer: "current_weather")
        guard let currentCell = try currentRoot.object("weather") else {
            throw reported(currentRoot) ?? currentRoot.error(.missing, at: currentRoot.childPath("weather"))
        }

        var dropped = BrightSkyRecord.Dropped()
        var records: [BrightSkyRecord] = []
        records.reserveCapacity(min(cells.count, maximumRecords))
        for cell in cells {
            records.append(try BrightSkyRecord(hour: cell, dropped: &dropped))
        }
        records = ordered(records, leftOut: leftOut)
        let current = try BrightSkyRecord(current: currentCell, dropped: &dropped)
        if let note = dropped.note { leftOut(note) }

        let hourly = hours(from: records)
        let weatherSources = try BrightSkySources(answer: weatherRoot)
        weatherSources.noteFarHours(records, leftOut: leftOut)
        let currentSources = try BrightSkySources(answer: currentRoot)
        currentSources.noteFarCurrent(current, leftOut: leftOut)
        var conditions: CurrentConditions? = current.conditions
        let provenance = currentSources.provenance(current)
        if !provenance.unrepresentative.isEmpty {
            let described = provenance.unrepresentative.map(Self.described).joined(separator: "; ")
            leftOut("\(providerName): current conditions not used, the forecast's hour stands in: \(described)")
            conditions = nil
        } else if !provenance.sources.isEmpty {
            conditions?.sources = provenance.sources
        }

        let offset =
            zone?.offset(at: fetchedAt) ?? current.utcOffsetSeconds ?? records.first?.utcOffsetSeconds ?? 0
        return Forecast(
            provider: providerName, fetchedAt: fetchedAt, timeZone: zoneName(timeZone) ?? "",
            utcOffsetSeconds: offset, current: conditions, hourly: hourly,
            daily: BrightSkyDays.days(from: hourly, zone: zone))
    }

    /// `temperature, humidity from Freiburg, 21 km away, 1254 m lower than the place's own station`.
    static func described(_ source: ValueSource) -> String {
        var text = source.values.joined(separator: ", ") + " from " + source.station
        if let distance = source.distanceMetres { text += ", \(Int((distance / 1000).rounded())) km away" }
        if let difference = source.heightDifferenceMetres {
            text +=
                ", \(Int(abs(difference).rounded())) m \(difference < 0 ? "lower" : "higher") than the place's own station"
        }
        return text
    }

    /// An answer's body as an object; `answer` names the second answer in
    /// every error's field path.
    private static func root(_ body: [UInt8], answer: String?) throws(ProviderParseError) -> ProviderJSON {
        do {
            let parsed = try ProviderJSON.parse(
                body, provider: providerName, keepingElements: ForecastHorizon.arrayElements)
            guard let answer else { return parsed }
            return ProviderJSON(provider: providerName, path: answer, value: parsed.value)
        } catch {
            throw ProviderParseError(provider: providerName, field: answer ?? error.field, problem: error.problem)
        }
    }

    /// Bright Sky's own error object (`{"detail": "No sources match your
    /// criteria"}`, or FastAPI's list of `{"msg": ...}`), as an error.
    private static func reported(_ root: ProviderJSON) -> ProviderParseError? {
        guard let detail = BrightSkyProvider.detail(root.value) else { return nil }
        return root.error(.providerReported(detail), at: root.childPath("detail"))
    }

    /// The records in time order, each hour once (the first record of an
    /// hour is kept), at most `maximumRecords`.
    private static func ordered(_ records: [BrightSkyRecord], leftOut: (String) -> Void) -> [BrightSkyRecord] {
        var sorted = records.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        let count = sorted.count
        var previous: Double?
        sorted.removeAll { record in
            defer { previous = record.time }
            return record.time == previous
        }
        if sorted.count < count {
            leftOut(
                "\(providerName) sent \(count - sorted.count) record(s) for an hour it had already given; the first of each is kept"
            )
        }
        if sorted.count > maximumRecords {
            leftOut(
                "\(providerName) sent \(sorted.count) hourly records; raind keeps the first \(maximumRecords) (15 days)"
            )
            sorted.removeLast(sorted.count - maximumRecords)
        }
        return sorted
    }

    /// raind's hours from the records: each hour's temperature is its
    /// record's, its rain, wind and weather the next record's (see above).
    private static func hours(from records: [BrightSkyRecord]) -> [HourlyForecast] {
        records.indices.map { index in
            let record = records[index]
            let next = index + 1 < records.count ? records[index + 1] : nil
            let following = next.flatMap { $0.time == record.time + 3600 ? $0 : nil }
            return HourlyForecast(
                time: record.time, summary: following?.summary ?? "",
                icon: following?.icon ?? BrightSkyRecord.unknownIcon, temperature: record.temperature,
                apparentTemperature: nil, windSpeed: following?.windSpeed, windBearing: following?.windBearing,
                // A sum in mm over one hour is a rate in mm/h.
                precipIntensity: following?.precipitation, precipProbability: following?.precipProbability)
        }
    }
}

/// Bright Sky as a `WeatherProvider`: keyless, two requests a forecast, for
/// places in Germany (its current conditions are the DWD's SYNOP reports
/// from stations in Germany; MOSMIX alone reaches further).
public struct BrightSkyProvider: WeatherProvider {
    public init() {}

    public var name: ProviderName { .brightSky }
    public var defaultBaseURL: String { BrightSky.defaultBaseURL }

    /// The DWD's terms (GeoNutzV, https://www.dwd.de/EN/service/copyright/copyright_artikel.html)
    /// ask for the source, and for changed data a note that it was changed:
    /// raind converts units and derives days, hence "values processed", the
    /// DWD's own wording for that.
    public var attribution: Attribution {
        Attribution(
            text: Localization.marked("Data basis: Deutscher Wetterdienst, values processed; via Bright Sky"),
            url: "https://brightsky.dev/")
    }

    /// The public instance is free for all purposes with no key and no
    /// published limit; a forecast costs two requests, counted per day
    /// against raind's own budget. No ETag or `Cache-Control` is documented,
    /// and with two requests raind makes no conditional ones anyway. raind
    /// asks for no nowcast; MOSMIX is renewed hourly.
    public var terms: ProviderTerms {
        var terms = ProviderTerms(
            needsKey: false, conditionalRequests: false, coordinateDigits: ProviderQuery.gridDigits,
            quota: ProviderQuota(
                callsPerRequest: 1, period: .day, freeCalls: nil, fairUseRequestsPerPlaceAndInterval: 3),
            coverage: .countries(["DE"]),
            nowcastIntervalMinutes: 60)
        // The current conditions are the DWD stations' reports (`/current_weather`).
        terms.currentMeasured = true
        return terms
    }

    public var answerRoles: [String] { ["weather", "current"] }

    /// The hours and the current conditions, together; `units` do not
    /// matter (raind converts on display). A place known to lie outside
    /// Germany is not covered; one without a country code is asked for, and
    /// Bright Sky answers 404 when it has no station within 50 km.
    public func plan(
        for place: Location, units: UnitSystem, key: String?, lookup: ProviderLookup?, now: Double
    ) -> ProviderPlan {
        if !place.countryCode.isEmpty, !terms.coverage.covers(countryCode: place.countryCode) {
            return .notCovered("its current conditions come from the DWD's stations in Germany only")
        }
        return .forecast([
            ProviderRequest(
                path: BrightSky.weatherPath(
                    latitude: place.latitude, longitude: place.longitude, timeZone: place.timeZone, now: now)),
            ProviderRequest(
                path: BrightSky.currentWeatherPath(
                    latitude: place.latitude, longitude: place.longitude, timeZone: place.timeZone)),
        ])
    }

    public func parseForecast(
        _ answers: [[UInt8]], for place: Location, zone: TimeZoneRules?, fetchedAt: Double,
        leftOut: (String) -> Void
    ) throws(ProviderParseError) -> Forecast {
        try checkAnswerCount(answers)
        return try BrightSky.parseForecast(
            weather: answers[0], current: answers[1], timeZone: place.timeZone, zone: zone, fetchedAt: fetchedAt,
            leftOut: leftOut)
    }

    /// `{"detail": "..."}`: a 404's "No sources match your criteria", or
    /// a 422's list of what was wrong with the query.
    public func refusal(in body: [UInt8], now: Double) -> ProviderRefusal? {
        guard body.count <= 1 << 16, let value = try? JSON(parsing: body), let detail = Self.detail(value) else {
            return nil
        }
        return ProviderRefusal(reason: detail)
    }

    /// The `detail` of an error body as one bounded line: the text, or the
    /// first `msg` of a list; nil when there is none.
    static func detail(_ value: JSON) -> String? {
        guard let member = value["detail"] else { return nil }
        let text = member.stringValue ?? member.arrayValue?.first?["msg"]?.stringValue
        guard let text else { return nil }
        let line = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
            .strippingControlCharacters()
        guard !line.isEmpty else { return nil }
        return line.count > 300 ? String(line.prefix(300)) + "…" : line
    }
}

extension ProviderName {
    public static let brightSky = ProviderName(declaring: BrightSky.providerName)
}
