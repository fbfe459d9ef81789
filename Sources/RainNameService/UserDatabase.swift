import Glibc
import RainSystem

/// The system's users and groups, as the C library's name service sees them
/// (`/etc/group`, or whatever nsswitch.conf names). Its own target, for raind
/// alone: a static raindctl linking the name service would need, at run
/// time, the shared libraries of the glibc it was built with.
public enum UserDatabase {
    /// The id of group `name` (`getgrnam_r(3)`); nil when there is no such
    /// group. A name service that cannot answer throws, named `getgrnam_r`.
    public static func groupID(named name: String) throws(SystemError) -> gid_t? {
        var size = 1024
        while true {
            let found = try withUnsafeTemporaryAllocation(of: CChar.self, capacity: size) {
                buffer throws(SystemError) -> (gid_t?, Bool) in
                var entry = group()
                var result: UnsafeMutablePointer<group>?
                do throws(SystemError) {
                    try nothingOrError("getgrnam_r", subject: name) { () -> Int32 in
                        // It returns the error number instead of setting errno.
                        let code = getgrnam_r(name, &entry, buffer.baseAddress!, buffer.count, &result)
                        guard code != 0 else { return 0 }
                        Errno.current = Errno(rawValue: code)
                        return -1
                    }
                } catch  where error.errno == .outOfRange && size < 1 << 20 {
                    return (nil, false)  // a group with many members: try a larger buffer
                } catch  where error.errno == .noSuchFileOrDirectory {
                    return (nil, true)  // how some name services say "no such group"
                }
                return (result?.pointee.gr_gid, true)
            }
            if found.1 { return found.0 }
            size *= 4
        }
    }
}
