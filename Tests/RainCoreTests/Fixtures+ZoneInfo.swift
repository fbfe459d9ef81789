import RainCore
import RainSystem
import TestSupport

extension Fixtures {
    /// The system's tz database (Debian's tzdata), read as raind and raindctl read it.
    static let zoneInfo = ZoneInfo { path, limit in FileIO.contents(of: path, limit: limit) }
}
