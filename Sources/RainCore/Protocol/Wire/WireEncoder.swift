/// Turns a wire type into JSON through `Encodable`, so a field's wire name
/// is its Swift property name, written once. An optional that is nil is
/// written as `null` (the protocol reads null and absent alike, and clients
/// that index a reply directly find every declared field).
///
/// The text is written straight into a byte buffer as the value encodes
/// itself (no intermediate JSON value): a reply goes from the Swift value
/// to the connection's output buffer in one pass.
public enum WireEncoder {
    /// Appends the value's compact JSON text to `bytes`.
    public static func encode<T: Encodable>(_ value: T, into bytes: inout [UInt8]) {
        let encoder = ByteEncoder()
        // The buffer moves into the encoder and back, never copied.
        swap(&encoder.state.pointee.out, &bytes)
        defer { swap(&encoder.state.pointee.out, &bytes) }
        encoder.encodeValue(value)
    }

    /// Appends a number's JSON text, as the generic `encode` writes it, without
    /// setting up an encoder: through `Encodable`, the two numbers written into
    /// the cached GetStatus reply on every call took a quarter of the call's time.
    public static func encode(_ value: Double, into bytes: inout [UInt8]) {
        JSON.append(number: value, to: &bytes)
    }

    /// Appends an integer's JSON text, as the generic `encode` writes it, without an encoder.
    public static func encode(_ value: Int, into bytes: inout [UInt8]) {
        JSON.append(integer: Int64(value), to: &bytes)
    }

    /// The value's compact JSON text.
    public static func bytes<T: Encodable>(_ value: T) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(value, into: &bytes)
        return bytes
    }

    /// The value's JSON value (for code that inspects or merges it; the
    /// socket gets the bytes).
    public static func encode<T: Encodable>(_ value: T) -> JSON {
        let bytes = bytes(value)
        do {
            return try JSON(parsing: bytes)
        } catch {
            preconditionFailure("WireEncoder wrote invalid JSON for \(T.self): \(error)")
        }
    }
}

/// A wire type whose nil fields are left out instead of written as null:
/// one where most fields are absent in any one value (a Subscribe reply, a
/// place's source).
public protocol WireSparse {}

/// Writes JSON text as `encode(to:)` calls arrive. Codable never says when
/// a container is finished, so the open containers are kept on a stack and
/// closed when their value's `encode(to:)` returns or when a container
/// further out writes its next member (wire types fill their containers in
/// order, as synthesized conformances do).
private final class ByteEncoder: Encoder {
    struct Frame {
        let isObject: Bool
        let omitsNil: Bool
        var count = 0
    }

    struct State {
        var out: [UInt8] = []
        var frames: [Frame] = []
        /// Stack depth where the value being encoded began: its own container, if it asked for one, is `frames[valueBase]`.
        var valueBase = 0
        /// The type of the value being encoded, asked whether it leaves nil
        /// fields out only if it opens an object (most values are scalars).
        var valueType: Any.Type = Never.self
    }

