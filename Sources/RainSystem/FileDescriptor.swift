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
            taking: try retryingOnInterrupt("open", subject: path) { Glibc.open(path, flags | O_CLOEXEC, mode) })
    }

    /// The file's status (`fstat(2)`).
    public func status() throws(SystemError) -> stat {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { throw SystemError("fstat") }
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

    /// Closes now. EINTR is not retried: on Linux the descriptor is gone either way.
    public func close() {
        guard rawValue >= 0 else { return }
        _ = Glibc.close(rawValue)
        rawValue = -1
    }

    /// Reads what is available into `buffer` (replacing its content); 0 means end of file.
    /// EAGAIN is thrown like any other error; callers on non-blocking descriptors check it.
    public func read(into buffer: inout [UInt8], count: Int = 65536) throws(SystemError) -> Int {
        buffer.removeAll(keepingCapacity: true)
        while true {
            let n = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { scratch -> Int in
                let n = Glibc.read(rawValue, scratch.baseAddress, count)
                if n > 0 { buffer.append(contentsOf: scratch[0..<n]) }
                return n
            }
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw SystemError("read")
        }
    }

    /// Reads what is available into `buffer`; 0 means end of file. EAGAIN is
    /// thrown like any other error.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        while true {
            let n = Glibc.read(rawValue, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw SystemError("read")
        }
    }

    /// Writes as much as the descriptor takes now; returns how many bytes went out.
    public func write(_ bytes: ArraySlice<UInt8>) throws(SystemError) -> Int {
        while true {
            let n = bytes.withUnsafeBytes { Glibc.send(rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n >= 0 { return n }
            if errno == EINTR { continue }
            if errno == ENOTSOCK {
                let m = bytes.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress, $0.count) }
                if m >= 0 { return m }
                if errno == EINTR { continue }
            }
            throw SystemError("write")
        }
    }
}
