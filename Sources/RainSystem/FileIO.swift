import Glibc

/// Whole-file reads and crash-safe writes.
public enum FileIO {
    /// Reads a whole file, refusing one larger than `limit` bytes, and anything
    /// that is not a regular file (`EINVAL`, see `notRegularFile`).
    ///
    /// The open never blocks: a FIFO or device put where a file belongs is
    /// opened with `O_NONBLOCK` and refused after `fstat`, so it cannot freeze
    /// the event loop waiting for a writer.
    public static func readFile(_ path: String, limit: Int) -> Result<[UInt8], SystemError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return .failure(SystemError("open", subject: path)) }
        let file = FileDescriptor(taking: fd)
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(SystemError("fstat", subject: path)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(notRegularFile(path)) }
        var content: [UInt8] = []
        var chunk: [UInt8] = []
        while true {
            let n: Int
            do {
                n = try file.read(into: &chunk)
            } catch {
                return .failure(SystemError("read", errno: error.errno, subject: path))
            }
            if n == 0 { return .success(content) }
            content.append(contentsOf: chunk)
            if content.count > limit { return .failure(SystemError("read", errno: EFBIG, subject: path)) }
        }
    }

    /// The error for a path that exists but is no regular file (a FIFO, a
    /// directory, a device): `EINVAL`, with the reason in the subject.
    public static func notRegularFile(_ path: String) -> SystemError {
        SystemError("open", errno: EINVAL, subject: "\(path) (not a regular file)")
    }

    /// Whether an error from `readFile` means the path is no regular file.
    public static func isNotRegularFile(_ error: SystemError) -> Bool {
        error.errno == EINVAL && error.subject.hasSuffix("(not a regular file)")
    }

    /// How hard `writeAtomically` works to survive a power loss.
    public enum Durability: Sendable {
        /// The file and its directory are fsync'd: after a power loss the file
        /// holds the old or the new content (the state file).
        case durable
        /// Only renamed into place: a crash of raind leaves the old or the new
        /// content, a power loss may leave either or an empty file. For data
        /// that can be fetched or counted again (forecast cache, call counter).
        case disposable
    }

    /// Replaces `path` atomically: a temporary file in the same directory is
    /// written, fsync'd and renamed over the old one, then the directory is
    /// fsync'd. A crash at any moment leaves the old or the new content.
    /// `.disposable` skips both fsyncs (see `Durability`).
    public static func writeAtomically(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o600, durability: Durability = .durable
    ) throws(SystemError) {
        let directory = parentDirectory(of: path)
        let temporary = "\(path).tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SystemError("open", subject: temporary) }
        let file = FileDescriptor(taking: fd)
        do throws(SystemError) {
            var offset = 0
            while offset < bytes.count {
                // The loop runs only while bytes remain, so the buffer is not empty and has an address.
                let n = bytes.withUnsafeBytes {
                    Glibc.write(file.rawValue, $0.baseAddress! + offset, bytes.count - offset)
                }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw SystemError("write", subject: temporary)
                }
                offset += n
            }
            if durability == .durable {
                guard fsync(file.rawValue) == 0 else { throw SystemError("fsync", subject: temporary) }
            }
            file.close()
            guard rename(temporary, path) == 0 else { throw SystemError("rename", subject: "\(temporary) to \(path)") }
        } catch {
            unlink(temporary)
            throw error
        }
        guard durability == .durable else { return }
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            let dir = FileDescriptor(taking: dirFD)
            guard fsync(dir.rawValue) == 0 else { throw SystemError("fsync", subject: directory) }
        }
    }

    /// Removes the `NAME.tmp.PID` files `writeAtomically` leaves when raind is
    /// killed between writing and renaming; returns the names removed. Only
    /// regular files are touched; called at start, before anything writes.
    @discardableResult
    public static func removeLeftoverTemporaries(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var removed: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)  // d_name is NUL-terminated
            }
            guard isTemporaryName(name) else { continue }
            var info = stat()
            let path = directory + "/" + name
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if unlink(path) == 0 { removed.append(name) }
        }
        return removed.sorted()
    }

    /// `state.json.tmp.1234`: what `writeAtomically` names its temporary files.
    static func isTemporaryName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, !parts[0].isEmpty, parts[parts.count - 2] == "tmp" else { return false }
        let pid = parts[parts.count - 1]
        return !pid.isEmpty && pid.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Creates a directory and its parents with `mode` where missing.
    public static func makeDirectories(_ path: String, mode: mode_t) throws(SystemError) {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, mode) != 0 && errno != EEXIST {
                throw SystemError("mkdir", subject: current)
            }
        }
    }

    public static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
