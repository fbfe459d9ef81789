import Glibc

/// A read-only, private memory map of a file (`mmap(2)`), unmapped when
/// released. The pages are file-backed and clean: the kernel brings them in
/// on first touch and may drop them again; `dropResidentPages()`
/// (`madvise(MADV_DONTNEED)`) gives them back at once.
public final class MemoryMap {
    public let bytes: UnsafeRawBufferPointer

    /// Maps the first `size` bytes of `file` (size > 0). The descriptor may be
    /// closed afterwards; the mapping keeps the file.
    public init(_ file: FileDescriptor, size: Int, subject: String = "") throws(SystemError) {
        var base: UnsafeMutableRawPointer?
        try nothingOrError("mmap", subject: subject) { () -> Int32 in
            base = SystemCall.mmap(size, PROT_READ, MAP_PRIVATE, file.rawValue)
            return base == nil || base == MAP_FAILED ? -1 : 0
        }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        if let base = bytes.baseAddress {
            _ = SystemCall.munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        }
    }

    /// Tells the kernel reads jump around (`MADV_RANDOM`): no read-ahead filling memory.
    public func adviseRandomAccess() {
        if let base = bytes.baseAddress {
            _ = SystemCall.madvise(UnsafeMutableRawPointer(mutating: base), bytes.count, MADV_RANDOM)
        }
    }

    /// Unmaps the resident pages; later reads fault them back in from the page cache.
    public func dropResidentPages() {
        if let base = bytes.baseAddress {
            _ = SystemCall.madvise(UnsafeMutableRawPointer(mutating: base), bytes.count, MADV_DONTNEED)
        }
    }
}
