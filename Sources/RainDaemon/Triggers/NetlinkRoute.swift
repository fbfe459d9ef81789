/// One route from an rtnetlink dump (RTM_NEWROUTE), with what decides
/// whether it makes the network usable. Parsed from raw bytes; no I/O.
struct NetlinkRoute: Equatable {
    struct Nexthop: Equatable {
        var interface: Int32
        /// RTNH_F_* flags.
        var flags: UInt32
    }

    var family: UInt8
    /// The destination address; empty for a default route.
    var destination: [UInt8]
    var prefixLength: UInt8
    var table: UInt32
    /// RTN_* route type.
    var type: UInt8
    /// Where packets go; empty when the route names a nexthop object (RTA_NH_ID).
    var nexthops: [Nexthop]

    /// <linux/rtnetlink.h> constants.
    enum Constant {
        static let familyIPv4: UInt8 = 2  // AF_INET
        static let familyIPv6: UInt8 = 10  // AF_INET6
        static let tableMain: UInt32 = 254  // RT_TABLE_MAIN
        static let typeUnicast: UInt8 = 1  // RTN_UNICAST
        static let nexthopDead: UInt32 = 0x1  // RTNH_F_DEAD
        static let nexthopLinkDown: UInt32 = 0x10  // RTNH_F_LINKDOWN
        static let attributeDestination: UInt16 = 1  // RTA_DST
        static let attributeOutputInterface: UInt16 = 4  // RTA_OIF
        static let attributeMultipath: UInt16 = 9  // RTA_MULTIPATH
        static let attributeTable: UInt16 = 15  // RTA_TABLE
        /// The loopback device's index in every network namespace (LOOPBACK_IFINDEX).
        static let loopbackInterface: Int32 = 1
    }

    /// Whether this route lets raind reach something beyond this machine.
    ///
    /// "Usable" means any unicast route in the main table through an interface
    /// other than loopback whose link is up, to anything but a link-local,
    /// loopback or multicast destination. A default route is not required: a
    /// host reached through one specific route (a test host in a network
    /// namespace, a site proxy on a private network) counts as online; whether
    /// the provider itself answers is learnt from the requests.
    var isUsable: Bool {
        guard family == Constant.familyIPv4 || family == Constant.familyIPv6,
            table == Constant.tableMain, type == Constant.typeUnicast,
            !isLocalDestination
        else { return false }
        if nexthops.isEmpty { return true }  // a nexthop object: the kernel vouches for it
        return nexthops.contains { hop in
            hop.interface != Constant.loopbackInterface
                && hop.flags & (Constant.nexthopDead | Constant.nexthopLinkDown) == 0
        }
    }

    /// Link-local, loopback or multicast destinations never leave the link.
    private var isLocalDestination: Bool {
        guard let first = destination.first, prefixLength > 0 else { return false }
        if family == Constant.familyIPv4 {
            return first == 127
                || (first == 169 && destination.count > 1 && destination[1] == 254 && prefixLength >= 16)
        }
        if first == 0xff { return true }  // ff00::/8 multicast
        if first == 0xfe, destination.count > 1, destination[1] & 0xc0 == 0x80, prefixLength >= 10 { return true }
        return prefixLength == 128 && destination == [UInt8](repeating: 0, count: 15) + [1]  // ::1
    }

    /// Parses the payload of an RTM_NEWROUTE message (struct rtmsg, then rtattrs);
    /// nil when it is too short to be one.
    init?(payload: ArraySlice<UInt8>) {
        let bytes = Array(payload)
        // struct rtmsg: family, dst_len, src_len, tos, table, protocol, scope, type (u8 each), flags (u32).
        guard bytes.count >= 12 else { return nil }
        family = bytes[0]
        prefixLength = bytes[1]
        table = UInt32(bytes[4])
        type = bytes[7]
        let rtmFlags = Self.uint32(bytes, at: 8)
        destination = []
        nexthops = []
        var outputInterface: Int32?
        var multipath: [Nexthop]?
        for (kind, value) in Self.attributes(bytes, from: 12) {
            switch kind {
            case Constant.attributeDestination: destination = Array(value)
            case Constant.attributeOutputInterface where value.count >= 4:
                outputInterface = Int32(bitPattern: Self.uint32(bytes, at: value.startIndex))
            case Constant.attributeTable where value.count >= 4:
                table = Self.uint32(bytes, at: value.startIndex)
            case Constant.attributeMultipath: multipath = Self.nexthops(bytes, in: value)
            default: break
            }
        }
        if let multipath {
            nexthops = multipath
        } else if let outputInterface {
            // A single-path route carries its nexthop's RTNH_F_* flags in rtm_flags.
            nexthops = [Nexthop(interface: outputInterface, flags: rtmFlags)]
        }
    }

    /// struct rtnexthop { u16 len; u8 flags; u8 hops; s32 ifindex; } followed by attributes, repeated.
    private static func nexthops(_ bytes: [UInt8], in range: ArraySlice<UInt8>) -> [Nexthop] {
        var hops: [Nexthop] = []
        var offset = range.startIndex
        while offset + 8 <= range.endIndex {
            let length = Int(uint16(bytes, at: offset))
            guard length >= 8, offset + length <= range.endIndex else { break }
            hops.append(
                Nexthop(interface: Int32(bitPattern: uint32(bytes, at: offset + 4)), flags: UInt32(bytes[offset + 2])))
            offset += align(length)
        }
        return hops
    }

    /// The (type, value) pairs of a run of struct rtattr { u16 len; u16 type; }.
    static func attributes(_ bytes: [UInt8], from start: Int) -> [(UInt16, ArraySlice<UInt8>)] {
        var result: [(UInt16, ArraySlice<UInt8>)] = []
        var offset = start
        while offset + 4 <= bytes.count {
            let length = Int(uint16(bytes, at: offset))
            guard length >= 4, offset + length <= bytes.count else { break }
            // NLA_F_NESTED and NLA_F_NET_BYTEORDER live in the top bits of the type.
            result.append((uint16(bytes, at: offset + 2) & 0x3fff, bytes[(offset + 4)..<(offset + length)]))
            offset += align(length)
        }
        return result
    }

    static func align(_ length: Int) -> Int { (length + 3) & ~3 }

    /// Netlink uses host byte order.
    static func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt16.self) }
    }

    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    }
}
