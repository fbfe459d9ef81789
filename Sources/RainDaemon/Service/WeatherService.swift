import Glibc
import RainCore
import RainPlaces

/// `io.raind.Weather`: one typed table of methods (name, who may call it,
/// the parameters it takes, its handler), and the state they act on. Runs on
/// the loop; every change is persisted before it is acknowledged or published.
public final class WeatherService {
    struct Method {
        let access: VarlinkServer.Access
        let parameters: Set<String>
        let handler: (WeatherService) -> (VarlinkRequest, WireReader) throws(MethodError) -> Void
    }

    static let methods: [WeatherMethod: Method] = [
        .getStatus: Method(access: .read, parameters: [], handler: { $0.getStatus }),
        .listLocations: Method(access: .read, parameters: [], handler: { $0.listLocations }),
        .addLocation: Method(
            access: .change, parameters: ["query", "latitude", "longitude", "name", "current"],
            handler: { $0.addLocation }),
        .removeLocation: Method(access: .change, parameters: ["id"], handler: { $0.removeLocation }),
        .selectLocation: Method(access: .change, parameters: ["id"], handler: { $0.selectLocation }),
        .searchPlaces: Method(access: .read, parameters: ["query", "limit"], handler: { $0.searchPlaces }),
        .setSettings: Method(access: .change, parameters: ["units", "refreshMinutes"], handler: { $0.setSettings }),
        .refresh: Method(access: .change, parameters: ["id", "all"], handler: { $0.refresh }),
        .getForecast: Method(access: .read, parameters: ["id"], handler: { $0.getForecast }),
        .subscribe: Method(access: .read, parameters: ["events"], handler: { $0.subscribe }),
    ]

    /// Longer names are refused: they would only bloat every event and listing.
    static let maximumNameLength = 200

    let context: DaemonContext
    let places: PlaceLookup
    let geocoder: OnlineGeocoder
    let geoclue: GeoClueClient
    let refresher: Refresher
    public private(set) var state: PersistentState
    let store: StateStore
    let publisher: Publisher
    let logger: Logger

    public init(
        context: DaemonContext, places: PlaceLookup, geocoder: OnlineGeocoder, geoclue: GeoClueClient,
        refresher: Refresher, state: PersistentState, store: StateStore, publisher: Publisher
    ) {
        self.context = context
        self.places = places
        self.geocoder = geocoder
        self.geoclue = geoclue
        self.refresher = refresher
        self.state = state
        self.store = store
        self.publisher = publisher
        self.logger = context.logger.scoped("service")
    }

    // MARK: Dispatch

    public func handle(_ request: VarlinkRequest) {
        let call = request.call
        let prefix = WeatherInterface.name + "."
        guard call.method.hasPrefix(prefix) else {
            request.fail(VarlinkServiceError.interfaceNotFound.qualifiedName,
                         .object(["interface": .string(String(call.method.split(separator: ".").dropLast().joined(separator: ".")))]))
            return
        }
        guard let name = WeatherMethod(rawValue: String(call.method.dropFirst(prefix.count))),
            let method = Self.methods[name]
        else {
            request.fail(VarlinkServiceError.methodNotFound.qualifiedName, .object(["method": .string(call.method)]))
            return
        }
        do throws(MethodError) {
            if let connection = request.connection, connection.access < method.access {
                throw MethodError(
                    .permissionDenied,
                    message: "uid \(connection.peer.uid) may read but not change this raind; ask root or a member of group raind")
            }
            if let unknown = call.parameters.keys.first(where: { !method.parameters.contains($0) }) {
                throw MethodError.invalidParameter(
                    unknown, "\(name.rawValue) takes no parameter '\(unknown)'"
                        + (method.parameters.isEmpty ? "" : " (it takes: \(method.parameters.sorted().joined(separator: ", ")))"))
            }
            try method.handler(self)(request, WireReader(object: call.parameters, context: ""))
        } catch {
            request.fail(error.name, .object(error.parameters))
        }
    }

