import RainSystem

/// Many descriptors behind one source of the event loop: an `Epoll` of
/// their own, which the loop watches, and the descriptors ready when it is
/// handled in that one turn. sd-event dispatches one source per turn and
/// asks epoll again before the next, so with a source of its own for each
/// of 64 busy clients, raind made an `epoll_wait` call per reply
/// (docs/PERFORMANCE.md, "Varlink calls").
///
/// A member is handled as an `EventSource` is: its handler runs with the
/// events epoll reported (edge-triggered when asked), may cancel its own or
/// another member (a member cancelled earlier in a turn is not handled in
/// it), and goes when `cancel()` is called or the member is released.
///
/// A turn ends once `turnSeconds` have passed (by `clock`), however many
/// members are ready: the loop's timers, signals and listener get their
/// turn, and the members already reported are handled at the next one.
public final class IOGroup {
    private let epoll: Epoll
    private unowned let loop: EventLoop
    private var source: EventSource?
    /// Each member's handler, by the number epoll reports it with; numbers are never reused.
    private var handlers: [UInt64: (IOEvents) -> Void] = [:]
    private var nextNumber: UInt64 = 0
    private let turnSeconds: Double
    private let clock: () -> Double
    /// Members epoll reported and a turn that ran out left for the next.
    private var waiting: ArraySlice<Epoll.Ready> = []
    private var resumeScheduled = false

    public init(
        loop: EventLoop, name: String, turnSeconds: Double = 0.002,
        clock: @escaping () -> Double = { SystemClock.monotonic.now() }
    ) throws(SystemError) {
        epoll = try Epoll()
        self.loop = loop
        self.turnSeconds = turnSeconds
        self.clock = clock
        source = try loop.watch(fd: epoll.descriptor.rawValue, events: .readable, name: name) { [weak self] _ in
            self?.handleReady()
        }
    }

    /// Calls `handler` with the epoll events each time `fd` is ready for `events`.
    public func watch(fd: Int32, events: IOEvents, handler: @escaping (IOEvents) -> Void) throws(SystemError) -> Member
    {
        let number = nextNumber
        try epoll.add(fd, events: events.rawValue, data: number)
        nextNumber += 1
        handlers[number] = handler
        return Member(group: self, fd: fd, number: number)
    }

    /// The members left from the turn before, else every member ready now
    /// (at most 64), until the turn's time is up.
    private func handleReady() {
        if waiting.isEmpty {
            guard let ready = try? epoll.ready() else { return }
            waiting = ready[...]
        }
        let turnEnds = clock() + turnSeconds
        while let entry = waiting.popFirst() {
            if let handler = handlers[entry.data] { handler(IOEvents(rawValue: entry.events)) }
            if !waiting.isEmpty && clock() >= turnEnds {
                // Edge-triggered members are not reported again: they wait here.
                scheduleResume()
                return
            }
        }
    }

    private func scheduleResume() {
        guard !resumeScheduled else { return }
        resumeScheduled = true
        loop.later { [weak self] in
            guard let self else { return }
            resumeScheduled = false
            handleReady()
        }
    }

    /// A descriptor watched by the group.
    public final class Member {
        private weak var group: IOGroup?
        private let fd: Int32
        private let number: UInt64
        private var isCancelled = false

        fileprivate init(group: IOGroup, fd: Int32, number: UInt64) {
            self.group = group
            self.fd = fd
            self.number = number
        }

        deinit { cancel() }

        /// Changes the epoll events the descriptor is watched for.
        public func setEvents(_ events: IOEvents) {
            guard !isCancelled, let group else { return }
            try? group.epoll.modify(fd, events: events.rawValue, data: number)
        }

        /// Stops watching; the handler is not called again. Call it before
        /// closing the descriptor, whose number another may then take.
        public func cancel() {
            guard !isCancelled else { return }
            isCancelled = true
            guard let group else { return }
            group.epoll.remove(fd)
            group.handlers[number] = nil
        }
    }
}
