import Glibc
import RainCore

/// One client on the socket. Reads NUL-framed calls, hands them to the server
/// one at a time (so pipelined calls are answered in order), and writes
/// replies without ever blocking: what the peer does not take now waits in a
/// bounded queue, and a peer that lets it fill is dropped.
public final class VarlinkConnection {
    public let id: Int
    public let peer: PeerCredentials
    public let access: VarlinkServer.Access
    let fd: FileDescriptor
    private var source: EventSource?
    private var framer: VarlinkFramer
    private weak var server: VarlinkServer?
    private let logger: Logger

    /// Calls received but not yet handed over, because one is still being answered.
    private var waitingCalls: [[UInt8]] = []
    /// The call being answered; nil when idle.
    private(set) var activeCall: VarlinkRequest?

    private var outputQueue: [[UInt8]] = []
    private var outputOffset = 0
    public private(set) var queuedBytes = 0
    private var closeWhenFlushed = false
    public private(set) var isClosed = false
    private var scratch: [UInt8] = []

    init(
        id: Int, fd: FileDescriptor, peer: PeerCredentials, access: VarlinkServer.Access,
        server: VarlinkServer, loop: EventLoop, logger: Logger
    ) throws(SystemError) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.access = access
        self.server = server
        self.logger = logger
        self.framer = VarlinkFramer(maximumMessageSize: server.limits.maximumMessageSize)
        source = try loop.watch(fd: fd.rawValue, events: .readable) { [weak self] events in
            self?.handle(events: events)
        }
    }

    var description: String { "client \(id) (pid \(peer.pid), uid \(peer.uid))" }

    private func handle(events: IOEvents) {
        if events.contains(.writable) { flush() }
        if isClosed { return }
        if events.contains(.readable) {
            readAvailable()
        } else if !events.isDisjoint(with: [.hangUp, .error]) {
            close()
        }
    }

    /// Calls waiting beyond this many stop the reading, so a flooding client is
    /// held back by its own socket buffer instead of our memory.
    private static let waitingCallLimit = 64

    private var readPaused: Bool {
        closeWhenFlushed || waitingCalls.count >= Self.waitingCallLimit
    }

    private func readAvailable() {
        while !isClosed && !readPaused {
            let count: Int
            do {
                count = try fd.read(into: &scratch)
            } catch where error.errno == EAGAIN {
                break
            } catch {
                logger.debug("\(description): \(error)")
                close()
                return
            }
            if count == 0 {
                close()
                return
            }
            framer.append(scratch)
            extractCalls()
        }
        dispatchNext()
        updateInterest()
    }

    /// Which events to wait for: input unless paused, output while some is queued.
    private func updateInterest() {
        guard !isClosed else { return }
        var events: IOEvents = []
        if !readPaused { events.insert(.readable) }
        if !outputQueue.isEmpty { events.insert(.writable) }
        source?.setEvents(events)
    }

    /// Moves complete messages from the framer to the waiting list.
    private func extractCalls() {
        do {
            while waitingCalls.count < Self.waitingCallLimit, let message = try framer.nextMessage() {
                waitingCalls.append(message)
            }
        } catch {
            let limit = server?.limits.maximumMessageSize ?? 0
            logger.warning("\(description) sent a message over \(limit) bytes; disconnecting")
            send(VarlinkReply.failure(
                VarlinkServiceError.invalidParameter.qualifiedName,
                .object([
                    "parameter": .string("message"),
                    "reason": .string("message exceeds \(limit) bytes; the connection is closed"),
                ])))
            closeAfterFlush()
        }
    }

    /// Hands the next waiting call to the server when none is being answered.
    func dispatchNext() {
        while activeCall == nil, !waitingCalls.isEmpty, !isClosed, !closeWhenFlushed {
            let message = waitingCalls.removeFirst()
            let call: VarlinkCall
            do {
                call = try VarlinkCall(message: message)
            } catch {
                send(VarlinkReply.failure(
                    VarlinkServiceError.invalidParameter.qualifiedName,
                    .object(["parameter": .string(error.field), "reason": .string(error.reason)])))
                continue
            }
            let request = VarlinkRequest(call: call, connection: self)
            activeCall = request
            server?.dispatch(request)
        }
    }

    /// Called by a request when its final reply went out.
    func requestFinished(_ request: VarlinkRequest) {
        guard activeCall === request else { return }
        activeCall = nil
        // Continue on the next iteration, so a long pipeline does not recurse.
        server?.loop.later { [weak self] in
            guard let self, !self.isClosed else { return }
            self.extractCalls()
            self.dispatchNext()
            self.updateInterest()
        }
    }

    // MARK: Output

    func send(_ reply: VarlinkReply) {
        enqueue(VarlinkFramer.frame(reply.json))
    }

    /// Queues framed bytes; the same array may go to many connections.
    /// Returns false when the queue limit was hit and the connection dropped.
    @discardableResult
    func enqueue(_ bytes: [UInt8]) -> Bool {
        guard !isClosed else { return false }
        outputQueue.append(bytes)
        queuedBytes += bytes.count
        flush()
        return !isClosed
    }

    private func flush() {
        while !outputQueue.isEmpty {
            let chunk = outputQueue[0]
            let written: Int
            do {
                written = try fd.write(chunk[outputOffset...])
            } catch where error.errno == EAGAIN {
                break
            } catch {
                logger.debug("\(description): \(error)")
                close()
                return
            }
            outputOffset += written
            queuedBytes -= written
            if outputOffset == chunk.count {
                outputQueue.removeFirst()
                outputOffset = 0
            }
        }
        if outputQueue.isEmpty && closeWhenFlushed {
            close()
            return
        }
        updateInterest()
    }

    /// Drops a peer that stopped reading: discards what it has not started to
    /// receive, tries once to send `reply` after it, and closes.
    func dropAfterFinal(_ reply: VarlinkReply) {
        guard !isClosed else { return }
        if outputOffset > 0 {
            outputQueue.removeSubrange(1...)
        } else {
            outputQueue.removeAll()
        }
        queuedBytes = outputQueue.first.map { $0.count - outputOffset } ?? 0
        closeWhenFlushed = true
        enqueue(VarlinkFramer.frame(reply.json))
        close()
    }

    /// Stops reading and closes once everything queued is written.
    func closeAfterFlush() {
        closeWhenFlushed = true
        if outputQueue.isEmpty { close() } else { updateInterest() }
    }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        source?.cancel()
        source = nil
        fd.close()
        outputQueue.removeAll()
        queuedBytes = 0
        let active = activeCall
        activeCall = nil
        active?.connectionClosed()
        server?.connectionClosed(self)
    }
}

