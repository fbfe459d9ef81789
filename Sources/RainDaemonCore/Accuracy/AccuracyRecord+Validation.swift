import RainCore

/// An accuracy file is read back like an answer from outside: every value
/// is checked against what raind writes, and the first one that breaks
/// the rules is named.
extension AccuracyRecord {
    /// Plausible values: temperatures within what the providers' checks
    /// accept, speeds below any recorded gust.
    static let temperatures: ClosedRange<Double> = -100...70
    static let windSpeeds: ClosedRange<Double> = 0...120
    /// A backfill's problem is one line of at most this many bytes.
    public static let maximumProblemBytes = 1024

    /// What is wrong with the values read, naming the field; nil when usable.
    public func validationProblem() -> WireDecodingError? {
        if version != Self.currentVersion {
            return WireDecodingError(field: "version", reason: "\(version) is not \(Self.currentVersion)")
        }
        if samples.count > Self.maximumSamples {
            return WireDecodingError(
                field: "samples", reason: "\(samples.count) samples, more than \(Self.maximumSamples)")
        }
        if observed.count > Self.maximumObservedHours {
            return WireDecodingError(
                field: "observed", reason: "\(observed.count) hours, more than \(Self.maximumObservedHours)")
        }
        if let station, station.isEmpty || station.utf8.count > ObservationStation.maximumIDBytes {
            return WireDecodingError(field: "station", reason: "is no station id raind keeps")
        }
        for (index, sample) in samples.enumerated() {
            if let problem = Self.problem(of: sample) {
                return WireDecodingError(field: "samples[\(index)].\(problem.field)", reason: problem.reason)
            }
        }
        var hours: Set<Double> = []
        for (index, hour) in observed.enumerated() {
            if let problem = Self.problem(hour: hour.hour) ?? Self.problem(hour) {
                return WireDecodingError(field: "observed[\(index)].\(problem.field)", reason: problem.reason)
            }
            if !hours.insert(hour.hour).inserted {
                return WireDecodingError(field: "observed[\(index)].hour", reason: "is kept twice")
            }
        }
        if let ranking, let problem = Self.problem(of: ranking) {
            return WireDecodingError(field: "ranking.\(problem.field)", reason: problem.reason)
        }
        if let backfill, let problem = Self.problem(of: backfill) {
            return WireDecodingError(field: "backfill.\(problem.field)", reason: problem.reason)
        }
        return nil
    }

    private static func problem(of backfill: AccuracyBackfill) -> WireDecodingError? {
        if let problem = WireDecodingError.implausible("at", time: backfill.at) { return problem }
        if !isProviderName(backfill.provider) {
            return WireDecodingError(field: "provider", reason: "is no provider name")
        }
        if !(0...maximumSamples).contains(backfill.samples) {
            return WireDecodingError(field: "samples", reason: "\(backfill.samples) is not 0 to \(maximumSamples)")
        }
        if !(0...maximumObservedHours).contains(backfill.observedHours) {
            return WireDecodingError(
                field: "observedHours", reason: "\(backfill.observedHours) is not 0 to \(maximumObservedHours)")
        }
        if let problem = backfill.problem, problem.isEmpty || problem.utf8.count > maximumProblemBytes {
            return WireDecodingError(field: "problem", reason: "is empty or longer than raind writes")
        }
        return nil
    }

    private static func problem(of ranking: ProviderRanking) -> WireDecodingError? {
        for (field, name) in [("leader", ranking.leader), ("challenger", ranking.challenger)] {
            if let name, !isProviderName(name) {
                return WireDecodingError(field: field, reason: "is no provider name")
            }
        }
        if !(0..<ProviderRanking.decisionsToMove).contains(ranking.streak) {
            return WireDecodingError(
                field: "streak", reason: "\(ranking.streak) is not 0 to \(ProviderRanking.decisionsToMove - 1)")
        }
        if let problem = WireDecodingError.implausible("decidedAt", time: ranking.decidedAt) { return problem }
        return nil
    }

    private static func isProviderName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 32
            && name.utf8.allSatisfy({ $0 == 0x2D || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) })
    }

    private static func problem(of sample: ForecastSample) -> WireDecodingError? {
        if !isProviderName(sample.provider) {
            return WireDecodingError(field: "provider", reason: "is no provider name")
        }
        if !leadHours.contains(sample.lead) {
            return WireDecodingError(field: "lead", reason: "\(sample.lead) is not one of \(leadHours)")
        }
        if let problem = problem(hour: sample.hour) { return problem }
        let ahead = sample.hour - sample.issuedAt
        if !sample.issuedAt.isFinite || ahead < Double(sample.lead * 3600)
            || ahead >= Double((sample.lead + leadSpanHours) * 3600)
        {
            return WireDecodingError(field: "issuedAt", reason: "is not \(sample.lead) h before its hour")
        }
        if let value = sample.temperature, !temperatures.contains(value) {
            return WireDecodingError(field: "temperature", reason: "\(value) °C is no temperature")
        }
        if let value = sample.rainProbability, !(0...1).contains(value) {
            return WireDecodingError(field: "rainProbability", reason: "\(value) is no probability")
        }
        if let value = sample.windSpeed, !windSpeeds.contains(value) {
            return WireDecodingError(field: "windSpeed", reason: "\(value) m/s is no wind speed")
        }
        return nil
    }

    private static func problem(_ hour: ObservedHour) -> WireDecodingError? {
        if !hour.observedAt.isFinite || abs(hour.observedAt - hour.hour) > 1800 {
            return WireDecodingError(field: "observedAt", reason: "is not within half an hour of its hour")
        }
        if let value = hour.temperature, !temperatures.contains(value) {
            return WireDecodingError(field: "temperature", reason: "\(value) °C is no temperature")
        }
        if let value = hour.windSpeed, !windSpeeds.contains(value) {
            return WireDecodingError(field: "windSpeed", reason: "\(value) m/s is no wind speed")
        }
        return nil
    }

    private static func problem(hour: Double) -> WireDecodingError? {
        guard Forecast.plausibleTimes.contains(hour), hour.truncatingRemainder(dividingBy: 3600) == 0 else {
            return WireDecodingError(field: "hour", reason: "\(hour) is no whole hour raind accepts")
        }
        return nil
    }
}