    /// Wraps a parameter decoding failure as InvalidParameter.
    func decode<T>(_ body: () throws(WireDecodingError) -> T) throws(MethodError) -> T {
        do {
            return try body()
        } catch {
            throw MethodError.invalid(error)
        }
    }

    // MARK: State changes

    /// Persists `newState`, then makes it current and publishes `events`.
    /// When the file cannot be written nothing changes and the caller is told.
    func commit(_ newState: PersistentState, events: [Event]) throws(MethodError) {
        guard newState != state else { return }
        do {
            try store.save(newState)
        } catch {
            logger.error("cannot save \(store.path): \(error)")
            throw MethodError(
                .stateNotSaved,
                message: "could not write \(store.path) (\(error.message)); nothing was changed. Check free space and permissions",
                ["path": .string(store.path)])
        }
        let old = state
        state = newState
        publisher.publish(events)
        if old.settings.refreshMinutes != newState.settings.refreshMinutes {
            refresher.reconfigure(
                source: refresher.source, refreshMinutes: newState.settings.refreshMinutes, retryRefused: false)
        }
        if old.places != newState.places { refresher.placesChanged(newState.places) }
        context.stateChanged()
    }

    // MARK: Methods

    func getStatus(_ request: VarlinkRequest, _ parameters: WireReader) throws(MethodError) {
        request.reply(.object(["status": statusJSON()]))
    }

    /// `joining`: a subscriber about to be added, counted in its own snapshot.
    func statusJSON(joining: Int = 0) -> JSON {
        var status = JSONObject()
        status["version"] = .string(RaindVersion.string)
        status["uptimeSeconds"] = .number(context.uptime)
        status["provider"] = .string(context.configuration.provider.rawValue)
        status["online"] = .bool(refresher.isOnline)
        status["units"] = .string(state.settings.units.rawValue)
        status["refreshMinutes"] = .int(state.settings.refreshMinutes ?? context.configuration.intervalMinutes)
        status["locations"] = .int(state.places.locations.count)
        status["selected"] = state.places.selected?.json ?? .null
        status["lastRefresh"] = JSON(refresher.lastSuccess)
        status["lastError"] = refresher.lastFailure?.json ?? .null
        status["nextRefresh"] = JSON(refresher.nextWake)
        status["callsToday"] = .int(refresher.callsToday)
        status["dailyBudget"] = .int(context.configuration.dailyBudget)
        status["subscribers"] = .int(publisher.count + joining)
        return .object(status)
    }

    func listLocations(_ request: VarlinkRequest, _ parameters: WireReader) throws(MethodError) {
        request.reply(locationsJSON())
    }

    func locationsJSON() -> JSON {
        .object([
            "locations": .array(state.places.locations.map(\.json)),
            "selected": state.places.selectedID.map { .string($0.rawValue) } ?? .null,
        ])
    }

