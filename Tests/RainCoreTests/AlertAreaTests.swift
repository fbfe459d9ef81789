import Testing

@testable import RainCore
@testable import RainDaemonCore

@Suite struct AlertAreaTests {
    typealias Point = AlertArea.Point

    static func square(_ south: Double, _ west: Double, _ north: Double, _ east: Double) -> [Point] {
        [
            Point(latitude: south, longitude: west), Point(latitude: south, longitude: east),
            Point(latitude: north, longitude: east), Point(latitude: north, longitude: west),
            Point(latitude: south, longitude: west),
        ]
    }

    @Test func aPointInsideOutsideAndOnTheEdges() {
        let area = AlertArea(polygons: [.init(rings: [Self.square(50, 10, 52, 12)])])
        #expect(area.contains(Point(latitude: 51, longitude: 11)))
        #expect(!area.contains(Point(latitude: 53, longitude: 11)))
        #expect(!area.contains(Point(latitude: 51, longitude: 12.000_1)))
        // On an edge and on a corner: in.
        #expect(area.contains(Point(latitude: 50, longitude: 11)))
        #expect(area.contains(Point(latitude: 51, longitude: 12)))
        #expect(area.contains(Point(latitude: 52, longitude: 12)))
        // In line with an edge but beyond it: out.
        #expect(!area.contains(Point(latitude: 50, longitude: 13)))
    }

    @Test func aHoleIsNotInTheArea() {
        let area = AlertArea(polygons: [.init(rings: [Self.square(0, 0, 10, 10), Self.square(4, 4, 6, 6)])])
        #expect(area.contains(Point(latitude: 2, longitude: 2)))
        #expect(!area.contains(Point(latitude: 5, longitude: 5)))
        // The hole's edge belongs to the area.
        #expect(area.contains(Point(latitude: 4, longitude: 5)))
    }

    @Test func aPolygonAcrossTheAntimeridian() {
        // Fiji's waters: 178° E to 178° W, written with longitudes either side of ±180.
        let area = AlertArea(polygons: [.init(rings: [Self.square(-20, 178, -15, -178)])])
        #expect(area.contains(Point(latitude: -17, longitude: 179.5)))
        #expect(area.contains(Point(latitude: -17, longitude: -179.5)))
        #expect(area.contains(Point(latitude: -17, longitude: 180)))
        #expect(!area.contains(Point(latitude: -17, longitude: 0)))
        #expect(!area.contains(Point(latitude: -17, longitude: 177)))
        // The same ring written with longitudes past 180.
        let unwrapped = AlertArea(polygons: [.init(rings: [Self.square(-20, 178, -15, 182)])])
        #expect(unwrapped.contains(Point(latitude: -17, longitude: -179.5)))
        #expect(!unwrapped.contains(Point(latitude: -17, longitude: -177)))
    }

    @Test func aCircleByDistance() {
        // CAP circle "52.52,13.40 10": 10 km around Berlin.
        let area = AlertArea(circles: [.init(center: Point(latitude: 52.52, longitude: 13.40), radiusKilometres: 10)])
        #expect(area.contains(Point(latitude: 52.52, longitude: 13.40)))
        #expect(area.contains(Point(latitude: 52.60, longitude: 13.40)))  // 8.9 km north
        #expect(!area.contains(Point(latitude: 52.62, longitude: 13.40)))  // 11.1 km north
        #expect(AlertArea().isEmpty && !AlertArea().contains(Point(latitude: 0, longitude: 0)))
    }

    @Test func degenerateRingsContainNothing() {
        let line = [Point(latitude: 0, longitude: 0), Point(latitude: 1, longitude: 1)]
        #expect(!AlertArea(polygons: [.init(rings: [line])]).contains(Point(latitude: 0.5, longitude: 0.5)))
        #expect(!AlertArea(polygons: [.init(rings: [])]).contains(Point(latitude: 0, longitude: 0)))
    }
}
