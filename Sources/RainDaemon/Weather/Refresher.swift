import RainCore
import RainDaemonCore
import RainSystem

/// Starts, joins and finishes forecast requests: on the scheduler's timer,
/// on "became active" moments and when a person asks, within the budgets.
/// What arrives goes into the `ForecastStore`; what happens is emitted as
/// events. Its other jobs live beside it, by job: which provider answers
/// (`Refresher+Providers`), the ledger's spending (`Refresher+Budgets`),
/// sending the requests and pacing them (`Refresher+Requests`), the nowcast's
/// demand (`Refresher+Nowcast`), the status (`Refresher+Status`), new rules
/// and clock jumps (`Refresher+Configuration`), reading (`Refresher+Reading`).
/// All on the loop.
public final class Refresher {
    /// A person's refresh of data received less than this ago is answered
    /// from the cache: a burst of refresh commands costs at most one request per place.
    static let minimumSpacing: Double = 60

    public typealias Completion = (RefreshFailure?) -> Void

    let context: DaemonContext
    /// Every provider's source (base URL, key, timeouts), by name.
    var sources: [ProviderName: WeatherSource] { didSet { changes &+= 1 } }
    /// Each provider's health, back-off, budgets and pacing: the one book
    /// forecasts and the requests beside them spend from.
    var ledger: ProviderLedger { didSet { changes &+= 1 } }
    /// Which provider serves each place now (why is in its forecast's `failover`).
    var serving: [LocationID: ProviderName] = [:] {
        didSet { changes &+= 1 }
    }
    /// Whose scores order each place's list under `Name=auto` (`AccuracyKeeper.order`).
    weak var accuracy: AccuracyKeeper?
    let http: any HTTPFetching
    let store: ForecastStore
    let events: DaemonEvents
    let logger: Logger
    var scheduler: RefreshScheduler { didSet { changes &+= 1 } }
    /// The saved places and the selection, as last written.
    var list: LocationList
    /// The settings in force (units and the refresh interval), as last written.
    var settings: Settings
    var nowcast = NowcastWatch()
    /// The places a person looks at, for "became active" moments (`Refresher+Attention`).
    var attention = PlaceAttention()
    /// Notes logged once for the daemon's life.
    var loggedOnce: Set<String> = []

    var inFlight: [LocationID: Flight] = [:]

    /// A place's refresh under way: its transfers, who waits for it, and the
    /// providers asked so far with what each failed with.
    struct Flight {
        var transfers: [any HTTPCancellable] = []
        var waiters: [Completion]
        var provider: ProviderName
        var failures: [(provider: ProviderName, failure: RefreshFailure)] = []
        /// Waiting for `provider`'s per-minute limit: nothing sent yet (`paced`).
        var waitingForPace = false
    }
    /// The places whose refresh waits for its provider's per-minute limit,
    /// in the order they start (the selected place first).
    var paced: [LocationID] = []
    /// The poll timer; reading the time through it follows wall-clock jumps.
    let timer: PollTimer
    public internal(set) var lastSuccess: Double? { didSet { changes &+= 1 } }
    /// Whether every place's cached forecast has been read (`restoreOthers`).
    private var othersRestored = true
    /// The last failed refresh and its place, until that place refreshes
    /// successfully or is removed.
    public internal(set) var lastFailure: RefreshFailure? { didSet { changes &+= 1 } }
    var lastFailedPlace: LocationID?
    /// When each place was last made due because a reload changed its
    /// providers: within `StaleAfterMinutes=` of that, another such reload
    /// leaves its schedule alone, so reloads that go back and forth between
    /// providers cost each place one request per freshness window, not one
    /// per reload.
    var refetchedForProviderChange: [LocationID: Double] = [:]
    public internal(set) var nextWake: Double? { didSet { changes &+= 1 } }
    /// Counts the changes of what the status reports from here (the
    /// scheduler: budgets, reachability, the nowcast; the source, the last
    /// success and failure, the next wake-up), so GetStatus builds its reply
    /// anew only when one moved (`StatusVersion`).
    var changes = 0

