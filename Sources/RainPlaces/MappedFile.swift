import Glibc
import RainSystem

/// A place-data file mapped read-only into memory (RainSystem's `MemoryMap`),
/// with the checks and messages that belong to place data. The descriptor is
/// closed as soon as the mapping exists; a mapped file that is not being used
/// costs no resident memory once `dropResidentPages()` was called.
final class MappedFile {
    private let map: MemoryMap
    var bytes: UnsafeRawBufferPointer { map.bytes }

    /// Maps `path`. Throws `PlaceDataError` naming the failing call and errno.
    init(path: String) throws {
        func failure(_ error: SystemError) -> PlaceDataError {
            PlaceDataError(path: path, problem: "cannot \(error.call): \(error.message) (errno \(error.errno))")
        }
        let file: FileDescriptor
        let info: stat
        do {
            file = try FileDescriptor.open(path, O_RDONLY)
            info = try file.status()
        } catch {
            throw failure(error)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw PlaceDataError(path: path, problem: "not a regular file")
        }
        let size = Int(info.st_size)
        guard size > 0 else { throw PlaceDataError(path: path, problem: "empty file") }
        do {
            map = try MemoryMap(file, size: size, subject: path)
        } catch {
            throw failure(error)
        }
        // Lookups jump around the file; read-ahead would only fill memory.
        map.adviseRandomAccess()
    }

    /// Unmaps the resident pages; later reads fault them back in from the page cache.
    func dropResidentPages() {
        map.dropResidentPages()
    }
}
