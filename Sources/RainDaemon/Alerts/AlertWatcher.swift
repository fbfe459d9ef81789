import RainCore
import RainDaemonCore
import RainSystem

/// Polls each saved place's official alert service (`AlertSources`, chosen
/// by the place's country), whichever provider gives its forecast, and
/// keeps what it said in the `ForecastStore`, which serves it with the
/// place's forecast. A place's feed is asked every `terms.pollingInterval`
/// (jittered), conditionally; the CAP documents a feed names are fetched
/// once each and kept while the feed names them. `AlertsChanged` is
/// published when what is in effect or upcoming changes: after a poll, and
/// at the next onset or end (`AlertLifecycle.nextChange`), without a poll.
/// A failed poll keeps the last messages (their own ends still apply) and
/// says what went wrong in `Forecast.alertService.problem`. Each service
/// keeps its book in the one ledger (`ServiceBooks`, under
/// `ProviderName.alerts(_:)`): every request that reached it is counted
/// against its daily budget, and after failures it backs off as a
/// forecast provider does. All on the loop.
final class AlertWatcher {
    private let context: DaemonContext
    /// Each service's budget, counts, health and back-off: the ledger's.
    let books: any ServiceBooks
    /// Every request goes through it: places asking the same question share one answer.
    private let answers: SharedAnswers
    let store: ForecastStore
    private let events: DaemonEvents
    let logger: Logger
    private(set) var places: [Location] = []
    var watches: [LocationID: Watch] = [:]
    /// The poll timer, with the polls' seeded jitter; reading the time
    /// through it follows wall-clock jumps.
    let timer: PollTimer
    /// Sends the requests as every poller does.
    private var client: UpstreamClient { UpstreamClient(configuration: context.configuration) }

    /// One place's polling.
    struct Watch {
        var source: any AlertSource
        var nextPoll: Double
        /// When the last poll went out, and its draw of the jitter (0..<1 of
        /// the source's fraction): a change of pace moves the next poll from it.
        var lastPoll: Double?
        var jitterDraw = 0.0
        /// The next poll fell due while the machine slept or was offline and
        /// was spread over the interval (`catchUp`): a forecast at the same
        /// calm pace does not bring it back to now.
        var spread = false
        /// The next poll waits for the service's back-off or budget (the
        /// ledger's time, not the pace's): the network back ends a back-off
        /// it caused and puts the poll back on the place's schedule.
        var held = false
        /// The last poll's pace was the fast one only because raind had no
        /// forecast for the place yet: its first forecast sets the pace anew.
        var pacedWithoutForecast = false
        var transfers: [any HTTPCancellable] = []
        /// The last feed's alerts.
        var feedAlerts: [WeatherAlert] = []
        /// CAP documents by URL, with the alerts they hold for the place.
        var documents: [String: [WeatherAlert]] = [:]
        /// The documents that gave no alert and name no area raind can place.
        var unplaced: Set<String> = []
        /// The documents the last poll could not read (not fetched, or
        /// not a CAP message raind can read), by URL, with why: asked for
        /// again at the next poll.
        var unreadable: [String: String] = [:]
        /// The warnings the last feed said exist but did not hold, or that
        /// were left out past a bound (`AlertFeed.unread`), and why.
        var feedUnread = 0
        var feedUnreadReason: String?
        /// The URLs of the last poll's plan (feeds; none when not covered):
        /// places with the same URLs share their requests.
        var requestURLs: [String] = []
    }

    var usage: [String: Usage] = [:]
    /// Whether no poll or document is being fetched.
    var isIdle: Bool { watches.values.allSatisfy { $0.transfers.isEmpty } }
    /// The saved places a person looks at now (`Refresher.placesLookedAt`):
    /// of the polls that fell due while the machine slept or was offline,
    /// theirs go out at once, the others are spread (`catchUp`). nil: every place.
    var attention: () -> [LocationID]? = { nil }
    /// For tests: called when a poll's outcome has been kept and published.
    var recorded: (LocationID) -> Void = { _ in }
    /// Moves whenever a count or a place's service changes (`StatusVersion`).
    var changes = 0

