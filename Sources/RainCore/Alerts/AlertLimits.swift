/// How much of an official alert raind keeps, written once for every alert
/// source: text beyond a bound is cut (at a UTF-8 character boundary, by
/// `AlertText`), lists beyond a bound are shortened, and a value that cannot
/// be cut without changing its meaning (an identifier) is refused. Warnings
/// are short; the bounds are far above what services send and only stop a
/// broken or hostile answer from filling memory, notifications and screens.
public enum AlertLimits {
    /// An alert's title (CAP `headline`, else `event`), in UTF-8 bytes.
    public static let titleBytes = 512
    /// An alert's description (CAP `description`), in UTF-8 bytes.
    public static let descriptionBytes = 8 * 1024
    /// What to do (CAP `instruction`), in UTF-8 bytes.
    public static let instructionBytes = 8 * 1024
    /// The kind of event (CAP `event`) and each region's name (CAP `areaDesc`), in UTF-8 bytes.
    public static let nameBytes = 256
    /// Regions kept for one alert; an alert for more names the first ones.
    public static let regions = 64
    /// Alerts kept from one answer of a feed.
    public static let alertsPerFeed = 200
    /// CAP documents one answer of a feed may name for fetching.
    public static let documentsPerFeed = 50
    /// An identifier (CAP `identifier`, or one in `references`): a longer one is refused.
    public static let identifierBytes = 512
    /// Identifiers kept from one message's `references`.
    public static let references = 64
    /// A web address (CAP `web`, a document's link): a longer one is left out.
    public static let uriBytes = 2048
}
