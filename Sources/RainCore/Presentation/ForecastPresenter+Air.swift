/// The air in the views (`Forecast.air`): `now`'s Air, UV and Pollen rows
/// and the air's credit, `hourly`'s AQI column. Without air data (off, not
/// fetched yet, a provider without an air-quality service) the views are
/// as before.
extension ForecastPresenter {
    /// The air when it is recent enough to speak of now: fetched within
    /// the last six hours (a failed update keeps older data, shown until then).
    var recentAir: AirQuality? {
        guard let air = forecast.air, now - air.fetchedAt < Self.airShownFor else { return nil }
        return air
    }

    /// How long air data is shown after it was fetched.
    public static let airShownFor: Double = 6 * 3600

    /// `now`'s rows: Air (the index's category, the index and its value,
    /// the dominant pollutant), and Pollen with the types present.
    var airRows: [[String]] {
        guard let air = recentAir else { return [] }
        var rows: [[String]] = []
        if let summary = AirWording.summary(air) { rows.append([tr("Air"), summary]) }
        if let pollen = AirWording.pollenList(air) { rows.append([tr("Pollen"), pollen]) }
        return rows
    }

    /// `now`'s UV row: the forecast's UV index, else the air's, with its
    /// WHO category (`6, high`).
    func uvText(_ current: CurrentConditions) -> String? {
        guard let uv = current.uvIndex ?? recentAir?.uvIndex else { return nil }
        return AirWording.uv(uv)
    }

    /// The UV row when the forecast has no conditions now, from the air.
    var airOnlyUVText: String? { recentAir?.uvIndex.flatMap(AirWording.uv) }

    /// The lines under `now` for the air: why its last update failed, and its credit.
    var airLines: [String] {
        guard let air = recentAir else { return [] }
        var lines: [String] = []
        if let problem = air.localizedProblem { lines.append(AirWording.problemLine(problem)) }
        lines.append(Self.creditLine(air))
        return lines
    }

    /// The air's credit, as its licence asks, under a view that shows it.
    public static func creditLine(_ air: AirQuality) -> String {
        let credit = air.attribution
        let text = Localization.translate(credit.text)
        return credit.url.isEmpty ? text : "\(text) \(credit.url)"
    }

    /// `hourly`'s AQI cells for `rows`, one per hour (`–` where unknown);
    /// nil when the air has no hours among them.
    func airColumn(_ rows: [HourlyForecast]) -> [String]? {
        guard let air = recentAir, !air.hourly.isEmpty else { return nil }
        var byTime: [Double: Int] = [:]
        for hour in air.hourly { if let aqi = hour.aqi { byTime[hour.time] = aqi } }
        let cells = rows.map { byTime[$0.time].map(String.init) ?? UnitFormatter.missing }
        return cells.allSatisfy({ $0 == UnitFormatter.missing }) ? nil : cells
    }
}
