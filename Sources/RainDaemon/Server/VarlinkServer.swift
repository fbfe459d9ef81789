import RainCore
import RainDaemonCore
import RainSystem

/// Answers Varlink on a listening Unix socket: accepts clients, checks their
/// credentials, serves `org.varlink.service` itself and hands every other call
/// to its `handler` on the loop.
///
/// Connections are shared fairly: at most `maximumClients` in all, at most
/// `maximumClientsPerUser` for any one uid but root and raind's own (on a
/// user instance, the owner's programs are all one uid), and the last
/// `reservedClients` only for privileged peers (root, and group `raind` on
/// the system instance), so no user can lock them out. Refusals are logged
/// once per burst. When the process runs out of descriptors, accepting pauses
/// until a connection closes or a short timer fires, instead of spinning.
public final class VarlinkServer {
    /// What a peer may do.
    public enum Access: Comparable, Sendable {
        case read, change
    }

    public struct Limits: Sendable {
        public var maximumMessageSize = 64 * 1024
        public var maximumClients = 256
        /// Connections one uid may hold; root and raind's own uid are bound by `maximumClients` only.
        public var maximumClientsPerUser = 16
        /// Bytes a client may leave unread: past it raind stops reading its
        /// calls until it catches up, and a subscriber is dropped as too slow.
        public var maximumQueuedBytes = 256 * 1024
        /// Seconds a connection may sit with no call in flight and no subscription.
        public var idleTimeout: Double = 60
        /// Seconds a client may stay `maximumQueuedBytes` behind before it is disconnected.
        public var slowClientTimeout: Double = 30
        /// Seconds before accepting is tried again after running out of descriptors.
        public var acceptRetryDelay: Double = 0.5
        /// Connections kept for privileged peers: an eighth of the total.
        public var reservedClients: Int { maximumClients / 8 }
        public init() {}
    }

    /// What an admitted peer may do, and whether it may use the reserve.
    public struct Admission: Sendable {
        public var access: Access
        public var isPrivileged: Bool
        public init(access: Access, isPrivileged: Bool) {
            self.access = access
            self.isPrivileged = isPrivileged
        }
    }

    /// Identity served by `org.varlink.service.GetInfo`.
    public struct Info: Sendable {
        public var vendor = "raind"
        public var product = "raind"
        public var version: String
        public var url = "https://github.com/raind/raind"
        public var interfaces: [String: String]
        public init(version: String, interfaces: [String: String]) {
            self.version = version
            self.interfaces = interfaces
        }
    }

    let loop: EventLoop
    public let limits: Limits
    private let listener: FileDescriptor
    private var listenerSource: EventSource?
    /// The clients' sockets, all behind one source of the loop (`IOGroup`); made by `start()`.
    private var clients: IOGroup?
    private let info: Info
    /// The interfaces the handler answers (`info.interfaces`), sorted as GetInfo lists them.
    private let interfaceNames: [String]
    private let logger: Logger
    /// Decides what a peer may do.
    private let policy: AccessPolicy
    /// Answers the calls to the interfaces of `info`; held weakly, the daemon owns it.
    private weak var handler: (any VarlinkRequestHandler)?

    public private(set) var connections: [Int: VarlinkConnection] = [:]
    private var nextConnectionID = 1
    private var connectionsPerUID: [UInt32: Int] = [:]
    /// raind's own uid: the owner of a user instance is not limited per uid.
    private let ownUID = ProcessIdentity.userID

    /// One read buffer for every connection: the loop reads one at a time.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    /// Set while accepting is paused for lack of descriptors.
    private var acceptRetryTimer: EventSource?
    private var acceptPaused = false
    /// Set from the first EMFILE of a shortage until a client is accepted again, so it is logged once.
    private var outOfDescriptors = false
    /// Refusals since the last one logged; the next line reports them.
    private var refusalsNotLogged = 0
    private var refusalTimer: EventSource?
    private var refusalBurst = false
    /// A burst of refusals is reported once per this many seconds.
    static let refusalLogInterval: Double = 10

