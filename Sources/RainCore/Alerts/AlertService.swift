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
    /// Why the last poll failed ("HTTP 503"), why the place is not
    /// covered, or, with `unread`, why some of the warnings the service
    /// listed could not be read; nil when it answered in full.
    public var problem: String?
    /// The wording of the failure `problem` says, so raindctl can say it in
    /// the reader's language (`localizedProblem`); nil when it says none.
    public var wording: FailureWording?
    /// How many of the region's warnings name no area raind can place (no
    /// outline, codes it cannot tell), which are not shown; nil when none.
    public var unplaced: Int?
    /// How many of the warnings the service's answer lists could not be
    /// read (their CAP documents could not be fetched or made sense of, or
    /// the answer said it left some out), with `problem` saying why; they
    /// are asked for again at the next poll. nil when none.
    public var unread: Int?

    public init(
        source: String?, attribution: Attribution? = nil, checkedAt: Double? = nil, problem: String? = nil,
        wording: FailureWording? = nil, unplaced: Int? = nil, unread: Int? = nil
    ) {
        self.source = source
        self.attribution = attribution
        self.checkedAt = checkedAt
        self.problem = problem
        self.wording = wording
        self.unplaced = unplaced
        self.unread = unread
    }

    /// The `problem` of a poll that left `unread` warnings unread: `what`
    /// ("2 warnings could not be read"), then why.
    package static func unreadProblem(_ what: String, reason: String) -> String {
        what + ": " + reason
    }

    /// Why the `unread` warnings could not be read: `problem` after its
    /// count ("HTTP 404" of "2 warnings could not be read: HTTP 404"); nil
    /// when none is unread.
    public var unreadReason: String? {
        guard let count = unread, count > 0, let problem else { return nil }
        let characters = Array(problem)
        guard let colon = characters.indices.first(where: { characters[$0...].starts(with: ": ") }) else {
            return problem
        }
        return String(characters[(colon + 2)...])
    }

    /// `problem` in the reader's language where raindctl can say it again.
    public var localizedProblem: String? { problem.map { FailureWording.localized($0, wording: wording) } }

    /// A place no official alert service covers.
    public static let none = AlertService(
        source: nil, problem: Localization.marked("no official alert service for this place"))
}
