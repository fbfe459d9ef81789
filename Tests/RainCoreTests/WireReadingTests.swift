import RainCore
import RainDaemonCore
import XCTest

/// Holds each `WireReadable` reader to its type's `Decodable` conformance,
/// which `WireSchemaTests` holds to the IDL: on a value with every field set
/// (each to a value of its own), the reader gives what `Decodable` gives;
/// with any one field taken out, given a value of the wrong kind, or given a
/// string no enum spells, both give the same value or the same error. A
/// field a reader forgets, misspells or reads into another property fails
/// here.
final class WireReadingTests: XCTestCase {
    func testStatusReply_isReadAsDecodableReadsIt() throws {
        try assertReadsAsDecodable(GetStatusCall.Reply.self)
    }

    func testEachTypeInTheStatus_isReadAsDecodableReadsIt() throws {
        try assertReadsAsDecodable(WeatherStatus.self)
        try assertReadsAsDecodable(Location.self)
        try assertReadsAsDecodable(SourceWire.self)
        try assertReadsAsDecodable(RefreshFailure.self)
        try assertReadsAsDecodable(FailureWording.self)
        try assertReadsAsDecodable(NowcastStatus.self)
        try assertReadsAsDecodable(ProviderStatus.self)
        try assertReadsAsDecodable(ProviderChoice.self)
        try assertReadsAsDecodable(AlertSourceStatus.self)
        try assertReadsAsDecodable(AlertPace.self)
        try assertReadsAsDecodable(PlaceAlertService.self)
        try assertReadsAsDecodable(AlertService.self)
        try assertReadsAsDecodable(Attribution.self)
        try assertReadsAsDecodable(ObservationSourceStatus.self)
        try assertReadsAsDecodable(PlaceObservation.self)
        try assertReadsAsDecodable(ObservationStation.self)
        try assertReadsAsDecodable(Observation.self)
        try assertReadsAsDecodable(ObservedWeather.self)
    }

    /// raind reads its state file this way as it starts (`PersistentState(bytes:)`).
    func testTheSettings_areReadAsDecodableReadsThem() throws {
        try assertReadsAsDecodable(Settings.self)
    }

    /// raind reads its cached forecasts this way as it starts (`CachedForecast(bytes:)`).
    func testEachTypeInAForecast_isReadAsDecodableReadsIt() throws {
        try assertReadsAsDecodable(Forecast.self)
        try assertReadsAsDecodable(CurrentConditions.self)
        try assertReadsAsDecodable(ValueSource.self)
        try assertReadsAsDecodable(HourlyForecast.self)
        try assertReadsAsDecodable(DailyForecast.self)
        try assertReadsAsDecodable(WeatherAlert.self)
        try assertReadsAsDecodable(Nowcast.self)
        try assertReadsAsDecodable(NowcastStep.self)
        try assertReadsAsDecodable(ProviderFailover.self)
        try assertReadsAsDecodable(AirQuality.self)
        try assertReadsAsDecodable(Pollen.self)
        try assertReadsAsDecodable(AirHour.self)
        try assertReadsAsDecodable(TemperatureCorrection.self)
        try assertReadsAsDecodable(CorrectedTemperature.self)
        try assertReadsAsDecodable(ProviderLookup.self)
    }

    func testEveryKindOfSource_isReadAsDecodableReadsIt_andAnIncompleteOneRefusedAlike() throws {
        for source in [
            LocationSource.geonames(id: 2_988_507), .geocoder(provider: "open-meteo", id: "x1"), .coordinates,
            .current(approximate: true),
        ] {
            XCTAssertEqual(try read(LocationSource.self, source.json).get(), source)
        }
        let incomplete: JSON = .object(JSONObject([("kind", .string("geocoder")), ("id", .string("7"))]))
        XCTAssertEqual(
            outcome(read(LocationSource.self, incomplete)), outcome(decode(LocationSource.self, incomplete)))
        XCTAssertEqual(
            outcome(read(LocationSource.self, incomplete)),
            "error: source: a geocoder source needs provider and id")
    }

    /// A reader that drops a field fails the comparison: the check can fail.
    func testAReaderThatForgetsAField_isCaught() throws {
        let json = try distinctSample(Attribution.self)
        XCTAssertNotEqual(
            try read(ForgetfulAttribution.self, json).get().attribution, try decode(Attribution.self, json).get())
    }

    // MARK: - The check

    private func assertReadsAsDecodable<T: WireReadable & Codable & Equatable>(
        _ type: T.Type, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let sample = try distinctSample(type)
        let full = try decode(type, sample).get()
        let whole = try read(type, sample).get()
        guard whole == full else {
            // Which of the type's properties differ, rather than both values whole.
            let differing = zip(Mirror(reflecting: whole).children, Mirror(reflecting: full).children)
                .filter { "\($0.value)" != "\($1.value)" }.compactMap(\.0.label)
            XCTFail("\(type): the reader reads \(differing) otherwise than Decodable", file: file, line: line)
            return
        }
        var paths: [[Step]] = []
        Self.memberPaths(sample, under: [], into: &paths)
        XCTAssertFalse(paths.isEmpty, "\(type) has fields", file: file, line: line)
        for path in paths {
            let without = Self.replacing(sample, at: path, with: nil)
            let expected = outcome(decode(type, without))
            XCTAssertNotEqual(
                expected, outcome(Result<T, WireDecodingError>.success(full)),
                "\(type)\(Self.text(path)): taking it out changes the value", file: file, line: line)
            assertSame(read(type, without), expected, "\(type) without \(Self.text(path))", file: file, line: line)
            guard let value = Self.value(sample, at: path) else { continue }
            if case .string = value {
                // An enum's unknown spelling is an error naming the accepted ones, from both.
                let unknown = Self.replacing(sample, at: path, with: .string("no such spelling"))
                assertSame(
                    read(type, unknown), outcome(decode(type, unknown)), "\(type) with \(Self.text(path)) unknown",
                    file: file, line: line)
            }
            let wrong = Self.replacing(sample, at: path, with: Self.wrongKind(for: value))
            assertSame(
                read(type, wrong), outcome(decode(type, wrong)), "\(type) with \(Self.text(path)) of another kind",
                file: file, line: line)
        }
    }

