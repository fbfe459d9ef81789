/// Optimal-string-alignment distance (Levenshtein plus adjacent
/// transpositions, so "zuirch" is one edit from "zurich"), bounded: a name
/// is rejected as soon as the distance is known to exceed the limit.
///
/// Made for scanning every name against one query: `prepare` counts the
/// query's bytes once, and `distance` first compares byte counts (the "bag
/// distance", a lower bound of the edit distance that costs one pass) so most
/// names never reach the dynamic programme. Owns its scratch rows, so a scan
/// allocates nothing.
final class EditDistance {
    // Raw buffers rather than arrays: this runs ~200,000 times a scan, and
    // class-held arrays pay for exclusivity and uniqueness checks each access.
    private var query = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    private var queryCount = 0
    private var limit = 0
    private let queryCounts = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
    private let scratch = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
    private var rows = UnsafeMutablePointer<Int32>.allocate(capacity: 3 * 64)
    private var rowCapacity = 64

    init() {
        scratch.initialize(repeating: 0, count: 256)
        queryCounts.initialize(repeating: 0, count: 256)
    }

    deinit {
        query.deallocate()
        queryCounts.deallocate()
        scratch.deallocate()
        rows.deallocate()
    }

    /// Sets the query and the largest distance of interest.
    func prepare(_ query: [UInt8], limit: Int) {
        self.query.deallocate()
        self.query = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, query.count))
        self.query.initialize(from: query, count: query.count)
        queryCount = query.count
        self.limit = limit
        queryCounts.update(repeating: 0, count: 256)
        for byte in query { queryCounts[Int(byte)] += 1 }
    }

    /// The distance between the prepared query and `name`, or nil when it is over the limit.
    func distance(to name: UnsafeRawBufferPointer) -> Int? {
        let n = queryCount
        let m = name.count
        let limit = self.limit
        if abs(n - m) > limit { return nil }
        if n == 0 || m == 0 { return max(n, m) }
        guard bagDistance(name) <= limit else { return nil }
        if m + 1 > rowCapacity {
            rows.deallocate()
            rowCapacity = m + 1
            rows = UnsafeMutablePointer<Int32>.allocate(capacity: 3 * rowCapacity)
        }
        let bound = Int32(limit)
        let a = query
        do {
            var before = rows
            var previous = rows + rowCapacity
            var current = rows + 2 * rowCapacity
            for j in 0...m { previous[j] = Int32(j) }
            for i in 1...n {
                current[0] = Int32(i)
                var rowMinimum = Int32(i)
                let ai = a[i - 1]
                for j in 1...m {
                    let bj = name[j - 1]
                    var value = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ai == bj ? 0 : 1))
                    if i > 1, j > 1, ai == name[j - 2], a[i - 2] == bj {
                        value = Swift.min(value, before[j - 2] + 1)
                    }
                    current[j] = value
                    rowMinimum = Swift.min(rowMinimum, value)
                }
                if rowMinimum > bound { return nil }
                (before, previous, current) = (previous, current, before)
            }
            let result = Int(previous[m])
            return result <= limit ? result : nil
        }
    }

    /// max(bytes of the query missing from the name, bytes of the name missing from the query).
    private func bagDistance(_ name: UnsafeRawBufferPointer) -> Int {
        let scratch = self.scratch
        let queryCounts = self.queryCounts
        var surplus = 0  // name bytes beyond the query's count
        for byte in name {
            let index = Int(byte)
            scratch[index] += 1
            if scratch[index] > queryCounts[index] { surplus += 1 }
        }
        for byte in name { scratch[Int(byte)] = 0 }
        let missing = queryCount - (name.count - surplus)
        return Swift.max(surplus, missing)
    }
}
