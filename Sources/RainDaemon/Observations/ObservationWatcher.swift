import RainCore
import RainDaemonCore
import RainSystem

/// Finds each saved place's verifying station and polls it
/// (docs/OBSERVATIONS.md). A place's stations are looked for once a
/// `terms.stationLifetime` from the first source of `ObservationSources`
/// that covers its country, and the nearest within `VerifyingStation`'s
/// limits is chosen; a source with none passes the place to the next (METAR
/// last); a place with none anywhere says why. Each station is then asked
/// for its latest observation every `terms.pollingInterval` (an hour or
/// more, jittered), conditionally, once for all the places it verifies.
/// Each source keeps its book in the one ledger (`ServiceBooks`, under
/// `ProviderName.observations(_:)`): every request that reached it counts
/// against its daily budget, and after failures it backs off. What a
/// search settled on and each station's next poll are kept in the cache
/// (`KeptStationSearch`), so a restart asks nothing that is not due. All on the loop.
final class ObservationWatcher {
    private let context: DaemonContext
    /// Where each place's station search is kept (`stations/<id>.json`).
    private let cache: ForecastCache
    private let books: any ServiceBooks
    private let events: DaemonEvents
    /// Every request goes through it: one request in flight per URL, validators kept.
    private let answers: SharedAnswers
    private let logger: Logger
    private let timer: PollTimer
    private var client: UpstreamClient { UpstreamClient(configuration: context.configuration) }
    /// The places watched: the saved ones, none with `Enabled=no`.
    private var places: [Location] = []
    /// The saved places, watched again when `Enabled=` turns on.
    private var saved: [Location] = []
    private var searches: [LocationID: Search] = [:]

    /// What the place's station search looked up (the NWS's `/points`), if anything.
    func lookup(of id: LocationID) -> ProviderLookup? { searches[id]?.lookup }
    private var stations: [String: StationWatch] = [:]
    /// Of each source's requests today (its book's UTC day): those answered 304.
    private var unchanged: [String: (day: Double, count: Int)] = [:]
    /// Moves whenever a count, a station or an observation changes (`StatusVersion`).
    private(set) var changes = 0
    /// For tests: called when a search or a poll has settled.
    var settled: () -> Void = {}

    /// The search for one place's station.
    struct Search {
        /// The sources that may verify the place, in the table's order, and the one asked now.
        var sources: [any ObservationSource]
        var index = 0
        var lookup: ProviderLookup?
        var nextSearch: Double
        var transfer: (any HTTPCancellable)?
        /// What was found: the station's key in `stations`, or why there is none.
        var station: String?
        var distanceMetres: Double?
        var heightDifferenceMetres: Double?
        var problem: String?
    }

    /// One station's polling, shared by the places it verifies.
    struct StationWatch {
        var source: any ObservationSource
        var station: ObservationStation
        var nextPoll: Double
        var transfer: (any HTTPCancellable)?
        var latest: Observation?
        var problem: String?
    }

    init(
        context: DaemonContext, http: any HTTPFetching, books: any ServiceBooks, cache: ForecastCache,
        events: DaemonEvents = DaemonEvents()
    ) throws(SystemError) {
        self.context = context
        self.cache = cache
        self.events = events
        self.books = books
        let clock = context.clock
        self.answers = SharedAnswers(
            http: http, later: { [loop = context.loop] in loop.later($0) }, clock: { clock.wallNow })
        self.logger = context.logger.scoped("observations")
        self.timer = try PollTimer(
            loop: context.loop, clock: context.clock,
            seed: UInt64(truncatingIfNeeded: Int(context.clock.wallNow * 977)))
        timer.fired = { [weak self] in self?.timerFired() }
        timer.clockJumped = { [weak self] jump in
            guard let self else { return }
            for id in Array(self.searches.keys) { self.searches[id]?.nextSearch += jump }
            for key in Array(self.stations.keys) { self.stations[key]?.nextPoll += jump }
        }
    }

    private var now: Double { timer.now }

    // MARK: Places

    /// At start: takes up the saved places; the first requests go out from
    /// the loop, after `restoreKept` has read what the searches settled on.
    func restore(_ list: [Location]) {
        takeUp(list)
        reschedule(at: now)
    }

