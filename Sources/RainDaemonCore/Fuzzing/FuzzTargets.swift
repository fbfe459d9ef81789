import RainCore

/// The entry points of raind's fuzzing campaign (`scripts/fuzz`, docs/FUZZING.md):
/// each takes arbitrary bytes and runs them through one parser the way raind
/// does, then through what raind does next with the result (validation,
/// presentation), so a value that would trap later is found too. Each must
/// return for every input; a trap is a bug. The inputs that once trapped are
/// kept in `fuzz/regressions/<target>/` and replayed by the unit tests.
public enum FuzzTargets {
    /// Target names and their entry points, as `scripts/fuzz` and the tests know them.
    /// Each entry point is wrapped in a closure that captures nothing, so it is
    /// `@Sendable` by construction, whatever a language mode infers for a
    /// reference to a static method. Every provider of `WeatherProviders.all`
    /// is a target named by its `ProviderName.stem`, run on its answers.
    public static let all: [Target] = fixedTargets + providerTargets

    static let fixedTargets: [Target] = [
        ("varlink", { varlink($0) }),
        ("config", { config($0) }),
        ("state", { state($0) }),
        ("cache", { cache($0) }),
        ("alerts", { alerts($0) }),
        ("observations", { observations($0) }),
        ("air", { air($0) }),
    ]

    public typealias Target = (name: String, run: @Sendable ([UInt8]) -> Void)

    static var providerTargets: [Target] {
        WeatherProviders.all.map { provider in (provider.name.stem, { answer($0, from: provider) }) }
    }

    /// The framer on arbitrary chunks (the first byte picks the chunk size),
    /// then each framed message decoded as a call, its parameters as the
    /// daemon's typed values, and as a reply and an event (raindctl's side).
    public static func varlink(_ bytes: [UInt8]) {
        var framer = VarlinkFramer(maximumMessageSize: 4096)
        let chunk = max(1, Int(bytes.first ?? 1))
        var index = bytes.isEmpty ? 0 : 1
        while index < bytes.count {
            let end = min(bytes.count, index + chunk)
            framer.append(bytes[index..<end])
            index = end
            while true {
                let message: [UInt8]?
                do {
                    message = try framer.nextMessage()
                } catch {
                    return  // an oversized message closes the connection
                }
                guard let message else { break }
                decodeMessage(message)
            }
        }
    }

    static func decodeMessage(_ message: [UInt8]) {
        if let call = try? VarlinkCall(message: message) {
            // As the daemon reads them: the declared parameters of every method.
            for method in WeatherMethod.allCases { decode(method.call, call.parameters) }
            _ = call.parameters.first { _, value in
                (try? Location(json: value))?.validationProblem() != nil
            }
            _ = VarlinkFramer.frame(call.json)
        }
        if let reply = try? VarlinkReply(message: message) {
            // As raindctl reads them: a subscriber's event, and each method's reply.
            _ = try? SubscribeReply(json: reply.parameters).decodedEvent()
            for method in WeatherMethod.allCases { decodeReply(method.call, reply.parameters) }
        }
        // As `raindctl status` reads a status: from a tape of the message, which
        // takes the documents the tree takes and no other.
        let tape = try? JSONTape(parsing: message)
        precondition((tape == nil) == ((try? JSON(parsing: message)) == nil), "the tape and the tree take alike")
        if let tape, let parameters = tape.member("parameters", of: JSONTape.root),
            let fields = try? WireFields(tape, value: parameters, context: "reply")
        {
            _ = try? GetStatusCall.Reply(wire: fields)
        }
    }

    private static func decode<Call: WeatherCall>(_ call: Call.Type, _ parameters: JSONObject) {
        guard
            let decoded = try? WireDecoder.decode(
                Call.Parameters.self, from: .object(parameters), refusingUnknownFields: true)
        else { return }
        _ = decoded.json.serialized()
    }

    private static func decodeReply<Call: WeatherCall>(_ call: Call.Type, _ parameters: JSON) {
        _ = (try? Call.Reply(json: parameters))?.json.serialized()
    }

    /// A configuration file's text (any bytes, as read from disk).
    public static func config(_ bytes: [UInt8]) {
        var parser = ConfigParser()
        parser.apply(text: String(decoding: bytes, as: UTF8.self), file: "raind.conf")
        _ = parser.diagnostics.map(\.description)
    }

