import RainCore
import XCTest

@testable import RainPlaces

final class ReverseGeocodingTests: XCTestCase {
    /// The nearest place by a scan of every place: the reference the index must equal.
    private func bruteForceNearest(
        _ places: PlaceDirectory, _ latitude: Double, _ longitude: Double
    )
        -> (index: Int, kilometres: Double)
    {
        var best = (index: -1, kilometres: Double.infinity)
        for index in 0..<places.count {
            let distance = GeoDistance.kilometres(
                latitude1: latitude, longitude1: longitude,
                latitude2: places.file.placeLatitude(index), longitude2: places.file.placeLongitude(index))
            if distance < best.kilometres { best = (index, distance) }
        }
        return best
    }

    private func distance(_ place: PlaceCandidate?, _ latitude: Double, _ longitude: Double) -> Double {
        guard let place else { return .infinity }
        return GeoDistance.kilometres(
            latitude1: latitude, longitude1: longitude, latitude2: place.latitude, longitude2: place.longitude)
    }

    func testNearest_atKnownCities_namesThem() throws {
        let places = try PlaceTestSupport.openDirectory()
        let cases: [(Double, Double, String, String)] = [
            (-18.14, 178.44, "Suva", "FJ"),
            (-17.62, 177.45, "Lautoka", "FJ"),
            (53.04, 158.65, "Petropavlovsk-Kamchatsky", "RU"),
            (64.73, 177.51, "Anadyr", "RU"),
            (69.65, 18.96, "Tromsø", "NO"),
            (64.18, -51.72, "Nuuk", "GL"),
            (-54.80, -68.30, "Ushuaia", "AR"),
            (40.4406, -79.9959, "Pittsburgh", "US"),
        ]
        for (latitude, longitude, name, country) in cases {
            let found = places.nearest(latitude: latitude, longitude: longitude)
            XCTAssertEqual(found?.name, name, "at \(latitude), \(longitude)")
            XCTAssertEqual(found?.countryCode, country, "at \(latitude), \(longitude)")
        }
    }

    func testNearest_acrossTheAntimeridian_findsThePlaceOnTheOtherSide() throws {
        let places = try PlaceTestSupport.openDirectory()
        // Labasa (Fiji) is at 179.36° E; from 179.9° W it is ~60 km west, across ±180°.
        let fromWest = places.nearest(latitude: -16.45, longitude: -179.9)
        XCTAssertEqual(fromWest?.name, "Labasa")
        XCTAssertLessThan(distance(fromWest, -16.45, -179.9), 100)
        // Anadyr (Chukotka, 177.5° E) from 179.5° W.
        let chukotka = places.nearest(latitude: 64.9, longitude: -179.5)
        XCTAssertEqual(chukotka?.name, "Anadyr")
        // 190° is -170°, and -190° is 170°.
        XCTAssertEqual(
            places.nearest(latitude: -14.0, longitude: 190), places.nearest(latitude: -14.0, longitude: -170))
        XCTAssertEqual(places.nearest(latitude: 60, longitude: -190), places.nearest(latitude: 60, longitude: 170))
    }

    func testNearest_nearThePoles_isTheTrueNearest() throws {
        let places = try PlaceTestSupport.openDirectory()
        for (latitude, longitude) in [
            (90.0, 0.0), (89.99, 123.0), (85.0, -170.0), (-90.0, 0.0), (-89.5, 60.0), (-75.0, 179.99),
        ] {
            let found = places.nearest(latitude: latitude, longitude: longitude)
            let reference = bruteForceNearest(places, latitude, longitude)
            XCTAssertEqual(
                distance(found, latitude, longitude), reference.kilometres, accuracy: 0.01,
                "at \(latitude), \(longitude): found \(found?.name ?? "nil"), expected \(places.place(at: reference.index).name)"
            )
        }
    }

    func testNearest_equalsBruteForce_atThousandsOfPseudoRandomPoints() throws {
        let places = try PlaceTestSupport.openDirectory()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var mismatches: [String] = []
        for _ in 0..<600 {
            // Uniform on the sphere, plus a band hugging ±180°.
            let latitude = asin(2 * next() - 1) * 180 / Double.pi
            let longitude = next() < 0.2 ? 179 + 2 * next() : next() * 360 - 180
            let found = places.nearest(latitude: latitude, longitude: longitude)
            let reference = bruteForceNearest(places, latitude, longitude)
            // Equal distances to 10 m: the index stores unit vectors as 32-bit floats.
            if abs(distance(found, latitude, longitude) - reference.kilometres) > 0.01 {
                mismatches.append(
                    "\(latitude), \(longitude): \(found?.name ?? "nil") vs \(places.place(at: reference.index).name)")
            }
        }
        XCTAssertTrue(mismatches.isEmpty, mismatches.prefix(10).joined(separator: "\n"))
    }

    func testNearest_rejectsImpossibleCoordinates() throws {
        let places = try PlaceTestSupport.openDirectory()
        XCTAssertNil(places.nearest(latitude: 90.5, longitude: 0))
        XCTAssertNil(places.nearest(latitude: -91, longitude: 0))
        XCTAssertNil(places.nearest(latitude: .nan, longitude: 0))
        XCTAssertNil(places.nearest(latitude: 0, longitude: .infinity))
    }

    func testNearest_examinesAFewPlaces_notAll() throws {
        let places = try PlaceTestSupport.openDirectory()
        var worst = 0
        for (latitude, longitude) in [(48.85, 2.35), (-16.45, -179.9), (89.9, 0.0), (0.0, -140.0), (-60.0, 100.0)] {
            var search = NearestSearch(file: places.file, latitude: latitude, longitude: longitude)
            search.run()
            worst = max(worst, search.visited)
        }
        XCTAssertLessThan(worst, places.count / 20, "the k-d tree should prune most of the \(places.count) places")
    }
}