    /// What each place's search settled on before the restart, read from the
    /// cache after READY=1, before the loop runs: a place whose station is
    /// known is not looked for again before its time, its station not
    /// polled before its hour, and its latest observation is served at once.
    func restoreKept() {
        let time = now
        let baseURL = context.configuration.observationsBaseURL
        for place in places {
            guard var search = searches[place.id], search.transfer == nil,
                let kept = cache.loadStationSearch(of: place, baseURL: baseURL, sources: search.sources, now: time)
            else { continue }
            search.nextSearch = min(kept.nextSearch, time + Self.longestSearchWait)
            search.lookup = kept.lookup
            search.problem = kept.problem
            if let station = kept.station, let index = search.sources.firstIndex(where: { $0.name == kept.source }) {
                let source = search.sources[index]
                let key = source.name + "/" + station.id
                search.index = index
                (search.station, search.distanceMetres, search.heightDifferenceMetres) =
                    (key, kept.distanceMetres, kept.heightDifferenceMetres)
                let nextPoll = min(
                    kept.nextPoll ?? time, time + source.terms.pollingInterval * (1 + source.terms.jitterFraction))
                var watch = stations[key] ?? StationWatch(source: source, station: station, nextPoll: nextPoll)
                watch.nextPoll = min(watch.nextPoll, nextPoll)
                if let latest = kept.latest, latest.time > watch.latest?.time ?? -.infinity { watch.latest = latest }
                stations[key] = watch
            }
            searches[place.id] = search
        }
        changes += 1
        setBudgets()
        reschedule(at: time)
    }

    /// Writes what `id`'s search settled on and its station's poll (`KeptStationSearch`).
    private func keep(_ id: LocationID) {
        guard let search = searches[id], let place = places.first(where: { $0.id == id }) else { return }
        let watch = search.station.flatMap { stations[$0] }
        let problem = search.problem.map {
            AlertLimits.truncated($0.strippingControlCharacters(), toBytes: KeptStationSearch.maximumProblemBytes)
        }
        let kept = KeptStationSearch(
            latitude: place.latitude, longitude: place.longitude, baseURL: context.configuration.observationsBaseURL,
            nextSearch: search.nextSearch, lookup: search.lookup, source: watch?.source.name, station: watch?.station,
            distanceMetres: watch == nil ? nil : search.distanceMetres,
            heightDifferenceMetres: watch == nil ? nil : search.heightDifferenceMetres,
            problem: watch == nil ? problem ?? "no station found" : nil,
            // A poll under way when raind stops is sent again at its start.
            nextPoll: watch.map { $0.transfer == nil ? $0.nextPoll : now }, latest: watch?.latest)
        cache.storeStationSearch(kept, for: id)
    }

    func stateChanged(from old: PersistentState, to new: PersistentState) {
        guard old.places.locations != new.places.locations else { return }
        takeUp(new.places.locations)
        timerFired()
    }

    /// `Enabled=` or `BaseURL=` may have changed: every place's station is looked for again.
    func configurationReloaded() {
        answers.expireAll()
        for id in Array(searches.keys) { stop(id) }
        searches = [:]
        takeUp(saved)
        timerFired()
    }

    private func takeUp(_ list: [Location]) {
        changes += 1
        for place in saved where !list.contains(where: { $0.id == place.id }) {
            if let file = cache.stationSearchPath(for: place.id) { try? FileIO.removeFile(file) }
        }
        saved = list
        places = context.configuration.observationsEnabled ? list : []
        let time = now
        for id in Array(searches.keys) where !places.contains(where: { $0.id == id }) { stop(id) }
        for place in places where searches[place.id] == nil {
            searches[place.id] = Search(
                sources: ObservationSources.sources(forCountry: place.countryCode), nextSearch: time)
        }
        dropUnusedStations()
        setBudgets()
    }

    private func stop(_ id: LocationID) {
        searches[id]?.transfer?.cancel()
        searches[id] = nil
    }

    /// Stations no place is verified by any more are no longer polled.
    private func dropUnusedStations() {
        let used = Set(searches.values.compactMap(\.station))
        for key in Array(stations.keys) where !used.contains(key) {
            stations[key]?.transfer?.cancel()
            stations[key] = nil
        }
    }

    /// Each source's daily budget for its stations (`ObservationSourceTerms.dailyBudget`).
    private func setBudgets() {
        for source in ObservationSources.all {
            let count = stations.values.filter { $0.source.name == source.name }.count
            books.setBudget(of: .observations(source.name), daily: source.terms.dailyBudget(stations: count))
        }
    }

    // MARK: Polling

