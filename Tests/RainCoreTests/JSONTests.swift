import XCTest
@testable import RainCore

final class JSONTests: XCTestCase {
    func testParse_roundTripsNestedValues() throws {
        let text = #"{"a":[1,2.5,-3e2,true,false,null],"b":{"c":"d\"\\\n\u00e9\ud83d\ude00"}}"#
        let value = try JSON(parsing: text)
        XCTAssertEqual(value["b"]?["c"]?.stringValue, "d\"\\\né😀")
        XCTAssertEqual(try JSON(parsing: value.serialized()), value)
        XCTAssertEqual(value["a"]?.arrayValue?[2], .number(-300))
    }

    func testParse_rejectsMalformedInputWithOffset() {
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "tru", "\"abc", "01x", "{\"a\":1}x", "\"\u{01}\""] {
            XCTAssertThrowsError(try JSON(parsing: bad), "accepted \(bad.debugDescription)")
        }
    }

    func testParse_refusesDeepNesting() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        XCTAssertThrowsError(try JSON(parsing: deep)) { error in
            XCTAssertTrue("\(error)".contains("nested deeper"))
        }
    }

    func testSerialize_escapesOnlyWhatMustBeEscaped_betweenPlainRuns() {
        let text = "Zürich \"old\" town\\\n\t\u{01}\u{1F}end 東京 🌧"
        XCTAssertEqual(
            JSON.string(text).serialized(),
            #""Zürich \"old\" town\\\n\t\u0001\u001fend 東京 🌧""#)
        XCTAssertEqual(try JSON(parsing: JSON.string(text).serialized()), .string(text))
        XCTAssertEqual(JSON.string("").serialized(), #""""#)
        XCTAssertEqual(JSON.string("\"").serialized(), #""\"""#)
        XCTAssertEqual(JSON.object(["n": .int(-42)]).serializedBytes(), Array(#"{"n":-42}"#.utf8))
    }

    func testSerialize_writesIntegersWithoutFraction() {
        XCTAssertEqual(JSON.object(["n": .int(3), "x": .number(1.5)]).serialized(), #"{"n":3,"x":1.5}"#)
        XCTAssertEqual(JSON.number(.nan).serialized(), "null")
    }
}
