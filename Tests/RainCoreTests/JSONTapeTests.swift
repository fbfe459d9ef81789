import RainCore
import TestSupport
import XCTest

/// `JSONTape` against `JSON(parsing:)`: the same documents accepted, the
/// same errors for the others, and every value read through the tape the
/// one the tree holds.
final class JSONTapeTests: XCTestCase {
    func testEveryRecordedAnswer_readsAsTheTree() throws {
        var read = 0
        for directory in ["", "alerts/"] {
            for name in try TestFile.names(in: Fixtures.directory + "/" + directory) where name.hasSuffix(".json") {
                let bytes = try Fixtures.bytes(directory + name)
                let tree = try JSON(parsing: bytes)
                let tape = try JSONTape(parsing: bytes)
                XCTAssertEqual(Self.tree(tape, JSONTape.root), tree, name)
                read += 1
            }
        }
        XCTAssertGreaterThan(read, 50)
    }

    func testHandWrittenDocuments_readAsTheTree() throws {
        for text in [
            #"{}"#, #"[]"#, #""x""#, #"-0"#, #"1.5e3"#, #"true"#, #"null"#, #" { "a" : [ 1 , { } , [ ] ] } "#,
            #"{"a":1,"a":2}"#, #"{"caf\u00e9":"\ud83c\udf27 rain","b\"q":"\\"}"#, #"[[[[["deep"]]]]]"#,
            #"{"status":{"version":"0.1.0","providers":[{"name":"open-meteo","places":["paris-fr"]}]}}"#,
        ] {
            let bytes = Array(text.utf8)
            XCTAssertEqual(Self.tree(try JSONTape(parsing: bytes), JSONTape.root), try JSON(parsing: bytes), text)
        }
    }

    func testInvalidDocuments_areRefusedWithTheTreesError() {
        let deep =
            String(repeating: "[", count: JSON.maximumDepth + 1) + String(repeating: "]", count: JSON.maximumDepth + 1)
        for text in [
            "", " ", "{", "}", "[1,]", "[1 2]", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, #"{a:1}"#, "tru", "nul",
            "01x", "1.", "-", #""abc"#, "\"a\u{1}b\"", #""\x""#, #""\ud800""#, "{} {}", "[1] x", deep,
            #"{"a":[1,{"b":tru}]}"#,
        ] {
            let bytes = Array(text.utf8)
            XCTAssertThrowsError(try JSON(parsing: bytes), text)
            var treeError: JSONParseError?
            var tapeError: JSONParseError?
            do { _ = try JSON(parsing: bytes) } catch { treeError = error }
            do { _ = try JSONTape(parsing: bytes) } catch { tapeError = error }
            XCTAssertEqual(tapeError, treeError, text)
        }
    }

    func testMember_isTheLastOfARepeatedKey_andFoundThroughEscapes() throws {
        let tape = try JSONTape(parsing: Array(#"{"a":1,"\u0062":"x","a":2,"c":null}"#.utf8))
        XCTAssertEqual(tape.member("a", of: JSONTape.root).flatMap(tape.number), 2)
        XCTAssertEqual(tape.member("b", of: JSONTape.root).flatMap(tape.string), "x")
        XCTAssertEqual(tape.member("c", of: JSONTape.root).map(tape.kind), .null)
        XCTAssertNil(tape.member("d", of: JSONTape.root))
        XCTAssertNil(tape.member("a", of: tape.member("a", of: JSONTape.root)!), "a number has no members")
    }

    /// The tree the tape's `value` stands for, read through the tape alone.
    static func tree(_ tape: JSONTape, _ value: Int) -> JSON {
        switch tape.kind(value) {
        case .object:
            return .object(JSONObject(tape.members(of: value).map { ($0.key, tree(tape, $0.value)) }))
        case .array: return .array(tape.elements(of: value).map { tree(tape, $0) })
        case .string: return .string(tape.string(value) ?? "(not a string)")
        case .number: return .number(tape.number(value) ?? .nan)
        case .bool: return .bool(tape.bool(value) ?? false)
        case .null: return .null
        }
    }
}