    init(
        context: DaemonContext, http: any HTTPFetching, store: ForecastStore,
        events: DaemonEvents, places: LocationList, settings: Settings
    ) throws(SystemError) {
        self.context = context
        self.sources = Self.sources(context.configuration, credentialsDirectory: context.paths.credentialsDirectory)
        self.ledger = ProviderLedger(seed: UInt64(truncatingIfNeeded: Int(context.clock.wallNow * 997)))
        self.http = http
        self.store = store
        self.events = events
        self.list = places
        self.settings = settings
        self.logger = context.logger.scoped("refresh")
        self.scheduler = RefreshScheduler(
            policy: Self.policy(context.configuration, refreshMinutes: settings.refreshMinutes),
            seed: UInt64(truncatingIfNeeded: Int(context.clock.wallNow * 1000)))
        self.timer = try PollTimer(
            loop: context.loop, clock: context.clock,
            seed: UInt64(truncatingIfNeeded: Int(context.clock.wallNow * 1009)))
        timer.fired = { [weak self] in self?.timerFired() }
        timer.clockJumped = { [weak self] in self?.followClockJump($0) }
    }

    /// With `source` in place of the configuration's for its provider (tests).
    convenience init(
        context: DaemonContext, source: WeatherSource, http: any HTTPFetching, store: ForecastStore,
        events: DaemonEvents, places: LocationList, settings: Settings
    ) throws(SystemError) {
        try self.init(context: context, http: http, store: store, events: events, places: places, settings: settings)
        sources[source.name] = source
    }

    /// The wall-clock time, after following any jump of the clock since the last reading.
    var now: Double { timer.now }

    public var isOnline: Bool { scheduler.online }

    // MARK: Start, configuration, places

    /// Loads the cache for the saved places, so clients get data at once;
    /// with `othersLater`, only the selected place's, the others' in
    /// `restoreOthers()`.
    func restore(othersLater: Bool = false) {
        store.cache.removeLeftovers()
        // The limits first, then what was spent, then the pace from both.
        setBudgetLimits()
        let total = store.cache.loadBudget()
        for provider in WeatherProviders.all {
            ledger.restore(
                provider.name, usage: store.cache.loadBudget(provider: provider.name), total: total,
                now: context.clock.wallNow)
        }
        updateBudgets()
        for problem in configurationProblems { logger.warning(problem.message) }
        for warning in configurationWarnings { logger.warning(warning) }
        scheduler.track(list.locations.map(\.id))
        let selected = list.locations.filter { $0.id == list.selectedID }
        restoreCached(othersLater ? selected : list.locations)
        othersRestored = !othersLater
    }

    /// With `restore(othersLater: true)`: the other places' cached forecasts,
    /// right after READY=1 and before anything is fetched. Reading and
    /// checking each cache file is most of what start-up costs; the
    /// selected place's is read before, so the first client is served its
    /// weather, and the others before anything can ask for them (the loop
    /// has not run yet).
    func restoreOthers() {
        guard !othersRestored else { return }
        othersRestored = true
        restoreCached(list.locations.filter { $0.id != list.selectedID })
    }

    private func restoreCached(_ locations: [Location]) {
        let time = now
        for location in locations {
            guard let cached = store.restore(location) else { continue }
            // Data from the provider configured before a restart stays served
            // but is fetched anew, as on a reload that changes the provider.
            let current = fromCurrentProvider(cached.forecast, for: location)
            if current, let name = ProviderName(rawValue: cached.forecast.provider) {
                serving[location.id] = name
            }
            // Who serves it since before the restart (`raindctl accuracy`), for places read after READY=1 too.
            accuracy?.servedBeforeStart(location.id, by: cached.forecast.provider)
            scheduler.restored(
                location.id, fetchedAt: current ? cached.forecast.fetchedAt : 0,
                expiresAt: current ? cached.forecast.expiresAt : nil,
                selected: location.id == list.selectedID, now: time)
            if cached.forecast.fetchedAt <= time { lastSuccess = max(lastSuccess ?? 0, cached.forecast.fetchedAt) }
        }
        // A restart is no news: the cached outlook is the baseline.
        resetNowcastBaseline(now: time)
        reschedule()
    }

    /// The places changed: forget removed ones, fetch an added or newly
    /// selected place that has no fresh data (and nothing else).
    func placesChanged(_ list: LocationList) {
        let previous = self.list
        self.list = list
        let ids = Set(list.locations.map(\.id))
        for id in Array(store.ids) where !ids.contains(id) { store.remove(id) }
        for id in Array(serving.keys) where !ids.contains(id) { serving[id] = nil }
        if let failed = lastFailedPlace, !ids.contains(failed) { clearFailure(of: failed) }
        for (id, flight) in inFlight where !ids.contains(id) {
            for transfer in flight.transfers { transfer.cancel() }
            inFlight[id] = nil
            scheduler.abandoned(id)
            // Whoever waits on it is told, not left without a reply.
            let gone = Self.noLongerSaved(id)
            for waiter in flight.waiters { waiter(gone) }
        }
        scheduler.track(list.locations.map(\.id))
        if list.locations.count != previous.locations.count { updateBudgets() }
        var concerned = list.locations.map(\.id).filter { previous[$0] == nil }
        if list.selectedID != previous.selectedID {
            scheduler.selectionChanged(to: list.selectedID, from: previous.selectedID, now: now)
            if let selected = list.selectedID { concerned.append(selected) }
            // The newly selected place's outlook arrives with LocationSelected; it is the baseline.
            resetNowcastBaseline(now: now)
            updateNowcastDemand()
        }
        let stale = scheduler.staleRefreshes(concerned, now: now, selected: list.selectedID)
        if stale.isEmpty {
            reschedule()
        } else {
            fetch(stale, explicit: false, completion: nil)
        }
    }

