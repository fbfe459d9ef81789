import Glibc
import RainCore
import RainSystem

/// The embedded geocoder: finds places by name, names coordinates, and
/// guesses a place from a time zone, all offline from the GeoNames cities of
/// 15,000 people or more (data © GeoNames, CC BY 4.0).
///
/// The data file is mapped, not loaded: opening checks it and then gives its
/// pages back, a lookup touches only the pages it reads (a few dozen), and
/// `dropResidentPages()` returns those too — call it from an idle timer so a
/// daemon that is not searching carries no place data in memory.
///
/// Not thread-safe: use it from one thread (the daemon's event loop).
public final class PlaceDirectory {
    /// The data file's name inside a data directory.
    public static let fileName = "places.bin"
    /// Environment variable naming the directory that holds `places.bin`.
    public static let dataDirectoryVariable = "RAIND_DATA_DIR"
    /// Where packages install the data, searched in order.
    public static let installedDirectories = ["/usr/share/raind", "/usr/local/share/raind"]

    /// The file the places are read from.
    public let path: String
    let file: PlaceFile
    private let editDistance = EditDistance()

    /// Maps and checks the place file at `path`.
    /// - Throws: `PlaceDataError` naming the file and the problem when it is
    ///   missing, unreadable, damaged or of another format version.
    public init(path: String) throws {
        self.path = path
        file = try PlaceFile(path: path)
    }

    /// The place file to use, the first of:
    /// 1. `$RAIND_DATA_DIR/places.bin` when that variable is set (even if the
    ///    file is missing, so the error names it);
    /// 2. a copy found from where the executable is (`filesBesideExecutable`);
    /// 3. the installed copies (`installedDirectories`).
    /// Nil when there is none. No path of the build machine is compiled in,
    /// so the same source gives the same binary wherever it is built.
    public static func locateDataFile(
        environment: [String: String], executablePath: String? = currentExecutablePath()
    )
        -> String?
    {
        if let directory = environment[dataDirectoryVariable], !directory.isEmpty {
            return directory + "/" + fileName
        }
        let besideExecutable = executablePath.map(filesBesideExecutable) ?? []
        let installed = installedDirectories.map { $0 + "/" + fileName }
        return (besideExecutable + installed).first(where: isReadable)
    }

    /// Where the data would be for the executable at `path`: for
    /// `<prefix>/bin/raind`, `<prefix>/share/raind/places.bin` (an install
    /// under any prefix); for a binary built inside a checkout
    /// (`<checkout>/.build/<triple>/debug/raind`), the checkout's
    /// `data/places.bin`, the checkout being the nearest ancestor holding
    /// `Package.swift` (so `./scripts/run` and the tests need no installed copy).
    public static func filesBesideExecutable(_ path: String) -> [String] {
        var directories = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        directories.removeLast()  // the executable's own name
        var files: [String] = []
        if directories.last == "bin" {
            files.append((Array(directories.dropLast()) + ["share", "raind", fileName]).joined(separator: "/"))
        }
        // A build directory is a few levels below the checkout; looking higher
        // would only find unrelated trees.
        for _ in 0..<5 where directories.count > 1 {
            directories.removeLast()
            let root = directories.joined(separator: "/")
            if isReadable(root + "/Package.swift") {
                files.append(root + "/data/" + fileName)
                break
            }
        }
        return files
    }

    /// The running executable's path, from `/proc/self/exe`; nil when it
    /// cannot be read.
    public static func currentExecutablePath() -> String? {
        guard let path = try? FileIO.symbolicLinkTarget(of: "/proc/self/exe"), !path.isEmpty else { return nil }
        return path
    }

    private static func isReadable(_ path: String) -> Bool { FileIO.isReadable(path) }

    /// Number of places in the data.
    public var count: Int { file.places.count }

    /// Gives back the memory of the data pages read so far; later lookups
    /// read them again (from the page cache: microseconds). Cheap to call.
    public func dropResidentPages() { file.dropResidentPages() }

    // MARK: Forward search

