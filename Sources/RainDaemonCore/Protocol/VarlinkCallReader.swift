import RainCore

/// Reads the calls one connection sends. A call that repeats the one before
/// it byte for byte (a client polling GetStatus on its connection, a
/// pipeline of the same call) is read once: reading is a function of the
/// bytes alone, so the repeat gets the same call after one comparison.
/// Otherwise the previous call's method name is offered for reuse
/// (`VarlinkCall(message:methodLike:)`).
public struct VarlinkCallReader: Sendable {
    /// Longer calls are not kept: repeats are short, and a connection holds no more than this.
    public static let keptMessageSize = 256

    /// The last call read and its bytes, when it was short enough to keep.
    private var lastMessage: [UInt8] = []
    private var lastCall: VarlinkCall?
    private var lastMethod: String?

    public init() {}

    public mutating func read(_ message: UnsafeBufferPointer<UInt8>) throws(WireDecodingError) -> VarlinkCall {
        if let lastCall, lastMessage.withUnsafeBufferPointer({ WireBytes.equal($0, message) }) {
            return lastCall
        }
        let call = try VarlinkCall(message: message, methodLike: lastMethod)
        lastMethod = call.method
        lastMessage.removeAll(keepingCapacity: true)
        if message.count <= Self.keptMessageSize {
            lastMessage.append(contentsOf: message)
            lastCall = call
        } else {
            lastCall = nil
        }
        return call
    }
}
