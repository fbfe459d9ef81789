import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

/// Open-Meteo's air-quality answers (the recording from Enschede and a
/// made one of Paris in a particle episode), the indexes' bands, the WHO's
/// UV categories, what a request costs, and what validation refuses.
final class AirQualityTests: XCTestCase {
    private let service = OpenMeteoAirQuality()

    private func parse(_ name: String, index: AirQualityIndex = .european) throws -> AirQuality {
        try service.parse(try Fixtures.bytes(name), index: index, fetchedAt: 1_759_486_000)
    }

    private func parseError(_ text: String, index: AirQualityIndex = .european) -> ProviderParseError? {
        do {
            _ = try service.parse(Array(text.utf8), index: index, fetchedAt: 0)
            return nil
        } catch {
            return error
        }
    }

    private func place(_ code: String, latitude: Double = 52.22153, longitude: Double = 6.89366) -> Location {
        Location(
            id: LocationID("p"), name: "P", countryCode: code, latitude: latitude, longitude: longitude,
            source: .coordinates)
    }

    // MARK: - The recording

    func testRecording_readsTheEuropeanIndexItsCategoryAndDominantPollutant() throws {
        let air = try parse("openmeteo-airquality-enschede.json")
        XCTAssertEqual(air.index, .european)
        // 2026-10-03T12:00 at UTC+2.
        XCTAssertEqual(air.time, 1_791_021_600)
        XCTAssertEqual(air.aqi, 44)
        XCTAssertEqual(air.category, .moderate)
        XCTAssertEqual(air.level, 3)
        // Sub-indices: PM2.5 44, PM10 29, NO2 22, O3 14, SO2 3.
        XCTAssertEqual(air.dominant, .pm25)
        XCTAssertEqual(air.pm25, 22.1)
        XCTAssertEqual(air.pm10, 28.2)
        XCTAssertEqual(air.o3, 42.0)
        XCTAssertEqual(air.no2, 11.2)
        XCTAssertEqual(air.uvIndex, 2.1)
        XCTAssertEqual(air.uvCategory, .low)
        XCTAssertEqual(air.pollen.map(\.kind), PollenKind.allCases)
        XCTAssertNil(air.highestPollen, "every count is 0")
        XCTAssertEqual(air.hourly.map(\.aqi), [43, 43, 42])
        XCTAssertEqual(air.hourly.first?.time, 1_790_978_400)
        XCTAssertEqual(air.attribution, service.attribution)
        XCTAssertNil(air.validationProblem())
    }

    func testRecording_onTheUSIndex_readsItsOwnPointsAndCategory() throws {
        let air = try parse("openmeteo-airquality-enschede.json", index: .us)
        XCTAssertEqual(air.aqi, 65)
        XCTAssertEqual(air.category, .moderate)
        XCTAssertEqual(air.level, 3)
        XCTAssertEqual(air.dominant, .pm25)
        XCTAssertEqual(air.hourly.map(\.aqi), [60, 61, 62])
    }

    func testMadePoorAir_isPoorBecauseOfPM25_withAlderPollen() throws {
        let air = try parse("openmeteo-airquality-paris-poor.json")
        XCTAssertEqual(air.aqi, 74)
        XCTAssertEqual(air.category, .poor)
        XCTAssertEqual(air.level, 4)
        XCTAssertEqual(air.dominant, .pm25)
        XCTAssertEqual(air.highestPollen, Pollen(kind: .alder, grains: 4.2))
        XCTAssertEqual(air.hourly.count, 48)
        XCTAssertEqual(air.time, 1_768_464_000)
        XCTAssertNil(air.validationProblem())
    }

    // MARK: - Refusals

    func testAnswersThatAreNotAirQuality_areRefusedNamingTheProvider() {
        XCTAssertEqual(parseError("<html>")?.provider, "open-meteo")
        XCTAssertEqual(parseError("{\"latitude\": 1}")?.problem, .missing)
        XCTAssertEqual(
            parseError("{\"error\": true, \"reason\": \"Cannot initialize\"}")?.problem,
            .providerReported("Cannot initialize"))
        XCTAssertNotNil(parseError("{\"current\": {\"time\": 0, \"european_aqi\": \"bad\"}}"))
    }