    /// A place moved (the following place reached another town): its data is
    /// for the old position, so it is fetched anew now, whatever its age. A
    /// fetch under way for the old position is abandoned; whoever waits on it
    /// is told when the new one is done.
    func placeMoved(_ id: LocationID) {
        var waiters: [Completion] = []
        if let flight = inFlight.removeValue(forKey: id) {
            for transfer in flight.transfers { transfer.cancel() }
            scheduler.abandoned(id)
            waiters = flight.waiters
        }
        store.dropValidators(of: id)
        store.dropLookups(of: id)
        scheduler.restored(id, fetchedAt: 0, expiresAt: nil, selected: id == list.selectedID, now: now)
        fetch([id], explicit: false, completion: nil)
        if inFlight[id] != nil {
            inFlight[id]?.waiters += waiters
        } else {
            for waiter in waiters { waiter(nil) }
        }
    }

    // MARK: Triggers

    /// A "became active" moment: fetch what is stale, nothing else.
    /// A "became active" moment: the stale places a person looks at are
    /// fetched at once (`placesLookedAt`); the others keep their schedule.
    public func refreshIfStale(reason: String) {
        let ids = scheduler.staleRefreshes(placesLookedAt(), now: now, selected: list.selectedID)
        guard !ids.isEmpty else {
            reschedule()
            return
        }
        logger.debug("\(reason): refreshing \(ids.map(\.rawValue).joined(separator: ", "))")
        fetch(ids, explicit: false, completion: nil)
    }

    public func setNetworkUp(_ up: Bool) {
        let wasOnline = scheduler.online
        scheduler.setNetworkUp(up)
        publishReachability(wasOnline: wasOnline)
        if up { refreshIfStale(reason: "network back") } else { reschedule() }
    }

    /// What the timer does: fetch what is due (tests call it after moving their clock).
    func timerFired() {
        startPaced()
        let ids = scheduler.dueRefreshes(list.locations.map(\.id), now: now, selected: list.selectedID)
        if ids.isEmpty {
            reschedule()
        } else {
            fetch(ids, explicit: false, completion: nil)
        }
    }

    // MARK: Fetching

    /// A person's refresh of places; `completion` gets each place's failure
    /// (nil for success) once all are done. It skips our backoff (never the
    /// provider's Retry-After) and is answered from data younger than a minute.
    func refresh(_ ids: [LocationID], completion: @escaping ([LocationID: RefreshFailure?]) -> Void) {
        fetch(ids, explicit: true, completion: completion)
    }

    /// Starts what `ids` need and joins what is under way. `explicit`: a
    /// person asked (see `refresh`); otherwise a timer or a trigger did.
    func fetch(_ ids: [LocationID], explicit: Bool, completion: (([LocationID: RefreshFailure?]) -> Void)?) {
        let time = now  // first: reading the clock may move the forecasts' times
        var results: [LocationID: RefreshFailure?] = [:]
        var pending = ids.count
        let finishOne: (LocationID, RefreshFailure?) -> Void = { id, failure in
            results[id] = .some(failure)
            pending -= 1
            if pending == 0 { completion?(results) }
        }
        var started: [LocationID] = []
        // The selected place goes first: when the provider's per-minute limit
        // holds some places back, it is not one of them.
        let ordered = ids.filter { $0 == list.selectedID } + ids.filter { $0 != list.selectedID }
        for id in ordered {
            guard let location = list[id] else {
                finishOne(id, Self.noLongerSaved(id))
                continue
            }
            if inFlight[id] != nil {
                inFlight[id]?.waiters.append { finishOne(id, $0) }
                continue
            }
            // Offline, a person's refresh is refused at once, like the app's disabled button.
            if explicit, !scheduler.networkUp {
                finishOne(id, RefreshScheduler.Refusal.offline.failure(policy: scheduler.policy, now: time))
                continue
            }
            // Measured from when the data arrived: a proxy's copy can be older (its Age) yet just fetched.
            if explicit, let cached = store[id], fromCurrentProvider(cached.forecast, for: location),
                time - max(cached.forecast.fetchedAt, scheduler.places[id]?.lastSuccess ?? 0) < Self.minimumSpacing
            {
                finishOne(id, nil)
                continue
            }
            let provider: ProviderName
            switch firstProvider(for: location, now: time) {
            case .failure(let failure):
                finishOne(id, failure)
                continue
            case .success(let name):
                provider = name
            }
            if let refusal = scheduler.refusal(
                for: id, now: now, ignoringBackoff: explicit, selected: isSelectedOrNone(id))
            {
                finishOne(id, refusal.failure(policy: scheduler.policy, now: now))
                continue
            }
            inFlight[id] = Flight(waiters: [{ finishOne(id, $0) }], provider: provider)
            guard ledger.paceAllows(provider, monotonic: context.clock.monotonicNow) else {
                // Under way but not started: later refreshes of it join its
                // waiters; RefreshStarted comes when its request goes out.
                inFlight[id]?.waitingForPace = true
                scheduler.waiting(id)
                paced.append(id)
                continue
            }
            started.append(id)
            start(location, selected: id == list.selectedID, provider: provider)
        }
        if !started.isEmpty { events.emit(.published(.refreshStarted(started))) }
        reschedule()
    }

