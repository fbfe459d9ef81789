/// Case and diacritic folding for matching names people type ("zurich" finds
/// "Zürich") without Foundation: Latin letters with marks fold to their base
/// letter, a few ligatures expand, and everything is lower-cased.
public enum TextFolding {
    public static func fold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                out.append(
                    Unicode.Scalar(
                        UInt8(ascii: "A")...UInt8(ascii: "Z") ~= UInt8(scalar.value)
                            ? UInt8(scalar.value) + 32 : UInt8(scalar.value)))
                continue
            }
            if let mapped = latinFolds[scalar.value] {
                out.append(contentsOf: mapped.unicodeScalars)
                continue
            }
            // Combining marks (U+0300–U+036F) vanish, so decomposed input folds too.
            if (0x300...0x36F).contains(scalar.value) { continue }
            for lower in scalar.properties.lowercaseMapping.unicodeScalars { out.append(lower) }
        }
        return String(out).trimmingSpaces()
    }

    /// A lowercase ASCII id part: letters and digits, runs of anything else as one `-`.
    public static func slug(_ text: String) -> String {
        var out = ""
        var pendingDash = false
        for scalar in fold(text).unicodeScalars {
            let isWordChar =
                scalar.isASCII
                && (("a"..."z").contains(scalar) || ("0"..."9").contains(scalar))
            if isWordChar {
                if pendingDash && !out.isEmpty { out += "-" }
                pendingDash = false
                out.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return out
    }

    private static let latinFolds: [UInt32: String] = {
        var table: [UInt32: String] = [:]
        let groups: [(String, String)] = [
            ("a", "àáâãäåāăąǎǻạảấầẩẫậắằẳẵặÀÁÂÃÄÅĀĂĄǍǺẠẢẤẦẨẪẬẮẰẲẴẶ"),
            ("c", "çćĉċčÇĆĈĊČ"), ("d", "ďđðĎĐÐ"),
            ("e", "èéêëēĕėęěẹẻẽếềểễệÈÉÊËĒĔĖĘĚẸẺẼẾỀỂỄỆ"),
            ("g", "ĝğġģǧĜĞĠĢǦ"), ("h", "ĥħḥĤĦḤ"),
            ("i", "ìíîïĩīĭįıǐỉịÌÍÎÏĨĪĬĮİǏỈỊ"), ("j", "ĵĴ"), ("k", "ķĶ"),
            ("l", "ĺļľŀłĹĻĽĿŁ"), ("n", "ñńņňŉÑŃŅŇ"),
            ("o", "òóôõöøōŏőơǒọỏốồổỗộớờởỡợÒÓÔÕÖØŌŎŐƠǑỌỎỐỒỔỖỘỚỜỞỠỢ"),
            ("r", "ŕŗřŔŖŘ"), ("s", "śŝşšșṣŚŜŞŠȘṢ"), ("t", "ţťŧțṭŢŤŦȚṬ"),
            ("u", "ùúûüũūŭůűųưǔụủứừửữựÙÚÛÜŨŪŬŮŰŲƯǓỤỦỨỪỬỮỰ"),
            ("w", "ŵẁẃẅŴẀẂẄ"), ("y", "ýÿŷỳỹỵÝŸŶỲỸỴ"), ("z", "źżžẓŹŻŽẒ"),
            ("ss", "ß"), ("ae", "æǽÆǼ"), ("oe", "œŒ"), ("th", "þÞ"),
            ("'", "ʻʼʿʾ‘’"),
        ]
        for (base, letters) in groups {
            for scalar in letters.unicodeScalars { table[scalar.value] = base }
        }
        return table
    }()
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    public func trimmingSpaces() -> String {
        // Nothing to trim, the usual case, told from the end bytes alone: a
        // character equal to one of these is that one byte.
        func isSpaceByte(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        if let first = utf8.first, let last = utf8.last, !isSpaceByte(first), !isSpaceByte(last) { return self }
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }),
            let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
