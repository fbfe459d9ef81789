import CSystemd

/// A signal subscription or a pending method call on a `BusConnection`.
/// Releasing it (or `cancel()`) removes the match (sd-bus sends RemoveMatch
/// without waiting) or forgets the pending call: its handler is not called again.
public final class BusSlot {
    private var slot: OpaquePointer?
    private let box: BusCallbackBox

    init(slot: OpaquePointer, box: BusCallbackBox) {
        self.slot = slot
        self.box = box
    }

    deinit { cancel() }

    /// Removes the match or forgets the call (sd_bus_slot_unref). Safe from
    /// inside the slot's own handler: sd-bus holds a reference while it calls it.
    public func cancel() {
        guard let slot else { return }
        sd_bus_slot_unref(slot)
        self.slot = nil
    }

    public var isActive: Bool { slot != nil }
}

/// The Swift handlers behind one sd-bus slot; its userdata. The `BusSlot`
/// keeps it alive as long as sd-bus may call it.
final class BusCallbackBox {
    let handler: (BusMessage) -> Void
    /// For matches: told once whether the bus accepted the match (AddMatch reply).
    let installed: ((BusError?) -> Void)?

    init(handler: @escaping (BusMessage) -> Void, installed: ((BusError?) -> Void)? = nil) {
        self.handler = handler
        self.installed = installed
    }

    var opaque: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> BusCallbackBox? {
        guard let userdata else { return nil }
        return Unmanaged<BusCallbackBox>.fromOpaque(userdata).takeUnretainedValue()
    }

    /// sd_bus_message_handler_t for signals and replies. Returns 0 so that every
    /// other match on the same signal still sees it.
    static let messageHandler: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let box = BusCallbackBox.from(userdata) else { return 0 }
        // The handler may release the slot (and so the box) while it runs.
        withExtendedLifetime(box) { box.handler(BusMessage(retaining: message)) }
        return 0
    }

    /// sd_bus_message_handler_t for the AddMatch reply of sd_bus_add_match_async.
    /// Having one keeps sd-bus from closing the connection when a match is refused.
    static let installHandler: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let box = BusCallbackBox.from(userdata) else { return 0 }
        withExtendedLifetime(box) { box.installed?(BusMessage(retaining: message).error) }
        return 0
    }
}
