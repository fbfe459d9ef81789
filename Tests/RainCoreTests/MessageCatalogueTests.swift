import Foundation
import TestSupport
import Testing

@testable import RainCore

/// Catalogues checked before glibc maps them: what msgfmt writes passes;
/// a truncated file, an offset past the end, a bad hash entry or a file
/// that is not a catalogue is refused, saying what is wrong.
@Suite struct MessageCatalogueTests {
    func compiled() throws -> [UInt8] {
        let directory = try #require(Catalogues.compiled, "msgfmt compiles po/")
        return Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/de/LC_MESSAGES/raind.mo")))
    }

    func word(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }

    func setting(_ bytes: [UInt8], _ offset: Int, to value: UInt32) -> [UInt8] {
        var bytes = bytes
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
        return bytes
    }

    @Test func whatMsgfmtWritesPasses() throws {
        #expect(MessageCatalogue.problem(in: try compiled()) == nil)
    }

    @Test func aTruncatedCatalogueIsRefused() throws {
        let bytes = try compiled()
        for size in [0, 27, 28, 100, bytes.count / 2, bytes.count - 1] {
            #expect(MessageCatalogue.problem(in: Array(bytes.prefix(size))) != nil, "\(size) bytes")
        }
    }

    @Test func offsetsPastTheEndAreRefused() throws {
        let bytes = try compiled()
        let originals = word(bytes, 12)
        let translations = word(bytes, 16)
        let cases: [(Int, UInt32, String)] = [
            (12, 0xFFFF_FF00, "the original table"),
            (16, UInt32(bytes.count), "the translation table"),
            (8, 0x4000_0000, "the original table"),
            (originals + 4, 0x7FFF_FFFF, "original string 0"),
            (translations + 8 * 3, UInt32(bytes.count), "translation string 3"),
            (24, UInt32(bytes.count - 4), "the hash table"),
        ]
        for (offset, value, named) in cases {
            let problem = MessageCatalogue.problem(in: setting(bytes, offset, to: value))
            #expect(problem?.hasPrefix(named) == true, "\(offset) = \(value): \(problem ?? "accepted")")
        }
        let hashOffset = word(bytes, 24)
        let hash = MessageCatalogue.problem(in: setting(bytes, hashOffset, to: 1_000_000))
        #expect(hash?.hasPrefix("hash entry 0") == true, "\(hash ?? "accepted")")
        #expect(MessageCatalogue.problem(in: setting(bytes, 0, to: 0x1234_5678))?.hasPrefix("no gettext") == true)
        #expect(MessageCatalogue.problem(in: setting(bytes, 4, to: 0x0002_0000))?.hasPrefix("revision 2") == true)
    }

    @Test func everyVariantGlibcOpensIsACandidate() {
        let paths = MessageCatalogue.candidates(directory: "/l", domain: "raind", names: ["pt_BR.UTF-8@x", "de"])
        #expect(paths.first == "/l/pt_BR.UTF-8@x/LC_MESSAGES/raind.mo")
        for variant in ["pt_BR.utf8", "pt_BR", "pt.UTF-8", "pt", "pt@x", "de"] {
            #expect(paths.contains("/l/\(variant)/LC_MESSAGES/raind.mo"), "\(variant)")
        }
        #expect(MessageCatalogue.candidates(directory: "/l", domain: "raind", names: ["../x", ""]).isEmpty)
        #expect(MessageCatalogue.normalized("ISO-8859-1") == "iso88591")
        #expect(MessageCatalogue.normalized("646") == "iso646")
    }
}
