import Foundation
import RainCore
import RainDaemonCore
import TestSupport
import XCTest

@testable import RainDaemon

/// What the weather source asks and how it reads the answers of a site proxy
/// (docs/DEPLOYMENT-PROXY.md): no key with `Proxy=yes`, coordinates on the
/// grid, and the proxy's `Age` taken as the data's age.
final class WeatherSourceTests: XCTestCase {
    let enschede = Location(
        id: LocationID("enschede-nl"), name: "Enschede", countryCode: "NL", latitude: 52.2215, longitude: 6.8937,
        timeZone: "Europe/Amsterdam", source: .geonames(id: 2_756_071))
    let now = 1_791_023_700.0

    private func configuration(_ provider: Configuration.ProviderName, proxy: Bool, baseURL: String?) -> Configuration {
        var configuration = Configuration()
        configuration.provider = provider
        configuration.proxy = proxy
        configuration.baseURL = baseURL
        return configuration
    }

    func testProxy_pirateWeatherWithoutAKey_isReady_andSendsNoKey() throws {
        let source = WeatherSource(
            configuration: configuration(.pirateWeather, proxy: true, baseURL: "http://proxy.example:8080"),
            credentialsDirectory: nil)
        XCTAssertNil(source.configurationProblem)
        let request = try XCTUnwrap(source.request(for: enschede, cached: nil))
        XCTAssertEqual(request.url, "http://proxy.example:8080/forecast/52.22,6.89?units=si")
        XCTAssertEqual(request.redactedURL, request.url, "nothing to hide")
    }

    func testNoProxy_pirateWeatherWithoutAKey_isNotConfigured() {
        let source = WeatherSource(
            configuration: configuration(.pirateWeather, proxy: false, baseURL: "http://proxy.example:8080"),
            credentialsDirectory: nil)
        XCTAssertEqual(source.configurationProblem?.error, .notConfigured)
    }

    func testProxy_withoutBaseURL_isNotConfigured_forEitherProvider() {
        for provider in Configuration.ProviderName.allCases {
            let source = WeatherSource(
                configuration: configuration(provider, proxy: true, baseURL: nil), credentialsDirectory: nil)
            XCTAssertEqual(source.configurationProblem?.error, .notConfigured, "\(provider)")
            XCTAssertTrue(source.configurationProblem?.message.contains("BaseURL=") == true, "\(provider)")
        }
    }

    func testProxy_openMeteo_asksForTheGridCell() {
        let source = WeatherSource(
            configuration: configuration(.openMeteo, proxy: true, baseURL: "http://proxy.example"),
            credentialsDirectory: nil)
        XCTAssertNil(source.configurationProblem)
        XCTAssertTrue(
            source.request(for: enschede, cached: nil)?.url.hasPrefix(
                "http://proxy.example/v1/forecast?latitude=52.22&longitude=6.89&") == true)
    }

    func testAnswerWithAge_isThatOld_andFreshOnlyForWhatIsLeft() throws {
        let source = WeatherSource(
            configuration: configuration(.openMeteo, proxy: true, baseURL: "http://proxy.example"),
            credentialsDirectory: nil)
        let response = HTTPResponse(
            status: 200, headers: ["cache-control": "max-age=900", "age": "300"],
            body: try Fixtures.bytes("openmeteo-forecast-paris-unixtime.json"))
        guard case .fresh(let cached, _) = source.interpret(.success(response), for: enschede, now: now) else {
            return XCTFail("a 200 with a forecast is fresh data")
        }
        XCTAssertEqual(cached.forecast.fetchedAt, now - 300)
        XCTAssertEqual(cached.forecast.expiresAt, now + 600)
    }

    func testStaleCopyFromTheProxy_keepsItsAge_andIsDueNow() throws {
        let source = WeatherSource(
            configuration: configuration(.openMeteo, proxy: true, baseURL: "http://proxy.example"),
            credentialsDirectory: nil)
        let response = HTTPResponse(
            status: 200, headers: ["cache-control": "max-age=900", "age": "7200"],
            body: try Fixtures.bytes("openmeteo-forecast-paris-unixtime.json"))
        guard case .fresh(let cached, _) = source.interpret(.success(response), for: enschede, now: now) else {
            return XCTFail("a stale copy is still data to serve")
        }
        XCTAssertEqual(cached.forecast.fetchedAt, now - 7200)
        XCTAssertEqual(cached.forecast.expiresAt, now)
    }

    func testNotModifiedWithAge_carriesTheAge() {
        let source = WeatherSource(
            configuration: configuration(.openMeteo, proxy: true, baseURL: "http://proxy.example"),
            credentialsDirectory: nil)
        let response = HTTPResponse(status: 304, headers: ["cache-control": "max-age=900", "age": "120"])
        guard case .notModified(let expiresAt, let age) = source.interpret(.success(response), for: enschede, now: now)
        else { return XCTFail("a 304 confirms the cached data") }
        XCTAssertEqual(age, 120)
        XCTAssertEqual(expiresAt, now + 780)
    }

    func testProxyRefusal_namesTheProxy_notAMissingKey() {
        let source = WeatherSource(
            configuration: configuration(.pirateWeather, proxy: true, baseURL: "http://proxy.example"),
            credentialsDirectory: nil)
        guard case .failed(let failure) = source.interpret(.success(HTTPResponse(status: 401)), for: enschede, now: now)
        else { return XCTFail("401 is a failure") }
        XCTAssertTrue(failure.message.contains("site proxy"), failure.message)
        XCTAssertEqual(failure.httpStatus, 401)
    }

    func testProxyRefusal_speaksOfAKeyOnlyForTheProviderThatTakesOne() {
        for (provider, key) in [(Configuration.ProviderName.pirateWeather, true), (.openMeteo, false)] {
            let source = WeatherSource(
                configuration: configuration(provider, proxy: true, baseURL: "http://proxy.example"),
                credentialsDirectory: nil)
            guard
                case .failed(let failure) = source.interpret(
                    .success(HTTPResponse(status: 403)), for: enschede, now: now)
            else { return XCTFail("403 is a failure") }
            XCTAssertEqual(failure.message.contains("API key"), key, failure.message)
        }
    }
}
