/// The words for `CurrentConditions.sources`, beside the values they
/// concern: "Temperature, humidity from Freiburg, 21 km, 1,254 m lower",
/// and "Observed at Potsdam, 28 km" when the place's own station is itself
/// far. In the reader's language; the station's name as the provider gives it.
enum SourceWording {
    /// One line per source, each starting with a capital.
    static func lines(_ sources: [ValueSource]?) -> [String] {
        (sources ?? []).prefix(ValueSource.maximumCount).map(line)
    }

    static func line(_ source: ValueSource) -> String {
        let station = source.station.strippingControlCharacters()
        let values = source.values.compactMap(ValueSource.Value.init(rawValue:)).map(name)
        var parts = [
            values.isEmpty
                ? tr("Observed at {station}", ["station": station])
                : tr("{values} from {station}", ["values": Localization.list(values), "station": station])
        ]
        if let distance = source.distanceMetres, distance.isFinite {
            let kilometres = Int(min(distance / 1000, 1e6).rounded())
            parts.append(tr("{distance} km", ["distance": LocaleConventions.current.integer(kilometres)]))
        }
        if let difference = source.heightDifferenceMetres, difference.isFinite {
            let metres = LocaleConventions.current.integer(Int(min(abs(difference), 1e6).rounded()))
            parts.append(
                difference < 0
                    ? tr("{metres} m lower", ["metres": metres]) : tr("{metres} m higher", ["metres": metres]))
        }
        let text = Localization.list(parts)
        return text.readerCapitalized
    }

    static func name(_ value: ValueSource.Value) -> String {
        switch value {
        case .temperature: return tr("temperature")
        case .humidity: return tr("humidity")
        case .pressure: return tr("pressure")
        case .wind: return tr("wind")
        case .gusts: return tr("gusts")
        case .visibility: return tr("visibility")
        case .cloudCover: return tr("cloud cover")
        case .precipitation: return tr("precipitation")
        case .condition: return tr("conditions")
        }
    }
}
