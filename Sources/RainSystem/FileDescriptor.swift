import Glibc

/// An owned file descriptor: closed exactly once, by its owner, when released.
public final class FileDescriptor {
    public private(set) var rawValue: Int32

    public init(taking rawValue: Int32) {
        self.rawValue = rawValue
    }

    deinit { close() }

    /// Opens `path` (`open(2)`, always with O_CLOEXEC), retrying on EINTR.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemError) -> FileDescriptor {
        FileDescriptor(
            taking: try valueOrError("open", subject: path) { SystemCall.open(path, flags | O_CLOEXEC, mode) })
    }

    /// The file's status (`fstat(2)`).
    public func status() throws(SystemError) -> stat {
        var info = stat()
        try nothingOrError("fstat") { SystemCall.fstat(rawValue, &info) }
        return info
    }

    /// Writes all of `bytes`, waiting as a blocking descriptor does (for
    /// files and blocking sockets; a non-blocking one throws EAGAIN).
    public func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            offset += try write(bytes[offset...])
        }
    }

    public var isOpen: Bool { rawValue >= 0 }

    /// Closes now (`close(2)`). EINTR is not retried: on Linux the descriptor
    /// is gone either way, and another thread may already have its number.
    public func close() {
        guard rawValue >= 0 else { return }
        let fd = rawValue
        rawValue = -1
        try? nothingOrError("close", retryOnInterrupt: false) { SystemCall.close(fd) }
    }

    /// Reads what is available into `buffer` (replacing its content); 0 means
    /// end of file (`read(2)`). EAGAIN is thrown like any other error; callers
    /// on non-blocking descriptors check it.
    public func read(into buffer: inout [UInt8], count: Int = 65536) throws(SystemError) -> Int {
        buffer.removeAll(keepingCapacity: true)
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) {
            scratch throws(SystemError) -> Int in
            let n = try valueOrError("read") { SystemCall.read(rawValue, scratch.baseAddress, count) }
            buffer.append(contentsOf: scratch[0..<n])
            return n
        }
    }

    /// Reads what is available into `buffer`; 0 means end of file (`read(2)`).
    /// EAGAIN is thrown like any other error.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try valueOrError("read") { SystemCall.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes as much as the descriptor takes now; returns how many bytes went
    /// out. A socket is written with `send(2)` and MSG_NOSIGNAL (a peer gone is
    /// EPIPE, not SIGPIPE); anything else with `write(2)`.
    public func write(_ bytes: ArraySlice<UInt8>) throws(SystemError) -> Int {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(SystemError) -> Int in
                do throws(SystemError) {
                    return try valueOrError("write") {
                        SystemCall.send(rawValue, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
                    }
                } catch  where error.errno == .notSocket {
                    return try valueOrError("write") { SystemCall.write(rawValue, raw.baseAddress, raw.count) }
                }
            }
        }.get()
    }

    /// Waits until the descriptor has something to read (or its peer hung up,
    /// or it failed: the next read says which), for at most `timeout` seconds
    /// (`poll(2)` with POLLIN); false when the time ran out first.
    ///
    /// A signal does not end the wait, nor make it longer: after EINTR the
    /// wait goes on for the time that remains, measured on CLOCK_MONOTONIC.
    public func waitUntilReadable(timeout: Double) throws(SystemError) -> Bool {
        let seconds = timeout.isNaN ? 0 : min(max(timeout, 0), 86_400)
        let deadline = SystemClock.monotonic.now() + seconds
        var entry = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        let ready = try valueOrError("poll") { () -> Int32 in
            let remaining = max(0, deadline - SystemClock.monotonic.now())
            // Rounded up, so the wait never ends a fraction of a millisecond early.
            return SystemCall.poll(&entry, Int32((remaining * 1000).rounded(.up)))
        }
        return ready > 0
    }

    /// Sets O_NONBLOCK, keeping the other status flags (`fcntl(2)` F_GETFL, F_SETFL).
    public func setNonBlocking() throws(SystemError) {
        let flags = try valueOrError("fcntl", subject: "F_GETFL") { SystemCall.getFlags(rawValue, F_GETFL) }
        try nothingOrError("fcntl", subject: "F_SETFL") { SystemCall.setFlags(rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Sets FD_CLOEXEC, so a program raind starts does not inherit the
    /// descriptor (`fcntl(2)` F_SETFD).
    public func setCloseOnExec() throws(SystemError) {
        try nothingOrError("fcntl", subject: "F_SETFD") { SystemCall.setFlags(rawValue, F_SETFD, FD_CLOEXEC) }
    }
}
