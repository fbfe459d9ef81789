import RainCore
import RainDaemonCore
import RainSystem

/// Talking to the notification server: one call at a time on the session
/// bus (opened at the first notification), the server's ids kept so an
/// update replaces what it updates, the session's environment read for the
/// language, and what was shown recorded so a restart shows nothing again.
extension DesktopNotifier {
    func send(_ outgoing: Outgoing) {
        queue.append(outgoing)
        sendNext()
    }

    func sendNext() {
        if inFlight == nil && queue.isEmpty { environmentRead = false }
        guard inFlight == nil, !queue.isEmpty, availability == .usable else { return }
        let connection: BusConnection
        if let bus, bus.isOpen {
            connection = bus
        } else {
            do throws(BusError) {
                connection = try connect()
                bus = connection
            } catch {
                availability = .noBus
                dropQueue()
                logger.warning(
                    "no session bus (\(error)): desktop notifications are off until raind restarts or reloads")
                settled()
                return
            }
        }
        if case .notify = queue.first, !environmentRead {
            environmentRead = true
            if readSessionEnvironment(on: connection) { return }
        }
        let outgoing = queue.removeFirst()
        do throws(BusError) {
            switch outgoing {
            case .notify(let wording, let target):
                var notification = Localization.inLocale(of: sessionEnvironment, wording)
                // An earlier call in the queue may have told the id this one replaces.
                if notification.replaces == 0 { notification.replaces = shownID(of: target) }
                inFlight = try connection.call(
                    destination: Self.busName, path: Self.objectPath, interface: Self.interface, member: "Notify",
                    arguments: notification.arguments, timeout: Self.callTimeout,
                    read: { message throws(BusError) in try message.readUInt32() }
                ) { [weak self] result in
                    self?.notified(result, target: target)
                }
            case .close(let id):
                inFlight = try connection.call(
                    destination: Self.busName, path: Self.objectPath, interface: Self.interface,
                    member: "CloseNotification", arguments: [.uint32(id)], timeout: Self.callTimeout,
                    read: { _ throws(BusError) in () }
                ) { [weak self] result in
                    guard let self else { return }
                    self.inFlight = nil
                    if case .failure(let error) = result {
                        self.failed(error, Self.account(of: outgoing))
                    }
                    self.sendNext()
                    if self.inFlight == nil { self.settled() }
                }
            }
        } catch {
            if case .notify(_, let target) = outgoing {
                var next = record
                Self.forget(target, in: &next)
                update(next)
            }
            failed(error, Self.account(of: outgoing))
            sendNext()
        }
    }

    /// Asks the user manager for its environment, then goes on sending;
    /// false when the call could not even be sent.
    func readSessionEnvironment(on connection: BusConnection) -> Bool {
        do throws(BusError) {
            inFlight = try connection.getProperty(
                destination: Self.manager.name, path: Self.manager.path, interface: Self.manager.interface,
                name: "Environment", timeout: Self.callTimeout
            ) { [weak self] result in
                guard let self else { return }
                self.inFlight = nil
                switch result {
                case .success(let value):
                    self.sessionEnvironment = Self.localeVariables(of: value)
                case .failure(let error):
                    if self.sessionEnvironment != nil || !self.toldNoManager {
                        self.logger.info(
                            "no user manager's environment (\(error)): notifications speak raind's own locale")
                        self.toldNoManager = true
                    }
                    self.sessionEnvironment = nil
                }
                self.sendNext()
                if self.inFlight == nil { self.settled() }
            }
            return true
        } catch {
            sessionEnvironment = nil
            return false
        }
    }

