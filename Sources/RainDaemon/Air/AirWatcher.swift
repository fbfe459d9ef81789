import RainCore
import RainDaemonCore
import RainSystem

/// Fetches each saved place's air quality from the air-quality service of
/// its provider list (`Configuration.airService(for:)`), on its own schedule
/// (`AirSchedule`: the selected place once per model update, the others
/// less often, jittered), each request counted in the provider's units
/// against its budget with the forecasts' needs kept back
/// (`Refresher.spendBeside`). What arrives is validated, kept in the
/// `ForecastStore` (served as `Forecast.air`) and in `air/<id>.json` in the
/// cache, and published as `WeatherUpdated`. A failure keeps the last data,
/// says why in `AirQuality.problem` and touches nothing of the forecast.
/// All on the loop.
final class AirWatcher {
    private let context: DaemonContext
    private let http: any HTTPFetching
    private let store: ForecastStore
    private let events: DaemonEvents
    private let logger: Logger
    /// The providers' budgets the air spends from, beside the forecasts (the refresher's ledger).
    private let budget: any BudgetBeside
    private(set) var schedule: AirSchedule
    private var places: [Location] = []
    private var selected: LocationID?
    /// The saved places as last given, for a reload.
    private var list = LocationList()
    private var transfers: [LocationID: any HTTPCancellable] = [:]
    /// The poll timer; reading the time through it follows wall-clock jumps.
    private let timer: PollTimer
    /// Problems logged once each, until the place answers again.
    private var loggedProblems: [LocationID: String] = [:]
    /// The saved places a person looks at now (`Refresher.placesLookedAt`):
    /// of what fell due while the machine slept or was offline, theirs is
    /// asked at once, the others' spread over their interval. nil: every place.
    var attention: () -> [LocationID]? = { nil }
    /// For tests: called when a request has been answered (or failed) and its outcome kept.
    var settled: () -> Void = {}

    init(
        context: DaemonContext, http: any HTTPFetching, store: ForecastStore, events: DaemonEvents,
        budget: any BudgetBeside
    ) throws(SystemError) {
        self.context = context
        self.http = http
        self.store = store
        self.events = events
        self.budget = budget
        self.logger = context.logger.scoped("air")
        // One schedule for every place: the longest update interval and jitter
        // of the services raind knows (Open-Meteo's alone today), never asking
        // any of them more often than its model is renewed.
        let services = WeatherProviders.all.compactMap(\.airQuality)
        self.schedule = AirSchedule(
            updateInterval: services.map(\.updateInterval).max() ?? 3600,
            jitterFraction: services.map(\.jitterFraction).max() ?? 0.1,
            seed: UInt64(truncatingIfNeeded: Int(context.clock.wallNow * 991)))
        self.timer = try PollTimer(
            loop: context.loop, clock: context.clock, seed: UInt64(truncatingIfNeeded: Int(context.clock.wallNow * 991))
        )
        timer.fired = { [weak self] in self?.timerFired() }
        // The schedule's times move with a jump of the wall clock, as the refresher's do.
        timer.clockJumped = { [weak self] in self?.schedule.clockJumped(by: $0) }
    }

    /// The wall-clock time, after following any jump of the clock since the last reading.
    private var now: Double { timer.now }

    // MARK: Places

    /// At start: takes up the saved places with their cached data and arms
    /// the timer. The first requests go out from the loop once raind is
    /// ready: libcurl is loaded at the first request, and READY=1 does not
    /// wait for it. With `othersLater`, only the selected place's data is
    /// read now, the others' in `restoreOthers()` (right after READY=1).
    func restore(_ list: LocationList, othersLater: Bool = false) {
        takeUp(list, at: now, reading: othersLater ? Set(list.selectedID.map { [$0] } ?? []) : nil)
        reschedule(at: now)
        announceKept(places.map(\.id))
    }

    /// Reads the cached data of the places `restore(_:othersLater:)` left.
    func restoreOthers() {
        let time = now
        let ids = unread
        unread = []
        for place in places where ids.contains(place.id) { read(place, at: time) }
        reschedule(at: time)
        announceKept(places.map(\.id).filter(ids.contains))
    }

    /// The notifier decides on the air kept from before once the loop runs
    /// (the event table is connected by then): an episode it has not shown
    /// is shown at start, not at the next forecast.
    private func announceKept(_ ids: [LocationID]) {
        let restored = ids.compactMap { id in store.air(of: id).map { (id, $0) } }
        guard !restored.isEmpty else { return }
        context.loop.later { [events] in
            for (id, air) in restored { events.emit(.airKept(id, air)) }
        }
    }

    /// Places whose cached data is read after READY=1 (`restoreOthers`).
    private var unread: Set<LocationID> = []

    /// `place`'s cached data, kept and scheduled from.
    private func read(_ place: Location, at time: Double) {
        let cached = load(place)
        store.setAir(cached, for: place.id)
        if let cached { schedule.restored(place.id, fetchedAt: cached.fetchedAt, now: time) }
    }

