import Glibc

/// Whole-file reads and crash-safe writes, and what is done to paths:
/// directories made and listed, names removed and renamed, links read.
public enum FileIO {
    /// Reads a whole file, refusing one larger than `limit` bytes, and anything
    /// that is not a regular file (`EINVAL`, see `notRegularFile`).
    ///
    /// The open never blocks: a FIFO or device put where a file belongs is
    /// opened with `O_NONBLOCK` and refused after `fstat`, so it cannot freeze
    /// the event loop waiting for a writer.
    ///
    /// `followingLinks: false` (raind's own state and cache files) refuses a
    /// symbolic link in place of the file (`O_NOFOLLOW`: `ELOOP`), so a link
    /// planted in raind's directories cannot make it read, or discard,
    /// another file. `mode`, when given, is set to the file's permission bits.
    public static func readFile(
        _ path: String, limit: Int, followingLinks: Bool = true, mode: UnsafeMutablePointer<mode_t>? = nil
    ) -> Result<[UInt8], SystemError> {
        Result { () throws(SystemError) -> [UInt8] in
            let file: FileDescriptor
            let info: stat
            do throws(SystemError) {
                file = try FileDescriptor.open(
                    path, O_RDONLY | O_NONBLOCK | O_NOCTTY | (followingLinks ? 0 : O_NOFOLLOW))
                info = try file.status()
            } catch {
                let subject =
                    error.errno == .tooManySymbolicLinkLevels && !followingLinks ? "\(path) (a symbolic link)" : path
                throw SystemError(error.call, errno: error.errno, subject: subject)
            }
            guard info.st_mode & S_IFMT == S_IFREG else { throw notRegularFile(path) }
            mode?.pointee = info.st_mode & 0o7777
            var content: [UInt8] = []
            var chunk: [UInt8] = []
            while true {
                let n: Int
                do throws(SystemError) {
                    n = try file.read(into: &chunk)
                } catch {
                    throw SystemError("read", errno: error.errno, subject: path)
                }
                if n == 0 { return content }
                content.append(contentsOf: chunk)
                if content.count > limit { throw SystemError("read", errno: .fileTooLarge, subject: path) }
            }
        }
    }

    /// `readFile`'s content, or nil for any failure: for readers that fall
    /// back on something else whatever the reason (a zone the system lacks).
    public static func contents(of path: String, limit: Int) -> [UInt8]? {
        try? readFile(path, limit: limit).get()
    }

    /// The error for a path that exists but is no regular file (a FIFO, a
    /// directory, a device): `EINVAL`, with the reason in the subject.
    public static func notRegularFile(_ path: String) -> SystemError {
        SystemError("open", errno: .invalidArgument, subject: "\(path) (not a regular file)")
    }

