/// One netlink message (struct nlmsghdr and its payload), and the one request
/// raind sends: a dump of all routes. Pure byte handling; no I/O.
struct NetlinkMessage: Equatable {
    var type: UInt16
    var flags: UInt16
    var sequence: UInt32
    var payload: ArraySlice<UInt8>

    /// <linux/netlink.h> and <linux/rtnetlink.h> constants.
    enum Constant {
        static let headerSize = 16
        static let typeError: UInt16 = 2  // NLMSG_ERROR
        static let typeDone: UInt16 = 3  // NLMSG_DONE
        static let typeNewRoute: UInt16 = 24  // RTM_NEWROUTE
        static let typeGetRoute: UInt16 = 26  // RTM_GETROUTE
        static let flagRequest: UInt16 = 0x1  // NLM_F_REQUEST
        static let flagDumpInterrupted: UInt16 = 0x10  // NLM_F_DUMP_INTR
        static let flagDump: UInt16 = 0x300  // NLM_F_ROOT | NLM_F_MATCH
    }

    /// The messages of one datagram; a truncated tail is dropped.
    static func parse(_ bytes: [UInt8]) -> [NetlinkMessage] {
        var messages: [NetlinkMessage] = []
        var offset = 0
        while offset + Constant.headerSize <= bytes.count {
            let length = Int(NetlinkRoute.uint32(bytes, at: offset))
            guard length >= Constant.headerSize, offset + length <= bytes.count else { break }
            messages.append(
                NetlinkMessage(
                    type: NetlinkRoute.uint16(bytes, at: offset + 4),
                    flags: NetlinkRoute.uint16(bytes, at: offset + 6),
                    sequence: NetlinkRoute.uint32(bytes, at: offset + 8),
                    payload: bytes[(offset + Constant.headerSize)..<(offset + length)]))
            offset += NetlinkRoute.align(length)
        }
        return messages
    }

    /// RTM_GETROUTE with NLM_F_DUMP for every address family (a zeroed struct rtmsg).
    static func routeDumpRequest(sequence: UInt32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Constant.headerSize + 12)
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt32(Constant.headerSize + 12), toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: Constant.typeGetRoute, toByteOffset: 4, as: UInt16.self)
            raw.storeBytes(of: Constant.flagRequest | Constant.flagDump, toByteOffset: 6, as: UInt16.self)
            raw.storeBytes(of: sequence, toByteOffset: 8, as: UInt32.self)
        }
        return bytes
    }

    /// For NLMSG_ERROR and NLMSG_DONE: the errno the kernel reports (0 for none).
    var errorCode: Int32 {
        guard payload.count >= 4 else { return 0 }
        return -Int32(bitPattern: NetlinkRoute.uint32(Array(payload), at: 0))
    }
}
