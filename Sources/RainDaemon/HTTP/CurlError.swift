import CCurl
import CShims

/// A failed libcurl call: which call, and libcurl's own text for its code
/// (curl_easy_strerror / curl_multi_strerror). Raised only by the wrapper layer
/// (`CurlEasy`, `CurlMulti`); no bare CURLcode or CURLMcode escapes it.
///
/// This is for calls that set a transfer up or drive it. How a transfer itself
/// ended is an `HTTPFailure`, which says what a user can do about it.
public struct CurlError: Error, CustomStringConvertible, Equatable {
    enum Code: Equatable {
        case easy(CURLcode)
        case multi(CURLMcode)
    }

    /// The libcurl function, with the option or info it was given when that helps.
    public let call: String
    let code: Code

    init(_ call: String, _ code: CURLcode) {
        self.call = call
        self.code = .easy(code)
    }

    init(_ call: String, multi code: CURLMcode) {
        self.call = call
        self.code = .multi(code)
    }

    /// libcurl's description of the code.
    public var message: String {
        switch code {
        case .easy(let code): return String(cString: raind_curl_easy_strerror(code))
        case .multi(let code): return String(cString: raind_curl_multi_strerror(code))
        }
    }

    public var description: String { "\(call): \(message)" }
}

/// Throws unless an easy-interface call returned CURLE_OK.
func checkCurl(_ call: @autoclosure () -> String, _ code: CURLcode) throws(CurlError) {
    if code != CURLE_OK { throw CurlError(call(), code) }
}

/// Throws unless a multi-interface call returned CURLM_OK. CURLM_CALL_MULTI_PERFORM
/// is success too: libcurl has not asked callers to loop on it since 7.20.
func checkCurlMulti(_ call: @autoclosure () -> String, _ code: CURLMcode) throws(CurlError) {
    if code != CURLM_OK, code != CURLM_CALL_MULTI_PERFORM { throw CurlError(call(), multi: code) }
}
