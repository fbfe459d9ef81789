import Glibc
import RainCore

/// The places within a great-circle distance of a position, through the
/// place file's k-d tree (the twin of `NearestSearch`): a subtree is skipped
/// when its splitting plane lies farther than the radius.
struct RadiusSearch {
    private let file: PlaceFile
    private let query: UnitVector
    private let chordSquared: Double
    /// Indexes of the places found, in no particular order.
    private(set) var places: [Int] = []

    init(file: PlaceFile, latitude: Double, longitude: Double, kilometres: Double) {
        self.file = file
        query = UnitVector(latitude: latitude, longitude: longitude)
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
        let node = query.measure(node: middle, of: file)
        if node.distanceSquared <= chordSquared { places.append(node.place) }
        let offset = node.planeOffset
        if offset < 0 || offset * offset <= chordSquared { visit(low, middle) }
        if offset >= 0 || offset * offset <= chordSquared { visit(middle + 1, high) }
    }
}