    /// A state file: decoded, validated, and what remains used the way raind
    /// uses it (ids as file names, coordinates in provider URLs, the refresh
    /// interval in seconds).
    public static func state(_ bytes: [UInt8]) {
        guard let decoded = try? PersistentState(bytes: bytes) else { return }
        let (state, _) = decoded.validated()
        for location in state.places.locations {
            precondition(location.id.isWellFormed, "a validated id is a safe file name")
            for provider in WeatherProviders.all {
                _ = provider.plan(for: location, units: .si, key: "k", lookup: nil, now: 1_790_000_000)
            }
            _ = location.displayName
        }
        if let minutes = state.settings.refreshMinutes { _ = Double(minutes * 60) }
        _ = state.bytes
    }

    /// A cache file's forecast: decoded, validated, scheduled and presented.
    public static func cache(_ bytes: [UInt8]) {
        guard let value = try? JSON(parsing: bytes), let forecast = try? Forecast(json: value["forecast"] ?? value),
            forecast.validationProblem() == nil
        else { return }
        use(forecast)
    }

    /// An air-quality answer, read by every provider's air-quality service
    /// on both indexes, validated, kept as the daemon keeps it (its cache
    /// file's form read back), then shown in every view, template and
    /// notification decision.
    public static func air(_ bytes: [UInt8]) {
        for provider in WeatherProviders.all {
            guard let service = provider.airQuality else { continue }
            for index in AirQualityIndex.allCases {
                guard let air = try? service.parse(bytes, index: index, fetchedAt: 1_790_000_000),
                    air.validationProblem() == nil
                else { continue }
                guard let back = try? AirQuality(json: air.json), back.validationProblem() == nil else {
                    preconditionFailure("valid air reads back valid")
                }
                var forecast = Forecast(provider: provider.name.rawValue, fetchedAt: 1_790_000_000)
                forecast.air = back
                let presenter = ForecastPresenter(
                    forecast: forecast, placeName: "Fuzz", units: .si, now: 1_790_000_100)
                _ = presenter.nowView()
                _ = presenter.hourlyView(hours: 48)
                let values = BarValues(
                    placeName: "Fuzz", forecast: forecast, units: .si, now: 1_790_000_100, iconStyle: .text)
                for field in BarTemplate.Field.allCases { _ = values.text(field, bare: false) }
                _ = values.airClass
                _ = AirNotices.decide(
                    place: LocationID("fuzz"), placeName: "Fuzz", air: back, episodes: [], airLevel: 2, uv: .moderate)
            }
        }
    }

    /// Between the answers of a provider that asks several questions
    /// (`WeatherProvider.answerRoles`), in the roles' order: `scripts/fuzz`
    /// joins each recording's answers with it.
    public static let answerSeparator: [UInt8] = Array("\n--raind-answer--\n".utf8)

    /// A provider's answers: looked up, parsed, validated, scheduled and presented.
    public static func answer(_ bytes: [UInt8], from provider: any WeatherProvider) {
        let place = Location(
            id: LocationID("fuzz"), name: "Fuzz", countryCode: "US", latitude: 40.7, longitude: -74,
            timeZone: "America/New_York", source: .coordinates)
        let answers = split(bytes, roles: provider.answerRoles.count)
        _ = try? provider.parseLookup(answers[0], for: place, now: 1_790_000_000)
        guard
            let forecast = try? provider.parseForecast(
                answers, for: place, zone: nil, fetchedAt: 1_790_000_000, leftOut: { _ in }),
            forecast.validationProblem() == nil
        else { return }
        use(forecast)
    }

