import RainCore
import RainDaemonCore
import RainPlaces

/// Places: add (by name, coordinates or the current position), remove,
/// select, search.
extension WeatherService {
    /// Why a place's name or a query was refused for what it holds.
    static let controlCharactersProblem =
        "holds control characters (such as ESC, BEL or CR) or invisible formatting characters (such as a right-to-left override or a zero-width space); give plain text"

    func addLocation(
        _ parameters: AddLocationCall.Parameters, _ responder: Responder<AddLocationCall.Reply>
    ) throws(MethodError) {
        let query = parameters.query?.trimmingSpaces()
        let name = parameters.name?.trimmingSpaces()
        let byCoordinates = parameters.latitude != nil || parameters.longitude != nil
        let current = parameters.current ?? false
        let follow = parameters.follow ?? false
        if follow {
            guard current else {
                throw MethodError.invalidParameter(
                    "follow", "goes with current=true: only the machine's position can follow it")
            }
            guard name == nil else {
                throw MethodError.invalidParameter(
                    "name", "cannot go with follow: a place that follows the machine is named after the town it is in")
            }
        }
        let ways = [query != nil, byCoordinates, current].filter { $0 }.count
        guard ways == 1 else {
            throw MethodError.invalidParameter(
                ways == 0 ? "query" : "current",
                "give exactly one of: query (a place name), latitude with longitude, or current=true")
        }
        if let name {
            guard !name.isEmpty, name.count <= Self.maximumNameLength else {
                throw MethodError.invalidParameter("name", "must be 1 to \(Self.maximumNameLength) characters")
            }
        }
        for (field, text) in [("name", name), ("query", query)] where text?.containsControlCharacters == true {
            throw MethodError.invalidParameter(field, Self.controlCharactersProblem)
        }
        if let query {
            try addPlace(named: query, responder: responder)
        } else if current {
            addCurrentPosition(name: name, follow: follow, responder: responder)
        } else {
            guard let latitude = parameters.latitude, let longitude = parameters.longitude else {
                throw MethodError.invalidParameter(
                    parameters.latitude == nil ? "latitude" : "longitude",
                    "give latitude and longitude together (decimal degrees)")
            }
            guard (-90...90).contains(latitude) else {
                throw MethodError.invalidParameter("latitude", "\(latitude) is outside -90...90")
            }
            guard (-180...180).contains(longitude) else {
                throw MethodError.invalidParameter("longitude", "\(longitude) is outside -180...180")
            }
            try add(
                try namedCandidate(latitude: latitude, longitude: longitude, name: name), approximate: false,
                byName: name != nil, responder: responder)
        }
    }

    /// The machine's position from GeoClue2 (city accuracy), named by the
    /// nearest place; without GeoClue, the most populous place in the
    /// system's time zone, marked approximate.
    /// `follow`: the place becomes the one that follows the machine (`PlaceFollower`).
    func addCurrentPosition(name: String?, follow: Bool = false, responder: Responder<AddLocationCall.Reply>) {
        geoclue.locate { [weak self] result in
            guard let self else { return }
            do throws(MethodError) {
                switch result {
                case .success(let position):
                    var candidate = try self.namedCandidate(
                        latitude: position.latitude, longitude: position.longitude, name: name)
                    candidate.source = .current(approximate: false)
                    if follow {
                        try self.addFollowing(candidate, approximate: false, note: nil, responder: responder)
                    } else {
                        try self.add(candidate, approximate: false, byName: name != nil, responder: responder)
                    }
                case .failure(let error):
                    self.logger.info("no position from GeoClue (\(error)); estimating from the time zone")
                    let why = "GeoClue was not used: \(error)"
                    var candidate: PlaceCandidate
                    do throws(MethodError) {
                        candidate = try self.places.placeInSystemTimeZone()
                    } catch {
                        throw MethodError(
                            PlaceNotFound(query: "", suggestions: [], message: "\(why). \(error.message)"))
                    }
                    if let name { candidate.name = name }
                    candidate.source = .current(approximate: true)
                    if follow {
                        try self.addFollowing(
                            candidate, approximate: true,
                            note:
                                "\(why). The position was estimated from the time zone (\(candidate.timeZone)); raind follows changes of the time zone",
                            responder: responder)
                        return
                    }
                    try self.add(
                        candidate, approximate: true, byName: name != nil,
                        note: "\(why). The position was estimated from the time zone (\(candidate.timeZone))",
                        responder: responder)
                }
            } catch {
                responder.fail(error)
            }
        }
    }

    /// A place at coordinates, named as given or the way a person names it
    /// (`PositionNaming`, next to the place data).
    func namedCandidate(latitude: Double, longitude: Double, name: String?) throws(MethodError) -> PlaceCandidate {
        // Without a name the place data is needed; with one it only adds region and country.
        let directory = name == nil ? try places.directory() : try? places.directory()
        return PositionNaming.candidate(latitude: latitude, longitude: longitude, name: name, directory: directory)
    }

