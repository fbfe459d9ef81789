import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// raind reads a cache file from a tape (`CachedForecast(bytes:)`), not
/// through `Decodable`, which writing still goes through: what it reads
/// back is what it wrote, and a damaged file is refused with the error
/// `Decodable` gives (`WireReadingTests` holds each type's reader to it).
final class CachedForecastReadingTests: XCTestCase {
    /// A forecast as a provider's parser makes it from a recorded answer,
    /// with air quality, a failover and a provider's lookups beside it.
    private func written() throws -> CachedForecast {
        var forecast = try OpenMeteo.parseForecast(
            Fixtures.bytes("openmeteo-forecast-paris-unixtime.json"), fetchedAt: 1_768_466_700)
        forecast.air = try OpenMeteoAirQuality().parse(
            Fixtures.bytes("openmeteo-airquality-paris-poor.json"), index: .european, fetchedAt: 1_768_466_700)
        forecast.failover = ProviderFailover(provider: "metno", reason: "metno answered 503")
        var cached = CachedForecast(
            forecast: forecast, latitude: 48.857, longitude: 2.352, etag: "\"2939d2\"", lastModified: nil)
        cached.lookups = ["nws": ProviderLookup(values: ["office": "TOP", "grid": "31,80"], expiresAt: 1_768_500_000)]
        return cached
    }

    func testAWrittenCacheFile_readsBackAsWritten_andAsDecodableReadsIt() throws {
        let cached = try written()
        XCTAssertFalse(cached.forecast.hourly.isEmpty)
        XCTAssertNotNil(cached.forecast.air)
        let bytes = cached.jsonBytes
        XCTAssertEqual(try CachedForecast(bytes: bytes), cached)
        XCTAssertEqual(
            try CachedForecast(bytes: bytes),
            try ForecastCache.decode(CachedForecast.self, from: bytes, version: 2, context: "cache"))
    }

    func testADamagedCacheFile_isRefusedWithTheErrorDecodableGives() throws {
        let object = try XCTUnwrap(written().json.objectValue)
        var cases: [(String, JSON)] = []
        var other = object
        other["version"] = .number(1)
        cases.append(("another version", .object(other)))
        var noVersion = object
        noVersion["version"] = nil
        cases.append(("no version", .object(noVersion)))
        var wrongKind = object
        wrongKind["latitude"] = .string("48")
        cases.append(("a latitude of the wrong kind", .object(wrongKind)))
        var noForecast = object
        noForecast["forecast"] = nil
        cases.append(("no forecast", .object(noForecast)))
        var badLookup = object
        badLookup["lookups"] = .object(JSONObject([("nws", .object(JSONObject([("values", .number(1))])))]))
        cases.append(("a lookup of the wrong shape", .object(badLookup)))
        cases.append(("an array", .array([])))
        for (what, json) in cases {
            let bytes = json.serializedBytes()
            XCTAssertEqual(
                outcome { () throws(WireDecodingError) in try CachedForecast(bytes: bytes) },
                outcome { () throws(WireDecodingError) in
                    try ForecastCache.decode(CachedForecast.self, from: bytes, version: 2, context: "cache")
                }, what)
        }
        XCTAssertEqual(
            outcome { () throws(WireDecodingError) in try CachedForecast(bytes: Array("{\"version\":2,".utf8)) },
            outcome { () throws(WireDecodingError) in
                try ForecastCache.decode(
                    CachedForecast.self, from: Array("{\"version\":2,".utf8), version: 2, context: "cache")
            })
    }

    private func outcome(_ read: () throws(WireDecodingError) -> CachedForecast) -> String {
        do {
            return "value: \(try read())"
        } catch {
            return "error: \(error)"
        }
    }
}
