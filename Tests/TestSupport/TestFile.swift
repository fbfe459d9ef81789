import Glibc

/// Whole files read and written the plain way tests need them, with no
/// Foundation; a file that cannot be read is an error naming it.
public enum TestFile {
    public struct Unreadable: Error, CustomStringConvertible {
        public var path: String
        public var errno: Int32
        public var description: String { "cannot read \(path): \(String(cString: strerror(errno)))" }
    }

    /// The whole contents of the file at `path`.
    public static func bytes(_ path: String) throws(Unreadable) -> [UInt8] {
        guard let handle = fopen(path, "rb") else { throw Unreadable(path: path, errno: Glibc.errno) }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let read = fread(&buffer, 1, buffer.count, handle)
            if read <= 0 { break }
            bytes.append(contentsOf: buffer[0..<read])
        }
        guard ferror(handle) == 0 else { throw Unreadable(path: path, errno: Glibc.errno) }
        return bytes
    }

    /// The whole text of the file at `path`, decoded as UTF-8.
    public static func text(_ path: String) throws(Unreadable) -> String {
        String(decoding: try bytes(path), as: UTF8.self)
    }

    /// Writes `bytes` as the whole file at `path`; false when it cannot.
    @discardableResult
    public static func write(_ bytes: [UInt8], to path: String) -> Bool {
        guard let handle = fopen(path, "wb") else { return false }
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, handle) }
        return fclose(handle) == 0 && written == bytes.count
    }

    /// The names in the directory at `path` but `.` and `..` and hidden ones, sorted.
    public static func names(in path: String) throws(Unreadable) -> [String] {
        guard let directory = opendir(path) else { throw Unreadable(path: path, errno: Glibc.errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)  // d_name is NUL-terminated
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    /// The rows of a tab-separated table: each line but empty ones and
    /// `#` comments, with its line number (from 1) and its fields.
    public static func tableRows(_ path: String) throws(Unreadable) -> [(line: Int, fields: [String])] {
        var rows: [(line: Int, fields: [String])] = []
        for (number, line) in try text(path).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("#") || line.isEmpty { continue }
            rows.append((number + 1, line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)))
        }
        return rows
    }
}
