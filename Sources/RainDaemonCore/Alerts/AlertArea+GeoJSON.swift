import RainCore

extension AlertArea {
    /// The GeoJSON geometry types that outline an area, which `init(geoJSON:)` reads.
    public static let outlineTypes: Set<String> = ["Polygon", "MultiPolygon"]

    /// The area of a GeoJSON geometry (RFC 7946) as warning services send
    /// it: a `Polygon` (rings of [longitude, latitude] positions, the first
    /// the outer edge, the others holes) or a `MultiPolygon` (several).
    /// Throws, naming the field, for another type, a ring of fewer than
    /// three positions, or a position that is not two numbers in range
    /// (longitudes up to ±360, for outlines written across the antimeridian),
    /// or an outline longer than `AlertLimits.areaPoints`.
    init(geoJSON geometry: ProviderJSON) throws(ProviderParseError) {
        guard let type = try geometry.string("type") else {
            throw geometry.error(.missing, at: geometry.childPath("type"))
        }
        let coordinates = try geometry.required("coordinates")
        switch type {
        case "Polygon":
            self.init(polygons: [try Self.polygon(coordinates)])
        case "MultiPolygon":
            var polygons: [Polygon] = []
            for polygon in try Self.elements(coordinates) { polygons.append(try Self.polygon(polygon)) }
            self.init(polygons: polygons)
        default:
            throw geometry.error(
                .invalidValue("a \(type.prefix(40)) geometry; raind reads Polygon and MultiPolygon"),
                at: geometry.childPath("type"))
        }
    }

    private static func polygon(_ value: ProviderJSON) throws(ProviderParseError) -> Polygon {
        var rings: [[Point]] = []
        for ring in try elements(value) {
            var points: [Point] = []
            let positions = try elements(ring)
            guard positions.count <= AlertLimits.areaPoints else {
                throw ring.error(.invalidValue("an outline of more than \(AlertLimits.areaPoints) points"))
            }
            for position in positions { points.append(try point(position)) }
            guard points.count >= 3 else {
                throw ring.error(.invalidValue("a ring of \(points.count) positions; a polygon needs at least 3"))
            }
            rings.append(points)
        }
        guard !rings.isEmpty else { throw value.error(.invalidValue("a polygon without rings")) }
        return Polygon(rings: rings)
    }

    private static func point(_ position: ProviderJSON) throws(ProviderParseError) -> Point {
        let numbers = try elements(position)
        guard numbers.count >= 2, let longitude = try numbers[0].asNumber(), let latitude = try numbers[1].asNumber(),
            abs(latitude) <= 90, abs(longitude) <= 360
        else {
            throw position.error(.invalidValue("not a position [longitude, latitude] in degrees"))
        }
        return Point(latitude: latitude, longitude: longitude)
    }

    /// The elements of an array, each with its indexed path.
    private static func elements(_ value: ProviderJSON) throws(ProviderParseError) -> [ProviderJSON] {
        guard let elements = value.value.arrayValue else {
            throw value.error(.wrongType(expected: "an array", got: value.value.kindName))
        }
        return elements.enumerated().map { index, element in
            ProviderJSON(provider: value.provider, path: "\(value.path)[\(index)]", value: element)
        }
    }
}
