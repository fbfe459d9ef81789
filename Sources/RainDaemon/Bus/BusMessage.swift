import CSystemd

/// One D-Bus message: a reply or a signal being read, or a method call being
/// built. Holds one reference (sd_bus_message_ref / sd_bus_message_unref).
/// Reading advances a cursor through the body, as sd-bus does, so read the
/// fields in signature order.
public final class BusMessage {
    let message: OpaquePointer

    /// Adopts a reference the caller owns (from sd_bus_message_new_*).
    init(taking message: OpaquePointer) { self.message = message }

    /// Takes a new reference to a message sd-bus lends to a callback.
    init(retaining message: OpaquePointer) {
        sd_bus_message_ref(message)
        self.message = message
    }

    deinit { sd_bus_message_unref(message) }

    // MARK: Header

    public var path: String? { sd_bus_message_get_path(message).map { String(cString: $0) } }
    public var interface: String? { sd_bus_message_get_interface(message).map { String(cString: $0) } }
    public var member: String? { sd_bus_message_get_member(message).map { String(cString: $0) } }
    public var sender: String? { sd_bus_message_get_sender(message).map { String(cString: $0) } }

    /// The body's full signature (sd_bus_message_get_signature).
    public var signature: String {
        sd_bus_message_get_signature(message, 1).map { String(cString: $0) } ?? ""
    }

    /// The error an error reply carries (sd_bus_message_is_method_error,
    /// sd_bus_message_get_error); nil for any other message.
    public var error: BusError? {
        guard sd_bus_message_is_method_error(message, nil) > 0 else { return nil }
        guard let error = sd_bus_message_get_error(message) else {
            return .remote(name: "org.freedesktop.DBus.Error.Failed", message: "")
        }
        return .remote(
            name: error.pointee.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
            message: error.pointee.message.map { String(cString: $0) } ?? "")
    }

    /// What the message is, for error messages: "interface.member" or "reply".
    var what: String {
        if let interface, let member { return "\(interface).\(member)" }
        return member ?? "reply"
    }

    // MARK: Reading