    /// `languages`: the reader's, most preferred first (`languages(_:)` of
    /// the daemon's environment), for services that write in several; nil:
    /// no poll goes out until `languagesChanged` gives them (the user
    /// instance asks its session first, `SessionLanguages`).
    init(
        context: DaemonContext, http: any HTTPFetching, store: ForecastStore, events: DaemonEvents,
        books: any ServiceBooks, languages: [String]?
    ) throws(SystemError) {
        self.readerLanguages = languages
        self.context = context
        self.books = books
        let clock = context.clock
        self.answers = SharedAnswers(
            http: http, later: { [loop = context.loop] in loop.later($0) }, clock: { clock.wallNow })
        self.store = store
        self.events = events
        self.logger = context.logger.scoped("alerts")
        self.timer = try PollTimer(
            loop: context.loop, clock: context.clock, seed: UInt64(truncatingIfNeeded: Int(context.clock.wallNow * 983))
        )
        timer.fired = { [weak self] in self?.timerFired() }
        timer.clockJumped = { [weak self] in self?.clockJumped(by: $0) }
    }

    /// The wall-clock time, after following any jump since the last reading.
    var now: Double { timer.now }
    /// When the timer is armed to act next (a poll, an onset or an end); nil when nothing is due.
    var nextWake: Double? { timer.armedFor }

    /// The wall clock was set: each place's next poll keeps its distance,
    /// and onsets and ends are looked for from the new time on.
    private func clockJumped(by jump: Double) {
        for id in Array(watches.keys) { watches[id]?.nextPoll += jump }
        momentsAnnouncedUntil = momentsAnnouncedUntil.map { $0 + jump }
    }

    /// The reader's languages, most preferred first, from the locale
    /// variables (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`).
    static func languages(_ environment: [String: String]) -> [String] {
        var codes: [String] = []
        let lists = [environment["LANGUAGE"]] + ["LC_ALL", "LC_MESSAGES", "LANG"].map { environment[$0] }
        for list in lists.compactMap({ $0 }) {
            for entry in list.split(separator: ":") {
                let code = String(entry.prefix { $0.isLetter }).lowercased()
                if code.count == 2 || code.count == 3, code != "c", !codes.contains(code) { codes.append(code) }
            }
        }
        return codes
    }

    /// The reader's languages, most preferred first; nil until known.
    private var readerLanguages: [String]?
    var languages: [String] { readerLanguages ?? [] }
    /// The place's lookups kept elsewhere than with its forecast (the
    /// observation watcher's `/points`), for services that answer by area.
    var moreLookups: (LocationID) -> [ProviderLookup] = { _ in [] }
    /// The session's languages (the user instance), asked again before each
    /// round of polls (`languagesChanged` when they changed); nil in the
    /// system instance, whose languages are its own environment's.
    var sessionLanguages: SessionLanguages?

    /// The reader's languages are now `languages`: when they changed, every
    /// place is asked again (a service answering in one language is asked
    /// in the new one; a document or feed holding several is read again).
    func languagesChanged(_ languages: [String]) {
        guard languages != readerLanguages else { return }
        let first = readerLanguages == nil
        readerLanguages = languages
        if !first {
            let time = now
            for id in Array(watches.keys) {
                watches[id]?.documents = [:]
                watches[id]?.nextPoll = time
            }
        }
        // From the loop: the first answer may come while raind starts (no
        // bus to ask), and no poll loads libcurl before READY=1.
        reschedule(at: now)
    }

    /// At start: takes up the saved places and their kept alerts, and arms
    /// the timer. The first polls go out from the loop once raind is ready:
    /// libcurl is loaded at the first request, and READY=1 does not wait for it.
    func restore(_ list: [Location]) {
        takeUp(list)
        reschedule(at: now)
    }

    /// Starts watching `list` after a change to it, and polls what is due.
    func placesChanged(_ list: [Location]) {
        takeUp(list)
        timerFired()
    }

