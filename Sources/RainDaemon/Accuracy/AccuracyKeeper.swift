import RainCore
import RainDaemonCore
import RainSystem

/// Keeps, per place, what each provider's forecasts said for the hours its
/// verifying station observes, and scores them (docs/ACCURACY.md). The
/// serving provider's forecasts are sampled as they arrive
/// (`WeatherUpdated`); the other providers covering a place are asked
/// `comparisonsPerDay` times a day (`AccuracyKeeper+Comparisons`), spending
/// beside the forecasts in their own books, never past their budgets. Each
/// station's observations arrive as `observed` events; the first of a new
/// place's starts its backfill from history (`AccuracyKeeper+Backfill`).
/// All on the loop.
final class AccuracyKeeper {
    let context: DaemonContext
    let http: any HTTPFetching
    let files: AccuracyFiles
    let logger: Logger
    let timer: PollTimer
    weak var refresher: Refresher?
    weak var observations: ObservationWatcher?
    var places: [Location] = []
    /// The records read or started so far: each place's file is read when
    /// first needed (a sample, an observation, GetAccuracy), not at start,
    /// so start-up does not grow with what is kept.
    var records: [LocationID: AccuracyRecord] = [:]
    /// Places whose record changed since it was last written, and when each was last written.
    var dirty: Set<LocationID> = []
    var written: [LocationID: Double] = [:]
    /// Why a place's file was refused (until the place's next good write).
    var refused: [LocationID: String] = [:]
    /// The provider serving each place and since when (nil: since before raind started).
    var serving: [LocationID: (provider: String, since: Double?)] = [:]
    /// The moves the scores made (`rank`), until the refresh that makes them says so.
    var moves: [LocationID: ProviderChoice] = [:]
    /// Places whose kept leader's reason was worked out since raind started.
    var explained: Set<LocationID> = []
    /// When each place's other providers are asked next, and the transfers under way.
    var nextComparison: [LocationID: Double] = [:]
    var comparing: [LocationID: [any HTTPCancellable]] = [:]
    /// For tests: called when a place's comparison requests have all settled.
    var compared: (LocationID) -> Void = { _ in }
    /// The backfills under way (`AccuracyKeeper+Backfill`), and for tests: called when one has settled.
    var backfilling: [LocationID: [any HTTPCancellable]] = [:]
    var backfillSettled: (LocationID) -> Void = { _ in }

    /// A record is written at most this often (and when raind stops): a
    /// crash loses at most an hour of pairs, and a place's file, up to
    /// megabytes, is not rewritten at every forecast and observation.
    static let writeSpacing: Double = 3600

    /// How often a day each place's other providers are asked: every six
    /// hours, so with a sample window of three hours each lead time gets
    /// half the day's hours from each of them.
    static let comparisonsPerDay = 4

    init(
        context: DaemonContext, http: any HTTPFetching, refresher: Refresher, observations: ObservationWatcher?
    )
        throws(SystemError)
    {
        self.context = context
        self.http = http
        self.files = AccuracyFiles(stateDirectory: context.paths.stateDirectory)
        self.logger = context.logger.scoped("accuracy")
        self.refresher = refresher
        self.observations = observations
        self.timer = try PollTimer(
            loop: context.loop, clock: context.clock,
            seed: UInt64(truncatingIfNeeded: Int(context.clock.wallNow * 983)))
        timer.fired = { [weak self] in self?.timerFired() }
        refresher.accuracy = self
        timer.clockJumped = { [weak self] jump in
            guard let self else { return }
            for id in Array(self.nextComparison.keys) { self.nextComparison[id]? += jump }
        }
    }

    var now: Double { timer.now }

    // MARK: Places

    /// At start: each saved place's record read back, and who serves it from the cache.
    func restore(_ list: [Location], forecasts: ForecastStore) {
        takeUp(list)
        for place in list {
            if let forecast = forecasts[place.id]?.forecast { serving[place.id] = (forecast.provider, nil) }
            // Correcting needs each place's record from the start (`AccuracyKeeper+Correction`).
            if context.configuration.correctTemperature { _ = record(place.id) }
        }
        reschedule()
    }

    /// `id`'s cached forecast, read at start, is `provider`'s: it serves the
    /// place since before raind started, unless a forecast since said otherwise.
    func servedBeforeStart(_ id: LocationID, by provider: String) {
        if serving[id] == nil { serving[id] = (provider, nil) }
    }

    func stateChanged(from old: PersistentState, to new: PersistentState) {
        guard old.places.locations != new.places.locations else { return }
        let kept = Set(new.places.locations.map(\.id))
        for place in places where !kept.contains(place.id) {
            files.remove(place.id)
            for transfer in comparing[place.id] ?? [] { transfer.cancel() }
            comparing[place.id] = nil
            for transfer in backfilling[place.id] ?? [] { transfer.cancel() }
            backfilling[place.id] = nil
            records[place.id] = nil
            dirty.remove(place.id)
            written[place.id] = nil
            refused[place.id] = nil
            serving[place.id] = nil
            moves[place.id] = nil
            explained.remove(place.id)
            refresher?.setChoice(nil, for: place.id)
            nextComparison[place.id] = nil
        }
        takeUp(new.places.locations)
        reschedule()
    }

