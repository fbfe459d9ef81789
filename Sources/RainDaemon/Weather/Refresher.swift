import RainCore
import RainSystem

/// Starts, joins and finishes forecast requests: on the scheduler's timer,
/// on "became active" moments and when a person asks, within the budgets.
/// What arrives goes into the `ForecastStore`; what happens is emitted as
/// events. The nowcast's interest and changes are the `NowcastWatch`'s.
/// All on the loop.
public final class Refresher {
    /// A person's refresh of data received less than this ago is answered
    /// from the cache: a burst of refresh commands costs at most one request per place.
    static let minimumSpacing: Double = 60

    public typealias Completion = (RefreshFailure?) -> Void

    private let context: DaemonContext
    private(set) var source: WeatherSource { didSet { changes &+= 1 } }
    private let http: any HTTPFetching
    let store: ForecastStore
    private let events: DaemonEvents
    private let logger: Logger
    private(set) var scheduler: RefreshScheduler { didSet { changes &+= 1 } }
    /// The saved places and the selection, as last written.
    private var list: LocationList
    /// The settings in force (units and the refresh interval), as last written.
    private var settings: Settings
    private var nowcast = NowcastWatch()
    /// Notes logged once for the daemon's life.
    private var loggedOnce: Set<String> = []

    private var inFlight: [LocationID: (transfers: [any HTTPCancellable], waiters: [Completion])] = [:]
    private var timer: EventSource?
    public private(set) var lastSuccess: Double? { didSet { changes &+= 1 } }
    /// The last failed refresh and its place, until that place refreshes
    /// successfully or is removed.
    public private(set) var lastFailure: RefreshFailure? { didSet { changes &+= 1 } }
    private var lastFailedPlace: LocationID?
    public private(set) var nextWake: Double? { didSet { changes &+= 1 } }
    /// Counts the changes of what the status reports from here (the
    /// scheduler: budgets, reachability, the nowcast; the source, the last
    /// success and failure, the next wake-up), so GetStatus builds its reply
    /// anew only when one moved (`StatusVersion`).
    private(set) var changes = 0
    /// Notices the wall clock being set, so times held in wall-clock seconds
    /// keep the distances the monotonic clock measured.
    private var clockWatch: WallClockWatch

    init(
        context: DaemonContext, source: WeatherSource, http: any HTTPFetching, store: ForecastStore,
        events: DaemonEvents, places: LocationList, settings: Settings
    ) throws(SystemError) {
        self.context = context
        self.source = source
        self.http = http
        self.store = store
        self.events = events
        self.list = places
        self.settings = settings
        self.logger = context.logger.scoped("refresh")
        self.clockWatch = WallClockWatch(wall: context.clock.wallNow, monotonic: context.clock.monotonicNow)
        self.scheduler = RefreshScheduler(
            policy: Self.policy(context.configuration, refreshMinutes: settings.refreshMinutes),
            seed: UInt64(truncatingIfNeeded: Int(context.clock.wallNow * 1000)))
        self.timer = try context.loop.timer(accuracy: 1) { [weak self] in self?.timerFired() }
    }

    static func policy(_ configuration: Configuration, refreshMinutes: Int?) -> RefreshPolicy {
        let terms = configuration.providerTerms
        var policy = RefreshPolicy(
            interval: Double((refreshMinutes ?? configuration.intervalMinutes) * 60),
            staleAfter: Double(configuration.staleAfterMinutes * 60),
            dailyBudget: Double(configuration.effectiveDailyBudget),
            monthlyBudget: configuration.effectiveMonthlyBudget.map(Double.init),
            callsPerRequest: terms.quota.callsPerRequest,
            nowcastInterval: configuration.effectiveNowcastIntervalMinutes.map { Double($0 * 60) })
        policy.jitterFraction = terms.jitterFraction
        return policy
    }

    /// The wall-clock time, after following any jump of the clock since the last reading.
    var now: Double {
        followClockJumps()
        return context.clock.wallNow
    }

