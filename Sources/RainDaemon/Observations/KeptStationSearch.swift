import RainCore
import RainDaemonCore
import RainSystem

/// What a place's station search settled on, kept in the cache
/// (`stations/<id>.json`) so that a restart neither looks for the place's
/// station again before its week is out nor polls the station before its
/// hour: the station and the source it reports to, or why there is none;
/// when to look again; the NWS's `/points` lookup; the station's next poll
/// and its latest observation. Written when a search settles and after each
/// poll, atomically, without fsync. Read back like an answer from outside:
/// a file whose values break the rules, that was written for another
/// position or another `[Observations] BaseURL=`, is discarded, and the
/// place's station is looked for as for a place just added.
struct KeptStationSearch: Codable {
    var version = Self.currentVersion
    /// The place's position when it was written: a file more than
    /// `LocationList.sameplaceKilometres` away is another place's.
    var latitude: Double
    var longitude: Double
    /// `[Observations] BaseURL=` when it was written (nil: each source's own).
    var baseURL: String?
    /// When the place's stations are looked for again (Unix seconds).
    var nextSearch: Double
    var lookup: ProviderLookup?
    /// The source the station reports to; nil when the place has none (`problem` says why).
    var source: String?
    var station: ObservationStation?
    var distanceMetres: Double?
    var heightDifferenceMetres: Double?
    var problem: String?
    /// When the station is asked next, and what it said last.
    var nextPoll: Double?
    var latest: Observation?

    static let currentVersion = 1
    /// No file raind writes is near this: a station, a lookup and one observation.
    static let maximumBytes = 64 << 10
    /// The longest reason kept for a place with no station.
    static let maximumProblemBytes = 1024

    /// What is wrong with the values read, naming the field; nil when
    /// usable. `sources`: those that may verify the place.
    func validationProblem(sources: [any ObservationSource], now: Double) -> WireDecodingError? {
        if let problem = WireDecodingError.implausible("nextSearch", time: nextSearch)
            ?? WireDecodingError.implausible("nextPoll", time: nextPoll)
        {
            return problem
        }
        if let problem = lookup?.validationProblem { return WireDecodingError(field: "lookup", reason: problem) }
        if let problem, problem.utf8.count > Self.maximumProblemBytes || problem.strippingControlCharacters() != problem
        {
            return WireDecodingError(field: "problem", reason: "is longer than raind writes, or not one line")
        }
        guard let station else {
            if source != nil || latest != nil {
                return WireDecodingError(field: "station", reason: "is missing, yet its source or report is named")
            }
            if problem == nil {
                return WireDecodingError(field: "problem", reason: "is missing: a place without a station says why")
            }
            return nil
        }
        if let problem = station.validationProblem() { return problem }
        guard let source, sources.contains(where: { $0.name == source }) else {
            return WireDecodingError(field: "source", reason: "names no observation source that covers the place")
        }
        if let problem = Self.distanceProblem("distanceMetres", distanceMetres)
            ?? Self.distanceProblem("heightDifferenceMetres", heightDifferenceMetres)
        {
            return problem
        }
        if let latest {
            if let problem = latest.validationProblem(now: now) { return problem }
            if latest.source != source || latest.station.id != station.id {
                return WireDecodingError(field: "latest", reason: "is not the station's")
            }
        }
        return nil
    }

    /// `field`'s distance, when it is none raind measures (one call a field:
    /// see `WireDecodingError.implausible`).
    private static func distanceProblem(_ field: String, _ metres: Double?) -> WireDecodingError? {
        guard let metres, !(metres.isFinite && abs(metres) <= 100_000) else { return nil }
        return WireDecodingError(field: field, reason: "\(metres) m is no distance raind measures")
    }
}

extension ForecastCache {
    var stationsDirectory: String { "\(directory)/stations" }

    /// The file of a place's station search; nil for an id that is no safe file name.
    func stationSearchPath(for id: LocationID) -> String? {
        id.isWellFormed ? "\(stationsDirectory)/\(id.rawValue).json" : nil
    }

    /// The place's station search as last written, if the file is usable
    /// for it: for its position, searched at `baseURL`, its values within
    /// the rules. Otherwise the file is removed (with a warning when it
    /// breaks them) and nil returned.
    func loadStationSearch(
        of place: Location, baseURL: String?, sources: [any ObservationSource], now: Double
    ) -> KeptStationSearch? {
        guard let file = stationSearchPath(for: place.id),
            let bytes = read(file, limit: KeptStationSearch.maximumBytes, what: "station cache file")
        else { return nil }
        do {
            let kept = try Self.decode(
                KeptStationSearch.self, from: bytes, version: KeptStationSearch.currentVersion, context: "station")
            if let problem = kept.validationProblem(sources: sources, now: now) { throw problem }
            let distance = GeoDistance.kilometres(
                latitude1: kept.latitude, longitude1: kept.longitude, latitude2: place.latitude,
                longitude2: place.longitude)
            guard distance < LocationList.sameplaceKilometres, kept.baseURL == baseURL else {
                logger.info("station cache file \(file) is for another position or service; discarding it")
                try? FileIO.removeFile(file)
                return nil
            }
            return kept
        } catch {
            logger.warning(
                "station cache file \(file) is corrupt (\(error)); discarding it, the place's station will be looked for again"
            )
            try? FileIO.removeFile(file)
            return nil
        }
    }

    /// Writes a place's station search. A failure is logged: it stays in memory.
    func storeStationSearch(_ kept: KeptStationSearch, for id: LocationID) {
        guard let file = stationSearchPath(for: id) else { return }
        write(kept.jsonBytes, to: file, in: stationsDirectory, what: "station", for: id)
    }
}
