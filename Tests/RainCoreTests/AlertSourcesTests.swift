import TestSupport
import Testing

@testable import RainCore
@testable import RainDaemonCore

@Suite struct AlertSourcesTests {
    let now = 1_758_096_000.0

    func place(_ name: String, _ countryCode: String, _ latitude: Double, _ longitude: Double) -> Location {
        Location(
            id: LocationID(name.lowercased()), name: name, countryCode: countryCode, latitude: latitude,
            longitude: longitude, source: .coordinates)
    }

    /// The source the daemon uses for `place`, and whether it asks for it.
    func chosen(_ place: Location) -> (name: String?, asks: Bool) {
        guard let source = AlertSources.source(forCountry: place.countryCode) else { return (nil, false) }
        if case .requests = source.plan(for: place, languages: ["en"], now: now) { return (source.name, true) }
        return (source.name, false)
    }

    @Test func nationalServicesComeFirstInTheTable() {
        #expect(Array(AlertSources.all.prefix(3).map(\.name)) == ["nws", "dwd", "eccc"])
        let names = AlertSources.all.map(\.name)
        #expect(Set(names).count == names.count)
        for source in AlertSources.all {
            #expect(AlertSources.source(named: source.name)?.name == source.name)
            #expect(source.defaultBaseURL.hasPrefix("https://") && !source.defaultBaseURL.hasSuffix("/"))
            #expect(source.attribution.url.hasPrefix("https://") && !source.attribution.text.isEmpty)
            #expect(source.terms.pollingInterval >= 60 && !source.terms.countries.isEmpty)
            #expect(source.terms.countries.allSatisfy { $0.count == 2 && $0 == $0.uppercased() })
        }
        #expect(AlertSources.source(named: "nowhere") == nil)
    }

    @Test func placesInTheUnitedStatesGermanyAndCanada() {
        #expect(chosen(place("Billings", "US", 45.78, -108.5)) == ("nws", true))
        #expect(chosen(place("Anchorage", "us", 61.22, -149.9)) == ("nws", true))
        #expect(chosen(place("Berlin", "DE", 52.52, 13.4)) == ("dwd", true))
        #expect(chosen(place("Toronto", "CA", 43.65, -79.38)) == ("eccc", true))
    }

    @Test func theTerritoriesTheNWSWarnsFor() {
        #expect(chosen(place("San Juan", "PR", 18.47, -66.11)) == ("nws", true))
        for code in ["GU", "VI", "AS", "MP"] {
            #expect(AlertSources.source(forCountry: code)?.name == "nws", "\(code)")
        }
        // Not an area of the API's alerts.
        #expect(AlertSources.source(forCountry: "UM")?.name != "nws")
    }

    @Test func atBordersTheCountryDecides() {
        // Kehl, across the Rhine from Strasbourg: the DWD's; Strasbourg is not.
        #expect(chosen(place("Kehl", "DE", 48.57, 7.81)) == ("dwd", true))
        #expect(AlertSources.source(forCountry: "FR")?.name != "dwd")
        #expect(
            DWDAlertSource().plan(for: place("Strasbourg", "FR", 48.58, 7.75), languages: [], now: now)
                == .notCovered("the DWD warns for Germany only"))
        // Detroit and Windsor, a river apart.
        #expect(chosen(place("Detroit", "US", 42.33, -83.05)) == ("nws", true))
        #expect(chosen(place("Windsor", "CA", 42.3, -83.02)) == ("eccc", true))
        #expect(
            NWSAlertSource().plan(for: place("Windsor", "CA", 42.3, -83.02), languages: [], now: now)
                == .notCovered(NWS.notCovered))
        #expect(
            ECCCAlertSource().plan(for: place("Detroit", "US", 42.33, -83.05), languages: [], now: now)
                == .notCovered("Environment and Climate Change Canada warns for Canada only"))
    }

    @Test func aCountryNoSourceCovers() {
        #expect(AlertSources.source(forCountry: "JP") == nil)
        #expect(AlertSources.source(forCountry: "BR") == nil)
        #expect(AlertSources.source(forCountry: "") == nil)
        #expect(chosen(place("Tokyo", "JP", 35.68, 139.69)) == (nil, false))
    }

    /// Every recording, cut short at many places and with bytes changed,
    /// through every source and the lifecycle (the fuzz target): each returns.
    @Test func cutAndChangedRecordingsNeverTrap() throws {
        let names = try TestFile.names(in: Fixtures.directory + "/alerts")
        #expect(names.count >= 5)
        for name in names {
            let bytes = try Fixtures.bytes("alerts/" + name)
            FuzzTargets.alerts(bytes)
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 20)) {
                FuzzTargets.alerts(Array(bytes[..<cut]))
                var changed = bytes
                changed[cut] = changed[cut] == UInt8(ascii: "9") ? UInt8(ascii: "\"") : UInt8(ascii: "9")
                FuzzTargets.alerts(changed)
            }
        }
    }
}
