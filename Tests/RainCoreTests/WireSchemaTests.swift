import Foundation
import RainCore
import XCTest

/// Holds every Swift wire type against `protocol/io.raind.Weather.varlink`:
/// each type, field, optionality, enum and method signature, each error's
/// parameters, and the event names `Subscribe`'s documentation lists. The IDL
/// file is the single source; the Swift types follow it.
final class WireSchemaTests: XCTestCase {
    /// IDL type names and the Swift types that carry them.
    nonisolated(unsafe) static let namedTypes: [(idl: String, swift: any Decodable.Type)] = [
        ("Source", LocationSource.self), ("Location", Location.self), ("Candidate", PlaceCandidate.self),
        ("Settings", Settings.self), ("Current", CurrentConditions.self), ("Hour", HourlyForecast.self),
        ("Day", DailyForecast.self), ("Alert", WeatherAlert.self), ("Forecast", Forecast.self),
        ("Failure", RefreshFailure.self), ("Status", WeatherStatus.self), ("Attribution", Attribution.self),
        ("Nowcast", Nowcast.self), ("NowcastStep", NowcastStep.self), ("NowcastStatus", NowcastStatus.self),
        ("ProviderChange", ProviderChange.self), ("ProviderStatus", ProviderStatus.self),
        ("AlertSourceStatus", AlertSourceStatus.self), ("AlertPace", AlertPace.self),
        ("PlaceAlertService", PlaceAlertService.self),
        ("AlertService", AlertService.self), ("AirQuality", AirQuality.self), ("Pollen", Pollen.self),
        ("AirHour", AirHour.self), ("FailureWording", FailureWording.self), ("ValueSource", ValueSource.self),
        ("ObservationSourceStatus", ObservationSourceStatus.self), ("ObservationStation", ObservationStation.self),
        ("ObservedWeather", ObservedWeather.self), ("Observation", Observation.self),
        ("PlaceObservation", PlaceObservation.self), ("PlaceAccuracy", PlaceAccuracy.self),
        ("AccuracyScore", AccuracyScore.self), ("ProviderChoice", ProviderChoice.self),
        ("AccuracyBackfill", AccuracyBackfill.self),
        ("TemperatureCorrection", TemperatureCorrection.self), ("CorrectedTemperature", CorrectedTemperature.self),
        ("AccuracyDay", AccuracyDay.self),
    ]

    var idl: VarlinkIDL!

    override func setUpWithError() throws {
        idl = try VarlinkIDL(WeatherInterface.description)
    }

    func testInterfaceName_isTheIDLs() {
        XCTAssertEqual(idl.name, WeatherInterface.name)
    }

    func testEveryIDLType_matchesItsSwiftType() throws {
        XCTAssertEqual(Set(idl.types.keys), Set(Self.namedTypes.map(\.idl)), "IDL types and Swift wire types differ")
        for (name, type) in Self.namedTypes {
            try Self.assertMatches(Self.fields(of: type), idl.types[name], "type \(name)")
        }
    }

    func testEveryMethod_matchesItsDeclaredParametersAndReply() throws {
        XCTAssertEqual(Set(idl.methods.keys), Set(WeatherMethod.allCases.map(\.rawValue)))
        for method in WeatherMethod.allCases {
            let (parameters, reply) = try Self.signature(method.call)
            Self.assertMatches(parameters, idl.methods[method.rawValue]?.parameters, "parameters of \(method.rawValue)")
            Self.assertMatches(reply, idl.methods[method.rawValue]?.reply, "reply of \(method.rawValue)")
        }
    }

    /// Exactly the methods the IDL declares without parameters skip the encoder and the decoder.
    func testNoParameters_standsForExactlyTheMethodsWithoutParameters() throws {
        for method in WeatherMethod.allCases {
            let declared = try XCTUnwrap(idl.methods[method.rawValue]?.parameters, method.rawValue)
            XCTAssertEqual(method.call.noParameters != nil, declared.isEmpty, method.rawValue)
        }
    }

    func testEveryError_matchesItsDeclaredParameters() throws {
        XCTAssertEqual(Set(idl.errors.keys), Set(WeatherErrorName.allCases.map(\.rawValue)))
        for error in WeatherErrorName.allCases {
            try Self.assertMatches(
                Self.fields(of: error.parametersType), idl.errors[error.rawValue], "error \(error.rawValue)")
        }
    }

