/// The process environment, read without Foundation, for the code that
/// decides paths and defaults from it (daemon, client, bench).
public enum ProcessEnvironment {
    /// Every variable, as a dictionary.
    public static func current() -> [String: String] {
        let entries = SystemCall.environment()
        var result: [String: String] = [:]
        result.reserveCapacity(entries.count)
        for (name, value) in entries { result[name] = value }
        return result
    }

    /// One variable's value; nil when it is not set.
    public static func value(of name: String) -> String? {
        SystemCall.getenv(name)
    }
}
