import RainCore
import RainDaemonCore

/// A cache file is checked like a provider's answer: a position on Earth, a
/// usable forecast, and validators that are plain header text (a CR or LF in
/// an ETag would end the header line it is sent back in).
extension CachedForecast {
    /// What is wrong, naming the field; nil when the entry is usable.
    func validationProblem() -> WireDecodingError? {
        if !Location.areValidCoordinates(latitude: latitude, longitude: longitude) {
            return WireDecodingError(
                field: "cache.latitude", reason: "\(latitude), \(longitude) is no position on Earth")
        }
        for (field, value) in [("etag", etag), ("lastModified", lastModified)] {
            if let value, value.containsControlCharacters || value.utf8.count > 1024 {
                return WireDecodingError(field: "cache.\(field)", reason: "is not a header value raind sends back")
            }
        }
        if let lookups {
            // One a forecast provider, and one an alert service (the DWD's warn cell).
            if lookups.count > WeatherProviders.all.count + AlertSources.all.count {
                return WireDecodingError(
                    field: "cache.lookups", reason: "holds more lookups than raind has providers and alert services")
            }
            for (name, lookup) in lookups {
                if let problem = lookup.validationProblem {
                    return WireDecodingError(field: "cache.lookups.\(name)", reason: problem)
                }
            }
        }
        if let problem = forecast.validationProblem() {
            return WireDecodingError(field: "cache.forecast.\(problem.field)", reason: problem.reason)
        }
        return nil
    }
}
