import CSocket
import Glibc

/// An epoll instance of raind's own (`epoll(7)`): descriptors added with a
/// number each, and the ready ones read back with their numbers. The daemon
/// watches it on its event loop, so that many sockets ready at once are
/// handled in one turn of the loop (`IOGroup`).
public final class Epoll {
    /// One ready descriptor: what it is ready for (epoll's event bits) and
    /// the number it was added with.
    public struct Ready: Sendable {
        public let events: UInt32
        public let data: UInt64
    }

    public let descriptor: FileDescriptor

    /// A new instance, closed on exec (`epoll_create1(EPOLL_CLOEXEC)`).
    public init() throws(SystemError) {
        descriptor = FileDescriptor(taking: try valueOrError("epoll_create1") { SystemCall.epollCreate() })
    }

    /// Starts watching `fd` for `events` (epoll's bits, `EPOLLET` included), reported with `data`.
    public func add(_ fd: Int32, events: UInt32, data: UInt64) throws(SystemError) {
        try control(Int32(RAIND_EPOLL_ADD), fd, events, data)
    }

    /// Changes what `fd` is watched for.
    public func modify(_ fd: Int32, events: UInt32, data: UInt64) throws(SystemError) {
        try control(Int32(RAIND_EPOLL_MODIFY), fd, events, data)
    }

    /// Stops watching `fd`. A descriptor already closed is no longer watched
    /// anyway: its EBADF is no error here.
    public func remove(_ fd: Int32) {
        try? control(Int32(RAIND_EPOLL_REMOVE), fd, 0, 0)
    }

    private func control(_ operation: Int32, _ fd: Int32, _ events: UInt32, _ data: UInt64) throws(SystemError) {
        try nothingOrError("epoll_ctl", subject: "fd \(fd)") {
            SystemCall.epollControl(descriptor.rawValue, operation, fd, events, data)
        }
    }

    /// The descriptors ready now, at most 64, without waiting.
    public func ready() throws(SystemError) -> [Ready] {
        try withUnsafeTemporaryAllocation(of: raind_ready.self, capacity: 64) { buffer throws(SystemError) -> [Ready] in
            // Its one element type is a C struct of two integers: the allocation has room for 64.
            let base = buffer.baseAddress!
            let count = try valueOrError("epoll_wait") { SystemCall.epollWait(descriptor.rawValue, base, 64, 0) }
            return (0..<Int(count)).map { Ready(events: base[$0].events, data: base[$0].data) }
        }
    }
}
