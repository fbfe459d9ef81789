import RainCore
import RainDaemonCore

/// Correcting the temperature (`[Accuracy] CorrectTemperature=yes`,
/// docs/ACCURACY.md): each place's biases, measured from its record by
/// provider, lead time and hour of day, are handed to the forecast store,
/// which serves the forecast corrected by them (the provider's own values
/// beside). Measured again when a place's record is read, at each new
/// observation (the pairs grow by the hour), and when the configuration is
/// reloaded.
extension AccuracyKeeper {
    /// Measures `id`'s biases from its record for its served forecast; none when correcting is off.
    func measureBias(of id: LocationID) {
        guard let refresher else { return }
        guard context.configuration.correctTemperature, let record = records[id],
            let station = observations?.observed(at: id)?.station?.name ?? record.station
        else { return refresher.setBiases([:], for: id) }
        var biases = TemperatureBias.measure(record, station: station, now: now)
        for name in Array(biases.keys) {
            let source = ProviderName(rawValue: name).flatMap { refresher.sources[$0] }
            biases[name]?.correctsCurrent = source?.provider.terms.currentMeasured != true
        }
        refresher.setBiases(biases, for: id)
    }

    /// `[Accuracy] CorrectTemperature=` may have changed: every place's
    /// biases measured anew (its record read when correcting), or dropped.
    func configurationReloaded() {
        let correcting = context.configuration.correctTemperature
        for place in places {
            if correcting, records[place.id] == nil {
                _ = record(place.id)
            } else {
                measureBias(of: place.id)
            }
        }
    }
}