    /// Asks what is due and arms the timer for the next; without a network
    /// route nothing is asked, as for the forecasts, alerts and air, until
    /// the route comes back (`networkChanged` calls this again).
    func timerFired() {
        let time = now
        if books.networkUp {
            for (id, search) in searches where search.transfer == nil && search.nextSearch <= time {
                self.search(id, time: time)
            }
            for (key, watch) in stations where watch.transfer == nil && watch.nextPoll <= time {
                poll(key, time: time)
            }
        }
        reschedule(at: time)
    }

    private func reschedule(at time: Double) {
        guard books.networkUp else { return timer.disarm() }
        let searchTimes = searches.values.filter { $0.transfer == nil }.map(\.nextSearch)
        let pollTimes = stations.values.filter { $0.transfer == nil }.map(\.nextPoll)
        timer.arm(at: (searchTimes + pollTimes).min(), now: time)
    }

    private func baseURL(_ source: any ObservationSource) -> String {
        context.configuration.observationsBaseURL ?? source.defaultBaseURL
    }

    /// Whether `source`'s book lets a request go now; else when it next does.
    private func opens(_ source: any ObservationSource, at time: Double) -> Double? {
        let opens = books.opens(.observations(source.name), after: time) ?? time + Self.refusedRetry
        return opens > time ? opens : nil
    }

    private func fetch(
        _ source: any ObservationSource, _ request: ProviderRequest, conditional: Bool,
        completion: @escaping (UpstreamClient.Outcome) -> Void
    ) -> any HTTPCancellable {
        answers.fetch(
            client.request(baseURL(source) + request.path, headers: request.headers),
            conditional: conditional && source.terms.conditionalRequests,
            freshFor: source.terms.pollingInterval / 2,
            counted: { [weak self] response in self?.count(source, unchanged: response?.status == 304) }
        ) { [weak self] result in
            guard let self else { return }
            let outcome = UpstreamClient.outcome(result.map(\.response), now: self.now)
            self.noteHealth(of: source, outcome)
            completion(outcome)
        }
    }

    private func search(_ id: LocationID, time: Double) {
        guard var search = searches[id], let place = places.first(where: { $0.id == id }) else { return }
        guard search.index < search.sources.count else {
            return found(id, .none(search.problem ?? "no observation source covers the place"), source: nil)
        }
        let source = search.sources[search.index]
        if let reopens = opens(source, at: time) {
            searches[id]?.nextSearch = reopens
            return
        }
        let request: ProviderRequest
        var isLookup = false
        switch source.stationPlan(for: place, lookup: search.lookup) {
        case .notCovered(let reason):
            search.problem = reason
            search.index += 1
            searches[id] = search
            return self.search(id, time: time)
        case .lookup(let asked):
            request = asked
            isLookup = true
        case .stations(let asked):
            request = asked
        }
        search.transfer = fetch(source, request, conditional: false) { [weak self] outcome in
            self?.searched(id, source: source, outcome: outcome, isLookup: isLookup, place: place)
        }
        searches[id] = search
    }

    private func searched(
        _ id: LocationID, source: any ObservationSource, outcome: UpstreamClient.Outcome, isLookup: Bool,
        place: Location
    ) {
        guard searches[id] != nil else { return }
        searches[id]?.transfer = nil
        let time = now
        let body: [UInt8]
        switch outcome {
        case .answered(let response), .notModified(let response):
            body = response.body
        case .refused(let response, _) where response.status == 204:
            body = []
        case .refused(let response, _) where response.status == 404:
            // The source has nothing for the point (the NWS's /points outside its grids): the next one is asked.
            searches[id]?.problem = "\(source.name): HTTP 404"
            searches[id]?.index += 1
            searches[id]?.lookup = nil
            search(id, time: time)
            return settle(at: time)
        default:
            // Asked again after a poll interval: the search is not the place's last word.
            searches[id]?.problem = "\(source.name): \(outcome.problem ?? "no answer")"
            searches[id]?.nextSearch = time + source.terms.pollingInterval
            return settle(at: time)
        }
        do {
            if isLookup {
                searches[id]?.lookup = try source.parseLookup(body, now: time)
                search(id, time: time)
                return settle(at: time)
            }
            let candidates = try source.stations(body, now: time)
            switch VerifyingStation.choose(candidates, for: place, placeHeight: nil) {
            case .station(let station, let distance, let height):
                searches[id]?.nextSearch = time + source.terms.stationLifetime
                found(id, .station(station, distanceMetres: distance, heightDifferenceMetres: height), source: source)
            case .none(let reason):
                searches[id]?.problem = reason
                searches[id]?.index += 1
                if let search = searches[id], search.index < search.sources.count {
                    self.search(id, time: time)
                } else {
                    searches[id]?.nextSearch = time + source.terms.stationLifetime
                    found(id, .none(reason), source: nil)
                }
            }
        } catch {
            if case .notCovered(let reason) = error.problem {
                searches[id]?.problem = reason
                searches[id]?.index += 1
                search(id, time: time)
            } else {
                logger.warning("\(id): \(error)")
                searches[id]?.problem = "\(error)"
                searches[id]?.nextSearch = time + source.terms.pollingInterval
            }
        }
        settle(at: time)
    }