    private func takeUp(_ list: [Location]) {
        defer { setBudgets() }
        places = list
        changes += 1
        let time = now
        for id in Array(watches.keys) where !list.contains(where: { $0.id == id }) {
            stop(id)
        }
        // A place removed is told its alerts anew if it is added again.
        for id in Array(lastPublished.keys) where !list.contains(where: { $0.id == id }) {
            lastPublished[id] = nil
        }
        for place in list {
            let source = context.configuration.officialAlerts ? AlertSources.source(forCountry: place.countryCode) : nil
            guard let source else {
                stop(place.id)
                store.setOfficialAlerts(
                    context.configuration.officialAlerts
                        ? OfficialAlerts(messages: [], service: .none)
                        : nil,
                    for: place.id)
                continue
            }
            if let watch = watches[place.id], watch.source.name == source.name { continue }
            stop(place.id)
            watches[place.id] = Watch(source: source, nextPoll: time)
            if store.officialAlerts(of: place.id) == nil,
                let restored = store.restoreOfficialAlerts(of: place.id, source: source.name)
            {
                // Answered less than an interval before a restart: asked when the interval ends, not at once.
                if let checked = restored.service.checkedAt, checked <= time {
                    let interval = pace(of: place, source: source, at: time).pollingSeconds
                    watches[place.id]?.nextPoll = max(time, checked + interval)
                }
            } else if store.officialAlerts(of: place.id) == nil {
                store.setOfficialAlerts(
                    OfficialAlerts(
                        messages: [], service: AlertService(source: source.name, attribution: source.attribution)),
                    for: place.id)
            }
        }
    }

    // What moves the watcher (the event table, `DaemonEvents.connect`).

    /// A selection alone changes no place's service or poll.
    func stateChanged(from old: PersistentState, to new: PersistentState) {
        if old.places.locations != new.places.locations { placesChanged(new.places.locations) }
    }

    /// The sources, their base URL or the contact may have changed: ask again.
    func configurationReloaded() {
        answers.expireAll()
        let time = now
        for id in Array(watches.keys) { watches[id]?.nextPoll = time }
        placesChanged(places)
    }

    /// After a resume, alerts may have begun or ended while asleep; a
    /// back-off the network caused ends (`networkBack`) and the places
    /// looked at are asked at once.
    func becameActive(resumed: Bool) {
        if resumed {
            networkBack()
            timerFired()
        } else {
            publishChanges(at: now)
        }
    }

    /// Published by the refresher with a new forecast, or by this watcher:
    /// either way what clients were last sent.
    func published(_ change: Event) {
        switch change {
        case .alertsChanged(let id, let alerts):
            lastPublished[id] = alerts
        case .weatherUpdated(let id, _):
            // A forecast bringing a severe signal shortens the place's interval at once; the
            // first forecast of a place asked fast for want of one may lengthen it too.
            let time = now
            let first = watches[id]?.pacedWithoutForecast == true
            watches[id]?.pacedWithoutForecast = false
            if repace(id, at: time, shortenOnly: !first) { reschedule(at: time) }
        default:
            break
        }
    }

    private func stop(_ id: LocationID) {
        for transfer in watches[id]?.transfers ?? [] { transfer.cancel() }
        watches[id] = nil
    }

    /// Polls what is due, publishes onsets and ends that have come, and
    /// arms the timer for the next of either.
    func timerFired() {
        let time = now
        // Without a network route nothing is asked (the network back asks again, `networkChanged`).
        let online = books.networkUp
        if online { catchUp(at: time) }
        // May give new languages at once, and poll in them (`languagesChanged`).
        if online, let sessionLanguages,
            watches.values.contains(where: { $0.nextPoll <= time && $0.transfers.isEmpty })
        {
            sessionLanguages.read { [weak self] in self?.languagesChanged($0) }
        }
        for (id, watch) in watches
        where online && readerLanguages != nil && watch.nextPoll <= time && watch.transfers.isEmpty {
            poll(id, time: time)
        }
        publishChanges(at: time)
        announceMoments(until: time)
        reschedule(at: time)
    }

    /// Up to when onsets and ends have been announced.
    private var momentsAnnouncedUntil: Double?

    /// Tells the notifier when an alert began or ended since the last
    /// look: an onset changes nothing in the list served, but what is in effect.
    private func announceMoments(until time: Double) {
        defer { momentsAnnouncedUntil = time }
        guard let since = momentsAnnouncedUntil else { return }
        if let moment = AlertLifecycle.nextChange(places.flatMap(messages(of:)), after: since), moment <= time {
            events.emit(.alertMomentReached)
        }
    }

