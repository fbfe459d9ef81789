/// The place data file (`places.bin`, written by scripts/make-places.py),
/// read in place through a read-only mapping.
///
/// Layout (all integers little-endian, documented in docs/PLACES.md):
/// a 32-byte header (magic `RAINPLCS`, version, header size, file size,
/// section count, CRC-32 of everything after the header), a table of
/// sections (tag, offset, length, record count), then the sections.
/// `init` checks the whole file once — magic, sizes, checksum and every
/// cross reference — so that later reads need no checks and cannot leave
/// the mapping; then it gives the pages back to the kernel.
final class PlaceFile {
    static let magic: [UInt8] = Array("RAINPLCS".utf8)
    static let version: UInt32 = 2
    static let headerSize = 32
    static let noDivision = 0xFFFF

    /// One section of the file: `count` records of `recordSize` bytes from `offset`.
    struct Section {
        var offset: Int
        var length: Int
        var count: Int
    }

    let path: String
    private let file: MappedFile
    private let base: UnsafeRawPointer

    let strings: Section
    let keys: Section
    let places: Section
    let countries: Section
    let divisions: Section
    let qualifiers: Section
    let names: Section
    let zones: Section
    let zoneAliases: Section
    let folds: Section
    let tree: Section
    let nearEntries: Section
    let nearGroups: Section

    init(path: String) throws {
        self.path = path
        file = try MappedFile(path: path)
        let bytes = file.bytes
        // A successful mmap of a non-empty file has a base address.
        base = bytes.baseAddress!
        func fail(_ problem: String) -> PlaceDataError { PlaceDataError(path: path, problem: problem) }

        guard bytes.count >= PlaceFile.headerSize, Array(bytes[0..<8]) == PlaceFile.magic else {
            throw fail("not a raind place file (bad magic number)")
        }
        let version = bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
        guard version == PlaceFile.version else {
            throw fail("format version \(version), this raind reads version \(PlaceFile.version)")
        }
        let headerSize = Int(bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
        let totalSize = Int(bytes.loadUnaligned(fromByteOffset: 16, as: UInt32.self).littleEndian)
        let sectionCount = Int(bytes.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian)
        let checksum = bytes.loadUnaligned(fromByteOffset: 24, as: UInt32.self).littleEndian
        guard totalSize == bytes.count else {
            throw fail("truncated or padded: header says \(totalSize) bytes, file has \(bytes.count)")
        }
        guard sectionCount < 64, headerSize == PlaceFile.headerSize + 16 * sectionCount,
            headerSize <= bytes.count
        else { throw fail("bad section table (\(sectionCount) sections, header \(headerSize) bytes)") }
        let actual = CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[PlaceFile.headerSize...]))
        guard actual == checksum else {
            throw fail("checksum mismatch (stored \(hex(checksum)), computed \(hex(actual))): the file is damaged")
        }

