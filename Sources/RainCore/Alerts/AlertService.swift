/// The official alert service responsible for a place, as a forecast
/// carries it: which one (nil when no service covers the place, so "no
/// alerts" is never implied there), its credit, when it last answered, and
/// what went wrong with the last poll, if anything.
public struct AlertService: Equatable, Sendable, Codable {
    /// The source's name (`AlertSource.name`); nil: no official alert service for this place.
    public var source: String?
    /// The credit the service's licence asks for; nil with no source.
    public var attribution: Attribution?
    /// When the service last answered for the place (Unix seconds).
    public var checkedAt: Double?
    /// Why the last poll failed ("HTTP 503"), or why the place is not
    /// covered; nil when it answered.
    public var problem: String?
    /// The wording of the failure `problem` says, so raindctl can say it in
    /// the reader's language (`localizedProblem`); nil when it says none.
    public var wording: FailureWording?
    /// How many of the region's warnings name no area raind can place (no
    /// outline, codes it cannot tell), which are not shown; nil when none.
    public var unplaced: Int?

    public init(
        source: String?, attribution: Attribution? = nil, checkedAt: Double? = nil, problem: String? = nil,
        wording: FailureWording? = nil, unplaced: Int? = nil
    ) {
        self.source = source
        self.attribution = attribution
        self.checkedAt = checkedAt
        self.problem = problem
        self.wording = wording
        self.unplaced = unplaced
    }

    /// `problem` in the reader's language where raindctl can say it again.
    public var localizedProblem: String? { problem.map { FailureWording.localized($0, wording: wording) } }

    /// A place no official alert service covers.
    public static let none = AlertService(
        source: nil, problem: Localization.marked("no official alert service for this place"))
}
