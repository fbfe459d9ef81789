import Glibc

/// Whole-file reads and crash-safe writes.
public enum FileIO {
    /// Reads a whole file, refusing one larger than `limit` bytes.
    public static func readFile(_ path: String, limit: Int) -> Result<[UInt8], SystemError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(SystemError("open", subject: path)) }
        let file = FileDescriptor(taking: fd)
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

    /// Replaces `path` atomically: a temporary file in the same directory is
    /// written, fsync'd and renamed over the old one, then the directory is
    /// fsync'd. A crash at any moment leaves the old or the new content.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws(SystemError) {
        let directory = parentDirectory(of: path)
        let temporary = "\(path).tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SystemError("open", subject: temporary) }
        let file = FileDescriptor(taking: fd)
        do throws(SystemError) {
            var offset = 0
            while offset < bytes.count {
                // The loop runs only while bytes remain, so the buffer is not empty and has an address.
                let n = bytes.withUnsafeBytes { Glibc.write(file.rawValue, $0.baseAddress! + offset, bytes.count - offset) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw SystemError("write", subject: temporary)
                }
                offset += n
            }
            guard fsync(file.rawValue) == 0 else { throw SystemError("fsync", subject: temporary) }
            file.close()
            guard rename(temporary, path) == 0 else { throw SystemError("rename", subject: "\(temporary) to \(path)") }
        } catch {
            unlink(temporary)
            throw error
        }
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            let dir = FileDescriptor(taking: dirFD)
            guard fsync(dir.rawValue) == 0 else { throw SystemError("fsync", subject: directory) }
        }
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
