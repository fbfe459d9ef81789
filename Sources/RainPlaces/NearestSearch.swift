/// Nearest-place search in the place file's k-d tree, whose points are
/// `UnitVector`s. The tree is implicit: in each range of nodes the middle one
/// splits the rest on its axis, lower values on the left. A search visits
/// O(log n) nodes.
struct NearestSearch {
    private let file: PlaceFile
    private let query: UnitVector
    private(set) var bestPlace = -1
    private(set) var bestDistanceSquared = Double.infinity
    private(set) var visited = 0

    init(file: PlaceFile, latitude: Double, longitude: Double) {
        self.file = file
        query = UnitVector(latitude: latitude, longitude: longitude)
    }

    mutating func run() {
        visit(0, file.tree.count)
    }

    private mutating func visit(_ low: Int, _ high: Int) {
        guard low < high else { return }
        visited += 1
        let middle = (low + high) / 2
        let node = query.measure(node: middle, of: file)
        if node.distanceSquared < bestDistanceSquared {
            bestDistanceSquared = node.distanceSquared
            bestPlace = node.place
        }
        let offset = node.planeOffset
        if offset < 0 {
            visit(low, middle)
            if offset * offset < bestDistanceSquared { visit(middle + 1, high) }
        } else {
            visit(middle + 1, high)
            if offset * offset < bestDistanceSquared { visit(low, middle) }
        }
    }
}
