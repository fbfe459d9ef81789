import Glibc

/// Nearest-place search in the place file's k-d tree.
///
/// Places are points on the unit sphere (x, y, z), so the straight-line
/// (chord) distance between two points grows with their great-circle
/// distance everywhere: there is no seam at ±180° longitude and no
/// distortion at the poles, unlike a latitude/longitude grid. The tree is
/// implicit: in each range of nodes the middle one splits the rest on its
/// axis, lower values on the left. A search visits O(log n) nodes.
struct NearestSearch {
    private let file: PlaceFile
    private let x: Double, y: Double, z: Double
    private(set) var bestPlace = -1
    private(set) var bestDistanceSquared = Double.infinity
    private(set) var visited = 0

    init(file: PlaceFile, latitude: Double, longitude: Double) {
        self.file = file
        let radians = Double.pi / 180
        let phi = latitude * radians
        let lambda = longitude * radians
        x = cos(phi) * cos(lambda)
        y = cos(phi) * sin(lambda)
        z = sin(phi)
    }

    mutating func run() {
        visit(0, file.tree.count)
    }

    private mutating func visit(_ low: Int, _ high: Int) {
        guard low < high else { return }
        visited += 1
        let middle = (low + high) / 2
        let node = file.treeNode(middle)
        let dx = x - Double(node.x)
        let dy = y - Double(node.y)
        let dz = z - Double(node.z)
        let distanceSquared = dx * dx + dy * dy + dz * dz
        if distanceSquared < bestDistanceSquared {
            bestDistanceSquared = distanceSquared
            bestPlace = node.place
        }
        // The query's signed distance from the splitting plane; below it is the left side.
        let offset: Double
        switch node.axis {
        case 0: offset = dx
        case 1: offset = dy
        default: offset = dz
        }
        if offset < 0 {
            visit(low, middle)
            if offset * offset < bestDistanceSquared { visit(middle + 1, high) }
        } else {
            visit(middle + 1, high)
            if offset * offset < bestDistanceSquared { visit(low, middle) }
        }
    }
}
