import RainCore

/// The saved places, sorted by name, and the selected one: the app's list of
/// cities, as a value. Every change returns the events it caused.
public struct LocationList: Equatable, Sendable {
    /// Sorted by name (case-insensitively), then id.
    public private(set) var locations: [Location] {
        didSet { reindex() }
    }
    public private(set) var selectedID: LocationID?
    /// Each place's index in `locations`, so a lookup by id costs one hash,
    /// not a scan: every call names its place by id.
    private var positions: [LocationID: Int] = [:]
    /// Each place's folded name (`TextFolding.fold`), in `locations`' order:
    /// a new place finds its position with one fold, not a fold per comparison.
    private var sortKeys: [String] = []

    /// Two places closer than this are the same place.
    public static let sameplaceKilometres = 1.0

    /// The most places raind keeps (docs/PROTOCOL.md, `TooManyLocations`):
    /// far more than a person follows (and than a day's budget refreshes
    /// often: docs/SCHEDULING.md), and few enough that every change stays
    /// fast (the state file is written whole), start-up short (every cached
    /// forecast is read before the socket answers) and every list small
    /// (docs/PERFORMANCE.md, "Growth").
    /// A state file holding more (written by hand) keeps them all; only
    /// adding is refused.
    public static let maximumCount = 250

    /// Sorted by name as a person reads it: case and accents folded ("São
    /// Paulo" before "Sydney"), then by id so equal names keep one order.
    public init(locations: [Location] = [], selectedID: LocationID? = nil) {
        let keyed = locations.map { (key: TextFolding.fold($0.name), location: $0) }.sorted {
            $0.key != $1.key ? $0.key < $1.key : $0.location.id < $1.location.id
        }
        self.locations = keyed.map(\.location)
        sortKeys = keyed.map(\.key)
        reindex()
        self.selectedID = selectedID.flatMap { id in positions[id] != nil ? id : nil }
    }

    public var selected: Location? { selectedID.flatMap { self[$0] } }

    public subscript(id: LocationID) -> Location? { positions[id].map { locations[$0] } }

    /// Whether no other place can be added (`maximumCount`).
    public var isFull: Bool { locations.count >= Self.maximumCount }

    /// Why `candidate` cannot be saved: the list is full and it is no place
    /// saved already (adding that one changes nothing). nil when it can.
    public func roomProblem(adding candidate: PlaceCandidate, byName: Bool = false) -> LocationListError? {
        guard isFull, existing(matching: candidate, byName: byName) == nil else { return nil }
        return .full(limit: Self.maximumCount)
    }

    /// As `roomProblem(adding:byName:)`, for the place that follows the
    /// machine, which takes over only a saved place that came from the position.
    public func roomProblem(following candidate: PlaceCandidate) -> LocationListError? {
        guard isFull else { return nil }
        if let match = existing(matching: candidate), case .current = match.source { return nil }
        return .full(limit: Self.maximumCount)
    }

    private mutating func reindex() {
        positions = Dictionary(uniqueKeysWithValues: locations.indices.map { (locations[$0].id, $0) })
        if sortKeys.count != locations.count { sortKeys = locations.map { TextFolding.fold($0.name) } }
    }

    /// Puts `location` at its place in the order, found by binary search.
    private mutating func insertSorted(_ location: Location) {
        let key = TextFolding.fold(location.name)
        var low = 0
        var high = sortKeys.count
        while low < high {
            let middle = (low + high) / 2
            let before = sortKeys[middle] != key ? sortKeys[middle] < key : locations[middle].id < location.id
            if before { low = middle + 1 } else { high = middle }
        }
        sortKeys.insert(key, at: low)
        locations.insert(location, at: low)
    }

    /// Re-sorts after a place was renamed.
    private mutating func resort() {
        self = LocationList(locations: locations, selectedID: selectedID)
    }

    /// The saved place that is the same as `candidate`: same upstream id, or
    /// within ~1 km. `byName`: the person named the place, so a nearby place
    /// of another name is a different place to them ("Home" beside "Paris").
    public func existing(matching candidate: PlaceCandidate, byName: Bool = false) -> Location? {
        if let identity = candidate.source.identity,
            let match = locations.first(where: { $0.source.identity == identity })
        {
            return match
        }
        return locations.first {
            GeoDistance.kilometres(
                latitude1: $0.latitude, longitude1: $0.longitude,
                latitude2: candidate.latitude, longitude2: candidate.longitude)
                < LocationList.sameplaceKilometres
                && (!byName || TextFolding.fold($0.name) == TextFolding.fold(candidate.name))
        }
    }

    /// Saves a place. An existing equal place is returned instead, unchanged.
    /// The first place saved becomes the selected one, as the app did on first launch.
    /// `byName`: the person chose the name (see `existing(matching:byName:)`).
    public mutating func add(_ candidate: PlaceCandidate, byName: Bool = false) -> (location: Location, events: [Event])
    {
        if let match = existing(matching: candidate, byName: byName) { return (match, []) }
        return insert(candidate, follows: nil)
    }

    /// Saves `candidate` as a new place; the first one saved is selected.
    private mutating func insert(_ candidate: PlaceCandidate, follows: Bool?) -> (location: Location, events: [Event]) {
        let location = Location(
            id: uniqueID(for: candidate), name: candidate.name, region: candidate.region,
            country: candidate.country, countryCode: candidate.countryCode,
            latitude: candidate.latitude, longitude: candidate.longitude,
            timeZone: candidate.timeZone, source: candidate.source, follows: follows)
        insertSorted(location)
        var events: [Event] = [.locationAdded(location)]
        if selectedID == nil {
            selectedID = location.id
            events.append(.locationSelected(location))
        }
        return (location, events)
    }