    func testAConcentrationInAnotherUnit_isRefused_neverReadAsMicrogrammes() {
        let error = parseError(
            "{\"current_units\": {\"pm2_5\": \"ppm\"}, \"current\": {\"time\": 0, \"pm2_5\": 3}}")
        XCTAssertEqual(error?.field, "current_units.pm2_5")
        XCTAssertNotNil(
            parseError(
                "{\"current_units\": {\"european_aqi\": \"USAQI\"}, \"current\": {\"time\": 0, \"european_aqi\": 3}}"),
            "the US index's points are not the European index's")
    }

    func testNullsAndAbsentVariables_areUnknown() throws {
        let air = try service.parse(
            Array("{\"current\": {\"time\": 100, \"european_aqi\": null, \"pm10\": 5}}".utf8), index: .european,
            fetchedAt: 200)
        XCTAssertNil(air.aqi)
        XCTAssertNil(air.category)
        XCTAssertNil(air.dominant)
        XCTAssertEqual(air.pm10, 5)
        XCTAssertEqual(air.pollen, [])
        XCTAssertEqual(air.hourly, [])
    }

    func testValidation_refusesValuesNoInstrumentReports() {
        var air = AirQuality(provider: "open-meteo", fetchedAt: 1000, index: .european, aqi: 5000)
        XCTAssertEqual(air.validationProblem()?.field, "aqi")
        air = AirQuality(provider: "open-meteo", fetchedAt: 1000, index: .european, pm25: -3)
        XCTAssertEqual(air.validationProblem()?.field, "pm25")
        air = AirQuality(provider: "open-meteo", fetchedAt: 1000, index: .european, uvIndex: .infinity)
        XCTAssertEqual(air.validationProblem()?.field, "uvIndex")
        air = AirQuality(provider: "open-meteo", fetchedAt: .nan, index: .european)
        XCTAssertEqual(air.validationProblem()?.field, "fetchedAt")
        air = AirQuality(provider: "open-meteo", fetchedAt: 1000, index: .european, aqi: 30)
        air.category = .hazardous
        XCTAssertEqual(air.validationProblem()?.field, "category", "a cached category must follow from its index")
        air = AirQuality(
            provider: "open-meteo", fetchedAt: 1000, index: .european,
            pollen: [Pollen(kind: .birch, grains: 1), Pollen(kind: .birch, grains: 2)])
        XCTAssertEqual(air.validationProblem()?.field, "pollen")
    }

    func testAnAnswerWithAbsurdValues_parsesButFailsValidation() throws {
        let air = try service.parse(
            Array("{\"current\": {\"time\": 100, \"european_aqi\": 1e300, \"uv_index\": -4}}".utf8),
            index: .european, fetchedAt: 200)
        XCTAssertNotNil(air.validationProblem())
    }

    // MARK: - Bands

    func testEuropeanBands_boundariesBelongToTheBandBelow() {
        let expected: [(Int, AirQualityCategory)] = [
            (0, .good), (20, .good), (21, .fair), (40, .fair), (41, .moderate), (60, .moderate), (61, .poor),
            (80, .poor), (81, .veryPoor), (100, .veryPoor), (101, .extremelyPoor), (400, .extremelyPoor),
        ]
        for (aqi, category) in expected {
            XCTAssertEqual(AirQualityIndex.european.category(of: aqi), category, "\(aqi)")
        }
    }

    func testUSBands_followTheEPAsTable() {
        let expected: [(Int, AirQualityCategory, Int)] = [
            (50, .good, 1), (51, .moderate, 3), (100, .moderate, 3), (101, .unhealthyForSensitiveGroups, 4),
            (150, .unhealthyForSensitiveGroups, 4), (151, .unhealthy, 5), (200, .unhealthy, 5),
            (201, .veryUnhealthy, 6), (300, .veryUnhealthy, 6), (301, .hazardous, 6),
        ]
        for (aqi, category, level) in expected {
            XCTAssertEqual(AirQualityIndex.us.category(of: aqi), category, "\(aqi)")
            XCTAssertEqual(category.level, level, "\(aqi)")
        }
    }

