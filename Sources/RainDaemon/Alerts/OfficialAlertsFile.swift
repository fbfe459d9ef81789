import RainCore
import RainDaemonCore
import RainSystem

/// What a place's official alert service last said, kept in the cache
/// (`alerts/<id>.json`), so that after a restart the warnings in force are
/// served at once, before the first poll answers, and while offline.
/// Written when the messages change (not at every poll that confirms
/// them), atomically, without fsync: the service is asked again at start
/// anyway. Read back like an answer from outside: a file that is not
/// raind's, or whose values break the rules, is discarded with a warning,
/// and the place waits for its first poll.
struct OfficialAlertsFile: Codable {
    var version = Self.currentVersion
    var messages: [WeatherAlert]
    var service: AlertService

    static let currentVersion = 1
    /// The messages a file holds at most, written and read alike: all that
    /// `AlertLifecycle.current` reads of a place (`AlertLimits.alertsPerPlace`).
    static let maximumMessages = AlertLimits.alertsPerPlace
    /// No file raind writes is near this: 400 alerts of at most 26 KiB of text each.
    static let maximumBytes = 12 << 20

    /// What is wrong with the values read, naming the field; nil when usable.
    func validationProblem() -> WireDecodingError? {
        if messages.count > Self.maximumMessages {
            return WireDecodingError(
                field: "messages", reason: "\(messages.count) messages, more than \(Self.maximumMessages)")
        }
        guard let source = service.source, AlertSources.all.contains(where: { $0.name == source }) else {
            return WireDecodingError(field: "service.source", reason: "names no alert source raind has")
        }
        if let wording = service.wording, !wording.fitsCache {
            return WireDecodingError(field: "service.wording", reason: "more or longer parameters than raind writes")
        }
        if let count = service.unplaced, count < 0 {
            return WireDecodingError(field: "service.unplaced", reason: "\(count) is no count")
        }
        if let count = service.unread, count < 0 {
            return WireDecodingError(field: "service.unread", reason: "\(count) is no count")
        }
        if let problem = WireDecodingError.implausible("service.checkedAt", time: service.checkedAt) {
            return problem
        }
        for (index, message) in messages.enumerated() {
            if let problem = WireDecodingError.implausible("messages[\(index)].start", time: message.start)
                ?? WireDecodingError.implausible("messages[\(index)].end", time: message.end)
                ?? WireDecodingError.implausible("messages[\(index)].onset", time: message.onset)
            {
                return problem
            }
            if message.source != source {
                return WireDecodingError(field: "messages[\(index)].source", reason: "is not the service's")
            }
        }
        return nil
    }
}

extension ForecastCache {
    var alertsDirectory: String { "\(directory)/alerts" }

    /// The file of a place's official alerts; nil for an id that is no safe file name.
    func alertsPath(for id: LocationID) -> String? {
        id.isWellFormed ? "\(alertsDirectory)/\(id.rawValue).json" : nil
    }

    /// The place's official alerts as last written, if the file is usable:
    /// its messages plain text again (a file is outside input too).
    func loadOfficialAlerts(of id: LocationID) -> OfficialAlerts? {
        guard let file = alertsPath(for: id) else { return nil }
        guard let bytes = read(file, limit: OfficialAlertsFile.maximumBytes, what: "alerts cache file") else {
            return nil
        }
        do {
            let saved = try Self.decode(
                OfficialAlertsFile.self, from: bytes, version: OfficialAlertsFile.currentVersion, context: "alerts")
            if let problem = saved.validationProblem() { throw problem }
            return OfficialAlerts(messages: saved.messages.map(AlertText.plain), service: saved.service)
        } catch {
            logger.warning(
                "alerts cache file \(file) is corrupt (\(error)); discarding it, the place's service will be asked again"
            )
            try? FileIO.removeFile(file)
            return nil
        }
    }

    /// Writes (or, for nil, removes) a place's official alerts, the first
    /// `OfficialAlertsFile.maximumMessages` of them (the reader refuses
    /// more). A failure is logged: they stay in memory and are served.
    func storeOfficialAlerts(_ alerts: OfficialAlerts?, for id: LocationID) {
        guard let file = alertsPath(for: id) else { return }
        guard let alerts, alerts.service.source != nil else {
            try? FileIO.removeFile(file)
            return
        }
        let saved = OfficialAlertsFile(
            messages: Array(alerts.messages.prefix(OfficialAlertsFile.maximumMessages)), service: alerts.service)
        write(saved.jsonBytes, to: file, in: alertsDirectory, what: "alerts", for: id)
    }
}