    /// What each place served last, to tell when it changes. A place not
    /// in it has had nothing published: its clients and the notifier were
    /// told no alert, so its first list is published unless it is empty.
    /// So which of the forecast and the service answers first for a place
    /// added decides nothing, the alerts in force at start are published
    /// (`becameActive`), and the notifier, which remembers what it showed
    /// (`NotificationRecord`), shows what it has not.
    private var lastPublished: [LocationID: [WeatherAlert]] = [:]

    private func publishChanges(at time: Double) {
        for place in places {
            guard let forecast = store.served(place.id, at: time) else { continue }
            let alerts = forecast.alerts
            if lastPublished[place.id, default: []] != alerts {
                lastPublished[place.id] = alerts
                events.emit(.published(.alertsChanged(place.id, alerts)))
            }
        }
    }

    /// Every alert message held for the place: the provider's own and its service's.
    func messages(of place: Location) -> [WeatherAlert] {
        (store[place.id]?.forecast.alerts ?? []) + (store.officialAlerts(of: place.id)?.messages ?? [])
    }

    func reschedule(at time: Double) {
        // No poll is due before the reader's languages are known, nor without a network route.
        var next =
            readerLanguages == nil || !books.networkUp
            ? nil : watches.values.filter { $0.transfers.isEmpty }.map(\.nextPoll).min()
        if let change = AlertLifecycle.nextChange(places.flatMap(messages(of:)), after: time) {
            next = min(next ?? change, change)
        }
        timer.arm(at: next, now: time)
    }

    func baseURL(_ source: any AlertSource) -> String {
        context.configuration.alertsBaseURL ?? source.defaultBaseURL
    }

    /// Where a document a feed names is asked: a document on the source's
    /// own server goes where `[Alerts] BaseURL=` sends the source's requests
    /// (a site proxy, a test server), with its own path; one elsewhere, at
    /// the address the feed gives. It stays known by that address.
    func documentAddress(_ url: String, _ source: any AlertSource) -> String {
        let origin = source.defaultBaseURL + "/"
        guard let base = context.configuration.alertsBaseURL, url.hasPrefix(origin) else { return url }
        return base + url.dropFirst(origin.count - 1)
    }

    private func httpRequest(_ url: String, headers: [String: String]) -> HTTPRequest {
        client.request(url, headers: headers)
    }

    /// What `source` is asked for `place`, with the lookups raind keeps for
    /// it: a service answering by area asks for the place's.
    func plan(for place: Location, source: any AlertSource, at time: Double) -> AlertPlan {
        let lookups =
            store.lookups(of: place.id, now: time) + moreLookups(place.id).filter { $0.validationProblem == nil }
        return source.plan(for: place, lookups: lookups, languages: languages, now: time)
    }

    private func poll(_ id: LocationID, time: Double) {
        guard var watch = watches[id], let place = places.first(where: { $0.id == id }) else { return }
        let source = watch.source
        // Backing off after failures, or today's budget spent: asked when the ledger opens it again.
        let opens = books.opens(.alerts(source.name), after: time) ?? time + Self.refusedRetry
        if opens > time {
            watch.nextPoll = opens
            watch.held = true
            watches[id] = watch
            let book = books.book(of: .alerts(source.name))
            if let daily = book.daily, book.usage.callsToday >= daily {
                return record(id, messages: nil, problem: Self.budgetSpent(source.name, daily: daily), checked: nil)
            }
            return
        }
        watch.lastPoll = time
        watch.spread = false
        watch.held = false
        watch.jitterDraw = timer.jitter.unit()
        let pace = pace(of: place, source: source, at: time)
        watch.pacedWithoutForecast = pace.reason == .noForecast
        watch.nextPoll = Self.next(after: time, interval: pace, watch: watch)
        let asked: [ProviderRequest]
        switch plan(for: place, source: source, at: time) {
        case .requests(let requests):
            asked = requests
        case .notCovered(let reason):
            watch.requestURLs = []
            watches[id] = watch
            return record(id, messages: nil, problem: reason, checked: nil)
        }
        watch.requestURLs = asked.map { baseURL(source) + $0.path }
        var results: [Result<SharedAnswers.Answer, HTTPFailure>?] = Array(repeating: nil, count: asked.count)
        for (index, request) in asked.enumerated() {
            // Half an interval: the places of one feed polled in the same round share its answer.
            let transfer = answers.fetch(
                httpRequest(baseURL(source) + request.path, headers: request.headers),
                conditional: source.terms.conditionalRequests && asked.count == 1,
                freshFor: source.terms.pollingInterval / 2,
                counted: { [weak self] response in self?.count(source, unchanged: response?.status == 304) }
            ) { [weak self] result in
                results[index] = result
                guard results.allSatisfy({ $0 != nil }) else { return }
                self?.answered(id, results.compactMap { $0 }, place: place, asked: asked.map(\.path))
            }
            watch.transfers.append(transfer)
        }
        watches[id] = watch
    }

