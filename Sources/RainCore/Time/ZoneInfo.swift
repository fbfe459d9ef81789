/// The system's tz database (`/usr/share/zoneinfo`, Debian's `tzdata`), read
/// on demand. A name that is not a plain IANA name, or a zone the system
/// lacks, gives nil: callers fall back to the offset the provider reported.
///
/// The core does no I/O: the file is read by `readFile`, which the
/// executables give as RainSystem's `FileIO.contents(of:limit:)`.
public struct ZoneInfo: Sendable {
    /// Where Debian's `tzdata` installs the database.
    public static let defaultDirectory = "/usr/share/zoneinfo"

    /// Largest TZif file read; real ones are a few kilobytes.
    public static let maximumBytes = 1 << 16

    public let directory: String
    /// Reads a whole file of at most `limit` bytes; nil when it cannot (or it is larger).
    public let readFile: @Sendable (_ path: String, _ limit: Int) -> [UInt8]?

    public init(
        directory: String = ZoneInfo.defaultDirectory, readFile: @escaping @Sendable (String, Int) -> [UInt8]?
    ) {
        self.directory = directory
        self.readFile = readFile
    }

    /// The rules of zone `name` (`Europe/Paris`).
    public func rules(named name: String) -> TimeZoneRules? {
        guard let bytes = tzif(named: name) else { return nil }
        return try? TimeZoneRules(name: name, tzif: bytes)
    }

    /// The TZif file of zone `name`; nil for a name that is not plain, or a zone the system lacks.
    public func tzif(named name: String) -> [UInt8]? {
        guard Self.isPlainName(name), let bytes = readFile(directory + "/" + name, Self.maximumBytes),
            bytes.count <= Self.maximumBytes
        else { return nil }
        return bytes
    }

    /// `Area/Location` names only: no `..`, no leading `/`, no odd characters,
    /// so a name from a provider cannot reach other files.
    package static func isPlainName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count < 128, !name.hasPrefix("/") else { return false }
        for part in name.split(separator: Character("/"), omittingEmptySubsequences: false) {
            guard !part.isEmpty, part != ".", part != ".." else { return false }
        }
        return name.unicodeScalars.allSatisfy { scalar in
            (scalar >= "A" && scalar <= "Z") || (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9")
                || scalar == "/" || scalar == "_" || scalar == "-" || scalar == "+"
        }
    }
}
