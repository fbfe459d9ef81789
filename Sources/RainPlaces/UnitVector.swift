import Glibc

/// A position as a point of the unit sphere (x, y, z), the space of the place
/// file's k-d tree. The straight-line (chord) distance between two such points
/// grows with their great-circle distance everywhere: there is no seam at ±180°
/// longitude and no distortion at the poles, unlike a latitude/longitude grid.
struct UnitVector {
    let x: Double, y: Double, z: Double

    init(latitude: Double, longitude: Double) {
        let radians = Double.pi / 180
        let phi = latitude * radians
        let lambda = longitude * radians
        x = cos(phi) * cos(lambda)
        y = cos(phi) * sin(lambda)
        z = sin(phi)
    }

    /// How this point stands to node `index` of `file`'s tree: the place the
    /// node holds, the squared chord distance to it, and this point's signed
    /// distance from the node's splitting plane (below zero: the left side).
    func measure(node index: Int, of file: PlaceFile) -> (place: Int, distanceSquared: Double, planeOffset: Double) {
        let node = file.treeNode(index)
        let dx = x - Double(node.x)
        let dy = y - Double(node.y)
        let dz = z - Double(node.z)
        let planeOffset: Double
        switch node.axis {
        case 0: planeOffset = dx
        case 1: planeOffset = dy
        default: planeOffset = dz
        }
        return (node.place, dx * dx + dy * dy + dz * dz, planeOffset)
    }
}