    /// Moves every wall-clock time raind holds by the jump: the scheduler's,
    /// and the fetch times of the forecasts in memory, so ages stay what really
    /// passed. Files on disk catch up at the next write.
    private func followClockJumps() {
        guard let jump = clockWatch.observe(wall: context.clock.wallNow, monotonic: context.clock.monotonicNow) else {
            return
        }
        logger.notice(
            "the wall clock was set \(jump < 0 ? "back" : "forward") by \(Int(min(abs(jump), 1e15).rounded())) s; refresh times follow it"
        )
        scheduler.clockJumped(by: jump)
        store.clockJumped(by: jump)
        lastSuccess = lastSuccess.map { $0 + jump }
        if let time = lastFailure?.time { lastFailure?.time = time + jump }
        nextWake = nextWake.map { $0 + jump }
    }
    public var isOnline: Bool { scheduler.online }
    /// Requests and counted calls of this day and month.
    public var budgetUsage: BudgetUsage { budgetUsage(now: now) }

    /// The requests and counted calls of the day and month containing `time`.
    func budgetUsage(now time: Double) -> BudgetUsage { scheduler.usage(now: time) }

    /// The budget a quota refusal speaks of: the one used up (the day's when none is).
    var budgetInQuestion: (period: BudgetPeriod, calls: Double, budget: Double) {
        let usage = budgetUsage
        if scheduler.exhaustedBudget(now: now)?.0 == .month, let monthly = scheduler.policy.monthlyBudget {
            return (.month, usage.callsThisMonth, monthly)
        }
        return (.day, usage.callsToday, scheduler.policy.dailyBudget)
    }

    // MARK: Start, configuration, places

