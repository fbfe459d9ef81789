/// The keys of a Varlink message around its parameters, as the protocol
/// names them (varlink.org, "Method Call"): a call's `method`,
/// `parameters`, `more` and `oneway`; a reply's `parameters`, `continues`
/// and `error`. Declared once for the framer, the server and the client;
/// VarlinkServiceSchemaTests holds them to the specification's envelope.
/// raind does not take `upgrade` (no interface of it hands the connection
/// over), so it is not read.
public enum VarlinkEnvelopeKey: String, CaseIterable, Sendable {
    /// Call: the fully qualified method name (`io.raind.Weather.GetStatus`).
    case method
    /// Call and reply: the method's parameters, the reply's, or the error's.
    case parameters
    /// Call: the client takes several replies (`continues`).
    case more
    /// Call: the client takes no reply at all.
    case oneway
    /// Reply: more replies to the same call follow.
    case continues
    /// Reply: the fully qualified name of the error the call failed with.
    case error

    /// The keys a call may carry.
    public static let callKeys: [VarlinkEnvelopeKey] = [.method, .parameters, .more, .oneway]
    /// The keys a reply may carry.
    public static let replyKeys: [VarlinkEnvelopeKey] = [.parameters, .continues, .error]

    /// The key spelled by `utf8`, with no String made: a call's envelope is read per call.
    public init?(utf8 key: UnsafeBufferPointer<UInt8>) {
        let candidate: VarlinkEnvelopeKey
        switch (key.count, key.first) {
        case (6, UInt8(ascii: "m")): candidate = .method
        case (10, _): candidate = .parameters
        case (4, _): candidate = .more
        case (6, UInt8(ascii: "o")): candidate = .oneway
        case (9, _): candidate = .continues
        case (5, _): candidate = .error
        default: return nil
        }
        let matches = candidate.rawValue.utf8.withContiguousStorageIfAvailable { WireBytes.equal($0, key) }
        guard matches ?? candidate.rawValue.utf8.elementsEqual(key) else { return nil }
        self = candidate
    }
}

extension WireReader {
    /// An envelope field, or nil when absent or null.
    public func optional(_ key: VarlinkEnvelopeKey) -> JSON? { optional(key.rawValue) }

    public func string(_ key: VarlinkEnvelopeKey) throws(WireDecodingError) -> String { try string(key.rawValue) }

    public func optionalString(_ key: VarlinkEnvelopeKey) throws(WireDecodingError) -> String? {
        try optionalString(key.rawValue)
    }

    public func optionalBool(_ key: VarlinkEnvelopeKey) throws(WireDecodingError) -> Bool? {
        try optionalBool(key.rawValue)
    }
}
