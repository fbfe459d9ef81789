import CCurl
import CShims

/// One libcurl multi handle (curl_multi_init / curl_multi_cleanup): the set of
/// transfers in flight and their shared connection cache. Typed wrappers for
/// the calls `HTTPClient` makes; each turns a CURLMcode into a `CurlError`.
final class CurlMulti {
    /// A transfer libcurl reported finished (CURLMSG_DONE).
    struct Done {
        let easy: UnsafeMutableRawPointer
        let result: CURLcode
    }

    let handle: UnsafeMutableRawPointer

    /// curl_multi_init.
    init() throws(CurlError) {
        guard let handle = raind_curl_multi_init() else {
            throw CurlError("curl_multi_init", multi: CURLM_OUT_OF_MEMORY)
        }
        self.handle = handle
    }

    /// curl_multi_cleanup. Every easy handle must have been removed already.
    deinit { raind_curl_multi_cleanup(handle) }

    /// CURLMOPT_SOCKETFUNCTION and CURLMOPT_SOCKETDATA; nil callback stops the calls.
    func setSocketCallback(_ callback: curl_socket_callback?, data: UnsafeMutableRawPointer?) throws(CurlError) {
        try checkCurlMulti(
            "curl_multi_setopt(CURLMOPT_SOCKETFUNCTION)", raind_multi_setopt_socket_callback(handle, callback))
        try checkCurlMulti(
            "curl_multi_setopt(CURLMOPT_SOCKETDATA)", raind_multi_setopt_pointer(handle, CURLMOPT_SOCKETDATA, data))
    }

    /// CURLMOPT_TIMERFUNCTION and CURLMOPT_TIMERDATA; nil callback stops the calls.
    func setTimerCallback(_ callback: curl_multi_timer_callback?, data: UnsafeMutableRawPointer?) throws(CurlError) {
        try checkCurlMulti(
            "curl_multi_setopt(CURLMOPT_TIMERFUNCTION)", raind_multi_setopt_timer_callback(handle, callback))
        try checkCurlMulti(
            "curl_multi_setopt(CURLMOPT_TIMERDATA)", raind_multi_setopt_pointer(handle, CURLMOPT_TIMERDATA, data))
    }

    /// curl_multi_setopt with a number (CURLMOPT_MAX_TOTAL_CONNECTIONS, say).
    func set(_ option: CURLMoption, _ value: Int) throws(CurlError) {
        try checkCurlMulti(
            "curl_multi_setopt(option \(option.rawValue))", raind_multi_setopt_long(handle, option, value))
    }

    /// curl_multi_add_handle. May call the timer callback before returning.
    func add(_ easy: CurlEasy) throws(CurlError) {
        try checkCurlMulti("curl_multi_add_handle", raind_curl_multi_add_handle(handle, easy.handle))
    }

    /// curl_multi_remove_handle. May call the socket and timer callbacks before returning.
    func remove(_ easy: CurlEasy) throws(CurlError) {
        try checkCurlMulti("curl_multi_remove_handle", raind_curl_multi_remove_handle(handle, easy.handle))
    }

    /// curl_multi_socket_action: tells libcurl that `socket` is ready for
    /// `events` (CURL_CSELECT_* bits), or with CURL_SOCKET_TIMEOUT that its
    /// timer expired. Calls the socket, timer, write and header callbacks.
    func socketAction(_ socket: curl_socket_t, events: Int32) throws(CurlError) {
        var running: Int32 = 0
        try checkCurlMulti("curl_multi_socket_action", raind_curl_multi_socket_action(handle, socket, events, &running))
    }

    /// The next finished transfer from curl_multi_info_read, skipping other
    /// messages, or nil when there is none. The message memory is libcurl's and
    /// is copied out before the easy handle is removed.
    func nextDone() -> Done? {
        var queued: Int32 = 0
        while let message = raind_curl_multi_info_read(handle, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            return Done(easy: easy, result: message.pointee.data.result)
        }
        return nil
    }
}
