/// What fetches over HTTP for the refresher and the geocoder: the libcurl
/// client in raind; in-process tests pass the same client, pointed at a
/// fixture server on loopback, or their own.
public protocol HTTPFetching: AnyObject {
    /// Starts `request`; `completion` runs once on the loop, never from inside the call.
    @discardableResult
    func fetch(
        _ request: HTTPRequest, completion: @escaping (Result<HTTPResponse, HTTPFailure>) -> Void
    )
        -> any HTTPCancellable
}

/// A transfer under way that can be abandoned (its completion then never runs).
public protocol HTTPCancellable: AnyObject {
    func cancel()
}

extension HTTPTransfer: HTTPCancellable {}

extension HTTPClient: HTTPFetching {
    @discardableResult
    public func fetch(
        _ request: HTTPRequest, completion: @escaping (Result<HTTPResponse, HTTPFailure>) -> Void
    )
        -> any HTTPCancellable
    {
        get(request, completion: completion)
    }
}