    private func assertSame<T: Equatable>(
        _ read: Result<T, WireDecodingError>, _ expected: String, _ what: String, file: StaticString, line: UInt
    ) {
        let got = outcome(read)
        if got != expected {
            XCTFail(
                "\(what): the reader gives \(got.prefix(300)) where Decodable gives \(expected.prefix(300))",
                file: file, line: line)
        }
    }

    /// A value with every field set (`SchemaRecorder`: every optional
    /// present, one element an array), then each number, string and flag
    /// made different from the others wherever `Decodable` still reads it
    /// (an enum keeps its spelling).
    private func distinctSample<T: Codable>(_ type: T.Type) throws -> JSON {
        var sample = try SchemaRecorder.record(type).value.json
        var paths: [[Step]] = []
        Self.leafPaths(sample, under: [], into: &paths)
        for (index, path) in paths.enumerated() {
            guard let leaf = Self.value(sample, at: path) else { continue }
            let distinct: JSON
            switch leaf {
            case .number: distinct = .number(Double(index + 2))
            case .string: distinct = .string("s\(index)")
            case .bool(let flag): distinct = .bool(!flag)
            default: continue
            }
            let changed = Self.replacing(sample, at: path, with: distinct)
            if case .success = decode(type, changed) { sample = changed }
        }
        return sample
    }

    private func decode<T: Decodable>(_ type: T.Type, _ json: JSON) -> Result<T, WireDecodingError> {
        Result { () throws(WireDecodingError) in try WireDecoder.decode(type, from: json, context: "reply") }
    }

    private func read<T: WireReadable>(_ type: T.Type, _ json: JSON) -> Result<T, WireDecodingError> {
        guard let tape = try? JSONTape(parsing: json.serializedBytes()) else {
            return .failure(WireDecodingError(field: "", reason: "not JSON"))
        }
        return Result { () throws(WireDecodingError) in try T(wire: WireFields(tape, context: "reply")) }
    }

    private func outcome<T: Equatable>(_ result: Result<T, WireDecodingError>) -> String {
        switch result {
        case .success(let value): return "value: \(value)"
        case .failure(let error): return "error: \(error)"
        }
    }

    private enum Step: CustomStringConvertible {
        case key(String)
        case index(Int)
        var description: String {
            switch self {
            case .key(let key): return ".\(key)"
            case .index(let index): return "[\(index)]"
            }
        }
    }

    private static func text(_ path: [Step]) -> String { path.map(\.description).joined() }

    /// Every object member's path, at any depth.
    private static func memberPaths(_ json: JSON, under path: [Step], into paths: inout [[Step]]) {
        switch json {
        case .object(let object):
            for (key, value) in object {
                paths.append(path + [.key(key)])
                memberPaths(value, under: path + [.key(key)], into: &paths)
            }
        case .array(let items):
            for (index, item) in items.enumerated() { memberPaths(item, under: path + [.index(index)], into: &paths) }
        default: break
        }
    }

    /// Every number's, string's and flag's path.
    private static func leafPaths(_ json: JSON, under path: [Step], into paths: inout [[Step]]) {
        switch json {
        case .object(let object):
            for (key, value) in object { leafPaths(value, under: path + [.key(key)], into: &paths) }
        case .array(let items):
            for (index, item) in items.enumerated() { leafPaths(item, under: path + [.index(index)], into: &paths) }
        case .null: break
        default: paths.append(path)
        }
    }

    private static func value(_ json: JSON, at path: [Step]) -> JSON? {
        guard let step = path.first else { return json }
        switch (step, json) {
        case (.key(let key), .object(let object)): return object[key].flatMap { value($0, at: Array(path.dropFirst())) }
        case (.index(let index), .array(let items)) where items.indices.contains(index):
            return value(items[index], at: Array(path.dropFirst()))
        default: return nil
        }
    }

    /// `json` with the value at `path` replaced, or taken out when `new` is nil.
    private static func replacing(_ json: JSON, at path: [Step], with new: JSON?) -> JSON {
        guard let step = path.first else { return new ?? .null }
        let rest = Array(path.dropFirst())
        switch (step, json) {
        case (.key(let key), .object(var object)):
            if rest.isEmpty {
                object[key] = new
            } else if let inner = object[key] {
                object[key] = replacing(inner, at: rest, with: new)
            }
            return .object(object)
        case (.index(let index), .array(var items)) where items.indices.contains(index):
            items[index] = rest.isEmpty && new == nil ? .null : replacing(items[index], at: rest, with: new)
            return .array(items)
        default: return json
        }
    }

    private static func wrongKind(for value: JSON) -> JSON {
        switch value {
        case .string: return .number(1)
        case .number: return .string("1")
        case .bool: return .number(1)
        case .array: return .object(JSONObject())
        case .object: return .array([])
        case .null: return .bool(true)
        }
    }
}

/// An `Attribution` reader missing its `url`.
private struct ForgetfulAttribution: WireReadable {
    var attribution: Attribution
    init(wire: WireFields) throws(WireDecodingError) {
        attribution = Attribution(text: try wire.string("text"), url: "")
    }
}