    /// Keeps what the search found for the place; a station new to raind is polled at once.
    private func found(_ id: LocationID, _ choice: VerifyingStation.Choice, source: (any ObservationSource)?) {
        guard var search = searches[id] else { return }
        switch choice {
        case .station(let station, let distance, let height):
            guard let source else { return }
            let key = source.name + "/" + station.id
            (search.station, search.distanceMetres, search.heightDifferenceMetres) = (key, distance, height)
            search.problem = nil
            if stations[key] == nil {
                stations[key] = StationWatch(source: source, station: station, nextPoll: now)
            }
        case .none(let reason):
            (search.station, search.distanceMetres, search.heightDifferenceMetres) = (nil, nil, nil)
            search.problem = reason
            search.nextSearch = max(search.nextSearch, now + Self.noStationRetry)
            search.index = 0
            search.lookup = nil
        }
        searches[id] = search
        changes += 1
        dropUnusedStations()
        setBudgets()
        timerFired()
        keep(id)
    }

    private func poll(_ key: String, time: Double) {
        guard var watch = stations[key] else { return }
        let source = watch.source
        if let reopens = opens(source, at: time) {
            stations[key]?.nextPoll = reopens
            let book = books.book(of: .observations(source.name))
            if let daily = book.daily, book.usage.callsToday >= daily {
                stations[key]?.problem = AlertWatcher.budgetSpent(source.name, daily: daily)
            }
            return
        }
        let jitter = timer.jitter.delay(interval: source.terms.pollingInterval, fraction: source.terms.jitterFraction)
        watch.nextPoll = time + source.terms.pollingInterval + jitter
        watch.transfer = fetch(source, source.request(for: watch.station), conditional: true) { [weak self] outcome in
            self?.polled(key, outcome)
        }
        stations[key] = watch
    }

    private func polled(_ key: String, _ outcome: UpstreamClient.Outcome) {
        guard var watch = stations[key] else { return }
        watch.transfer = nil
        let time = now
        switch outcome {
        case .answered(let response), .notModified(let response):
            do {
                let latest = try watch.source.observation(response.body, station: watch.station, now: time)
                if latest != watch.latest {
                    let places = searches.filter { $0.value.station == key }.map(\.key).sorted()
                    events.emit(.observed(places, latest))
                }
                watch.latest = latest
                watch.problem = nil
            } catch {
                logger.warning("\(key): \(error)")
                watch.problem = "\(error)"
            }
        case .refused(let response, _) where response.status == 204:
            watch.problem = "no recent report from \(watch.station.id)"
        default:
            watch.problem = outcome.problem
            if let problem = outcome.problem { logger.warning("\(key): \(problem)") }
        }
        stations[key] = watch
        changes += 1
        for (id, search) in searches where search.station == key { keep(id) }
        settle(at: time)
    }

    private func settle(at time: Double) {
        changes += 1
        reschedule(at: time)
        settled()
    }

    /// One request reached `source`: the ledger counts it; today's 304s are counted here.
    private func count(_ source: any ObservationSource, unchanged isUnchanged: Bool) {
        let name = ProviderName.observations(source.name)
        books.count(on: name)
        let day = books.book(of: name).usage.day
        var entry = unchanged[source.name] ?? (day, 0)
        if entry.day != day { entry = (day, 0) }
        if isUnchanged { entry.count += 1 }
        unchanged[source.name] = entry
        changes += 1
    }

    /// What a poll's outcome says of the source's health (`ServiceBooks.note`).
    private func noteHealth(of source: any ObservationSource, _ outcome: UpstreamClient.Outcome) {
        let name = ProviderName.observations(source.name)
        books.note(outcome, of: name)
        changes += 1
    }

