import CSocket
import Glibc

/// The credentials of a socket's peer (SO_PEERCRED, SO_PEERGROUPS).
public struct PeerCredentials: Equatable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    /// Supplementary groups; empty where the kernel does not tell.
    public var groups: [UInt32]
}

/// Unix stream sockets, always SOCK_CLOEXEC | SOCK_NONBLOCK.
public enum UnixSocket {
    static func address(_ path: String) throws(SystemError) -> (sockaddr_un, socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw SystemError("socket path", errno: .fileNameTooLong, subject: path)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        return (address, length)
    }

    /// A listening socket bound at `path` with `mode` (`socket(2)`, `bind(2)`, `listen(2)`).
    public static func listen(path: String, mode: mode_t, backlog: Int32 = 128) throws(SystemError) -> FileDescriptor {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let fd = FileDescriptor(taking: try valueOrError("socket") { SystemCall.socket(AF_UNIX, type, 0) })
        var (address, length) = try self.address(path)
        // Bind with a restrictive umask so there is no moment the socket is open to others.
        let oldMask = SystemCall.umask(~mode & 0o777)
        let bound = Result { () throws(SystemError) in
            try withUnsafePointer(to: &address) { pointer throws(SystemError) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemError) in
                    try nothingOrError("bind", subject: path) { SystemCall.bind(fd.rawValue, address, length) }
                }
            }
        }
        _ = SystemCall.umask(oldMask)
        try bound.get()
        _ = SystemCall.chmod(path, mode)
        try nothingOrError("listen", subject: path) { SystemCall.listen(fd.rawValue, backlog) }
        return fd
    }

    /// Connects to `path` (`connect(2)`): a blocking socket, for short-lived
    /// clients and for probing whether a raind answers there. EINTR is not
    /// retried: the connection goes on after the signal, and connecting
    /// again would only say EALREADY.
    public static func connect(path: String) throws(SystemError) -> FileDescriptor {
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = FileDescriptor(taking: try valueOrError("socket") { SystemCall.socket(AF_UNIX, flags, 0) })
        var (address, length) = try self.address(path)
        try withUnsafePointer(to: &address) { pointer throws(SystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemError) in
                try nothingOrError("connect", subject: path, retryOnInterrupt: false) {
                    SystemCall.connect(fd.rawValue, address, length)
                }
            }
        }
        return fd
    }

    /// Accepts one connection (`accept4(2)`, non-blocking and close-on-exec);
    /// nil when none is waiting, or when the one waiting gave up.
    public static func accept(_ listener: FileDescriptor) throws(SystemError) -> FileDescriptor? {
        do throws(SystemError) {
            return FileDescriptor(
                taking: try valueOrError("accept4") { SystemCall.acceptNonBlocking(listener.rawValue) })
        } catch  where error.errno == .resourceTemporarilyUnavailable || error.errno == .connectionAbort {
            return nil
        }
    }

    /// Who is at the other end (SO_PEERCRED, and SO_PEERGROUPS where the
    /// kernel has it: empty groups otherwise).
    public static func peerCredentials(_ fd: FileDescriptor) throws(SystemError) -> PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        try nothingOrError("getsockopt(SO_PEERCRED)") { SystemCall.peerCredentials(fd.rawValue, &pid, &uid, &gid) }
        var groups = [UInt32](repeating: 0, count: 256)
        var groupsLength = socklen_t(groups.count * MemoryLayout<UInt32>.size)
        let ok = groups.withUnsafeMutableBytes {
            SystemCall.getsockopt(fd.rawValue, SOL_SOCKET, SO_PEERGROUPS, $0.baseAddress, &groupsLength)
        }
        let count = ok == 0 ? Int(groupsLength) / MemoryLayout<UInt32>.size : 0
        return PeerCredentials(pid: pid, uid: uid, gid: gid, groups: Array(groups.prefix(count)))
    }

    /// Whether something accepts connections at `path` right now.
    public static func isAnswering(path: String) -> Bool {
        (try? connect(path: path)) != nil
    }
}