    /// Places whose names match `query`, best first.
    ///
    /// Matching folds case, diacritics and punctuation ("sao paulo" finds São
    /// Paulo), knows other names ("Munich", "Cologne"), and reads what follows
    /// a comma as a division or a country, by name or code ("Portland, OR",
    /// "Portland, Oregon", "Paris, FR", "London, Canada", "Paris, US-TX");
    /// without a comma, trailing words are tried that way when the whole does
    /// not match ("portland oregon"). A GeoNames id (`2988507`,
    /// `geonames:2988507`) finds that place. Exact names outrank names begun,
    /// and more populous places outrank smaller ones; when nothing matches,
    /// near spellings are returned (kind `.nearSpelling`).
    public func search(_ query: String, limit: Int = 10) -> [PlaceMatch] {
        var matches = ranked(query, limit: limit, nearSpellings: false)
        if matches.isEmpty { matches = suggestions(for: query, limit: limit) }
        return matches
    }

    /// Places whose names are a few edits away from `query` ("Zurihc" →
    /// Zürich, "Lodnon" → London, "Philadelpia" → Philadelphia), fewest edits
    /// first, then most populous. Allowed edits (insert, delete, change a
    /// letter, swap two neighbours): 1 for queries of 4–10 letters, 2 beyond;
    /// none below 4. Found through an index in the data, in well under a
    /// millisecond. Qualifiers after a comma filter as in `search`; when they
    /// rule out everything, the name alone is tried.
    public func suggestions(for query: String, limit: Int = 5) -> [PlaceMatch] {
        let parsed = PlaceQuery(query, key: { PlaceKey.make($0, file: file) })
        var hits: [Int: Hit] = [:]
        collectNearSpellings(parsed.name, qualifiers: parsed.qualifiers, into: &hits)
        if hits.isEmpty && !parsed.qualifiers.isEmpty {
            let unqualified = ranked(String(query.prefix { $0 != "," }), limit: limit, nearSpellings: true)
            if !unqualified.isEmpty { return unqualified }
        }
        return sorted(hits, limit: limit)
    }

    /// The place `query` names, if that is clear.
    ///
    /// Only names and other names (and, failing those, names begun) count;
    /// the best of them is `unique` when nothing else matches that way or it
    /// wins by the clear-winner rule (`ClearWinner`: at least 15 times as
    /// populous as the runner-up) — "Paris" is Paris, France (86 times Paris,
    /// Texas), "London" is London, England (21 times London, Ontario) — and
    /// otherwise the matches of that kind are `ambiguous` ("Portland": Oregon
    /// is only ten times Maine; "Springfield"). When only other names match,
    /// places whose own name is one edit away compete too (each edit costs
    /// 2.5, as in suggestions): "Parsi", an other name of Barshi, is also one
    /// swap from Paris, 18 times as populous, so it is `ambiguous` listing
    /// both; a near spelling is never chosen without asking. No match at all
    /// gives `notFound` with near spellings. Qualifiers narrow first:
    /// "Portland, ME" is unique.
    public func resolve(_ query: String) -> PlaceResolution {
        let matches = ranked(query, limit: 20, nearSpellings: false)
        guard let best = matches.first else { return .notFound(suggestions: suggestions(for: query)) }
        var rivals = matches.filter { $0.kind.band == best.kind.band }
        if best.kind == .alternateName, !rivals.contains(where: { $0.kind == .name }) {
            rivals = (rivals + primaryNameNearSpellings(query, excluding: rivals)).sorted { $0.score > $1.score }
        }
        guard rivals.count > 1 else { return .unique(best.candidate) }
        if rivals[0].kind != .nearSpelling, ClearWinner.isClear(rivals[0].score, over: rivals[1].score) {
            return .unique(rivals[0].candidate)
        }
        return .ambiguous(Array(rivals.prefix(10)))
    }

    /// Places whose own (primary) name is one edit from the query's name,
    /// scored like an exact name less 2.5 for the edit, for weighing against
    /// matches on other names.
    private func primaryNameNearSpellings(_ query: String, excluding: [PlaceMatch]) -> [PlaceMatch] {
        let parsed = PlaceQuery(query, key: { PlaceKey.make($0, file: file) })
        guard PlaceDirectory.nearSpellingLimit(length: parsed.name.count) != nil else { return [] }
        var hits: [Int: Hit] = [:]
        collectNearSpellings(parsed.name, qualifiers: parsed.qualifiers, limit: 1, primaryOnly: true, into: &hits)
        return sorted(hits, limit: 10).compactMap { match in
            guard !excluding.contains(where: { $0.candidate.source == match.candidate.source }) else { return nil }
            // Near-spelling scores are in band 1; lift them to the band they compete in.
            return PlaceMatch(candidate: match.candidate, score: match.score + 20, kind: .nearSpelling)
        }
    }

