import Glibc
import RainCore

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
        .setSettings: Method(access: .change, parameters: ["units", "refreshMinutes"], handler: { $0.setSettings }),
        .subscribe: Method(access: .read, parameters: ["events"], handler: { $0.subscribe }),
    ]

    /// Longer names are refused: they would only bloat every event and listing.
    static let maximumNameLength = 200

    let context: DaemonContext
    public private(set) var state: PersistentState
    let store: StateStore
    let publisher: Publisher
    let logger: Logger

    public init(context: DaemonContext, state: PersistentState, store: StateStore, publisher: Publisher) {
        self.context = context
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
        state = newState
        publisher.publish(events)
        context.stateChanged()
    }

    // MARK: Methods

    func getStatus(_ request: VarlinkRequest, _ parameters: WireReader) throws(MethodError) {
        request.reply(.object(["status": statusJSON()]))
    }

    func statusJSON() -> JSON {
        var status = JSONObject()
        status["version"] = .string(RaindVersion.string)
        status["uptimeSeconds"] = .number(context.uptime)
        status["provider"] = .string(context.configuration.provider.rawValue)
        status["online"] = .bool(context.isOnline)
        status["units"] = .string(state.settings.units.rawValue)
        status["refreshMinutes"] = .int(state.settings.refreshMinutes ?? context.configuration.intervalMinutes)
        status["locations"] = .int(state.places.locations.count)
        status["selected"] = state.places.selected?.json ?? .null
        status["lastRefresh"] = .null
        status["lastError"] = .null
        status["nextRefresh"] = .null
        status["callsToday"] = .int(0)
        status["dailyBudget"] = .int(context.configuration.dailyBudget)
        status["subscribers"] = .int(publisher.count)
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
        let latitude = try decode { () throws(WireDecodingError) in try parameters.optionalDouble("latitude") }
        let longitude = try decode { () throws(WireDecodingError) in try parameters.optionalDouble("longitude") }
        let name = try decode { () throws(WireDecodingError) in try parameters.optionalString("name") }?.trimmingSpaces()
        guard let latitude, let longitude else {
            throw MethodError.invalidParameter(
                latitude == nil ? "latitude" : "longitude",
                "give latitude and longitude together (decimal degrees)")
        }
        guard (-90...90).contains(latitude) else {
            throw MethodError.invalidParameter("latitude", "\(latitude) is outside -90...90")
        }
        guard (-180...180).contains(longitude) else {
            throw MethodError.invalidParameter("longitude", "\(longitude) is outside -180...180")
        }
        guard let name, !name.isEmpty else {
            throw MethodError.invalidParameter("name", "a name is needed for a place given by coordinates")
        }
        guard name.count <= Self.maximumNameLength else {
            throw MethodError.invalidParameter("name", "longer than \(Self.maximumNameLength) characters")
        }
        let candidate = PlaceCandidate(name: name, latitude: latitude, longitude: longitude, source: .coordinates)
        try add(candidate, approximate: false, request: request)
    }

    func add(_ candidate: PlaceCandidate, approximate: Bool, request: VarlinkRequest) throws(MethodError) {
        var next = state
        let (location, events) = next.places.add(candidate)
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

    /// The saved place named by the `id` parameter (an id or a unique name).
    func resolve(_ parameters: WireReader) throws(MethodError) -> Location {
        guard let reference = try decode({ () throws(WireDecodingError) in try parameters.optionalString("id") }),
            !reference.isEmpty
        else {
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
        snapshot["status"] = statusJSON()
        snapshot["locations"] = .array(state.places.locations.map(\.json))
        snapshot["selected"] = state.places.selectedID.map { .string($0.rawValue) } ?? .null
        request.stream(.object(snapshot))
        publisher.add(request, filter: filter)
        context.subscriberAttached()
    }
}
