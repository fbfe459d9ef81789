import TestSupport
import Testing

@testable import RainCore
@testable import RainDaemonCore

/// NWS alerts by zone (`NWSAlertZones`, docs/ALERTS.md, "Requests shared by
/// area"): the zones read from the recorded `/points` answers, the one
/// question they make, the point query while none is known, and the
/// outline of a storm-based warning matched locally.
@Suite struct NWSAlertZonesTests {
    let source = NWSAlertSource()
    /// 2024-03-06, about when the Billings answer was recorded.
    let now = 1_709_700_000.0
    let billings = Location(
        id: LocationID("billings-us"), name: "Billings", region: "Montana", countryCode: "US", latitude: 45.784,
        longitude: -108.506, timeZone: "America/Denver", source: .coordinates)

    func lookup(_ name: String) throws -> ProviderLookup {
        try NWS.parseLookup(try Fixtures.bytes("nws-lookup-\(name).json"), now: now)
    }

    @Test func theRecordedPointsAnswers_keepTheZones() throws {
        let montana = try lookup("billings-mt")
        #expect(montana.values["forecastZone"] == "MTZ235")
        #expect(montana.values["county"] == "MTC111")
        #expect(montana.values["fireWeatherZone"] == "MTZ128")
        #expect(montana.validationProblem == nil)
        #expect(NWSGridCell(lookup: montana)?.path == "/gridpoints/BYZ/103,92", "the grid cell as before")
        let florida = try lookup("sumatra-fl")
        // The fire zone is the forecast zone there: named once.
        #expect(NWSAlertZones.zones(in: [florida]) == ["FLC037", "FLZ015"])
    }

    @Test func aPlaceWithKnownZones_asksByZone_elseByPoint() throws {
        let zoned = source.plan(for: billings, lookups: [try lookup("billings-mt")], languages: ["en"], now: now)
        #expect(
            zoned
                == .requests([
                    ProviderRequest(path: "/alerts/active?zone=MTC111,MTZ128,MTZ235", headers: NWS.headers)
                ]))
        let point = ProviderRequest(path: "/alerts/active?point=45.78,-108.51", headers: NWS.headers)
        #expect(source.plan(for: billings, lookups: [], languages: ["en"], now: now) == .requests([point]))
        // A lookup naming no zone (an older one) keeps the point query.
        let old = ProviderLookup(values: ["office": "BYZ", "gridX": "103", "gridY": "92"], expiresAt: now + 60)
        #expect(source.plan(for: billings, lookups: [old], languages: ["en"], now: now) == .requests([point]))
        // A place outside the NWS's area is not asked, whatever a lookup says.
        var calgary = billings
        calgary.countryCode = "CA"
        #expect(
            source.plan(for: calgary, lookups: [try lookup("billings-mt")], languages: [], now: now)
                == .notCovered(NWS.notCovered))
    }

    @Test func onlyWellFormedZoneCodes_goIntoARequest() {
        #expect(NWSAlertZones.code("https://api.weather.gov/zones/forecast/ORZ006") == "ORZ006")
        #expect(NWSAlertZones.code("ORC057") == "ORC057")
        for bad in ["orz006", "ORX006", "ORZ06", "ORZ0061", "../ORZ006/x", "OR Z06", "ORZ00\u{0}", ""] {
            #expect(NWSAlertZones.code(bad) == nil, "\(bad)")
        }
        let forged = ProviderLookup(values: ["forecastZone": "ORZ006&point=1,2"], expiresAt: now + 60)
        #expect(NWSAlertZones.zones(in: [forged]) == nil)
    }

    /// A zone's answer holds its counties' storm-based warnings: one whose
    /// polygon misses the place is left out, one whose polygon holds it and
    /// one without an outline are kept.
    @Test func aWarningsOutline_isMatchedLocally() throws {
        func feature(_ id: String, _ geometry: String) -> String {
            """
            {"type": "Feature", "geometry": \(geometry), "properties": {"id": "\(id)", "status": "Actual",
             "messageType": "Alert", "event": "Severe Thunderstorm Warning", "severity": "Severe",
             "sent": "2024-03-06T04:00:00Z", "effective": "2024-03-06T04:00:00Z",
             "expires": "2024-03-06T05:00:00Z", "areaDesc": "Yellowstone, MT"}}
            """
        }
        func square(west: Double) -> String {
            let ring = [(west, 45.7), (west + 0.2, 45.7), (west + 0.2, 45.9), (west, 45.9), (west, 45.7)]
            return #"{"type": "Polygon", "coordinates": [["#
                + ring.map { "[\($0.0),\($0.1)]" }.joined(separator: ",") + "]]}"
        }
        let features = [feature("A", square(west: -108.6)), feature("B", square(west: -109.6)), feature("C", "null")]
        let body = #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: ",") + "]}"
        let feed = try source.parseFeed([Array(body.utf8)], for: billings, languages: ["en"], now: now)
        #expect(feed.alerts.map(\.id) == ["A", "C"])
    }
}
