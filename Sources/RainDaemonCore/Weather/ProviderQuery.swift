import RainCore

/// Pieces of provider request paths, written without Foundation.
enum ProviderQuery {
    /// Decimals of the coordinates sent upstream: 2, a grid of 0.01°
    /// (about 1.1 km north-south, less east-west away from the equator;
    /// docs/DEPLOYMENT-PROXY.md). Finer than the providers' weather models,
    /// coarse enough that machines near each other ask the same question,
    /// which a site proxy answers from one cache entry, and that the provider
    /// learns less about where each machine is.
    public static let gridDigits = 2

    /// A coordinate on the request grid (`gridDigits` decimals, rounded half
    /// away from zero), trailing zeros dropped: `52.22`, `-122.42`, `6.9`.
    /// Never exponent notation.
    static func coordinate(_ degrees: Double) -> String {
        guard let text = DecimalText.format(degrees, fractionDigits: gridDigits) else {
            preconditionFailure("coordinate \(degrees) is not a finite number; locations are validated on entry")
        }
        return text
    }

    /// `text` with every byte outside RFC 3986's unreserved set percent-encoded,
    /// so an API key can sit in a path segment whatever it holds.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }
}
