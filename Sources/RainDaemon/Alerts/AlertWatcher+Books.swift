import RainCore
import RainDaemonCore

/// The alert watcher's side of the one ledger (`ServiceBooks`): each
/// service's daily budget, every request that reached it, its health and
/// back-off, and what `GetStatus` says each service costs.
extension AlertWatcher {
    /// Of one service's requests today (its book's UTC day, `day`): those
    /// answered 304, and those for CAP documents. What they cost is in the ledger.
    struct Usage {
        var day: Double = 0
        var unchanged = 0
        var documents = 0
    }

    /// Each watched service's daily budget for the places it is asked about
    /// (`AlertSourceTerms.dailyBudget`); a service no place uses keeps its
    /// last, so today's count still reads against it.
    func setBudgets() {
        var counts: [String: (source: any AlertSource, places: Int)] = [:]
        for watch in watches.values { counts[watch.source.name, default: (watch.source, 0)].places += 1 }
        for (name, entry) in counts {
            books.setBudget(of: .alerts(name), daily: entry.source.terms.dailyBudget(places: entry.places))
        }
    }

    /// One request reached `source`: the ledger counts it; today's 304s
    /// and CAP documents are counted here.
    func count(_ source: any AlertSource, unchanged: Bool = false, document: Bool = false) {
        books.count(on: .alerts(source.name))
        let day = books.book(of: .alerts(source.name)).usage.day
        var entry = usage[source.name] ?? Usage()
        if entry.day != day { entry = Usage(day: day) }
        if unchanged { entry.unchanged += 1 }
        if document { entry.documents += 1 }
        usage[source.name] = entry
        changes += 1
    }

    /// What a feed request's outcome says of the service's health (`ServiceBooks.note`).
    func noteHealth(of source: any AlertSource, _ outcome: UpstreamClient.Outcome) {
        let name = ProviderName.alerts(source.name)
        books.note(outcome, of: name)
        changes += 1
    }

    /// After a service refused raind (HTTP 401 or 403: no key is sent, so a
    /// block of raind's address or User-Agent), its places are asked again
    /// this long after, not at every poll.
    static let refusedRetry: Double = 3600

    /// Why a place's alerts were not asked for: its service's budget for today is spent.
    static func budgetSpent(_ service: String, daily: Double) -> String {
        "raind's budget of \(BudgetUsage.text(calls: daily)) requests a day to \(service) is spent; "
            + "asking again after midnight UTC"
    }

    /// Each service polled for a place, or that was today, by name: its
    /// places, interval and counts as they stand at `time`.
    func sourceStatuses(now time: Double) -> [AlertSourceStatus] {
        var places: [String: (source: any AlertSource, ids: [LocationID], paces: [AlertPace], urls: [String: Double])] =
            [:]
        for place in self.places {
            guard let watch = watches[place.id] else { continue }
            let pace = pace(of: place, source: watch.source, at: time)
            places[watch.source.name, default: (watch.source, [], [], [:])].ids.append(place.id)
            places[watch.source.name]?.paces.append(pace)
            // A question asked by several places goes out at the pace of the fastest.
            // Not polled since raind started (a restart within the interval): the plan's URLs.
            var urls = watch.requestURLs
            if urls.isEmpty, case .requests(let asked) = plan(for: place, source: watch.source, at: time) {
                urls = asked.map { baseURL(watch.source) + $0.path }
            }
            for url in urls {
                let fastest = min(places[watch.source.name]?.urls[url] ?? .infinity, pace.pollingSeconds)
                places[watch.source.name]?.urls[url] = fastest
            }
        }
        let names = Set(places.keys).union(usage.keys)
        return names.sorted().compactMap { name in
            guard let source = places[name]?.source ?? AlertSources.all.first(where: { $0.name == name }) else {
                return nil
            }
            let ids = places[name]?.ids ?? []
            let entry = usage[name] ?? Usage()
            let book = books.book(of: .alerts(name))
            let current = book.usage.current(now: time)
            let sameDay = current.day == entry.day
            let interval = source.terms.pollingInterval
            // One request a round for each distinct question (shared by the places asking it), at its pace.
            let requests = (places[name]?.urls.values ?? [:].values).reduce(0) { $0 + 86_400 / $1 }
            return AlertSourceStatus(
                name: name, places: ids, pollingSeconds: interval,
                requestsPerDay: requests, usage: current,
                unchangedToday: sameDay ? entry.unchanged : 0, documentsToday: sameDay ? entry.documents : 0,
                dailyBudget: book.daily, failures: book.health.consecutiveFailures,
                backoffUntil: book.health.backoffUntil.flatMap { $0 > time ? $0 : nil },
                paces: places[name]?.paces ?? [])
        }
    }
}