    /// The type of the next value and, for a container, the signature of its
    /// contents (sd_bus_message_peek_type); nil at the end of the current container.
    public func peekType() throws(BusError) -> (type: Unicode.Scalar, contents: String)? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let result = try checkBus(
            "sd_bus_message_peek_type", subject: what,
            sd_bus_message_peek_type(message, &type, &contents))
        guard result > 0 else { return nil }
        return (Unicode.Scalar(UInt8(bitPattern: type)), contents.map { String(cString: $0) } ?? "")
    }

    /// Checks the next value's type, so a mismatch says what was found.
    private func expect(_ type: Unicode.Scalar) throws(BusError) -> String {
        guard let next = try peekType() else {
            throw BusError.unexpectedReply(
                what: what, expected: String(type), got: "end of \(signature.isEmpty ? "message" : signature)")
        }
        guard next.type == type else {
            throw BusError.unexpectedReply(what: what, expected: String(type), got: String(next.type) + next.contents)
        }
        return next.contents
    }

    /// sd_bus_message_read_basic for fixed-size types; `T` has the C layout sd-bus writes.
    private func readFixed<T>(_ type: Unicode.Scalar, _ initial: T) throws(BusError) -> T {
        _ = try expect(type)
        var value = initial
        let result = withUnsafeMutableBytes(of: &value) {
            sd_bus_message_read_basic(message, CChar(UInt8(ascii: type)), $0.baseAddress)
        }
        try checkBus("sd_bus_message_read_basic", subject: what, result)
        return value
    }

    /// sd_bus_message_read_basic for strings, object paths and signatures; copies the text.
    private func readText(_ type: Unicode.Scalar) throws(BusError) -> String {
        _ = try expect(type)
        var text: UnsafePointer<CChar>?
        let result = sd_bus_message_read_basic(message, CChar(UInt8(ascii: type)), &text)
        try checkBus("sd_bus_message_read_basic", subject: what, result)
        return text.map { String(cString: $0) } ?? ""
    }

    /// `b` (sd-bus stores a D-Bus boolean in a C int).
    public func readBool() throws(BusError) -> Bool { try readFixed("b", Int32(0)) != 0 }
    public func readByte() throws(BusError) -> UInt8 { try readFixed("y", UInt8(0)) }
    public func readInt16() throws(BusError) -> Int16 { try readFixed("n", Int16(0)) }
    public func readUInt16() throws(BusError) -> UInt16 { try readFixed("q", UInt16(0)) }
    public func readInt32() throws(BusError) -> Int32 { try readFixed("i", Int32(0)) }
    public func readUInt32() throws(BusError) -> UInt32 { try readFixed("u", UInt32(0)) }
    public func readInt64() throws(BusError) -> Int64 { try readFixed("x", Int64(0)) }
    public func readUInt64() throws(BusError) -> UInt64 { try readFixed("t", UInt64(0)) }
    public func readDouble() throws(BusError) -> Double { try readFixed("d", Double(0)) }
    public func readString() throws(BusError) -> String { try readText("s") }
    public func readObjectPath() throws(BusError) -> String { try readText("o") }
    public func readSignature() throws(BusError) -> String { try readText("g") }

    /// Enters a container (sd_bus_message_enter_container): `type` is `a`, `v`,
    /// `r` (struct) or `e` (dict entry); `contents` is the inner signature
    /// without brackets (`{sv}` for `a{sv}`, `sv` for a dict entry).
    public func enterContainer(_ type: Unicode.Scalar, _ contents: String) throws(BusError) {
        let found = try expect(type)
        guard found == contents else {
            throw BusError.unexpectedReply(what: what, expected: String(type) + contents, got: String(type) + found)
        }
        let result = try checkBus(
            "sd_bus_message_enter_container", subject: what,
            sd_bus_message_enter_container(message, CChar(UInt8(ascii: type)), contents))
        guard result > 0 else {
            throw BusError.unexpectedReply(what: what, expected: String(type) + contents, got: "nothing")
        }
    }

    /// Leaves the container entered last (sd_bus_message_exit_container),
    /// skipping whatever was not read.
    public func exitContainer() throws(BusError) {
        try checkBus("sd_bus_message_exit_container", subject: what, sd_bus_message_exit_container(message))
    }

    /// Skips the next values of the given signature (sd_bus_message_skip).
    public func skip(_ signature: String) throws(BusError) {
        try checkBus("sd_bus_message_skip", subject: what, sd_bus_message_skip(message, signature))
    }

    /// Reads a variant (`v`) and returns the value inside it.
    public func readVariant() throws(BusError) -> BusValue {
        let contents = try expect("v")
        try enterContainer("v", contents)
        guard let value = try readValue() else {
            throw BusError.unexpectedReply(what: what, expected: contents, got: "empty variant")
        }
        try exitContainer()
        return value
    }

    /// Reads a property dictionary (`a{sv}`), variants unwrapped.
    public func readProperties() throws(BusError) -> BusProperties {
        var properties: BusProperties = [:]
        try enterContainer("a", "{sv}")
        while try peekType() != nil {
            try enterContainer("e", "sv")
            let name = try readString()
            properties[name] = try readVariant()
            try exitContainer()
        }
        try exitContainer()
        return properties
    }

    /// Reads an array of strings (`as`).
    public func readStringArray() throws(BusError) -> [String] {
        var strings: [String] = []
        try enterContainer("a", "s")
        while try peekType() != nil { strings.append(try readString()) }
        try exitContainer()
        return strings
    }

    /// Reads the next value whatever its type; nil at the end of the current container.
    /// Unix file descriptors (`h`) are not supported: raind has no use for them.
    public func readValue() throws(BusError) -> BusValue? {
        guard let (type, contents) = try peekType() else { return nil }
        switch type {
        case "y": return .byte(try readByte())
        case "b": return .bool(try readBool())
        case "n": return .int16(try readInt16())
        case "q": return .uint16(try readUInt16())
        case "i": return .int32(try readInt32())
        case "u": return .uint32(try readUInt32())
        case "x": return .int64(try readInt64())
        case "t": return .uint64(try readUInt64())
        case "d": return .double(try readDouble())
        case "s": return .string(try readString())
        case "o": return .objectPath(try readObjectPath())
        case "g": return .signature(try readSignature())
        case "v": return .variant(try readVariant())
        case "a":
            try enterContainer("a", contents)
            var items: [BusValue] = []
            while let item = try readValue() { items.append(item) }
            try exitContainer()
            return .array(element: contents, items)
        case "e":
            try enterContainer("e", contents)
            guard let key = try readValue(), let value = try readValue() else {
                throw BusError.unexpectedReply(what: what, expected: "{\(contents)}", got: "short dict entry")
            }
            try exitContainer()
            return .dictEntry(key: key, value: value)
        case "r":
            try enterContainer("r", contents)
            var fields: [BusValue] = []
            while let field = try readValue() { fields.append(field) }
            try exitContainer()
            return .structure(fields)
        default:
            throw BusError.unexpectedReply(what: what, expected: "a supported type", got: String(type))
        }
    }

    // MARK: Building

    /// Appends one value (sd_bus_message_append_basic, sd_bus_message_open_container,
    /// sd_bus_message_close_container).
    public func append(_ value: BusValue) throws(BusError) {
        switch value {
        case .byte(let v): try appendFixed("y", v)
        case .bool(let v): try appendFixed("b", Int32(v ? 1 : 0))
        case .int16(let v): try appendFixed("n", v)
        case .uint16(let v): try appendFixed("q", v)
        case .int32(let v): try appendFixed("i", v)
        case .uint32(let v): try appendFixed("u", v)
        case .int64(let v): try appendFixed("x", v)
        case .uint64(let v): try appendFixed("t", v)
        case .double(let v): try appendFixed("d", v)
        case .string(let v): try appendText("s", v)
        case .objectPath(let v): try appendText("o", v)
        case .signature(let v): try appendText("g", v)
        case .variant(let inner):
            try openContainer("v", inner.signature)
            try append(inner)
            try closeContainer()
        case .array(let element, let items):
            try openContainer("a", element)
            for item in items { try append(item) }
            try closeContainer()
        case .dictEntry(let key, let value):
            try openContainer("e", key.signature + value.signature)
            try append(key)
            try append(value)
            try closeContainer()
        case .structure(let fields):
            try openContainer("r", fields.map(\.signature).joined())
            for field in fields { try append(field) }
            try closeContainer()
        }
    }

    private func appendFixed<T>(_ type: Unicode.Scalar, _ value: T) throws(BusError) {
        var value = value
        let result = withUnsafeBytes(of: &value) {
            sd_bus_message_append_basic(message, CChar(UInt8(ascii: type)), $0.baseAddress)
        }
        try checkBus("sd_bus_message_append_basic", subject: what, result)
    }

    private func appendText(_ type: Unicode.Scalar, _ text: String) throws(BusError) {
        let result = text.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: type)), $0) }
        try checkBus("sd_bus_message_append_basic", subject: what, result)
    }

    private func openContainer(_ type: Unicode.Scalar, _ contents: String) throws(BusError) {
        try checkBus(
            "sd_bus_message_open_container", subject: what,
            sd_bus_message_open_container(message, CChar(UInt8(ascii: type)), contents))
    }

    private func closeContainer() throws(BusError) {
        try checkBus("sd_bus_message_close_container", subject: what, sd_bus_message_close_container(message))
    }
}
