import RainSystem

/// Asks GeoClue2, on the system bus, where this machine is: at city accuracy
/// (the analogue of the app's kilometre accuracy), as desktop id "raind".
///
/// One request runs at a time; asking again while one runs joins it. The steps
/// are the ones GeoClue prescribes, each an asynchronous call on the loop:
/// Manager.GetClient, Properties.Set of DesktopId and RequestedAccuracyLevel,
/// a match on the client's LocationUpdated signal, Client.Start; then
/// Properties.GetAll of the new Location object (Latitude, Longitude,
/// Accuracy), and Client.Stop. One deadline bounds the whole exchange.
public final class GeoClueClient {
    /// A position as GeoClue reports it.
    public struct Position: Equatable, Sendable {
        public var latitude: Double
        public var longitude: Double
        /// Radius of the likely area, in metres.
        public var accuracy: Double

        public init(latitude: Double, longitude: Double, accuracy: Double) {
            self.latitude = latitude
            self.longitude = longitude
            self.accuracy = accuracy
        }

        /// The position in a Location object's properties; nil without
        /// Latitude and Longitude in range. No Accuracy: unknown (infinite).
        init?(_ properties: BusProperties) {
            guard let latitude = properties["Latitude"]?.doubleValue,
                let longitude = properties["Longitude"]?.doubleValue,
                (-90...90).contains(latitude), (-180...180).contains(longitude)
            else { return nil }
            self.init(
                latitude: latitude, longitude: longitude, accuracy: properties["Accuracy"]?.doubleValue ?? .infinity)
        }
    }

    /// GClueAccuracyLevel.
    public enum AccuracyLevel: UInt32, Sendable {
        case country = 1, city = 4, neighborhood = 5, street = 6, exact = 8
    }

    static let busName = "org.freedesktop.GeoClue2"
    static let managerPath = "/org/freedesktop/GeoClue2/Manager"
    static let managerInterface = "org.freedesktop.GeoClue2.Manager"
    static let clientInterface = "org.freedesktop.GeoClue2.Client"
    static let locationInterface = "org.freedesktop.GeoClue2.Location"

    private let loop: EventLoop
    private var bus: BusConnection?
    /// The connection was opened here, so it may be replaced when it drops.
    private var ownsBus = false
    private let desktopId: String
    private let accuracy: AccuracyLevel
    private let timeout: Double
    private let logger: Logger

    private var completions: [(Result<Position, GeoClueError>) -> Void] = []
    private var deadline: EventSource?
    private var deadlineTime = 0.0
    private var pending: BusSlot?
    private var locationUpdated: BusSlot?
    private var clientPath: String?
    /// Start was sent: Stop is owed, whatever became of the reply.
    private var started = false
    /// Kept until GeoClue answers, so the Stop call is not forgotten.
    private var stopCall: BusSlot?

    /// - Parameters:
    ///   - bus: the system bus to use; nil opens one when first asked.
    ///   - timeout: seconds the whole exchange may take.
    public init(
        loop: EventLoop, bus: BusConnection? = nil, desktopId: String = "raind",
        accuracy: AccuracyLevel = .city, timeout: Double = 10, logger: Logger
    ) {
        self.loop = loop
        self.bus = bus
        self.desktopId = desktopId
        self.accuracy = accuracy
        self.timeout = timeout
        self.logger = logger
    }

    /// Whether a request is under way.
    public var isLocating: Bool { !completions.isEmpty }

    /// Asks for the position; `completion` is called once, on the loop, never
    /// from within this call.
    public func locate(completion: @escaping (Result<Position, GeoClueError>) -> Void) {
        completions.append(completion)
        guard completions.count == 1 else { return }
        let connection: BusConnection
        if let bus, bus.isOpen || !ownsBus {
            connection = bus
        } else {
            // Not given one, or ours dropped (the bus daemon restarted): connect afresh.
            do throws(BusError) {
                connection = try BusConnection(.system, loop: loop)
                bus = connection
                ownsBus = true
            } catch {
                loop.later { [weak self] in self?.finish(.failure(.noBus(error))) }
                return
            }
        }
        do throws(SystemError) {
            deadline = try loop.timer(accuracy: 0.1) { [weak self] in
                guard let self else { return }
                self.finish(.failure(.timedOut(seconds: self.timeout)))
            }
        } catch {
            loop.later { [weak self] in self?.finish(.failure(.failed(step: "arming its timer", .system(error)))) }
            return
        }
        deadlineTime = loop.monotonicNow + timeout
        deadline?.arm(at: deadlineTime)
        step("asking for a GeoClue client") { () throws(BusError) in
            try connection.call(
                destination: Self.busName, path: Self.managerPath, interface: Self.managerInterface,
                member: "GetClient", timeout: remaining,
                read: { message throws(BusError) in try message.readObjectPath() }
            ) { [weak self] result in
                self?.then(result, "asking for a GeoClue client") { path in
                    self?.configure(client: path, on: connection)
                }
            }
        }
    }