    private func answered(
        _ id: LocationID, _ results: [Result<SharedAnswers.Answer, HTTPFailure>], place: Location, asked: [String]
    ) {
        guard var watch = watches[id] else { return }
        watch.transfers = []
        watches[id] = watch
        let time = now
        let source = watch.source
        var bodies: [[UInt8]] = []
        for result in results {
            let outcome = UpstreamClient.outcome(result.map(\.response), now: time)
            noteHealth(of: source, outcome)
            switch outcome {
            case .failed(let failure), .unreached(let failure):
                return failed(id, failure.message, wording: failure.wording)
            case .answered(let response):
                bodies.append(response.body)
            case .notModified(let response), .refused(let response, _):
                return failed(id, "HTTP \(response.status)")
            }
        }
        do {
            let feed = try source.parseFeed(bodies, for: place, languages: languages, now: time)
            keepArea(source.areaLookup(bodies, asked: asked, for: place, now: time), of: id, source: source)
            watch.feedAlerts = Self.checked(feed.alerts, source: source.name)
            // Documents the feed no longer names are forgotten; new ones are fetched.
            watch.documents = watch.documents.filter { feed.documents.contains($0.key) }
            watch.unplaced = watch.unplaced.filter { feed.documents.contains($0) }
            // What could not be read is asked for again now, with the new ones.
            watch.unreadable = [:]
            (watch.feedUnread, watch.feedUnreadReason) = (feed.unread, feed.unreadReason)
            watches[id] = watch
            let missing = feed.documents.filter { watch.documents[$0] == nil }
            if !missing.isEmpty {
                return fetchDocuments(id, Array(missing.prefix(AlertLimits.documentsPerFeed)), place: place)
            }
        } catch {
            // The service says the place is outside its area (the NWS's invalid point): why, as written.
            if case .notCovered(let reason) = error.problem {
                return record(id, messages: nil, problem: reason, checked: nil)
            }
            return failed(id, "\(source.name) sent an answer raind cannot read: \(error)")
        }
        watches[id] = watch
        record(id, messages: Self.messages(watch), problem: Self.unreadProblem(watch), checked: time)
    }

    private func fetchDocuments(_ id: LocationID, _ urls: [String], place: Location) {
        guard var watch = watches[id] else { return }
        var left = urls.count
        let source = watch.source
        for url in urls {
            let address = documentAddress(url, source)
            // A message does not change (an update is a new one): kept as long as the answers are.
            let transfer = answers.fetch(
                httpRequest(address, headers: [:]), conditional: false, freshFor: .infinity,
                counted: { [weak self] _ in self?.count(source, document: true) }
            ) { [weak self] result in
                guard let self, var watch = self.watches[id] else { return }
                switch result.map(\.response) {
                case .success(let response) where response.status == 200:
                    do {
                        let alerts = try watch.source.parseDocument(
                            response.body, for: place, languages: self.languages, now: self.now)
                        watch.documents[url] = Self.checked(alerts, source: watch.source.name)
                        if alerts.isEmpty, watch.source.namesNoPlaceableArea(response.body) {
                            watch.unplaced.insert(url)
                        } else {
                            watch.unplaced.remove(url)
                        }
                    } catch {
                        self.logger.warning("\(id): \(url): \(error)")
                        watch.unreadable[url] = "\(error)"
                        // Kept, it would be given again at the next poll: asked anew instead.
                        self.answers.forget(address)
                    }
                case .success(let response):
                    self.logger.warning("\(id): \(url): HTTP \(response.status)")
                    watch.unreadable[url] = "HTTP \(response.status)"
                case .failure(let failure):
                    self.logger.warning("\(id): \(url): \(failure.message)")
                    watch.unreadable[url] = failure.message
                }
                left -= 1
                if left == 0 { watch.transfers = [] }
                self.watches[id] = watch
                guard left == 0 else { return }
                self.record(
                    id, messages: Self.messages(watch), problem: Self.unreadProblem(watch),
                    checked: self.now)
            }
            watch.transfers.append(transfer)
        }
        watches[id] = watch
    }

