import Glibc
import RainCore

/// The places within a great-circle distance of a position, through the
/// place file's k-d tree (the twin of `NearestSearch`): a subtree is skipped
/// when its splitting plane lies farther than the radius.
struct RadiusSearch {
    private let file: PlaceFile
    private let x: Double, y: Double, z: Double
    private let chordSquared: Double
    /// Indexes of the places found, in no particular order.
    private(set) var places: [Int] = []

    init(file: PlaceFile, latitude: Double, longitude: Double, kilometres: Double) {
        self.file = file
        let radians = Double.pi / 180
        let phi = latitude * radians
        let lambda = longitude * radians
        x = cos(phi) * cos(lambda)
        y = cos(phi) * sin(lambda)
        z = sin(phi)
        // The straight-line distance between two points of the unit sphere
        // an angle θ apart is 2 sin(θ/2).
        let chord = 2 * sin(min(Double.pi, kilometres / GeoDistance.earthRadiusKilometres) / 2)
        chordSquared = chord * chord
    }

    mutating func run() {
        visit(0, file.tree.count)
    }

    private mutating func visit(_ low: Int, _ high: Int) {
        guard low < high else { return }
        let middle = (low + high) / 2
        let node = file.treeNode(middle)
        let dx = x - Double(node.x)
        let dy = y - Double(node.y)
        let dz = z - Double(node.z)
        if dx * dx + dy * dy + dz * dz <= chordSquared { places.append(node.place) }
        let offset: Double
        switch node.axis {
        case 0: offset = dx
        case 1: offset = dy
        default: offset = dz
        }
        if offset < 0 || offset * offset <= chordSquared { visit(low, middle) }
        if offset >= 0 || offset * offset <= chordSquared { visit(middle + 1, high) }
    }
}
