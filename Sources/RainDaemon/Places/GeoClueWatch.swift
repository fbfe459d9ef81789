import RainSystem

/// Keeps a GeoClue2 client running and reports each position it sends: for
/// the place that follows the machine. GeoClue itself filters the updates
/// with the client's DistanceThreshold and TimeThreshold, so a machine that
/// stays put, or moves about a town, wakes raind rarely.
///
/// The steps, each an asynchronous call on the loop: Manager.CreateClient (a
/// client of its own, which the one-shot `GeoClueClient` cannot stop),
/// Properties.Set of DesktopId, RequestedAccuracyLevel, DistanceThreshold and
/// TimeThreshold, a match on LocationUpdated, Client.Start; then, per update,
/// Properties.GetAll of the new Location object.
final class GeoClueWatch {
    /// Metres the machine must move before GeoClue reports it: a few km, a town's scale.
    static let distanceThresholdMetres: UInt32 = 3000
    /// Seconds between reports at least.
    static let timeThresholdSeconds: UInt32 = 300
    static let callTimeout = 10.0

    private let bus: BusConnection
    private let logger: Logger
    private let onPosition: (GeoClueClient.Position) -> Void
    private let onFailure: (GeoClueError) -> Void
    private var pending: BusSlot?
    private var updates: BusSlot?
    private var clientPath: String?
    private var stopCall: BusSlot?
    private var stopped = false

    /// `onFailure` is called at most once, and the watch is then over.
    init(
        bus: BusConnection, logger: Logger, onPosition: @escaping (GeoClueClient.Position) -> Void,
        onFailure: @escaping (GeoClueError) -> Void
    ) {
        self.bus = bus
        self.logger = logger
        self.onPosition = onPosition
        self.onFailure = onFailure
    }

    deinit { stop() }

    func start() {
        step("asking for a GeoClue client") { () throws(BusError) in
            try bus.call(
                destination: GeoClueClient.busName, path: GeoClueClient.managerPath,
                interface: GeoClueClient.managerInterface, member: "CreateClient", timeout: Self.callTimeout,
                read: { message throws(BusError) in try message.readObjectPath() }
            ) { [weak self] result in
                self?.then(result, "asking for a GeoClue client") { path in self?.configure(path) }
            }
        }
    }

    /// Stops the client (best effort: GeoClue also drops a client whose connection goes).
    func stop() {
        guard !stopped else { return }
        stopped = true
        pending = nil
        updates = nil
        guard let clientPath else { return }
        stopCall = try? bus.call(
            destination: GeoClueClient.busName, path: clientPath, interface: GeoClueClient.clientInterface,
            member: "Stop", timeout: 5
        ) { _ in }
    }

    private func configure(_ path: String) {
        clientPath = path
        let settings: [(String, BusValue)] = [
            ("DesktopId", .string("raind")),
            ("RequestedAccuracyLevel", .uint32(GeoClueClient.AccuracyLevel.city.rawValue)),
            ("DistanceThreshold", .uint32(Self.distanceThresholdMetres)),
            ("TimeThreshold", .uint32(Self.timeThresholdSeconds)),
        ]
        set(settings[...], on: path)
    }

    private func set(_ settings: ArraySlice<(String, BusValue)>, on path: String) {
        guard let (name, value) = settings.first else { return subscribeAndStart(path) }
        step("setting \(name)") { () throws(BusError) in
            try bus.setProperty(
                destination: GeoClueClient.busName, path: path, interface: GeoClueClient.clientInterface,
                name: name, value: value, timeout: Self.callTimeout
            ) { [weak self] result in
                self?.then(result, "setting \(name)") { self?.set(settings.dropFirst(), on: path) }
            }
        }
    }

    private func subscribeAndStart(_ path: String) {
        do throws(BusError) {
            updates = try bus.subscribe(
                sender: GeoClueClient.busName, path: path, interface: GeoClueClient.clientInterface,
                member: "LocationUpdated"
            ) { [weak self] message in
                self?.locationUpdated(message)
            }
        } catch {
            return fail(.failed(step: "subscribing to location updates", error))
        }
        step("starting GeoClue") { () throws(BusError) in
            try bus.call(
                destination: GeoClueClient.busName, path: path, interface: GeoClueClient.clientInterface,
                member: "Start", timeout: Self.callTimeout, read: { _ throws(BusError) in () }
            ) { [weak self] result in
                self?.then(result, "starting GeoClue") {
                    self?.logger.debug("following the machine's position with GeoClue")
                }
            }
        }
    }

    private func locationUpdated(_ message: BusMessage) {
        guard
            let location = try? { () throws(BusError) -> String in
                _ = try message.readObjectPath()
                return try message.readObjectPath()
            }(), location != "/"
        else { return }
        // Updates are rare (thresholds), so one read at a time is plenty; a newer one replaces it.
        pending = try? bus.getAllProperties(
            destination: GeoClueClient.busName, path: location, interface: GeoClueClient.locationInterface,
            timeout: Self.callTimeout
        ) { [weak self] result in
            guard let self else { return }
            self.pending = nil
            guard case .success(let properties) = result, let position = GeoClueClient.Position(properties) else {
                self.logger.debug("ignored an unreadable GeoClue location \(location)")
                return
            }
            self.onPosition(position)
        }
    }

    // MARK: Steps

    private func step(_ what: String, _ send: () throws(BusError) -> BusSlot) {
        do throws(BusError) {
            pending = try send()
        } catch {
            fail(classify(error, step: what))
        }
    }

    private func then<T>(_ result: Result<T, BusError>, _ what: String, _ next: (T) -> Void) {
        pending = nil
        switch result {
        case .success(let value): next(value)
        case .failure(let error): fail(classify(error, step: what))
        }
    }

    private func classify(_ error: BusError, step: String) -> GeoClueError {
        GeoClueError(error, step: step, timeout: Self.callTimeout)
    }

    private func fail(_ error: GeoClueError) {
        guard !stopped else { return }
        stop()
        onFailure(error)
    }
}
