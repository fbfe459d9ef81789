import RainCore
import RainDaemonCore

/// GetAccuracy: each provider's scores for one place or all (docs/ACCURACY.md).
extension WeatherService {
    func getAccuracy(
        _ parameters: GetAccuracyCall.Parameters, _ responder: Responder<GetAccuracyCall.Reply>
    ) throws(MethodError) {
        let locations = parameters.id == nil ? state.places.locations : [try resolve(parameters.id)]
        guard let accuracy else {
            return responder.reply(.init(places: []))
        }
        responder.reply(.init(places: locations.map { accuracy.accuracy(of: $0) }))
    }
}
