import CSystemd
import RainSystem

/// One D-Bus connection driven by the daemon's event loop (sd_bus_attach_event).
/// Nothing here blocks the loop: matches are added with sd_bus_add_match_async,
/// calls are sent with sd_bus_call_async, and replies and signals arrive as
/// callbacks on the loop's thread.
///
/// Releasing the connection closes it without flushing (sd_bus_close_unref), so
/// a message still queued is dropped; an owner that needs a call delivered
/// keeps the connection until its reply arrives.
public final class BusConnection {
    public enum Kind: Sendable, CustomStringConvertible {
        /// The system bus: `$DBUS_SYSTEM_BUS_ADDRESS`, else /run/dbus/system_bus_socket.
        case system
        /// The user's bus: `$DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`.
        case user

        public var description: String { self == .system ? "system bus" : "user bus" }
    }

    let bus: OpaquePointer
    /// What this connection is connected to, for messages.
    public let name: String

    /// Connects to the system or user bus (sd_bus_open_system, sd_bus_open_user)
    /// and attaches it to `loop`. Connecting a Unix socket does not wait on the
    /// peer; the authentication and Hello exchange then run on the loop.
    public convenience init(_ kind: Kind, loop: EventLoop) throws(BusError) {
        var bus: OpaquePointer?
        switch kind {
        case .system:
            try checkBus(
                "sd_bus_open_system", subject: Self.addressSubject("DBUS_SYSTEM_BUS_ADDRESS"), sd_bus_open_system(&bus))
        case .user:
            try checkBus(
                "sd_bus_open_user", subject: Self.addressSubject("DBUS_SESSION_BUS_ADDRESS"), sd_bus_open_user(&bus))
        }
        // The open call succeeded, so it set the pointer.
        try Self.attach(bus!, to: loop)
        self.init(bus: bus!, name: kind.description)  // set by the successful open
    }

    /// Connects to a bus at a D-Bus address such as `unix:path=/run/x/bus`
    /// (sd_bus_new, sd_bus_set_address, sd_bus_set_bus_client, sd_bus_start).
    public convenience init(address: String, loop: EventLoop) throws(BusError) {
        var created: OpaquePointer?
        try checkBus("sd_bus_new", sd_bus_new(&created))
        let bus = created!  // set by the successful sd_bus_new
        do throws(BusError) {
            try checkBus("sd_bus_set_address", subject: address, sd_bus_set_address(bus, address))
            try checkBus("sd_bus_set_bus_client", sd_bus_set_bus_client(bus, 1))
            try checkBus("sd_bus_start", subject: address, sd_bus_start(bus))
        } catch {
            sd_bus_unref(bus)
            throw error
        }
        try Self.attach(bus, to: loop)
        self.init(bus: bus, name: address)
    }

    private init(bus: OpaquePointer, name: String) {
        self.bus = bus
        self.name = name
    }

    deinit {
        sd_bus_detach_event(bus)
        sd_bus_close_unref(bus)
    }

    /// sd_bus_attach_event; on failure the bus is released.
    private static func attach(_ bus: OpaquePointer, to loop: EventLoop) throws(BusError) {
        let result = sd_bus_attach_event(bus, loop.event, 0)
        if result < 0 {
            sd_bus_unref(bus)
            throw BusError.call("sd_bus_attach_event", result)
        }
    }

    private static func addressSubject(_ variable: String) -> String {
        ProcessEnvironment.value(of: variable).map { "(\(variable)=\($0))" } ?? ""
    }

    /// Whether the connection is still open (sd_bus_is_open).
    public var isOpen: Bool { sd_bus_is_open(bus) > 0 }

    // MARK: Signals

    /// Calls `handler` on the loop for each signal matching `match`
    /// (sd_bus_add_match_async). `installed` is told once whether the bus
    /// daemon accepted the match; until then a signal may be missed. A refused
    /// match leaves the connection open (sd-bus would close it without an
    /// install callback).
    public func subscribe(
        _ match: BusMatch,
        installed: ((BusError?) -> Void)? = nil,
        handler: @escaping (BusMessage) -> Void
    ) throws(BusError) -> BusSlot {
        let box = BusCallbackBox(handler: handler, installed: installed ?? { _ in })
        var slot: OpaquePointer?
        try checkBus(
            "sd_bus_add_match_async", subject: match.rule,
            sd_bus_add_match_async(
                bus, &slot, match.rule, BusCallbackBox.messageHandler,
                BusCallbackBox.installHandler, box.opaque))
        return BusSlot(slot: slot!, box: box)  // set by the successful call
    }

    /// Subscribes to one signal; see `subscribe(_:installed:handler:)`.
    public func subscribe(
        sender: String?, path: String?, interface: String, member: String,
        installed: ((BusError?) -> Void)? = nil,
        handler: @escaping (BusMessage) -> Void
    ) throws(BusError) -> BusSlot {
        try subscribe(
            BusMatch(sender: sender, path: path, interface: interface, member: member),
            installed: installed, handler: handler)
    }

    /// Calls `handler` once when the connection drops (the bus daemon exits,
    /// or the socket fails). sd-bus synthesizes a local signal for it.
    public func onDisconnect(_ handler: @escaping () -> Void) throws(BusError) -> BusSlot {
        try subscribe(.disconnected) { _ in handler() }
    }

    // MARK: Method calls

