/// Why GeoClue gave no position, said so a person knows what to do.
public enum GeoClueError: Error, Equatable, CustomStringConvertible {
    /// There is no system bus to ask on.
    case noBus(BusError)
    /// Nobody serves org.freedesktop.GeoClue2 on the system bus.
    case serviceUnavailable(BusError)
    /// GeoClue refused raind (its configuration, or no agent allowed it).
    case denied(BusError)
    /// No position within the time allowed.
    case timedOut(seconds: Double)
    /// Another failure at the named step.
    case failed(step: String, BusError)

    /// What a failed call at `step` means for locating the machine.
    init(_ error: BusError, step: String, timeout: Double) {
        if error.isServiceMissing {
            self = .serviceUnavailable(error)
        } else if error.isAccessDenied {
            self = .denied(error)
        } else if error.isTimeout {
            self = .timedOut(seconds: timeout)
        } else {
            self = .failed(step: step, error)
        }
    }

    public var description: String {
        switch self {
        case .noBus(let error):
            return "cannot locate this machine: no system bus (\(error)); add a place by name or coordinates instead"
        case .serviceUnavailable:
            return "cannot locate this machine: GeoClue2 is not running on the system bus "
                + "(install and enable geoclue-2.0, or add a place by name or coordinates)"
        case .denied(let error):
            return "GeoClue refused to locate raind (\(error)); allow it in /etc/geoclue/geoclue.conf "
                + "with a [raind] section: allowed=true, system=true"
        case .timedOut(let seconds):
            let shown = seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
            return "GeoClue gave no position within \(shown) s; try again, or add a place by name"
        case .failed(let step, let error):
            return "GeoClue failed while \(step): \(error)"
        }
    }
}
