/// How old something is, in the words the views use: `just now`,
/// `4 min ago`, `2 h ago`, `1 day ago`, `3 days ago`. Each unit is counted
/// in whole steps, rounded down. A negative age (a clock that went back)
/// reads as `just now`.
public enum AgeText {
    public static func describe(ageSeconds: Double) -> String {
        guard ageSeconds.isFinite, ageSeconds >= 60 else { return "just now" }
        // Capped so a corrupt timestamp reads as very old instead of trapping.
        let seconds = Int(min(ageSeconds, 1e15))
        if seconds < 3600 { return "\(seconds / 60) min ago" }
        if seconds < 86_400 { return "\(seconds / 3600) h ago" }
        let days = seconds / 86_400
        return days == 1 ? "1 day ago" : "\(days) days ago"
    }
}