    /// A method call to fill with arguments (sd_bus_message_new_method_call).
    public func methodCall(
        destination: String, path: String, interface: String, member: String
    ) throws(BusError) -> BusMessage {
        var message: OpaquePointer?
        try checkBus(
            "sd_bus_message_new_method_call", subject: "\(destination) \(path) \(interface).\(member)",
            sd_bus_message_new_method_call(bus, &message, destination, path, interface, member))
        return BusMessage(taking: message!)  // set by the successful call
    }

    /// Sends `message` and calls `reply` on the loop with the reply, an error
    /// reply as `.remote`, or sd-bus's own `NoReply` after `timeout` seconds
    /// (sd_bus_call_async). Releasing the returned slot forgets the call.
    public func call(
        _ message: BusMessage, timeout: Double = 25,
        reply: @escaping (Result<BusMessage, BusError>) -> Void
    ) throws(BusError) -> BusSlot {
        let box = BusCallbackBox(handler: { answer in
            if let error = answer.error { reply(.failure(error)) } else { reply(.success(answer)) }
        })
        var slot: OpaquePointer?
        let usec = UInt64(max(0.001, timeout) * 1_000_000)
        try checkBus(
            "sd_bus_call_async", subject: message.what,
            sd_bus_call_async(bus, &slot, message.message, BusCallbackBox.messageHandler, box.opaque, usec))
        return BusSlot(slot: slot!, box: box)  // set by the successful call
    }

    /// Calls a method with `arguments`; see `call(_:timeout:reply:)`.
    public func call(
        destination: String, path: String, interface: String, member: String,
        arguments: [BusValue] = [], timeout: Double = 25,
        reply: @escaping (Result<BusMessage, BusError>) -> Void
    ) throws(BusError) -> BusSlot {
        let message = try methodCall(destination: destination, path: path, interface: interface, member: member)
        for argument in arguments { try message.append(argument) }
        return try call(message, timeout: timeout, reply: reply)
    }

    /// Calls a method and decodes its reply with `read` on the loop; a decoding
    /// error arrives as a failure like any other.
    public func call<T>(
        destination: String, path: String, interface: String, member: String,
        arguments: [BusValue] = [], timeout: Double = 25,
        read: @escaping (BusMessage) throws(BusError) -> T,
        reply: @escaping (Result<T, BusError>) -> Void
    ) throws(BusError) -> BusSlot {
        try call(
            destination: destination, path: path, interface: interface, member: member,
            arguments: arguments, timeout: timeout
        ) { result in
            switch result {
            case .failure(let error): reply(.failure(error))
            case .success(let message):
                do throws(BusError) { reply(.success(try read(message))) } catch { reply(.failure(error)) }
            }
        }
    }

    // MARK: Properties (org.freedesktop.DBus.Properties)

    static let propertiesInterface = "org.freedesktop.DBus.Properties"

    /// Reads one property (Properties.Get); the variant is unwrapped.
    public func getProperty(
        destination: String, path: String, interface: String, name: String, timeout: Double = 25,
        reply: @escaping (Result<BusValue, BusError>) -> Void
    ) throws(BusError) -> BusSlot {
        try call(
            destination: destination, path: path, interface: Self.propertiesInterface, member: "Get",
            arguments: [.string(interface), .string(name)], timeout: timeout,
            read: { message throws(BusError) in try message.readVariant().unwrapped }, reply: reply)
    }

    /// Reads all properties of an interface (Properties.GetAll, `a{sv}`).
    public func getAllProperties(
        destination: String, path: String, interface: String, timeout: Double = 25,
        reply: @escaping (Result<BusProperties, BusError>) -> Void
    ) throws(BusError) -> BusSlot {
        try call(
            destination: destination, path: path, interface: Self.propertiesInterface, member: "GetAll",
            arguments: [.string(interface)], timeout: timeout,
            read: { message throws(BusError) in try message.readProperties() }, reply: reply)
    }

    /// Sets one property (Properties.Set); `value` is wrapped in a variant here.
    public func setProperty(
        destination: String, path: String, interface: String, name: String, value: BusValue, timeout: Double = 25,
        reply: @escaping (Result<Void, BusError>) -> Void
    ) throws(BusError) -> BusSlot {
        try call(
            destination: destination, path: path, interface: Self.propertiesInterface, member: "Set",
            arguments: [.string(interface), .string(name), .variant(value)], timeout: timeout,
            read: { _ throws(BusError) in () }, reply: reply)
    }

    // MARK: The bus daemon (org.freedesktop.DBus)

    /// Whether anyone owns `name` now (NameHasOwner).
    public func nameHasOwner(
        _ name: String, timeout: Double = 25, reply: @escaping (Result<Bool, BusError>) -> Void
    ) throws(BusError) -> BusSlot {
        try call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameHasOwner", arguments: [.string(name)], timeout: timeout,
            read: { message throws(BusError) in try message.readBool() }, reply: reply)
    }

    /// A round trip to the bus daemon (Peer.Ping). Messages on one connection
    /// are handled in order, so when it answers, every match added before it
    /// is in place.
    public func ping(
        timeout: Double = 25, reply: @escaping (Result<Void, BusError>) -> Void
    ) throws(BusError) -> BusSlot {
        try call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus.Peer",
            member: "Ping", timeout: timeout, read: { _ throws(BusError) in () }, reply: reply)
    }
}