        var table: [String: Section] = [:]
        for index in 0..<sectionCount {
            let at = PlaceFile.headerSize + 16 * index
            let tag = String(decoding: bytes[at..<at + 4], as: UTF8.self)
            let offset = Int(bytes.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self).littleEndian)
            let length = Int(bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self).littleEndian)
            let count = Int(bytes.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self).littleEndian)
            guard offset >= headerSize, offset <= bytes.count, length <= bytes.count - offset else {
                throw fail("section \(tag) lies outside the file")
            }
            table[tag] = Section(offset: offset, length: length, count: count)
        }
        func section(_ tag: String, recordSize: Int) throws -> Section {
            guard let found = table[tag] else { throw fail("section \(tag) is missing") }
            guard found.length == found.count * recordSize else {
                throw fail("section \(tag): \(found.length) bytes do not hold \(found.count) records of \(recordSize)")
            }
            return found
        }
        strings = try section("STRS", recordSize: 1)
        keys = try section("KEYS", recordSize: 1)
        places = try section("PLAC", recordSize: PlaceFile.placeSize)
        countries = try section("CTRY", recordSize: 14)
        divisions = try section("ADM1", recordSize: 14)
        qualifiers = try section("QUAL", recordSize: 6)
        names = try section("NAME", recordSize: 10)
        zones = try section("ZONE", recordSize: 10)
        zoneAliases = try section("ZALI", recordSize: 8)
        folds = try section("FOLD", recordSize: 10)
        tree = try section("KDTR", recordSize: 16)
        nearEntries = try section("NEAR", recordSize: 3)
        nearGroups = try section("NEAG", recordSize: 8)
        guard nearGroups.count == (PlaceFile.nearMaximumLength + 1) * PlaceFile.nearMaximumParts else {
            throw fail("the near-spelling index has \(nearGroups.count) groups")
        }
        guard tree.count == places.count else {
            throw fail("the spatial index holds \(tree.count) places, the place table \(places.count)")
        }
        try validateReferences()
        file.dropResidentPages()
    }

    /// Gives the mapped pages back to the kernel (see `MappedFile`).
    func dropResidentPages() { file.dropResidentPages() }

    // MARK: Raw reads (offsets already checked by init)

    @inline(__always) func u8(_ at: Int) -> Int { Int(base.load(fromByteOffset: at, as: UInt8.self)) }
    @inline(__always) func u16(_ at: Int) -> Int {
        Int(base.loadUnaligned(fromByteOffset: at, as: UInt16.self).littleEndian)
    }
    @inline(__always) func u32(_ at: Int) -> Int {
        Int(base.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
    }
    @inline(__always) func i32(_ at: Int) -> Int {
        Int(Int32(bitPattern: base.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian))
    }
    @inline(__always) func f32(_ at: Int) -> Float {
        Float(bitPattern: base.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
    }

    /// A string of the `STRS` pool.
    func string(offset: Int, length: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(start: base + strings.offset + offset, count: length), as: UTF8.self)
    }

    /// The bytes of a key of the `KEYS` pool.
    @inline(__always) func key(offset: Int, length: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + keys.offset + offset, count: length)
    }

    // MARK: Places: geonameid u32, latitude i32 (1e-5 °), longitude i32, population u32,
    // name offset u32, name length u16, country u16, division u16 (0xFFFF: none), zone u16

    static let placeSize = 28
    @inline(__always) func placeAt(_ index: Int) -> Int { places.offset + index * PlaceFile.placeSize }
    func placeID(_ index: Int) -> Int { u32(placeAt(index)) }
    func placeLatitude(_ index: Int) -> Double { Double(i32(placeAt(index) + 4)) / 1e5 }
    func placeLongitude(_ index: Int) -> Double { Double(i32(placeAt(index) + 8)) / 1e5 }
    func placePopulation(_ index: Int) -> Int { u32(placeAt(index) + 12) }
    func placeName(_ index: Int) -> String {
        string(offset: u32(placeAt(index) + 16), length: u16(placeAt(index) + 20))
    }
    func placeCountry(_ index: Int) -> Int { u16(placeAt(index) + 22) }
    /// The division index, or nil when GeoNames names none.
    func placeDivision(_ index: Int) -> Int? {
        let division = u16(placeAt(index) + 24)
        return division == PlaceFile.noDivision ? nil : division
    }
    func placeZone(_ index: Int) -> Int { u16(placeAt(index) + 26) }

    // MARK: Countries: code 2 bytes, name offset u32, length u16, first qualifier u32, count u16

    func countryCode(_ index: Int) -> String {
        let at = countries.offset + index * 14
        return String(decoding: UnsafeRawBufferPointer(start: base + at, count: 2), as: UTF8.self)
    }
    func countryName(_ index: Int) -> String {
        let at = countries.offset + index * 14
        return string(offset: u32(at + 2), length: u16(at + 6))
    }
    func countryQualifiers(_ index: Int) -> Range<Int> {
        let at = countries.offset + index * 14
        return u32(at + 8)..<u32(at + 8) + u16(at + 12)
    }

    // MARK: Divisions: country u16, name offset u32, length u16, first qualifier u32, count u16

    func divisionName(_ index: Int) -> String {
        let at = divisions.offset + index * 14
        return string(offset: u32(at + 2), length: u16(at + 6))
    }
    func divisionQualifiers(_ index: Int) -> Range<Int> {
        let at = divisions.offset + index * 14
        return u32(at + 8)..<u32(at + 8) + u16(at + 12)
    }

    /// A qualifier key: a folded name, code or alias of a country or division.
    func qualifierKey(_ index: Int) -> UnsafeRawBufferPointer {
        let at = qualifiers.offset + index * 6
        return key(offset: u32(at), length: u16(at + 4))
    }

    // MARK: Names, sorted by key: key offset u32, key length u8, alternate u8, place u32

    func nameKey(_ index: Int) -> UnsafeRawBufferPointer {
        let at = names.offset + index * 10
        return key(offset: u32(at), length: u8(at + 4))
    }
    func nameKeyOffset(_ index: Int) -> Int { u32(names.offset + index * 10) }
    func nameIsAlternate(_ index: Int) -> Bool { u8(names.offset + index * 10 + 5) != 0 }
    func namePlace(_ index: Int) -> Int { u32(names.offset + index * 10 + 6) }

    // MARK: Zones, sorted by name: name offset u32, length u16, most populous place u32

    func zoneName(_ index: Int) -> String {
        let at = zones.offset + index * 10
        return string(offset: u32(at), length: u16(at + 4))
    }
    func zoneMostPopulous(_ index: Int) -> Int { u32(zones.offset + index * 10 + 6) }
    /// Zone aliases, sorted by name: name offset u32, length u16, zone u16.
    func zoneAliasName(_ index: Int) -> String {
        let at = zoneAliases.offset + index * 8
        return string(offset: u32(at), length: u16(at + 4))
    }
    func zoneAliasTarget(_ index: Int) -> Int { u16(zoneAliases.offset + index * 8 + 6) }

    // MARK: Folding table, sorted by scalar: scalar u32, folded offset u32, length u16

    /// The folded form of a non-ASCII scalar as the generator folded it, or nil.
    func fold(_ scalar: UInt32) -> UnsafeRawBufferPointer? {
        var low = 0
        var high = folds.count
        while low < high {
            let mid = (low + high) / 2
            let at = folds.offset + mid * 10
            let value = UInt32(u32(at))
            if value == scalar {
                return UnsafeRawBufferPointer(start: base + strings.offset + u32(at + 4), count: u16(at + 8))
            }
            if value < scalar { low = mid + 1 } else { high = mid }
        }
        return nil
    }

    // MARK: k-d tree nodes: x, y, z f32 (unit vector), place u32 | split axis << 30

    func treeNode(_ index: Int) -> (x: Float, y: Float, z: Float, place: Int, axis: Int) {
        let at = tree.offset + index * 16
        let packed = u32(at + 12)
        return (f32(at), f32(at + 4), f32(at + 8), packed & 0x3FFF_FFFF, packed >> 30)
    }

    // MARK: Near-spelling index: per (key length, part), first name records of distinct keys
    // (u24), sorted by that part's bytes; groups: first entry u32, count u32

    /// Longest key the near-spelling index covers, and its most parts per key.
    static let nearMaximumLength = 255
    static let nearMaximumParts = 4

    /// How many parts a key of `length` bytes is cut into (make-places.py's `near_parts`).
    static func nearParts(length: Int) -> Int { length <= 6 ? 2 : length <= 10 ? 3 : 4 }

    /// The byte range of one part: one byte lies between two parts, so that
    /// swapping two neighbouring letters changes at most one part.
    static func nearBounds(length: Int, part: Int) -> Range<Int> {
        let parts = nearParts(length: length)
        let usable = length - (parts - 1)
        return part * usable / parts + part..<(part + 1) * usable / parts + part
    }

    /// The index entries of keys `length` bytes long, sorted by their part `part`.
    func nearGroup(length: Int, part: Int) -> Range<Int> {
        let at = nearGroups.offset + (length * PlaceFile.nearMaximumParts + part) * 8
        return u32(at)..<u32(at) + u32(at + 4)
    }

    /// The name record (the first of its key) of an index entry.
    @inline(__always) func nearName(_ entry: Int) -> Int {
        let at = nearEntries.offset + entry * 3
        return u16(at) | u8(at + 2) << 16
    }

    // MARK: Validation

    private func validateReferences() throws {
        func fail(_ problem: String) -> PlaceDataError { PlaceDataError(path: path, problem: problem) }
        func checkString(_ offset: Int, _ length: Int, _ what: String) throws {
            guard offset + length <= strings.length else { throw fail("\(what): string outside the pool") }
        }
        func checkKey(_ offset: Int, _ length: Int, _ what: String) throws {
            guard offset + length <= keys.length else { throw fail("\(what): key outside the pool") }
        }
        for index in 0..<qualifiers.count {
            let at = qualifiers.offset + index * 6
            try checkKey(u32(at), u16(at + 4), "qualifier \(index)")
        }
        for index in 0..<countries.count {
            let at = countries.offset + index * 14
            try checkString(u32(at + 2), u16(at + 6), "country \(index)")
            guard countryQualifiers(index).upperBound <= qualifiers.count else {
                throw fail("country \(index): qualifiers out of range")
            }
        }
        for index in 0..<divisions.count {
            let at = divisions.offset + index * 14
            try checkString(u32(at + 2), u16(at + 6), "division \(index)")
            guard u16(at) < countries.count, divisionQualifiers(index).upperBound <= qualifiers.count else {
                throw fail("division \(index): country or qualifiers out of range")
            }
        }
        var previousID = -1
        for index in 0..<places.count {
            let at = placeAt(index)
            try checkString(u32(at + 16), u16(at + 20), "place \(index)")
            let division = u16(at + 24)
            guard placeCountry(index) < countries.count, placeZone(index) < zones.count,
                division == PlaceFile.noDivision || division < divisions.count
            else { throw fail("place \(index): country, division or zone out of range") }
            guard abs(i32(at + 4)) <= 9_000_000, abs(i32(at + 8)) <= 18_000_000 else {
                throw fail("place \(index): coordinates out of range")
            }
            guard placeID(index) > previousID else { throw fail("places are not sorted by geonameid") }
            previousID = placeID(index)
        }
        var previous: UnsafeRawBufferPointer?
        for index in 0..<names.count {
            let at = names.offset + index * 10
            try checkKey(u32(at), u8(at + 4), "name \(index)")
            guard namePlace(index) < places.count else { throw fail("name \(index): place out of range") }
            let current = nameKey(index)
            if let previous, PlaceKey.compare(previous, current) > 0 {
                throw fail("name index is not sorted at entry \(index)")
            }
            previous = current
        }
        var previousZone = ""
        for index in 0..<zones.count {
            let at = zones.offset + index * 10
            try checkString(u32(at), u16(at + 4), "zone \(index)")
            guard zoneMostPopulous(index) < places.count else { throw fail("zone \(index): place out of range") }
            let name = zoneName(index)
            guard index == 0 || PlaceKey.utf8Less(previousZone, name) else { throw fail("zones are not sorted") }
            previousZone = name
        }
        var previousAlias = ""
        for index in 0..<zoneAliases.count {
            let at = zoneAliases.offset + index * 8
            try checkString(u32(at), u16(at + 4), "zone alias \(index)")
            guard zoneAliasTarget(index) < zones.count else { throw fail("zone alias \(index): zone out of range") }
            let name = zoneAliasName(index)
            guard index == 0 || PlaceKey.utf8Less(previousAlias, name) else {
                throw fail("zone aliases are not sorted")
            }
            previousAlias = name
        }
        var previousScalar = -1
        for index in 0..<folds.count {
            let at = folds.offset + index * 10
            try checkString(u32(at + 4), u16(at + 8), "folding entry \(index)")
            guard u32(at) > previousScalar else { throw fail("folding table is not sorted") }
            previousScalar = u32(at)
        }
        for group in 0..<nearGroups.count {
            let range = nearGroup(length: group / PlaceFile.nearMaximumParts, part: group % PlaceFile.nearMaximumParts)
            guard range.upperBound <= nearEntries.count else { throw fail("near-spelling group \(group) out of range") }
        }
        for entry in 0..<nearEntries.count where nearName(entry) >= names.count {
            throw fail("near-spelling entry \(entry): name out of range")
        }
        for index in 0..<tree.count {
            let node = treeNode(index)
            guard node.place < places.count, node.axis < 3, node.x.isFinite, node.y.isFinite, node.z.isFinite else {
                throw fail("spatial index node \(index) is invalid")
            }
        }
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