    func addLocation(_ request: VarlinkRequest, _ parameters: WireReader) throws(MethodError) {
        let query = try decode { () throws(WireDecodingError) in try parameters.optionalString("query") }?.trimmingSpaces()
        let latitude = try decode { () throws(WireDecodingError) in try parameters.optionalDouble("latitude") }
        let longitude = try decode { () throws(WireDecodingError) in try parameters.optionalDouble("longitude") }
        let name = try decode { () throws(WireDecodingError) in try parameters.optionalString("name") }?.trimmingSpaces()
        let current = try decode { () throws(WireDecodingError) in try parameters.optionalBool("current") } ?? false
        let ways = [query != nil, latitude != nil || longitude != nil, current].filter { $0 }.count
        guard ways == 1 else {
            throw MethodError.invalidParameter(
                ways == 0 ? "query" : "current",
                "give exactly one of: query (a place name), latitude with longitude, or current=true")
        }
        if let name {
            guard !name.isEmpty, name.count <= Self.maximumNameLength else {
                throw MethodError.invalidParameter("name", "must be 1 to \(Self.maximumNameLength) characters")
            }
        }
        for (field, text) in [("name", name), ("query", query)] where text?.containsControlCharacters == true {
            throw MethodError.invalidParameter(field, "holds control characters (such as ESC, BEL or CR); give plain text")
        }
        if let query {
            try addPlace(named: query, request: request)
        } else if current {
            addCurrentPosition(name: name, request: request)
        } else {
            guard let latitude, let longitude else {
                throw MethodError.invalidParameter(
                    latitude == nil ? "latitude" : "longitude", "give latitude and longitude together (decimal degrees)")
            }
            guard (-90...90).contains(latitude) else {
                throw MethodError.invalidParameter("latitude", "\(latitude) is outside -90...90")
            }
            guard (-180...180).contains(longitude) else {
                throw MethodError.invalidParameter("longitude", "\(longitude) is outside -180...180")
            }
            try add(try namedCandidate(latitude: latitude, longitude: longitude, name: name), approximate: false, request: request)
        }
    }

    /// The machine's position from GeoClue2 (city accuracy), named by the
    /// nearest place; without GeoClue, the most populous place in the
    /// system's time zone, marked approximate.
    func addCurrentPosition(name: String?, request: VarlinkRequest) {
        geoclue.locate { [weak self] result in
            guard let self else { return }
            do throws(MethodError) {
                switch result {
                case .success(let position):
                    var candidate = try self.namedCandidate(
                        latitude: position.latitude, longitude: position.longitude, name: name)
                    candidate.source = .current(approximate: false)
                    try self.add(candidate, approximate: false, request: request)
                case .failure(let error):
                    self.logger.info("no position from GeoClue (\(error)); estimating from the time zone")
                    var candidate = try self.places.placeInSystemTimeZone()
                    if let name { candidate.name = name }
                    candidate.source = .current(approximate: true)
                    try self.add(candidate, approximate: true, request: request)
                }
            } catch {
                request.fail(error.name, .object(error.parameters))
            }
        }
    }

    /// A place at coordinates, named as given or after the nearest known place
    /// (its region and country are kept when it is near enough to belong there).
    func namedCandidate(latitude: Double, longitude: Double, name: String?) throws(MethodError) -> PlaceCandidate {
        var candidate = PlaceCandidate(name: name ?? "", latitude: latitude, longitude: longitude, source: .coordinates)
        // Without a name the place data is needed; with one it only adds region and country.
        let directory = name == nil ? try places.directory() : try? places.directory()
        if let nearest = directory?.nearest(latitude: latitude, longitude: longitude) {
            let distance = GeoDistance.kilometres(
                latitude1: latitude, longitude1: longitude, latitude2: nearest.latitude, longitude2: nearest.longitude)
            if distance <= Self.sameRegionKilometres {
                candidate.region = nearest.region
                candidate.country = nearest.country
                candidate.countryCode = nearest.countryCode
                candidate.timeZone = nearest.timeZone
            }
            if name == nil, distance <= Self.sameRegionKilometres {
                candidate.name = distance <= Self.namedAfterKilometres ? nearest.name : "Near \(nearest.name)"
            }
        }
        if candidate.name.isEmpty {
            candidate.name = "\(Self.rounded(latitude)), \(Self.rounded(longitude))"
        }
        return candidate
    }

    /// Within this distance a place is named after the nearest known place...
    static let namedAfterKilometres = 25.0
    /// ...and within this one it takes that place's region and country, and is
    /// "Near" it; farther out, coordinates name it.
    static let sameRegionKilometres = 100.0

    static func rounded(_ value: Double) -> String {
        let scaled = (value * 100).rounded() / 100
        return "\(scaled)"
    }

