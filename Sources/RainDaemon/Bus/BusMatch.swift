/// Which signals a subscription receives: a D-Bus match rule, typed.
/// Unset fields match anything.
public struct BusMatch: Equatable, Sendable, CustomStringConvertible {
    /// A well-known or unique bus name. The bus daemon resolves a well-known
    /// name to its current owner, so a signal from anyone else is not delivered.
    public var sender: String?
    public var path: String?
    public var interface: String?
    public var member: String?
    /// The first argument, when it is a string (PropertiesChanged's interface name).
    public var arg0: String?

    public init(
        sender: String? = nil, path: String? = nil, interface: String? = nil, member: String? = nil, arg0: String? = nil
    ) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arg0 = arg0
    }

    /// `PropertiesChanged` of `interface` on the object at `path`.
    public static func propertiesChanged(sender: String?, path: String, interface: String) -> BusMatch {
        BusMatch(
            sender: sender, path: path, interface: "org.freedesktop.DBus.Properties",
            member: "PropertiesChanged", arg0: interface)
    }

    /// The signal sd-bus synthesizes locally when the connection drops.
    public static let disconnected = BusMatch(
        path: "/org/freedesktop/DBus/Local", interface: "org.freedesktop.DBus.Local", member: "Disconnected")

    /// The match rule text, as AddMatch takes it.
    public var rule: String {
        var parts = ["type='signal'"]
        for (key, value) in [
            ("sender", sender), ("path", path), ("interface", interface), ("member", member), ("arg0", arg0),
        ] {
            guard let value else { continue }
            // Match rules quote with ' and have no escape inside quotes: close, \', reopen.
            parts.append(
                "\(key)='\(value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''"))'")
        }
        return parts.joined(separator: ",")
    }

    public var description: String { rule }
}
