import RainCore
import RainDaemonCore
import RainPlaces

/// Asks the online geocoder (Open-Meteo's, `[Places] GeocoderURL=`) for a
/// name the embedded data does not know. Only used when enabled and online.
public final class OnlineGeocoder {
    private let http: any HTTPFetching
    private let logger: Logger

    init(http: any HTTPFetching, logger: Logger) {
        self.http = http
        self.logger = logger
    }

    /// The geocoder's results for `name`, in its order, with their feature
    /// codes (judged by `PlaceDirectory.resolveOnline`); a failure says what
    /// went wrong.
    func search(
        _ name: String, baseURL: String, timeoutSeconds: Int,
        completion: @escaping (Result<[OnlinePlace], RefreshFailure>) -> Void
    ) {
        let url = baseURL + OpenMeteoGeocoding.searchPath(name: name)
        let request = HTTPRequest(
            url: url, redactedURL: url, connectTimeout: .seconds(min(timeoutSeconds, 10)),
            totalTimeout: .seconds(timeoutSeconds), maxBodyBytes: 1 << 20)
        http.fetch(request) { [logger] result in
            switch result {
            case .failure(let failure):
                logger.info("online geocoder: \(failure.message)")
                completion(.failure(WeatherSource.failure(from: failure)))
            case .success(let response) where response.status == 200:
                do {
                    completion(.success(try OnlinePlace.parseOpenMeteo(response.body)))
                } catch {
                    completion(
                        .failure(
                            RefreshFailure(
                                error: .providerError, message: "the online geocoder sent an unusable answer (\(error))"
                            )))
                }
            case .success(let response):
                // Open-Meteo's geocoder explains a 400 or 429 in its body; pass its words on.
                if let refusal = OpenMeteoErrorReply(body: response.body) {
                    let advice =
                        response.status == 429
                        ? "the geocoder's rate limit is reached; try again later or add the place by coordinates"
                        : "try another spelling, or add the place by coordinates"
                    completion(
                        .failure(
                            RefreshFailure(
                                error: .providerError,
                                message:
                                    "the online geocoder answered HTTP \(response.status): \"\(refusal.reason)\"; \(advice)",
                                httpStatus: response.status)))
                    return
                }
                completion(
                    .failure(
                        RefreshFailure(
                            error: .providerError,
                            message:
                                "the online geocoder answered HTTP \(response.status); check [Places] GeocoderURL=",
                            httpStatus: response.status)))
            }
        }
    }
}
