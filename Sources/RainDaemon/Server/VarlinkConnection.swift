import RainCore
import RainDaemonCore
import RainSystem

/// One client on the socket. Reads NUL-framed calls and hands them to the
/// server one at a time (so pipelined calls are answered in order). Nothing
/// here ever blocks, and what one client can make raind hold is bounded:
///
/// - input: reading stops while more than a message's worth (64 KiB) of
///   received calls waits to be answered;
/// - output: replies go to one buffer, written once per batch of calls read
///   together; when the peer leaves `maximumQueuedBytes` unread, raind stops
///   reading and answering it (backpressure) until it drains, and a peer that
///   stays that far behind for `slowClientTimeout` is disconnected;
/// - time: a connection with no call in flight (a subscription is one) for
///   `idleTimeout` is closed.
///
/// A peer that half-closes (shuts down its sending side) still gets every reply.
public final class VarlinkConnection {
    public let id: Int
    public let peer: PeerCredentials
    public let access: VarlinkServer.Access
    /// Whether the peer may use the connections kept back for root and group `raind`.
    let isPrivileged: Bool
    let fd: FileDescriptor
    private var source: IOGroup.Member?
    private var framer: VarlinkFramer
    private weak var server: VarlinkServer?
    private let loop: EventLoop
    private let limits: VarlinkServer.Limits
    private let logger: Logger

    /// Reads a call repeated from the one before once.
    private var callReader = VarlinkCallReader()
    /// The call being answered; nil when none is.
    private(set) var activeCall: VarlinkRequest?
    /// Inside the dispatch loop: a call finished there lets the loop go on, no recursion.
    private var dispatching = false
    private var resumeScheduled = false
    /// The peer shut down its sending side: answer what was received, then close.
    private var inputEnded = false
    /// The socket may hold input not yet read: set by each readable edge,
    /// cleared when a read empties the socket. With edge-triggered events
    /// nothing reports input again that arrived while reading was paused.
    private var unreadInput = false
    /// The peer shut down its side (EPOLLRDHUP): read on to the end of input
    /// even after a short read, since no later edge will report it.
    private var peerShutDown = false

    /// Framed replies not yet taken by the peer, from `outputStart` on.
    private var output: [UInt8] = []
    private var outputStart = 0
    /// While set, replies are only queued; the batch is written once at the end.
    private var corked = false
    private var closeWhenFlushed = false
    public private(set) var isClosed = false
    /// The epoll events asked for, so they are changed only when they change.
    ///
    /// Edge-triggered: sd-event dispatches one source per iteration and asks
    /// epoll again each time, so with level-triggered sources every ready
    /// client was polled again for every call answered (with 64 busy clients,
    /// a third of the daemon's time). With edges, a client is reported once
    /// per arrival; that is enough because a read shorter than the buffer
    /// empties the socket (but for an end of input that came with the data:
    /// EPOLLRDHUP tells, and reading then goes on to it), writes go on until
    /// EAGAIN, and input left unread while `wantsInput` is false is
    /// remembered (`unreadInput`) and read when it is true again.
    private var watchedEvents: IOEvents = [.readable, .readHangUp, .edgeTriggered]

    /// When a call last started or finished (monotonic seconds), for the idle timeout.
    private var lastActivity: Double
    private var idleTimer: EventSource?
    private var slowTimer: EventSource?
    private var slowTimerArmed = false

