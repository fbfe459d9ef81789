import RainCore
import RainDaemonCore
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
    /// Every provider's source (base URL, key, timeouts), by name.
    private(set) var sources: [ProviderName: WeatherSource] { didSet { changes &+= 1 } }
    /// Each provider's health: failures, back-off, last success.
    private(set) var health: ProviderHealthBook { didSet { changes &+= 1 } }
    /// Each provider's budget, in its own units.
    private(set) var budgets = ProviderBudgets() { didSet { changes &+= 1 } }
    /// Which provider serves each place now, and why it took over (nil: its first choice).
    private(set) var serving: [LocationID: (provider: ProviderName, reason: String?)] = [:] {
        didSet { changes &+= 1 }
    }
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

    private var inFlight: [LocationID: Flight] = [:]

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
    private var paced: [LocationID] = []
    /// The calls sent to each provider in the last minute, on the monotonic
    /// clock: a sliding window kept within `ProviderQuota.callsPerMinute`.
    private var sentLastMinute: [ProviderName: [(at: Double, calls: Double)]] = [:]
    private var timer: EventSource?
    public private(set) var lastSuccess: Double? { didSet { changes &+= 1 } }
    /// The last failed refresh and its place, until that place refreshes
    /// successfully or is removed.
    public private(set) var lastFailure: RefreshFailure? { didSet { changes &+= 1 } }
    private var lastFailedPlace: LocationID?
    /// When each place was last made due because a reload changed its
    /// providers: within `StaleAfterMinutes=` of that, another such reload
    /// leaves its schedule alone, so reloads that go back and forth between
    /// providers cost each place one request per freshness window, not one
    /// per reload.
    private var refetchedForProviderChange: [LocationID: Double] = [:]
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
        context: DaemonContext, http: any HTTPFetching, store: ForecastStore,
        events: DaemonEvents, places: LocationList, settings: Settings
    ) throws(SystemError) {
        self.context = context
        self.sources = Self.sources(context.configuration, credentialsDirectory: context.paths.credentialsDirectory)
        self.health = ProviderHealthBook(seed: UInt64(truncatingIfNeeded: Int(context.clock.wallNow * 997)))
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

    /// With `source` in place of the configuration's for its provider (tests).
    convenience init(
        context: DaemonContext, source: WeatherSource, http: any HTTPFetching, store: ForecastStore,
        events: DaemonEvents, places: LocationList, settings: Settings
    ) throws(SystemError) {
        try self.init(context: context, http: http, store: store, events: events, places: places, settings: settings)
        sources[source.name] = source
    }

    /// `reconfigure` with `source` in place of its provider's (tests).
    func reconfigure(source: WeatherSource, refreshMinutes: Int?, retryRefused: Bool) {
        var replaced = sources
        replaced[source.name] = source
        reconfigure(refreshMinutes: refreshMinutes, retryRefused: retryRefused, sources: replaced)
    }

    /// Every provider's source, ready to ask.
    static func sources(_ configuration: Configuration, credentialsDirectory: String?) -> [ProviderName: WeatherSource]
    {
        var sources: [ProviderName: WeatherSource] = [:]
        for provider in WeatherProviders.all {
            sources[provider.name] = WeatherSource(
                provider: provider.name, configuration: configuration, credentialsDirectory: credentialsDirectory)
        }
        return sources
    }

    /// What keeps the providers the configuration names (`Name=`,
    /// `Providers=`) from being asked, to log; with `Name=auto`, the
    /// region's providers need nothing.
    var configurationProblems: [RefreshFailure] {
        let named = context.configuration.provider.map { [$0] } ?? context.configuration.providerOrder ?? []
        return named.compactMap { sources[$0]?.configurationProblem }
    }

    /// What to warn of in the sources' configuration (a key file others can read).
    var configurationWarnings: [String] {
        Array(Set(sources.values.compactMap(\.configurationWarning))).sorted()
    }

    /// The providers that may answer for `location`, best first.
    func chain(for location: Location) -> [ProviderName] {
        context.configuration.providers(for: location)
    }

    /// The source of `name`.
    private func source(_ name: ProviderName) -> WeatherSource {
        guard let source = sources[name] else {
            preconditionFailure("every provider of WeatherProviders.all has a source")
        }
        return source
    }

    /// Each provider a place's list holds (or `Name=`/`Providers=` names), in
    /// the table's order: its health, the places it serves and its budget.
    var providerStatuses: [ProviderStatus] { providerStatuses(now: now) }

    /// The providers some saved place's list holds.
    private var providersInPlaceLists: Set<ProviderName> { Set(list.locations.flatMap { chain(for: $0) }) }

    /// `providerStatuses` at `time`, as the refresher reads the clock.
    func providerStatuses(now time: Double) -> [ProviderStatus] {
        var used = providersInPlaceLists
        if let named = context.configuration.provider { used.insert(named) }
        for name in context.configuration.providerOrder ?? [] { used.insert(name) }
        return WeatherProviders.all.map(\.name).filter(used.contains).map { name in
            let record = health[name]
            let budget = budgets[name]
            return ProviderStatus(
                name: name.rawValue,
                places: list.locations.map(\.id).filter { serving[$0]?.provider == name },
                available: health.isAvailable(name, now: time), failures: record.consecutiveFailures,
                backoffUntil: record.backoffUntil.flatMap { $0 > time ? $0 : nil }, lastSuccess: record.lastSuccess,
                lastError: record.lastFailure, usage: budgets.usage(name, now: time),
                dailyBudget: budget?.daily ?? 0, monthlyBudget: budget?.monthly)
        }
    }

    /// Sets each provider's budget from the configuration, the places and the interval.
    private func updateBudgets() {
        let interval = scheduler.policy.interval
        for provider in WeatherProviders.all {
            let budget = context.configuration.budget(
                for: provider.name, places: list.locations.count, intervalSeconds: interval)
            budgets.setLimits(
                provider.name, daily: budget.daily, monthly: budget.monthly, callsPerRequest: budget.callsPerRequest)
        }
        // With Name=auto each provider keeps its own budget; the scheduler's
        // total only stops what all of them together allow.
        if context.configuration.provider == nil {
            let used = providersInPlaceLists
            let names = used.isEmpty ? Set(WeatherProviders.all.map(\.name)) : used
            scheduler.policy.dailyBudget = names.reduce(0) { $0 + (budgets[$1]?.daily ?? 0) }
            scheduler.policy.monthlyBudget = nil
        }
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
    /// With `Name=auto`, the sums over the providers, each request counted in
    /// its own provider's calls.
    public var budgetUsage: BudgetUsage { budgetUsage(now: now) }

    /// The requests and counted calls of the day and month containing `time`.
    func budgetUsage(now time: Double) -> BudgetUsage {
        guard context.configuration.provider == nil else { return scheduler.usage(now: time) }
        return WeatherProviders.all.reduce(BudgetUsage().current(now: time)) {
            $0.adding(budgets.usage($1.name, now: time))
        }
    }

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
        updateBudgets()
        for provider in WeatherProviders.all {
            if let usage = store.cache.loadBudget(provider: provider.name) {
                budgets.restore(provider.name, usage: usage)
            }
        }
        for problem in configurationProblems { logger.warning(problem.message) }
        for warning in configurationWarnings { logger.warning(warning) }
        scheduler.track(list.locations.map(\.id))
        let time = now
        for location in list.locations {
            guard let cached = store.restore(location) else { continue }
            // Data from the provider configured before a restart stays served
            // but is fetched anew, as on a reload that changes the provider.
            let current = fromCurrentProvider(cached.forecast, for: location)
            if current, let name = ProviderName(rawValue: cached.forecast.provider) {
                serving[location.id] = (name, nil)
            }
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
    func reconfigure(refreshMinutes: Int?, retryRefused: Bool, sources newSources: [ProviderName: WeatherSource]? = nil)
    {
        if let newSources { sources = newSources }
        if retryRefused { health.configurationReloaded() }
        scheduler.reconfigure(
            Self.policy(context.configuration, refreshMinutes: refreshMinutes), credentialsChanged: retryRefused)
        updateBudgets()
        // Data from a provider no longer in a place's list stays served, but is fetched anew.
        let time = now
        for location in list.locations {
            guard let cached = store[location.id], !fromCurrentProvider(cached.forecast, for: location) else {
                continue
            }
            serving[location.id] = nil
            if let last = refetchedForProviderChange[location.id], time - last < scheduler.policy.staleAfter {
                continue
            }
            refetchedForProviderChange[location.id] = time
            scheduler.restored(location.id, fetchedAt: 0, expiresAt: nil, selected: false, now: time)
        }
        nowcastDemandChanged()
    }

    /// Whether `forecast` came from a provider `location`'s list holds now;
    /// data from another one answers no person's refresh and counts as never fetched.
    private func fromCurrentProvider(_ forecast: Forecast, for location: Location) -> Bool {
        chain(for: location).contains { $0.rawValue == forecast.provider }
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

    /// SIGHUP: the key is read again and a provider that refused it gets
    /// another chance on every reload, changed configuration or not
    /// (docs/CONFIGURATION.md); then what is stale is fetched.
    private func configurationReloaded() {
        let sources = Self.sources(context.configuration, credentialsDirectory: context.paths.credentialsDirectory)
        reconfigure(refreshMinutes: settings.refreshMinutes, retryRefused: true, sources: sources)
        for problem in configurationProblems { logger.warning(problem.message) }
        for warning in configurationWarnings { logger.warning(warning) }
        refreshIfStale(reason: "reload")
    }

    // MARK: Triggers

    /// A "became active" moment: fetch what is stale, nothing else.
    public func refreshIfStale(reason: String) {
        let ids = scheduler.staleRefreshes(list.locations.map(\.id), now: now, selected: list.selectedID)
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
            guard paceAllows(provider) else {
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

    /// The provider to ask first for `location`: its list's first that is
    /// configured, within its budget and not backing off (`ProviderHealthBook.candidates`);
    /// else why none can be asked.
    private func firstProvider(for location: Location, now time: Double) -> Result<ProviderName, RefreshFailure> {
        let chain = chain(for: location)
        let selected = isSelectedOrNone(location.id)
        if let first = health.candidates(chain, now: time, usable: { self.usable($0, now: time, selected: selected) })
            .first
        {
            return .success(first)
        }
        if let problem = chain.lazy.compactMap({ self.sources[$0]?.configurationProblem }).first,
            chain.allSatisfy({ self.sources[$0]?.configurationProblem != nil })
        {
            return .failure(problem)
        }
        if let (period, resetsAt) = chain.lazy.compactMap({ self.budgets.exhausted($0, now: time) }).first {
            return .failure(
                RefreshScheduler.Refusal.quotaExhausted(period, resetsAt: resetsAt).failure(
                    policy: scheduler.policy, now: time))
        }
        if !selected,
            let (period, resetsAt) = chain.lazy.compactMap({
                self.budgets.exhausted(
                    $0, now: time, keepingBack: self.scheduler.policy.selectedRequestsLeft(now: time))
            }).first
        {
            return .failure(
                RefreshScheduler.Refusal.keptForSelected(period, resetsAt: resetsAt).failure(
                    policy: scheduler.policy, now: time))
        }
        return .failure(
            chain.lazy.compactMap({ self.health[$0].lastFailure }).first
                ?? RefreshFailure(
                    error: .providerError,
                    message:
                        "every provider for \(location.id) (\(chain.map(\.rawValue).joined(separator: ", "))) refused raind; fix the configuration, then reload raind (systemctl reload raind, or SIGHUP)"
                ))
    }

    /// Whether `name` can be asked at all now: configured and within its
    /// budget; for a place other than the selected one, within what the
    /// budget does not keep for the selected place.
    private func usable(_ name: ProviderName, now time: Double, selected: Bool) -> Bool {
        let reserve = selected ? (day: 0, month: 0) : scheduler.policy.selectedRequestsLeft(now: time)
        return sources[name]?.configurationProblem == nil
            && budgets.exhausted(name, now: time, keepingBack: reserve) == nil
    }

    /// Whether `id` is the selected place, or no place is selected (nothing to keep back for).
    private func isSelectedOrNone(_ id: LocationID) -> Bool {
        list.selectedID == nil || list.selectedID == id
    }

    // MARK: Pacing

    /// The calls one request to `provider` costs, and the most it allows in a minute (nil: no limit).
    private static func pace(of provider: ProviderName) -> (callsPerRequest: Double, perMinute: Double?) {
        let quota = WeatherProviders.provider(provider).terms.quota
        return (quota.callsPerRequest, quota.callsPerMinute)
    }

    /// The calls sent to `provider` in the 60 seconds before `time` (monotonic), the older ones forgotten.
    private func recentCalls(_ provider: ProviderName, at time: Double) -> Double {
        sentLastMinute[provider]?.removeAll { $0.at <= time - 60 }
        return sentLastMinute[provider]?.reduce(0) { $0 + $1.calls } ?? 0
    }

    /// Whether one more request to `provider` now keeps its last minute
    /// within its limit. With nothing sent in the last minute it always
    /// does, so a limit below one request's cost cannot hold a place forever.
    private func paceAllows(_ provider: ProviderName) -> Bool {
        let (cost, limit) = Self.pace(of: provider)
        guard let limit else { return true }
        let recent = recentCalls(provider, at: context.clock.monotonicNow)
        return recent == 0 || recent + cost <= limit
    }

    /// When (monotonic) one more request to `provider` fits its last minute:
    /// when enough of the oldest calls in the window have left it.
    private func paceOpens(_ provider: ProviderName) -> Double {
        let time = context.clock.monotonicNow
        let (cost, limit) = Self.pace(of: provider)
        var recent = recentCalls(provider, at: time)
        guard let limit else { return time }
        for call in sentLastMinute[provider] ?? [] {
            if recent == 0 || recent + cost <= limit { break }
            recent -= call.calls
            if recent == 0 || recent + cost <= limit { return call.at + 60 }
        }
        return time
    }

    /// Counts `calls` sent to `provider` now in its last minute.
    private func noteSent(_ provider: ProviderName, calls: Double) {
        guard Self.pace(of: provider).perMinute != nil else { return }
        sentLastMinute[provider, default: []].append((context.clock.monotonicNow, calls))
    }

    /// Starts the places waiting for their provider's per-minute limit that
    /// fit it now, in order; a place whose provider cannot be asked any more
    /// (its budget ran out meanwhile) is answered with why.
    private func startPaced() {
        guard !paced.isEmpty else { return }
        let time = now
        var started: [LocationID] = []
        var still: [LocationID] = []
        var seen: Set<LocationID> = []
        let selected = list.selectedID
        let queue = paced.filter { $0 == selected } + paced.filter { $0 != selected }
        paced = []
        for id in queue where seen.insert(id).inserted {
            guard let flight = inFlight[id], flight.waitingForPace else { continue }
            guard let location = list[id] else { continue }
            switch firstProvider(for: location, now: time) {
            case .failure(let failure):
                inFlight[id] = nil
                scheduler.abandoned(id)
                logger.warning("refreshing \(id) failed: \(failure.message)")
                events.emit(.published(.refreshFailed(id, failure)))
                for waiter in flight.waiters { waiter(failure) }
            case .success(let provider):
                guard paceAllows(provider) else {
                    still.append(id)
                    continue
                }
                inFlight[id]?.waitingForPace = false
                inFlight[id]?.provider = provider
                started.append(id)
                start(location, selected: id == selected, provider: provider)
            }
        }
        paced = still
        if !started.isEmpty { events.emit(.published(.refreshStarted(started))) }
    }

    /// When (wall clock) the first waiting place's provider lets it start; nil when none waits.
    private var pacedWake: Double? {
        let providers = Set(paced.compactMap { inFlight[$0]?.provider })
        guard let opens = providers.map(paceOpens).min() else { return nil }
        return now + max(0, opens - context.clock.monotonicNow)
    }

    private func start(_ location: Location, selected: Bool, provider: ProviderName) {
        scheduler.started(location.id, now: now)
        store.cache.storeBudget(scheduler.budgetUsage)
        spend(provider)
        ask(location, selected: selected, lookedUp: false, provider: provider)
    }

    /// One request to `provider` went out: its budget counts it, on disk too.
    private func spend(_ provider: ProviderName) {
        budgets.sent(provider, now: now)
        store.cache.storeBudget(budgets.usage(provider, now: now), provider: provider)
        noteSent(provider, calls: Self.pace(of: provider).callsPerRequest)
    }

    /// Spends `calls` of `provider`'s budget on a request beside the
    /// forecasts (air quality), when they fit with what the regular forecast
    /// schedule needs for the rest of the day and month kept back: such
    /// requests never starve the forecasts. nil when counted (on disk too);
    /// else the budget that cannot afford it and when it renews, nothing counted.
    func spendBeside(_ provider: ProviderName, calls: Double) -> (BudgetPeriod, resetsAt: Double)? {
        let time = now
        let reserve = scheduler.regularReserve(now: time)
        if let refused = budgets.exhausted(provider, calls: calls, reserve: reserve, now: time) { return refused }
        // With one provider configured, the scheduler's total is that provider's budget too.
        let single = context.configuration.provider != nil
        if single, let refused = scheduler.besideExhausted(calls: calls, now: time) { return refused }
        budgets.sent(provider, calls: calls, now: time)
        store.cache.storeBudget(budgets.usage(provider, now: time), provider: provider)
        noteSent(provider, calls: calls)
        if single {
            scheduler.sentBeside(calls: calls, now: time)
            store.cache.storeBudget(scheduler.budgetUsage)
        }
        return nil
    }

    /// A request counted by `spendBeside` never reached the provider: its calls are given back.
    func refundBeside(_ provider: ProviderName, calls: Double) {
        let time = now
        budgets.notSent(provider, calls: calls, now: time)
        store.cache.storeBudget(budgets.usage(provider, now: time), provider: provider)
        if context.configuration.provider != nil {
            scheduler.notSentBeside(calls: calls, now: time)
            store.cache.storeBudget(scheduler.budgetUsage)
        }
    }

    /// Sends what the provider's plan asks for `location`: a lookup, then
    /// (`lookedUp`) the forecast's requests with what it found, or the
    /// forecast's requests at once. The first request was counted by
    /// `start`; each further one is counted as it goes.
    private func ask(_ location: Location, selected: Bool, lookedUp: Bool, provider: ProviderName) {
        let id = location.id
        let time = now
        let source = source(provider)
        // Validators are the provider's own: another provider's ETag means nothing to it.
        let cached = store[id].flatMap { $0.forecast.provider == provider.rawValue ? $0 : nil }
        let plan = source.plan(
            for: location, units: settings.units, cached: cached,
            lookup: store.lookup(of: id, by: provider, now: time), now: time)
        switch plan {
        case .notCovered(let failure):
            // Answered on the next turn, as a request would be: after RefreshStarted.
            context.loop.later { [weak self] in
                self?.finished(location, selected: selected, provider: provider, outcome: .failed(failure))
            }
        case .lookup(let request):
            guard !lookedUp else {
                let failure = RefreshFailure(
                    error: .providerError,
                    message:
                        "\(source.name) asked for its lookup of the place again after answering it; raind retries later"
                )
                context.loop.later { [weak self] in
                    self?.finished(location, selected: selected, provider: provider, outcome: .failed(failure))
                }
                return
            }
            let transfer = http.fetch(request) { [weak self] result in
                self?.lookedUp(location, selected: selected, provider: provider, result: result)
            }
            if inFlight[id] != nil { inFlight[id]?.transfers = [transfer] }
        case .forecast(let requests):
            count(extra: lookedUp ? requests.count : requests.count - 1, provider: provider)
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
                        self.giveBackUnsent(all, provider: provider)
                        self.finished(
                            location, selected: selected, provider: provider,
                            outcome: source.interpret(all, for: location, now: self.now))
                    })
            }
            if inFlight[id] != nil { inFlight[id]?.transfers = transfers }
        }
    }

    /// Counts requests beyond the first of one refresh against the budgets.
    private func count(extra: Int, provider: ProviderName) {
        guard extra > 0 else { return }
        for _ in 0..<extra {
            scheduler.sent(now: now)
            spend(provider)
        }
        store.cache.storeBudget(scheduler.budgetUsage)
    }

    /// Requests that never reached the provider count nothing: libcurl could
    /// not be loaded, or the provider's name could not be resolved or its
    /// address connected to (nothing was asked of it).
    private func giveBackUnsent(_ results: [Result<HTTPResponse, HTTPFailure>], provider: ProviderName) {
        var changed = false
        for case .failure(let transport) in results
        where transport.neverSent || transport.kind == .dnsFailed || transport.kind == .connectFailed {
            scheduler.notSent(now: now)
            budgets.notSent(provider, now: now)
            if sentLastMinute[provider]?.isEmpty == false { sentLastMinute[provider]?.removeLast() }
            changed = true
        }
        guard changed else { return }
        store.cache.storeBudget(scheduler.budgetUsage)
        store.cache.storeBudget(budgets.usage(provider, now: now), provider: provider)
    }

    private func lookedUp(
        _ location: Location, selected: Bool, provider: ProviderName, result: Result<HTTPResponse, HTTPFailure>
    ) {
        guard inFlight[location.id] != nil else { return }
        giveBackUnsent([result], provider: provider)
        switch source(provider).interpretLookup(result, for: location, now: now) {
        case .success(let lookup):
            store.keep(lookup, of: location.id, by: provider)
            ask(location, selected: selected, lookedUp: true, provider: provider)
        case .failure(let failure):
            finished(location, selected: selected, provider: provider, outcome: .failed(failure))
        }
    }

    private func finished(
        _ location: Location, selected: Bool, provider: ProviderName, outcome: WeatherSource.Outcome
    ) {
        let id = location.id
        guard var flight = inFlight.removeValue(forKey: id) else { return }
        var outcome = outcome
        // An answer stale by its own times sends the place to its next
        // provider; from the last one, it is kept (and shown as stale).
        if case .fresh(let cached, _) = outcome, let problem = Self.outdatedProblem(cached.forecast, at: now),
            nextProvider(for: location, after: flight, failure: problem, besides: provider) != nil
        {
            outcome = .failed(problem)
        }
        if case .failed(let problem) = outcome {
            health.failed(provider, failure: problem, now: now)
            flight.failures.append((provider, problem))
            if let next = nextProvider(for: location, after: flight, failure: problem) {
                // The next provider of the place's list answers at once: one more request for this failure.
                logger.notice("\(id): \(provider) failed (\(problem.message)); asking \(next)")
                flight.provider = next
                flight.transfers = []
                inFlight[id] = flight
                scheduler.sent(now: now)
                store.cache.storeBudget(scheduler.budgetUsage)
                spend(next)
                ask(location, selected: selected, lookedUp: false, provider: next)
                return
            }
            if flight.failures.count > 1 { outcome = .failed(Self.combined(flight.failures)) }
        } else {
            health.succeeded(provider, now: now)
        }
        if case .fresh(var cached, let leftOut) = outcome {
            cached.forecast.failover = failover(for: location, servedBy: provider)
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
            cached?.forecast.failover = failover(for: location, servedBy: provider)
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
        if failure == nil { noteServing(location, by: provider, after: flight.failures) }
        publishReachability(wasOnline: wasOnline)
        for waiter in flight.waiters { waiter(failure) }
        reschedule()
        events.emit(.weatherChanged)
    }

    /// The provider to ask after `failure` in this refresh: the next of the
    /// place's list not asked yet, configured, within its budget and not
    /// backing off; nil when there is none, or when no provider could do
    /// better (this machine cannot make requests at all).
    private func nextProvider(
        for location: Location, after flight: Flight, failure: RefreshFailure, besides current: ProviderName? = nil
    ) -> ProviderName? {
        guard failure.error != .notConfigured || failure.httpStatus != nil, scheduler.networkUp else { return nil }
        let time = now
        var asked = Set(flight.failures.map(\.provider))
        if let current { asked.insert(current) }
        return chain(for: location).first { name in
            !asked.contains(name) && usable(name, now: time, selected: isSelectedOrNone(location.id))
                && health.isAvailable(name, now: time)
        }
    }

    /// One failure for a refresh every provider failed: the last one's kind
    /// and status, with each provider's own words.
    static func combined(_ failures: [(provider: ProviderName, failure: RefreshFailure)]) -> RefreshFailure {
        var result = failures[failures.count - 1].failure
        result.message =
            "every provider for this place failed: "
            + failures.map { "\($0.provider): \($0.failure.message)" }.joined(separator: "; ")
        return result
    }

    /// An answer whose every time lies in the past is no forecast, however
    /// recently it arrived: a failure of its provider, so the next answers.
    static func outdatedProblem(_ forecast: Forecast, at time: Double) -> RefreshFailure? {
        guard forecast.outdated(now: time) else { return nil }
        return RefreshFailure(
            error: .providerError,
            message:
                "\(forecast.provider) sent a forecast whose times all lie in the past; raind keeps the cached data and retries later",
            httpStatus: 200)
    }

    /// Why `provider` and not the first of `location`'s list serves it: the
    /// first one's last failure, shortened; nil when it is the first.
    private func failover(for location: Location, servedBy provider: ProviderName) -> ProviderFailover? {
        guard let preferred = chain(for: location).first, preferred != provider else { return nil }
        return ProviderFailover(provider: preferred.rawValue, lastFailure: health[preferred].lastFailure)
    }

    /// `provider` answered for `location`: when another provider served it
    /// before, `ProviderChanged` says which one serves it now and why.
    private func noteServing(
        _ location: Location, by provider: ProviderName,
        after failures: [(provider: ProviderName, failure: RefreshFailure)]
    ) {
        let id = location.id
        let previous = serving[id]?.provider
        let preferred = chain(for: location).first
        // The provider whose failure let this one serve; nil: it is the first choice.
        let failed: (provider: ProviderName, failure: RefreshFailure?)?
        if provider == preferred {
            failed = nil
        } else if let first = failures.first {
            failed = (first.provider, first.failure)
        } else if let preferred {
            failed = (preferred, health[preferred].lastFailure)
        } else {
            failed = nil
        }
        let change = ProviderChange(
            provider: provider.rawValue, previous: previous?.rawValue, failed: failed?.provider.rawValue,
            failure: failed?.failure)
        serving[id] = (provider, failed == nil ? nil : change.reason)
        guard let previous, previous != provider else { return }
        logger.notice("\(id): now served by \(provider) (\(change.reason))")
        events.emit(.published(.providerChanged(id, change)))
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
        guard cached != nil, let served = store.served(id, at: time) else { return }
        events.emit(.published(.weatherUpdated(id, served)))
        if let previousAlerts, served.alerts != previousAlerts {
            events.emit(.published(.alertsChanged(id, served.alerts)))
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
        paced.removeAll()
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
        let scheduled = scheduler.nextWake(list.locations.map(\.id), now: now)
        nextWake = [scheduled, pacedWake].compactMap { $0 }.min()
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
        // Data a proxy had kept (its Age) is stale by its age, however recently it
        // arrived; data whose every time has passed, by its own times.
        return (
            forecast, age,
            scheduler.isStale(id, now: time) || age >= scheduler.policy.staleAfter || forecast.outdated(now: time)
        )
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
                reconfigure(refreshMinutes: new.settings.refreshMinutes, retryRefused: false)
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
        case .published, .weatherChanged, .alertMomentReached:
            break
        }
    }

    /// The kinds `observe` acts on.
    static let observedKinds: Set<DaemonEvent.Kind> = [
        .stateChanged, .placeMoved, .watchingChanged, .becameActive, .networkChanged, .rainSoonInterestChanged,
        .configurationReloaded,
    ]
}
