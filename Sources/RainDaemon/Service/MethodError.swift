import RainCore

/// A call's failure as a Varlink error: its name and parameters. Every one
/// carries a `message` that says what went wrong and what to do.
public struct MethodError: Error {
    public var name: String
    public var parameters: JSONObject

    public init(_ name: WeatherErrorName, message: String, _ fields: KeyValuePairs<String, JSON> = [:]) {
        self.name = name.qualifiedName
        var object = JSONObject()
        for (key, value) in fields { object[key] = value }
        object["message"] = .string(message)
        parameters = object
    }

    public init(service name: VarlinkServiceError, _ fields: KeyValuePairs<String, JSON>) {
        self.name = name.qualifiedName
        var object = JSONObject()
        for (key, value) in fields { object[key] = value }
        parameters = object
    }

    public static func invalidParameter(_ field: String, _ reason: String) -> MethodError {
        MethodError(service: .invalidParameter, ["parameter": .string(field), "reason": .string(reason)])
    }

    public static func invalid(_ error: WireDecodingError) -> MethodError {
        invalidParameter(error.field, error.reason)
    }

    public static func locationNotFound(_ reference: String) -> MethodError {
        MethodError(
            .locationNotFound,
            message: "no saved place is called '\(reference)'; 'raindctl list' shows the saved places and their ids",
            ["id": .string(reference)])
    }

    public init(_ error: LocationListError) {
        switch error {
        case .notFound(let reference):
            self = .locationNotFound(reference)
        case .isSelected(let location):
            self.init(
                .locationIsSelected,
                message: "\(location.name) (\(location.id)) is the selected place and cannot be removed; select another place first ('raindctl set-location PLACE')",
                ["id": .string(location.id.rawValue)])
        case .ambiguous(let reference, let matches):
            self.init(
                .locationNotFound,
                message: "several saved places are called '\(reference)': "
                    + matches.map { "\($0.id) (\($0.displayName))" }.joined(separator: ", ")
                    + "; name one by its id",
                ["id": .string(reference)])
        }
    }

    /// A refresh failure as the error the IDL declares for it.
    public init(_ failure: RefreshFailure, callsToday: Int, dailyBudget: Int) {
        switch failure.error {
        case .quotaExhausted:
            self.init(.quotaExhausted, message: failure.message, [
                "callsToday": .int(callsToday), "dailyBudget": .int(dailyBudget),
                "retryAfter": JSON(failure.retryAfter),
            ])
        case .providerError:
            self.init(.providerError, message: failure.message, [
                "httpStatus": failure.httpStatus.map(JSON.int) ?? .null, "retryAfter": JSON(failure.retryAfter),
            ])
        default:
            self.init(failure.error, message: failure.message)
        }
    }
}
