import Glibc
import RainCore
import RainSystem
import TestSupport
import XCTest

@testable import RainPlaces

/// The repository's generated data file and other paths tests read.
enum PlaceTestSupport {
    static var dataFile: String { Repository.path("data/places.bin") }

    /// The GeoNames extracts `data/places.bin` was generated from (the
    /// directory given to `make-places.py --source`), named by
    /// `$RAIND_GEONAMES_DIR`. They are not part of the repository
    /// (docs/PLACES.md, "Regenerating"): unset, the test is skipped; set to a
    /// directory without them, it fails.
    static func sourceDirectory() throws -> String {
        guard let directory = ProcessEnvironment.current()["RAIND_GEONAMES_DIR"], !directory.isEmpty else {
            throw XCTSkip(
                "RAIND_GEONAMES_DIR is not set: point it at the GeoNames extracts data/places.bin was made from (docs/PLACES.md)"
            )
        }
        return directory
    }

    static func openDirectory(file: StaticString = #filePath, line: UInt = #line) throws -> PlaceDirectory {
        do {
            return try PlaceDirectory(path: dataFile)
        } catch {
            XCTFail("cannot open \(dataFile): \(error)", file: file, line: line)
            throw error
        }
    }

    /// A fresh empty directory under /tmp.
    static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/rainplaces-test-XXXXXX".utf8CString)
        let made: String? = template.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return nil }
            return mkdtemp(start).map { String(cString: $0) }
        }
        return try XCTUnwrap(made, "mkdtemp failed: errno \(errno)")
    }

    static func geonamesID(_ candidate: PlaceCandidate) -> Int? {
        if case .geonames(let id) = candidate.source { return id }
        return nil
    }
}
