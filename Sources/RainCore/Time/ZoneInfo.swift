import Glibc

/// The system's tz database (`/usr/share/zoneinfo`, Debian's `tzdata`), read
/// on demand. A name that is not a plain IANA name, or a zone the system
/// lacks, gives nil: callers fall back to the offset the provider reported.
public enum ZoneInfo {
    /// Where Debian's `tzdata` installs the database.
    public static let defaultDirectory = "/usr/share/zoneinfo"

    /// Largest TZif file read; real ones are a few kilobytes.
    static let maximumBytes = 1 << 16

    /// The rules of zone `name` (`Europe/Paris`) from `directory`.
    public static func rules(named name: String, directory: String = defaultDirectory) -> TimeZoneRules? {
        guard isPlainName(name), let bytes = readFile(directory + "/" + name) else { return nil }
        return try? TimeZoneRules(name: name, tzif: bytes)
    }

    /// `Area/Location` names only: no `..`, no leading `/`, no odd characters,
    /// so a name from a provider cannot reach other files.
    static func isPlainName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count < 128, !name.hasPrefix("/") else { return false }
        for part in name.split(separator: Character("/"), omittingEmptySubsequences: false) {
            guard !part.isEmpty, part != ".", part != ".." else { return false }
        }
        return name.unicodeScalars.allSatisfy { scalar in
            (scalar >= "A" && scalar <= "Z") || (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9")
                || scalar == "/" || scalar == "_" || scalar == "-" || scalar == "+"
        }
    }

    /// The whole file, or nil when it cannot be read or is too large.
    static func readFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var content: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return content }
            content += chunk[0..<count]
            if content.count > maximumBytes { return nil }
        }
    }
}