    private func takeUp(_ list: [Location]) {
        places = list
        let time = now
        // The first comparison waits a quarter of the spacing: the station is found first.
        for place in list where nextComparison[place.id] == nil { nextComparison[place.id] = time + Self.spacing / 4 }
    }

    /// `id`'s record, read from its file the first time it is needed; nil for a place not saved.
    func record(_ id: LocationID) -> AccuracyRecord? {
        if let record = records[id] { return record }
        guard places.contains(where: { $0.id == id }) else { return nil }
        let time = now
        var record = AccuracyRecord()
        switch files.load(id, now: time) {
        case .missing:
            break
        case .loaded(let read):
            record = read
            record.trim(now: time)
        case .refused(let reason, let keptAt):
            let message =
                "the accuracy file of \(id) is damaged (\(reason)); raind kept it as \(keptAt) and starts the place's record anew"
            logger.error(message)
            refused[id] = message
        }
        records[id] = record
        measureBias(of: id)
        return record
    }

    static var spacing: Double { 86_400 / Double(comparisonsPerDay) }

    // MARK: What arrives

    /// A client-visible change: a new forecast is a sample of its provider.
    func published(_ event: Event) {
        guard case .weatherUpdated(let id, let forecast) = event, record(id) != nil else { return }
        if serving[id]?.provider != forecast.provider { serving[id] = (forecast.provider, now) }
        keep(forecast, for: id)
    }

    /// A station's new observation, for the places it verifies.
    func observed(_ ids: [LocationID], _ observation: Observation) {
        let time = now
        for id in ids where record(id) != nil {
            records[id]?.record(observation, now: time)
            save(id)
            if let place = places.first(where: { $0.id == id }) { backfillIfDue(place) }
            measureBias(of: id)
        }
    }

    func keep(_ forecast: Forecast, for id: LocationID) {
        guard record(id) != nil else { return }
        records[id]?.record(forecast, now: now)
        save(id)
    }

    /// `id`'s record changed: written now when it was not in the last
    /// `writeSpacing`, else when the timer next fires.
    func save(_ id: LocationID) {
        dirty.insert(id)
        let time = now
        if let last = written[id], time - last < Self.writeSpacing, time >= last {
            reschedule()
        } else {
            write(id, at: time)
        }
    }

    /// Writes every changed record whose spacing has passed (`all`: every changed one, when raind stops).
    func flush(all: Bool = false) {
        let time = now
        for id in dirty.sorted() where all || time - (written[id] ?? -.infinity) >= Self.writeSpacing {
            write(id, at: time)
        }
    }

    private func write(_ id: LocationID, at time: Double) {
        dirty.remove(id)
        written[id] = time
        guard let record = records[id] else { return }
        do {
            try files.store(record, for: id)
            refused[id] = nil
        } catch {
            logger.warning("cannot write the accuracy file of \(id): \(error)")
        }
    }

    /// When the next changed record is due to be written; nil when none waits.
    var nextWrite: Double? {
        dirty.compactMap { written[$0].map { $0 + Self.writeSpacing } }.min()
    }

    // MARK: What it says

    /// `id`'s scores over the window ending now.
    func accuracy(of location: Location) -> PlaceAccuracy {
        let time = now
        let record = self.record(location.id) ?? AccuracyRecord()
        var result = PlaceAccuracy(
            id: location.id.rawValue, name: location.name, from: time - AccuracyScorer.windowSeconds, until: time,
            minimumPairs: AccuracyScorer.minimumPairs, scores: AccuracyScorer.scores(record, now: time))
        result.days = AccuracyScorer.days(record, now: time)
        if let observed = observations?.observed(at: location.id) {
            result.source = observed.source
            result.station = observed.station
            result.distanceMetres = observed.distanceMetres
            result.heightDifferenceMetres = observed.heightDifferenceMetres
            if observed.station == nil { result.problem = observed.problem }
        } else if !context.configuration.observationsEnabled {
            result.problem = "observations are off ([Observations] Enabled=no)"
        }
        result.fileProblem = refused[location.id]
        if let serving = serving[location.id] {
            result.serving = serving.provider
            result.servingSince = serving.since
        }
        result.backfill = record.backfill
        return result
    }

    /// raind stops: every changed record is written, and the comparisons are abandoned.
    func cancelAll() {
        flush(all: true)
        timer.disarm()
        for transfers in comparing.values { for transfer in transfers { transfer.cancel() } }
        comparing = [:]
        for transfers in backfilling.values { for transfer in transfers { transfer.cancel() } }
        backfilling = [:]
    }
}
