import CSystemd
import Glibc
import RainSystem

/// What the service manager passes and wants: activated sockets (sd_listen_fds)
/// and state notifications (sd_notify). Both are no-ops outside systemd.
public struct ServiceManager {
    public init() {}

    /// The first passed listening socket, preferring one named `varlink`
    /// (`FileDescriptorName=varlink` / `--fdname=varlink`). Unsets the
    /// LISTEN_* variables so children do not inherit them.
    public func activatedSocket() -> FileDescriptor? {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_listen_fds_with_names(1, &names)
        guard count > 0 else { return nil }
        defer {
            if let names {
                for index in 0..<Int(count) { free(names[index]) }
                free(names)
            }
        }
        var chosen = SD_LISTEN_FDS_START
        for index in 0..<count {
            let fd = SD_LISTEN_FDS_START + index
            if let names, let name = names[Int(index)], String(cString: name) == "varlink" {
                chosen = fd
                break
            }
        }
        // Passed sockets may lack the flags we rely on. Setting them fails only
        // for a descriptor that is not open, which the first accept reports.
        let socket = FileDescriptor(taking: chosen)
        try? socket.setNonBlocking()
        try? socket.setCloseOnExec()
        for index in 0..<count where SD_LISTEN_FDS_START + index != chosen {
            FileDescriptor(taking: SD_LISTEN_FDS_START + index).close()
        }
        return socket
    }

    /// Sends a state line (`READY=1`, `STATUS=...`); ignored without NOTIFY_SOCKET.
    public func notify(_ state: String) {
        _ = sd_notify(0, state)
    }

    public func ready(status: String) { notify("READY=1\nSTATUS=\(status)") }
    public func status(_ text: String) { notify("STATUS=\(text)") }
    public func stopping() { notify("STOPPING=1\nSTATUS=Stopping") }

    /// RELOADING=1 with the monotonic timestamp systemd 253+ wants for Type=notify-reload.
    public func reloading() {
        let usec = SystemClock.monotonic.microseconds()
        notify("RELOADING=1\nMONOTONIC_USEC=\(usec)\nSTATUS=Reloading configuration")
    }
}
