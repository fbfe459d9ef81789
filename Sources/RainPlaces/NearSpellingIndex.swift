import Glibc

/// Finds the name keys within a few edits of a query through the place
/// file's near-spelling index, without measuring every key.
///
/// The index rests on the pigeonhole principle. Every key of L bytes is cut
/// into P parts (2 up to 6 bytes, 3 up to 10, 4 beyond) with one byte between two parts.
/// An edit — inserting, deleting or changing a byte, or swapping two
/// neighbours — changes at most one part (the byte between parts is why a
/// swap cannot straddle two), and moves the parts after it by at most one
/// byte. So a key within k edits of the query has at least P − k of its parts
/// unchanged in the query, each moved by at most k bytes. For each length
/// within k of the query's, each part and each shift, a binary search in the
/// index (the keys of that length sorted by that part) lists the keys holding
/// that part there; only keys holding P − k distinct parts are measured by
/// `EditDistance`. The edit limits (`PlaceDirectory.nearSpellingLimit`) keep
/// P − k ≥ 1 for every length a query can reach. A test checks the result
/// against a scan of every key.
struct NearSpellingIndex {
    let file: PlaceFile

    /// Name records, one per distinct key (the first with that key), whose
    /// key is within `limit` edits of `query`, with the distance. `distance`
    /// must be prepared with `query` and `limit`.
    func matches(_ query: [UInt8], limit: Int, distance: EditDistance) -> [(name: Int, edits: Int)] {
        // One byte per name record: a bit per part found. calloc gives pages
        // the kernel zeroes on first touch, so only the touched ones cost,
        // and nothing stays on the heap after the search.
        // No key is longer than the index covers, so a longer query has no near spelling.
        guard query.count - limit <= PlaceFile.nearMaximumLength else { return [] }
        guard let raw = calloc(file.names.count, 1) else { return [] }
        defer { free(raw) }
        let partsFound = raw.assumingMemoryBound(to: UInt8.self)
        var touched: [Int] = []
        query.withUnsafeBytes { query in
            let count = query.count
            for length in max(3, count - limit)...min(PlaceFile.nearMaximumLength, count + limit) {
                for part in 0..<PlaceFile.nearParts(length: length) {
                    let group = file.nearGroup(length: length, part: part)
                    guard !group.isEmpty else { continue }
                    let bounds = PlaceFile.nearBounds(length: length, part: part)
                    let bit = UInt8(1) << part
                    for shift in -limit...limit {
                        let start = bounds.lowerBound + shift
                        guard start >= 0, start + bounds.count <= count else { continue }
                        let wanted = UnsafeRawBufferPointer(rebasing: query[start..<start + bounds.count])
                        for entry in entries(of: group, part: bounds, equalTo: wanted) {
                            let name = file.nearName(entry)
                            if partsFound[name] == 0 { touched.append(name) }
                            partsFound[name] |= bit
                        }
                    }
                }
            }
        }
        var matches: [(name: Int, edits: Int)] = []
        for name in touched {
            let key = file.nameKey(name)
            guard partsFound[name].nonzeroBitCount >= PlaceFile.nearParts(length: key.count) - limit else { continue }
            if let edits = distance.distance(to: key) { matches.append((name, edits)) }
        }
        return matches
    }

    /// The entries of `group` whose bytes `part` equal `wanted`: two binary searches.
    private func entries(of group: Range<Int>, part: Range<Int>, equalTo wanted: UnsafeRawBufferPointer) -> Range<Int> {
        let first = boundary(group, part, wanted, orEqual: false)
        return first..<boundary(first..<group.upperBound, part, wanted, orEqual: true)
    }

    /// The first entry whose part is not below `wanted` (`orEqual`: above it).
    private func boundary(
        _ range: Range<Int>, _ part: Range<Int>, _ wanted: UnsafeRawBufferPointer, orEqual: Bool
    ) -> Int {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let middle = (low + high) / 2
            let key = file.nameKey(file.nearName(middle))
            let order = PlaceKey.compare(UnsafeRawBufferPointer(rebasing: key[part]), wanted)
            if order < 0 || (orEqual && order == 0) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
