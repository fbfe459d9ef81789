import RainSystem

/// A compiled gettext catalogue (`raind.mo`) checked before glibc maps it.
///
/// glibc reads a catalogue by mapping it and trusting its tables: a
/// truncated file kills the reader with SIGBUS, an offset past its end with
/// SIGSEGV, and a FIFO in its place blocks `open`. So every file gettext
/// could open for a locale (`candidates`) is read here first (non-blocking,
/// no symbolic link followed, a regular file of at most `maximumBytes`)
/// and its tables checked (`problem(in:)`); when one fails, that locale's
/// text stays English and the reader is told why (`Localization`).
public enum MessageCatalogue {
    /// No catalogue of raind's is near this: each holds some 60 KB.
    public static let maximumBytes = 4 << 20

    /// What is wrong with `bytes` as a catalogue glibc reads safely; nil
    /// when nothing is: the magic number (either byte order), major
    /// revision 0, and every table and string (with its NUL) inside the
    /// file, every hash entry naming a string there is.
    public static func problem(in bytes: [UInt8]) -> String? {
        guard bytes.count >= 28 else { return "\(bytes.count) bytes, shorter than a catalogue's header" }
        func word(_ offset: Int, swapped: Bool) -> Int {
            let value =
                UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
            return Int(swapped ? value.byteSwapped : value)
        }
        let swapped: Bool
        switch word(0, swapped: false) {
        case 0x9504_12de: swapped = false
        case 0xde12_0495: swapped = true
        default: return "no gettext catalogue (its first bytes are not the magic number)"
        }
        let read = { (offset: Int) in word(offset, swapped: swapped) }
        guard read(4) >> 16 == 0 else { return "revision \(read(4) >> 16), which raind does not read" }
        let count = read(8)
        let size = bytes.count
        func inside(_ offset: Int, _ length: Int) -> Bool {
            offset >= 0 && length >= 0 && length <= size && offset <= size - length
        }
        for (name, table) in [("original", read(12)), ("translation", read(16))] {
            guard count <= size / 8, inside(table, count * 8) else {
                return "the \(name) table (\(count) strings at \(table)) lies outside the \(size) bytes"
            }
            for index in 0..<count {
                let length = read(table + index * 8)
                let offset = read(table + index * 8 + 4)
                guard length < size, inside(offset, length + 1), bytes[offset + length] == 0 else {
                    return "\(name) string \(index) (\(length) bytes at \(offset)) lies outside the \(size) bytes"
                }
            }
        }
        let hashSize = read(20)
        let hashOffset = read(24)
        if hashSize > 0 {
            guard hashSize <= size / 4, inside(hashOffset, hashSize * 4) else {
                return "the hash table (\(hashSize) entries at \(hashOffset)) lies outside the \(size) bytes"
            }
            for index in 0..<hashSize where read(hashOffset + index * 4) > count {
                return "hash entry \(index) names string \(read(hashOffset + index * 4)) of \(count)"
            }
        }
        return nil
    }

    /// The file at `path` read as `problem(in:)` wants it: nil when it is
    /// absent (gettext goes on to the next), else what is wrong with it.
    public static func problem(at path: String) -> String?? {
        switch FileIO.readFile(path, limit: maximumBytes, followingLinks: false) {
        case .success(let bytes): return .some(problem(in: bytes))
        case .failure(let error) where error.errno == .noSuchFileOrDirectory || error.errno == .notADirectory:
            return nil
        case .failure(let error) where error.errno == .fileTooLarge:
            return .some("larger than the \(maximumBytes) bytes of a catalogue")
        case .failure(let error):
            return .some("\(error)")
        }
    }

    /// Every file gettext may open for the locale names `names` (a locale's
    /// `de_DE.UTF-8`, `LANGUAGE`'s entries), as glibc spells their variants:
    /// `LL[_CC][.codeset|.normalized][@modifier]` under
    /// `directory/…/LC_MESSAGES/domain.mo`.
    public static func candidates(directory: String, domain: String, names: [String]) -> [String] {
        var paths: [String] = []
        for name in names where !name.isEmpty && !name.contains("/") {
            var rest = Substring(name)
            var modifier: Substring?
            if let at = rest.firstIndex(of: "@") {
                modifier = rest[rest.index(after: at)...]
                rest = rest[..<at]
            }
            var codeset: Substring?
            if let dot = rest.firstIndex(of: ".") {
                codeset = rest[rest.index(after: dot)...]
                rest = rest[..<dot]
            }
            var territory: Substring?
            if let underscore = rest.firstIndex(of: "_") {
                territory = rest[rest.index(after: underscore)...]
                rest = rest[..<underscore]
            }
            let codesets = codeset.map { [".\($0)", "." + normalized($0), ""] } ?? [""]
            for withTerritory in [territory.map { "_\($0)" }, ""].compactMap({ $0 }) {
                for set in codesets {
                    for withModifier in [modifier.map { "@\($0)" }, ""].compactMap({ $0 }) {
                        let path = "\(directory)/\(rest)\(withTerritory)\(set)\(withModifier)/LC_MESSAGES/\(domain).mo"
                        if !paths.contains(path) { paths.append(path) }
                    }
                }
            }
        }
        return paths
    }

    /// A codeset as glibc normalizes it: letters lowercased, digits kept,
    /// the rest dropped, and "iso" before a codeset of digits only.
    static func normalized(_ codeset: Substring) -> String {
        let kept = String(codeset.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
        return kept.allSatisfy(\.isNumber) ? "iso" + kept : kept
    }
}