    func start(_ location: Location, selected: Bool, provider: ProviderName) {
        scheduler.started(location.id, now: now)
        spend(provider)
        ask(location, selected: selected, lookedUp: false, provider: provider)
    }

    func finished(
        _ location: Location, selected: Bool, provider: ProviderName, outcome: WeatherSource.Outcome
    ) {
        let id = location.id
        guard var flight = inFlight.removeValue(forKey: id) else { return }
        var outcome = outcome
        // An answer stale by its own times sends the place to its next
        // provider; from the last one, it is kept (and shown as stale), and
        // the provider failed all the same: its status says so, not "ok".
        var outdated: RefreshFailure?
        if case .fresh(let cached, _) = outcome { outdated = Self.outdatedProblem(cached.forecast, at: now) }
        if let problem = outdated,
            nextProvider(for: location, after: flight, failure: problem, besides: provider) != nil
        {
            outcome = .failed(problem)
        }
        if case .failed(let problem) = outcome {
            ledger.failed(provider, failure: problem, now: now)
            flight.failures.append((provider, problem))
            if let next = nextProvider(for: location, after: flight, failure: problem) {
                // The next provider of the place's list answers at once: one more request for this failure.
                logger.notice("\(id): \(provider) failed (\(problem.message)); asking \(next)")
                flight.provider = next
                flight.transfers = []
                inFlight[id] = flight
                spend(next)
                ask(location, selected: selected, lookedUp: false, provider: next)
                return
            }
            if flight.failures.count > 1 { outcome = .failed(Self.combined(flight.failures)) }
        } else if let outdated {
            ledger.failed(provider, failure: outdated, now: now)
        } else {
            ledger.succeeded(provider, now: now)
        }
        // Why another provider than the first choice answered: worked out
        // once, here, and shown from here (the forecast's failover, ProviderChanged).
        let takeover = takeover(for: location, servedBy: provider)
        if case .fresh(var cached, let leftOut) = outcome {
            cached.forecast.failover = takeover.map { ProviderFailover(provider: $0.rawValue, lastFailure: $1) }
            outcome = .fresh(cached, leftOut: leftOut)
        }
        let wasOnline = scheduler.online
        let time = now
        var failure: RefreshFailure?
        switch outcome {
        case .fresh(let cached, let leftOut):
            for note in leftOut where !loggedOnce.contains(note) {
                logger.warning("\(id): \(note)")
                // A provider's notice about itself (a deprecated product) is said once, not at every refresh.
                if note == WeatherSource.deprecationNotice(provider) { loggedOnce.insert(note) }
            }
            succeeded(
                id, cached, expiresAt: cached.forecast.expiresAt,
                previousAlerts: store.served(id, at: time)?.alerts ?? [], selected: selected, at: time)
            updateNowcastDemand()
        case .notModified(let expiresAt, let age):
            var cached = store[id]
            cached?.forecast.fetchedAt = time - age
            cached?.forecast.expiresAt = expiresAt
            cached?.forecast.failover = takeover.map { ProviderFailover(provider: $0.rawValue, lastFailure: $1) }
            succeeded(id, cached, expiresAt: expiresAt, previousAlerts: nil, selected: selected, at: time)
        case .failed(let problem):
            failure = problem
            // With several providers, one that refuses or rate-limits raind is that provider's
            // matter (its health), not a reason to stop asking the others.
            scheduler.failed(id, now: time, failure: problem, holdsEveryPlace: chain(for: location).count == 1)
            var recorded = problem
            recorded.time = time
            lastFailure = recorded
            lastFailedPlace = id
            logger.warning("refreshing \(id) failed: \(problem.message)")
            events.emit(.published(.refreshFailed(id, problem)))
        }
        if failure == nil { noteServing(location, by: provider, takeover: takeover) }
        publishReachability(wasOnline: wasOnline)
        for waiter in flight.waiters { waiter(failure) }
        reschedule()
        events.emit(.weatherChanged)
    }

