import RainCore

/// An element of a document read by `XMLReader`: its name, attributes, the
/// character data directly inside it and its child elements, in document
/// order. Names keep their prefix (`cap:event`); lookups go by the local
/// name (`event`), which is how raind reads CAP and Atom whatever prefix a
/// producer binds their namespaces to.
public struct XMLElement: Equatable, Sendable {
    /// The name as written, with its prefix if any (`cap:areaDesc`).
    public var name: String
    /// The name without its prefix (`areaDesc`).
    public var localName: String
    public var attributes: [XMLAttribute]
    /// The character data directly inside the element (text and CDATA, with
    /// the references in it replaced), as written: whitespace is kept.
    public var text: String
    public var children: [XMLElement]
    /// Where the element's `<` lies in the document, in bytes.
    public var offset: Int

    public init(
        name: String, attributes: [XMLAttribute] = [], text: String = "", children: [XMLElement] = [], offset: Int = 0
    ) {
        self.name = name
        self.localName = Self.localName(of: name)
        self.attributes = attributes
        self.text = text
        self.children = children
        self.offset = offset
    }

    /// The child elements of that local name, in document order.
    public func children(_ localName: String) -> [XMLElement] {
        children.filter { $0.localName == localName }
    }

    /// The first child element of that local name.
    public func child(_ localName: String) -> XMLElement? {
        children.first { $0.localName == localName }
    }

    /// The value of the first attribute of that local name.
    public func attribute(_ localName: String) -> String? {
        attributes.first { $0.localName == localName }?.value
    }

    /// `text` without the XML whitespace (space, tab, line feed, carriage
    /// return) around it.
    public var trimmedText: String { Self.trimmed(text) }

    /// The trimmed text of the first child of that local name; nil when there
    /// is none or it holds only whitespace.
    public func childText(_ localName: String) -> String? {
        guard let child = child(localName) else { return nil }
        let text = child.trimmedText
        return text.isEmpty ? nil : text
    }

    /// `text` without XML whitespace at either end.
    public static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isWhitespace($0) }),
            let last = scalars.lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    static func localName(of name: String) -> String {
        guard let colon = name.utf8.lastIndex(of: UInt8(ascii: ":")) else { return name }
        return String(name[name.utf8.index(after: colon)...])
    }
}

/// An attribute of an `XMLElement`, its value with references replaced and
/// its tabs and line breaks read as spaces, as XML 1.0 normalizes them.
public struct XMLAttribute: Equatable, Sendable {
    /// The name as written (`xml:lang`).
    public var name: String
    /// The name without its prefix (`lang`).
    public var localName: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.localName = XMLElement.localName(of: name)
        self.value = value
    }
}