    // MARK: The place that follows the machine

    /// The place whose position raind keeps at the machine's, if any (only one can).
    public var following: Location? { locations.first { $0.isFollowing } }

    /// Saves the machine's position as the place that follows it. The flag
    /// moves: a place that followed before stays where it was, as an
    /// ordinary place. A saved place at the position that came from the
    /// machine's position takes the flag; one saved by name or coordinates
    /// is left alone (it would be renamed as the machine travels), and a new
    /// place is saved beside it.
    public mutating func addFollowing(_ candidate: PlaceCandidate) -> (location: Location, added: Bool, events: [Event])
    {
        var events: [Event] = []
        let match = existing(matching: candidate).flatMap { match -> Location? in
            if case .current = match.source { return match }
            return nil
        }
        if let previous = following, previous.id != match?.id {
            events += setFollows(previous.id, nil)
        }
        if let match {
            events += setFollows(match.id, true)
            return (self[match.id] ?? match, false, events)
        }
        let (location, added) = insert(candidate, follows: true)
        return (location, true, events + added)
    }

    private mutating func setFollows(_ id: LocationID, _ follows: Bool?) -> [Event] {
        guard let index = positions[id], locations[index].follows != follows else {
            return []
        }
        locations[index].follows = follows
        return [.locationChanged(locations[index])]
    }

    /// Whether `candidate`, where the machine now is, lies in another town
    /// than the following place: another name, region or country. A move
    /// within a town changes nothing.
    public static func isAnotherTown(_ candidate: PlaceCandidate, than place: Location) -> Bool {
        TextFolding.fold(candidate.name) != TextFolding.fold(place.name)
            || TextFolding.fold(candidate.region) != TextFolding.fold(place.region)
            || candidate.countryCode.uppercased() != place.countryCode.uppercased()
    }

    /// Moves the following place to `candidate` when it is in another town:
    /// renamed, with the new position, region, country and time zone; its id
    /// stays (ids are stable). No event when there is nothing to move.
    public mutating func moveFollowing(to candidate: PlaceCandidate) -> [Event] {
        guard let place = following, Self.isAnotherTown(candidate, than: place),
            let index = positions[place.id]
        else { return [] }
        var moved = place
        moved.name = candidate.name
        moved.region = candidate.region
        moved.country = candidate.country
        moved.countryCode = candidate.countryCode
        moved.latitude = candidate.latitude
        moved.longitude = candidate.longitude
        moved.timeZone = candidate.timeZone
        moved.source = candidate.source
        locations[index] = moved
        resort()
        return [.locationChanged(moved)]
    }

    /// Removes a place; the selected place cannot be removed (select another first).
    public mutating func remove(_ id: LocationID) throws(LocationListError) -> [Event] {
        guard let location = self[id] else { throw .notFound(id.rawValue) }
        if selectedID == id { throw .isSelected(location) }
        if let index = positions[id] {
            sortKeys.remove(at: index)
            locations.remove(at: index)
        }
        return [.locationRemoved(location)]
    }

    /// Makes a place the selected one. Selecting the selected place changes nothing.
    public mutating func select(_ id: LocationID) throws(LocationListError) -> [Event] {
        guard let location = self[id] else { throw .notFound(id.rawValue) }
        if selectedID == id { return [] }
        selectedID = id
        return [.locationSelected(location)]
    }

    /// Finds a place by what a person typed: its id, or its name when only one place has it
    /// (case- and diacritic-insensitive).
    public func resolve(_ reference: String) throws(LocationListError) -> Location {
        if let byID = self[LocationID(reference)] { return byID }
        let key = TextFolding.fold(reference)
        if let byLowercasedID = locations.first(where: { $0.id.rawValue == key }) { return byLowercasedID }
        let byName = locations.filter {
            TextFolding.fold($0.name) == key || TextFolding.fold($0.displayName) == key
        }
        if byName.count == 1 { return byName[0] }
        if byName.count > 1 { throw .ambiguous(reference, byName) }
        throw .notFound(reference)
    }

    func uniqueID(for candidate: PlaceCandidate) -> LocationID {
        // Slugs only, and short: an id is a file name (the forecast cache), so
        // nothing a geocoder sends can put a `/` or `..` in it.
        var base = Self.trimmedSlug(candidate.name, to: 48)
        if base.isEmpty { base = "place" }
        let country = Self.trimmedSlug(candidate.countryCode, to: 8)
        if !country.isEmpty { base += "-" + country }
        var id = LocationID(base)
        var suffix = 2
        while self[id] != nil {
            id = LocationID("\(base)-\(suffix)")
            suffix += 1
        }
        return id
    }

    /// `TextFolding.slug` cut to at most `limit` bytes, without a trailing `-`.
    static func trimmedSlug(_ text: String, to limit: Int) -> String {
        var slug = TextFolding.slug(text)
        while slug.utf8.count > limit || slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }
}

/// Why a change to the list of places was refused.
public enum LocationListError: Error, Equatable, Sendable {
    /// No saved place has this id or name.
    case notFound(String)
    /// The selected place cannot be removed.
    case isSelected(Location)
    /// Several saved places have this name.
    case ambiguous(String, [Location])
    /// `LocationList.maximumCount` places are saved already.
    case full(limit: Int)
}
