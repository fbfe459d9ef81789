import CSocket
import Glibc

/// Every raw C call RainSystem makes, and nothing else: the one place that
/// names Glibc's functions, so the rest of RainSystem reads as typed Swift
/// and a change of the C library touches one file. Each returns
/// what the C function returns, errno included; the typed wrappers of the
/// other files turn that into values and `SystemError`s through
/// `valueOrError(_:subject:retryOnInterrupt:_:)`.
enum SystemCall {
    static var errno: Int32 { Glibc.errno }

    static func setErrno(_ code: Int32) { Glibc.errno = code }

    /// `environ`'s `NAME=value` entries as names and values, split at the
    /// first `=` on the C string's bytes (an entry without one is left out).
    static func environment() -> [(name: String, value: String)] {
        var entries: [(name: String, value: String)] = []
        var count = 0
        while Glibc.environ[count] != nil { count += 1 }
        entries.reserveCapacity(count)
        var pointer = Glibc.environ
        while let entry = pointer.pointee {
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self), count: strlen(entry))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                entries.append(
                    (
                        String(decoding: UnsafeBufferPointer(rebasing: bytes[..<equals]), as: UTF8.self),
                        String(decoding: UnsafeBufferPointer(rebasing: bytes[(equals + 1)...]), as: UTF8.self)
                    ))
            }
            pointer += 1
        }
        return entries
    }

    static func getenv(_ name: String) -> String? {
        Glibc.getenv(name).map { String(cString: $0) }
    }

    static func strerror(_ code: Int32) -> String { String(cString: Glibc.strerror(code)) }

    // MARK: Descriptors

    static func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { Glibc.open(path, flags, mode) }
    static func close(_ fd: Int32) -> Int32 { Glibc.close(fd) }

    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Glibc.read(fd, buffer, count)
    }

    static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        Glibc.write(fd, buffer, count)
    }

    static func fstat(_ fd: Int32, _ info: inout stat) -> Int32 { Glibc.fstat(fd, &info) }
    static func fsync(_ fd: Int32) -> Int32 { Glibc.fsync(fd) }
    static func getFlags(_ fd: Int32, _ command: Int32) -> Int32 { Glibc.fcntl(fd, command) }

    static func setFlags(_ fd: Int32, _ command: Int32, _ flags: Int32) -> Int32 {
        Glibc.fcntl(fd, command, flags)
    }

    static func poll(_ fd: inout pollfd, _ milliseconds: Int32) -> Int32 { Glibc.poll(&fd, 1, milliseconds) }
    static func isatty(_ fd: Int32) -> Int32 { Glibc.isatty(fd) }
    static func fflushAll() { _ = Glibc.fflush(nil) }
    /// `ioctl(fd, TIOCGWINSZ)`'s column count; nil when it fails or says 0.
    static func terminalColumns(_ fd: Int32) -> Int? {
        var size = winsize()
        guard Glibc.ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    // MARK: Paths

    static func lstat(_ path: String, _ info: inout stat) -> Int32 { Glibc.lstat(path, &info) }
    static func access(_ path: String, _ mode: Int32) -> Int32 { Glibc.access(path, mode) }
    static func mkdir(_ path: String, _ mode: mode_t) -> Int32 { Glibc.mkdir(path, mode) }
    static func rename(_ from: String, _ to: String) -> Int32 { Glibc.rename(from, to) }
    static func unlink(_ path: String) -> Int32 { Glibc.unlink(path) }
    static func chmod(_ path: String, _ mode: mode_t) -> Int32 { Glibc.chmod(path, mode) }

    static func readlink(_ path: String, _ buffer: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        Glibc.readlink(path, buffer, count)
    }

    static func opendir(_ path: String) -> OpaquePointer? { Glibc.opendir(path) }
    static func readdir(_ directory: OpaquePointer) -> UnsafeMutablePointer<dirent>? { Glibc.readdir(directory) }
    static func closedir(_ directory: OpaquePointer) -> Int32 { Glibc.closedir(directory) }

    // MARK: Memory maps

    static func mmap(_ size: Int, _ protection: Int32, _ flags: Int32, _ fd: Int32) -> UnsafeMutableRawPointer? {
        Glibc.mmap(nil, size, protection, flags, fd, 0)
    }

    static func munmap(_ base: UnsafeMutableRawPointer, _ size: Int) -> Int32 { Glibc.munmap(base, size) }

    static func madvise(_ base: UnsafeMutableRawPointer, _ size: Int, _ advice: Int32) -> Int32 {
        Glibc.madvise(base, size, advice)
    }

    // MARK: Sockets

    static func socket(_ domain: Int32, _ type: Int32, _ proto: Int32) -> Int32 { Glibc.socket(domain, type, proto) }

    static func bind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Glibc.bind(fd, address, length)
    }

    static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Glibc.connect(fd, address, length)
    }

    static func listen(_ fd: Int32, _ backlog: Int32) -> Int32 { Glibc.listen(fd, backlog) }
    static func acceptNonBlocking(_ fd: Int32) -> Int32 { raind_accept_nonblocking(fd) }

    static func send(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        Glibc.send(fd, buffer, count, flags)
    }

    static func recv(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        Glibc.recv(fd, buffer, count, flags)
    }

    static func peerCredentials(
        _ fd: Int32, _ pid: inout Int32, _ uid: inout UInt32, _ gid: inout UInt32
    ) -> Int32 {
        raind_peer_credentials(fd, &pid, &uid, &gid)
    }

    static func epollCreate() -> Int32 { raind_epoll_create() }

    static func epollControl(_ epoll: Int32, _ operation: Int32, _ fd: Int32, _ events: UInt32, _ data: UInt64) -> Int32
    {
        raind_epoll_control(epoll, operation, fd, events, data)
    }

    static func epollWait(
        _ epoll: Int32, _ ready: UnsafeMutablePointer<raind_ready>, _ capacity: Int32, _ milliseconds: Int32
    ) -> Int32 {
        raind_epoll_wait(epoll, ready, capacity, milliseconds)
    }

    static func getsockopt(
        _ fd: Int32, _ level: Int32, _ name: Int32, _ value: UnsafeMutableRawPointer?, _ length: inout socklen_t
    ) -> Int32 {
        Glibc.getsockopt(fd, level, name, value, &length)
    }

    static func umask(_ mask: mode_t) -> mode_t { Glibc.umask(mask) }

    // MARK: Time

    static func clockGetTime(_ clock: clockid_t, _ spec: inout timespec) -> Int32 { Glibc.clock_gettime(clock, &spec) }

    static func nanosleep(_ request: inout timespec, _ remaining: inout timespec) -> Int32 {
        Glibc.nanosleep(&request, &remaining)
    }

    static func localtime(_ time: inout time_t, _ parts: inout tm) -> Bool { Glibc.localtime_r(&time, &parts) != nil }

    // MARK: Signals

    static func sigemptyset(_ set: inout sigset_t) -> Int32 { Glibc.sigemptyset(&set) }
    static func sigaddset(_ set: inout sigset_t, _ signal: Int32) -> Int32 { Glibc.sigaddset(&set, signal) }
    static func sigismember(_ set: inout sigset_t, _ signal: Int32) -> Int32 { Glibc.sigismember(&set, signal) }

    static func sigprocmask(_ how: Int32, _ set: inout sigset_t, _ old: inout sigset_t) -> Int32 {
        Glibc.sigprocmask(how, &set, &old)
    }

    // MARK: Process

    static func getuid() -> uid_t { Glibc.getuid() }
    static func geteuid() -> uid_t { Glibc.geteuid() }
    static func getpid() -> pid_t { Glibc.getpid() }

    static func getrlimit(_ resource: Int32, _ limit: inout rlimit) -> Int32 {
        Glibc.getrlimit(resource, &limit)
    }

    static func setrlimit(_ resource: Int32, _ limit: inout rlimit) -> Int32 {
        Glibc.setrlimit(resource, &limit)
    }
}