    /// Whether an error from `readFile` means the path is no regular file.
    public static func isNotRegularFile(_ error: SystemError) -> Bool {
        error.errno == .invalidArgument && error.subject.hasSuffix("(not a regular file)")
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
        let temporary = "\(path).tmp.\(ProcessIdentity.processID)"
        let file = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode: mode)
        do throws(SystemError) {
            var offset = 0
            while offset < bytes.count {
                // The loop runs only while bytes remain, so the buffer is not empty and has an address.
                offset += try bytes.withUnsafeBytes { raw in
                    Result { () throws(SystemError) -> Int in
                        try valueOrError("write", subject: temporary) {
                            SystemCall.write(file.rawValue, raw.baseAddress! + offset, raw.count - offset)
                        }
                    }
                }.get()
            }
            if durability == .durable {
                try nothingOrError("fsync", subject: temporary) { SystemCall.fsync(file.rawValue) }
            }
            file.close()
            try rename(temporary, to: path)
        } catch {
            try? removeFile(temporary)
            throw error
        }
        guard durability == .durable, let dir = try? FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY) else {
            return
        }
        try nothingOrError("fsync", subject: directory) { SystemCall.fsync(dir.rawValue) }
    }

    /// Removes the `NAME.tmp.PID` files `writeAtomically` leaves when raind is
    /// killed between writing and renaming; returns the names removed. Only
    /// regular files are touched; called at start, before anything writes.
    @discardableResult
    public static func removeLeftoverTemporaries(in directory: String) -> [String] {
        var removed: [String] = []
        for name in (try? directoryEntries(in: directory)) ?? [] where isTemporaryName(name) {
            var info = stat()
            let path = directory + "/" + name
            guard (try? nothingOrError("lstat", { SystemCall.lstat(path, &info) })) != nil,
                info.st_mode & S_IFMT == S_IFREG
            else { continue }
            if (try? removeFile(path)) != nil { removed.append(name) }
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
            do throws(SystemError) {
                try nothingOrError("mkdir", subject: current) { SystemCall.mkdir(current, mode) }
            } catch  where error.errno == .fileExists {
                continue
            }
        }
    }

    /// Why `path`, a directory raind keeps its own files in, cannot be
    /// trusted with them; nil when it can, or when it does not exist yet (it
    /// is then made with a private mode).
    ///
    /// The directory is looked at through symbolic links, so a directory
    /// that systemd links (`/var/lib/raind` to `/var/lib/private/raind` with
    /// `DynamicUser=yes`) or a user moved to another disk is judged by what
    /// it is: it must be a directory, belong to `owner`, and be writable by
    /// nobody else. Another user who may write in it could put a file of
    /// their choosing in place of the state (`O_NOFOLLOW` stops links, not
    /// renames); one who owns it could do the same with `chmod`.
    public static func untrustedDirectoryReason(_ path: String, owner: uid_t) -> String? {
        // Opened through links, for fstat alone: O_PATH needs no permission on the directory.
        let info: stat
        do throws(SystemError) {
            info = try FileDescriptor.open(path, Self.pathOnly).status()
        } catch {
            return error.errno == .noSuchFileOrDirectory ? nil : "it cannot be examined (\(error.errno))"
        }
        let through = (try? symbolicLinkTarget(of: path)).map { " (a link to \($0))" } ?? ""
        guard info.st_mode & S_IFMT == S_IFDIR else { return "it\(through) is not a directory" }
        if info.st_uid != owner {
            return "it\(through) belongs to user \(info.st_uid), not to user \(owner) who runs raind"
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o022 != 0 {
            let who = mode & 0o002 != 0 ? "every user" : "its group"
            return "it\(through) can be written by \(who) (mode \(String(mode, radix: 8)))"
        }
        return nil
    }

    /// O_PATH (Linux), which Swift's Glibc module does not export.
    static let pathOnly: Int32 = 0o10_000_000

    public static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    /// Whether something is at `path` (`access(2)` with F_OK; a dangling
    /// symbolic link is nothing).
    public static func exists(_ path: String) -> Bool { SystemCall.access(path, F_OK) == 0 }

    /// Whether the process may read `path` (`access(2)` with R_OK).
    public static func isReadable(_ path: String) -> Bool { SystemCall.access(path, R_OK) == 0 }

    /// Removes the name `path` (`unlink(2)`); a missing one is ENOENT.
    public static func removeFile(_ path: String) throws(SystemError) {
        try nothingOrError("unlink", subject: path) { SystemCall.unlink(path) }
    }

    /// Renames `from` to `to`, replacing what was there atomically (`rename(2)`).
    public static func rename(_ from: String, to: String) throws(SystemError) {
        try nothingOrError("rename", subject: "\(from) to \(to)") { SystemCall.rename(from, to) }
    }

    /// Where the symbolic link `path` points (`readlink(2)`): its target as
    /// written, perhaps relative; EINVAL when `path` is no symbolic link.
    public static func symbolicLinkTarget(of path: String) throws(SystemError) -> String {
        var size = 256
        while true {
            let target = try withUnsafeTemporaryAllocation(of: CChar.self, capacity: size) {
                buffer throws(SystemError) -> String? in
                let length = try valueOrError("readlink", subject: path) {
                    SystemCall.readlink(path, buffer.baseAddress!, buffer.count)
                }
                // Filling the whole buffer may mean the target was cut: read again with more room.
                guard length < buffer.count else { return nil }
                return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            if let target { return target }
            guard size < 1 << 16 else { throw SystemError("readlink", errno: .fileNameTooLong, subject: path) }
            size *= 4
        }
    }

    /// The names in a directory, `.` and `..` left out, in the order the file
    /// system gives them (`opendir(3)`, `readdir(3)`).
    public static func directoryEntries(in directory: String) throws(SystemError) -> [String] {
        var handle: OpaquePointer?
        try nothingOrError("opendir", subject: directory) { () -> Int32 in
            handle = SystemCall.opendir(directory)
            return handle == nil ? -1 : 0
        }
        guard let handle else { return [] }
        defer { _ = SystemCall.closedir(handle) }
        var names: [String] = []
        while let entry = SystemCall.readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)  // d_name is NUL-terminated
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
