import RainCore
import RainDaemonCore

/// A call's failure as a Varlink error: its name and its typed parameters,
/// encoded. Made at the protocol edge from the core's typed errors.
public struct MethodError: Error {
    public var name: String
    public var parameters: JSON
    /// What went wrong, for a person (the error's `message`, or its reason).
    public var message: String

    public init<Parameters: WeatherErrorParameters>(_ parameters: Parameters) {
        name = Parameters.error.qualifiedName
        self.parameters = parameters.json
        message = parameters.message
    }

    /// An error of `org.varlink.service`; `message` is for the log, the wire carries the parameters.
    public init<Parameters: VarlinkServiceErrorParameters>(service parameters: Parameters, message: String) {
        name = Parameters.error.qualifiedName
        self.parameters = parameters.json
        self.message = message
    }

    public static func invalidParameter(_ field: String, _ reason: String) -> MethodError {
        MethodError(
            service: VarlinkServiceError.InvalidParameter(parameter: field, reason: reason),
            message: "\(field): \(reason)")
    }

    public static func invalid(_ error: WireDecodingError) -> MethodError {
        invalidParameter(error.field, error.reason)
    }

    /// A call to an interface the server does not answer.
    public static func interfaceNotFound(_ interface: String) -> MethodError {
        MethodError(
            service: VarlinkServiceError.InterfaceNotFound(interface: interface),
            message: "raind has no interface '\(interface)'")
    }

    /// A call to a method its interface does not have.
    public static func methodNotFound(_ method: String) -> MethodError {
        MethodError(
            service: VarlinkServiceError.MethodNotFound(method: method), message: "raind has no method '\(method)'")
    }

    /// A client turned away on connect because a connection limit is reached.
    public static func tooManyClients(_ reason: String) -> MethodError {
        MethodError(service: VarlinkServiceError.PermissionDenied(message: reason), message: reason)
    }

    /// The error as a whole framed reply, appended to `bytes`.
    func frame(into bytes: inout [UInt8]) {
        VarlinkFramer.frame(VarlinkReply.failure(name, parameters).json, into: &bytes)
    }

    public static func locationNotFound(_ reference: String) -> MethodError {
        MethodError(LocationNotFound(id: reference, message: PlaceWording.savedPlaceNotFound(reference)))
    }

    public init(_ error: LocationListError) {
        switch error {
        case .notFound(let reference):
            self = .locationNotFound(reference)
        case .isSelected(let location):
            self.init(
                LocationIsSelected(
                    id: location.id.rawValue,
                    message:
                        "\(location.name) (\(location.id)) is the selected place and cannot be removed; select another place first"
                ))
        case .full(let limit):
            self.init(
                TooManyLocations(limit: limit, message: PlaceWording.tooManyPlaces(limit: limit)))
        case .ambiguous(let reference, let matches):
            self.init(
                LocationNotFound(
                    id: reference,
                    message: "several saved places are called '\(reference)': "
                        + matches.map { "\($0.id) (\($0.displayName))" }.joined(separator: ", ")
                        + "; name one by its id"))
        }
    }

    /// A refresh failure as the error the IDL declares for it.
    /// `budget`: the budget in question when the failure is a used-up budget.
    public init(_ failure: RefreshFailure, budget: (period: BudgetPeriod, calls: Double, budget: Double)) {
        switch failure.error {
        case .quotaExhausted:
            self.init(
                QuotaExhausted(
                    period: budget.period, calls: budget.calls, budget: budget.budget,
                    retryAfter: failure.retryAfter ?? 0, message: failure.message, wording: failure.wording))
        case .offline: self.init(Offline(message: failure.message, wording: failure.wording))
        case .notConfigured: self.init(NotConfigured(message: failure.message, wording: failure.wording))
        case .locationNotFound: self.init(LocationNotFound(id: "", message: failure.message))
        default:
            self.init(
                ProviderError(
                    message: failure.message, httpStatus: failure.httpStatus, retryAfter: failure.retryAfter,
                    wording: failure.wording))
        }
    }
}
