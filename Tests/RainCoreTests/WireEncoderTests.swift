import XCTest

@testable import RainCore

/// The byte encoder writes JSON text as `encode(to:)` calls arrive; these
/// pin the shapes Codable can produce (nested containers opened by hand,
/// arrays of objects, a container asked for twice, sparse types) to the
/// exact text.
final class WireEncoderTests: XCTestCase {
    private struct Inner: Encodable {
        var a: Int
        var b: String?
    }

    private struct Sparse: Encodable, WireSparse {
        var kept: Int
        var left: String?
    }

    private struct Outer: Encodable {
        var inner: Inner
        var list: [Inner]
        var sparse: Sparse
        var numbers: [Double]
        var empty: [String]
        var nothing: Inner?
        var flag: Bool
    }

    func testEncode_writesNestedValuesInOrder_withNilAsNull() {
        let value = Outer(
            inner: Inner(a: 1, b: "x"), list: [Inner(a: 2, b: nil), Inner(a: -3, b: "y")],
            sparse: Sparse(kept: 4, left: nil), numbers: [1.5, -0.25, 1e21, .infinity], empty: [], nothing: nil,
            flag: true)
        XCTAssertEqual(
            String(decoding: WireEncoder.bytes(value), as: UTF8.self),
            #"{"inner":{"a":1,"b":"x"},"list":[{"a":2,"b":null},{"a":-3,"b":"y"}],"sparse":{"kept":4},"#
                + #""numbers":[1.5,-0.25,1e+21,null],"empty":[],"nothing":null,"flag":true}"#)
    }

    /// Encodes through every container shape by hand, the way a custom `encode(to:)` may.
    private struct HandWritten: Encodable {
        enum Keys: String, CodingKey { case nested, list, after, again }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .nested)
            try nested.encode("n", forKey: .after)
            var deeper = nested.nestedUnkeyedContainer(forKey: .list)
            try deeper.encode(1)
            var object = deeper.nestedContainer(keyedBy: Keys.self)
            try object.encode(true, forKey: .again)
            try deeper.encodeNil()
            var list = container.nestedUnkeyedContainer(forKey: .list)
            var inner = list.nestedUnkeyedContainer()
            try inner.encode(UInt64.max)
            try list.encode(Int64.min)
            try container.encode("tail", forKey: .after)
            // Asked again, the same object goes on.
            var same = encoder.container(keyedBy: Keys.self)
            try same.encode(2, forKey: .again)
        }
    }

    func testEncode_ofANumber_writesWhatTheEncodableRouteWrites() {
        for value in [0, 1, -1, 0.5, 123.456, -0.25, 1e15, 1e21, 3_600.000_1, .infinity, -.infinity, .nan] {
            var direct: [UInt8] = []
            WireEncoder.encode(value, into: &direct)
            XCTAssertEqual(direct, Array(WireEncoder.bytes([value]).dropFirst().dropLast()), "\(value)")
        }
        for value in [0, 7, -7, 42, Int.max, Int.min] {
            var direct: [UInt8] = []
            WireEncoder.encode(value, into: &direct)
            XCTAssertEqual(direct, Array(WireEncoder.bytes([value]).dropFirst().dropLast()), "\(value)")
        }
    }

    func testEncode_closesHandOpenedContainers_whenTheOuterOneGoesOn() {
        XCTAssertEqual(
            String(decoding: WireEncoder.bytes(HandWritten()), as: UTF8.self),
            #"{"nested":{"after":"n","list":[1,{"again":true},null]},"list":[[18446744073709551615],-9223372036854775808],"#
                + #""after":"tail","again":2}"#)
    }

    func testEncode_escapesKeysAndValues_andKeepsUTF8() {
        struct Text: Encodable { var text: String }
        XCTAssertEqual(
            String(decoding: WireEncoder.bytes(Text(text: "Zürich \"a\"\\\n\u{01} 東京")), as: UTF8.self),
            #"{"text":"Zürich \"a\"\\\n\u0001 東京"}"#)
        XCTAssertEqual(String(decoding: WireEncoder.bytes("plain"), as: UTF8.self), #""plain""#)
        XCTAssertEqual(String(decoding: WireEncoder.bytes(0), as: UTF8.self), "0")
    }

    /// The JSON value and the bytes are the same encoding: a reply framed
    /// straight from its type equals the one framed from its JSON value.
    func testFrameReply_matchesTheReplyFramedFromItsJSONValue() throws {
        let paris = Location(
            id: LocationID("paris-fr"), name: "Paris", country: "France", countryCode: "FR",
            latitude: 48.85, longitude: 2.35, timeZone: "Europe/Paris", source: .geonames(id: 2988507))
        let reply = ListLocationsCall.Reply(locations: [paris], selected: paris.id)
        for continues in [false, true] {
            var direct: [UInt8] = []
            VarlinkFramer.frameReply(reply, continues: continues, into: &direct)
            XCTAssertEqual(direct, VarlinkFramer.frame(VarlinkReply(parameters: reply.json, continues: continues).json))
        }
        var framed: [UInt8] = []
        VarlinkFramer.frameReply(reply, into: &framed)
        // The exact text, so the test does not only compare the encoder with itself.
        XCTAssertEqual(
            String(decoding: framed, as: UTF8.self),
            #"{"parameters":{"locations":[{"id":"paris-fr","name":"Paris","region":"","country":"France","#
                + #""countryCode":"FR","latitude":48.85,"longitude":2.35,"timeZone":"Europe/Paris","#
                + #""source":{"kind":"geonames","id":"2988507"}}],"selected":"paris-fr"}}"# + "\0")
        let decoded = try ListLocationsCall.Reply(json: reply.json)
        XCTAssertEqual(decoded, reply)
    }
}
