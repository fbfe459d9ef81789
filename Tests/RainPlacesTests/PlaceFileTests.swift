import Glibc
import RainCore
import TestSupport
import XCTest

@testable import RainPlaces

final class PlaceFileTests: XCTestCase {
    private func openError(_ bytes: [UInt8]) throws -> PlaceDataError? {
        let directory = try PlaceTestSupport.temporaryDirectory()
        let path = directory + "/places.bin"
        XCTAssertTrue(TestFile.write(bytes, to: path), path)
        defer {
            unlink(path)
            rmdir(directory)
        }
        do {
            _ = try PlaceDirectory(path: path)
            return nil
        } catch let error as PlaceDataError {
            XCTAssertEqual(error.path, path)
            XCTAssertTrue(error.description.contains(path), "the message names the file")
            return error
        }
    }

    func testOpen_missingFile_throwsNamingIt() {
        XCTAssertThrowsError(try PlaceDirectory(path: "/nonexistent/places.bin")) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("/nonexistent/places.bin"), message)
            XCTAssertTrue(message.contains("cannot open"), message)
        }
    }

    func testOpen_directory_throws() {
        XCTAssertThrowsError(try PlaceDirectory(path: "/tmp")) { error in
            XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
        }
    }

    func testOpen_emptyOrForeignFile_throwsBadMagic() throws {
        XCTAssertEqual(try openError([])?.problem, "empty file")
        XCTAssertEqual(
            try openError(Array("# geonameid\tname\n".utf8))?.problem, "not a raind place file (bad magic number)")
    }

    func testOpen_truncatedFile_throwsSayingSo() throws {
        let good = try TestFile.bytes(PlaceTestSupport.dataFile)
        XCTAssertGreaterThan(good.count, 1_000_000)
        let problem = try openError(Array(good.prefix(good.count - 1000)))?.problem ?? ""
        XCTAssertTrue(problem.hasPrefix("truncated"), problem)
    }

    func testOpen_flippedByte_throwsChecksumMismatch() throws {
        var bytes = try TestFile.bytes(PlaceTestSupport.dataFile)
        bytes[bytes.count / 2] ^= 0x40
        let problem = try openError(bytes)?.problem ?? ""
        XCTAssertTrue(problem.hasPrefix("checksum mismatch"), problem)
    }

    func testOpen_otherFormatVersion_throwsSayingWhich() throws {
        var bytes = try TestFile.bytes(PlaceTestSupport.dataFile)
        bytes[8] = 9
        XCTAssertEqual(try openError(bytes)?.problem, "format version 9, this raind reads version \(PlaceFile.version)")
    }

    func testOpen_badReferenceWithValidChecksum_throwsInsteadOfCrashing() throws {
        var bytes = try TestFile.bytes(PlaceTestSupport.dataFile)
        // Point the first place's country (PLAC record offset 22) far outside the country table.
        let places = try sectionOffset(bytes, "PLAC")
        bytes[places + 22] = 0xFF
        bytes[places + 23] = 0x7F
        rewriteChecksum(&bytes)
        let problem = try openError(bytes)?.problem ?? ""
        XCTAssertEqual(problem, "place 0: country, division or zone out of range")
    }

    func testOpen_generatedFile_isValid() throws {
        let places = try PlaceTestSupport.openDirectory()
        XCTAssertEqual(places.count, 34006)
        XCTAssertEqual(places.path, PlaceTestSupport.dataFile)
    }

    func testLocate_prefersRAIND_DATA_DIR_evenWhenTheFileIsMissing() {
        XCTAssertEqual(
            PlaceDirectory.locateDataFile(environment: ["RAIND_DATA_DIR": "/opt/raind-data"]),
            "/opt/raind-data/places.bin")
    }

    func testLocate_fromTheTestBinaryInTheCheckout_findsTheCheckoutsFile() {
        // The test bundle runs from <checkout>/.build/...; nothing installed is needed.
        XCTAssertEqual(PlaceDirectory.locateDataFile(environment: [:]), PlaceTestSupport.dataFile)
    }

    func testBesideExecutable_underAPrefix_looksInItsShareDirectory() {
        XCTAssertEqual(
            PlaceDirectory.filesBesideExecutable("/nonexistent/prefix/bin/raind"),
            ["/nonexistent/prefix/share/raind/places.bin"])
    }

    func testBesideExecutable_inABuildDirectory_findsTheCheckout() {
        let binary = Repository.path(".build/x86_64-unknown-linux-gnu/release/raind")
        XCTAssertEqual(PlaceDirectory.filesBesideExecutable(binary), [PlaceTestSupport.dataFile])
    }

    func testBesideExecutable_elsewhere_findsNothing() {
        XCTAssertEqual(PlaceDirectory.filesBesideExecutable("/nonexistent/raind"), [])
    }

    func testLocate_withNothingBesideTheExecutable_fallsBackToTheInstalledCopies() {
        let found = PlaceDirectory.locateDataFile(environment: [:], executablePath: "/nonexistent/raind")
        let installed = PlaceDirectory.installedDirectories.map { $0 + "/places.bin" }
        XCTAssertTrue(found.map(installed.contains) ?? true, "\(found ?? "nil")")
    }

    // MARK: Helpers poking at the format

    private func u32(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
    }

    private func sectionOffset(_ bytes: [UInt8], _ tag: String) throws -> Int {
        let count = u32(bytes, 20)
        for index in 0..<count where Array(bytes[32 + 16 * index..<36 + 16 * index]) == Array(tag.utf8) {
            return u32(bytes, 36 + 16 * index)
        }
        throw PlaceDataError(path: "test", problem: "no section \(tag)")
    }

    private func rewriteChecksum(_ bytes: inout [UInt8]) {
        let crc = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[32...])) }
        for shift in 0..<4 { bytes[24 + shift] = UInt8((crc >> (8 * UInt32(shift))) & 0xFF) }
    }
}
