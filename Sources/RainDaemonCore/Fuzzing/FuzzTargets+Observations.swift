import RainCore

extension FuzzTargets {
    /// An observation source's answer, read by every source of
    /// `ObservationSources.all` as a lookup, a station list and an
    /// observation of the first station it names (and of a fixed one); each
    /// observation validated and worded as `raindctl now` shows it, and the
    /// stations through `VerifyingStation`; also as a station's history and
    /// as Open-Meteo's archive of past runs, whose samples, with that
    /// history, must make a record raind would read back.
    public static func observations(_ bytes: [UInt8]) {
        let now = 1_790_000_000.0
        let place = Location(
            id: LocationID("fuzz"), name: "Fuzz", countryCode: "US", latitude: 38.89, longitude: -77.04,
            source: .coordinates)
        if let samples = try? OpenMeteoPreviousRuns().parse(bytes, now: now) {
            var record = AccuracyRecord()
            record.takeBackfill(samples: samples, observations: [], provider: "open-meteo", at: now)
            if let problem = record.validationProblem() {
                preconditionFailure("a backfill made a record raind refuses: \(problem)")
            }
        }
        for source in ObservationSources.all {
            _ = try? source.parseLookup(bytes, now: now)
            let stations = (try? source.stations(bytes, now: now)) ?? []
            _ = VerifyingStation.choose(stations, for: place, placeHeight: 10)
            let fixed = ObservationStation(
                id: "KDCA", name: "Fuzz", latitude: 38.85, longitude: -77.03, heightMetres: 4)
            for station in [fixed] + stations.prefix(1) {
                _ = source.request(for: station)
                if let history = try? source.history(bytes, station: station, now: now),
                    let samples = try? OpenMeteoPreviousRuns().parse(bytes, now: now)
                {
                    var record = AccuracyRecord()
                    record.takeBackfill(samples: samples, observations: history, provider: "open-meteo", at: now)
                    if let problem = record.validationProblem() {
                        preconditionFailure("a backfill made a record raind refuses: \(problem)")
                    }
                }
                guard let observation = try? source.observation(bytes, station: station, now: now) else { continue }
                for units in UnitSystem.allCases {
                    _ = ObservationWording.line(
                        PlaceObservation(id: place.id, source: source.name, station: station, observation: observation),
                        units: units, now: now)
                }
            }
        }
    }
}
