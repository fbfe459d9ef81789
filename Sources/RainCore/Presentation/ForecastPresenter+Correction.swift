/// How the views mark a temperature raind corrected by its provider's
/// measured bias (`Forecast.correction`, docs/ACCURACY.md): an asterisk
/// after the value, and one line under the view saying what it means.
extension ForecastPresenter {
    /// The mark after a corrected temperature.
    public static let correctedMark = "*"

    /// `text` (the `kind` temperature at `time`) with the mark when it is
    /// corrected; with `aligned`, a space instead when it is not but others
    /// are, so a column's digits stay under each other.
    func marked(_ text: String, _ kind: CorrectedTemperature.Kind, at time: Double, aligned: Bool = false) -> String {
        if forecast.isCorrected(kind, at: time) { return text + Self.correctedMark }
        return aligned && forecast.correction != nil ? text + " " : text
    }

    /// "* metno: temperatures corrected by its measured bias at
    /// Oslo-Blindern", when `shown` is true and the forecast is corrected.
    func correctionLine(shown: Bool) -> String? {
        guard shown, let correction = forecast.correction else { return nil }
        return Self.correctedMark + " "
            + tr(
                "{provider}: temperatures corrected by its measured bias at {station}",
                ["provider": forecast.provider, "station": correction.station])
    }
}
