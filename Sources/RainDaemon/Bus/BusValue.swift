/// A D-Bus value, typed as on the wire. Used for method arguments, variants
/// (`v`) and property dictionaries (`a{sv}`), where the type is only known
/// at run time; fixed signatures are read with `BusMessage`'s typed readers.
public indirect enum BusValue: Equatable, Sendable, CustomStringConvertible {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case variant(BusValue)
    /// An array; `element` is the element's signature, so empty arrays keep their type.
    case array(element: String, [BusValue])
    /// One entry of a dictionary (`{kv}`), only valid as an array element.
    case dictEntry(key: BusValue, value: BusValue)
    case structure([BusValue])

    /// The D-Bus signature of this value.
    public var signature: String {
        switch self {
        case .byte: return "y"
        case .bool: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .variant: return "v"
        case .array(let element, _): return "a" + element
        case .dictEntry(let key, let value): return "{" + key.signature + value.signature + "}"
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        }
    }

    /// The value inside any number of variants.
    public var unwrapped: BusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var boolValue: Bool? {
        if case .bool(let value) = unwrapped { return value }
        return nil
    }

    public var stringValue: String? {
        switch unwrapped {
        case .string(let value), .objectPath(let value), .signature(let value): return value
        default: return nil
        }
    }

    /// Any floating or integer value as a Double.
    public var doubleValue: Double? {
        switch unwrapped {
        case .double(let value): return value
        case .byte(let value): return Double(value)
        case .int16(let value): return Double(value)
        case .uint16(let value): return Double(value)
        case .int32(let value): return Double(value)
        case .uint32(let value): return Double(value)
        case .int64(let value): return Double(value)
        case .uint64(let value): return Double(value)
        default: return nil
        }
    }

    /// Any unsigned or non-negative integer value that fits in UInt32.
    public var uint32Value: UInt32? {
        switch unwrapped {
        case .byte(let value): return UInt32(value)
        case .uint16(let value): return UInt32(value)
        case .uint32(let value): return value
        case .int16(let value): return UInt32(exactly: value)
        case .int32(let value): return UInt32(exactly: value)
        case .int64(let value): return UInt32(exactly: value)
        case .uint64(let value): return UInt32(exactly: value)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .byte(let v): return "\(v)"
        case .bool(let v): return "\(v)"
        case .int16(let v): return "\(v)"
        case .uint16(let v): return "\(v)"
        case .int32(let v): return "\(v)"
        case .uint32(let v): return "\(v)"
        case .int64(let v): return "\(v)"
        case .uint64(let v): return "\(v)"
        case .double(let v): return "\(v)"
        case .string(let v): return "\"\(v)\""
        case .objectPath(let v), .signature(let v): return v
        case .variant(let v): return "<\(v.signature) \(v)>"
        case .array(_, let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .dictEntry(let key, let value): return "\(key): \(value)"
        case .structure(let fields): return "(" + fields.map(\.description).joined(separator: ", ") + ")"
        }
    }
}

/// A property dictionary (`a{sv}`), keyed by property name, variants unwrapped.
public typealias BusProperties = [String: BusValue]
