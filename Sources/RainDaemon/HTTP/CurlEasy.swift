import CCurl
import CShims

/// One libcurl easy handle (curl_easy_init / curl_easy_cleanup) and the C
/// memory that must live as long as it: the error buffer (CURLOPT_ERRORBUFFER)
/// and the request header list (CURLOPT_HTTPHEADER, a curl_slist).
///
/// The setters go through the typed C shims in CShims (curl_easy_setopt is
/// variadic) and throw `CurlError`. libcurl copies string options, so the
/// Swift strings passed in need not outlive the call.
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerList: UnsafeMutablePointer<curl_slist>?

    /// curl_easy_init, then CURLOPT_ERRORBUFFER.
    init() throws(CurlError) {
        guard let handle = raind_curl_easy_init() else {
            throw CurlError("curl_easy_init", CURLE_FAILED_INIT)
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
    }

    /// curl_easy_cleanup. The handle must no longer be in a multi handle.
    deinit {
        raind_curl_easy_cleanup(handle)
        raind_curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// libcurl's detailed message for the last failure (CURLOPT_ERRORBUFFER),
    /// empty when it wrote none. It may name the host; callers scrub it.
    var errorDetail: String { String(cString: errorBuffer) }

    // MARK: curl_easy_setopt

    func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try checkCurl(Self.name("curl_easy_setopt", option), raind_easy_setopt_long(handle, option, value))
    }

    func set(_ option: CURLoption, _ value: Bool) throws(CurlError) {
        try set(option, value ? 1 : 0)
    }

    func set(_ option: CURLoption, offset value: Int64) throws(CurlError) {
        try checkCurl(Self.name("curl_easy_setopt", option), raind_easy_setopt_off_t(handle, option, curl_off_t(value)))
    }

    func set(_ option: CURLoption, _ value: String) throws(CurlError) {
        try checkCurl(Self.name("curl_easy_setopt", option), raind_easy_setopt_string(handle, option, value))
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws(CurlError) {
        try checkCurl(Self.name("curl_easy_setopt", option), raind_easy_setopt_pointer(handle, option, value))
    }

    /// CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION.
    func set(_ option: CURLoption, callback: curl_write_callback) throws(CurlError) {
        try checkCurl(Self.name("curl_easy_setopt", option), raind_easy_setopt_write_callback(handle, option, callback))
    }

    /// Builds the curl_slist for CURLOPT_HTTPHEADER from `Name: value` lines and
    /// hands it over; the list is freed with the handle.
    func setHeaderLines(_ lines: [String]) throws(CurlError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let longer = raind_curl_slist_append(list, line) else {
                raind_curl_slist_free_all(list)
                throw CurlError("curl_slist_append", CURLE_OUT_OF_MEMORY)
            }
            list = longer
        }
        do {
            try checkCurl(
                Self.name("curl_easy_setopt", CURLOPT_HTTPHEADER),
                raind_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, list))
        } catch {
            raind_curl_slist_free_all(list)
            throw error
        }
        raind_curl_slist_free_all(headerList)
        headerList = list
    }

    // MARK: curl_easy_getinfo

    func longInfo(_ info: CURLINFO) throws(CurlError) -> Int {
        var value = 0
        try checkCurl(Self.name("curl_easy_getinfo", info), raind_easy_getinfo_long(handle, info, &value))
        return value
    }

    /// A string the easy handle owns, copied; "" when libcurl has none.
    func stringInfo(_ info: CURLINFO) throws(CurlError) -> String {
        var value: UnsafePointer<CChar>?
        try checkCurl(Self.name("curl_easy_getinfo", info), raind_easy_getinfo_string(handle, info, &value))
        return value.map { String(cString: $0) } ?? ""
    }

    private static func name(_ call: String, _ option: CURLoption) -> String {
        "\(call)(option \(option.rawValue))"
    }

    private static func name(_ call: String, _ info: CURLINFO) -> String {
        "\(call)(info \(info.rawValue))"
    }
}