    /// What the online geocoder's answer to `query` names, by the rules of
    /// the embedded data: a result counts only when its name equals the
    /// query's name after folding (and its region or country what follows a
    /// comma); populated places (feature codes `PPL…`) are preferred over
    /// islands, regions and continents; the clear-winner rule decides among
    /// what is left, by population or, without one, by feature code
    /// (`OnlinePlace.evidence`). Nothing accepted gives `notFound`, suggesting
    /// the populated places the geocoder offered under other names.
    public func resolveOnline(_ query: String, answers: [OnlinePlace]) -> PlaceResolution {
        let parsed = PlaceQuery(query, key: { PlaceKey.make($0, file: file) })
        var accepted: [OnlinePlace] = []
        var others: [OnlinePlace] = []
        for answer in answers {
            let name = PlaceKey.make(answer.candidate.name, file: file)
            let matches =
                (name == parsed.name && qualifiersMatch(answer.candidate, parsed.qualifiers))
                || (parsed.hasComma && name == parsed.whole)
            if matches { accepted.append(answer) } else { others.append(answer) }
        }
        if accepted.contains(where: \.isPopulatedPlace) { accepted.removeAll { !$0.isPopulatedPlace } }
        func match(_ place: OnlinePlace, _ kind: PlaceMatch.Kind) -> PlaceMatch {
            PlaceMatch(candidate: place.candidate, score: place.evidence, kind: kind)
        }
        let ranked = accepted.map { match($0, .name) }.sorted { $0.score > $1.score }
        guard let best = ranked.first else {
            return .notFound(suggestions: others.filter(\.isPopulatedPlace).map { match($0, .nearSpelling) })
        }
        if ranked.count == 1 || ClearWinner.isClear(best.score, over: ranked[1].score) {
            return .unique(best.candidate)
        }
        return .ambiguous(ranked)
    }

    /// Whether every qualifier names the candidate's region or country (its
    /// name or code, or their beginning of 3 letters or more).
    private func qualifiersMatch(_ candidate: PlaceCandidate, _ qualifiers: [[UInt8]]) -> Bool {
        let keys = [candidate.region, candidate.country, candidate.countryCode]
            .filter { !$0.isEmpty }.map { PlaceKey.make($0, file: file) }
        return qualifiers.allSatisfy { qualifier in
            keys.contains { $0 == qualifier || (qualifier.count >= 3 && $0.starts(with: qualifier)) }
        }
    }

    /// The place at `index` (0..<count) in GeoNames id order, for walking
    /// the whole table. An index out of range is a bug and traps.
    public func place(at index: Int) -> PlaceCandidate {
        precondition(index >= 0 && index < count, "place index \(index) outside 0..<\(count)")
        return candidate(index)
    }

    /// The place with this GeoNames id, if the data has it.
    public func place(geonameID: Int) -> PlaceCandidate? {
        index(ofGeonameID: geonameID).map(candidate)
    }

    // MARK: Reverse lookups

