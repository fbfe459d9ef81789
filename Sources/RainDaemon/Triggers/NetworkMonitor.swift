import RainSystem

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
    /// Whether a usable route exists, as of the last dump. The kernel answers
    /// the first dump within the initializer's recv(2) calls, so this is known
    /// when the initializer returns; should the answer ever lag, it reads true
    /// (never "offline" without evidence) and `onChange` reports the difference.
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

    private var serviceSlots: [BusSlot] = []
    /// Route dumps made so far (for tests and debugging).
    private(set) var dumpCount = 0

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
        events = try NetlinkSocket(
            groups: NetlinkSocket.Constant.groupLink
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

    // MARK: Network managers

    /// Also re-reads the routes when NetworkManager's state (`StateChanged`) or
    /// systemd-networkd's `OperationalState` changes, where they run. The
    /// routes stay the judge; these only say "look again" sooner, e.g. when a
    /// manager finishes configuring a link. Without them nothing is lost.
    /// `checkSender: false` accepts the signals from anyone (tests).
    public func watchNetworkServices(on bus: BusConnection, checkSender: Bool = true) throws(BusError) {
        let networkManager = BusMatch(
            sender: checkSender ? "org.freedesktop.NetworkManager" : nil, path: "/org/freedesktop/NetworkManager",
            interface: "org.freedesktop.NetworkManager", member: "StateChanged")
        let networkd = BusMatch.propertiesChanged(
            sender: checkSender ? "org.freedesktop.network1" : nil, path: "/org/freedesktop/network1",
            interface: "org.freedesktop.network1.Manager")
        for match in [networkManager, networkd] {
            serviceSlots.append(
                try bus.subscribe(
                    match,
                    installed: { [weak self] error in
                        guard let error else { return }
                        self?.logger.debug(
                            "not watching \(match.sender ?? match.path ?? "a network service"): \(error)")
                    }
                ) { [weak self] message in
                    self?.logger.debug("\(message.what) from a network manager; re-reading the routes")
                    self?.scheduleDump()
                })
        }
    }

    // MARK: Changes

    private func readEvents() {
        var changed = false
        while true {
            do throws(SystemError) {
                guard try events.receive(into: &buffer) != nil else { break }
                changed = true
            } catch let error where error.errno == .noBufferSpace {
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
        dumpCount += 1
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
                    if code != 0 {
                        logger.warning(
                            "the kernel refused the route dump: \(SystemError("RTM_GETROUTE", errno: Errno(rawValue: code)))"
                        )
                    }
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
