import Glibc
import RainCore
import TestSupport
import XCTest

@testable import RainPlaces

/// The repository's generated data file and other paths tests read.
enum PlaceTestSupport {
    static var dataFile: String { Repository.path("data/places.bin") }

    /// GeoNames extracts the data file is generated from, when present beside the repository.
    static var sourceDirectory: String? {
        let candidates = [Repository.path("../shared/data/geonames"), "/work/shared/data/geonames"]
        return candidates.first { access($0 + "/cities15000.tsv", R_OK) == 0 }
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
