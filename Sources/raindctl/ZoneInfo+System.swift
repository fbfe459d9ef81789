import RainCore
import RainSystem

extension ZoneInfo {
    /// The system's tz database, read through RainSystem.
    static let system = ZoneInfo { path, limit in FileIO.contents(of: path, limit: limit) }
}