    /// Adds the place a name means, or explains why it cannot.
    func addPlace(named query: String, responder: Responder<AddLocationCall.Reply>) throws(MethodError) {
        guard !query.isEmpty, query.count <= Self.maximumNameLength else {
            throw MethodError.invalidParameter("query", "must be 1 to \(Self.maximumNameLength) characters")
        }
        let directory = try places.directory()
        switch directory.resolve(query) {
        case .unique(let candidate):
            try add(candidate, approximate: false, responder: responder)
        case .ambiguous(let matches):
            throw Self.ambiguous(query, matches.prefix(8).map(\.candidate))
        case .notFound(let suggestions):
            let listed = Array(suggestions.prefix(5).map(\.candidate))
            let configuration = context.configuration
            guard configuration.onlineGeocoder, refresher.isOnline else {
                throw Self.notFound(query, suggestions: listed, online: nil)
            }
            // Not in the embedded data: ask the online geocoder, and judge its answer by the same rules.
            geocoder.search(query, baseURL: configuration.geocoderURL, timeoutSeconds: configuration.timeoutSeconds) {
                [weak self] result in
                guard let self else { return }
                do throws(MethodError) {
                    switch result {
                    case .failure(let failure):
                        throw Self.notFound(query, suggestions: listed, online: failure.message)
                    case .success(let found):
                        switch directory.resolveOnline(query, answers: found) {
                        case .unique(let candidate):
                            try self.add(candidate, approximate: false, responder: responder)
                        case .ambiguous(let matches):
                            throw Self.ambiguous(query, matches.prefix(8).map(\.candidate))
                        case .notFound(let online):
                            let more = online.prefix(max(0, 5 - listed.count)).map(\.candidate)
                            throw Self.notFound(query, suggestions: listed + more, online: "")
                        }
                    }
                } catch {
                    responder.fail(error)
                }
            }
        }
    }

    static func ambiguous(_ query: String, _ candidates: [PlaceCandidate]) -> MethodError {
        let listed = candidates.map { $0.sanitized() }
        return MethodError(
            AmbiguousPlace(
                query: query, candidates: listed, message: PlaceWording.ambiguous(query: query, candidates: listed)))
    }

    /// `online`: nil when the online geocoder was not asked, "" when it found nothing, else why it failed.
    static func notFound(_ query: String, suggestions: [PlaceCandidate], online: String?) -> MethodError {
        let listed = suggestions.map { $0.sanitized() }
        let message = PlaceWording.notFound(
            query: query, suggestions: listed, online: online?.replacingControlCharacters())
        return MethodError(PlaceNotFound(query: query, suggestions: listed, message: message))
    }

    func searchPlaces(
        _ parameters: SearchPlacesCall.Parameters, _ responder: Responder<SearchPlacesCall.Reply>
    ) throws(MethodError) {
        let query = parameters.query.trimmingSpaces()
        guard !query.isEmpty, query.count <= Self.maximumNameLength else {
            throw MethodError.invalidParameter(
                "query", "give a place name of 1 to \(Self.maximumNameLength) characters")
        }
        guard !query.containsControlCharacters else {
            throw MethodError.invalidParameter("query", Self.controlCharactersProblem)
        }
        let limit = parameters.limit ?? 10
        guard (1...100).contains(limit) else {
            throw MethodError.invalidParameter("limit", "\(limit) is outside 1...100")
        }
        let matches = try places.directory().search(query, limit: limit)
        responder.reply(.init(candidates: matches.map { $0.candidate.sanitized() }))
    }

    func add(
        _ candidate: PlaceCandidate, approximate: Bool, byName: Bool = false, note: String? = nil,
        responder: Responder<AddLocationCall.Reply>
    ) throws(MethodError) {
        var next = state
        if let full = next.places.roomProblem(adding: candidate.sanitized(), byName: byName) { throw MethodError(full) }
        let (location, events) = next.places.add(candidate.sanitized(), byName: byName)
        try commit(next, events: events)
        let notes = [note, events.isEmpty ? nil : candidate.nameCutNote].compactMap { $0 }
        responder.reply(
            .init(
                location: location, added: !events.isEmpty, approximate: approximate,
                note: notes.isEmpty ? nil : notes.joined(separator: ". ")))
    }

    func addFollowing(
        _ candidate: PlaceCandidate, approximate: Bool, note: String?, responder: Responder<AddLocationCall.Reply>
    ) throws(MethodError) {
        var next = state
        if let full = next.places.roomProblem(following: candidate.sanitized()) { throw MethodError(full) }
        let (location, added, events) = next.places.addFollowing(candidate.sanitized())
        try commit(next, events: events)
        responder.reply(.init(location: location, added: added, approximate: approximate, note: note))
    }

    /// The machine reached another town (`PlaceFollower`): the following place
    /// is renamed and moved, `LocationChanged` published, and its weather
    /// fetched for the new position. A move within its town changes nothing.
    func moveFollowing(to candidate: PlaceCandidate) {
        guard let place = state.places.following else { return }
        var next = state
        let changes = next.places.moveFollowing(to: candidate.sanitized())
        guard !changes.isEmpty else { return }
        do throws(MethodError) {
            try commit(next, events: changes)
        } catch {
            return  // commit logged why; the place stays where it was
        }
        logger.info("\(place.id) followed the machine from \(place.name) to \(candidate.name)")
        events.emit(.placeMoved(place.id))
    }

    func removeLocation(_ parameters: PlaceReference, _ responder: Responder<LocationReply>) throws(MethodError) {
        let location = try changePlace(parameters) { places, id throws(LocationListError) in try places.remove(id) }
        responder.reply(.init(location: location))
    }

    func selectLocation(_ parameters: PlaceReference, _ responder: Responder<LocationReply>) throws(MethodError) {
        let location = try changePlace(parameters) { places, id throws(LocationListError) in try places.select(id) }
        responder.reply(.init(location: location))
    }

    /// Applies `change` to the saved place the parameters name, and commits.
    func changePlace(
        _ parameters: PlaceReference,
        _ change: (inout LocationList, LocationID) throws(LocationListError) -> [Event]
    ) throws(MethodError) -> Location {
        let location = try resolve(parameters.id)
        var next = state
        let events: [Event]
        do {
            events = try change(&next.places, location.id)
        } catch {
            throw MethodError(error)
        }
        try commit(next, events: events)
        return location
    }
}
