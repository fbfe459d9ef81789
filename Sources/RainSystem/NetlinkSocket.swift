import CSocket
import Glibc

/// A NETLINK_ROUTE socket (AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK),
/// bound to the given multicast groups. Owns its descriptor.
public final class NetlinkSocket {
    /// <linux/netlink.h> and <linux/rtnetlink.h> constants, which Swift's Glibc module does not export.
    public enum Constant {
        static let netlinkRoute: Int32 = 0  // NETLINK_ROUTE
        public static let groupLink: UInt32 = 0x1  // RTMGRP_LINK
        public static let groupIPv4Address: UInt32 = 0x10  // RTMGRP_IPV4_IFADDR
        public static let groupIPv4Route: UInt32 = 0x40  // RTMGRP_IPV4_ROUTE
        public static let groupIPv6Address: UInt32 = 0x100  // RTMGRP_IPV6_IFADDR
        public static let groupIPv6Route: UInt32 = 0x400  // RTMGRP_IPV6_ROUTE
    }

    public let descriptor: FileDescriptor

    /// socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE)
    /// and bind(2) to `groups`, letting the kernel pick the port id.
    public init(groups: UInt32) throws(SystemError) {
        let type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        descriptor = FileDescriptor(
            taking: try valueOrError("socket", subject: "AF_NETLINK") {
                SystemCall.socket(AF_NETLINK, type, Constant.netlinkRoute)
            })
        // struct sockaddr_nl { sa_family_t nl_family; unsigned short nl_pad; __u32 nl_pid; __u32 nl_groups; }
        var address = sockaddr_storage()
        withUnsafeMutableBytes(of: &address) { raw in
            raw.storeBytes(of: sa_family_t(AF_NETLINK), toByteOffset: 0, as: sa_family_t.self)
            raw.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
            raw.storeBytes(of: groups, toByteOffset: 8, as: UInt32.self)
        }
        let fd = descriptor.rawValue
        try withUnsafePointer(to: &address) { pointer throws(SystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemError) in
                try nothingOrError("bind", subject: "AF_NETLINK groups \(groups)") { SystemCall.bind(fd, address, 12) }
            }
        }
    }

    /// Sends one request to the kernel (send(2) on the bound socket goes to port 0).
    public func send(_ request: [UInt8]) throws(SystemError) {
        try request.withUnsafeBytes { raw in
            Result { () throws(SystemError) in
                try nothingOrError("send", subject: "netlink") {
                    SystemCall.send(descriptor.rawValue, raw.baseAddress, raw.count, 0)
                }
            }
        }.get()
    }

    /// Receives one datagram into `buffer` (recv(2) with MSG_TRUNC); nil when
    /// none is waiting (EAGAIN). A datagram larger than the buffer is an
    /// error (EMSGSIZE), never half read.
    public func receive(into buffer: inout [UInt8]) throws(SystemError) -> Int? {
        let received = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemError) -> Int in
                try valueOrError("recv", subject: "netlink") {
                    SystemCall.recv(descriptor.rawValue, raw.baseAddress, raw.count, Int32(MSG_TRUNC))
                }
            }
        }
        do throws(SystemError) {
            let n = try received.get()
            if n > buffer.count { throw SystemError("recv", errno: .messageTooLong, subject: "netlink") }
            return n
        } catch  where error.errno == .resourceTemporarilyUnavailable {
            return nil
        }
    }
}
