/// Names of `org.varlink.service`, the interface every Varlink service
/// answers, declared once (`protocol/org.varlink.service.varlink`, the
/// specification's text, is the contract; VarlinkServiceSchemaTests keeps
/// every method, error and parameter here equal to it).
public enum VarlinkServiceInterface {
    public static let name = "org.varlink.service"
}

public enum VarlinkServiceMethod: String, CaseIterable, Sendable {
    case getInfo = "GetInfo"
    case getInterfaceDescription = "GetInterfaceDescription"

    public var qualifiedName: String { "\(VarlinkServiceInterface.name).\(rawValue)" }

    /// The method a fully qualified name (`org.varlink.service.GetInfo`) names, if it is one of these.
    public init?(qualifiedName: String) {
        guard let method = Self.allCases.first(where: { $0.qualifiedName == qualifiedName }) else { return nil }
        self = method
    }
}

/// The errors of `org.varlink.service`.
public enum VarlinkServiceError: String, CaseIterable, Sendable {
    case interfaceNotFound = "InterfaceNotFound"
    case methodNotFound = "MethodNotFound"
    case methodNotImplemented = "MethodNotImplemented"
    case invalidParameter = "InvalidParameter"
    case permissionDenied = "PermissionDenied"
    case expectedMore = "ExpectedMore"

    public var qualifiedName: String { "\(VarlinkServiceInterface.name).\(rawValue)" }
}
