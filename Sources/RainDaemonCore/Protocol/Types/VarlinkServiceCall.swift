import RainCore

/// One method of `org.varlink.service`: its parameters and its reply as
/// types, as `WeatherCall` declares those of `io.raind.Weather`.
public protocol VarlinkServiceCall {
    associatedtype Parameters: Codable & Sendable
    associatedtype Reply: Codable & Sendable
    static var method: VarlinkServiceMethod { get }
}

public enum GetInfoCall: VarlinkServiceCall {
    public static let method = VarlinkServiceMethod.getInfo
    public typealias Parameters = NoParameters
    public struct Reply: Codable, Sendable, Equatable {
        public var vendor: String
        public var product: String
        public var version: String
        public var url: String
        /// Every interface the service answers, `org.varlink.service` first.
        public var interfaces: [String]
        public init(vendor: String, product: String, version: String, url: String, interfaces: [String]) {
            self.vendor = vendor
            self.product = product
            self.version = version
            self.url = url
            self.interfaces = interfaces
        }
    }
}

public enum GetInterfaceDescriptionCall: VarlinkServiceCall {
    public static let method = VarlinkServiceMethod.getInterfaceDescription
    public struct Parameters: Codable, Sendable, Equatable {
        public var interface: String
        public init(interface: String) { self.interface = interface }
    }
    public struct Reply: Codable, Sendable, Equatable {
        /// The interface's IDL text.
        public var description: String
        public init(description: String) { self.description = description }
    }
}

extension VarlinkServiceMethod {
    /// The declaration of each method's parameters and reply.
    public var call: any VarlinkServiceCall.Type {
        switch self {
        case .getInfo: return GetInfoCall.self
        case .getInterfaceDescription: return GetInterfaceDescriptionCall.self
        }
    }
}
