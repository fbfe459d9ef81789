import RainCore

/// What api.weather.gov answers instead of data: a problem document
/// (RFC 7807, `application/problem+json`) with `type`, `title`, `status`
/// and `detail`, such as `{"type": "https://api.weather.gov/problems/InvalidPoint",
/// "title": "Data Unavailable For Requested Point", "status": 404, ...}` for a
/// point outside the NWS's grids, or `ForecastGridExpired` (503) for a grid
/// its office has not renewed in time.
struct NWSProblem: Equatable {
    /// The problem's type URI; empty when it names none.
    var type: String
    /// Its title and detail, on one line and bounded: shown to people and logged.
    var reason: String

    /// Longest reason kept, in characters.
    static let maximumReason = 300

    /// The problem `value` is; nil for anything else (data has `properties`).
    init?(_ value: JSON) {
        guard value.objectValue != nil, value["properties"] == nil else { return nil }
        let title = value["title"]?.stringValue.map(Self.oneLine) ?? ""
        let detail = value["detail"]?.stringValue.map(Self.oneLine) ?? ""
        guard !title.isEmpty || !detail.isEmpty else { return nil }
        type = value["type"]?.stringValue ?? ""
        let text = title.isEmpty || detail.isEmpty || title == detail ? title + detail : title + ": " + detail
        reason = text.count > Self.maximumReason ? String(text.prefix(Self.maximumReason)) + "…" : text
    }

    /// The API's answer for a point it has no forecast for.
    var isInvalidPoint: Bool { type.hasSuffix("/problems/InvalidPoint") }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isNewline }).joined(separator: " ")
    }
}
