import RainCore
import RainSystem

/// Why a command could not complete, and the exit code that says so.
enum ClientError: Error {
    /// The daemon could not be reached (exit 2).
    case unreachable(String)
    /// The daemon answered with an error (exit 1); `instance` says which one.
    case daemon(name: String, parameters: JSON, instance: DaemonSocket.Instance)
    /// The command line was wrong (exit 64).
    case usage(String)
    /// Anything else that went wrong locally (exit 1).
    case failed(String)
    /// Part of the work failed and was already reported (exit 1).
    case daemonPartial

    var exitCode: Int32 {
        switch self {
        case .unreachable: return 2
        case .daemon, .failed, .daemonPartial: return 1
        case .usage: return 64
        }
    }
}

/// A blocking Varlink connection to raind. The client is short-lived and does
/// one thing at a time, so plain blocking reads and writes are right here.
final class VarlinkClient {
    private let fd: FileDescriptor
    let path: String
    /// Which raind answers: the user or the system instance, or another path.
    let instance: DaemonSocket.Instance
    private var framer = VarlinkFramer(maximumMessageSize: 64 << 20)

    /// Connects to the first socket that answers among the candidates.
    init(candidates: [DaemonSocket]) throws(ClientError) {
        var failures: [(socket: DaemonSocket, errno: Errno)] = []
        for candidate in candidates {
            do {
                fd = try UnixSocket.connect(path: candidate.path)
                self.path = candidate.path
                self.instance = candidate.instance
                return
            } catch  where error.call == "socket" {
                throw .failed(tr("cannot create a socket: {error}", ["error": error.message]))
            } catch {
                failures.append((candidate, error.errno))
            }
        }
        throw .unreachable(DaemonSocket.unreachableMessage(failures))
    }

    func send(_ call: VarlinkCall) throws(ClientError) {
        try write(VarlinkFramer.frame(call.json))
    }

    /// Waits up to `timeout` seconds for the next reply; nil when none came.
    func receive(timeout: Double) throws(ClientError) -> VarlinkReply? {
        if try hasBufferedMessage() { return try receive() }
        do {
            guard try fd.waitUntilReadable(timeout: timeout) else { return nil }
        } catch {
            throw .failed(tr("cannot wait for raind's reply: {error}", ["error": "\(error)"]))
        }
        return try receive()
    }

    private func hasBufferedMessage() throws(ClientError) -> Bool {
        do {
            if let message = try framer.nextMessage() {
                pending = message
                return true
            }
        } catch {
            throw .failed(tr("raind sent a reply larger than the client accepts"))
        }
        return false
    }

    /// A message the framer gave up while checking for one.
    private var pending: [UInt8]?

    /// Reads the next reply; daemon errors are returned, not thrown, so streams can tell them apart.
    func receive() throws(ClientError) -> VarlinkReply {
        try Self.reply(try receiveMessage())
    }

    private static func reply(_ message: [UInt8]) throws(ClientError) -> VarlinkReply {
        do {
            return try VarlinkReply(message: message)
        } catch {
            throw ClientError.failed(tr("raind sent an unreadable reply: {error}", ["error": "\(error)"]))
        }
    }

    /// The next message's bytes, read as they arrive.
    private func receiveMessage() throws(ClientError) -> [UInt8] {
        if let message = pending {
            pending = nil
            return message
        }
        var buffer: [UInt8] = []
        while true {
            do {
                if let message = try framer.nextMessage() { return message }
            } catch {
                throw .failed(tr("raind sent a reply larger than the client accepts"))
            }
            let n: Int
            do {
                n = try fd.read(into: &buffer)
            } catch {
                throw .unreachable(
                    tr("lost the connection to raind at {path}: {error}", ["path": path, "error": error.message]))
            }
            if n == 0 { throw .unreachable(tr("raind at {path} closed the connection", ["path": path])) }
            buffer.withUnsafeBytes { framer.append($0) }
        }
    }