    /// After a source refused raind (401, 403), it is asked again this long after.
    static let refusedRetry: Double = 3600
    /// A place with no station is looked at again after a day (a station may start reporting).
    static let noStationRetry: Double = 86_400
    /// The furthest ahead a search is ever set (a source's station lifetime, a
    /// day for a place with none): a kept time beyond it is cut to it.
    static let longestSearchWait = ObservationSources.all.map(\.terms.stationLifetime).reduce(noStationRetry, max)

    // MARK: What it holds

    /// What raind holds of `id`'s verifying station: nil while it is looked for.
    func observed(at id: LocationID) -> PlaceObservation? {
        guard let search = searches[id] else { return nil }
        if let key = search.station, let watch = stations[key] {
            return PlaceObservation(
                id: id, source: watch.source.name, station: watch.station, distanceMetres: search.distanceMetres,
                heightDifferenceMetres: search.heightDifferenceMetres, observation: watch.latest,
                problem: watch.problem, attribution: watch.source.attribution)
        }
        guard search.transfer == nil, let problem = search.problem else { return nil }
        return PlaceObservation(id: id, problem: problem)
    }

    /// Why a station's history was not read.
    enum HistoryProblem: Error, Equatable, CustomStringConvertible {
        /// The request never reached the service (nothing was counted): worth asking again.
        case unreached(String)
        /// The service did not answer it (an HTTP error, a cut transfer): worth asking again later.
        case failed(String)
        /// It answered something raind refuses; asking again would likely get the same.
        case unreadable(String)

        var description: String {
            switch self {
            case .unreached(let text), .failed(let text), .unreadable(let text): text
            }
        }
    }

    /// The observations of `id`'s verifying station from `since` to now
    /// (`ObservationSource.historyRequest`), asked once for the place's
    /// backfill and counted in the source's book like its polls; nil when
    /// the place has no station yet or the source's book lets nothing go now.
    func history(
        of id: LocationID, since: Double, completion: @escaping (Result<[Observation], HistoryProblem>) -> Void
    ) -> (any HTTPCancellable)? {
        guard let key = searches[id]?.station, let watch = stations[key], opens(watch.source, at: now) == nil else {
            return nil
        }
        let (source, station) = (watch.source, watch.station)
        let request = source.historyRequest(for: station, since: since, now: now)
        return fetch(source, request, conditional: false) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .answered(let response), .notModified(let response):
                do {
                    completion(.success(try source.history(response.body, station: station, now: self.now)))
                } catch {
                    self.logger.warning("\(key): its past observations: \(error)")
                    completion(.failure(.unreadable("\(error)")))
                }
            case .unreached(let failure):
                completion(.failure(.unreached(failure.message)))
            default:
                completion(.failure(.failed("\(source.name): \(outcome.problem ?? "no answer")")))
            }
            self.settle(at: self.now)
        }
    }

    /// Each source polled for a station, or asked today: its stations, places and counts at `time`.
    func sourceStatuses(now time: Double) -> [ObservationSourceStatus] {
        var used: [String: (stations: [String], places: [LocationID])] = [:]
        for watch in stations.values { used[watch.source.name, default: ([], [])].stations.append(watch.station.id) }
        for place in places {
            guard let key = searches[place.id]?.station, let watch = stations[key] else { continue }
            used[watch.source.name, default: ([], [])].places.append(place.id)
        }
        return ObservationSources.all.compactMap { source in
            let book = books.book(of: .observations(source.name))
            let current = book.usage.current(now: time)
            let entry = used[source.name]
            guard entry != nil || current.requestsToday > 0 else { return nil }
            let stationIDs = (entry?.stations ?? []).sorted()
            let unchangedToday = unchanged[source.name].flatMap { $0.day == current.day ? $0.count : nil } ?? 0
            return ObservationSourceStatus(
                name: source.name, stations: stationIDs, places: entry?.places ?? [],
                pollingSeconds: source.terms.pollingInterval,
                requestsPerDay: Double(stationIDs.count) * 86_400 / source.terms.pollingInterval, usage: current,
                unchangedToday: unchangedToday, dailyBudget: book.daily ?? 0,
                failures: book.health.consecutiveFailures,
                backoffUntil: book.health.backoffUntil.flatMap { $0 > time ? $0 : nil })
        }
    }

    /// Whether no search or poll is under way.
    var isIdle: Bool {
        searches.values.allSatisfy { $0.transfer == nil } && stations.values.allSatisfy { $0.transfer == nil }
    }

    func cancelAll() {
        for id in Array(searches.keys) { stop(id) }
        for key in Array(stations.keys) { stations[key]?.transfer?.cancel() }
        timer.disarm()
    }
}
