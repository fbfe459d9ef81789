/// The parameters of one `org.varlink.service` error.
public protocol VarlinkServiceErrorParameters: Codable, Sendable {
    static var error: VarlinkServiceError { get }
    /// Parameters raind sends beyond those the specification declares
    /// (a reader that knows only the standard error ignores them).
    static var additions: Set<String> { get }
}

extension VarlinkServiceErrorParameters {
    public static var additions: Set<String> { [] }
}

extension VarlinkServiceError {
    /// A call named an interface the service does not answer.
    public struct InterfaceNotFound: VarlinkServiceErrorParameters, Equatable {
        public static let error = VarlinkServiceError.interfaceNotFound
        public var interface: String
        public init(interface: String) { self.interface = interface }
    }

    /// A call named a method its interface does not have.
    public struct MethodNotFound: VarlinkServiceErrorParameters, Equatable {
        public static let error = VarlinkServiceError.methodNotFound
        public var method: String
        public init(method: String) { self.method = method }
    }

    /// The interface declares the method, the service does not implement it.
    public struct MethodNotImplemented: VarlinkServiceErrorParameters, Equatable {
        public static let error = VarlinkServiceError.methodNotImplemented
        public var method: String
        public init(method: String) { self.method = method }
    }

    /// Which parameter was wrong, and (raind's addition) why.
    public struct InvalidParameter: VarlinkServiceErrorParameters, Equatable {
        public static let error = VarlinkServiceError.invalidParameter
        public static let additions: Set<String> = ["reason"]
        /// The `parameter` named when the message itself is at fault: not
        /// JSON, or over the size limit.
        public static let wholeMessage = "message"
        public var parameter: String
        public var reason: String?
        public init(parameter: String, reason: String?) {
            self.parameter = parameter
            self.reason = reason
        }
    }

    /// The client may not connect; `message` (raind's addition) says why and what to do.
    public struct PermissionDenied: VarlinkServiceErrorParameters, Equatable {
        public static let error = VarlinkServiceError.permissionDenied
        public static let additions: Set<String> = ["message"]
        public var message: String
        public init(message: String) { self.message = message }
    }

    /// A streaming method was called without `more`.
    public struct ExpectedMore: VarlinkServiceErrorParameters, Equatable {
        public static let error = VarlinkServiceError.expectedMore
        public init() {}
    }

    /// The parameters type of each error, for decoding and for checking against the IDL.
    public var parametersType: any VarlinkServiceErrorParameters.Type {
        switch self {
        case .interfaceNotFound: return InterfaceNotFound.self
        case .methodNotFound: return MethodNotFound.self
        case .methodNotImplemented: return MethodNotImplemented.self
        case .invalidParameter: return InvalidParameter.self
        case .permissionDenied: return PermissionDenied.self
        case .expectedMore: return ExpectedMore.self
        }
    }
}
