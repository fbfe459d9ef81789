import XCTest

@testable import RainCore
@testable import RainDaemonCore

extension XCTestCase {
    /// The error a provider's parser throws for `text`; the test fails when it parses.
    func parseError(
        of text: String, file: StaticString, line: UInt,
        parsing parse: ([UInt8]) throws(ProviderParseError) -> Forecast
    ) -> ProviderParseError? {
        do {
            _ = try parse(Array(text.utf8))
            XCTFail("parsed \(text)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }
}
