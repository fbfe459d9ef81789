import Glibc

/// Writes "places-bench: `message`" to standard error with write(2): Swift 6
/// refuses C's `stderr`, a shared mutable global.
func complain(_ message: String) {
    let line = Array("places-bench: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