    init(
        id: Int, fd: FileDescriptor, peer: PeerCredentials, access: VarlinkServer.Access, isPrivileged: Bool,
        server: VarlinkServer, clients: IOGroup, loop: EventLoop, logger: Logger
    ) throws(SystemError) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.access = access
        self.isPrivileged = isPrivileged
        self.server = server
        self.loop = loop
        self.limits = server.limits
        self.logger = logger
        self.framer = VarlinkFramer(maximumMessageSize: server.limits.maximumMessageSize)
        lastActivity = loop.monotonicNow
        // Unowned, not weak: the sources are this connection's own and go with
        // it, and an object never weakly referenced keeps its reference count
        // inline, where retains and releases are cheap (docs/PERFORMANCE.md).
        source = try clients.watch(fd: fd.rawValue, events: watchedEvents) { [unowned self] events in
            handle(events: events)
        }
        // Coarse: a connection closed a few seconds late costs nothing, and timers coalesce.
        let idleTimer = try loop.timer(accuracy: max(1, limits.idleTimeout / 10), name: "varlink client \(id) idle") {
            [unowned self] in
            checkIdle()
        }
        idleTimer.arm(at: lastActivity + limits.idleTimeout)
        self.idleTimer = idleTimer
    }

    var description: String { "client \(id) (pid \(peer.pid), uid \(peer.uid))" }

    /// Bytes queued for the peer and not yet written.
    public var queuedBytes: Int { output.count - outputStart }

    private func handle(events: IOEvents) {
        // An edge: input arrived (or the peer shut down its side) since the socket was last emptied.
        if events.contains(.readable) { unreadInput = true }
        if events.contains(.readHangUp) { peerShutDown = true }
        if events.contains(.writable) {
            flush()
            // Drained below the limit: answer what was held back.
            if !isClosed && activeCall == nil { serveInput() }
        }
        if isClosed { return }
        if unreadInput && wantsInput {
            readAvailable()
        } else if !events.isDisjoint(with: [.hangUp, .error]) && !events.contains(.readable) {
            // The peer is gone in both directions: nothing more can be delivered.
            close()
        }
    }

    private var isOverOutputLimit: Bool { queuedBytes >= limits.maximumQueuedBytes }

    /// Whether to read: not after the peer's end of input or while closing,
    /// not while the peer leaves too much output unread, and not while a
    /// whole message's worth of calls waits in the framer.
    private var wantsInput: Bool {
        !isClosed && !closeWhenFlushed && !inputEnded && !isOverOutputLimit
            && framer.pendingByteCount <= limits.maximumMessageSize
    }

    /// How long one connection's calls may run before other clients get a
    /// turn (and the loop, once the clients' group is out of its own turn,
    /// `IOGroup`) and before the replies so far are written:
    /// pipelined GetStatus calls go out in one write per read, while slow
    /// calls (a SetSettings fsyncs) do not hold back the replies before them.
    private static let turnSeconds = 0.002

    /// Replies waiting past this are written before the batch ends: a
    /// pipeline's 64 replies written at once left the client idle while raind
    /// answered and raind idle while the client read, each woken from sleep
    /// for the other's turn; written in parts, both work at once, which made
    /// pipelined GetStatus a third faster (docs/PERFORMANCE.md).
    private static let batchWriteBytes = 16 * 1024

    /// Reads while input is wanted and the socket may hold some, answering
    /// as it goes; the replies of each read go out in one write.
    private func readAvailable() {
        guard let server else { return }
        repeat {
            corked = true
            while wantsInput {
                let count: Int
                do {
                    count = try fd.read(into: server.readBuffer)
                } catch  where error.errno == .resourceTemporarilyUnavailable {
                    unreadInput = false
                    break
                } catch {
                    logger.debug("\(description): \(error)")
                    close()
                    return
                }
                if count == 0 {
                    inputEnded = true
                    unreadInput = false
                    break
                }
                framer.append(UnsafeRawBufferPointer(rebasing: server.readBuffer[..<count]))
                dispatchWaiting()
                // A short read took everything there was: no second read just to
                // see EAGAIN, unless the peer's end of input is still to be read.
                if count < server.readBuffer.count && !peerShutDown {
                    unreadInput = false
                    break
                }
            }
            dispatchWaiting()
            corked = false
            flush()
            // Reading stopped while input was not wanted (too much output
            // unread, or a message's worth of calls waiting) and the flush
            // made room: no edge will come for what is already there.
        } while unreadInput && wantsInput
    }

    /// Answers calls already received, the replies written as one batch.
    private func serveInput() {
        corked = true
        dispatchWaiting()
        corked = false
        flush()
        // Input held back in the socket while it was not wanted.
        if unreadInput && wantsInput { readAvailable() }
    }

    /// Hands received calls to the server, one at a time, while none is being
    /// answered and the peer keeps up with the replies.
    private func dispatchWaiting() {
        guard !dispatching else { return }
        dispatching = true
        defer { dispatching = false }
        var exhausted = false
        var answered = 0
        let turnEnds = Self.processTime() + Self.turnSeconds
        // Loaded once per batch, not per call; the loop's time is its iteration's, the same for every call.
        let server = self.server
        let iterationTime = loop.monotonicNow
        while activeCall == nil, !isClosed, !closeWhenFlushed, !isOverOutputLimit {
            // Reading the clock (vDSO) costs nanoseconds against microseconds per call.
            if answered > 0 && Self.processTime() > turnEnds {
                // More may be waiting: write what is ready, go on at the next iteration.
                scheduleResume()
                break
            }
            answered += 1
            let parsed: Result<VarlinkCall, WireDecodingError>
            do {
                guard
                    let next = try framer.nextMessage({ bytes in
                        Result { () throws(WireDecodingError) in try callReader.read(bytes) }
                    })
                else {
                    exhausted = true
                    break
                }
                parsed = next
            } catch {
                logger.warning("\(description) sent a message over \(limits.maximumMessageSize) bytes; disconnecting")
                let error = MethodError.invalidParameter(
                    VarlinkServiceError.InvalidParameter.wholeMessage,
                    "message exceeds \(limits.maximumMessageSize) bytes; the connection is closed")
                send { error.frame(into: &$0) }
                closeAfterFlush()
                return
            }
            let call: VarlinkCall
            switch parsed {
            case .success(let read):
                call = read
            case .failure(let error):
                let invalid = MethodError.invalid(error)
                send { invalid.frame(into: &$0) }
                continue
            }
            let request = VarlinkRequest(call: call, connection: self)
            activeCall = request
            lastActivity = iterationTime
            server?.dispatch(request)
        }
        // Half-closed and every call answered: finish once the replies are out.
        if inputEnded && exhausted && activeCall == nil && !isClosed { closeAfterFlush() }
    }

    /// Called by a request when its final reply was queued.
    func requestFinished(_ request: VarlinkRequest) {
        guard activeCall === request else { return }
        activeCall = nil
        // Finished inside the dispatch loop (the common, synchronous case): the loop goes on, and it
        // has set the time of this iteration already.
        if dispatching { return }
        lastActivity = loop.monotonicNow
        // Finished later (after a fetch): go on at the next iteration, so the
        // code that answered this call (perhaps many waiters in a row) is not
        // re-entered by the next one.
        scheduleResume()
    }

    /// CLOCK_MONOTONIC in seconds, read now (the loop's cached time stands still during a batch).
    private static func processTime() -> Double {
        SystemClock.monotonic.now()
    }

    private func scheduleResume() {
        guard !resumeScheduled else { return }
        resumeScheduled = true
        // Held until the next iteration, closed or not: it only delays the connection's end by one.
        loop.later { [self] in
            resumeScheduled = false
            if !isClosed { serveInput() }
        }
    }

    // MARK: Output

    /// Sends a reply that `write` appends, framed, to the output buffer.
    func send(writing write: (inout [UInt8]) -> Void) {
        guard !isClosed else { return }
        write(&output)
        if !corked || queuedBytes >= Self.batchWriteBytes { flush() }
    }

    /// Sends bytes already framed (an event encoded once for every
    /// subscriber). Nothing waiting (a subscriber that keeps up), they are
    /// written straight from the shared bytes and only what the socket does
    /// not take is copied: a fifth less CPU time per subscriber in a fan-out
    /// to 1,000 (docs/PERFORMANCE.md).
    func send(framed bytes: [UInt8]) {
        guard !isClosed else { return }
        guard !corked, !closeWhenFlushed, queuedBytes == 0 else {
            output += bytes
            if !corked { flush() }
            return
        }
        var written = 0
        do {
            written = try fd.write(bytes[...])
        } catch  where error.errno == .resourceTemporarilyUnavailable {
        } catch {
            logger.debug("\(description): \(error)")
            close()
            return
        }
        guard written < bytes.count else { return }
        output.append(contentsOf: bytes[written...])
        flush()
    }

    /// Writes what the peer takes now, then decides what to wait for.
    private func flush() {
        guard !isClosed else { return }
        while queuedBytes > 0 {
            let written: Int
            do {
                written = try fd.write(output[outputStart...])
            } catch  where error.errno == .resourceTemporarilyUnavailable {
                break
            } catch {
                logger.debug("\(description): \(error)")
                close()
                return
            }
            outputStart += written
        }
        if queuedBytes == 0 {
            // Keep a small buffer for the next replies; give back what a burst
            // or a snapshot grew, so a thousand idle subscribers do not each
            // hold one (and the freed block is reused, warm, by the next client).
            if output.capacity > 8 * 1024 { output = [] } else { output.removeAll(keepingCapacity: true) }
            outputStart = 0
            if closeWhenFlushed {
                close()
                return
            }
        } else if outputStart >= 64 * 1024, let lastEnd = output[..<outputStart].lastIndex(of: 0) {
            // Drop the messages already written (whole ones only: see dropAfterFinal).
            output.removeSubrange(...lastEnd)
            outputStart -= lastEnd + 1
        }
        updateSlowTimer()
        updateInterest()
    }

    /// Which events to wait for: input when wanted, output while some is queued.
    private func updateInterest() {
        guard !isClosed else { return }
        var events: IOEvents = .edgeTriggered
        if wantsInput { events.formUnion([.readable, .readHangUp]) }
        if queuedBytes > 0 { events.insert(.writable) }
        guard events != watchedEvents else { return }
        watchedEvents = events
        source?.setEvents(events)
    }

    /// Starts the clock while the peer leaves too much unread (or the last
    /// words of a dropped connection), stops it when it catches up.
    private func updateSlowTimer() {
        let stalled = isOverOutputLimit || (closeWhenFlushed && queuedBytes > 0)
        guard stalled != slowTimerArmed else { return }
        slowTimerArmed = stalled
        if !stalled {
            slowTimer?.disarm()
            return
        }
        if slowTimer == nil {
            slowTimer = try? loop.timer(
                accuracy: max(0.1, limits.slowClientTimeout / 10), name: "varlink client \(id) slow"
            ) { [unowned self] in
                slowClientTimedOut()
            }
        }
        guard let slowTimer else {
            // No timer (out of memory): do not keep a peer that is not reading.
            close()
            return
        }
        slowTimer.arm(after: limits.slowClientTimeout)
    }

    private func slowClientTimedOut() {
        guard !isClosed, slowTimerArmed else { return }
        logger.notice(
            "\(description) left \(queuedBytes) bytes unread for \(Int(limits.slowClientTimeout)) s ([Socket] SlowClientTimeoutSec=); disconnected"
        )
        close()
    }

    private func checkIdle() {
        guard !isClosed, let idleTimer else { return }
        let now = loop.monotonicNow
        if activeCall != nil || (closeWhenFlushed && queuedBytes > 0) {
            // A call in flight or a subscription: not idle, look again later.
            // Nor are last words being written (a dropped subscriber's
            // SubscriberTooSlow): the slow-client clock alone ends those.
            if closeWhenFlushed {
                logger.debug(
                    "\(description) idle for \(Int(limits.idleTimeout)) s while its last words are unread; left to [Socket] SlowClientTimeoutSec="
                )
            }
            idleTimer.arm(at: now + limits.idleTimeout)
        } else if now >= lastActivity + limits.idleTimeout {
            logger.debug("\(description) idle for \(Int(limits.idleTimeout)) s; closed")
            close()
        } else {
            idleTimer.arm(at: lastActivity + limits.idleTimeout)
        }
    }

    /// Drops a peer that stopped reading: discards every message it has not
    /// started to receive, queues `error` after the one it is in the middle
    /// of (if any), and closes once that is written or the peer stays silent
    /// for `slowClientTimeout`.
    func dropAfterFinal(_ error: MethodError) {
        guard !isClosed else { return }
        let atMessageBoundary = outputStart == 0 || output[outputStart - 1] == 0
        if !atMessageBoundary, let end = output[outputStart...].firstIndex(of: 0) {
            output.removeSubrange((end + 1)...)
        } else {
            output.removeSubrange(outputStart...)
        }
        closeWhenFlushed = true
        error.frame(into: &output)
        // The error gets a whole SlowClientTimeoutSec= of its own: the clock
        // started by the backlog just discarded would close the connection
        // before a peer that does read got to it.
        slowTimer?.disarm()
        slowTimerArmed = false
        flush()
        updateSlowTimer()
    }

    /// Stops reading and closes once everything queued is written.
    func closeAfterFlush() {
        closeWhenFlushed = true
        if queuedBytes == 0 && !corked { close() } else if !corked { flush() }
    }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        source?.cancel()
        source = nil
        idleTimer = nil
        slowTimer = nil
        fd.close()
        output = []
        outputStart = 0
        let active = activeCall
        activeCall = nil
        active?.connectionClosed()
        server?.connectionClosed(self)
    }
}