    public init(
        loop: EventLoop, listener: FileDescriptor, limits: Limits, info: Info, logger: Logger, policy: AccessPolicy,
        handler: any VarlinkRequestHandler
    ) {
        self.loop = loop
        self.listener = listener
        self.limits = limits
        self.info = info
        interfaceNames = info.interfaces.keys.sorted()
        self.logger = logger
        self.policy = policy
        self.handler = handler
    }

    deinit { readBuffer.deallocate() }

    public func start() throws(SystemError) {
        clients = try IOGroup(loop: loop, name: "varlink clients")
        listenerSource = try loop.watch(fd: listener.rawValue, events: .readable, name: "varlink listener") {
            [weak self] _ in
            self?.acceptAll()
        }
        acceptRetryTimer = try loop.timer(accuracy: 0.1, name: "varlink accept retry") { [weak self] in
            self?.resumeAccepting()
        }
        refusalTimer = try loop.timer(accuracy: 1, name: "varlink refusal log") { [weak self] in
            self?.endRefusalBurst()
        }
    }

    /// Stops accepting and closes every client. The listening descriptor is
    /// closed by its owner; an activated socket's file is left in place.
    public func stop() {
        listenerSource = nil
        acceptRetryTimer = nil
        for connection in Array(connections.values) { connection.close() }
        clients = nil
    }

    private func acceptAll() {
        while true {
            let accepted: FileDescriptor?
            do {
                accepted = try UnixSocket.accept(listener)
            } catch
                where [.tooManyOpenFiles, .tooManyOpenFilesInSystem, .noBufferSpace, .noMemory].contains(error.errno)
            {
                pauseAccepting(error)
                return
            } catch {
                logger.warning("accepting a client failed: \(error)")
                return
            }
            guard let fd = accepted else { return }
            if outOfDescriptors {
                outOfDescriptors = false
                logger.notice("accepting clients again")
            }
            admit(fd)
        }
    }

    /// Out of descriptors: the pending client stays in the backlog, and
    /// retrying at once would spin. Stop watching the listener until a
    /// connection closes or the retry timer fires.
    private func pauseAccepting(_ error: SystemError) {
        guard !acceptPaused else { return }
        acceptPaused = true
        listenerSource?.setEnabled(false)
        acceptRetryTimer?.arm(after: limits.acceptRetryDelay)
        guard !outOfDescriptors else { return }
        outOfDescriptors = true
        logger.warning(
            "cannot accept clients: \(error); \(connections.count) connected. Waiting for one to leave (raise LimitNOFILE= or lower [Socket] MaxClients=)"
        )
    }

    private func resumeAccepting() {
        guard acceptPaused else { return }
        acceptPaused = false
        acceptRetryTimer?.disarm()
        listenerSource?.setEnabled(true)
    }

    private func admit(_ fd: FileDescriptor) {
        let peer: PeerCredentials
        do {
            peer = try UnixSocket.peerCredentials(fd)
        } catch {
            logger.warning("cannot read a client's credentials (\(error)); turned away")
            return
        }
        guard let admission = policy.admission(for: peer) else {
            noteRefusal("client pid \(peer.pid) uid \(peer.uid) turned away: not allowed on this socket")
            refuse(
                fd,
                MethodError(
                    PermissionDenied(
                        message:
                            "uid \(peer.uid) may not use this raind; use your own user instance (systemctl --user start raind)"
                    )))
            return
        }
        let openToAll = limits.maximumClients - limits.reservedClients
        if connections.count >= limits.maximumClients || (!admission.isPrivileged && connections.count >= openToAll) {
            noteRefusal(
                "client pid \(peer.pid) uid \(peer.uid) turned away: \(connections.count) clients connected ([Socket] MaxClients=\(limits.maximumClients), \(limits.reservedClients) kept for root and group raind)"
            )
            refuse(fd, .tooManyClients("too many clients (\(connections.count)); try again later"))
            return
        }
        let held = connectionsPerUID[peer.uid, default: 0]
        if peer.uid != 0 && peer.uid != ownUID && held >= limits.maximumClientsPerUser {
            noteRefusal(
                "client pid \(peer.pid) uid \(peer.uid) turned away: uid \(peer.uid) holds \(held) connections ([Socket] MaxClientsPerUser=)"
            )
            refuse(fd, .tooManyClients("too many clients for uid \(peer.uid) (\(held)); close some and try again"))
            return
        }
        // Accepting starts with `start()`, which makes the group.
        guard let clients else { return }
        let id = nextConnectionID
        nextConnectionID += 1
        do {
            connections[id] = try VarlinkConnection(
                id: id, fd: fd, peer: peer, access: admission.access, isPrivileged: admission.isPrivileged,
                server: self, clients: clients, loop: loop, logger: logger)
            connectionsPerUID[peer.uid] = held + 1
        } catch {
            logger.warning("cannot watch client pid \(peer.pid): \(error)")
        }
    }

