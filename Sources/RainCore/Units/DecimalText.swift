/// Fixed-point decimal text without Foundation: `String(describing: Double)`
/// switches to exponent notation (`1e-05`) and shows binary noise
/// (`0.30000000000000004`), neither of which belongs in a URL or on screen.
package enum DecimalText {
    /// `value` rounded half away from zero to `fractionDigits` places. With
    /// `trimmingZeros`, trailing zeros after the point (and a bare point) go.
    /// A result that rounds to zero never carries a minus sign (`-0.4` → `0`).
    /// Non-finite values give nil.
    package static func format(_ value: Double, fractionDigits: Int, trimmingZeros: Bool = true) -> String? {
        precondition((0...9).contains(fractionDigits), "fractionDigits \(fractionDigits) out of 0...9")
        var scale = 1.0
        for _ in 0..<fractionDigits { scale *= 10 }
        let scaled = (value * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled.isFinite, abs(scaled) < 9.0e15 else { return nil }
        let units = Int64(scaled)
        let magnitude = units.magnitude
        let divisor = UInt64(scale)
        var text = units < 0 ? "-" : ""
        text += String(magnitude / divisor)
        if fractionDigits > 0 {
            var fraction = String(magnitude % divisor)
            fraction = String(repeating: "0", count: fractionDigits - fraction.count) + fraction
            if trimmingZeros {
                while fraction.last == "0" { fraction.removeLast() }
            }
            if !fraction.isEmpty { text += "." + fraction }
        }
        return text
    }
}
