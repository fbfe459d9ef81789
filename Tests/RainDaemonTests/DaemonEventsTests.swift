import RainCore
import RainDaemonCore
import XCTest

@testable import RainDaemon

/// The daemon's internal event stream: who gets what, in which order.
final class DaemonEventsTests: XCTestCase {
    final class Log {
        let name: String
        var seen: [String] = []
        init(_ name: String) { self.name = name }
        func saw(_ what: String) { seen.append(what) }
    }

    func testAHandler_getsOnlyTheKindItIsRegisteredFor_withItsPayload() {
        let events = DaemonEvents()
        let status = Log("status")
        events.on(.weatherChanged, status) { $0.saw("weatherChanged") }
        events.on(.networkChanged, status) { $0.saw("networkChanged \($1)") }
        events.on(.becameActive, status) { $0.saw("becameActive \($1)") }
        events.emit(.watchingChanged(true))
        events.emit(.becameActive(reason: "resume"))
        events.emit(.weatherChanged)
        events.emit(.networkChanged(hasRoute: false))
        events.emit(.configurationReloaded)
        XCTAssertEqual(status.seen, ["becameActive resume", "weatherChanged", "networkChanged false"])
    }

    func testHandlers_getAnEventInTheOrderTheyRegistered_andNestedEventsAfterEveryHandlerOfTheFirst() {
        let events = DaemonEvents()
        var order: [String] = []
        let notifier = Log("notifier")
        let publisher = Log("publisher")
        let refresher = Log("refresher")
        let alerts = Log("alerts")
        events.on(.published, notifier) { _, _ in order.append("notifier:published") }
        events.on(.published, publisher) { _, _ in order.append("publisher:published") }
        // The refresher acts on a state change by publishing: the alert watcher,
        // registered after it, still sees the state change first.
        events.on(.stateChanged, refresher) { _, _ in
            order.append("refresher:stateChanged")
            events.emit(.published(.refreshStarted([LocationID("paris-fr")])))
            events.emit(.weatherChanged)
            order.append("refresher:done")
        }
        events.on(.stateChanged, alerts) { _, _ in order.append("alerts:stateChanged") }
        events.on(.weatherChanged, alerts) { _ in order.append("alerts:weatherChanged") }
        let state = PersistentState(settings: Settings(units: .si))
        events.emit(.stateChanged(from: state, to: state))
        XCTAssertEqual(
            order,
            [
                "refresher:stateChanged", "refresher:done", "alerts:stateChanged", "notifier:published",
                "publisher:published", "alerts:weatherChanged",
            ])
        XCTAssertEqual(events.emitted, 3)
        // Delivery is over: the next emit is handed out at once again.
        events.emit(.weatherChanged)
        XCTAssertEqual(order.last, "alerts:weatherChanged")
        XCTAssertEqual(order.count, 7)
    }

    func testAHandlerWhoseOwnerIsGone_isNoLongerCalled() {
        let events = DaemonEvents()
        var log: Log? = Log("short-lived")
        var calls = 0
        events.on(.weatherChanged, log) { _ in calls += 1 }
        weak let gone = log
        log = nil
        events.emit(.weatherChanged)
        XCTAssertNil(gone, "the stream holds its handlers' owners weakly: the daemon owns its parts")
        XCTAssertEqual(calls, 0)
    }

    func testAMissingPart_registersNothing() {
        let events = DaemonEvents()
        let none: Log? = nil
        var calls = 0
        events.on(.weatherChanged, none) { _ in calls += 1 }
        events.emit(.weatherChanged)
        XCTAssertEqual(calls, 0)
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
