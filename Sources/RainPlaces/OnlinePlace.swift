import Glibc
import RainCore
import RainDaemonCore

/// One result of the online geocoder (Open-Meteo's `/v1/search`, which
/// answers from GeoNames): the place and what the answer says of its kind.
public struct OnlinePlace: Equatable, Sendable {
    /// The place as raind would save it.
    public var candidate: PlaceCandidate
    /// The GeoNames feature code (`PPL`, `PPLC`, `ISL`, `CONT` …); empty when the answer has none.
    public var featureCode: String

    public init(candidate: PlaceCandidate, featureCode: String) {
        self.candidate = candidate
        self.featureCode = featureCode
    }

    /// A populated place (GeoNames class P: `PPL`, `PPLA`, `PPLC`, `PPLX` …),
    /// as opposed to an island, a region, a continent or a building.
    public var isPopulatedPlace: Bool { featureCode.hasPrefix("PPL") }

    /// Evidence for the clear-winner rule, in log10(population) units: the
    /// population when the answer gives one, else a nominal one by feature
    /// code — a capital counts as a million, a first-level seat 100,000, a
    /// second-level seat 30,000, lower seats 10,000 and 3,000, another
    /// populated place 1,000, a section of one 300, anything else 100, an
    /// abandoned or historical place 10.
    public var evidence: Double {
        if candidate.population > 0 { return log10(Double(candidate.population)) }
        return log10(OnlinePlace.nominalPopulation(featureCode: featureCode))
    }

    static func nominalPopulation(featureCode: String) -> Double {
        switch featureCode {
        case "PPLC", "PPLG": return 1_000_000
        case "PPLA": return 100_000
        case "PPLA2": return 30_000
        case "PPLA3": return 10_000
        case "PPLA4", "PPLA5": return 3_000
        case "PPLX": return 300
        case "PPLQ", "PPLW", "PPLH", "PPLCH": return 10
        case let code where code.hasPrefix("PPL"): return 1_000
        default: return 100
        }
    }

    /// The results of an answer of Open-Meteo's geocoding API, in its order
    /// (fields as documented at https://open-meteo.com/en/docs/geocoding-api:
    /// `id`, `name`, `latitude`, `longitude`, `feature_code`, `country_code`,
    /// `country`, `admin1`, `timezone`, `population`; all but name and
    /// coordinates may be missing). Results without a name or usable
    /// coordinates are left out; an answer without `results` has none.
    /// - Throws: `WireDecodingError` when the body is not such an answer, or
    ///   is the API's error object (`{"error": true, "reason": …}`).
    public static func parseOpenMeteo(_ body: [UInt8]) throws(WireDecodingError) -> [OnlinePlace] {
        let value: JSON
        do {
            value = try JSON(parsing: body)
        } catch {
            throw WireDecodingError(field: "geocoding", reason: error.description)
        }
        let reader = try WireReader(value, context: "geocoding")
        if try reader.optionalBool("error") == true {
            let reason = try reader.optionalString("reason") ?? "no reason given"
            throw WireDecodingError(field: "geocoding", reason: "the geocoder reported an error: \(reason)")
        }
        var places: [OnlinePlace] = []
        for (index, item) in try reader.array("results").enumerated() {
            // One result of an unexpected shape is left out, not the whole answer.
            if let place = try? parseResult(item, index: index) { places.append(place) }
        }
        return places
    }

    private static func parseResult(_ item: JSON, index: Int) throws(WireDecodingError) -> OnlinePlace? {
        let result = try WireReader(item, context: "geocoding.results[\(index)]")
        guard let latitude = try result.optionalDouble("latitude"),
            let longitude = try result.optionalDouble("longitude"),
            (-90...90).contains(latitude), (-180...180).contains(longitude),
            let name = try result.optionalString("name"), !name.trimmingSpaces().isEmpty
        else { return nil }
        let id = try result.optionalInt("id").map(String.init) ?? "\(latitude),\(longitude)"
        let candidate = PlaceCandidate(
            name: name,
            region: try result.optionalString("admin1") ?? "",
            country: try result.optionalString("country") ?? "",
            countryCode: (try result.optionalString("country_code") ?? "").uppercased(),
            latitude: latitude, longitude: longitude,
            timeZone: try result.optionalString("timezone") ?? "",
            population: max(0, try result.optionalInt("population") ?? 0),
            source: .geocoder(provider: OpenMeteoGeocoding.providerName, id: id))
        return OnlinePlace(candidate: candidate, featureCode: try result.optionalString("feature_code") ?? "")
    }
}