    /// Starts watching `list`'s places after a change to them, and asks what is due.
    func placesChanged(_ list: LocationList) {
        takeUp(list, at: now)
        timerFired()
    }

    /// The cached data of a new place is loaded, a removed place forgotten.
    /// `reading`: the new places whose cached data is read now (nil: all of
    /// them); the others' is read in `restoreOthers()`.
    private func takeUp(_ list: LocationList, at time: Double, reading: Set<LocationID>? = nil) {
        let previous = Set(places.map(\.id))
        self.list = list
        places = list.locations.filter { context.configuration.airService(for: $0) != nil }
        selected = list.selectedID
        let kept = Set(places.map(\.id))
        for location in list.locations where !kept.contains(location.id) {
            stop(location.id)
            store.setAir(nil, for: location.id)
            if !list.locations.contains(where: { $0.id == location.id }) { removeFile(location.id) }
        }
        for id in previous where list[id] == nil {
            stop(id)
            store.setAir(nil, for: id)
            removeFile(id)
        }
        schedule.track(places.map(\.id), selected: selected, now: time)
        unread = unread.filter(kept.contains)
        for place in places where !previous.contains(place.id) {
            if let reading, !reading.contains(place.id) {
                unread.insert(place.id)
            } else {
                read(place, at: time)
            }
        }
    }

    /// A place moved (the following place reached another town): its air is asked anew.
    private func moved(_ id: LocationID) {
        stop(id)
        store.setAir(nil, for: id)
        schedule.restored(id, fetchedAt: 0, now: now)
    }

    // What moves the watcher (the event table, `DaemonEvents.connect`).

    /// Places added, removed or moved are taken up; a selection alone only
    /// changes which place is polled at the shorter interval.
    func stateChanged(from old: PersistentState, to new: PersistentState) {
        if old.places.locations == new.places.locations {
            guard old.places.selectedID != new.places.selectedID else { return }
            list = new.places
            selected = new.places.selectedID
            let time = now
            schedule.selectionChanged(to: selected, now: time)
            reschedule(at: time)
            return
        }
        for place in new.places.locations {
            guard let before = old.places[place.id] else { continue }
            if before.latitude != place.latitude || before.longitude != place.longitude { moved(place.id) }
        }
        placesChanged(new.places)
    }

    /// Enabled=, the index or the providers may have changed: every place is
    /// taken up anew, its cached air kept while it is on the index now shown.
    func configurationReloaded() {
        for place in places { stop(place.id) }
        places = []
        schedule.track([], selected: nil, now: now)
        placesChanged(list)
    }

    private func stop(_ id: LocationID) {
        transfers.removeValue(forKey: id)?.cancel()
    }

    /// Cancels every request (shutdown).
    func cancelAll() {
        for id in Array(transfers.keys) { stop(id) }
        timer.disarm()
    }

    // MARK: Fetching

    /// Asks for what is due and arms the timer for the next.
    func timerFired() {
        let time = now
        if budget.networkUp {
            schedule.catchUp(now: time, lookedAt: attention().map(Set.init))
            for id in schedule.due(now: time) { ask(id, at: time) }
        }
        reschedule(at: time)
    }

    private func reschedule(at time: Double) {
        timer.arm(at: budget.networkUp ? schedule.nextWake() : nil, now: time)
    }

    private func ask(_ id: LocationID, at time: Double) {
        guard let place = places.first(where: { $0.id == id }),
            let service = context.configuration.airService(for: place)
        else { return }
        let index = context.configuration.airIndex(for: place)
        let (request, calls) = service.request(for: place, index: index)
        if let (period, resetsAt) = budget.spendBeside(service.provider, calls: calls) {
            schedule.deferred(id, until: resetsAt)
            note(
                id,
                "not asked: \(service.provider)'s \(period == .day ? "daily" : "monthly") budget is kept for the forecasts until it renews"
            )
            return
        }
        schedule.started(id)
        let base = context.configuration.airBaseURL ?? service.defaultBaseURL
        let http = UpstreamClient(configuration: context.configuration).request(
            base + request.path, headers: request.headers)
        transfers[id] = self.http.fetch(http) { [weak self] result in
            self?.answered(id, place: place, index: index, service: service, calls: calls, result)
        }
    }

    private func answered(
        _ id: LocationID, place: Location, index: AirQualityIndex, service: any AirQualityService, calls: Double,
        _ result: Result<HTTPResponse, HTTPFailure>
    ) {
        guard transfers.removeValue(forKey: id) != nil else { return }
        let time = now
        let outcome = UpstreamClient.outcome(result, now: time)
        if outcome.refundable { budget.refundBeside(service.provider, calls: calls) }
        switch outcome {
        case .failed(let failure):
            failed(id, failure.message, wording: failure.wording, at: time)
        case .unreached(let failure):
            failed(id, failure.message, wording: failure.wording, at: time, unreachable: true)
        case .answered(let response) where response.status == 200:
            do {
                let air = try service.parse(response.body, index: index, fetchedAt: time)
                if let problem = air.validationProblem() { throw problem }
                succeeded(id, place: place, air)
            } catch {
                failed(id, "\(service.provider) sent air quality raind cannot use: \(error)", at: time)
            }
        case .answered(let response), .notModified(let response), .refused(let response, _):
            // The provider's own words for a refusal (Open-Meteo's reason) are its part.
            let refusal = WeatherProviders.provider(service.provider).refusal(in: response.body, now: time)
            let retry: Double?
            if case .refused(_, let after) = outcome { retry = after } else { retry = nil }
            let reason = refusal.map { ": \($0.reason)" } ?? ""
            failed(id, "HTTP \(response.status)\(reason)", at: time, retryAfter: retry ?? refusal?.retryAfter)
        }
        reschedule(at: now)
        settled()
    }

