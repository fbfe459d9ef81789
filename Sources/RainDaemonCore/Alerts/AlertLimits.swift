import RainCore

/// How much raind keeps of what an alert source says, written once for
/// every source and for `AlertLifecycle`: text beyond a bound is cut (at a
/// UTF-8 character boundary), lists beyond a bound are shortened, and a
/// value that cannot be cut without changing its meaning (an identifier,
/// an outline) is refused. Warnings are short; the bounds are far above
/// what services send and only stop a broken or hostile answer from
/// filling memory, cache, notifications and screens.
public enum AlertLimits {
    /// An alert's title (CAP `headline`, else `event`), in UTF-8 bytes.
    public static let titleBytes = 512
    /// An alert's description and its instruction, each, in UTF-8 bytes.
    public static let textBytes = 8 * 1024
    /// An alert's description (CAP `description`), in UTF-8 bytes.
    public static let descriptionBytes = textBytes
    /// What to do (CAP `instruction`), in UTF-8 bytes.
    public static let instructionBytes = textBytes
    /// An alert's event name ("Flood Watch"), in UTF-8 bytes.
    public static let eventBytes = 256
    /// The kind of event (CAP `event`) and each region's name (CAP `areaDesc`), in UTF-8 bytes.
    public static let nameBytes = eventBytes
    /// An identifier (the CAP `identifier`, a reference), in UTF-8 bytes;
    /// a longer one is no identifier a service writes and is refused.
    public static let identifierBytes = 512
    /// A web address (CAP `web`, a document's link): a longer one is left out.
    public static let uriBytes = 2048
    /// Points of an alert area's outline, all its polygons together; a
    /// longer outline is no warning area and is refused.
    public static let areaPoints = 100_000
    /// Area names kept per alert.
    public static let regions = 64
    /// References kept per message (an update names the messages it replaces).
    public static let references = 64
    /// Alerts read from one feed; a longer feed is cut off.
    public static let alertsPerFeed = 200
    /// Entries read from an Atom feed (MeteoAlarm's: one an area of a
    /// message); the rest are left unread. A real entry is about 1.5 KB, so
    /// the 8 MiB a document may have holds some 5,500 of them.
    public static let entriesPerFeed = 10_000
    /// CAP documents a feed may name to fetch.
    public static let documentsPerFeed = 50
    /// The messages of all of a place's sources that `AlertLifecycle.current`
    /// reads, and the alerts it returns at most.
    public static let alertsPerPlace = 400

    /// `text` cut to at most `bytes` UTF-8 bytes, at a character boundary.
    public static func truncated(_ text: String, toBytes bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            guard used + size <= bytes else { break }
            kept.append(character)
            used += size
        }
        return kept
    }
}
