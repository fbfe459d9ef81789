import RainCore

/// Cleans text that came from a provider or from libcurl before raind keeps,
/// logs or sends it: a provider may echo the request (its path with the API
/// key, its query) in an error message or a header, and libcurl names the URL
/// in its own messages.
///
/// What goes: the key itself, raw and percent-encoded (in any case of hex
/// digits); the full request URL, replaced by its redacted form; every piece
/// of the URL that the redacted form lacks (`URLRedaction.scrub`); and the
/// URL's query, which may hold a key a site proxy put there. Control
/// characters are replaced too, as the text may reach a terminal.
public struct SecretScrubber: Sendable {
    public let secrets: [String]
    public let url: String
    public let redactedURL: String

    /// `secret`: the API key, when the request carries one.
    public init(secret: String?, url: String, redactedURL: String) {
        self.url = url
        self.redactedURL = redactedURL
        var secrets: [String] = []
        if let secret, !secret.isEmpty {
            secrets.append(secret)
            let encoded = Self.percentEncoded(secret)
            secrets += [encoded, encoded.lowercased()]
        }
        // A query may carry a key a site proxy needs (BaseURL=https://proxy/?key=...),
        // in the redacted URL too; it is never needed to understand an error.
        for query in [Self.query(of: url), Self.query(of: redactedURL)].compactMap({ $0 }) where !query.isEmpty {
            secrets.append(query)
        }
        // Longest first, so a secret is never half-replaced by a shorter one inside it.
        self.secrets = Array(Set(secrets)).sorted { $0.utf8.count > $1.utf8.count }
    }

    /// `text` without the secrets, and with control characters replaced: for
    /// one-line texts (error messages, names).
    public func scrub(_ text: String) -> String {
        removingSecrets(text).replacingControlCharacters()
    }

    /// `text` without the secrets, line breaks and all kept: for multi-line
    /// texts such as an alert's description.
    public func removingSecrets(_ text: String) -> String {
        var result = URLRedaction.scrub(text, url: url, redactedURL: redactedURL)
        for secret in secrets {
            result = URLRedaction.replacing(secret, with: URLRedaction.placeholder, in: result)
        }
        return result
    }

    /// Whether `text` holds a secret (used for values that cannot be edited,
    /// such as an ETag, which is then not kept at all).
    public func reveals(_ text: String) -> Bool {
        removingSecrets(text) != text
    }

    static func query(of url: String) -> String? {
        guard let mark = url.firstIndex(of: "?") else { return nil }
        let rest = url[url.index(after: mark)...]
        return String(rest.prefix { $0 != "#" })
    }

    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var out = String.UnicodeScalarView()
        for byte in text.utf8 {
            let unreserved =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "~")
            if unreserved {
                out.append(Unicode.Scalar(byte))
            } else {
                out.append("%")
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(out)
    }
}
