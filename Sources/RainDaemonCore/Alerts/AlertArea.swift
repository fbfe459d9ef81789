import RainCore

/// The outline of an area an alert was issued for, as CAP and GeoJSON give
/// it: polygons (rings of latitude/longitude points, the first ring of each
/// the outer edge, the others holes) and circles. A place is in the area
/// when it is in any of them; a point on an edge is in.
public struct AlertArea: Equatable, Sendable {
    /// A point in degrees.
    public struct Point: Equatable, Sendable {
        public var latitude: Double
        public var longitude: Double

        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// A polygon: `rings[0]` the outer edge, the rest holes.
    public struct Polygon: Equatable, Sendable {
        public var rings: [[Point]]

        public init(rings: [[Point]]) { self.rings = rings }
    }

    /// A circle: a centre and a radius in kilometres (CAP `circle`).
    public struct Circle: Equatable, Sendable {
        public var center: Point
        public var radiusKilometres: Double

        public init(center: Point, radiusKilometres: Double) {
            self.center = center
            self.radiusKilometres = radiusKilometres
        }
    }

    public var polygons: [Polygon]
    public var circles: [Circle]

    public init(polygons: [Polygon] = [], circles: [Circle] = []) {
        self.polygons = polygons
        self.circles = circles
    }

    /// True when the area has no outline at all (the alert names regions only).
    public var isEmpty: Bool { polygons.isEmpty && circles.isEmpty }

    /// Whether `point` lies in the area (on an edge counts as in).
    public func contains(_ point: Point) -> Bool {
        polygons.contains { Self.polygon($0, contains: point) }
            || circles.contains { Self.distanceKilometres(point, $0.center) <= $0.radiusKilometres }
    }

    /// In the outer ring (or on its edge) and in no hole.
    static func polygon(_ polygon: Polygon, contains point: Point) -> Bool {
        guard let outer = polygon.rings.first, ring(outer, contains: point) != .outside else { return false }
        for hole in polygon.rings.dropFirst() where ring(hole, contains: point) == .inside { return false }
        return true
    }

    enum Placement { case inside, edge, outside }

    /// Ray casting along the point's meridian. Each edge is taken the short
    /// way round (no edge spans 180° of longitude or more), so a ring that
    /// crosses the antimeridian stays continuous, and the point is compared
    /// at the one of its longitudes (±360°) that lies within the ring's span.
    static func ring(_ ring: [Point], contains point: Point) -> Placement {
        guard ring.count >= 3 else { return .outside }
        var longitudes = [ring[0].longitude]
        for index in 1..<ring.count {
            var step = (ring[index].longitude - ring[index - 1].longitude).truncatingRemainder(dividingBy: 360)
            if step > 180 { step -= 360 } else if step < -180 { step += 360 }
            longitudes.append(longitudes[index - 1] + step)
        }
        guard let west = longitudes.min(), let east = longitudes.max(),
            let longitude = [
                point.longitude, point.longitude - 360, point.longitude + 360, point.longitude - 720,
                point.longitude + 720,
            ].first(where: { west - 1e-9 <= $0 && $0 <= east + 1e-9 })
        else { return .outside }
        let vertices = zip(ring, longitudes).map { vertex, x in (x: x - longitude, y: vertex.latitude - point.latitude)
        }
        let tolerance = 1e-9
        var inside = false
        var previous = vertices[vertices.count - 1]
        for current in vertices {
            defer { previous = current }
            // On the edge from previous to current?
            let cross = previous.x * current.y - previous.y * current.x
            if abs(cross) <= tolerance * max(1, abs(previous.x - current.x) + abs(previous.y - current.y)),
                min(previous.x, current.x) - tolerance <= 0, 0 <= max(previous.x, current.x) + tolerance,
                min(previous.y, current.y) - tolerance <= 0, 0 <= max(previous.y, current.y) + tolerance
            {
                return .edge
            }
            // Does the edge cross the ray from the point towards +y along x = 0?
            if (previous.x > 0) != (current.x > 0) {
                let y = previous.y + (current.y - previous.y) * (0 - previous.x) / (current.x - previous.x)
                if y > 0 { inside.toggle() }
            }
        }
        return inside ? .inside : .outside
    }

    static func distanceKilometres(_ a: Point, _ b: Point) -> Double {
        GeoDistance.kilometres(
            latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
    }
}
