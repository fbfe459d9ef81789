/// raind's version, shown by `--version`, GetStatus and the User-Agent.
public enum RaindVersion {
    public static let string = "0.1.0"
    public static let projectURL = "https://github.com/raind/raind"

    /// The `User-Agent` raind sends: the application, its version, the
    /// project URL and, when `[Provider] Contact=` gives one, the contact,
    /// as MET Norway and the NWS ask of their clients.
    public static func userAgent(contact: String? = nil) -> String {
        "raind/\(string) (+\(projectURL)\(contact.map { "; \($0)" } ?? ""))"
    }
}
