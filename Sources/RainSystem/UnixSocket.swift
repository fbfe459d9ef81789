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
            throw SystemError("socket path", errno: ENAMETOOLONG, subject: path)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        return (address, length)
    }

    /// A listening socket bound at `path` with `mode`.
    public static func listen(path: String, mode: mode_t, backlog: Int32 = 128) throws(SystemError) -> FileDescriptor {
        let fd = FileDescriptor(
            taking: try retryingOnInterrupt("socket") {
                socket(
                    AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
                    0)
            })
        var (address, length) = try self.address(path)
        // Bind with a restrictive umask so there is no moment the socket is open to others.
        let oldMask = umask(~mode & 0o777)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd.rawValue, $0, length) }
        }
        umask(oldMask)
        guard bound == 0 else { throw SystemError("bind", subject: path) }
        _ = chmod(path, mode)
        guard Glibc.listen(fd.rawValue, backlog) == 0 else { throw SystemError("listen", subject: path) }
        return fd
    }

    /// Connects to `path`: a blocking socket, for short-lived clients and
    /// for probing whether a raind answers there.
    public static func connect(path: String) throws(SystemError) -> FileDescriptor {
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = FileDescriptor(taking: try retryingOnInterrupt("socket") { socket(AF_UNIX, flags, 0) })
        var (address, length) = try self.address(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd.rawValue, $0, length) }
        }
        guard result == 0 else { throw SystemError("connect", subject: path) }
        return fd
    }

    /// Accepts one connection; nil when none is waiting.
    public static func accept(_ listener: FileDescriptor) throws(SystemError) -> FileDescriptor? {
        while true {
            let fd = raind_accept_nonblocking(listener.rawValue)
            if fd >= 0 { return FileDescriptor(taking: fd) }
            switch errno {
            case EINTR: continue
            case EAGAIN, ECONNABORTED: return nil
            default: throw SystemError("accept4")
            }
        }
    }

    public static func peerCredentials(_ fd: FileDescriptor) throws(SystemError) -> PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        guard raind_peer_credentials(fd.rawValue, &pid, &uid, &gid) == 0 else {
            throw SystemError("getsockopt(SO_PEERCRED)")
        }
        var groups = [UInt32](repeating: 0, count: 256)
        var groupsLength = socklen_t(groups.count * MemoryLayout<UInt32>.size)
        let ok = groups.withUnsafeMutableBytes {
            getsockopt(fd.rawValue, SOL_SOCKET, SO_PEERGROUPS, $0.baseAddress, &groupsLength)
        }
        let count = ok == 0 ? Int(groupsLength) / MemoryLayout<UInt32>.size : 0
        return PeerCredentials(pid: pid, uid: uid, gid: gid, groups: Array(groups.prefix(count)))
    }

    /// Whether something accepts connections at `path` right now.
    public static func isAnswering(path: String) -> Bool {
        (try? connect(path: path)) != nil
    }
}
