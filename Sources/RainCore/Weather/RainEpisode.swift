/// One spell of rain a nowcast speaks of, to tell whether two nowcasts speak
/// of the same rain (a notification is shown once per episode).
public struct RainEpisode: Equatable, Sendable {
    public var start: Double
    /// nil: it goes on beyond `coveredUntil`.
    public var end: Double?
    public var coveredUntil: Double

    /// Whether both spells overlap, give or take `tolerance` seconds.
    public func isSame(as other: RainEpisode, tolerance: Double) -> Bool {
        let thisEnd = end ?? max(coveredUntil, start)
        let otherEnd = other.end ?? max(other.coveredUntil, other.start)
        return start <= otherEnd + tolerance && other.start <= thisEnd + tolerance
    }
}
