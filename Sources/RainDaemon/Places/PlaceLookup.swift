import RainCore
import RainPlaces
import RainSystem

/// The embedded place data, opened on first use and kept mapped; a minute
/// after the last lookup its pages are handed back to the kernel, so an idle
/// daemon does not carry the place table in memory.
public final class PlaceLookup {
    /// How long after the last lookup the pages are dropped.
    static let idleRelease: Double = 60

    private let loop: EventLoop
    private let environment: [String: String]
    private let logger: Logger
    private var opened: PlaceDirectory?
    private var releaseTimer: EventSource?

    public init(loop: EventLoop, environment: [String: String], logger: Logger) {
        self.loop = loop
        self.environment = environment
        self.logger = logger
    }

    /// The place data, opening it if needed.
    func directory() throws(MethodError) -> PlaceDirectory {
        if releaseTimer == nil {
            releaseTimer = try? loop.timer(accuracy: 5) { [weak self] in self?.opened?.dropResidentPages() }
        }
        releaseTimer?.arm(after: Self.idleRelease)
        if let opened { return opened }
        guard let path = PlaceDirectory.locateDataFile(environment: environment) else {
            throw MethodError(
                PlaceNotFound(
                    query: "", suggestions: [],
                    message:
                        "the place data (places.bin) is not installed; reinstall raind, set RAIND_DATA_DIR, or add the place by coordinates"
                ))
        }
        do {
            let directory = try PlaceDirectory(path: path)
            logger.debug("place data opened: \(path) (\(directory.count) places)")
            opened = directory
            return directory
        } catch {
            logger.error("cannot use the place data: \(error)")
            throw MethodError(
                PlaceNotFound(
                    query: "", suggestions: [],
                    message:
                        "the place data cannot be used (\(error)); reinstall raind, or add the place by coordinates"))
        }
    }

    /// The most populous place in the machine's time zone: the position
    /// estimate when GeoClue cannot tell.
    func placeInSystemTimeZone() throws(MethodError) -> PlaceCandidate {
        guard let zone = Self.systemTimeZone(environment: environment) else {
            throw MethodError(
                PlaceNotFound(
                    query: "current", suggestions: [],
                    message:
                        "the system has no time zone (TZ, /etc/localtime) to estimate the position from; add the place by name or coordinates"
                ))
        }
        guard let place = try directory().mostPopulous(inTimeZone: zone) else {
            let placeless = ["UTC", "GMT", "Universal", "Zulu", "UCT"].contains(zone) || zone.hasPrefix("Etc/")
            throw MethodError(
                PlaceNotFound(
                    query: "current", suggestions: [],
                    message: placeless
                        ? "the system time zone is \(zone), which says nothing about where this machine is; add the place by name or coordinates (or set the time zone, e.g. timedatectl set-timezone Europe/Paris)"
                        : "no known place in time zone \(zone); add the place by name or coordinates"))
        }
        return place
    }

    /// What follows the first "zoneinfo/" in a path, if it has one: the zone's name.
    private static func afterZoneinfo(_ path: String) -> String? {
        let marker = Array("zoneinfo/".utf8)
        let bytes = Array(path.utf8)
        guard bytes.count >= marker.count else { return nil }
        for start in 0...(bytes.count - marker.count)
        where bytes[start..<start + marker.count].elementsEqual(marker) {
            return String(decoding: bytes[(start + marker.count)...], as: UTF8.self)
        }
        return nil
    }

    /// The machine's time zone: `$TZ`, else the target of /etc/localtime, else /etc/timezone.
    static func systemTimeZone(environment: [String: String]) -> String? {
        if var tz = environment["TZ"], !tz.isEmpty {
            if tz.hasPrefix(":") { tz.removeFirst() }
            if let zone = afterZoneinfo(tz) { tz = zone }
            if !tz.isEmpty { return tz }
        }
        if let target = try? FileIO.symbolicLinkTarget(of: "/etc/localtime"), let zone = afterZoneinfo(target) {
            return zone
        }
        if case .success(let bytes) = FileIO.readFile("/etc/timezone", limit: 4096) {
            let zone = String(decoding: bytes, as: UTF8.self).trimmingSpaces()
            if !zone.isEmpty { return zone }
        }
        return nil
    }
}
