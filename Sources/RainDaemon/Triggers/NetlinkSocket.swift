// SOCK_* come from <sys/socket.h>, which the CShims module (through curl.h) owns in a clean
// build; importing it keeps them visible, as in UnixSocket.swift.
import CShims
import Glibc
import RainSystem

/// A NETLINK_ROUTE socket (AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK),
/// bound to the given multicast groups. Owns its descriptor.
final class NetlinkSocket {
    /// <linux/netlink.h> and <linux/rtnetlink.h> constants, which Swift's Glibc module does not export.
    enum Constant {
        static let netlinkRoute: Int32 = 0  // NETLINK_ROUTE
        static let groupLink: UInt32 = 0x1  // RTMGRP_LINK
        static let groupIPv4Address: UInt32 = 0x10  // RTMGRP_IPV4_IFADDR
        static let groupIPv4Route: UInt32 = 0x40  // RTMGRP_IPV4_ROUTE
        static let groupIPv6Address: UInt32 = 0x100  // RTMGRP_IPV6_IFADDR
        static let groupIPv6Route: UInt32 = 0x400  // RTMGRP_IPV6_ROUTE
    }

    let descriptor: FileDescriptor

    /// socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE)
    /// and bind(2) to `groups`, letting the kernel pick the port id.
    init(groups: UInt32) throws(SystemError) {
        let type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        descriptor = FileDescriptor(
            taking: try retryingOnInterrupt("socket", subject: "AF_NETLINK") {
                socket(AF_NETLINK, type, Constant.netlinkRoute)
            })
        // struct sockaddr_nl { sa_family_t nl_family; unsigned short nl_pad; __u32 nl_pid; __u32 nl_groups; }
        var address = sockaddr_storage()
        withUnsafeMutableBytes(of: &address) { raw in
            raw.storeBytes(of: sa_family_t(AF_NETLINK), toByteOffset: 0, as: sa_family_t.self)
            raw.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
            raw.storeBytes(of: groups, toByteOffset: 8, as: UInt32.self)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor.rawValue, $0, 12) }
        }
        guard bound == 0 else { throw SystemError("bind", subject: "AF_NETLINK groups \(groups)") }
    }

    /// Sends one request to the kernel (send(2) on the bound socket goes to port 0).
    func send(_ request: [UInt8]) throws(SystemError) {
        try retryingOnInterrupt("send", subject: "netlink") {
            request.withUnsafeBytes { Glibc.send(descriptor.rawValue, $0.baseAddress, $0.count, 0) }
        }
    }

    /// Receives one datagram into `buffer`; nil when none is waiting (EAGAIN).
    /// A datagram larger than the buffer is an error (EMSGSIZE), never half read.
    func receive(into buffer: inout [UInt8]) throws(SystemError) -> Int? {
        while true {
            let n = buffer.withUnsafeMutableBytes {
                recv(descriptor.rawValue, $0.baseAddress, $0.count, Int32(MSG_TRUNC))
            }
            if n > buffer.count { throw SystemError("recv", errno: EMSGSIZE, subject: "netlink") }
            if n >= 0 { return n }
            switch errno {
            case EINTR: continue
            case EAGAIN: return nil
            default: throw SystemError("recv", subject: "netlink")
            }
        }
    }
}
