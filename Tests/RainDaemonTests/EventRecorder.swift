import RainCore

@testable import RainDaemon

/// A test's observer of the daemon's event stream: hands each published
/// change to `handler`, as the notifier and the publisher are handed them.
final class EventRecorder {
    private let handler: (Event) -> Void

    /// Registers on `events` for published changes; keep the recorder as long as the test listens.
    init(_ events: DaemonEvents, _ handler: @escaping (Event) -> Void) {
        self.handler = handler
        events.on(.published, self) { $0.handler($1) }
    }
}