    /// Adds the place a name means, or explains why it cannot.
    func addPlace(named query: String, request: VarlinkRequest) throws(MethodError) {
        guard !query.isEmpty, query.count <= Self.maximumNameLength else {
            throw MethodError.invalidParameter("query", "must be 1 to \(Self.maximumNameLength) characters")
        }
        switch try places.directory().resolve(query) {
        case .unique(let candidate):
            try add(candidate, approximate: false, request: request)
        case .ambiguous(let matches):
            throw Self.ambiguous(query, matches.prefix(8).map(\.candidate))
        case .notFound(let suggestions):
            let listed = Array(suggestions.prefix(5).map(\.candidate))
            let configuration = context.configuration
            guard configuration.onlineGeocoder, refresher.isOnline else {
                throw Self.notFound(query, suggestions: listed, online: nil)
            }
            // Not in the embedded data: ask the online geocoder, and answer when it has.
            geocoder.search(query, baseURL: configuration.geocoderURL, timeoutSeconds: configuration.timeoutSeconds) {
                [weak self] result in
                guard let self else { return }
                do throws(MethodError) {
                    switch result {
                    case .failure(let failure):
                        throw Self.notFound(query, suggestions: listed, online: failure.message)
                    case .success(let found):
                        guard let best = found.first else {
                            throw Self.notFound(query, suggestions: listed, online: "")
                        }
                        let others = found.dropFirst().filter { $0.population > 0 || best.population == 0 }
                        let clear = others.isEmpty
                            || Double(best.population) >= Double(others[others.startIndex].population) * Self.clearWinnerRatio
                        guard clear else { throw Self.ambiguous(query, Array(found.prefix(8))) }
                        try self.add(best, approximate: false, request: request)
                    }
                } catch {
                    request.fail(error.name, .object(error.parameters))
                }
            }
        }
    }

    /// A best match at least this many times as populous as the next is the one meant
    /// (the embedded data's rule, docs/PLACES.md).
    static let clearWinnerRatio = PlaceDirectory.clearWinnerPopulationRatio

    static func ambiguous(_ query: String, _ candidates: [PlaceCandidate]) -> MethodError {
        let listed = candidates.map { $0.sanitized() }
        return MethodError(
            .ambiguousPlace,
            message: "'\(query)' could mean several places: "
                + listed.map(describe).joined(separator: "; ")
                + ". Be more precise, like \"\(example(listed[0]))\", or use a GeoNames id shown by 'raindctl search'",
            ["query": .string(query), "candidates": .array(listed.map(candidateJSON))])
    }

    /// `online`: nil when the online geocoder was not asked, "" when it found nothing, else why it failed.
    static func notFound(_ query: String, suggestions: [PlaceCandidate], online: String?) -> MethodError {
        let listed = suggestions.map { $0.sanitized() }
        let online = online?.replacingControlCharacters()
        var message = "no place called '\(query)' is known"
        if let online { message += online.isEmpty ? ", here or online" : " (the online geocoder could not be asked: \(online))" }
        if !listed.isEmpty { message += "; did you mean " + listed.map(describe).joined(separator: ", ") + "?" }
        message += " A place missing from the data can be added by coordinates (--coords LAT,LON --name NAME)"
        return MethodError(
            .placeNotFound, message: message,
            ["query": .string(query), "suggestions": .array(listed.map(candidateJSON))])
    }

    /// "Paris, Texas, US (pop. 24,171, geonames:4717560)": what tells candidates apart.
    static func describe(_ candidate: PlaceCandidate) -> String {
        var parts = [candidate.name]
        if !candidate.region.isEmpty { parts.append(candidate.region) }
        parts.append(candidate.countryCode.isEmpty ? candidate.country : candidate.countryCode)
        var text = parts.joined(separator: ", ")
        var extra: [String] = []
        if candidate.population > 0 { extra.append("pop. \(groupedThousands(candidate.population))") }
        if let identity = candidate.source.identity { extra.append(identity) }
        if !extra.isEmpty { text += " (" + extra.joined(separator: ", ") + ")" }
        return text
    }

