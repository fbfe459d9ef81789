import RainCore
import RainDaemonCore
import RainPlaces

/// `io.raind.Weather`: one typed table of methods (name, who may call it,
/// the declared parameters and reply, its handler), and the state they act
/// on. The handlers live by subsystem beside this file: places
/// (`WeatherService+Places.swift`), weather (`+Weather`), settings and
/// status (`+Settings`), subscriptions (`+Subscriptions`). Runs on the loop;
/// every change is persisted before it is acknowledged or published.
public final class WeatherService: VarlinkRequestHandler {
    struct Method: Sendable {
        let access: VarlinkServer.Access
        /// Decodes the parameters as declared and runs the handler.
        let run: @Sendable (WeatherService, VarlinkRequest) throws(MethodError) -> Void
    }

    /// One entry of the table: the call's declared types tie the handler to
    /// its parameters and reply.
    static func entry<Call: WeatherCall>(
        _ call: Call.Type, _ access: VarlinkServer.Access,
        _ handler:
            @escaping @Sendable (WeatherService) -> (Call.Parameters, Responder<Call.Reply>) throws(MethodError) -> Void
    ) -> (WeatherMethod, Method) {
        entry(call, access) { service, parameters, responder throws(MethodError) in
            try handler(service)(parameters, responder)
        }
    }

    /// An entry whose handler is given the service rather than bound to it
    /// first: binding makes an object per call, which the call pipelined
    /// most (GetStatus) does without.
    static func entry<Call: WeatherCall>(
        _ call: Call.Type, _ access: VarlinkServer.Access,
        _ handler:
            @escaping @Sendable (WeatherService, Call.Parameters, Responder<Call.Reply>) throws(MethodError) -> Void
    ) -> (WeatherMethod, Method) {
        let noParameters = Call.noParameters
        return (
            Call.method,
            Method(access: access) { service, request throws(MethodError) in
                let parameters: Call.Parameters
                do throws(WireDecodingError) {
                    if request.call.parameters.isEmpty, let none = noParameters {
                        // The common call with nothing to read (GetStatus): no decoder to run.
                        parameters = none
                    } else {
                        parameters = try WireDecoder.decode(
                            Call.Parameters.self, from: .object(request.call.parameters), refusingUnknownFields: true)
                    }
                } catch {
                    throw MethodError.invalid(error)
                }
                try handler(service, parameters, Responder(request: request))
            }
        )
    }

    /// By fully qualified name (`io.raind.Weather.GetStatus`): a call is found with one lookup.
    static let methods: [String: Method] = Dictionary(
        uniqueKeysWithValues: [
            entry(GetStatusCall.self, .read) { service, parameters, responder throws(MethodError) in
                try service.getStatus(parameters, responder)
            },
            entry(ListLocationsCall.self, .read) { $0.listLocations },
            entry(AddLocationCall.self, .change) { $0.addLocation },
            entry(RemoveLocationCall.self, .change) { $0.removeLocation },
            entry(SelectLocationCall.self, .change) { $0.selectLocation },
            entry(SearchPlacesCall.self, .read) { $0.searchPlaces },
            entry(SetSettingsCall.self, .change) { $0.setSettings },
            entry(RefreshCall.self, .change) { $0.refresh },
            entry(GetForecastCall.self, .read) { $0.getForecast },
            entry(GetAccuracyCall.self, .read) { $0.getAccuracy },
            entry(SubscribeCall.self, .read) { $0.subscribe },
        ].map { ($0.qualifiedName, $1) })

    /// Longer names are refused: they would only bloat every event and listing.
    static let maximumNameLength = 200