    /// `provider` answered for `location`, having taken over from its first
    /// choice for `takeover` (nil: it is the first choice): when another
    /// provider served it before, `ProviderChanged` says which one serves it now and why.
    func noteServing(
        _ location: Location, by provider: ProviderName,
        takeover: (firstChoice: ProviderName, failure: RefreshFailure?)?
    ) {
        let id = location.id
        let previous = serving[id]
        serving[id] = provider
        guard let previous, previous != provider else { return }
        var change = ProviderChange(
            provider: provider.rawValue, previous: previous.rawValue, failed: takeover?.firstChoice.rawValue,
            failure: takeover?.failure)
        if takeover == nil, let choice = accuracy?.takeMove(of: id), choice.provider == provider.rawValue {
            change = ProviderChange(previous: previous.rawValue, choice: choice)
        }
        logger.notice("\(id): now served by \(provider) (\(change.reason))")
        events.emit(.published(.providerChanged(id, change)))
    }

    /// A place's refresh succeeded: the scheduler is told, and `cached` (nil
    /// for a 304 with nothing in memory) is kept and published with its
    /// nowcast as of now (a proxy's copy, its Age, was made earlier), with
    /// `AlertsChanged` when its alerts differ from `previousAlerts`.
    func succeeded(
        _ id: LocationID, _ cached: CachedForecast?, expiresAt: Double?, previousAlerts: [WeatherAlert]?,
        selected: Bool, at time: Double
    ) {
        if let cached { store.store(cached, for: id) }
        scheduler.succeeded(id, now: time, expiresAt: expiresAt, selected: selected)
        lastSuccess = time
        clearFailure(of: id)
        guard cached != nil, let served = store.served(id, at: time) else { return }
        events.emit(.published(.weatherUpdated(id, served)))
        if let previousAlerts, served.alerts != previousAlerts {
            events.emit(.published(.alertsChanged(id, served.alerts)))
        }
        publishNowcastChange(id, served.nowcast)
    }

    func clearFailure(of id: LocationID) {
        guard lastFailedPlace == id else { return }
        lastFailure = nil
        lastFailedPlace = nil
    }

    static func noLongerSaved(_ id: LocationID) -> RefreshFailure {
        RefreshFailure(error: .locationNotFound, message: "\(id) is no longer saved")
    }

    /// Cancels every transfer (shutdown), answering whoever waits on one.
    func cancelAll() {
        let flights = inFlight
        inFlight.removeAll()
        paced.removeAll()
        timer.disarm()
        let stopping = RefreshFailure(error: .providerError, message: "raind is stopping; the refresh was cancelled")
        for (id, flight) in flights {
            for transfer in flight.transfers { transfer.cancel() }
            scheduler.abandoned(id)
            for waiter in flight.waiters { waiter(stopping) }
        }
    }

    func publishReachability(wasOnline: Bool) {
        if scheduler.online != wasOnline {
            events.emit(.published(.reachabilityChanged(online: scheduler.online)))
            events.emit(.weatherChanged)
        }
    }

    /// Arms the timer for the scheduler's next wake-up, with slack so wake-ups coalesce.
    func reschedule() {
        let scheduled = scheduler.nextWake(list.locations.map(\.id), now: now)
        nextWake = [scheduled, pacedWake].compactMap { $0 }.min()
        timer.arm(at: nextWake, now: now)
    }
}

/// What moves the refresher (the event table, `DaemonEvents.connect`).
extension Refresher {
    func stateChanged(from old: PersistentState, to new: PersistentState) {
        settings = new.settings
        if old.settings.refreshMinutes != new.settings.refreshMinutes {
            reconfigure(refreshMinutes: new.settings.refreshMinutes, retryRefused: false)
        }
        if old.places != new.places { placesChanged(new.places) }
    }

    func watchingChanged(_ watching: Bool) {
        nowcast.watching = watching
        nowcastDemandChanged()
        // The first subscriber after a time with none is someone looking.
        if watching { refreshIfStale(reason: "a subscriber attached") }
    }
}