    static func example(_ candidate: PlaceCandidate) -> String {
        let qualifier = candidate.region.isEmpty ? candidate.countryCode : candidate.region
        return "\(candidate.name), \(qualifier)"
    }

    static func groupedThousands(_ number: Int) -> String {
        var digits = String(number)
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(digits, at: 0)
        return groups.joined(separator: ",")
    }

    static func candidateJSON(_ candidate: PlaceCandidate) -> JSON { candidate.json }

    func searchPlaces(_ request: VarlinkRequest, _ parameters: WireReader) throws(MethodError) {
        guard let query = try decode({ () throws(WireDecodingError) in try parameters.optionalString("query") })?.trimmingSpaces(),
            !query.isEmpty, query.count <= Self.maximumNameLength
        else {
            throw MethodError.invalidParameter("query", "give a place name of 1 to \(Self.maximumNameLength) characters")
        }
        guard !query.containsControlCharacters else {
            throw MethodError.invalidParameter("query", "holds control characters (such as ESC, BEL or CR); give plain text")
        }
        let limit = try decode { () throws(WireDecodingError) in try parameters.optionalInt("limit") } ?? 10
        guard (1...100).contains(limit) else {
            throw MethodError.invalidParameter("limit", "\(limit) is outside 1...100")
        }
        let matches = try places.directory().search(query, limit: limit)
        request.reply(.object(["candidates": .array(matches.map { $0.candidate.sanitized().json })]))
    }

    func add(_ candidate: PlaceCandidate, approximate: Bool, request: VarlinkRequest) throws(MethodError) {
        var next = state
        let (location, events) = next.places.add(candidate.sanitized())
        try commit(next, events: events)
        request.reply(.object([
            "location": location.json,
            "added": .bool(!events.isEmpty),
            "approximate": .bool(approximate),
        ]))
    }

    func removeLocation(_ request: VarlinkRequest, _ parameters: WireReader) throws(MethodError) {
        let location = try resolve(parameters)
        var next = state
        let events: [Event]
        do {
            events = try next.places.remove(location.id)
        } catch {
            throw MethodError(error)
        }
        try commit(next, events: events)
        request.reply(.object(["location": location.json]))
    }

    func selectLocation(_ request: VarlinkRequest, _ parameters: WireReader) throws(MethodError) {
        let location = try resolve(parameters)
        var next = state
        let events: [Event]
        do {
            events = try next.places.select(location.id)
        } catch {
            throw MethodError(error)
        }
        try commit(next, events: events)
        request.reply(.object(["location": location.json]))
    }

    /// The saved place named by the `id` parameter (an id or a unique name);
    /// with `selectedByDefault`, the selected place when none is named.
    func resolve(_ parameters: WireReader, selectedByDefault: Bool = false) throws(MethodError) -> Location {
        let reference = try decode { () throws(WireDecodingError) in try parameters.optionalString("id") }
        if reference == nil, selectedByDefault {
            guard let selected = state.places.selected else {
                throw MethodError(
                    .locationNotFound, message: "no place is saved yet; add one with 'raindctl add PLACE'",
                    ["id": .string("")])
            }
            return selected
        }
        guard let reference, !reference.isEmpty else {
            throw MethodError.invalidParameter("id", "missing: give a place's id or name")
        }
        do {
            return try state.places.resolve(reference)
        } catch {
            throw MethodError(error)
        }
    }

