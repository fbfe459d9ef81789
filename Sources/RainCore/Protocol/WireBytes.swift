/// Comparisons of raw bytes on the path of every call (a method's name, an
/// envelope's keys), eight bytes at a time: the generic `elementsEqual` goes
/// byte by byte through iterators, and took a twentieth of a GetStatus call.
enum WireBytes {
    static func equal(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        guard let a = left.baseAddress, let b = right.baseAddress else { return true }
        let a8 = UnsafeRawPointer(a)
        let b8 = UnsafeRawPointer(b)
        var offset = 0
        while offset + 8 <= left.count {
            if a8.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != b8.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < left.count {
            if a[offset] != b[offset] { return false }
            offset += 1
        }
        return true
    }
}
