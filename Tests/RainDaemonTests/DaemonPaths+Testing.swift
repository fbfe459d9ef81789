@testable import RainDaemon

extension DaemonPaths {
    /// A user instance's paths, every XDG directory under `directory`.
    static func userInstance(under directory: String) -> DaemonPaths {
        DaemonPaths(
            mode: .user,
            environment: [
                "XDG_RUNTIME_DIR": directory, "XDG_STATE_HOME": directory + "/state",
                "XDG_CACHE_HOME": directory + "/cache", "XDG_CONFIG_HOME": directory + "/config",
            ])
    }
}