    /// The locale's variables among a manager's `Environment` (`as`, each
    /// `NAME=value`); nil when it sets none, so raind's own are used.
    static func localeVariables(of value: BusValue) -> [String: String]? {
        guard case .array(_, let items) = value else { return nil }
        var found: [String: String] = [:]
        for case .string(let assignment) in items {
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            let name = String(assignment[..<equals])
            let text = String(assignment[assignment.index(after: equals)...])
            // A locale's name is short and printable; anything else is not one.
            guard Localization.localeVariables.contains(name), text.utf8.count <= 128,
                text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f })
            else { continue }
            found[name] = text
        }
        return found.isEmpty ? nil : found
    }

    func notified(_ result: Result<UInt32, BusError>, target: Target) {
        inFlight = nil
        var next = record
        switch (result, target) {
        case (.success(let id), .alerts(let place, let group)):
            let members = next.alerts.indices.filter {
                next.alerts[$0].place == place && next.alerts[$0].group == group
            }
            if members.isEmpty {
                // Its alerts ended while this was on its way, so nothing else will ever close it.
                queue.append(.close(id))
            }
            for index in members { next.alerts[index].notification = id }
        case (.success(let id), .air(let place, let kind)):
            if let index = next.air?.firstIndex(where: { $0.place == place && $0.kind == kind }) {
                next.air?[index].notification = id
            } else {
                // The episode ended while this was on its way, so nothing else will ever close it.
                queue.append(.close(id))
            }
        case (.success(let id), .rain(let episode)):
            if next.rain?.episode == episode {
                next.rain?.notification = id
            } else {
                // The episode ended (or another took its place) while this was
                // on its way, so nothing else will ever close it.
                queue.append(.close(id))
            }
        case (.failure, _):
            // Not shown: shown again when it is next reported.
            Self.forget(target, in: &next)
        }
        update(next)
        if case .failure(let error) = result {
            failed(error, Self.account(of: target))
        }
        sendNext()
        if inFlight == nil { settled() }
    }

    /// The id of the notification `target` would replace (0: none yet).
    func shownID(of target: Target) -> UInt32 {
        switch target {
        case .alerts(let place, let group):
            return record.alerts.filter { $0.place == place && $0.group == group }.map(\.notification).max() ?? 0
        case .rain:
            return record.rain?.notification ?? 0
        case .air(let place, let kind):
            return record.air?.first { $0.place == place && $0.kind == kind }?.notification ?? 0
        }
    }

    /// Takes `target` out of the record: it was not shown, so it is shown
    /// when next reported rather than taken for shown.
    private static func forget(_ target: Target, in record: inout NotificationRecord) {
        switch target {
        case .alerts(let place, let group): record.alerts.removeAll { $0.place == place && $0.group == group }
        case .rain(let episode): if record.rain?.episode == episode { record.rain = nil }
        case .air(let place, let kind): record.air?.removeAll { $0.place == place && $0.kind == kind }
        }
    }

    /// Drops every call not yet sent, forgetting what they would have shown.
    func dropQueue() {
        var next = record
        for case .notify(_, let target) in queue { Self.forget(target, in: &next) }
        queue.removeAll()
        update(next)
    }

    /// What was being done when a call for `target` failed, and what happens next.
    private static func account(of target: Target) -> (doing: String, then: String) {
        switch target {
        case .alerts(let place, let group):
            return (
                "showing the alerts of \(place) (group \(group))",
                "they are shown when the place's alerts are next reported"
            )
        case .rain(let episode):
            return ("showing rain soon (\(episode))", "it is shown at the next change of the rain outlook")
        case .air(let place, let kind):
            return ("showing the \(kind.rawValue) of \(place)", "it is shown when the place's air is next reported")
        }
    }

    private static func account(of outgoing: Outgoing) -> (doing: String, then: String) {
        switch outgoing {
        case .notify(_, let target): return account(of: target)
        case .close(let id): return ("closing notification \(id)", "close it by hand if it stays")
        }
    }

    /// A call failed while `account.doing`: a missing server turns
    /// notifications off until one appears; any other failure is logged with
    /// what happens `account.then`.
    func failed(_ error: BusError, _ account: (doing: String, then: String)) {
        guard error.isServiceMissing else {
            logger.warning("\(account.doing) as a desktop notification failed (\(error)); \(account.then)")
            return
        }
        availability = .noServer
        dropQueue()
        logger.notice(
            "no notification server on the session bus (\(Self.busName)); notifications resume when one starts")
        watchForServer()
    }

    /// One match on the bus daemon's NameOwnerChanged for the server's name:
    /// nothing is sent, and nothing wakes raind, until a server appears.
    /// Once the match is in place the bus is asked whether the name has an
    /// owner already (the bus daemon handles a connection's messages in
    /// order): a server that started between the failed call and the match
    /// is found too.
    func watchForServer() {
        guard ownerWatch == nil, let bus else { return }
        do throws(BusError) {
            ownerWatch = try bus.subscribe(
                BusMatch(
                    sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                    member: "NameOwnerChanged", arg0: Self.busName)
            ) { [weak self] message in
                let owner = (try? message.readString(), try? message.readString(), try? message.readString())
                guard owner.0 == Self.busName, let newOwner = owner.2, !newOwner.isEmpty else { return }
                self?.serverAppeared()
            }
            ownerCheck = try bus.nameHasOwner(Self.busName, timeout: Self.callTimeout) { [weak self] result in
                self?.ownerCheck = nil
                if case .success(true) = result { self?.serverAppeared() }
            }
        } catch {
            logger.warning(
                "cannot watch the session bus for a notification server (\(error)); "
                    + "desktop notifications stay off until raind restarts")
        }
    }

    /// A notification server owns the name now: what holds and was not shown
    /// while nobody could show it is shown.
    private func serverAppeared() {
        guard availability == .noServer else { return }
        logger.info("a notification server appeared on the session bus; notifications are on")
        availability = .usable
        ownerWatch = nil
        ownerCheck = nil
        reconsiderAlerts()
        reconsiderAir()
        if isIdle { settled() }
    }

    // MARK: Record

    func update(_ next: NotificationRecord) {
        record = next
        guard let recordPath, writtenRecord != next else { return }
        do {
            try FileIO.makeDirectories(FileIO.parentDirectory(of: recordPath), mode: 0o700)
            try FileIO.writeAtomically(next.bytes, to: recordPath, durability: .disposable)
            writtenRecord = next
        } catch {
            logger.warning("cannot record the notifications shown (\(error)); after a restart some may be shown again")
        }
    }
}