    /// Logs the first refusal of a burst; later ones are counted and reported
    /// in one line when the burst is over, so a flood cannot flood the journal.
    private func noteRefusal(_ message: String) {
        if refusalBurst {
            refusalsNotLogged += 1
            return
        }
        refusalBurst = true
        logger.warning(
            message + " (more refusals in the next \(Int(Self.refusalLogInterval)) s are counted in one line)")
        refusalTimer?.arm(after: Self.refusalLogInterval)
    }

    private func endRefusalBurst() {
        refusalBurst = false
        guard refusalsNotLogged > 0 else { return }
        logger.warning("\(refusalsNotLogged) more clients turned away in the last \(Int(Self.refusalLogInterval)) s")
        refusalsNotLogged = 0
    }

    /// Answers a turned-away client once, best effort, and closes.
    private func refuse(_ fd: FileDescriptor, _ error: MethodError) {
        var bytes: [UInt8] = []
        error.frame(into: &bytes)
        _ = try? fd.write(bytes[...])
        fd.close()
    }

    func connectionClosed(_ connection: VarlinkConnection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        let held = connectionsPerUID[connection.peer.uid, default: 1] - 1
        connectionsPerUID[connection.peer.uid] = held > 0 ? held : nil
        // A descriptor was freed: a client waiting in the backlog may come in now.
        resumeAccepting()
    }

    /// Routes a call by its interface: `org.varlink.service` is served
    /// here, the interfaces of `info` by the handler. Every call to a method
    /// or an interface raind does not have is answered here, and only here.
    func dispatch(_ request: VarlinkRequest) {
        // The handler first: it answers only methods of its own interfaces,
        // so the common call is found with its one lookup, and what it does
        // not have is routed here as before.
        if let handler, handler.handle(request) { return }
        let call = request.call
        let interface = call.interface
        if interface.utf8.elementsEqual(VarlinkServiceInterface.name.utf8) {
            if let method = VarlinkServiceMethod(qualifiedName: call.method) {
                serve(method, request)
                return
            }
        } else if !interfaceNames.contains(where: { interface.utf8.elementsEqual($0.utf8) }) {
            request.fail(.interfaceNotFound(String(interface)))
            return
        }
        request.fail(.methodNotFound(call.method))
    }

    /// Answers a method of `org.varlink.service`, its parameters read as declared.
    private func serve(_ method: VarlinkServiceMethod, _ request: VarlinkRequest) {
        do throws(MethodError) {
            switch method {
            case .getInfo:
                _ = try Self.parameters(GetInfoCall.self, of: request)
                request.reply(
                    encoding: GetInfoCall.Reply(
                        vendor: info.vendor, product: info.product, version: info.version, url: info.url,
                        interfaces: [VarlinkServiceInterface.name] + interfaceNames))
            case .getInterfaceDescription:
                let name = try Self.parameters(GetInterfaceDescriptionCall.self, of: request).interface
                let description =
                    name == VarlinkServiceInterface.name ? VarlinkServiceInterface.description : info.interfaces[name]
                guard let description else { throw MethodError.interfaceNotFound(name) }
                request.reply(encoding: GetInterfaceDescriptionCall.Reply(description: description))
            }
        } catch {
            request.fail(error)
        }
    }

    private static func parameters<Call: VarlinkServiceCall>(
        _ call: Call.Type, of request: VarlinkRequest
    ) throws(MethodError) -> Call.Parameters {
        do {
            return try WireDecoder.decode(
                Call.Parameters.self, from: .object(request.call.parameters), refusingUnknownFields: true)
        } catch {
            throw MethodError.invalid(error)
        }
    }
}
