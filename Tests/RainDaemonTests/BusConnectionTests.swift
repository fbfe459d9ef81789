import CSystemd
import Glibc
import RainSystem
import XCTest

@testable import RainDaemon

final class BusConnectionTests: XCTestCase {
    func testCall_toBusDaemon_readsStringArrayReply() throws {
        let bus = try PrivateBus()
        let loop = try EventLoop()
        let connection = try BusConnection(address: bus.address, loop: loop)
        var names: [String] = []
        var failure: BusError?
        let slot = try connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "ListNames", read: { message throws(BusError) in try message.readStringArray() }
        ) { result in
            switch result {
            case .success(let value): names = value
            case .failure(let error): failure = error
            }
            loop.exit(code: 0)
        }
        XCTAssertTrue(try runLoop(loop, timeout: 3))
        XCTAssertNil(failure)
        XCTAssertTrue(names.contains("org.freedesktop.DBus"), "\(names)")
        _ = slot
    }

    func testGetAllProperties_readsVariantDictionary() throws {
        let bus = try PrivateBus()
        let loop = try EventLoop()
        let connection = try BusConnection(address: bus.address, loop: loop)
        var properties: BusProperties = [:]
        let slot = try connection.getAllProperties(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus"
        ) { result in
            if case .success(let value) = result { properties = value }
            loop.exit(code: 0)
        }
        XCTAssertTrue(try runLoop(loop, timeout: 3))
        // dbus-daemon publishes the interfaces it implements as an `as` property.
        guard case .array(let element, let items)? = properties["Interfaces"] else {
            return XCTFail("no Interfaces property in \(properties)")
        }
        XCTAssertEqual(element, "s")
        XCTAssertFalse(items.isEmpty)
        _ = slot
    }

    func testCall_toMissingService_failsWithServiceUnknown() throws {
        let bus = try PrivateBus()
        let loop = try EventLoop()
        let connection = try BusConnection(address: bus.address, loop: loop)
        var failure: BusError?
        let slot = try connection.call(
            destination: "io.raind.Nobody", path: "/", interface: "io.raind.Nobody", member: "Hello"
        ) { result in
            if case .failure(let error) = result { failure = error }
            loop.exit(code: 0)
        }
        XCTAssertTrue(try runLoop(loop, timeout: 3))
        XCTAssertEqual(failure?.isServiceMissing, true, "\(String(describing: failure))")
        _ = slot
    }

    func testSubscribe_receivesSignalArguments() throws {
        let bus = try PrivateBus()
        let loop = try EventLoop()
        let connection = try BusConnection(address: bus.address, loop: loop)
        var received: [BusValue] = []
        let match = try connection.subscribe(
            sender: nil, path: "/io/raind/Test", interface: "io.raind.Test", member: "Hello"
        ) { message in
            while let value = try? message.readValue() { received.append(value) }
            loop.exit(code: 0)
        }
        var ping: BusSlot?
        ping = try connection.ping { _ in
            XCTAssertEqual(
                try? bus.busctl([
                    "emit", "/io/raind/Test", "io.raind.Test", "Hello", "sa{sv}", "hi", "1", "Count", "u", "7",
                ]), 0)
        }
        XCTAssertTrue(try runLoop(loop, timeout: 3))
        XCTAssertEqual(
            received,
            [
                .string("hi"),
                .array(element: "{sv}", [.dictEntry(key: .string("Count"), value: .variant(.uint32(7)))]),
            ])
        _ = (match, ping)
    }

    func testCancelledSubscription_isNotCalled() throws {
        let bus = try PrivateBus()
        let loop = try EventLoop()
        let connection = try BusConnection(address: bus.address, loop: loop)
        var calls = 0
        let match = try connection.subscribe(
            sender: nil, path: "/io/raind/Test", interface: "io.raind.Test", member: "Hello"
        ) { _ in
            calls += 1
        }
        var settle: EventSource?
        let ping = try connection.ping { _ in
            match.cancel()
            XCTAssertEqual(try? bus.busctl(["emit", "/io/raind/Test", "io.raind.Test", "Hello"]), 0)
            settle = try? loop.timer(accuracy: 0.01) { loop.exit(code: 0) }
            settle?.arm(after: 0.3)
        }
        XCTAssertTrue(try runLoop(loop, timeout: 3))
        XCTAssertEqual(calls, 0)
        _ = (ping, settle)
    }

    func testOpenSystemBus_withNoDaemon_throwsSystemError() throws {
        let saved = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) }
        defer {
            if let saved { setenv("DBUS_SYSTEM_BUS_ADDRESS", saved, 1) } else { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
        }
        setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/raind-test-bus", 1)
        let loop = try EventLoop()
        XCTAssertThrowsError(try BusConnection(.system, loop: loop)) { error in
            guard case BusError.system(let system)? = error as? BusError else { return XCTFail("\(error)") }
            XCTAssertEqual(system.call, "sd_bus_open_system")
        }
    }

    func testAppend_thenRead_roundTripsNestedValues() throws {
        let bus = try PrivateBus()
        let loop = try EventLoop()
        let connection = try BusConnection(address: bus.address, loop: loop)
        let message = try connection.methodCall(
            destination: "io.raind.X", path: "/", interface: "io.raind.X", member: "Y")
        let values: [BusValue] = [
            .bool(true), .byte(3), .int16(-2), .uint16(2), .int32(-5), .uint32(5), .int64(-9), .uint64(9), .double(1.5),
            .string("zürich"), .objectPath("/a/b"), .signature("a{sv}"),
            .variant(.structure([.string("x"), .double(2)])),
            .array(element: "{sv}", [.dictEntry(key: .string("k"), value: .variant(.bool(false)))]),
            .array(element: "s", []),
        ]
        for value in values { try message.append(value) }
        // Sealing makes the message readable, as a received one is.
        XCTAssertGreaterThanOrEqual(sd_bus_message_seal(message.message, 1, 0), 0)
        XCTAssertEqual(message.signature, values.map(\.signature).joined())
        var read: [BusValue] = []
        while let value = try message.readValue() { read.append(value) }
        XCTAssertEqual(read, values)
    }
}