    /// Calls a method and returns its declared reply; an error reply is thrown.
    func call<Call: WeatherCall>(_ call: Call.Type, _ parameters: Call.Parameters) throws(ClientError) -> Call.Reply {
        try send(Self.message(call, parameters))
        return try Self.decode(Call.Reply.self, successfulReply())
    }

    /// `call` for a reply that reads itself field by field (`WireReadable`)
    /// from a tape of the message (`JSONTape`), making no tree of it: the
    /// status. A reply of another shape (an error, parameters that are not
    /// an object) is read as `call` reads it, with the same errors.
    func call<Call: WeatherCall>(
        _ call: Call.Type, _ parameters: Call.Parameters
    ) throws(ClientError) -> Call.Reply where Call.Reply: WireReadable {
        try send(Self.message(call, parameters))
        let message = try receiveMessage()
        guard let tape = try? JSONTape(parsing: message),
            tape.member(VarlinkEnvelopeKey.error.rawValue, of: JSONTape.root) == nil,
            let parameters = tape.member(VarlinkEnvelopeKey.parameters.rawValue, of: JSONTape.root),
            tape.kind(parameters) == .object,
            tape.member(VarlinkEnvelopeKey.continues.rawValue, of: JSONTape.root).map({ tape.bool($0) != nil }) ?? true
        else {
            let reply = try Self.reply(message)
            if let error = reply.error {
                throw .daemon(name: error, parameters: reply.parameters, instance: instance)
            }
            return try Self.decode(Call.Reply.self, reply.parameters)
        }
        do {
            return try Call.Reply(wire: WireFields(tape, value: parameters, context: "reply"))
        } catch {
            throw Self.unreadable(error)
        }
    }

    /// Calls a method once for each of `parameters`, every call sent before
    /// the first reply is read (raind answers in order), and reads only the
    /// part of each reply a command uses (`Part` declares those fields, the
    /// rest is skipped): `status` needs every place's alert service, not
    /// ten forecasts, and one round trip instead of ten. An error reply is
    /// thrown.
    func call<Call: WeatherCall, Part: Decodable>(
        _ call: Call.Type, each parameters: [Call.Parameters], reading part: Part.Type
    ) throws(ClientError) -> [Part] {
        var frames: [UInt8] = []
        for each in parameters { VarlinkFramer.frame(Self.message(call, each).json, into: &frames) }
        try write(frames)
        var parts: [Part] = []
        for _ in parameters { parts.append(try Self.decode(Part.self, successfulReply())) }
        return parts
    }

    /// The call of `call` with `parameters`; none are encoded where the
    /// method takes none (status, list).
    private static func message<Call: WeatherCall>(_ call: Call.Type, _ parameters: Call.Parameters) -> VarlinkCall {
        let object = Call.noParameters != nil ? JSONObject() : parameters.json.objectValue ?? JSONObject()
        return VarlinkCall(method: Call.method.qualifiedName, parameters: object)
    }

    private func write(_ frames: [UInt8]) throws(ClientError) {
        do {
            try fd.writeAll(frames)
        } catch {
            throw .unreachable(
                tr("lost the connection to raind at {path}: {error}", ["path": path, "error": error.message]))
        }
    }

    /// The next reply's parameters; an error reply is thrown.
    private func successfulReply() throws(ClientError) -> JSON {
        let reply = try receive()
        if let error = reply.error { throw .daemon(name: error, parameters: reply.parameters, instance: instance) }
        return reply.parameters
    }

    /// Reads a reply as its declared type; a reply that is not is an error,
    /// never a silent default.
    static func decode<T: Decodable>(_ type: T.Type, _ value: JSON) throws(ClientError) -> T {
        do {
            return try WireDecoder.decode(type, from: value, context: "reply")
        } catch {
            throw unreadable(error)
        }
    }

    private static func unreadable(_ error: WireDecodingError) -> ClientError {
        .failed(
            tr(
                "raind sent a reply raindctl cannot read ({error}); are raind and raindctl the same version?",
                ["error": "\(error)"]))
    }
}