    /// Abandons the request under way without calling its completions: the
    /// asker no longer wants an answer.
    public func cancel() {
        completions.removeAll()
        tearDown()
    }

    // MARK: Steps

    private var remaining: Double { max(0.05, deadlineTime - loop.monotonicNow) }

    /// Sends one call; a failure to send it ends the request (on the next
    /// loop iteration, so `locate` never completes from within itself).
    private func step(_ what: String, _ send: () throws(BusError) -> BusSlot) {
        do throws(BusError) {
            pending = try send()
        } catch {
            let failure = classify(error, step: what)
            loop.later { [weak self] in self?.finish(.failure(failure)) }
        }
    }

    /// Continues with the reply's value, or ends the request with its error.
    private func then<T>(_ result: Result<T, BusError>, _ what: String, _ next: (T) -> Void) {
        pending = nil
        switch result {
        case .success(let value): next(value)
        case .failure(let error): finish(.failure(classify(error, step: what)))
        }
    }

    private func classify(_ error: BusError, step: String) -> GeoClueError {
        GeoClueError(error, step: step, timeout: timeout)
    }

    private func configure(client path: String, on connection: BusConnection) {
        clientPath = path
        step("setting the desktop id") { () throws(BusError) in
            try connection.setProperty(
                destination: Self.busName, path: path, interface: Self.clientInterface,
                name: "DesktopId", value: .string(desktopId), timeout: remaining
            ) { [weak self] result in
                self?.then(result, "setting the desktop id") { self?.setAccuracy(client: path, on: connection) }
            }
        }
    }

    private func setAccuracy(client path: String, on connection: BusConnection) {
        step("setting the accuracy") { () throws(BusError) in
            try connection.setProperty(
                destination: Self.busName, path: path, interface: Self.clientInterface,
                name: "RequestedAccuracyLevel", value: .uint32(accuracy.rawValue), timeout: remaining
            ) { [weak self] result in
                self?.then(result, "setting the accuracy") { self?.start(client: path, on: connection) }
            }
        }
    }

    private func start(client path: String, on connection: BusConnection) {
        // The match goes out before Start on the same connection, so the bus
        // has it in place before GeoClue can send the first update.
        do throws(BusError) {
            locationUpdated = try connection.subscribe(
                sender: Self.busName, path: path, interface: Self.clientInterface, member: "LocationUpdated",
                installed: { [weak self] error in
                    guard let error else { return }
                    self?.finish(.failure(.failed(step: "subscribing to location updates", error)))
                }
            ) { [weak self] message in
                self?.locationUpdated(message, on: connection)
            }
        } catch {
            return finish(.failure(.failed(step: "subscribing to location updates", error)))
        }
        started = true
        step("starting GeoClue") { () throws(BusError) in
            try connection.call(
                destination: Self.busName, path: path, interface: Self.clientInterface, member: "Start",
                timeout: remaining, read: { _ throws(BusError) in () }
            ) { [weak self] result in
                self?.then(result, "starting GeoClue") {}
            }
        }
    }

    private func locationUpdated(_ message: BusMessage, on connection: BusConnection) {
        let location: String
        do throws(BusError) {
            _ = try message.readObjectPath()
            location = try message.readObjectPath()
        } catch {
            return finish(.failure(.failed(step: "reading a location update", error)))
        }
        guard location != "/" else { return }
        locationUpdated = nil
        step("reading the location") { () throws(BusError) in
            try connection.getAllProperties(
                destination: Self.busName, path: location, interface: Self.locationInterface, timeout: remaining
            ) { [weak self] result in
                self?.then(result, "reading the location") { properties in self?.read(properties, at: location) }
            }
        }
    }

    private func read(_ properties: BusProperties, at path: String) {
        guard let position = Position(properties) else {
            let got = properties.keys.sorted().joined(separator: ", ")
            return finish(
                .failure(
                    .failed(
                        step: "reading the location",
                        .unexpectedReply(
                            what: path, expected: "Latitude and Longitude in range", got: got.isEmpty ? "nothing" : got)
                    )))
        }
        finish(.success(position))
    }

    // MARK: Ending

    private func finish(_ result: Result<Position, GeoClueError>) {
        guard !completions.isEmpty else { return }
        let waiting = completions
        completions.removeAll()
        tearDown()
        switch result {
        case .success(let position):
            logger.info(
                position.accuracy.isFinite
                    ? "GeoClue: position known to about \(Int(position.accuracy)) m"
                    : "GeoClue: position known, accuracy not given")
        case .failure(let error):
            logger.warning(error.description)
        }
        for completion in waiting { completion(result) }
    }

    private func tearDown() {
        deadline = nil
        pending = nil
        locationUpdated = nil
        if started, let clientPath, let bus {
            // Best effort: GeoClue also stops a client whose connection goes away.
            stopCall = try? bus.call(
                destination: Self.busName, path: clientPath, interface: Self.clientInterface, member: "Stop", timeout: 5
            ) { [weak self] _ in self?.stopCall = nil }
        }
        started = false
        clientPath = nil
    }
}
