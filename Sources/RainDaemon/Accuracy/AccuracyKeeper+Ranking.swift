import RainCore
import RainDaemonCore

/// The best provider serves (docs/ACCURACY.md): under `Name=auto` each
/// place's list is ordered by its `ProviderRanking`, decided once a day
/// from its scores and kept in its record; the region's order stays the
/// start and the failover behind the leader.
extension AccuracyKeeper {
    /// `listed` (the place's configured list) with the provider its scores put first moved up.
    func order(of place: Location, _ listed: [ProviderName]) -> [ProviderName] {
        guard let record = record(place.id), let ranking = record.ranking else { return listed }
        let order = ranking.order(listed)
        // After a start, why the kept leader serves is said at once, not at the next decision.
        if let leader = ranking.leader, refresher?.choices[place.id] == nil, !explained.contains(place.id) {
            explained.insert(place.id)
            let scores = AccuracyScorer.scores(record, now: now)
            refresher?.setChoice(
                choice(of: place, serving: leader, listed: listed, scores: scores), for: place.id)
        }
        return order
    }

    /// The day's decision for `place`, when due: the ranking kept, the
    /// serving provider's reason shown with its forecast, and a move noted
    /// for the `ProviderChanged` event of the refresh that makes it.
    func rank(_ place: Location, at time: Double) {
        guard context.configuration.followsScores, let refresher, let record = record(place.id) else { return }
        var ranking = record.ranking ?? ProviderRanking()
        let listed = context.configuration.providers(for: place)
        guard ranking.due(now: time) else { return }
        let scores = AccuracyScorer.scores(record, now: time)
        let moved = ranking.decide(regional: listed, scores: scores, now: time)
        records[place.id]?.ranking = ranking
        save(place.id)
        let first = ranking.order(listed).first?.rawValue
        let choice = first.flatMap { self.choice(of: place, serving: $0, listed: listed, scores: scores) }
        refresher.setChoice(ranking.leader == nil ? nil : choice, for: place.id)
        guard moved, let first else { return }
        let why = choice.map { choice in Localization.english { choice.text(units: .si) } } ?? "no verdict"
        logger.notice("\(place.id): the scores put \(first) first (\(why))")
        if let choice { moves[place.id] = choice }
        if serving[place.id]?.provider != first { refresher.refresh([place.id]) { _ in } }
    }

    /// Why `serving` serves `place` by `scores`, at its verifying station
    /// (its id as the record keeps it until the station is found again after
    /// a start); nil when they do not say.
    func choice(
        of place: Location, serving: String, listed: [ProviderName], scores: [AccuracyScore]
    ) -> ProviderChoice? {
        guard let verdict = ProviderRanking.verdict(serving: serving, regional: listed, scores: scores) else {
            return nil
        }
        let station = observations?.observed(at: place.id)?.station
        return ProviderChoice(
            place: place.id.rawValue, provider: verdict.provider, error: verdict.error, other: verdict.other,
            otherError: verdict.otherError, hours: verdict.pairs,
            station: station?.name ?? records[place.id]?.station ?? "")
    }

    /// The move the scores made for `id` and not yet served, taken.
    func takeMove(of id: LocationID) -> ProviderChoice? {
        defer { moves[id] = nil }
        return moves[id]
    }
}
