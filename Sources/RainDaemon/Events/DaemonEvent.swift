import RainCore
import RainDaemonCore

/// Something that happened inside raind that other parts act on. Parts emit
/// them into `DaemonEvents`; which part acts on which is one table,
/// `DaemonEvents.connect(_:)` (Events/EventTable.swift), so a reader finds
/// every consequence of an event in one list. Client-visible changes travel
/// as `.published`.
public enum DaemonEvent {
    /// The reason a resume from suspend gives (`becameActive`): the alert
    /// services' back-off that the network caused ends then, as when the network comes back.
    public static let resumeReason = "resume from suspend"

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
    /// A "became active" moment: resume (`resumeReason`), session active, SIGUSR1.
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
    /// The machine's position names another town than the followed place's.
    case positionMoved(PlaceCandidate)
    /// A place's air as kept now, when no `WeatherUpdated` carries it: it
    /// arrived before the place's first forecast, or was read from the
    /// cache at start. The notifier decides on it at once.
    case airKept(LocationID, AirQuality?)
    /// A station's new observation, for the places it verifies.
    case observed([LocationID], Observation)

    /// The kinds of events, which handlers are registered for.
    public enum Kind: CaseIterable, Sendable {
        case published, stateChanged, placeMoved, weatherChanged, watchingChanged, becameActive, networkChanged
        case rainSoonInterestChanged, configurationReloaded, alertMomentReached, positionMoved, airKept
        case observed
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
        case .positionMoved: return .positionMoved
        case .airKept: return .airKept
        case .observed: return .observed
        }
    }
}

/// One kind of `DaemonEvent` with what its handlers are given: a handler
/// registered with `DaemonEvents.on(.stateChanged, …)` is handed the two
/// states, typed, and never an event of another kind.
public struct DaemonEventKind<Payload> {
    let kind: DaemonEvent.Kind
    let payload: (DaemonEvent) -> Payload?
}

extension DaemonEventKind where Payload == Event {
    public static var published: Self {
        Self(kind: .published) { if case .published(let change) = $0 { change } else { nil } }
    }
}

extension DaemonEventKind where Payload == (from: PersistentState, to: PersistentState) {
    public static var stateChanged: Self {
        Self(kind: .stateChanged) { if case .stateChanged(let old, let new) = $0 { (old, new) } else { nil } }
    }
}

extension DaemonEventKind where Payload == LocationID {
    public static var placeMoved: Self {
        Self(kind: .placeMoved) { if case .placeMoved(let id) = $0 { id } else { nil } }
    }
}

extension DaemonEventKind where Payload == Void {
    public static var weatherChanged: Self {
        Self(kind: .weatherChanged) { if case .weatherChanged = $0 { () } else { nil } }
    }
    public static var configurationReloaded: Self {
        Self(kind: .configurationReloaded) { if case .configurationReloaded = $0 { () } else { nil } }
    }
    public static var alertMomentReached: Self {
        Self(kind: .alertMomentReached) { if case .alertMomentReached = $0 { () } else { nil } }
    }
}

extension DaemonEventKind where Payload == Bool {
    /// Whether anyone subscribes now.
    public static var watchingChanged: Self {
        Self(kind: .watchingChanged) { if case .watchingChanged(let watching) = $0 { watching } else { nil } }
    }
    /// Whether the machine has a network route now.
    public static var networkChanged: Self {
        Self(kind: .networkChanged) { if case .networkChanged(let hasRoute) = $0 { hasRoute } else { nil } }
    }
    /// Whether rain-soon notifications can be shown now.
    public static var rainSoonInterestChanged: Self {
        Self(kind: .rainSoonInterestChanged) {
            if case .rainSoonInterestChanged(let wanted) = $0 { wanted } else { nil }
        }
    }
}

extension DaemonEventKind where Payload == String {
    /// The reason, for the log.
    public static var becameActive: Self {
        Self(kind: .becameActive) { if case .becameActive(let reason) = $0 { reason } else { nil } }
    }
}

extension DaemonEventKind where Payload == (id: LocationID, air: AirQuality?) {
    public static var airKept: Self {
        Self(kind: .airKept) { if case .airKept(let id, let air) = $0 { (id, air) } else { nil } }
    }
}

extension DaemonEventKind where Payload == (places: [LocationID], observation: Observation) {
    public static var observed: Self {
        Self(kind: .observed) {
            if case .observed(let places, let observation) = $0 { (places, observation) } else { nil }
        }
    }
}

extension DaemonEventKind where Payload == PlaceCandidate {
    public static var positionMoved: Self {
        Self(kind: .positionMoved) { if case .positionMoved(let candidate) = $0 { candidate } else { nil } }
    }
}
