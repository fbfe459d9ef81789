import RainCore
import RainDaemonCore

/// Something that happened inside raind that other parts act on. Parts emit
/// them into `DaemonEvents`; which part acts on which is wired in one place,
/// `Daemon.init`, by the kinds each observer registers for (as MPD's idle
/// flags are declared once). Client-visible changes travel as `.published`.
public enum DaemonEvent {
    /// A change clients are told of: to the notifier, then to subscribers.
    case published(Event)
    /// The saved state was written and is now in force: places, selection, settings.
    case stateChanged(from: PersistentState, to: PersistentState)
    /// The followed place reached another town (its state change was
    /// published before): its weather is for the old position.
    case placeMoved(LocationID)
    /// A forecast, the last refresh or reachability changed.
    case weatherChanged
    /// The first subscriber came (true) or the last one left (false).
    case watchingChanged(Bool)
    /// A "became active" moment: resume, session active, SIGUSR1.
    case becameActive(reason: String)
    /// The machine gained (true) or lost its network route.
    case networkChanged(hasRoute: Bool)
    /// Rain-soon notifications became able (true) or unable to be shown.
    case rainSoonInterestChanged(Bool)
    /// SIGHUP: the configuration in force was read again (changed or not).
    case configurationReloaded
    /// An alert of some place began or ended (its onset or end came), with
    /// no new answer from its service: what is in effect changed.
    case alertMomentReached

    /// The kinds of events, which observers register for.
    public enum Kind: CaseIterable, Sendable {
        case published, stateChanged, placeMoved, weatherChanged, watchingChanged, becameActive, networkChanged
        case rainSoonInterestChanged, configurationReloaded, alertMomentReached
    }

    public var kind: Kind {
        switch self {
        case .published: return .published
        case .stateChanged: return .stateChanged
        case .placeMoved: return .placeMoved
        case .weatherChanged: return .weatherChanged
        case .watchingChanged: return .watchingChanged
        case .becameActive: return .becameActive
        case .networkChanged: return .networkChanged
        case .rainSoonInterestChanged: return .rainSoonInterestChanged
        case .configurationReloaded: return .configurationReloaded
        case .alertMomentReached: return .alertMomentReached
        }
    }
}

/// A part that acts on daemon events: it is handed those of the kinds it
/// was registered for, in the order they were emitted.
public protocol DaemonEventObserver: AnyObject {
    func observe(_ event: DaemonEvent)
}
