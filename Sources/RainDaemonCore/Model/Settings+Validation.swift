import RainCore

/// The rules settings must meet wherever they come from. A client's invalid
/// value is refused; one read from the state file is reported and replaced
/// by the default, as docs/FILES.md says.
extension Settings {
    /// What is wrong, naming the field; nil when the settings are valid.
    public func validationProblem() -> WireDecodingError? {
        if let refreshMinutes, !Settings.refreshMinutesRange.contains(refreshMinutes) {
            return WireDecodingError(
                field: "refreshMinutes",
                reason:
                    "\(refreshMinutes) is outside \(Settings.refreshMinutesRange.lowerBound)...\(Settings.refreshMinutesRange.upperBound)"
            )
        }
        return nil
    }
}