    /// The check itself must be able to fail: a renamed field, a lost `?` and
    /// a wrong element type are each seen.
    func testComparison_seesADifferentField() throws {
        struct Renamed: Codable { var identifier: String }
        struct NotOptional: Codable { var id: String }
        struct WrongElement: Codable { var ids: [Int] }
        XCTAssertFalse(Self.matches(try Self.fields(of: Renamed.self), [IDLField(name: "id", type: .string)]))
        XCTAssertFalse(
            Self.matches(try Self.fields(of: NotOptional.self), [IDLField(name: "id", type: .optional(.string))]))
        XCTAssertFalse(
            Self.matches(try Self.fields(of: WrongElement.self), [IDLField(name: "ids", type: .array(.string))]))
        XCTAssertTrue(Self.matches(try Self.fields(of: NotOptional.self), [IDLField(name: "id", type: .string)]))
    }

    /// `EventName` is the one declaration of the events; the IDL lists them for other clients.
    func testEventNames_areTheOnesTheIDLDocuments() throws {
        XCTAssertEqual(try Self.eventDifferences(WeatherInterface.description), [])
    }

    /// The check sees an event missing from the list, misspelt, added, listed twice, and a renamed snapshot.
    func testEventComparison_seesAMissingOrUnknownEvent() throws {
        let text = WeatherInterface.description
        let changes = [
            ("WeatherUpdated, ", ""),
            ("AlertsChanged,", "AlertChanged,"),
            ("NowcastChanged (docs", "NowcastChanged, RainStopped (docs"),
            ("NowcastChanged (docs", "NowcastChanged, NowcastChanged (docs"),
            ("(event \"Snapshot\"", "(event \"Snap\""),
        ]
        for (original, changed) in changes {
            XCTAssertTrue(text.contains(original), original)
            let changedText = text.replacingOccurrences(of: original, with: changed)
            XCTAssertNotEqual(try Self.eventDifferences(changedText), [], "not seen: \(original) -> \(changed)")
        }
    }

    /// What differs between `EventName` and the events the IDL's `Subscribe`
    /// documents (after "The events:", up to the parenthesis or full stop).
    static func eventDifferences(_ text: String) throws -> [String] {
        let documentation = try XCTUnwrap(VarlinkIDL(text).documentation[WeatherMethod.subscribe.rawValue])
        guard let start = documentation.range(of: "The events: ") else {
            return ["Subscribe's documentation lists no events (\"The events: A, B, ...\")"]
        }
        let rest = documentation[start.upperBound...]
        let end = rest.firstIndex(where: { $0 == "(" || $0 == "." }) ?? rest.endIndex
        let documented = rest[..<end].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var differences = namesDiffer("events", swift: EventName.allCases.map(\.rawValue), idl: documented)
        if !documentation.contains("event \"\(SubscribeReply.snapshotName)\"") {
            differences.append("Subscribe's documentation does not name the snapshot \(SubscribeReply.snapshotName)")
        }
        return differences
    }

    /// Names one side has and the other lacks, each named once.
    static func namesDiffer(_ what: String, swift: [String], idl: [String]) -> [String] {
        var differences: [String] = []
        let missing = Set(idl).subtracting(swift).sorted()
        let extra = Set(swift).subtracting(idl).sorted()
        if !missing.isEmpty { differences.append("\(what) the IDL has and Swift lacks: \(missing)") }
        if !extra.isEmpty { differences.append("\(what) Swift has and the IDL lacks: \(extra)") }
        for name in Set(idl) where idl.filter({ $0 == name }).count > 1 {
            differences.append("\(what): the IDL lists \(name) more than once")
        }
        return differences
    }

    static func assertMatches(_ swift: [IDLField], _ idl: [IDLField]?, _ what: String) {
        XCTAssertTrue(
            idl.map { matches(swift, $0) } ?? false,
            "\(what): Swift declares \(IDLType.structure(swift)), the IDL \(idl.map { "\(IDLType.structure($0))" } ?? "nothing")"
        )
    }

    /// Same names in the same order, each type matching.
    static func matches(_ swift: [IDLField], _ idl: [IDLField]) -> Bool {
        swift.count == idl.count && zip(swift, idl).allSatisfy { $0.name == $1.name && matches($0.type, $1.type) }
    }

    /// Equal, except that a Swift enum may stand where the IDL says string
    /// (Swift is stricter than the IDL there, never looser).
    static func matches(_ swift: IDLType, _ idl: IDLType) -> Bool {
        switch (swift, idl) {
        case (.enumeration, .string): return true
        case (.optional(let left), .optional(let right)), (.array(let left), .array(let right)),
            (.dictionary(let left), .dictionary(let right)):
            return matches(left, right)
        case (.structure(let left), .structure(let right)): return matches(left, right)
        default: return swift == idl
        }
    }