    func testUVCategories_areTheWHOsOnTheRoundedIndex() {
        let expected: [(Double, UVCategory)] = [
            (0, .low), (2.49, .low), (2.5, .moderate), (5.49, .moderate), (5.5, .high), (7.49, .high),
            (7.5, .veryHigh), (10.49, .veryHigh), (10.5, .extreme), (14, .extreme),
        ]
        for (index, category) in expected { XCTAssertEqual(UVCategory(index: index), category, "\(index)") }
    }

    func testDefaultIndex_isTheUSOneInTheUnitedStatesOnly() {
        XCTAssertEqual(AirQualityIndex.defaultIndex(forCountry: "us"), .us)
        XCTAssertEqual(AirQualityIndex.defaultIndex(forCountry: "PR"), .us)
        XCTAssertEqual(AirQualityIndex.defaultIndex(forCountry: "NL"), .european)
        XCTAssertEqual(AirQualityIndex.defaultIndex(forCountry: ""), .european)
    }

    // MARK: - Request and cost

    func testRequest_asksTheChosenIndexOnTheGrid_withPollenInEuropeOnly() {
        let (europe, europeCalls) = service.request(for: place("NL"), index: .european)
        XCTAssertTrue(europe.path.hasPrefix("/v1/air-quality?latitude=52.22&longitude=6.89&current=european_aqi,"))
        for part in [
            "european_aqi_pm2_5", "pm2_5,pm10,ozone,nitrogen_dioxide,uv_index", "birch_pollen",
            "hourly=european_aqi,uv_index", "forecast_hours=48", "timezone=auto", "timeformat=unixtime",
        ] {
            XCTAssertTrue(europe.path.contains(part), "missing \(part) in \(europe.path)")
        }
        XCTAssertFalse(europe.path.contains("us_aqi"))
        // 17 current + 2 hourly variables over 2 days: 1.9 calls.
        XCTAssertEqual(europeCalls, 1.9, accuracy: 1e-9)

        let (america, americaCalls) = service.request(
            for: place("US", latitude: 40.71, longitude: -74.01), index: .us)
        XCTAssertTrue(america.path.contains("current=us_aqi,us_aqi_pm2_5"), america.path)
        XCTAssertFalse(america.path.contains("pollen"), "no pollen outside the European model")
        XCTAssertEqual(americaCalls, 1.3, accuracy: 1e-9)
    }

    func testOpenMeteo_hasTheAirQualityService_andTheOthersNone() {
        XCTAssertEqual(WeatherProviders.provider(.openMeteo).airQuality?.provider, .openMeteo)
        for provider in WeatherProviders.all where provider.name != .openMeteo {
            XCTAssertNil(provider.airQuality, provider.name.rawValue)
        }
    }

    func testConfiguration_choosesTheFirstProviderOfTheListWithAnAirService() {
        var configuration = Configuration()
        XCTAssertEqual(configuration.airService(for: place("NL"))?.provider, .openMeteo)
        XCTAssertEqual(configuration.airIndex(for: place("US")), .us)
        configuration.provider = .metNorway
        XCTAssertNil(configuration.airService(for: place("NO")), "a provider chosen alone without air: no air")
        configuration.provider = nil
        configuration.airEnabled = false
        XCTAssertNil(configuration.airService(for: place("NL")))
        configuration.airIndex = .us
        XCTAssertEqual(configuration.airIndex(for: place("NL")), .us)
    }

    func testTheFuzzTarget_takesTheAnswersAndTheirCutsWithoutTrapping() throws {
        for name in ["openmeteo-airquality-enschede.json", "openmeteo-airquality-paris-poor.json"] {
            let bytes = try Fixtures.bytes(name)
            FuzzTargets.air(bytes)
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 40)) {
                FuzzTargets.air(Array(bytes[..<cut]))
            }
        }
        FuzzTargets.air(Array("{\"current\": {\"time\": 1e300, \"european_aqi\": -1e300}}".utf8))
    }
}
