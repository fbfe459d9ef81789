import TestSupport
import XCTest

@testable import RainCore
@testable import RainDaemonCore

final class VarlinkCodecTests: XCTestCase {
    func testFramer_splitsPipelinedMessagesAcrossReads() throws {
        var framer = VarlinkFramer(maximumMessageSize: 1024)
        let bytes = Array(#"{"method":"a.B"}"#.utf8) + [0] + Array(#"{"method":"a.C","more":true}"#.utf8) + [0]
        var messages: [[UInt8]] = []
        for byte in bytes {
            framer.append([byte])
            while let message = try framer.nextMessage() { messages.append(message) }
        }
        XCTAssertEqual(messages.count, 2)
        XCTAssertEqual(try VarlinkCall(message: messages[1]), VarlinkCall(method: "a.C", more: true))
    }

    func testFramer_splitsManyMessagesPerRead_andKeepsOrderAcrossCompaction() throws {
        var framer = VarlinkFramer(maximumMessageSize: 64)
        var received: [String] = []
        for round in 0..<5 {
            // Each read ends mid-message, so compaction must keep the partial tail.
            var chunk: [UInt8] = []
            for index in 0..<1000 { chunk += Array("m\(round)-\(index)".utf8) + [0] }
            chunk += Array("tail\(round)".utf8)
            framer.append(chunk)
            while let message = try framer.nextMessage() { received.append(String(decoding: message, as: UTF8.self)) }
            framer.append([0])
            while let message = try framer.nextMessage() { received.append(String(decoding: message, as: UTF8.self)) }
        }
        XCTAssertEqual(received.count, 5 * 1001)
        XCTAssertEqual(received[999], "m0-999")
        XCTAssertEqual(received[1000], "tail0")
        XCTAssertEqual(received.last, "tail4")
    }

    func testFramer_refusesOversizeMessageBeforeItsEnd() {
        var framer = VarlinkFramer(maximumMessageSize: 16)
        framer.append([UInt8](repeating: UInt8(ascii: "x"), count: 17))
        XCTAssertThrowsError(try framer.nextMessage()) { error in
            XCTAssertEqual(error as? VarlinkFramer.Failure, .messageTooLarge(limit: 16))
        }
    }

    func testCall_withNonObjectParameters_namesTheField() {
        XCTAssertThrowsError(try VarlinkCall(message: Array(#"{"method":"a.B","parameters":[1]}"#.utf8))) { error in
            XCTAssertEqual((error as? WireDecodingError)?.field, "parameters")
        }
        XCTAssertThrowsError(try VarlinkCall(message: Array(#"{"parameters":{}}"#.utf8))) { error in
            XCTAssertEqual((error as? WireDecodingError)?.field, "method")
        }
    }

    /// A call read from its whole JSON tree, as calls were read before the
    /// envelope was read on its own: the reference the envelope reader must agree with.
    private func callFromTree(_ message: [UInt8]) throws(WireDecodingError) -> VarlinkCall {
        let value: JSON
        do {
            value = try JSON(parsing: message)
        } catch {
            throw WireDecodingError(field: VarlinkServiceError.InvalidParameter.wholeMessage, reason: error.description)
        }
        let reader = try WireReader(value, context: "")
        let method = try reader.string(.method)
        var parameters = JSONObject()
        if let given = reader.optional(.parameters) {
            guard let object = given.objectValue else {
                throw WireDecodingError(field: "parameters", reason: "expected an object, got \(given.kindName)")
            }
            parameters = object
        }
        return VarlinkCall(
            method: method, parameters: parameters, more: try reader.optionalBool(.more) ?? false,
            oneway: try reader.optionalBool(.oneway) ?? false)
    }

    func testCall_readsTheEnvelopeAsTheWholeTreeReadsIt_errorsIncluded() throws {
        let messages = [
            #"{"method":"io.raind.Weather.GetStatus","parameters":{}}"#,
            #" { "method" : "a.B" , "parameters" : { } , "more" : true } "#,
            #"{"method":"a.B","parameters":{"id":"paris-fr","n":[1,2.5,{"x":null}]},"oneway":true}"#,
            #"{"method":"a.B","method":"a.C"}"#,
            #"{"method":1,"method":"a.C"}"#,
            #"{"\u006dethod":"a.B","par\u0061meters":{"k":"v"}}"#,
            #"{"method":"a.\u00e9"}"#,
            #"{"method":"a.\"B"}"#,
            #"{"method":"caf\u00e9.X","upgrade":true,"extra":[{"deep":["é"]}]}"#,
            #"{"method":"a.B","parameters":null,"more":null,"oneway":false}"#,
            #"{"method":"a.B","more":"yes"}"#,
            #"{"method":"a.B","oneway":1}"#,
            #"{"method":"a.B","parameters":"x"}"#,
            #"{"method":"a.B","parameters":[]}"#,
            #"{"method":null}"#,
            #"{"method":["a.B"]}"#,
            #"{}"#,
            #"[]"#,
            #""a.B""#,
            #"  "#,
            #""#,
            #"{"method":"a.B"} x"#,
            #"{"method":"a.B",}"#,
            #"{"method":"a.B""#,
            #"{"method":"a.B","parameters":{"k":}}"#,
            #"{"method":"a.B","parameters":{"k":"\x"}}"#,
            #"{"method":"a\tB","x":tru}"#,
            #"{method:"a.B"}"#,
            #"{"method":"a.B","parameters":{"k":"\#u{01}"}}"#,
            #"{"method":"a.B","x":"\#u{01}"}"#,
            String(repeating: "[", count: 200),
            #"{"method":"a.B","extra":"# + String(repeating: "[", count: 130) + String(repeating: "]", count: 130)
                + "}",
        ]
        var corpus = messages.map { Array($0.utf8) }
        // Bytes that are not UTF-8, in an unread member, a key and a name.
        corpus.append(Array(#"{"method":"a.B","x":""#.utf8) + [0xFF] + Array(#""}"#.utf8))
        corpus.append(Array(#"{"me"#.utf8) + [0xC3] + Array(#"":"a.B"}"#.utf8))
        corpus.append(Array(#"{"method":""#.utf8) + [0xE9] + Array(#""}"#.utf8))
        for message in corpus {
            let text = String(decoding: message, as: UTF8.self)
            let expected = Result { () throws(WireDecodingError) in try callFromTree(message) }
            for previous in [nil, "a.B", "io.raind.Weather.GetStatus"] {
                let read = Result { () throws(WireDecodingError) in
                    try message.withUnsafeBufferPointer { bytes throws(WireDecodingError) in
                        try VarlinkCall(message: bytes, methodLike: previous)
                    }
                }
                XCTAssertEqual(read, expected, text)
            }
        }
    }

    func testWireBytes_equal_findsADifferenceAtEveryPlace_andAgreesOnLength() {
        for count in 0...40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            bytes.withUnsafeBufferPointer { left in
                XCTAssertTrue(Array(bytes).withUnsafeBufferPointer { WireBytes.equal(left, $0) })
                XCTAssertFalse((bytes + [1]).withUnsafeBufferPointer { WireBytes.equal(left, $0) })
                for place in 0..<count {
                    var other = bytes
                    other[place] ^= 0x20
                    XCTAssertFalse(other.withUnsafeBufferPointer { WireBytes.equal(left, $0) }, "\(count) \(place)")
                }
            }
        }
    }

    /// The word-at-a-time scans against byte-by-byte ones, on plain text with
    /// one byte of every kind put at every place, and on random bytes.
    func testWireBytes_scans_findWhatAByteByByteScanFinds() {
        func isPlain(_ byte: UInt8) -> Bool {
            byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
        }
        var cases: [[UInt8]] = []
        for count in 0...24 {
            let plain = [UInt8](repeating: UInt8(ascii: "a"), count: count)
            cases.append(plain)
            for place in 0..<count {
                for byte: UInt8 in [0, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xC3, 0xFF] {
                    var bytes = plain
                    bytes[place] = byte
                    cases.append(bytes)
                }
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            cases.append((0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255) })
        }
        for bytes in cases {
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...bytes.count {
                    let plainEnd = bytes[start...].firstIndex { !isPlain($0) } ?? bytes.count
                    XCTAssertEqual(WireBytes.plainEnd(in: buffer, from: start), plainEnd, "\(bytes) from \(start)")
                    XCTAssertEqual(
                        WireBytes.firstIndex(of: 0, in: buffer, from: start), bytes[start...].firstIndex(of: 0),
                        "\(bytes) from \(start)")
                }
            }
        }
    }

    /// Repeated, changed, broken, long and empty calls in a row: each read
    /// as it would be alone.
    func testCallReader_readsEachCallAsItWouldBeReadAlone() {
        let long = #"{"method":"a.B","parameters":{"x":""# + String(repeating: "y", count: 300) + #""}}"#
        let sequence = [
            #"{"method":"io.raind.Weather.GetStatus","parameters":{}}"#,
            #"{"method":"io.raind.Weather.GetStatus","parameters":{}}"#,
            #"{"method":"io.raind.Weather.GetStatus","parameters":{},"oneway":true}"#,
            #"{"method":"io.raind.Weather.GetStatus","parameters":{}}"#,
            #"{"method":"io.raind.Weather.GetStatus","parameters":{"#,
            #"{"method":"io.raind.Weather.GetStatus","parameters":{"#,
            long, long, "", "", #"{"method":"a.B"}"#, "", #"{"method":"a.B"}"#, #"{"method":"a.C"}"#,
            #"{"method":"a.C","more":true}"#, #"{"method":"a.C","more":true}"#,
        ]
        var reader = VarlinkCallReader()
        for text in sequence {
            let message = Array(text.utf8)
            let read = Result { () throws(WireDecodingError) in
                try message.withUnsafeBufferPointer { bytes throws(WireDecodingError) in try reader.read(bytes) }
            }
            let alone = Result { () throws(WireDecodingError) in try VarlinkCall(message: message) }
            XCTAssertEqual(read, alone, text)
        }
    }

    func testDecode_unknownEnumValue_namesTheFieldAndTheSpellings() throws {
        let settings = JSON.object(["units": .string("metric"), "refreshMinutes": .int(20)])
        XCTAssertThrowsError(try SetSettingsCall.Reply(json: .object(["settings": settings]), context: "reply")) {
            error in
            XCTAssertEqual(
                error as? WireDecodingError,
                WireDecodingError(
                    field: "reply.settings.units", reason: "unknown value 'metric' (expected us, si, ca, uk)"))
        }
    }

    func testReply_encodesContinuesAndError() {
        XCTAssertEqual(
            VarlinkReply(parameters: .object(["a": .int(1)]), continues: true).json.serialized(),
            #"{"parameters":{"a":1},"continues":true}"#)
        XCTAssertEqual(
            VarlinkReply.failure("x.Y", .object([:])).json.serialized(),
            #"{"error":"x.Y","parameters":{}}"#)
    }

    func testEvent_roundTripsThroughJSON() throws {
        let paris = Location(
            id: LocationID("paris-fr"), name: "Paris", country: "France", countryCode: "FR",
            latitude: 48.85, longitude: 2.35, timeZone: "Europe/Paris", source: .geonames(id: 2988507))
        let events: [Event] = [
            .locationAdded(paris), .locationRemoved(paris), .locationSelected(paris),
            .settingsChanged(Settings(units: .uk, refreshMinutes: 20)),
            .reachabilityChanged(online: false), .refreshStarted([paris.id]),
            .refreshFailed(paris.id, RefreshFailure(error: .offline, message: "offline")),
            .weatherUpdated(paris.id, Forecast(provider: "open-meteo", fetchedAt: 1_700_000_000)),
            .alertsChanged(paris.id, [WeatherAlert(title: "Storm", regions: ["Paris"])]),
        ]
        for event in events {
            let reply = try SubscribeReply(json: JSON(parsing: SubscribeReply(event).json.serialized()))
            XCTAssertEqual(try reply.decodedEvent(), event)
        }
    }

    func testPersistentState_roundTripsAndRejectsNewerVersion() throws {
        var places = LocationList()
        _ = places.add(
            PlaceCandidate(
                name: "Oslo", countryCode: "NO", latitude: 59.9, longitude: 10.7, source: .current(approximate: true)))
        let state = PersistentState(places: places, settings: Settings(units: .si, refreshMinutes: 15))
        XCTAssertEqual(try PersistentState(bytes: state.bytes), state)
        XCTAssertThrowsError(try PersistentState(bytes: Array(#"{"version":99,"settings":{"units":"si"}}"#.utf8))) {
            error in
            XCTAssertTrue("\(error)".contains("newer raind"))
        }
    }

    func testInterfaceDescription_isExactlyTheIDLFile() throws {
        let idl = try TestFile.text(Repository.path("protocol/io.raind.Weather.varlink"))
        XCTAssertEqual(WeatherInterface.description, idl, "run scripts/embed-interface after editing the IDL")
    }

    func testInterfaceDescription_declaresEveryMethodAndError() {
        for method in WeatherMethod.allCases {
            XCTAssertTrue(WeatherInterface.description.contains("method \(method.rawValue)("), method.rawValue)
        }
        for error in WeatherErrorName.allCases {
            XCTAssertTrue(WeatherInterface.description.contains("error \(error.rawValue) ("), error.rawValue)
        }
    }
}
