import RainCore

/// The Previous Runs API's answer: the forecast API's shape (`hourly` with
/// `time` and one array per variable, `hourly_units`,
/// `utc_offset_seconds`), each variable suffixed with the run it is from
/// (`_previous_day1`). Read strictly, since what it gives becomes scores:
/// an answer that is not JSON, an error object, a time that is not a whole
/// hour or not in order, a column whose length is not the times', or a
/// value no weather has (a temperature outside −100 to 70 °C) is refused
/// whole, naming the field, and nothing of it is kept.
extension OpenMeteoPreviousRuns {
    /// Rows read: the past days and today, with room to spare.
    static let maximumRows = (pastDays + 2) * 24

    /// The samples of `body` for the hours up to `now`, by lead, each marked backfilled.
    public func parse(_ body: [UInt8], now: Double) throws(ProviderParseError) -> [ForecastSample] {
        let name = provider.rawValue
        let root = try ProviderJSON.parse(body, provider: name, keepingElements: Self.maximumRows + 1)
        if root.value["error"]?.boolValue == true {
            throw root.error(.providerReported(try root.string("reason") ?? "no reason given"), at: "reason")
        }
        let offset = try ProviderOffset.seconds(root["utc_offset_seconds"], scale: 1) ?? 0
        guard let block = try root.object("hourly") else { throw root.error(.missing, at: "hourly") }
        let table = try OpenMeteoTable(block: block, units: try root.object("hourly_units"), offset: offset)
        let times = table.times
        if times.count > Self.maximumRows {
            throw block.error(
                .invalidValue("more than \(Self.maximumRows) hours, not \(Self.pastDays) past days"),
                at: block.childPath("time"))
        }
        for (index, time) in times.enumerated() {
            guard Forecast.plausibleTimes.contains(time), time.truncatingRemainder(dividingBy: 3600) == 0,
                index == 0 || time > times[index - 1]
            else {
                throw block.error(
                    .invalidValue("\(time) is not a whole hour after the one before"),
                    at: block.childPath("time[\(index)]"))
            }
        }
        var samples: [ForecastSample] = []
        for (day, lead) in Self.leads {
            let temperature = try column(
                table, "temperature_2m", day, .temperature, AccuracyRecord.temperatures, "temperature in °C")
            let rain = try column(
                table, "precipitation", day, .precipitationIntensity, PlausibleRange.precipitationIntensity.values,
                "hour's rain in mm")
            let wind = try column(
                table, "wind_speed_10m", day, .windSpeed, AccuracyRecord.windSpeeds, "wind speed in m/s")
            guard let temperature else {
                throw block.error(.missing, at: block.childPath("temperature_2m_previous_day\(day)"))
            }
            for (index, hour) in times.enumerated() where hour <= now {
                // The hour's rain is reported at the next row's time, as in the forecast.
                let next = index + 1
                let hasNext = next < times.count && times[next] == hour + 3600
                let amount = hasNext ? rain?[next] : nil
                let sample = ForecastSample(
                    provider: name, lead: lead, hour: hour, issuedAt: hour - Double(lead * 3600),
                    temperature: temperature[index], rain: amount.map { $0 >= AccuracyRecord.rainMillimetres },
                    windSpeed: wind?[index], backfilled: true)
                if sample.temperature != nil || sample.rain != nil || sample.windSpeed != nil {
                    samples.append(sample)
                }
            }
        }
        return samples
    }

    /// The column of `variable` from the run `day` days before, in SI
    /// units; nil when the answer has none. A length other than the
    /// times', or a value outside `plausible`, is refused.
    private func column(
        _ table: OpenMeteoTable, _ variable: String, _ day: Int, _ quantity: Quantity,
        _ plausible: ClosedRange<Double>, _ what: String
    ) throws(ProviderParseError) -> [Double?]? {
        let key = "\(variable)_previous_day\(day)"
        guard table.block[key] != nil else { return nil }
        guard let cells = try table.block.array(key) else { return nil }
        if cells.count != table.times.count {
            throw table.block.error(
                .invalidValue("\(cells.count) values for \(table.times.count) hours"),
                at: table.block.childPath(key))
        }
        let values = try table.column(key, .quantity(quantity))
        for (index, value) in values.enumerated() {
            if let value, !value.isFinite || !plausible.contains(value) {
                throw table.block.error(
                    .invalidValue(
                        "\(value) is no \(what) (expected \(Int(plausible.lowerBound)) to \(Int(plausible.upperBound)))"
                    ), at: table.block.childPath("\(key)[\(index)]"))
            }
        }
        return values
    }
}