    private func succeeded(_ id: LocationID, place: Location, _ air: AirQuality) {
        schedule.succeeded(id, now: now)
        loggedProblems[id] = nil
        store.setAir(air, for: id)
        save(air, for: place)
        publish(id)
    }

    /// Keeps the last data, with the problem; the forecast is not touched.
    private func failed(
        _ id: LocationID, _ problem: String, wording: FailureWording? = nil, at time: Double, retryAfter: Double? = nil,
        unreachable: Bool = false
    ) {
        if unreachable {
            schedule.unreachable(id, now: time)
        } else {
            schedule.failed(id, now: time, retryAfter: retryAfter)
        }
        note(id, problem)
        guard var kept = store.air(of: id) else { return }
        // Long enough for a transfer's sentence with Open-Meteo's long URL,
        // so it stays the wording's English and raindctl can word it again.
        kept.problem = String(problem.prefix(AirQuality.maximumProblemCharacters))
        kept.wording = wording?.cacheable
        store.setAir(kept, for: id)
        publish(id)
    }

    /// Logs a place's problem once, until it changes or the place answers.
    private func note(_ id: LocationID, _ problem: String) {
        guard loggedProblems[id] != problem else { return }
        loggedProblems[id] = problem
        logger.warning("\(id): air quality: \(problem)")
    }

    /// Tells subscribers (and the notifier) of the place's data with its
    /// new air; before the place has a forecast, the notifier alone, so the
    /// air notifies when it arrives.
    private func publish(_ id: LocationID) {
        guard let served = store.served(id, at: now) else {
            return events.emit(.airKept(id, store.air(of: id)))
        }
        events.emit(.published(.weatherUpdated(id, served)))
    }

    // MARK: Cache

    private var directory: String { context.paths.cacheDirectory + "/air" }

    private func path(_ id: LocationID) -> String? {
        id.isWellFormed ? "\(directory)/\(id.rawValue).json" : nil
    }

    /// The cached air of a place, when it is usable and for its position;
    /// a file that is not is discarded with a warning. Read as every cache
    /// file is (`ForecastCache.read`): a symbolic link is not followed, and
    /// a FIFO, a directory or a file over `CachedAir.maximumBytes` is
    /// refused without waiting or reading it whole.
    private func load(_ place: Location) -> AirQuality? {
        guard let file = path(place.id),
            let bytes = store.cache.read(file, limit: CachedAir.maximumBytes, what: "air cache file")
        else { return nil }
        do {
            let cached = try CachedAir(json: try JSON(parsing: bytes), context: "air cache")
            guard cached.version == CachedAir.currentVersion else { throw CachedAir.otherVersion }
            if let problem = cached.air.validationProblem() { throw problem }
            let distance = GeoDistance.kilometres(
                latitude1: cached.latitude, longitude1: cached.longitude, latitude2: place.latitude,
                longitude2: place.longitude)
            guard distance < LocationList.sameplaceKilometres,
                cached.air.index == context.configuration.airIndex(for: place)
            else {
                try? FileIO.removeFile(file)
                return nil
            }
            return cached.air
        } catch {
            logger.warning("cache file \(file) is corrupt (\(error)); discarding it, the air will be fetched again")
            try? FileIO.removeFile(file)
            return nil
        }
    }

    private func save(_ air: AirQuality, for place: Location) {
        guard let file = path(place.id) else { return }
        let cached = CachedAir(latitude: place.latitude, longitude: place.longitude, air: air)
        store.cache.write(cached.jsonBytes, to: file, in: directory, what: "air", for: place.id)
    }

    private func removeFile(_ id: LocationID) {
        guard let file = path(id) else { return }
        try? FileIO.removeFile(file)
    }
}

/// A place's air as kept on disk (`air/<id>.json`).
struct CachedAir: Codable {
    /// No file raind writes is near this: a place's index, pollutants and UV for a few days.
    static let maximumBytes = 1 << 20

    var version = Self.currentVersion
    var latitude: Double
    var longitude: Double
    var air: AirQuality

    static let currentVersion = 1

    init(latitude: Double, longitude: Double, air: AirQuality) {
        self.latitude = latitude
        self.longitude = longitude
        self.air = air
    }

    static let otherVersion = WireDecodingError(field: "version", reason: "not version \(currentVersion)")
}
