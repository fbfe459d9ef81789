extension AlertArea {
    /// The outline of a GeoJSON geometry (RFC 7946): a `Polygon` (rings of
    /// `[longitude, latitude]` positions, the first the outer edge) or a
    /// `MultiPolygon`. Any other type (a point, a line) outlines no area and
    /// gives an empty one. Throws on positions that are not coordinates and
    /// on an outline longer than `AlertLimits.areaPoints`.
    init(geoJSON geometry: ProviderJSON) throws(ProviderParseError) {
        self.init()
        let coordinates = try geometry.required("coordinates")
        var points = 0
        switch try geometry.string("type") {
        case "Polygon":
            polygons = [try Self.polygon(coordinates, points: &points)]
        case "MultiPolygon":
            guard let elements = coordinates.value.arrayValue else {
                throw coordinates.error(.wrongType(expected: "an array", got: coordinates.value.kindName))
            }
            for index in elements.indices {
                let element = ProviderJSON(
                    provider: coordinates.provider, path: "\(coordinates.path)[\(index)]", value: elements[index])
                polygons.append(try Self.polygon(element, points: &points))
            }
        default:
            return
        }
    }

    /// `[[[lon, lat], ...], ...]`: the rings of one polygon.
    private static func polygon(_ value: ProviderJSON, points: inout Int) throws(ProviderParseError) -> Polygon {
        guard let ringValues = value.value.arrayValue else {
            throw value.error(.wrongType(expected: "an array of rings", got: value.value.kindName))
        }
        var rings: [[Point]] = []
        for (ringIndex, ringValue) in ringValues.enumerated() {
            let ringPath = "\(value.path)[\(ringIndex)]"
            guard let positions = ringValue.arrayValue else {
                throw value.error(.wrongType(expected: "a ring of positions", got: ringValue.kindName), at: ringPath)
            }
            points += positions.count
            guard points <= AlertLimits.areaPoints else {
                throw value.error(.invalidValue("an outline of more than \(AlertLimits.areaPoints) points"))
            }
            var ring: [Point] = []
            ring.reserveCapacity(positions.count)
            for (index, position) in positions.enumerated() {
                guard let pair = position.arrayValue, pair.count >= 2, let longitude = pair[0].doubleValue,
                    let latitude = pair[1].doubleValue, (-90...90).contains(latitude),
                    (-540...540).contains(longitude)
                else {
                    throw value.error(
                        .invalidValue("not a [longitude, latitude] position"), at: "\(ringPath)[\(index)]")
                }
                ring.append(Point(latitude: latitude, longitude: longitude))
            }
            rings.append(ring)
        }
        return Polygon(rings: rings)
    }
}