    let context: DaemonContext
    let places: PlaceLookup
    let geocoder: OnlineGeocoder
    let geoclue: GeoClueClient
    let refresher: Refresher
    /// The official alert services' polling, for GetStatus; nil in tests without it.
    let alerts: AlertWatcher?
    /// The verifying stations' polling, for GetForecast and GetStatus; nil in tests without it.
    let observations: ObservationWatcher?
    /// The providers' scores, for GetAccuracy; nil in tests without it.
    var accuracy: AccuracyKeeper?
    public private(set) var state: PersistentState
    let store: StateStore
    /// Told of subscribers; counted in the status.
    let publisher: Publisher
    /// Where every change is emitted (`Daemon.init` wires who acts on it).
    let events: DaemonEvents
    let logger: Logger
    /// The Subscribe snapshot's encoding, kept until something in it changes,
    /// so a burst of subscribers costs one encoding.
    var snapshotCache: SnapshotCache?
    /// GetStatus's reply, kept until the status changes (but for its uptime and subscriber count).
    var statusReplyCache: (version: StatusVersion, reply: StatusEncodingCache)?
    /// The method the last call found (`method(named:)`).
    var lastMethod: (name: String, method: Method)?

    init(
        context: DaemonContext, places: PlaceLookup, geocoder: OnlineGeocoder, geoclue: GeoClueClient,
        refresher: Refresher, state: PersistentState, store: StateStore, publisher: Publisher, events: DaemonEvents,
        alerts: AlertWatcher? = nil, observations: ObservationWatcher? = nil
    ) {
        self.alerts = alerts
        self.observations = observations
        self.context = context
        self.places = places
        self.geocoder = geocoder
        self.geoclue = geoclue
        self.refresher = refresher
        self.state = state
        self.store = store
        self.publisher = publisher
        self.events = events
        self.logger = context.logger.scoped("service")
    }

    // MARK: Dispatch

    /// Answers a call of `io.raind.Weather`; false for a method it does not
    /// have, which the server answers (`MethodNotFound`).
    public func handle(_ request: VarlinkRequest) -> Bool {
        guard let method = method(named: request.call.method) else { return false }
        do throws(MethodError) {
            if let connection = request.connection, connection.access < method.access {
                throw MethodError(
                    PermissionDenied(
                        message:
                            "uid \(connection.peer.uid) may read but not change this raind; only root and members of group raind may"
                    ))
            }
            try method.run(self, request)
        } catch {
            request.fail(error)
        }
        return true
    }

    // MARK: State changes

    /// Persists `newState`, then makes it current, publishes `changes` and
    /// emits `.stateChanged`. When the file cannot be written nothing
    /// changes and the caller is told.
    func commit(_ newState: PersistentState, events changes: [Event]) throws(MethodError) {
        guard newState != state else { return }
        do {
            try store.save(newState)
        } catch {
            logger.error("cannot save \(store.path): \(error)")
            throw MethodError(
                StateNotSaved(
                    path: store.path,
                    message:
                        "could not write \(store.path) (\(error.message)); nothing was changed. Check free space and permissions"
                ))
        }
        let old = state
        state = newState
        events.publish(changes)
        events.emit(.stateChanged(from: old, to: newState))
    }

    /// The saved place named by `reference` (an id or a unique name); with
    /// `selectedByDefault`, the selected place when none is named.
    func resolve(_ reference: String?, selectedByDefault: Bool = false) throws(MethodError) -> Location {
        if reference == nil, selectedByDefault {
            guard let selected = state.places.selected else {
                throw MethodError(LocationNotFound(id: "", message: PlaceWording.savedPlaceNotFound("")))
            }
            return selected
        }
        guard let reference, !reference.isEmpty else {
            throw MethodError.invalidParameter("id", "missing: give a place's id or name")
        }
        do {
            return try state.places.resolve(reference)
        } catch {
            // A name that adds a place names it everywhere: "München" finds the
            // saved Munich through the place data, as `add München` found it.
            if case .notFound = error, let saved = savedPlace(named: reference) { return saved }
            throw MethodError(error)
        }
    }

    /// The saved place the place data resolves `name` to, if one is saved.
    func savedPlace(named name: String) -> Location? {
        guard let directory = try? places.directory(), case .unique(let candidate) = directory.resolve(name) else {
            return nil
        }
        return state.places.existing(matching: candidate)
    }
}

/// Sends a call's typed reply, or its error.
struct Responder<Reply: Encodable> {
    let request: VarlinkRequest

    func reply(_ reply: Reply) { request.reply(encoding: reply) }

    func fail(_ error: MethodError) { request.fail(error) }
}