/// A call being answered. Replies go to its connection in order; the last
/// reply (or the error) frees the connection for the next call.
public final class VarlinkRequest {
    public let call: VarlinkCall
    public private(set) weak var connection: VarlinkConnection?
    public private(set) var isFinished = false
    /// Called once if the client goes away before the call finished.
    public var onCancel: (() -> Void)?

    init(call: VarlinkCall, connection: VarlinkConnection) {
        self.call = call
        self.connection = connection
    }

    /// The final reply.
    public func reply(_ parameters: JSON) {
        finish(VarlinkReply(parameters: parameters))
    }

    /// The final reply, as an error.
    public func fail(_ error: String, _ parameters: JSON) {
        finish(.failure(error, parameters))
    }

    /// A reply with `continues: true`, for calls made with `more`.
    public func stream(_ parameters: JSON) {
        guard !isFinished, let connection else { return }
        connection.send(VarlinkReply(parameters: parameters, continues: true))
    }

    /// Sends pre-framed bytes (an event encoded once for every subscriber).
    /// Returns false when the connection could not take them.
    @discardableResult
    public func streamFramed(_ bytes: [UInt8]) -> Bool {
        guard !isFinished, let connection else { return false }
        return connection.enqueue(bytes)
    }

    private func finish(_ reply: VarlinkReply) {
        guard !isFinished else { return }
        isFinished = true
        guard let connection else { return }
        if !call.oneway { connection.send(reply) }
        connection.requestFinished(self)
    }

    /// Ends a streaming call whose client stopped reading: a last error, best effort, then disconnect.
    public func abort(_ error: String, _ parameters: JSON) {
        guard !isFinished, let connection else { return }
        isFinished = true
        connection.dropAfterFinal(.failure(error, parameters))
    }

    func connectionClosed() {
        guard !isFinished else { return }
        isFinished = true
        let cancel = onCancel
        onCancel = nil
        cancel?()
    }
}