    /// Loads the cache for the saved places, so clients get data at once.
    func restore() {
        store.cache.removeLeftovers()
        if let usage = store.cache.loadBudget() { scheduler.restoreBudget(usage) }
        scheduler.track(list.locations.map(\.id))
        let time = now
        for location in list.locations {
            guard let cached = store.restore(location) else { continue }
            // Data from the provider configured before a restart stays served
            // but is fetched anew, as on a reload that changes the provider.
            let current = fromCurrentProvider(cached.forecast)
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

    /// A new configuration or refresh setting: new rules.
    /// `retryRefused`: a reload (SIGHUP) gives a provider that refused the
    /// credentials another chance, whether or not the configuration changed;
    /// a settings change does not.
    func reconfigure(source: WeatherSource, refreshMinutes: Int?, retryRefused: Bool) {
        let providerChanged = source.name != self.source.name
        self.source = source
        scheduler.reconfigure(
            Self.policy(context.configuration, refreshMinutes: refreshMinutes), credentialsChanged: retryRefused)
        if providerChanged {
            // Data from another provider stays served, but is fetched anew.
            for id in store.ids { scheduler.restored(id, fetchedAt: 0, expiresAt: nil, selected: false, now: now) }
        }
        nowcastDemandChanged()
    }

    /// Whether `forecast` came from the provider configured now; data from
    /// another one answers no person's refresh and counts as never fetched.
    private func fromCurrentProvider(_ forecast: Forecast) -> Bool {
        forecast.provider == source.name.rawValue
    }

    /// The places changed: forget removed ones, fetch an added or newly
    /// selected place that has no fresh data (and nothing else).
    func placesChanged(_ list: LocationList) {
        let previous = self.list
        self.list = list
        let ids = Set(list.locations.map(\.id))
        for id in Array(store.ids) where !ids.contains(id) { store.remove(id) }
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
        var concerned = list.locations.map(\.id).filter { previous[$0] == nil }
        if list.selectedID != previous.selectedID {
            scheduler.selectionChanged(to: list.selectedID, from: previous.selectedID, now: now)
            if let selected = list.selectedID { concerned.append(selected) }
            // The newly selected place's outlook arrives with LocationSelected; it is the baseline.
            resetNowcastBaseline(now: now)
            updateNowcastDemand()
        }
        let stale = scheduler.staleRefreshes(concerned, now: now)
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

    /// SIGHUP: the key is read again and a provider that refused it gets
    /// another chance on every reload, changed configuration or not
    /// (docs/CONFIGURATION.md); then what is stale is fetched.
    private func configurationReloaded() {
        let source = WeatherSource(
            configuration: context.configuration, credentialsDirectory: context.paths.credentialsDirectory)
        if let problem = source.configurationProblem { logger.warning(problem.message) }
        reconfigure(source: source, refreshMinutes: settings.refreshMinutes, retryRefused: true)
        refreshIfStale(reason: "reload")
    }

    // MARK: Triggers

    /// A "became active" moment: fetch what is stale, nothing else.
    public func refreshIfStale(reason: String) {
        let ids = scheduler.staleRefreshes(list.locations.map(\.id), now: now)
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

    private func timerFired() {
        let ids = scheduler.dueRefreshes(list.locations.map(\.id), now: now)
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
    private func fetch(_ ids: [LocationID], explicit: Bool, completion: (([LocationID: RefreshFailure?]) -> Void)?) {
        let time = now  // first: reading the clock may move the forecasts' times
        var results: [LocationID: RefreshFailure?] = [:]
        var pending = ids.count
        let finishOne: (LocationID, RefreshFailure?) -> Void = { id, failure in
            results[id] = .some(failure)
            pending -= 1
            if pending == 0 { completion?(results) }
        }
        var started: [LocationID] = []
        for id in ids {
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
            if explicit, let cached = store[id], fromCurrentProvider(cached.forecast),
                time - max(cached.forecast.fetchedAt, scheduler.places[id]?.lastSuccess ?? 0) < Self.minimumSpacing
            {
                finishOne(id, nil)
                continue
            }
            if let problem = source.configurationProblem {
                finishOne(id, problem)
                continue
            }
            if let refusal = scheduler.refusal(for: id, now: now, ignoringBackoff: explicit) {
                finishOne(id, refusal.failure(policy: scheduler.policy, now: now))
                continue
            }
            inFlight[id] = ([], [{ finishOne(id, $0) }])
            started.append(id)
            start(location, selected: id == list.selectedID)
        }
        if !started.isEmpty { events.emit(.published(.refreshStarted(started))) }
        reschedule()
    }

    private func start(_ location: Location, selected: Bool) {
        scheduler.started(location.id, now: now)
        store.cache.storeBudget(scheduler.budgetUsage)
        ask(location, selected: selected, lookedUp: false)
    }

    /// Sends what the provider's plan asks for `location`: a lookup, then
    /// (`lookedUp`) the forecast's requests with what it found, or the
    /// forecast's requests at once. The first request was counted by
    /// `start`; each further one is counted as it goes.
    private func ask(_ location: Location, selected: Bool, lookedUp: Bool) {
        let id = location.id
        let time = now
        let plan = source.plan(
            for: location, units: settings.units, cached: store[id],
            lookup: store.lookup(of: id, by: source.name, now: time), now: time)
        switch plan {
        case .notCovered(let failure):
            // Answered on the next turn, as a request would be: after RefreshStarted.
            context.loop.later { [weak self] in self?.finished(location, selected: selected, outcome: .failed(failure))
            }
        case .lookup(let request):
            guard !lookedUp else {
                let failure = RefreshFailure(
                    error: .providerError,
                    message:
                        "\(source.name) asked for its lookup of the place again after answering it; raind retries later"
                )
                context.loop.later { [weak self] in
                    self?.finished(location, selected: selected, outcome: .failed(failure))
                }
                return
            }
            let transfer = http.fetch(request) { [weak self] result in
                self?.lookedUp(location, selected: selected, result: result)
            }
            if inFlight[id] != nil { inFlight[id]?.transfers = [transfer] }
        case .forecast(let requests):
            count(extra: lookedUp ? requests.count : requests.count - 1)
            var results = [Result<HTTPResponse, HTTPFailure>?](repeating: nil, count: requests.count)
            var remaining = requests.count
            var transfers: [any HTTPCancellable] = []
            for (index, request) in requests.enumerated() {
                transfers.append(
                    http.fetch(request) { [weak self] result in
                        results[index] = result
                        remaining -= 1
                        guard remaining == 0, let self else { return }
                        let all = results.compactMap { $0 }
                        self.giveBackUnsent(all)
                        self.finished(
                            location, selected: selected,
                            outcome: self.source.interpret(all, for: location, now: self.now))
                    })
            }
            if inFlight[id] != nil { inFlight[id]?.transfers = transfers }
        }
    }

    /// Counts requests beyond the first of one refresh against the budgets.
    private func count(extra: Int) {
        guard extra > 0 else { return }
        for _ in 0..<extra { scheduler.sent(now: now) }
        store.cache.storeBudget(scheduler.budgetUsage)
    }

    /// Requests that never left this machine (libcurl could not be loaded) count nothing.
    private func giveBackUnsent(_ results: [Result<HTTPResponse, HTTPFailure>]) {
        var changed = false
        for case .failure(let transport) in results where transport.neverSent {
            scheduler.notSent(now: now)
            changed = true
        }
        if changed { store.cache.storeBudget(scheduler.budgetUsage) }
    }

    private func lookedUp(_ location: Location, selected: Bool, result: Result<HTTPResponse, HTTPFailure>) {
        guard inFlight[location.id] != nil else { return }
        giveBackUnsent([result])
        switch source.interpretLookup(result, for: location, now: now) {
        case .success(let lookup):
            store.keep(lookup, of: location.id, by: source.name)
            ask(location, selected: selected, lookedUp: true)
        case .failure(let failure):
            finished(location, selected: selected, outcome: .failed(failure))
        }
    }

    private func finished(_ location: Location, selected: Bool, outcome: WeatherSource.Outcome) {
        let id = location.id
        guard let flight = inFlight.removeValue(forKey: id) else { return }
        let wasOnline = scheduler.online
        let time = now
        var failure: RefreshFailure?
        switch outcome {
        case .fresh(let cached, let leftOut):
            for note in leftOut where !loggedOnce.contains(note) {
                logger.warning("\(id): \(note)")
                // A provider's notice about itself (a deprecated product) is said once, not at every refresh.
                if note == WeatherSource.deprecationNotice(source.name) { loggedOnce.insert(note) }
            }
            succeeded(
                id, cached, expiresAt: cached.forecast.expiresAt, previousAlerts: store[id]?.forecast.alerts ?? [],
                selected: selected, at: time)
            updateNowcastDemand()
        case .notModified(let expiresAt, let age):
            var cached = store[id]
            cached?.forecast.fetchedAt = time - age
            cached?.forecast.expiresAt = expiresAt
            succeeded(id, cached, expiresAt: expiresAt, previousAlerts: nil, selected: selected, at: time)
        case .failed(let problem):
            failure = problem
            scheduler.failed(id, now: time, failure: problem)
            var recorded = problem
            recorded.time = time
            lastFailure = recorded
            lastFailedPlace = id
            logger.warning("refreshing \(id) failed: \(problem.message)")
            events.emit(.published(.refreshFailed(id, problem)))
        }
        publishReachability(wasOnline: wasOnline)
        for waiter in flight.waiters { waiter(failure) }
        reschedule()
        events.emit(.weatherChanged)
    }

    /// A place's refresh succeeded: the scheduler is told, and `cached` (nil
    /// for a 304 with nothing in memory) is kept and published with its
    /// nowcast as of now (a proxy's copy, its Age, was made earlier), with
    /// `AlertsChanged` when its alerts differ from `previousAlerts`.
    private func succeeded(
        _ id: LocationID, _ cached: CachedForecast?, expiresAt: Double?, previousAlerts: [WeatherAlert]?,
        selected: Bool, at time: Double
    ) {
        if let cached { store.store(cached, for: id) }
        scheduler.succeeded(id, now: time, expiresAt: expiresAt, selected: selected)
        lastSuccess = time
        clearFailure(of: id)
        guard let cached else { return }
        let served = ForecastStore.withNowcast(cached.forecast, at: time)
        events.emit(.published(.weatherUpdated(id, served)))
        if let previousAlerts, cached.forecast.alerts != previousAlerts {
            events.emit(.published(.alertsChanged(id, cached.forecast.alerts)))
        }
        publishNowcastChange(id, served.nowcast)
    }

    private func clearFailure(of id: LocationID) {
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
        timer?.disarm()
        let stopping = RefreshFailure(error: .providerError, message: "raind is stopping; the refresh was cancelled")
        for (id, flight) in flights {
            for transfer in flight.transfers { transfer.cancel() }
            scheduler.abandoned(id)
            for waiter in flight.waiters { waiter(stopping) }
        }
    }

    private func publishReachability(wasOnline: Bool) {
        if scheduler.online != wasOnline {
            events.emit(.published(.reachabilityChanged(online: scheduler.online)))
            events.emit(.weatherChanged)
        }
    }

    /// Arms the timer for the scheduler's next wake-up, with slack so wake-ups coalesce.
    private func reschedule() {
        nextWake = scheduler.nextWake(list.locations.map(\.id), now: now)
        guard let nextWake else {
            timer?.disarm()
            return
        }
        let delay = max(0, nextWake - now)
        timer?.setAccuracy(min(30, max(1, delay / 20)))
        timer?.arm(after: delay)
    }

    // MARK: Nowcast

    /// Set while rain notifications can be shown: someone can use the
    /// nowcast even with no subscriber connected.
    public var notificationsWantNowcast: Bool {
        get { nowcast.notificationsWant }
        set {
            nowcast.notificationsWant = newValue
            nowcastDemandChanged()
        }
    }

    /// Someone may have started or stopped being able to use the nowcast (a
    /// subscriber came or went, notifications were turned on or off): the
    /// selected place's next refresh follows.
    public func nowcastDemandChanged() {
        updateNowcastDemand()
        reschedule()
    }

    /// Tells the scheduler whether the selected place's nowcast is wanted.
    private func updateNowcastDemand() {
        let selected = list.selectedID
        let hasNowcast = selected.flatMap { store[$0]?.forecast.nowcast } != nil
        scheduler.setNowcastWanted(nowcast.wanted(hasNowcast: hasNowcast), selected: selected, now: now)
    }

    /// The short refreshes' state and cost, for `GetStatus`.
    var nowcastStatus: NowcastStatus { nowcastStatus(now: now) }

    /// The short refreshes' state and cost at `time`.
    func nowcastStatus(now time: Double) -> NowcastStatus {
        NowcastWatch.status(scheduler, configuration: context.configuration, now: time)
    }

    /// Publishes `NowcastChanged` when the selected place's outlook,
    /// `current` (as served with its forecast), differs materially from the
    /// one last published.
    private func publishNowcastChange(_ id: LocationID, _ current: Nowcast?) {
        guard id == list.selectedID, let change = nowcast.change(of: id, to: current) else { return }
        events.emit(.published(.nowcastChanged(id, current, change)))
    }

    private func resetNowcastBaseline(now time: Double) {
        let selected = list.selectedID
        nowcast.resetBaseline(selected, selected.flatMap { store[$0]?.forecast.nowcast?.at(time) })
    }

    // MARK: Reading

    /// A place's cached forecast (its nowcast as of now), its age in seconds and whether it is stale.
    func forecast(for id: LocationID) -> (forecast: Forecast, age: Double, stale: Bool)? {
        let time = now  // first: reading the clock may move the forecasts' times
        guard let cached = store[id], let forecast = store.served(id, at: time) else { return nil }
        let age = max(0, time - cached.forecast.fetchedAt)
        // Data a proxy had kept (its Age) is stale by its age, however recently it arrived.
        return (forecast, age, scheduler.isStale(id, now: time) || age >= scheduler.policy.staleAfter)
    }

    /// Names what `forecast(for: id)` serves now: equal versions, equal forecasts.
    func forecastVersion(for id: LocationID) -> ForecastVersion? {
        let time = now  // first: reading the clock may move the forecasts' times
        return store.version(of: id, at: time)
    }
}

/// What moves the refresher (wired in `Daemon.init`).
extension Refresher: DaemonEventObserver {
    public func observe(_ event: DaemonEvent) {
        switch event {
        case .stateChanged(let old, let new):
            settings = new.settings
            if old.settings.refreshMinutes != new.settings.refreshMinutes {
                reconfigure(source: source, refreshMinutes: new.settings.refreshMinutes, retryRefused: false)
            }
            if old.places != new.places { placesChanged(new.places) }
        case .placeMoved(let id):
            placeMoved(id)
        case .watchingChanged(let watching):
            nowcast.watching = watching
            nowcastDemandChanged()
            // The first subscriber after a time with none is someone looking.
            if watching { refreshIfStale(reason: "a subscriber attached") }
        case .becameActive(let reason):
            refreshIfStale(reason: reason)
        case .networkChanged(let hasRoute):
            setNetworkUp(hasRoute)
        case .rainSoonInterestChanged(let wanted):
            notificationsWantNowcast = wanted
        case .configurationReloaded:
            configurationReloaded()
        case .published, .weatherChanged:
            break
        }
    }

    /// The kinds `observe` acts on.
    static let observedKinds: Set<DaemonEvent.Kind> = [
        .stateChanged, .placeMoved, .watchingChanged, .becameActive, .networkChanged, .rainSoonInterestChanged,
        .configurationReloaded,
    ]
}