/// A call being answered. Replies go to its connection in order; the last
/// reply (or the error) frees the connection for the next call. A oneway
/// call is answered the same way and nothing is sent.
public final class VarlinkRequest {
    public let call: VarlinkCall
    /// Held strongly while the call runs, and let go when it finishes or the
    /// connection closes: the connection holds its active call, so this is a
    /// cycle only while the call is in flight, and every unfinished call is
    /// its connection's active one, which `close()` lets go of too. A weak
    /// reference here cost a load of it per call and slow retains of the
    /// connection (a side table) everywhere.
    public private(set) var connection: VarlinkConnection?
    public private(set) var isFinished = false
    /// Called once if the client goes away before the call finished.
    public var onCancel: (() -> Void)?

    init(call: VarlinkCall, connection: VarlinkConnection) {
        self.call = call
        self.connection = connection
    }

    /// The final reply, its typed parameters encoded straight into the connection's output.
    public func reply<Parameters: Encodable>(encoding parameters: Parameters) {
        reply { VarlinkFramer.frameReply(parameters, into: &$0) }
    }

    /// The final reply, appended by `write` to the connection's output as a
    /// whole framed message (a reply kept encoded, as GetStatus's is).
    public func reply(writing write: (inout [UInt8]) -> Void) {
        guard !isFinished else { return }
        isFinished = true
        guard let connection else { return }
        self.connection = nil
        if !call.oneway { connection.send(writing: write) }
        connection.requestFinished(self)
    }

    /// The final reply, as an error.
    public func fail(_ error: MethodError) {
        reply { error.frame(into: &$0) }
    }

    /// One more reply of a streaming call, appended by `write` to the
    /// connection's output as a whole framed message with `continues` (the
    /// Subscribe snapshot).
    public func stream(writing write: (inout [UInt8]) -> Void) {
        guard !isFinished, !call.oneway, let connection else { return }
        connection.send(writing: write)
    }

    /// A further reply already framed, shared by every subscriber (an event).
    public func stream(framed bytes: [UInt8]) {
        guard !isFinished, !call.oneway, let connection else { return }
        connection.send(framed: bytes)
    }

    /// Ends a streaming call whose client stopped reading: a last error, best effort, then disconnect.
    public func abort(_ error: MethodError) {
        guard !isFinished, let connection else { return }
        isFinished = true
        self.connection = nil
        connection.dropAfterFinal(error)
    }

    func connectionClosed() {
        connection = nil
        guard !isFinished else { return }
        isFinished = true
        let cancel = onCancel
        onCancel = nil
        cancel?()
    }
}
