import RainCore
import XCTest

@testable import RainDaemon

/// The daemon's internal event stream: who gets what, in which order.
final class DaemonEventsTests: XCTestCase {
    final class Log: DaemonEventObserver {
        let name: String
        var seen: [String] = []
        var onEvent: (DaemonEvent) -> Void = { _ in }
        init(_ name: String) { self.name = name }
        func observe(_ event: DaemonEvent) {
            seen.append("\(event.kind)")
            onEvent(event)
        }
    }

    func testAnObserver_getsOnlyTheKindsItRegisteredFor() {
        let events = DaemonEvents()
        let status = Log("status")
        events.register(status, for: [.stateChanged, .weatherChanged])
        events.emit(.becameActive(reason: "resume"))
        events.emit(.weatherChanged)
        events.emit(.watchingChanged(true))
        XCTAssertEqual(status.seen, ["weatherChanged"])
    }

    func testObservers_getAnEventInTheOrderTheyRegistered_andNestedEventsBeforeEmitReturns() {
        let events = DaemonEvents()
        var order: [String] = []
        let notifier = Log("notifier")
        let publisher = Log("publisher")
        let refresher = Log("refresher")
        for log in [notifier, publisher, refresher] {
            log.onEvent = { event in order.append("\(log.name):\(event.kind)") }
        }
        events.register(notifier, for: [.published])
        events.register(publisher, for: [.published])
        events.register(refresher, for: [.watchingChanged])
        // The refresher acts on the first subscriber by publishing: handed out at once.
        refresher.onEvent = { event in
            order.append("refresher:\(event.kind)")
            events.emit(.published(.refreshStarted([LocationID("paris-fr")])))
            order.append("refresher:done")
        }
        events.emit(.watchingChanged(true))
        XCTAssertEqual(
            order, ["refresher:watchingChanged", "notifier:published", "publisher:published", "refresher:done"])
    }

    func testAnObserverThatIsGone_isNoLongerCalled() {
        let events = DaemonEvents()
        var log: Log? = Log("short-lived")
        events.register(log!, for: [.weatherChanged])  // just made: cannot be nil
        weak let gone = log
        log = nil
        events.emit(.weatherChanged)
        XCTAssertNil(gone, "the stream holds its observers weakly: the daemon owns its parts")
    }

    func testPublish_emitsEachChangeInOrder() {
        let events = DaemonEvents()
        var published: [String] = []
        let recorder = EventRecorder(events) { published.append($0.name.rawValue) }
        events.publish([.settingsChanged(Settings(units: .us)), .refreshStarted([])])
        withExtendedLifetime(recorder) {}
        XCTAssertEqual(published, ["SettingsChanged", "RefreshStarted"])
    }
}
