import XCTest

@testable import RainCore
@testable import RainDaemonCore

final class HTTPCachePolicyTests: XCTestCase {
    // 1994-11-06T08:49:37Z, the RFC's example.
    private let rfcExample: Int64 = 784_111_777
    private let now = 1_750_000_000.0

    // MARK: HTTPDate

    func testParse_imfFixdate() {
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), rfcExample)
    }

    func testParse_obsoleteRFC850AndAsctime() {
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), rfcExample)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), rfcExample)
        XCTAssertEqual(
            HTTPDate.parse("Thursday, 01-Jan-37 00:00:00 GMT"), HTTPDate.parse("Thu, 01 Jan 2037 00:00:00 GMT"))
    }

    func testParse_knownInstants() {
        XCTAssertEqual(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT"), 0)
        XCTAssertEqual(HTTPDate.parse("Tue, 29 Feb 2000 12:00:00 GMT"), 951_825_600)
        XCTAssertEqual(HTTPDate.parse("Fri, 31 Dec 1999 23:59:59 GMT"), 946_684_799)
        XCTAssertEqual(
            HTTPDate.parse("Wed, 28 Feb 2024 00:00:00 GMT").map { $0 + 86_400 },
            HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT"))
    }

    func testParse_rejectsWhatIsNotAnHTTPDate() {
        for bad in [
            "", "0", "-1", "tomorrow", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 29 Feb 2023 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
            "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT",
        ] {
            XCTAssertNil(HTTPDate.parse(bad), "accepted \(bad.debugDescription)")
        }
    }

    func testFormat_writesIMFFixdate_andRoundTrips() {
        XCTAssertEqual(HTTPDate.format(rfcExample), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.format(0), "Thu, 01 Jan 1970 00:00:00 GMT")
        for seconds in stride(from: Int64(-86_400 * 400), to: 4_000_000_000, by: 7_777_777) {
            XCTAssertEqual(HTTPDate.parse(HTTPDate.format(seconds)), seconds)
        }
    }

    // MARK: Freshness

    func testFreshUntil_maxAge() {
        let policy = HTTPCachePolicy(cacheControl: "public, max-age=900", expires: nil, date: nil)
        XCTAssertEqual(policy.maxAge, 900)
        XCTAssertEqual(policy.freshUntil(now: now), now + 900)
    }

    func testFreshUntil_maxAgeWinsOverExpires_andAgeIsSubtracted() {
        let policy = HTTPCachePolicy(headers: [
            "cache-control": "max-age=600", "expires": "Sun, 06 Nov 1994 09:49:37 GMT",
            "date": "Sun, 06 Nov 1994 08:49:37 GMT", "age": "100",
        ])
        XCTAssertEqual(policy.freshUntil(now: now), now + 500)
    }

    func testDataAge_isTheAgeHeader_zeroWithout_andCapped() {
        XCTAssertEqual(HTTPCachePolicy(headers: ["age": "1800", "cache-control": "max-age=900"]).dataAge, 1800)
        XCTAssertEqual(HTTPCachePolicy(headers: ["cache-control": "max-age=900"]).dataAge, 0)
        XCTAssertEqual(HTTPCachePolicy(headers: ["age": "soon"]).dataAge, 0)
        XCTAssertEqual(HTTPCachePolicy(headers: ["age": "99999999999"]).dataAge, HTTPCachePolicy.maximumAge)
    }

    func testFreshUntil_aProxysStaleCopy_isDueNow() {
        let policy = HTTPCachePolicy(headers: ["cache-control": "max-age=900", "age": "1800"])
        XCTAssertEqual(policy.freshUntil(now: now), now, "older than its max-age: no freshness left, never negative")
    }

    func testFreshUntil_expiresIsMeasuredFromTheResponseDate() {
        // One hour of lifetime by the server's clock, whatever the local clock says.
        let policy = HTTPCachePolicy(
            cacheControl: nil, expires: "Sun, 06 Nov 1994 09:49:37 GMT",
            date: "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(policy.freshUntil(now: now), now + 3600)
    }

    func testFreshUntil_expiresWithoutDate_isAbsolute() {
        let expires = HTTPDate.format(Int64(now) + 120)
        XCTAssertEqual(HTTPCachePolicy(cacheControl: nil, expires: expires, date: nil).freshUntil(now: now), now + 120)
    }

    func testFreshUntil_invalidExpires_meansAlreadyStale() {
        let policy = HTTPCachePolicy(cacheControl: nil, expires: "0", date: "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(policy.freshUntil(now: now), now)
    }

    func testFreshUntil_noStoreAndNoCache_areStaleAtOnce() {
        let noStore = HTTPCachePolicy(cacheControl: "no-store", expires: nil, date: nil)
        XCTAssertTrue(noStore.noStore)
        XCTAssertEqual(noStore.freshUntil(now: now), now)
        let noCache = HTTPCachePolicy(cacheControl: "No-Cache, max-age=3600", expires: nil, date: nil)
        XCTAssertTrue(noCache.noCache)
        XCTAssertEqual(noCache.freshUntil(now: now), now)
    }

    func testFreshUntil_withoutCachingHeaders_isNil() {
        XCTAssertNil(HTTPCachePolicy(headers: ["content-type": "application/json"]).freshUntil(now: now))
        XCTAssertNil(HTTPCachePolicy(cacheControl: "public", expires: nil, date: nil).freshUntil(now: now))
    }

    func testCacheControl_toleratesSpacingQuotesAndOddValues() {
        XCTAssertEqual(
            HTTPCachePolicy(cacheControl: #"private="x, y",  MAX-AGE = "60" "#, expires: nil, date: nil).maxAge, 60)
        XCTAssertEqual(HTTPCachePolicy(cacheControl: "max-age=abc", expires: nil, date: nil).maxAge, 0)
        XCTAssertEqual(HTTPCachePolicy(cacheControl: "max-age=300, max-age=60", expires: nil, date: nil).maxAge, 60)
        XCTAssertEqual(
            HTTPCachePolicy(cacheControl: "max-age=99999999999999999999", expires: nil, date: nil).maxAge, 1 << 31)
        XCTAssertEqual(HTTPCachePolicy(cacheControl: "s-maxage=10, max-age=20", expires: nil, date: nil).maxAge, 20)
    }

    // MARK: Retry-After

    func testRetryAfter_deltaSeconds() {
        XCTAssertEqual(HTTPCachePolicy.retryAfter("120", now: now), now + 120)
        XCTAssertEqual(HTTPCachePolicy.retryAfter(" 0 ", now: now), now)
    }

    func testRetryAfter_httpDate_isRelativeToTheServerDateWhenGiven() {
        let retry = "Sun, 06 Nov 1994 08:51:37 GMT"
        XCTAssertEqual(
            HTTPCachePolicy.retryAfter(retry, now: now, serverDate: "Sun, 06 Nov 1994 08:49:37 GMT"), now + 120)
        XCTAssertEqual(HTTPCachePolicy.retryAfter(retry, now: now), now, "a date in the past means now")
        let future = HTTPDate.format(Int64(now) + 30)
        XCTAssertEqual(HTTPCachePolicy.retryAfter(future, now: now), now + 30)
    }

    func testRetryAfter_rejectsGarbage() {
        for bad in ["", "soon", "-5", "1.5", "12s"] {
            XCTAssertNil(HTTPCachePolicy.retryAfter(bad, now: now), "accepted \(bad.debugDescription)")
        }
    }
}
