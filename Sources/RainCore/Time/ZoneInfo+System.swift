import RainSystem

extension ZoneInfo {
    /// The system's tz database (/usr/share/zoneinfo), read through
    /// RainSystem: what both executables show times with. The rules are
    /// computed by `ZoneInfo` from the bytes it is handed, so tests hand
    /// their own reader instead.
    public static let system = ZoneInfo { path, limit in FileIO.contents(of: path, limit: limit) }
}
