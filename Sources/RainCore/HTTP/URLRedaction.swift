/// Keeps a URL's secret (an API key in its path or query) out of text meant for
/// logs, errors and events.
///
/// The caller knows where its secret sits and passes a redacted form of the URL
/// along with the real one; whatever differs between the two is the secret.
/// `scrub` removes it from text produced by code that saw the real URL, such as
/// libcurl's error messages.
public enum URLRedaction {
    /// What replaces a secret.
    public static let placeholder = "<redacted>"

    /// `text` with every occurrence of `url` replaced by `redactedURL`, and every
    /// piece of `url` that `redactedURL` lacks replaced by `placeholder`.
    ///
    /// Pieces are the runs between URL delimiters (`/ ? & = # ; , : @`) plus the
    /// whole stretch between the first and last difference, so both a single key
    /// and several separate ones are caught, whole or on their own.
    public static func scrub(_ text: String, url: String, redactedURL: String) -> String {
        guard url != redactedURL, !text.isEmpty else { return text }
        var result = replacing(url, with: redactedURL, in: text)
        var secrets: [String] = []
        if let middle = differingStretch(url, redactedURL) { secrets.append(middle) }
        let kept = Set(pieces(redactedURL))
        secrets += pieces(url).filter { !kept.contains($0) }
        // Longest first, so a key is not half-replaced by a piece of itself.
        for secret in Set(secrets).sorted(by: { $0.utf8.count > $1.utf8.count }) where secret.utf8.count >= 4 {
            result = replacing(secret, with: placeholder, in: result)
        }
        return result
    }

    /// The part of `url` between the common prefix and the common suffix it
    /// shares with `redacted`, if any.
    static func differingStretch(_ url: String, _ redacted: String) -> String? {
        let a = Array(url.utf8), b = Array(redacted.utf8)
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix,
            a[a.count - 1 - suffix] == b[b.count - 1 - suffix]
        { suffix += 1 }
        guard prefix < a.count - suffix else { return nil }
        return String(decoding: a[prefix..<(a.count - suffix)], as: UTF8.self)
    }

    static func pieces(_ url: String) -> [String] {
        let delimiters: Set<Character> = ["/", "?", "&", "=", "#", ";", ",", ":", "@"]
        return url.split(whereSeparator: { delimiters.contains($0) }).map(String.init)
    }

    /// Every non-overlapping occurrence of `target` in `text`, left to right, replaced.
    package static func replacing(_ target: String, with replacement: String, in text: String) -> String {
        let haystack = Array(text.utf8), needle = Array(target.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(haystack.count)
        var index = 0
        while index < haystack.count {
            if index + needle.count <= haystack.count, haystack[index..<(index + needle.count)].elementsEqual(needle) {
                output += replacement.utf8
                index += needle.count
            } else {
                output.append(haystack[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
