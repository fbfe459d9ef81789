/// Optimal-string-alignment distance (Levenshtein plus adjacent
/// transpositions, so "zuirch" is one edit from "zurich"), bounded: work stops
/// as soon as the distance is known to exceed `limit`.
///
/// Keeps its rows between calls so a scan over every name allocates nothing.
struct EditDistance {
    private var before: [Int] = []
    private var previous: [Int] = []
    private var current: [Int] = []

    /// The distance between `a` and `b`, or nil when it is over `limit`.
    mutating func distance(_ a: [UInt8], _ b: UnsafeRawBufferPointer, limit: Int) -> Int? {
        let n = a.count
        let m = b.count
        if abs(n - m) > limit { return nil }
        if n == 0 || m == 0 { return max(n, m) <= limit ? max(n, m) : nil }
        if before.count < m + 1 {
            before = Array(repeating: 0, count: m + 1)
            previous = before
            current = before
        }
        for j in 0...m { previous[j] = j }
        for i in 1...n {
            current[0] = i
            var rowMinimum = i
            let ai = a[i - 1]
            for j in 1...m {
                let cost = ai == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, ai == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, before[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return nil }
            swap(&before, &previous)
            swap(&previous, &current)
        }
        let result = previous[m]
        return result <= limit ? result : nil
    }
}
