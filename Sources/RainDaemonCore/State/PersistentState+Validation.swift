import RainCore

/// Checks a state file's content with the rules a client's values meet
/// (`Location.validationProblem`, `Settings.validationProblem`), so nothing
/// read from disk can trap raind or name a file outside its directories.
extension PersistentState {
    /// The state with every invalid part dropped or defaulted, and a sentence
    /// per problem. An invalid place, or a second place with an id already
    /// seen, is dropped (and the selection with it); an invalid refresh
    /// interval falls back to the configured one.
    public func validated() -> (state: PersistentState, problems: [String]) {
        var problems: [String] = []
        var kept: [Location] = []
        var seen: Set<LocationID> = []
        for (index, location) in places.locations.enumerated() {
            if let problem = location.validationProblem() {
                problems.append(
                    "place \(index + 1) ('\(location.name.replacingControlCharacters())'): \(problem.field) \(problem.reason); the place is dropped"
                )
            } else if !seen.insert(location.id).inserted {
                problems.append("place \(index + 1) repeats the id \(location.id); the later one is dropped")
            } else {
                kept.append(location)
            }
        }
        // One place at most follows the machine; `false` is written as absent.
        var follower: LocationID?
        for index in kept.indices {
            if kept[index].follows == false { kept[index].follows = nil }
            guard kept[index].isFollowing else { continue }
            if let follower {
                problems.append(
                    "place '\(kept[index].id)' is marked as following the machine, as is '\(follower)'; only one place can, so '\(kept[index].id)' no longer does"
                )
                kept[index].follows = nil
            } else {
                follower = kept[index].id
            }
        }
        var settings = self.settings
        if let problem = settings.validationProblem() {
            problems.append("settings.\(problem.field) \(problem.reason); [Refresh] IntervalMinutes= applies instead")
            settings.refreshMinutes = nil
        }
        guard !problems.isEmpty else {
            return (
                PersistentState(
                    places: LocationList(locations: kept, selectedID: places.selectedID), settings: settings), []
            )
        }
        let selected = places.selectedID.flatMap { id in kept.contains { $0.id == id } ? id : nil }
        return (
            PersistentState(places: LocationList(locations: kept, selectedID: selected), settings: settings), problems
        )
    }
}
