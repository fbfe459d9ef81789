import Glibc
import RainCore

/// Answers Varlink on a listening Unix socket: accepts clients (up to a
/// limit), checks their credentials, serves `org.varlink.service` itself and
/// hands every other call to its `handler` on the loop.
public final class VarlinkServer {
    /// What a peer may do.
    public enum Access: Comparable, Sendable {
        case read, change
    }

    public struct Limits: Sendable {
        public var maximumMessageSize = 64 * 1024
        public var maximumClients = 64
        /// Bytes a client may leave unread before it is dropped as too slow.
        public var maximumQueuedBytes = 1024 * 1024
        public init() {}
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
    private let info: Info
    private let logger: Logger
    /// Decides what a peer may do; nil turns it away.
    private let authorize: (PeerCredentials) -> Access?
    /// Receives every call to an interface other than org.varlink.service.
    public var handler: ((VarlinkRequest) -> Void)?

    public private(set) var connections: [Int: VarlinkConnection] = [:]
    private var nextConnectionID = 1

    public init(
        loop: EventLoop, listener: FileDescriptor, limits: Limits, info: Info, logger: Logger,
        authorize: @escaping (PeerCredentials) -> Access?
    ) {
        self.loop = loop
        self.listener = listener
        self.limits = limits
        self.info = info
        self.logger = logger
        self.authorize = authorize
    }

    public func start() throws(SystemError) {
        listenerSource = try loop.watch(fd: listener.rawValue, events: .readable) { [weak self] _ in
            self?.acceptAll()
        }
    }

    /// Stops accepting and closes every client. The listening descriptor is
    /// closed by its owner; an activated socket's file is left in place.
    public func stop() {
        listenerSource = nil
        for connection in Array(connections.values) { connection.close() }
    }

    private func acceptAll() {
        while true {
            let accepted: FileDescriptor?
            do {
                accepted = try UnixSocket.accept(listener)
            } catch {
                logger.warning("accepting a client failed: \(error)")
                return
            }
            guard let fd = accepted else { return }
            admit(fd)
        }
    }

    private func admit(_ fd: FileDescriptor) {
        let peer: PeerCredentials
        do {
            peer = try UnixSocket.peerCredentials(fd)
        } catch {
            logger.warning("cannot read a client's credentials (\(error)); turned away")
            return
        }
        guard connections.count < limits.maximumClients else {
            logger.warning("client pid \(peer.pid) turned away: \(limits.maximumClients) clients already connected ([Socket] MaxClients=)")
            refuse(fd, error: VarlinkServiceError.permissionDenied.qualifiedName,
                   reason: "too many clients (\(limits.maximumClients)); try again later")
            return
        }
        guard let access = authorize(peer) else {
            logger.notice("client pid \(peer.pid) uid \(peer.uid) turned away: not allowed on this socket")
            refuse(fd, error: WeatherErrorName.permissionDenied.qualifiedName,
                   reason: "uid \(peer.uid) may not use this raind; use your own user instance (systemctl --user start raind)")
            return
        }
        let id = nextConnectionID
        nextConnectionID += 1
        do {
            connections[id] = try VarlinkConnection(
                id: id, fd: fd, peer: peer, access: access, server: self, loop: loop, logger: logger)
        } catch {
            logger.warning("cannot watch client pid \(peer.pid): \(error)")
        }
    }

    /// Answers a turned-away client once, best effort, and closes.
    private func refuse(_ fd: FileDescriptor, error: String, reason: String) {
        let bytes = VarlinkFramer.frame(VarlinkReply.failure(error, .object(["message": .string(reason)])).json)
        _ = try? fd.write(bytes[...])
        fd.close()
    }

    func connectionClosed(_ connection: VarlinkConnection) {
        connections[connection.id] = nil
    }

    func dispatch(_ request: VarlinkRequest) {
        let method = request.call.method
        if method.hasPrefix("org.varlink.service.") {
            serveIntrospection(request)
            return
        }
        guard let handler else {
            request.fail(VarlinkServiceError.methodNotFound.qualifiedName, .object(["method": .string(method)]))
            return
        }
        handler(request)
    }

    private func serveIntrospection(_ request: VarlinkRequest) {
        switch request.call.method {
        case "org.varlink.service.GetInfo":
            request.reply(.object([
                "vendor": .string(info.vendor),
                "product": .string(info.product),
                "version": .string(info.version),
                "url": .string(info.url),
                "interfaces": .array((["org.varlink.service"] + info.interfaces.keys.sorted()).map(JSON.string)),
            ]))
        case "org.varlink.service.GetInterfaceDescription":
            let name = request.call.parameters["interface"]?.stringValue ?? ""
            if name == "org.varlink.service" {
                request.reply(.object(["description": .string(VarlinkServer.serviceInterface)]))
            } else if let description = info.interfaces[name] {
                request.reply(.object(["description": .string(description)]))
            } else {
                request.fail(VarlinkServiceError.interfaceNotFound.qualifiedName, .object(["interface": .string(name)]))
            }
        default:
            request.fail(VarlinkServiceError.methodNotFound.qualifiedName, .object(["method": .string(request.call.method)]))
        }
    }

    /// The standard interface text, from the Varlink specification.
    static let serviceInterface = """
        # The Varlink Service Interface is provided by every varlink service. It
        # describes the service and the interfaces it implements.
        interface org.varlink.service

        # Get a list of all the interfaces a service provides and information
        # about the implementation.
        method GetInfo() -> (
          vendor: string,
          product: string,
          version: string,
          url: string,
          interfaces: []string
        )

        # Get the description of an interface that is implemented by this service.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The requested interface was not found.
        error InterfaceNotFound (interface: string)

        # The requested method was not found
        error MethodNotFound (method: string)

        # The interface defines the requested method, but the service does not
        # implement it.
        error MethodNotImplemented (method: string)

        # One of the passed parameters is invalid.
        error InvalidParameter (parameter: string)

        # Client is denied access
        error PermissionDenied ()

        # Method is expected to be called with 'more' set to true, but wasn't
        error ExpectedMore ()

        """
}
