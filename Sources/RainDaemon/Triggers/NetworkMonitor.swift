import Glibc

/// Tells whether the machine has a usable route, and when that changes, from
/// the kernel itself (rtnetlink), so it works without any network manager.
///
/// One netlink socket listens to link, address and route changes
/// (RTMGRP_LINK, RTMGRP_IPV4/IPV6_ROUTE, RTMGRP_IPV4/IPV6_IFADDR). A change
/// does not say much by itself (a link losing its carrier keeps its routes), so
/// each burst of changes is answered by dumping the routes (RTM_GETROUTE with
/// NLM_F_DUMP) on a second socket, `debounce` seconds after the first change,
/// and asking whether any of them is usable (see `NetlinkRoute.isUsable`: any
/// unicast route in the main table through a live non-loopback link counts,
/// not only a default route).
///
/// Everything runs on the loop; the kernel answers a dump from within
/// recv(2), so reading it never waits on another process.
public final class NetworkMonitor {
    /// Whether a usable route exists, as of the last dump. Known when the
    /// initializer returns.
    public private(set) var currentlyHasRoute = true

    private let loop: EventLoop
    private let debounce: Double
    private let logger: Logger
    private let onChange: (_ hasRoute: Bool) -> Void
    private let events: NetlinkSocket
    private let dumps: NetlinkSocket
    private var eventSource: EventSource?
    private var dumpSource: EventSource?
    private var debounceTimer: EventSource?
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    private var sequence: UInt32 = 0
    private var dumping = false
    /// A change arrived while a dump was under way: dump again after it.
    private var changedDuringDump = false
    private var usableSoFar = false

    /// Opens the netlink sockets, reads the routes once, and starts watching.
    /// `onChange` is called on the loop only when the answer changes, never for
    /// the first reading.
    public init(
        loop: EventLoop, debounce: Double = 0.2, logger: Logger,
        onChange: @escaping (_ hasRoute: Bool) -> Void
    ) throws(SystemError) {
        self.loop = loop
        self.debounce = debounce
        self.logger = logger
        self.onChange = onChange
        events = try NetlinkSocket(groups: NetlinkSocket.Constant.groupLink
            | NetlinkSocket.Constant.groupIPv4Route | NetlinkSocket.Constant.groupIPv6Route
            | NetlinkSocket.Constant.groupIPv4Address | NetlinkSocket.Constant.groupIPv6Address)
        dumps = try NetlinkSocket(groups: 0)
        eventSource = try loop.watch(fd: events.descriptor.rawValue, events: .readable) { [weak self] _ in
            self?.readEvents()
        }
        dumpSource = try loop.watch(fd: dumps.descriptor.rawValue, events: .readable) { [weak self] _ in
            self?.readDump(notify: true)
        }
        debounceTimer = try loop.timer(accuracy: min(0.05, debounce)) { [weak self] in
            self?.startDump(notify: true)
        }
        startDump(notify: false)
        logger.debug(currentlyHasRoute ? "a usable route exists" : "no usable route")
    }

    // MARK: Changes

    private func readEvents() {
        var changed = false
        while true {
            do throws(SystemError) {
                guard try events.receive(into: &buffer) != nil else { break }
                changed = true
            } catch let error where error.errno == ENOBUFS {
                // The kernel dropped notifications: something changed, but we do not know what.
                changed = true
            } catch {
                logger.warning("reading network changes failed (\(error)); re-reading the routes")
                changed = true
                break
            }
        }
        if changed { scheduleDump() }
    }

    /// Dumps `debounce` seconds after the first change of a burst, so a burst
    /// costs one dump; changes during a dump cause one more.
    private func scheduleDump() {
        if dumping {
            changedDuringDump = true
        } else if debounceTimer?.isArmed == false {
            debounceTimer?.arm(after: debounce)
        }
    }

    // MARK: Dumps

    private func startDump(notify: Bool) {
        sequence &+= 1
        dumping = true
        changedDuringDump = false
        usableSoFar = false
        do throws(SystemError) {
            try dumps.send(NetlinkMessage.routeDumpRequest(sequence: sequence))
        } catch {
            logger.warning("cannot ask the kernel for the routes (\(error)); trying again")
            dumping = false
            debounceTimer?.arm(after: max(debounce, 1))
            return
        }
        readDump(notify: notify)
    }

    private func readDump(notify: Bool) {
        while dumping {
            let count: Int?
            do throws(SystemError) {
                count = try dumps.receive(into: &buffer)
            } catch {
                logger.warning("reading the routes failed (\(error)); trying again")
                finishDump(complete: false, notify: notify)
                return
            }
            guard let count else { return }  // the rest arrives on the loop
            for message in NetlinkMessage.parse(Array(buffer[..<count])) where message.sequence == sequence {
                if message.flags & NetlinkMessage.Constant.flagDumpInterrupted != 0 { changedDuringDump = true }
                switch message.type {
                case NetlinkMessage.Constant.typeNewRoute:
                    if !usableSoFar, NetlinkRoute(payload: message.payload)?.isUsable == true { usableSoFar = true }
                case NetlinkMessage.Constant.typeDone:
                    finishDump(complete: true, notify: notify)
                case NetlinkMessage.Constant.typeError:
                    let code = message.errorCode
                    if code != 0 { logger.warning("the kernel refused the route dump: \(SystemError("RTM_GETROUTE", errno: code))") }
                    finishDump(complete: code == 0, notify: notify)
                default: break
                }
            }
        }
    }

    private func finishDump(complete: Bool, notify: Bool) {
        guard dumping else { return }
        dumping = false
        if complete { update(hasRoute: usableSoFar, notify: notify) }
        if changedDuringDump || !complete { scheduleDump() }
    }

    private func update(hasRoute: Bool, notify: Bool) {
        guard hasRoute != currentlyHasRoute else { return }
        currentlyHasRoute = hasRoute
        guard notify else { return }
        logger.info(hasRoute ? "network: a usable route appeared" : "network: no usable route left")
        onChange(hasRoute)
    }
}
