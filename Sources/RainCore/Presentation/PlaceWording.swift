/// The sentences about places that raind answers with and raindctl prints:
/// written once, so the daemon's message (English, in its C locale) and
/// raindctl's rendering in the reader's language are the same sentence.
/// raindctl shows its own rendering only when the English one is exactly the
/// message the daemon sent (`matching`), so a daemon of another version, or a
/// message with details the parameters do not carry, is shown as sent.
public enum PlaceWording {
    /// "pop. 24,171", in the reader's digit grouping.
    public static func population(_ count: Int) -> String {
        tr("pop. {population}", ["population": PopulationText.grouped(count)])
    }

    /// "Paris, Texas, US (pop. 24,171, geonames:4717560)": what tells candidates apart.
    public static func describe(_ candidate: PlaceCandidate) -> String {
        var parts = [candidate.name]
        if !candidate.region.isEmpty { parts.append(candidate.region) }
        parts.append(candidate.countryCode.isEmpty ? candidate.country : candidate.countryCode)
        var text = Localization.list(parts)
        var extra: [String] = []
        if candidate.population > 0 { extra.append(population(candidate.population)) }
        if let identity = candidate.source.identity { extra.append(identity) }
        if !extra.isEmpty { text += " (" + Localization.list(extra) + ")" }
        return text
    }

    /// "Paris, Texas": a query that names the candidate precisely.
    public static func example(_ candidate: PlaceCandidate) -> String {
        let qualifier = candidate.region.isEmpty ? candidate.countryCode : candidate.region
        return "\(candidate.name), \(qualifier)"
    }

    public static func ambiguous(query: String, candidates: [PlaceCandidate]) -> String {
        tr(
            "'{query}' could mean several places: {candidates}. Be more precise, like \"{example}\", or use a GeoNames id",
            [
                "query": query, "candidates": candidates.map(describe).joined(separator: "; "),
                "example": candidates.first.map(example) ?? query,
            ])
    }

    /// `online`: nil when the online geocoder was not asked, "" when it found
    /// nothing, else why it could not be asked.
    public static func notFound(query: String, suggestions: [PlaceCandidate], online: String?) -> String {
        let message: String
        switch online {
        case nil: message = tr("no place called '{query}' is known", ["query": query])
        case ""?: message = tr("no place called '{query}' is known, here or online", ["query": query])
        case let reason?:
            message = tr(
                "no place called '{query}' is known (the online geocoder could not be asked: {reason})",
                ["query": query, "reason": reason])
        }
        guard !suggestions.isEmpty else { return message }
        return tr(
            "{message}; did you mean {suggestions}?",
            ["message": message, "suggestions": Localization.list(suggestions.map(describe))])
    }

    /// No saved place has this id or name.
    public static func savedPlaceNotFound(_ reference: String) -> String {
        reference.isEmpty
            ? tr("no place is saved yet; add one first")
            : tr("no saved place is called '{reference}'", ["reference": reference])
    }

    public static func tooManyPlaces(limit: Int) -> String {
        trn(
            "{count} place is saved, as many as raind keeps; remove one ('raindctl remove PLACE') before adding another",
            "{count} places are saved, as many as raind keeps; remove one ('raindctl remove PLACE') before adding another",
            limit)
    }

    /// The first of `renderings` whose English form is `message`, in the
    /// reader's language; nil when none is (the message is shown as sent).
    public static func matching(_ message: String, _ renderings: [() -> String]) -> String? {
        for rendering in renderings where Localization.with(locale: "C", rendering) == message {
            return rendering()
        }
        return nil
    }
}

extension WeatherErrorParameters {
    /// The message in the reader's language where raindctl can write it
    /// from the parameters (`PlaceWording`), else as the daemon sent it.
    public var localizedMessage: String { message }
}

extension AmbiguousPlace {
    public var localizedMessage: String {
        PlaceWording.matching(message, [{ PlaceWording.ambiguous(query: query, candidates: candidates) }]) ?? message
    }
}

extension PlaceNotFound {
    public var localizedMessage: String {
        PlaceWording.matching(
            message,
            [nil, ""].map { online in
                { PlaceWording.notFound(query: query, suggestions: suggestions, online: online) }
            }) ?? message
    }
}

extension LocationNotFound {
    public var localizedMessage: String {
        PlaceWording.matching(message, [{ PlaceWording.savedPlaceNotFound(id) }]) ?? message
    }
}

extension TooManyLocations {
    public var localizedMessage: String {
        PlaceWording.matching(message, [{ PlaceWording.tooManyPlaces(limit: limit) }]) ?? message
    }
}
