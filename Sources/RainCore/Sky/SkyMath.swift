import Glibc

/// Trigonometry in degrees and the reduction of angles, as Meeus writes
/// his formulas (*Astronomical Algorithms*, 2nd ed., 1998): the code of
/// this folder can then be read against the book line by line.
enum SkyMath {
    static let radiansPerDegree = Double.pi / 180

    static func sine(_ degrees: Double) -> Double { sin(degrees * radiansPerDegree) }
    static func cosine(_ degrees: Double) -> Double { cos(degrees * radiansPerDegree) }
    static func tangent(_ degrees: Double) -> Double { tan(degrees * radiansPerDegree) }

    /// In degrees; the argument is clamped to -1...1 against rounding.
    static func arcsine(_ value: Double) -> Double { asin(min(1, max(-1, value))) / radiansPerDegree }

    /// In degrees; the argument is clamped to -1...1 against rounding.
    static func arccosine(_ value: Double) -> Double { acos(min(1, max(-1, value))) / radiansPerDegree }

    /// The angle of (x, y) in degrees, -180...180.
    static func arctangent(_ y: Double, _ x: Double) -> Double { atan2(y, x) / radiansPerDegree }

    /// `degrees` reduced to 0..<360.
    static func reduced(_ degrees: Double) -> Double {
        let remainder = degrees.truncatingRemainder(dividingBy: 360)
        return remainder < 0 ? remainder + 360 : remainder
    }

    /// `degrees` reduced to -180..<180.
    static func signed(_ degrees: Double) -> Double {
        let angle = reduced(degrees)
        return angle >= 180 ? angle - 360 : angle
    }

    /// `terms[0] + terms[1]·t + terms[2]·t² + …` (Horner's rule).
    static func polynomial(_ t: Double, _ terms: Double...) -> Double {
        terms.reversed().reduce(0) { $0 * t + $1 }
    }
}