    func setSettings(_ request: VarlinkRequest, _ parameters: WireReader) throws(MethodError) {
        var next = state
        if let unitsText = try decode({ () throws(WireDecodingError) in try parameters.optionalString("units") }) {
            guard let units = UnitSystem(userInput: unitsText) else {
                throw MethodError.invalidParameter("units", "'\(unitsText)' is not a unit system; use us, si, ca or uk")
            }
            next.settings.units = units
        }
        if let minutes = try decode({ () throws(WireDecodingError) in try parameters.optionalInt("refreshMinutes") }) {
            guard Settings.refreshMinutesRange.contains(minutes) else {
                throw MethodError.invalidParameter(
                    "refreshMinutes",
                    "\(minutes) is outside \(Settings.refreshMinutesRange.lowerBound)...\(Settings.refreshMinutesRange.upperBound) minutes")
            }
            next.settings.refreshMinutes = minutes
        }
        let events: [Event] = next.settings != state.settings ? [.settingsChanged(next.settings)] : []
        try commit(next, events: events)
        request.reply(.object(["settings": state.settings.json]))
    }

    func refresh(_ request: VarlinkRequest, _ parameters: WireReader) throws(MethodError) {
        let all = try decode { () throws(WireDecodingError) in try parameters.optionalBool("all") } ?? false
        if all, parameters.optional("id") != nil {
            throw MethodError.invalidParameter("all", "give either id or all=true, not both")
        }
        let ids = all ? state.places.locations.map(\.id) : [try resolve(parameters, selectedByDefault: true).id]
        guard !ids.isEmpty else {
            request.reply(.object(["updated": .array([]), "failed": .array([])]))
            return
        }
        let callsBudget = (refresher.callsToday, context.configuration.dailyBudget)
        refresher.refresh(ids) { results in
            let updated = ids.filter { results[$0].map { $0 == nil } ?? false }
            let failed = ids.filter { !updated.contains($0) }
            if updated.isEmpty, let first = failed.first, let failure = results[first] ?? nil {
                let error = failure.error == .locationNotFound
                    ? MethodError.locationNotFound(first.rawValue)
                    : MethodError(failure, callsToday: callsBudget.0, dailyBudget: callsBudget.1)
                request.fail(error.name, .object(error.parameters))
                return
            }
            request.reply(.object([
                "updated": .array(updated.map { .string($0.rawValue) }),
                "failed": .array(failed.map { .string($0.rawValue) }),
            ]))
        }
    }

    func getForecast(_ request: VarlinkRequest, _ parameters: WireReader) throws(MethodError) {
        let location = try resolve(parameters, selectedByDefault: true)
        var reply = JSONObject()
        reply["location"] = location.json
        if let cached = refresher.forecast(for: location.id) {
            reply["forecast"] = cached.forecast.json
            reply["ageSeconds"] = .number(cached.age)
            reply["stale"] = .bool(cached.stale)
        } else {
            reply["forecast"] = .null
            reply["ageSeconds"] = .null
            reply["stale"] = .bool(true)
        }
        request.reply(.object(reply))
    }

    func subscribe(_ request: VarlinkRequest, _ parameters: WireReader) throws(MethodError) {
        guard request.call.more else {
            throw MethodError(service: .expectedMore, [:])
        }
        var filter: Set<EventName>?
        let names = try decode { () throws(WireDecodingError) in try parameters.array("events") }
        if parameters.optional("events") != nil {
            var set = Set<EventName>()
            for (index, value) in names.enumerated() {
                guard let text = value.stringValue, let name = EventName(rawValue: text) else {
                    throw MethodError.invalidParameter(
                        "events[\(index)]",
                        "unknown event \(value.serialized()); known: \(EventName.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                set.insert(name)
            }
            filter = set
        }
        var snapshot = JSONObject()
        snapshot["event"] = .string("Snapshot")
        snapshot["status"] = statusJSON(joining: 1)
        snapshot["locations"] = .array(state.places.locations.map(\.json))
        snapshot["selected"] = state.places.selectedID.map { .string($0.rawValue) } ?? .null
        snapshot["forecast"] = state.places.selectedID.flatMap { refresher.forecast(for: $0)?.forecast.json } ?? .null
        request.stream(.object(snapshot))
        let quiet = publisher.count == 0
        publisher.add(request, filter: filter)
        // The first subscriber after a time with none is someone looking: refresh what is stale.
        if quiet { context.subscriberAttached() }
    }
}
