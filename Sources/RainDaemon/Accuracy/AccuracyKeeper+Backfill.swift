import RainCore
import RainDaemonCore

/// A new place's first scores from history (docs/ACCURACY.md, "Backfill"):
/// once the place's verifying station is known, Open-Meteo's Previous Runs
/// API (what its models said one and two days before each of the last
/// seven days' hours) and the station's observations of those days are
/// asked once, and kept as Open-Meteo's samples at +24 h and +48 h, marked
/// backfilled, with the station's hours. The archive's request is spent
/// beside the forecasts in Open-Meteo's own book (given back when it never
/// reached the service), the observations' in their source's book. Done
/// once per place: the record keeps that it was (`AccuracyRecord.backfill`),
/// so a restart does not ask again; a request that got no answer is tried
/// again at the place's next comparison round.
extension AccuracyKeeper {
    static let archive = OpenMeteoPreviousRuns()

    /// Where the archive is asked; nil: nowhere. While `[Provider] BaseURL=`
    /// sends the forecasts to another server (a site proxy, a test server),
    /// only `[Accuracy] BaseURL=` says where: that server answers the
    /// forecast at the archive's path, and raind does not go round it.
    var archiveBaseURL: String? {
        let configuration = context.configuration
        if let url = configuration.accuracyBaseURL { return url }
        return configuration.baseURL == nil ? OpenMeteoPreviousRuns.defaultBaseURL : nil
    }

    /// Starts `place`'s backfill when it is due: never done for it, its
    /// station known and its hours kept fewer than a day (a place new to
    /// raind, or to its station), Open-Meteo in its list, the network up,
    /// and both books allowing a request.
    func backfillIfDue(_ place: Location) {
        let provider = Self.archive.provider
        guard backfilling[place.id] == nil, let base = archiveBaseURL, let refresher, refresher.networkUp,
            let observations, observations.observed(at: place.id)?.station != nil,
            let record = record(place.id), record.backfill == nil,
            record.observed.count <= AccuracyScorer.minimumPairs,
            refresher.chain(for: place).contains(provider),
            refresher.sources[provider]?.configurationProblem == nil
        else { return }
        let time = now
        let since = time - Double(OpenMeteoPreviousRuns.pastDays) * 86_400
        let perRequest = OpenMeteoPreviousRuns.callsPerRequest
        if refresher.spendBeside(provider, calls: perRequest) != nil {
            logger.info("\(place.id): \(provider)'s budget keeps nothing for a backfill now")
            return
        }
        var runs: Result<[ForecastSample], ObservationWatcher.HistoryProblem>?
        var history: Result<[Observation], ObservationWatcher.HistoryProblem>?
        let finish = { [weak self] in
            guard let self, let runs, let history else { return }
            self.backfilled(place.id, runs: runs, history: history)
        }
        backfilling[place.id] = []
        guard
            let asked = observations.history(
                of: place.id, since: since,
                completion: { result in
                    history = result
                    finish()
                })
        else {
            backfilling[place.id] = nil
            refresher.refundBeside(provider, calls: perRequest)
            return
        }
        let request = UpstreamClient(configuration: context.configuration).request(
            base + Self.archive.request(for: place).path)
        let transfer = http.fetch(request) { [weak self] result in
            guard let self else { return }
            let outcome = UpstreamClient.outcome(result, now: self.now)
            switch outcome {
            case .answered(let response):
                do {
                    runs = .success(try Self.archive.parse(response.body, now: self.now))
                } catch {
                    runs = .failure(.unreadable("\(error)"))
                }
            case .unreached(let failure):
                self.refresher?.refundBeside(provider, calls: perRequest)
                runs = .failure(.unreached(failure.message))
            default:
                runs = .failure(.failed("\(provider): \(outcome.problem ?? "no answer")"))
            }
            finish()
        }
        backfilling[place.id] = [asked, transfer]
    }

    /// Both answers are in: kept when both could be read; the place marked
    /// done, with the problem and nothing kept, when one could not; left
    /// to be tried again when one got no answer.
    private func backfilled(
        _ id: LocationID, runs: Result<[ForecastSample], ObservationWatcher.HistoryProblem>,
        history: Result<[Observation], ObservationWatcher.HistoryProblem>
    ) {
        backfilling[id] = nil
        defer { backfillSettled(id) }
        guard records[id] != nil else { return }
        let time = now
        let provider = Self.archive.provider.rawValue
        switch (runs, history) {
        case (.success(let samples), .success(let observations)):
            records[id]?.takeBackfill(samples: samples, observations: observations, provider: provider, at: time)
            let kept = records[id]?.backfill
            logger.info(
                "\(id): backfilled \(kept?.samples ?? 0) samples of \(provider)'s past runs and \(kept?.observedHours ?? 0) observed hours"
            )
        case (.failure(.unreadable(let problem)), _), (_, .failure(.unreadable(let problem))):
            let line = AlertLimits.truncated(
                problem.strippingControlCharacters(), toBytes: AccuracyRecord.maximumProblemBytes)
            logger.error("\(id): nothing backfilled, and not asked again: \(line)")
            records[id]?.backfill = AccuracyBackfill(
                at: time, provider: provider, problem: line.isEmpty ? "unreadable answer" : line)
        case (.failure(let problem), _), (_, .failure(let problem)):
            logger.info("\(id): no backfill yet, tried again at the next comparison round (\(problem))")
            return
        }
        // Written at once: that it was done must outlive a crash, or raind would ask again.
        written[id] = nil
        save(id)
    }
}