    /// The place nearest to a position by great-circle distance, through a
    /// k-d tree of points on the unit sphere (about 20–60 places examined,
    /// not 34,000), so it is right across ±180° longitude and near the
    /// poles. Any longitude is accepted (190° is −170°). Nil when the
    /// latitude is outside −90…90 or a coordinate is not a number.
    public func nearest(latitude: Double, longitude: Double) -> PlaceCandidate? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, count > 0 else { return nil }
        var search = NearestSearch(file: file, latitude: latitude, longitude: longitude)
        search.run()
        return candidate(search.bestPlace)
    }

    /// The most populous place whose time zone is `zone`, the best guess of
    /// where a machine set to that zone is ("Europe/Paris" → Paris).
    ///
    /// Accepts what `$TZ` and `/etc/localtime` give: `Europe/Paris`,
    /// `:Europe/Paris`, `/usr/share/zoneinfo/Europe/Paris`, and old or new
    /// names of the same zone (`Asia/Calcutta`, `Europe/Kyiv`) known to the
    /// tzdata the data was built with. Nil for zones without places
    /// (`UTC`, `Etc/GMT+3`).
    public func mostPopulous(inTimeZone zone: String) -> PlaceCandidate? {
        let wanted = PlaceQuery.zoneName(zone)
        if let index = binarySearch(count: file.zones.count, wanted, file.zoneName) {
            return candidate(file.zoneMostPopulous(index))
        }
        if let alias = binarySearch(count: file.zoneAliases.count, wanted, file.zoneAliasName) {
            return candidate(file.zoneMostPopulous(file.zoneAliasTarget(alias)))
        }
        return nil
    }

    // MARK: Internals

    private struct Hit {
        var place: Int
        var score: Double
        var kind: PlaceMatch.Kind
    }

    private func ranked(_ query: String, limit: Int, nearSpellings: Bool) -> [PlaceMatch] {
        let parsed = PlaceQuery(query, key: { PlaceKey.make($0, file: file) })
        if let id = parsed.identifier, let index = index(ofGeonameID: id) {
            let hit = Hit(place: index, score: 40 + populationScore(index), kind: .identifier)
            return sorted([index: hit], limit: limit)
        }
        var hits: [Int: Hit] = [:]
        if parsed.qualifiers.isEmpty {
            collect(parsed.name, qualifiers: [], into: &hits)
        } else {
            // "Washington, D.C." may be a whole name before it is a name and a qualifier.
            collect(parsed.whole, qualifiers: [], into: &hits)
            collect(parsed.name, qualifiers: parsed.qualifiers, into: &hits)
        }
        if hits.isEmpty && !parsed.hasComma {
            for (name, qualifier) in parsed.trailingWordSplits {
                collect(name, qualifiers: [qualifier], into: &hits)
            }
        }
        if hits.isEmpty && nearSpellings {
            collectNearSpellings(parsed.name, qualifiers: parsed.qualifiers, into: &hits)
        }
        return sorted(withoutOvershadowedOtherNames(hits), limit: limit)
    }

    /// An other name is evidence only where no place bears the name as its
    /// own, or where it names a place more populous than all that do
    /// ("Munich" is München): a former or rare name of a smaller town is no
    /// candidate beside the places called so today. GeoNames lists
    /// "Portland" among the old names of Sandusky, Ohio and Blue Island,
    /// Illinois, which `search Portland` must not offer beside Portland,
    /// Oregon and Portland, Maine.
    private func withoutOvershadowedOtherNames(_ hits: [Int: Hit]) -> [Int: Hit] {
        let ownNamePopulations = hits.values.filter { $0.kind == .name }.map { file.placePopulation($0.place) }
        guard let largest = ownNamePopulations.max() else { return hits }
        return hits.filter { $0.value.kind != .alternateName || file.placePopulation($0.value.place) > largest }
    }

    private func sorted(_ hits: [Int: Hit], limit: Int) -> [PlaceMatch] {
        let ordered = hits.values.sorted { a, b in
            if a.score != b.score { return a.score > b.score }
            let (popA, popB) = (file.placePopulation(a.place), file.placePopulation(b.place))
            if popA != popB { return popA > popB }
            return file.placeID(a.place) < file.placeID(b.place)
        }
        return ordered.prefix(max(0, limit)).map {
            PlaceMatch(candidate: candidate($0.place), score: $0.score, kind: $0.kind)
        }
    }

    private func record(_ hit: Hit, into hits: inout [Int: Hit]) {
        if let existing = hits[hit.place], existing.score >= hit.score { return }
        hits[hit.place] = hit
    }

    private func populationScore(_ place: Int) -> Double {
        log10(Double(max(1, file.placePopulation(place))))
    }

    /// Names equal to `key` (kinds `.name`, `.alternateName`), then names
    /// beginning with it (`.prefix`, for keys of 3 bytes or more). Equal
    /// keys sort first in the index, so one forward scan finds both.
    private func collect(_ key: [UInt8], qualifiers: [[UInt8]], into hits: inout [Int: Hit]) {
        guard !key.isEmpty else { return }
        var index = lowerBound(key)
        while index < file.names.count {
            let name = file.nameKey(index)
            guard PlaceKey.hasPrefix(name, key) else { break }
            let exact = name.count == key.count
            if !exact && key.count < 3 { break }
            let place = file.namePlace(index)
            let alternate = file.nameIsAlternate(index)
            if let penalty = qualifierPenalty(place, qualifiers) {
                let kind: PlaceMatch.Kind = exact ? (alternate ? .alternateName : .name) : .prefix
                // Other names begun are weak evidence: old names, long official forms.
                let alternatePenalty = alternate ? (exact ? 0.3 : 1.0) : 0
                let score = Double(10 * kind.band) + populationScore(place) - alternatePenalty - penalty
                record(Hit(place: place, score: score, kind: kind), into: &hits)
            }
            index += 1
        }
    }

    /// Every name within the allowed edits of `key`, found through the
    /// near-spelling index (`NearSpellingIndex`), not a scan of every name.
    private func collectNearSpellings(
        _ key: [UInt8], qualifiers: [[UInt8]], limit wanted: Int? = nil, primaryOnly: Bool = false,
        into hits: inout [Int: Hit]
    ) {
        guard let allowed = PlaceDirectory.nearSpellingLimit(length: key.count) else { return }
        let limit = min(allowed, wanted ?? allowed)
        editDistance.prepare(key, limit: limit)
        for (first, distance) in NearSpellingIndex(file: file).matches(key, limit: limit, distance: editDistance) {
            // Equal keys are stored once and their name records are adjacent.
            let offset = file.nameKeyOffset(first)
            var index = first
            while index < file.names.count, file.nameKeyOffset(index) == offset {
                defer { index += 1 }
                let place = file.namePlace(index)
                if primaryOnly && file.nameIsAlternate(index) { continue }
                if let penalty = qualifierPenalty(place, qualifiers) {
                    let alternate = file.nameIsAlternate(index)
                    let score = 10 + populationScore(place) - 2.5 * Double(distance) - (alternate ? 0.3 : 0) - penalty
                    record(Hit(place: place, score: score, kind: .nearSpelling), into: &hits)
                }
            }
        }
    }

    /// Edits allowed between a query of `length` bytes and a name: 1 for
    /// 4–10 bytes, 2 beyond; nil (no near spellings) below 4. A 2-edit query
    /// reaches only keys of 9 bytes and more, which have 3 or 4 index parts
    /// (`NearSpellingIndex` needs more parts than edits).
    static func nearSpellingLimit(length: Int) -> Int? {
        length < 4 ? nil : length <= 10 ? 1 : 2
    }

    /// Nil when a qualifier names neither the place's division nor its
    /// country; else the penalty for qualifiers matched only by their
    /// beginning (3 letters or more: "Tex" for Texas).
    private func qualifierPenalty(_ place: Int, _ qualifiers: [[UInt8]]) -> Double? {
        guard !qualifiers.isEmpty else { return 0 }
        let countryKeys = file.countryQualifiers(file.placeCountry(place))
        var divisionKeys = 0..<0
        if let division = file.placeDivision(place) { divisionKeys = file.divisionQualifiers(division) }
        var penalty = 0.0
        for qualifier in qualifiers {
            var best: Double?
            for range in [countryKeys, divisionKeys] {
                for index in range {
                    let key = file.qualifierKey(index)
                    if PlaceKey.equals(key, qualifier) {
                        best = 0
                        break
                    }
                    if qualifier.count >= 3, PlaceKey.hasPrefix(key, qualifier) { best = min(best ?? 0.2, 0.2) }
                }
                if best == 0 { break }
            }
            guard let found = best else { return nil }
            penalty += found
        }
        return penalty
    }

    private func lowerBound(_ key: [UInt8]) -> Int {
        var low = 0
        var high = file.names.count
        while low < high {
            let middle = (low + high) / 2
            if PlaceKey.compare(file.nameKey(middle), key) < 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func index(ofGeonameID id: Int) -> Int? {
        var low = 0
        var high = file.places.count
        while low < high {
            let middle = (low + high) / 2
            let found = file.placeID(middle)
            if found == id { return middle }
            if found < id { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    private func binarySearch(count: Int, _ wanted: String, _ name: (Int) -> String) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            let found = name(middle)
            if found == wanted { return middle }
            if PlaceKey.utf8Less(found, wanted) { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    func candidate(_ index: Int) -> PlaceCandidate {
        let country = file.placeCountry(index)
        return PlaceCandidate(
            name: file.placeName(index),
            region: file.placeDivision(index).map(file.divisionName) ?? "",
            country: file.countryName(country),
            countryCode: file.countryCode(country),
            latitude: file.placeLatitude(index),
            longitude: file.placeLongitude(index),
            timeZone: file.zoneName(file.placeZone(index)),
            population: file.placePopulation(index),
            source: .geonames(id: file.placeID(index))
        )
    }
}