    /// The mutable state sits behind a pointer rather than in stored
    /// properties: every write to a class's stored property goes through a
    /// run-time exclusivity check, which cost a fifth of a reply's time.
    /// Only this class and its containers touch it, one call at a time, on the loop.
    let state: UnsafeMutablePointer<State>

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State())
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Writes one value: its own container is closed when it returns, and a
    /// value that wrote nothing is null.
    func encodeValue<T: Encodable>(_ value: T) {
        let base = state.pointee.frames.count
        let outerBase = state.pointee.valueBase
        let outerType = state.pointee.valueType
        state.pointee.valueBase = base
        state.pointee.valueType = T.self
        let start = state.pointee.out.count
        // Encoding into bytes cannot fail: every Swift value has a JSON form
        // here (a non-finite number becomes null).
        do {
            try value.encode(to: self)
        } catch {
            preconditionFailure("encoding \(T.self) threw \(error); wire types must not throw while encoding")
        }
        close(downTo: base)
        if state.pointee.out.count == start { append("null") }
        state.pointee.valueBase = outerBase
        state.pointee.valueType = outerType
    }

    /// Closes the containers above `depth`.
    func close(downTo depth: Int) {
        while state.pointee.frames.count > depth {
            let frame = state.pointee.frames.removeLast()
            state.pointee.out.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }

    /// Opens the value's own container, or gives back the one it already opened.
    func open(object: Bool) -> Int {
        let base = state.pointee.valueBase
        if state.pointee.frames.count > base, state.pointee.frames[base].isObject == object {
            close(downTo: base + 1)
            return base
        }
        close(downTo: base)
        return openNested(object: object, omitsNil: object && state.pointee.valueType is any WireSparse.Type)
    }

    /// Opens a container where the output stands (a member already keyed or separated).
    func openNested(object: Bool, omitsNil: Bool = false) -> Int {
        state.pointee.out.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        state.pointee.frames.append(Frame(isObject: object, omitsNil: omitsNil))
        return state.pointee.frames.count - 1
    }

    /// Starts the next member of the frame at `index`: closes what the
    /// previous member left open and writes the separator.
    func nextMember(of index: Int) {
        if state.pointee.frames.count > index + 1 { close(downTo: index + 1) }
        if state.pointee.frames[index].count > 0 { state.pointee.out.append(UInt8(ascii: ",")) }
        state.pointee.frames[index].count += 1
    }

    func omitsNil(_ index: Int) -> Bool { state.pointee.frames[index].omitsNil }

    func count(_ index: Int) -> Int { state.pointee.frames[index].count }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ObjectContainer<Key>(encoder: self, frame: open(object: true)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        ArrayContainer(encoder: self, frame: open(object: false))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }

    // MARK: Scalars

    func append(_ text: StaticString) {
        text.withUTF8Buffer { state.pointee.out.append(contentsOf: $0) }
    }

    func append(_ byte: UInt8) { state.pointee.out.append(byte) }

    func write(_ value: Bool) { append(value ? "true" : "false") }

    func write(_ value: String) { JSON.write(string: value, to: &state.pointee.out) }

    func write(_ value: Double) { JSON.append(number: value, to: &state.pointee.out) }

    func write<I: BinaryInteger>(integer value: I) {
        if let small = Int64(exactly: value) {
            JSON.append(integer: small, to: &state.pointee.out)
        } else {
            state.pointee.out.append(contentsOf: String(value).utf8)
        }
    }
}

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ByteEncoder
    let frame: Int
    var codingPath: [any CodingKey] { [] }

    private func key(_ key: Key) {
        encoder.nextMember(of: frame)
        encoder.write(key.stringValue)
        encoder.append(UInt8(ascii: ":"))
    }

    mutating func encodeNil(forKey key: Key) {
        self.key(key)
        encoder.append("null")
    }

    /// A nil optional: null, or nothing for a sparse type.
    private func absent(_ key: Key) {
        guard !encoder.omitsNil(frame) else { return }
        self.key(key)
        encoder.append("null")
    }

    mutating func encode(_ value: Bool, forKey key: Key) { self.key(key); encoder.write(value) }
    mutating func encode(_ value: String, forKey key: Key) { self.key(key); encoder.write(value) }
    mutating func encode(_ value: Double, forKey key: Key) { self.key(key); encoder.write(value) }
    mutating func encode(_ value: Float, forKey key: Key) { self.key(key); encoder.write(Double(value)) }
    mutating func encode(_ value: Int, forKey key: Key) { self.key(key); encoder.write(integer: value) }
    mutating func encode(_ value: Int8, forKey key: Key) { self.key(key); encoder.write(integer: value) }
    mutating func encode(_ value: Int16, forKey key: Key) { self.key(key); encoder.write(integer: value) }
    mutating func encode(_ value: Int32, forKey key: Key) { self.key(key); encoder.write(integer: value) }
    mutating func encode(_ value: Int64, forKey key: Key) { self.key(key); encoder.write(integer: value) }
    mutating func encode(_ value: UInt, forKey key: Key) { self.key(key); encoder.write(integer: value) }
    mutating func encode(_ value: UInt8, forKey key: Key) { self.key(key); encoder.write(integer: value) }
    mutating func encode(_ value: UInt16, forKey key: Key) { self.key(key); encoder.write(integer: value) }
    mutating func encode(_ value: UInt32, forKey key: Key) { self.key(key); encoder.write(integer: value) }
    mutating func encode(_ value: UInt64, forKey key: Key) { self.key(key); encoder.write(integer: value) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {
        self.key(key)
        encoder.encodeValue(value)
    }

    // Synthesized conformances call these for optionals: nil is written as
    // null, or left out for a sparse type (the protocol's defaults would always leave it out).
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) {
        if let value { encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) {
        if let value { encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) {
        if let value { encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) {
        if let value { encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) {
        if let value { encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) {
        if let value { encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) {
        if let value { encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) {
        if let value { encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) {
        if let value { encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) {
        if let value { encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) {
        if let value { encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) {
        if let value { encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) {
        if let value { encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) {
        if let value { encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) {
        if let value { encode(value, forKey: key) } else { absent(key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        self.key(key)
        return KeyedEncodingContainer(
            ObjectContainer<NestedKey>(encoder: encoder, frame: encoder.openNested(object: true)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        self.key(key)
        return ArrayContainer(encoder: encoder, frame: encoder.openNested(object: false))
    }

    mutating func superEncoder() -> any Encoder { preconditionFailure("wire types do not use superEncoder") }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        preconditionFailure("wire types do not use superEncoder")
    }
}

private struct ArrayContainer: UnkeyedEncodingContainer {
    let encoder: ByteEncoder
    let frame: Int
    var codingPath: [any CodingKey] { [] }
    var count: Int { encoder.count(frame) }

    private func next() { encoder.nextMember(of: frame) }

    mutating func encodeNil() { next(); encoder.append("null") }
    mutating func encode(_ value: Bool) { next(); encoder.write(value) }
    mutating func encode(_ value: String) { next(); encoder.write(value) }
    mutating func encode(_ value: Double) { next(); encoder.write(value) }
    mutating func encode(_ value: Float) { next(); encoder.write(Double(value)) }
    mutating func encode(_ value: Int) { next(); encoder.write(integer: value) }
    mutating func encode(_ value: Int8) { next(); encoder.write(integer: value) }
    mutating func encode(_ value: Int16) { next(); encoder.write(integer: value) }
    mutating func encode(_ value: Int32) { next(); encoder.write(integer: value) }
    mutating func encode(_ value: Int64) { next(); encoder.write(integer: value) }
    mutating func encode(_ value: UInt) { next(); encoder.write(integer: value) }
    mutating func encode(_ value: UInt8) { next(); encoder.write(integer: value) }
    mutating func encode(_ value: UInt16) { next(); encoder.write(integer: value) }
    mutating func encode(_ value: UInt32) { next(); encoder.write(integer: value) }
    mutating func encode(_ value: UInt64) { next(); encoder.write(integer: value) }

    mutating func encode<T: Encodable>(_ value: T) {
        next()
        encoder.encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        next()
        return KeyedEncodingContainer(
            ObjectContainer<NestedKey>(encoder: encoder, frame: encoder.openNested(object: true)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        next()
        return ArrayContainer(encoder: encoder, frame: encoder.openNested(object: false))
    }

    mutating func superEncoder() -> any Encoder { preconditionFailure("wire types do not use superEncoder") }
}

/// The value itself, written once where the value stands.
private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: ByteEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() { encoder.append("null") }
    mutating func encode(_ value: Bool) { encoder.write(value) }
    mutating func encode(_ value: String) { encoder.write(value) }
    mutating func encode(_ value: Double) { encoder.write(value) }
    mutating func encode(_ value: Float) { encoder.write(Double(value)) }
    mutating func encode(_ value: Int) { encoder.write(integer: value) }
    mutating func encode(_ value: Int8) { encoder.write(integer: value) }
    mutating func encode(_ value: Int16) { encoder.write(integer: value) }
    mutating func encode(_ value: Int32) { encoder.write(integer: value) }
    mutating func encode(_ value: Int64) { encoder.write(integer: value) }
    mutating func encode(_ value: UInt) { encoder.write(integer: value) }
    mutating func encode(_ value: UInt8) { encoder.write(integer: value) }
    mutating func encode(_ value: UInt16) { encoder.write(integer: value) }
    mutating func encode(_ value: UInt32) { encoder.write(integer: value) }
    mutating func encode(_ value: UInt64) { encoder.write(integer: value) }
    mutating func encode<T: Encodable>(_ value: T) { encoder.encodeValue(value) }
}

extension Encodable {
    /// The value's wire form.
    public var json: JSON { WireEncoder.encode(self) }

    /// The value's wire form as compact JSON text.
    public var jsonBytes: [UInt8] { WireEncoder.bytes(self) }
}
