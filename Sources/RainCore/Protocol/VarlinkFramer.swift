/// Splits a byte stream into Varlink messages: JSON objects each ended by a
/// NUL byte. A message longer than `maximumMessageSize` is refused rather than
/// buffered, so no peer can make the daemon (or the client) grow without bound.
public struct VarlinkFramer: Sendable {
    public let maximumMessageSize: Int
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` begins; consumed bytes are dropped in
    /// one move when they are the larger part, so a read holding many
    /// pipelined messages is split in linear time.
    private var start = 0
    /// Where the next search for a NUL starts, so a message arriving in many
    /// small reads is scanned once.
    private var scanned = 0

    public init(maximumMessageSize: Int) {
        self.maximumMessageSize = maximumMessageSize
    }

    public enum Failure: Error, Equatable, Sendable {
        case messageTooLarge(limit: Int)
    }

    public mutating func append<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// What a read brought: copied as one block. (The generic form, called
    /// from another module, runs unspecialized, a byte at a time.)
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Drops the bytes already returned once they are at least half the buffer.
    private mutating func compact() {
        if start > 0 && start >= buffer.count - start {
            buffer.removeSubrange(..<start)
            scanned -= start
            start = 0
        }
    }

    /// Bytes received and not yet returned as a message.
    public var pendingByteCount: Int { buffer.count - start }

    /// The next complete message without its NUL, nil when more bytes are needed.
    public mutating func nextMessage() throws(Failure) -> [UInt8]? {
        try nextMessage { Array($0) }
    }

    /// Lends the next complete message, without its NUL, to `read`, with no
    /// copy; nil when more bytes are needed. The bytes are valid only inside `read`.
    public mutating func nextMessage<Result>(
        _ read: (UnsafeBufferPointer<UInt8>) -> Result
    ) throws(Failure) -> Result? {
        guard let end = try nextEnd() else { return nil }
        let message = start..<end
        start = end + 1
        scanned = start
        return buffer.withUnsafeBufferPointer { read(UnsafeBufferPointer(rebasing: $0[message])) }
    }

    /// Where the next complete message ends (its NUL), nil when more bytes are needed.
    private mutating func nextEnd() throws(Failure) -> Int? {
        let from = max(start, scanned)
        if let end = buffer.withUnsafeBufferPointer({ WireBytes.firstIndex(of: 0, in: $0, from: from) }) {
            guard end - start <= maximumMessageSize else { throw .messageTooLarge(limit: maximumMessageSize) }
            return end
        }
        scanned = buffer.count
        if buffer.count - start > maximumMessageSize { throw .messageTooLarge(limit: maximumMessageSize) }
        return nil
    }

    /// A message ready to send: the JSON text and its terminating NUL.
    public static func frame(_ message: JSON) -> [UInt8] {
        var bytes: [UInt8] = []
        frame(message, into: &bytes)
        return bytes
    }

    /// Appends the framed message to `bytes`, so replies can be written
    /// straight into an output buffer.
    public static func frame(_ message: JSON, into bytes: inout [UInt8]) {
        message.serialize(into: &bytes)
        bytes.append(0)
    }

    /// Appends a successful reply carrying `parameters`, encoded straight
    /// into `bytes`: what `VarlinkReply(parameters:continues:)` frames, with
    /// no JSON value in between.
    public static func frameReply<Parameters: Encodable>(
        _ parameters: Parameters, continues: Bool = false, into bytes: inout [UInt8]
    ) {
        bytes.append(contentsOf: replyStart)
        WireEncoder.encode(parameters, into: &bytes)
        if continues {
            bytes.append(contentsOf: continuesEnd)
        } else {
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(0)
    }

    /// `{"parameters":` and `,"continues":true}`, spelled from the keys once.
    private static let replyStart = Array(#"{"\#(VarlinkEnvelopeKey.parameters.rawValue)":"#.utf8)
    private static let continuesEnd = Array(#","\#(VarlinkEnvelopeKey.continues.rawValue)":true}"#.utf8)
}

/// A Varlink call as received.
public struct VarlinkCall: Equatable, Sendable {
    /// Fully qualified (`io.raind.Weather.GetStatus`).
    public var method: String
    public var parameters: JSONObject
    public var more: Bool
    public var oneway: Bool

    public init(method: String, parameters: JSONObject = JSONObject(), more: Bool = false, oneway: Bool = false) {
        self.method = method
        self.parameters = parameters
        self.more = more
        self.oneway = oneway
    }

    /// Reads a call; the error says what is wrong with the message.
    public init(message: [UInt8]) throws(WireDecodingError) {
        self = try message.withUnsafeBufferPointer { bytes throws(WireDecodingError) in
            try VarlinkCall(message: bytes, methodLike: nil)
        }
    }

    /// Reads a call from bytes held in one block of memory (the framer's
    /// buffer). Only the envelope is read into values; the parameters are
    /// checked as JSON and made into an object only when there are some
    /// (GetStatus has none). `methodLike`: a name to reuse when the call
    /// names the same method (the previous call's on the connection), so a
    /// pipeline of the same call makes no String per call.
    public init(message bytes: UnsafeBufferPointer<UInt8>, methodLike previous: String?) throws(WireDecodingError) {
        var method: Range<Int>?
        var parameters: Range<Int>?
        var more: Range<Int>?
        var oneway: Range<Int>?
        let isObject: Bool
        do {
            isObject = try JSON.forEachMember(in: bytes) { key, value in
                switch VarlinkEnvelopeKey(utf8: key) {
                case .method: method = value
                case .parameters: parameters = value
                case .more: more = value
                case .oneway: oneway = value
                case .continues, .error, nil: break
                }
            }
        } catch {
            throw WireDecodingError(field: VarlinkServiceError.InvalidParameter.wholeMessage, reason: error.description)
        }
        guard isObject else {
            // Not an object: read whole for the error it gets.
            let value: JSON
            do {
                value = try JSON(parsing: bytes)
            } catch {
                throw WireDecodingError(
                    field: VarlinkServiceError.InvalidParameter.wholeMessage, reason: error.description)
            }
            _ = try WireReader(value, context: "")
            throw WireDecodingError(field: "", reason: "expected an object")
        }
        func value(_ range: Range<Int>?) -> JSON? {
            guard let range else { return nil }
            let value = (try? JSON(parsing: UnsafeBufferPointer(rebasing: bytes[range]))) ?? .null
            return value == .null ? nil : value
        }
        func flag(_ range: Range<Int>?, _ key: VarlinkEnvelopeKey) throws(WireDecodingError) -> Bool {
            guard let range else { return false }
            let text = UnsafeBufferPointer(rebasing: bytes[range])
            if text.elementsEqual("true".utf8) { return true }
            if text.elementsEqual("false".utf8) { return false }
            return try WireReader(object: JSONObject([(key.rawValue, value(range) ?? .null)]), context: "")
                .optionalBool(key) ?? false
        }
        if let range = method, let previous, Self.isString(previous, UnsafeBufferPointer(rebasing: bytes[range])) {
            self.method = previous
        } else {
            self.method = try WireReader(
                object: JSONObject([(VarlinkEnvelopeKey.method.rawValue, value(method) ?? .null)]), context: ""
            ).string(.method)
        }
        self.parameters = JSONObject()
        if let range = parameters, !Self.isEmptyObject(UnsafeBufferPointer(rebasing: bytes[range])),
            let given = value(range)
        {
            guard let object = given.objectValue else {
                throw WireDecodingError(
                    field: VarlinkEnvelopeKey.parameters.rawValue, reason: "expected an object, got \(given.kindName)")
            }
            self.parameters = object
        }
        self.more = try flag(more, .more)
        self.oneway = try flag(oneway, .oneway)
    }

    /// Whether `text` is the JSON string `string` written without escapes.
    private static func isString(_ string: String, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var string = string
        return string.withUTF8 { utf8 in
            text.count == utf8.count + 2 && text.first == UInt8(ascii: "\"") && text.last == UInt8(ascii: "\"")
                && WireBytes.equal(UnsafeBufferPointer(rebasing: text[1..<(text.count - 1)]), utf8)
        }
    }

    /// Whether `text` is `{}`, perhaps with blanks inside.
    private static func isEmptyObject(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        text.first == UInt8(ascii: "{") && text.last == UInt8(ascii: "}")
            && text.dropFirst().dropLast().allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    public var json: JSON {
        var object = JSONObject()
        object[VarlinkEnvelopeKey.method.rawValue] = .string(method)
        object[VarlinkEnvelopeKey.parameters.rawValue] = .object(parameters)
        if more { object[VarlinkEnvelopeKey.more.rawValue] = .bool(true) }
        if oneway { object[VarlinkEnvelopeKey.oneway.rawValue] = .bool(true) }
        return .object(object)
    }

    /// The interface the method belongs to: its name up to the last dot
    /// (`io.raind.Weather`), empty when it has no dot.
    public var interface: Substring {
        guard let dot = method.utf8.lastIndex(of: UInt8(ascii: ".")) else { return "" }
        return method[..<dot]
    }
}

/// A Varlink reply: parameters, or an error with parameters.
public struct VarlinkReply: Equatable, Sendable {
    public var parameters: JSON
    /// Fully qualified error name, nil for success.
    public var error: String?
    public var continues: Bool

    public init(parameters: JSON = .object(JSONObject()), error: String? = nil, continues: Bool = false) {
        self.parameters = parameters
        self.error = error
        self.continues = continues
    }

    public static func failure(_ error: String, _ parameters: JSON) -> VarlinkReply {
        VarlinkReply(parameters: parameters, error: error)
    }

    public var json: JSON {
        var object = JSONObject()
        if let error { object[VarlinkEnvelopeKey.error.rawValue] = .string(error) }
        object[VarlinkEnvelopeKey.parameters.rawValue] = parameters
        if continues { object[VarlinkEnvelopeKey.continues.rawValue] = .bool(true) }
        return .object(object)
    }

    public init(message: [UInt8]) throws(WireDecodingError) {
        let value: JSON
        do {
            value = try JSON(parsing: message)
        } catch {
            throw WireDecodingError(field: "reply", reason: error.description)
        }
        let reader = try WireReader(value, context: "reply")
        self.init(
            parameters: reader.optional(.parameters) ?? .object(JSONObject()),
            error: try reader.optionalString(.error),
            continues: try reader.optionalBool(.continues) ?? false)
    }
}