    /// `bytes` cut at `answerSeparator` into exactly `roles` answers (the
    /// last holds the rest; missing ones are empty).
    static func split(_ bytes: [UInt8], roles: Int) -> [[UInt8]] {
        guard roles > 1 else { return [bytes] }
        var answers: [[UInt8]] = []
        var start = 0
        var index = 0
        let separator = answerSeparator
        while answers.count < roles - 1, index + separator.count <= bytes.count {
            if bytes[index..<index + separator.count].elementsEqual(separator) {
                answers.append(Array(bytes[start..<index]))
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        answers.append(Array(bytes[start...]))
        while answers.count < roles { answers.append([]) }
        return answers
    }

    /// An alert service's answer or CAP message (XML or JSON), read by every
    /// source of `AlertSources.all` as a feed and as a CAP document, for a
    /// place in the source's country at two points (where the ECCC
    /// recording's regions meet, and in Šumadija, where the Serbian CAP's
    /// polygon lies, so outlines are matched too), and by `CAPAlert` with
    /// geocodes known, and for the area it names (`areaLookup`); every
    /// alert made plain text as raind shows it; then
    /// the life of the alerts they held, and those alerts in a forecast,
    /// validated and presented.
    public static func alerts(_ bytes: [UInt8]) {
        let now = 1_790_000_000.0
        let points = [
            AlertArea.Point(latitude: 43.75, longitude: -79.64), AlertArea.Point(latitude: 44.0128, longitude: 20.9114),
        ]
        var messages: [WeatherAlert] = []
        for source in AlertSources.all {
            for point in points {
                let place = Location(
                    id: LocationID("fuzz"), name: "Fuzz", countryCode: source.terms.countries.sorted().first ?? "",
                    latitude: point.latitude, longitude: point.longitude, timeZone: "America/Toronto",
                    source: .coordinates)
                _ = source.plan(for: place, languages: ["de", "fr", "en"], now: now)
                // What the answer says of the place's area, asked by point and by area (the DWD's warn cell).
                for asked in ["/alerts?lat=44&lon=21&tz=UTC", "/alerts?warn_cell_id=711000101&tz=Europe%2FBerlin"] {
                    if case .keep(let lookup) = source.areaLookup([bytes], asked: [asked], for: place, now: now) {
                        _ = source.plan(for: place, lookups: [lookup], languages: ["en"], now: now)
                    }
                }
                if let feed = try? source.parseFeed([bytes], for: place, languages: ["de", "fr", "en"], now: now) {
                    messages += feed.alerts
                    _ = feed.documents.map(\.utf8.count)
                }
                messages += (try? source.parseDocument(bytes, for: place, languages: ["sr"], now: now)) ?? []
            }
        }
        let codes: Set<String> = ["EMMA_ID:RS010", "NUTS3:FR717", "WARNCELLID:812069270"]
        messages +=
            (try? CAPAlert.alerts(bytes, source: "fuzz", at: points[1], placeCodes: codes, languages: [])) ?? []
        for alert in messages {
            let plain = AlertText.plain(alert)
            precondition(plain.title.utf8.count <= AlertLimits.titleBytes, "a plain title is bounded")
            precondition(!plain.title.containsControlCharacters, "a plain title is one line of text")
            precondition(
                !plain.description.unicodeScalars.contains { $0 != "\n" && String.isControl($0) },
                "a plain description holds no control code but line breaks")
        }
        let current = AlertLifecycle.current(messages.map(AlertText.plain), now: now)
        _ = AlertLifecycle.nextChange(current, after: now)
        let forecast = Forecast(provider: "open-meteo", fetchedAt: now, alerts: current)
        if forecast.validationProblem() == nil { use(forecast) }
    }

    /// What raind and raindctl do with a forecast that passed validation.
    static func use(_ forecast: Forecast) {
        var scheduler = RefreshScheduler(policy: RefreshPolicy(interval: 1800, staleAfter: 900, dailyBudget: 10))
        let id = LocationID("fuzz")
        scheduler.track([id])
        scheduler.restored(
            id, fetchedAt: forecast.fetchedAt, expiresAt: forecast.expiresAt, selected: true, now: 1_790_000_000)
        _ = scheduler.nextWake([id], now: 1_790_000_000)
        _ = try? Forecast(json: forecast.json)
        // The sky (`now`'s Day length, from the forecast's sunrise and sunset) once: it needs no units.
        let sky = ForecastPresenter(
            forecast: forecast, placeName: "Fuzz", units: .si, now: 1_790_000_000,
            coordinates: PlaceCoordinates(latitude: 69.65, longitude: 18.96))
        _ = sky.nowView()
        for units in UnitSystem.allCases {
            let presenter = ForecastPresenter(forecast: forecast, placeName: "Fuzz", units: units, now: 1_790_000_000)
            _ = presenter.nowView()
            _ = presenter.hourlyView(hours: 48)
            _ = presenter.dailyView()
            _ = presenter.statusLine()
        }
    }
}
