import Glibc

/// A whole file mapped read-only into memory (`mmap(2)`).
///
/// The pages are file-backed and clean: the kernel brings them in on first
/// touch and may drop them again under pressure; `dropResidentPages()`
/// (`madvise(MADV_DONTNEED)`) gives them back at once, so a mapped file that
/// is not being used costs no resident memory. Owns the mapping; the file
/// descriptor is closed as soon as the mapping exists.
final class MappedFile {
    let bytes: UnsafeRawBufferPointer

    /// Maps `path`. Throws `PlaceDataError` naming the failing call and errno.
    init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PlaceDataError(path: path, problem: "cannot open: \(MappedFile.errnoText())")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw PlaceDataError(path: path, problem: "cannot stat: \(MappedFile.errnoText())")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw PlaceDataError(path: path, problem: "not a regular file")
        }
        let size = Int(info.st_size)
        guard size > 0 else { throw PlaceDataError(path: path, problem: "empty file") }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw PlaceDataError(path: path, problem: "cannot mmap: \(MappedFile.errnoText())")
        }
        // Lookups jump around the file; read-ahead would only fill memory.
        _ = madvise(base, size, MADV_RANDOM)
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        if let base = bytes.baseAddress {
            munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        }
    }

    /// Unmaps the resident pages; later reads fault them back in from the page cache.
    func dropResidentPages() {
        if let base = bytes.baseAddress {
            _ = madvise(UnsafeMutableRawPointer(mutating: base), bytes.count, MADV_DONTNEED)
        }
    }

    private static func errnoText() -> String {
        let code = errno
        guard let text = strerror(code) else { return "errno \(code)" }
        return "\(String(cString: text)) (errno \(code))"
    }
}
