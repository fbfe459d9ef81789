import RainCore

/// Why a provider's response could not be turned into a `Forecast`: what is
/// wrong and where, as a dotted path into the response (`hourly.time[3]`).
/// The daemon reports it as a `ProviderError` reply and a `RefreshFailed`
/// event; `description` is the text a person reads there.
public struct ProviderParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        /// The body is not JSON at all (an HTML error page, a truncated body).
        case notJSON(JSONParseError)
        /// The body is not well-formed XML (an alert source's CAP or Atom).
        case notXML(XMLParseError)
        /// A block or field the forecast needs is absent.
        case missing
        /// A field holds another kind of value than expected.
        case wrongType(expected: String, got: String)
        /// A field has the right kind but an unusable value (an unknown unit, a malformed date).
        case invalidValue(String)
        /// The provider answered with an error object instead of a forecast.
        case providerReported(String)
        /// The provider has no data for the place (the NWS outside the
        /// United States); the reason says where it has.
        case notCovered(String)
    }

    /// The provider whose response this is (`open-meteo`, `pirateweather`).
    public var provider: String
    /// Dotted path of the offending field; empty for the body as a whole.
    public var field: String
    public var problem: Problem

    public init(provider: String, field: String, problem: Problem) {
        self.provider = provider
        self.field = field
        self.problem = problem
    }

    public var description: String {
        let subject = field.isEmpty ? "\(provider) response" : "\(provider) response field \(field)"
        switch problem {
        case .notJSON(let error): return "\(subject) is not JSON (\(error))"
        case .notXML(let error): return "\(subject) is not well-formed XML (\(error))"
        case .missing: return "\(subject) is missing"
        case .wrongType(let expected, let got): return "\(subject): expected \(expected), got \(got)"
        case .invalidValue(let reason): return "\(subject): \(reason)"
        case .providerReported(let message): return "\(provider) reported an error: \(message)"
        case .notCovered(let reason): return "\(provider) has no data for this place (\(reason))"
        }
    }
}
