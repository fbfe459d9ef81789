import TestSupport
import Testing

@testable import RainCore
@testable import RainDaemonCore

@Suite struct VerifyingStationTests {
    let washington = Location(
        id: LocationID("washington"), name: "Washington", countryCode: "US", latitude: 38.8894, longitude: -77.0352,
        source: .coordinates)
    let berlin = Location(
        id: LocationID("berlin"), name: "Berlin", countryCode: "DE", latitude: 52.52, longitude: 13.41,
        source: .coordinates)

    func stations(_ name: String, source: any ObservationSource) throws -> [ObservationStation] {
        try source.stations(try Fixtures.bytes("observations/" + name), now: 0)
    }

    @Test func theNearestRecordedStationOfTheGridCell() throws {
        let list = try stations("nws-gridpoints-stations-lwx-97-71.json", source: NWSObservationSource())
        guard
            case .station(let station, let distance, let height) = VerifyingStation.choose(
                list, for: washington, placeHeight: 10)
        else {
            Issue.record("no station")
            return
        }
        #expect(station.id == "KDCA" && abs(distance - 4_568) < 5 && height == -6)
        // Unknown height: the distance alone decides, and the difference is unknown.
        guard case .station(let same, _, nil) = VerifyingStation.choose(list, for: washington, placeHeight: nil) else {
            Issue.record("no station")
            return
        }
        #expect(same.id == "KDCA")
    }

    @Test func theNearestAirportOfABox() throws {
        let orlando = Location(
            id: LocationID("orlando"), name: "Orlando", countryCode: "US", latitude: 28.5383, longitude: -81.3792,
            source: .coordinates)
        let list = try stations(
            "aviationweather-metar-json-kmco-kjax-kdab-hours2.json", source: METARObservationSource())
        guard
            case .station(let station, let distance, _) = VerifyingStation.choose(list, for: orlando, placeHeight: nil)
        else {
            Issue.record("no station")
            return
        }
        #expect(station.id == "KMCO" && abs(distance - 14_400) < 10)
    }

    @Test func aStationFarAboveOrBelowThePlaceDoesNotVerifyIt() throws {
        let list = try stations("brightsky-current-weather-berlin.json", source: DWDObservationSource())
        // Tempelhof stands 47.7 m high, 452 m below a place at 500 m; Potsdam lies 28 km away.
        #expect(
            VerifyingStation.choose(list, for: berlin, placeHeight: 500)
                == .none(
                    "the nearest station within 25 km, Berlin-Tempelhof, stands 452 m lower than the place, more than 300 m"
                ))
        guard case .station(let station, _, let height) = VerifyingStation.choose(list, for: berlin, placeHeight: 300)
        else {
            Issue.record("no station")
            return
        }
        #expect(station.id == "00433" && height == -252)
    }

    @Test func aPlaceWithoutAStationSaysSo() throws {
        let oslo = Location(
            id: LocationID("oslo"), name: "Oslo", countryCode: "NO", latitude: 59.91, longitude: 10.75,
            source: .coordinates)
        let list = try stations("nws-gridpoints-stations-lwx-97-71.json", source: NWSObservationSource())
        guard case .none(let reason) = VerifyingStation.choose(list, for: oslo, placeHeight: nil) else {
            Issue.record("chose a station in America for Oslo")
            return
        }
        #expect(reason.hasPrefix("the nearest station, ") && reason.hasSuffix("km away, more than 25 km"))
        #expect(VerifyingStation.choose([], for: oslo, placeHeight: nil) == .none("no station reports within 25 km"))
    }
}

@Suite struct ObservationSourcesTests {
    @Test func aNationalServiceBeforeMETAR() {
        #expect(ObservationSources.sources(forCountry: "us").map(\.name) == ["nws", "metar"])
        #expect(ObservationSources.sources(forCountry: "DE").map(\.name) == ["dwd", "metar"])
        #expect(ObservationSources.sources(forCountry: "NO").map(\.name) == ["metar"])
        #expect(ObservationSources.sources(forCountry: "").map(\.name) == ["nws", "dwd", "metar"])
        #expect(ObservationSources.source(named: "dwd")?.name == "dwd" && ObservationSources.source(named: "x") == nil)
    }

    /// Every recording, cut short at many places and with bytes changed,
    /// through every source (the fuzz target): each returns.
    @Test func cutAndChangedRecordingsNeverTrap() throws {
        let names = try TestFile.names(in: Fixtures.directory + "/observations")
        #expect(names.count >= 8)
        for name in names {
            let bytes = try Fixtures.bytes("observations/" + name)
            FuzzTargets.observations(bytes)
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 20)) {
                FuzzTargets.observations(Array(bytes[..<cut]))
                var changed = bytes
                changed[cut] = changed[cut] == UInt8(ascii: "9") ? UInt8(ascii: "\"") : UInt8(ascii: "9")
                FuzzTargets.observations(changed)
            }
        }
    }

    @Test func everySourceIsPolledAtMostHourlyAndCredited() {
        for source in ObservationSources.all {
            #expect(source.terms.pollingInterval >= ObservationSourceTerms.minimumPollingInterval)
            #expect(source.terms.conditionalRequests)
            #expect(source.attribution.url.hasPrefix("https://") && !source.attribution.text.isEmpty)
            #expect(source.defaultBaseURL.hasPrefix("https://") && !source.defaultBaseURL.hasSuffix("/"))
            #expect(ProviderName.observations(source.name).rawValue == "observations-" + source.name)
        }
        // Twice the hourly polls of two stations, and a floor for the station searches.
        #expect(ObservationSources.all[0].terms.dailyBudget(stations: 2) == 96)
        #expect(ObservationSources.all[0].terms.dailyBudget(stations: 0) == 50)
    }
}

@Suite struct ObservationValidationTests {
    let station = ObservationStation(id: "KDCA", name: "Reagan", latitude: 38.85, longitude: -77.03, heightMetres: 4)

    @Test func aUsableObservationPasses() {
        let observation = Observation(
            source: "metar", station: station, time: 1000, temperature: 3, dewPoint: 3.5, windSpeed: 2,
            windBearing: 270, windGust: 9, visibility: 10, weather: [ObservedWeather(.snow, intensity: .light)],
            precipitation: 0.4, precipitationHours: 1)
        #expect(observation.validationProblem(now: 1000) == nil)
    }

    @Test func brokenValuesAreNamed() {
        let base = Observation(source: "metar", station: station, time: 1000)
        var cases: [(Observation, String)] = []
        var observation = base
        observation.time = .nan
        cases.append((observation, "time"))
        observation = base
        observation.time = 1000 + 3600
        cases.append((observation, "time"))
        observation = base
        observation.windBearing = 400
        cases.append((observation, "windBearing"))
        observation = base
        observation.visibility = -1
        cases.append((observation, "visibility"))
        observation = base
        observation.precipitation = 1
        cases.append((observation, "precipitationHours"))
        observation = base
        observation.weather = [ObservedWeather(.rain), ObservedWeather(.rain)]
        cases.append((observation, "weather"))
        observation = base
        observation.station.id = ""
        cases.append((observation, "station.id"))
        observation = base
        observation.station.name = "a\u{7}b"
        cases.append((observation, "station.name"))
        observation = base
        observation.station.heightMetres = 20_000
        cases.append((observation, "station.heightMetres"))
        observation = base
        observation.station.longitude = 200
        cases.append((observation, "station.latitude"))
        for (observation, field) in cases {
            #expect(observation.validationProblem(now: 1000)?.field == field, "\(observation)")
        }
    }
}
