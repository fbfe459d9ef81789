import RainCore
import RainPlaces

/// Keeps the place that follows the machine (`add --current --follow`) where
/// the machine is. With GeoClue2 (`GeoClueWatch`, a few km and a few minutes
/// between reports), each reported position is named as a person names it
/// (`PositionNaming`); without it, each change of the system time zone
/// (`org.freedesktop.timedate1`'s PropertiesChanged on `Timezone`) is taken
/// to mean its most populous place. It emits `.positionMoved` with the candidate when it
/// may be another town; the list decides (`LocationList.moveFollowing`).
/// Nothing runs while no place follows.
final class PlaceFollower {
    static let timedateName = "org.freedesktop.timedate1"
    static let timedatePath = "/org/freedesktop/timedate1"
    static let timedateInterface = "org.freedesktop.timedate1"
    /// A position closer than this to the place's is not even named: a move within a town.
    static let ignoredKilometres = 1.0

    private let loop: EventLoop
    private let systemBus: Result<BusConnection, BusError>
    private let places: PlaceLookup
    private let logger: Logger
    private let events: DaemonEvents

    private var following: Location?
    private var geoclue: GeoClueWatch?
    private var zoneSlots: [BusSlot] = []

    init(
        loop: EventLoop, systemBus: Result<BusConnection, BusError>, places: PlaceLookup, events: DaemonEvents,
        logger: Logger
    ) {
        self.loop = loop
        self.systemBus = systemBus
        self.places = places
        self.logger = logger
        self.events = events
    }

    /// The place that follows now (nil: none, and everything stops).
    func update(following place: Location?) {
        let wasFollowing = following != nil
        following = place
        guard place != nil else {
            if wasFollowing { logger.debug("no place follows the machine any more") }
            geoclue = nil
            zoneSlots.removeAll()
            return
        }
        guard !wasFollowing else { return }
        switch systemBus {
        case .failure(let error):
            logger.warning("cannot follow the machine's position: no system bus (\(error))")
        case .success(let bus):
            let watch = GeoClueWatch(
                bus: bus, logger: logger,
                onPosition: { [weak self] position in self?.moved(to: position) },
                onFailure: { [weak self] error in
                    // Later: the watch may fail from inside its own start().
                    self?.loop.later { self?.geoClueFailed(error, bus: bus) }
                })
            geoclue = watch
            watch.start()
        }
    }

    private func geoClueFailed(_ error: GeoClueError, bus: BusConnection) {
        guard following != nil else { return }
        geoclue = nil
        logger.info("GeoClue cannot follow the machine (\(error)); following the system time zone instead")
        watchTimeZone(on: bus)
    }

    private func moved(to position: GeoClueClient.Position) {
        guard let place = following else { return }
        let distance = GeoDistance.kilometres(
            latitude1: place.latitude, longitude1: place.longitude,
            latitude2: position.latitude, longitude2: position.longitude)
        guard distance >= Self.ignoredKilometres else { return }
        do throws(MethodError) {
            let directory = try places.directory()
            var candidate = PositionNaming.candidate(
                latitude: position.latitude, longitude: position.longitude, name: nil, directory: directory)
            candidate.source = .current(approximate: false)
            events.emit(.positionMoved(candidate))
        } catch {
            logger.warning("cannot name the machine's new position: \(error.message)")
        }
    }

    // MARK: Time zone

    private func watchTimeZone(on bus: BusConnection) {
        do throws(BusError) {
            zoneSlots.append(
                try bus.subscribe(
                    .propertiesChanged(
                        sender: Self.timedateName, path: Self.timedatePath, interface: Self.timedateInterface)
                ) { [weak self] message in
                    self?.timedatePropertiesChanged(message, bus: bus)
                })
        } catch {
            logger.warning("cannot watch the system time zone (\(error)); the following place stays where it is")
            return
        }
        // The zone may have changed while raind was not running.
        readTimeZone(on: bus)
    }

    private func readTimeZone(on bus: BusConnection) {
        guard
            let slot = try? bus.getProperty(
                destination: Self.timedateName, path: Self.timedatePath, interface: Self.timedateInterface,
                name: "Timezone", timeout: 10,
                reply: { [weak self] result in
                    guard case .success(let value) = result, let zone = value.stringValue else { return }
                    self?.timeZoneIs(zone)
                })
        else { return }
        zoneSlots.append(slot)
    }

    /// timedated sends the new value with the change; a sender that only
    /// invalidates it is asked.
    private func timedatePropertiesChanged(_ message: BusMessage, bus: BusConnection) {
        do throws(BusError) {
            _ = try message.readString()
            let changed = try message.readProperties()
            if let zone = changed["Timezone"]?.stringValue {
                timeZoneIs(zone)
            } else if try message.readStringArray().contains("Timezone") {
                readTimeZone(on: bus)
            }
        } catch {
            logger.debug("ignored a malformed PropertiesChanged signal from timedated: \(error)")
        }
    }

    private func timeZoneIs(_ zone: String) {
        guard let place = following, geoclue == nil, zone != place.timeZone else { return }
        do throws(MethodError) {
            guard var candidate = try places.directory().mostPopulous(inTimeZone: zone) else {
                logger.info("the time zone is now \(zone), which names no known place; the following place stays")
                return
            }
            candidate.source = .current(approximate: true)
            events.emit(.positionMoved(candidate))
        } catch {
            logger.warning("cannot find the place of time zone \(zone): \(error.message)")
        }
    }
}
