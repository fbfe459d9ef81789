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

    func testParse_readsStrings_withAndWithoutEscapes() throws {
        let cases: [(String, String)] = [
            (#""""#, ""),
            (#""plain ascii""#, "plain ascii"),
            (#""Zürich 東京 🌧""#, "Zürich 東京 🌧"),
            (#""ü\n東""#, "ü\n東"),
            (#""a\/b\b\f\r\t\u0041\u00fc""#, "a/b\u{08}\u{0C}\r\tAü"),
            (#""\ud83c\udf27 rain""#, "🌧 rain"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try JSON(parsing: text), .string(expected), text)
        }
        // Invalid UTF-8, with and without an escape in the same string.
        for bytes: [UInt8] in [[0x22, 0xC3, 0x22], [0x22, 0xE2, 0x5C, 0x6E, 0x22], [0x22, 0x5C, 0x6E, 0xFF, 0x22]] {
            XCTAssertThrowsError(try JSON(parsing: bytes), "\(bytes)") { error in
                XCTAssertTrue("\(error)".contains("UTF-8"), "\(error)")
            }
        }
        for bad in [#""\ud83c""#, #""\ud83c\u0041""#, #""\x""#, #""\u12""#, #""a\"#] {
            XCTAssertThrowsError(try JSON(parsing: bad), bad)
        }
    }

    func testParse_readsNumbersExactly() throws {
        let cases: [(String, Double)] = [
            ("0", 0), ("-7", -7), ("123456789012345", 123_456_789_012_345),
            ("1234567890123456789", 1.2345678901234568e18), ("2.5", 2.5), ("-1e-3", -0.001), ("1E2", 100),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try JSON(parsing: text), .number(expected), text)
        }
        XCTAssertEqual(try JSON(parsing: "-0").doubleValue?.sign, .minus)
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

    /// Numbers of whole millionths are written digit by digit: the text must
    /// be the shortest one that reads back, as `description` gives it.
    func testSerialize_writesMillionthsAsDescriptionDoes_andReadsThemBack() throws {
        var generator = SystemRandomNumberGenerator()
        var numbers: [Double] = [
            1e-4, 0.000123, 0.0001005, 0.1, 0.5, 1.25, 12.000001, 86_400.123456, 999_999_999.999999, 123_456_789.5,
            1e-5, 0.00009, 0.1 + 0.2, 1e9 + 0.5, 2.0 / 3.0, 1_700_000_000.5, 48.8534, -2.3488, -0.000123,
        ]
        for digits in 1...6 {
            let scale = Double((0..<digits).reduce(1) { value, _ in value * 10 })
            for _ in 0..<2000 {
                let whole = Double(Int.random(in: 0..<1_000_000_000, using: &generator))
                let part = Double(Int.random(in: 1..<Int(scale), using: &generator)) / scale
                numbers.append(whole + part)
                numbers.append(-(Double(Int.random(in: 0..<1000, using: &generator)) + part))
                numbers.append(Double(Int.random(in: 1..<1_000_000_000_000, using: &generator)) / 1e6)
            }
        }
        for _ in 0..<2000 { numbers.append(Double.random(in: -1e10...1e10, using: &generator)) }
        for number in numbers {
            let text = JSON.number(number).serialized()
            let expected = number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : number.description
            XCTAssertEqual(text, expected)
            XCTAssertEqual(try JSON(parsing: text), .number(number), text)
        }
    }
}