    /// How many warnings the place's service listed that the last poll
    /// could not read: documents not fetched or not readable, and those
    /// the feed itself left out.
    static func unreadCount(_ watch: Watch) -> Int {
        watch.unreadable.count + watch.feedUnread
    }

    /// "2 warnings could not be read: HTTP 404" (the first reason, by
    /// URL), or nil when the poll read everything the service listed: a
    /// partial answer is never shown as a whole one (`AlertService.unread`).
    static func unreadProblem(_ watch: Watch) -> String? {
        let count = unreadCount(watch)
        guard count > 0 else { return nil }
        let reason = watch.unreadable.keys.sorted().first.flatMap { watch.unreadable[$0] } ?? watch.feedUnreadReason
        let what = count == 1 ? "1 warning could not be read" : "\(count) warnings could not be read"
        return AlertService.unreadProblem(what, reason: reason ?? "no reason given")
    }

    /// Every message the place's source holds: the CAP documents' first, so
    /// that where a feed and its document describe one alert (MetAlerts),
    /// the document's fuller copy (with its references) is the one kept; at
    /// most what its cache file holds (`OfficialAlertsFile.maximumMessages`).
    static func messages(_ watch: Watch) -> [WeatherAlert] {
        let all = watch.documents.keys.sorted().flatMap { watch.documents[$0] ?? [] } + watch.feedAlerts
        return Array(all.prefix(OfficialAlertsFile.maximumMessages))
    }

    /// The alerts with the source's name and as plain text (`AlertText`), bounded.
    static func checked(_ alerts: [WeatherAlert], source: String) -> [WeatherAlert] {
        alerts.prefix(AlertLimits.alertsPerFeed).map { alert in
            var alert = AlertText.plain(alert)
            alert.source = source
            return alert
        }
    }

    private func failed(_ id: LocationID, _ problem: String, wording: FailureWording? = nil) {
        logger.warning("\(id): official alerts: \(problem)")
        record(id, messages: nil, problem: problem, wording: wording, checked: nil)
    }

    /// Keeps the outcome of a poll (`messages` nil: keep the last ones) and
    /// publishes what changed.
    private func record(
        _ id: LocationID, messages: [WeatherAlert]?, problem: String?, wording: FailureWording? = nil, checked: Double?
    ) {
        guard let watch = watches[id] else { return }
        let previous = store.officialAlerts(of: id)
        let service = AlertService(
            source: watch.source.name, attribution: watch.source.attribution,
            checkedAt: checked ?? previous?.service.checkedAt, problem: problem,
            wording: wording?.cacheable,
            unplaced: watch.unplaced.isEmpty ? nil : watch.unplaced.count,
            // Only an answered poll has read some and not others.
            unread: checked != nil && Self.unreadCount(watch) > 0 ? Self.unreadCount(watch) : nil)
        store.setOfficialAlerts(
            OfficialAlerts(messages: messages ?? previous?.messages ?? [], service: service), for: id)
        let time = now
        // What the answer said sets the pace from the poll on: an alert new in it, or one that ended.
        if checked != nil { repace(id, at: time, shortenOnly: false) }
        publishChanges(at: time)
        reschedule(at: time)
        recorded(id)
    }

    /// Cancels every poll, and keeps when each place's service last
    /// answered for the next start (shutdown).
    func cancelAll() {
        for id in Array(watches.keys) {
            stop(id)
            store.keepOfficialAlertsChecked(id)
        }
        timer.disarm()
    }
}
