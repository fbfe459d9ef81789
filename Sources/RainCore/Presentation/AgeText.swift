/// How old something is, in the words the views use: `just now`,
/// `4 min ago`, `2 h ago`, `1 day ago`, `3 days ago`. Each unit is counted
/// in whole steps, rounded down. A negative age (a clock that went back)
/// reads as `just now`.
public enum AgeText {
    public static func describe(ageSeconds: Double) -> String {
        guard ageSeconds.isFinite, ageSeconds >= 60 else { return tr("just now") }
        // Capped so a corrupt timestamp reads as very old instead of trapping.
        let seconds = Int(min(ageSeconds, 1e15))
        if seconds < 3600 { return trn("{count} min ago", "{count} min ago", seconds / 60) }
        if seconds < 86_400 { return trn("{count} h ago", "{count} h ago", seconds / 3600) }
        return trn("{count} day ago", "{count} days ago", seconds / 86_400)
    }
}
