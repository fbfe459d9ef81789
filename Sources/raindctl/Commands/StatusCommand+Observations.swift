import RainCore

/// The observation sources' lines of `raindctl status` (docs/OBSERVATIONS.md).
extension StatusCommand {
    /// "metar: 2 stations every 1 h for 3 places, about 48 requests a day; 5 of 96 today (2 unchanged)".
    static func describe(_ source: ObservationSourceStatus, now: Double) -> String {
        let today = trn(
            "{count} of {budget} today", "{count} of {budget} today", source.requestsToday,
            ["budget": Self.calls(source.dailyBudget)])
        var text: String
        if !source.stations.isEmpty {
            let perDay = source.requestsPerDay.isFinite ? Int(min(max(0, source.requestsPerDay), 1e9).rounded()) : 0
            text = tr(
                "{stations} every {interval} for {places}, about {requests} a day; {today}",
                [
                    "stations": trn("{count} station", "{count} stations", source.stations.count),
                    "interval": Durations.span(source.pollingSeconds),
                    "places": trn("{count} place", "{count} places", source.places.count),
                    "requests": trn("{count} request", "{count} requests", perDay), "today": today,
                ])
        } else {
            text = tr("no stations now; {today}", ["today": today])
        }
        var details: [String] = []
        if source.unchangedToday > 0 {
            details.append(trn("{count} unchanged", "{count} unchanged", source.unchangedToday))
        }
        if let until = source.backoffUntil, until > now {
            let failures = trn("{count} failure", "{count} failures", source.failures)
            details.append(
                tr(
                    "backing off for {span} after {failures}",
                    ["span": Durations.span(until - now), "failures": failures]))
        }
        if !details.isEmpty {
            text = tr("{text} ({details})", ["text": text, "details": Localization.list(details)])
        }
        return tr("{name}: {text}", ["name": source.name, "text": text])
    }

    /// "Berlin-Tempelhof (dwd), 6 km away" or "none (the nearest station, …)".
    static func describe(_ place: PlaceObservation) -> String {
        guard let station = place.station, let source = place.source else {
            return tr("none ({problem})", ["problem": ForecastPresenter.brief(place.problem ?? "")])
        }
        let kilometres = (place.distanceMetres ?? 0) / 1000
        let distance = LocaleConventions.current.integer(
            Int(kilometres.isFinite ? min(max(0, kilometres), 1e6).rounded() : 0))
        var text = tr(
            "{station} ({source}), {distance} km away",
            ["station": station.name, "source": source, "distance": distance])
        if let problem = place.problem {
            text = tr(
                "{text}; last check failed ({problem})", ["text": text, "problem": ForecastPresenter.brief(problem)])
        }
        return text
    }

    /// The rows for `status`: each source's cost, then each place's station
    /// (places with the same on one row).
    static func observationRows(_ status: WeatherStatus, now: Double) -> [[String]] {
        var rows: [[String]] = []
        for (index, source) in (status.observationSources ?? []).enumerated() {
            rows.append([index == 0 ? tr("Observations:") : "", describe(source, now: now)])
        }
        return rows + placeRows(tr("Stations:"), (status.placeObservations ?? []).map { ($0.id, describe($0)) })
    }
}