    // MARK: Reading a Swift type's shape

    static func signature<Call: WeatherCall>(_ call: Call.Type) throws -> ([IDLField], [IDLField]) {
        (try fields(of: Call.Parameters.self), try fields(of: Call.Reply.self))
    }

    static func fields(of type: any Decodable.Type) throws -> [IDLField] {
        let shape = try SchemaRecorder.shape(of: type)
        guard case .structure(let fields) = shape else {
            XCTFail("\(type) is not a struct on the wire: \(shape)")
            return []
        }
        return fields
    }
}

/// Decodes a type from nothing, recording what it asks for: each key, its
/// type, whether it is optional. Values handed back are placeholders
/// (one element per array, the first case of an enum, "0" for strings).
final class SchemaRecorder: Decoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// Set by the first container asked for.
    var shape: IDLType?
    var fields: [IDLField] = []

    static func shape(of type: any Decodable.Type) throws -> IDLType {
        try record(type).shape
    }

    static func record<T: Decodable>(_ type: T.Type) throws -> (value: T, shape: IDLType) {
        switch type {
        case is String.Type: return ("0" as! T, .string)  // T is String
        case is Double.Type: return (0.0 as! T, .float)  // T is Double
        case is Int.Type: return (0 as! T, .int)  // T is Int
        case is Bool.Type: return (false as! T, .bool)  // T is Bool
        case is [String: String].Type: return ([:] as! T, .dictionary(.string))  // T is a map of strings
        default: break
        }
        if let wireEnum = type as? any WireEnum.Type {
            // A Swift enum is stricter than an IDL string; inline IDL enums list the same cases.
            return (firstCase(wireEnum) as! T, .enumeration(wireEnum.spellings))  // T is that enum
        }
        let recorder = SchemaRecorder()
        let value = try T(from: recorder)
        // Inside another type, a type the IDL names is named, not expanded.
        if depth > 0,
            let named = WireSchemaTests.namedTypes.first(where: { ObjectIdentifier($0.swift) == ObjectIdentifier(type) }
            )
        {
            return (value, .named(named.idl))
        }
        return (value, recorder.shape ?? .structure(recorder.fields))
    }

    /// How deep the type being read sits inside the one asked about.
    nonisolated(unsafe) static var depth = 0

    static func firstCase<E: WireEnum>(_ type: E.Type) -> E {
        type.allCases.first!  // every wire enum has cases
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        shape = nil
        return KeyedDecodingContainer(KeyedRecorder<Key>(recorder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { UnkeyedRecorder(recorder: self) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleRecorder(recorder: self) }

    func nestedRecord<T: Decodable>(_ type: T.Type) throws -> (value: T, shape: IDLType) {
        SchemaRecorder.depth += 1
        defer { SchemaRecorder.depth -= 1 }
        return try SchemaRecorder.record(type)
    }
}

private struct KeyedRecorder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: SchemaRecorder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let (value, shape) = try recorder.nestedRecord(type)
        recorder.fields.append(IDLField(name: key.stringValue, type: shape))
        return value
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try optional(type, key) }

    // Synthesized code reads optional primitives through these overloads.
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }

    func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        let (value, shape) = try recorder.nestedRecord(type)
        recorder.fields.append(IDLField(name: key.stringValue, type: .optional(shape)))
        return value
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw VarlinkIDL.ParseError(description: "wire types do not use nested containers")
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw VarlinkIDL.ParseError(description: "wire types do not use nested containers")
    }
    func superDecoder() throws -> any Decoder { recorder }
    func superDecoder(forKey key: Key) throws -> any Decoder { recorder }
}

private struct UnkeyedRecorder: UnkeyedDecodingContainer {
    let recorder: SchemaRecorder
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 1 }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex >= 1 }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        let (value, shape) = try recorder.nestedRecord(type)
        recorder.shape = .array(shape)
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw VarlinkIDL.ParseError(description: "wire types do not use nested containers")
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw VarlinkIDL.ParseError(description: "wire types do not use nested containers")
    }
    mutating func superDecoder() throws -> any Decoder { recorder }
}

private struct SingleRecorder: SingleValueDecodingContainer {
    let recorder: SchemaRecorder
    var codingPath: [any CodingKey] { [] }
    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, shape) = try SchemaRecorder.record(type)
        recorder.shape = shape
        return value
    }
}
