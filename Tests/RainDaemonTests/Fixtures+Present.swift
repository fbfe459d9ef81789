import RainCore
import TestSupport

extension Fixtures {
    /// The recorded answer `name`, made at `recordedAt`, as if it had been
    /// made at `now`: every number within 400 days of `recordedAt` (its
    /// times) moved by whole hours, so `recordedAt` falls in the hour of
    /// `now` (what the fixture server's `--present` does for the integration
    /// tests). raind takes a forecast whose times have all passed for
    /// outdated, so a test clock far from the recording needs this.
    static func bytes(_ name: String, recordedAt: Double, presentAt now: Double) throws -> [UInt8] {
        let shift = ((now - recordedAt) / 3600).rounded(.down) * 3600
        func moved(_ value: JSON) -> JSON {
            switch value {
            case .number(let number) where abs(number - recordedAt) <= 400 * 86_400: return .number(number + shift)
            case .array(let items): return .array(items.map(moved))
            case .object(let object): return .object(JSONObject(object.map { ($0.key, moved($0.value)) }))
            default: return value
            }
        }
        return Array(moved(try JSON(parsing: try bytes(name))).serialized().utf8)
    }
}
