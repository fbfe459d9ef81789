#!/usr/bin/env python3
"""Build data/places.bin, raind's embedded place data, from GeoNames extracts.

    scripts/make-places.py --source DIR [--tzdata FILE] [--output FILE]

Input: the tab-separated GeoNames extracts in DIR: cities15000.tsv,
countries.tsv, admin1.tsv, us_states.tsv. scripts/geonames-extracts.py
writes them from GeoNames' own dump files
(https://download.geonames.org/export/dump/; docs/PLACES.md, "Regenerating",
says how, and data/README.md which extracts the committed file was built
from). Time-zone links (old and new names of the same zone) come from
tzdata's `tzdata.zi` when it is present.

The output format is documented in docs/PLACES.md and read by
Sources/RainPlaces/PlaceFile.swift. All integers are little-endian. The
file is built to be used through mmap: fixed-size records, sorted indexes
searched in place, nothing to parse at start-up.

Name keys are folded here (case, diacritics, punctuation) with a per
character table that is stored in the file too, so the daemon folds a query
with exactly the same table and the two can never disagree.
"""

import argparse
import math
import os
import struct
import sys
import unicodedata
import zlib

MAGIC = b"RAINPLCS"
VERSION = 2

# The near-spelling index cuts every name key into parts separated by one
# byte (PlaceFile.nearParts/nearBounds are the Swift twins).
NEAR_MAX_LENGTH = 255
NEAR_MAX_PARTS = 4


def near_parts(length):
    """How many parts a key of `length` bytes is cut into."""
    return 2 if length <= 6 else 3 if length <= 10 else 4


def near_bounds(length, part):
    """Byte range of one part: one byte between parts, lengths within one."""
    parts = near_parts(length)
    usable = length - (parts - 1)
    return part * usable // parts + part, (part + 1) * usable // parts + part


# Letters NFKD does not decompose, folded the way RainCore's TextFolding does.
SPECIAL_FOLDS = {
    "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "ǽ": "ae", "Ǽ": "ae",
    "œ": "oe", "Œ": "oe", "þ": "th", "Þ": "th", "ø": "o", "Ø": "o",
    "ǿ": "o", "Ǿ": "o", "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ð": "d",
    "Ð": "d", "ħ": "h", "Ħ": "h", "ı": "i", "ŀ": "l", "Ŀ": "l", "ŧ": "t",
    "Ŧ": "t", "ŉ": "n", "ƒ": "f", "ƙ": "k", "ɗ": "d", "Ɗ": "d", "ɓ": "b",
    "Ɓ": "b", "ƴ": "y", "Ƴ": "y", "ŋ": "ng", "Ŋ": "ng", "ĸ": "k",
    "ɛ": "e", "Ɛ": "e", "ɔ": "o", "Ɔ": "o", "ǝ": "e", "Ǝ": "e", "ə": "e",
    "Ə": "e", "ʒ": "z", "Ʒ": "z",
}
# Apostrophes and okina-like marks vanish ("Xi'an" = "Xian").
APOSTROPHES = "'’‘ʻʼʿʾ`´"

# Names people use for countries beyond GeoNames' own (folded before use).
COUNTRY_ALIASES = {
    "US": ["USA", "U.S.", "U.S.A.", "United States of America", "America"],
    "GB": ["UK", "U.K.", "Great Britain", "Britain"],
    "NL": ["Netherlands", "Holland"],
    "CZ": ["Czech Republic"],
    "KR": ["Korea", "Republic of Korea"],
    "KP": ["DPRK"],
    "RU": ["Russian Federation"],
    "CI": ["Cote d'Ivoire", "Côte d'Ivoire"],
    "MM": ["Burma"],
    "CD": ["DRC", "DR Congo", "Congo-Kinshasa"],
    "CG": ["Congo", "Congo-Brazzaville"],
    "AE": ["UAE", "Emirates"],
    "VA": ["Vatican City", "Holy See"],
    "CV": ["Cape Verde"],
    "SZ": ["Swaziland"],
    "MK": ["Macedonia"],
    "TR": ["Türkiye", "Turkiye"],
    "TL": ["East Timor", "Timor-Leste"],
    "PS": ["Palestine"],
    "VN": ["Viet Nam"],
}

# Postal abbreviations of Canadian provinces and Australian states, which
# GeoNames codes with numbers ("London, ON", "Perth, WA").
ADMIN1_ABBREVIATIONS = {
    ("CA", "01"): "AB", ("CA", "02"): "BC", ("CA", "03"): "MB",
    ("CA", "04"): "NB", ("CA", "05"): "NL", ("CA", "07"): "NS",
    ("CA", "08"): "ON", ("CA", "09"): "PE", ("CA", "10"): "QC",
    ("CA", "11"): "SK", ("CA", "12"): "YT", ("CA", "13"): "NT",
    ("CA", "14"): "NU",
    ("AU", "01"): "ACT", ("AU", "02"): "NSW", ("AU", "03"): "NT",
    ("AU", "04"): "QLD", ("AU", "05"): "SA", ("AU", "06"): "TAS",
    ("AU", "07"): "VIC", ("AU", "08"): "WA",
}


def fold_char(ch):
    """The folded form of one character, before punctuation is applied."""
    if ch in APOSTROPHES:
        return ""
    if ch in SPECIAL_FOLDS:
        return SPECIAL_FOLDS[ch]
    if unicodedata.combining(ch):
        return ""
    decomposed = unicodedata.normalize("NFKD", ch)
    base = "".join(c for c in decomposed if not unicodedata.combining(c))
    if base != ch and base:
        return "".join(fold_char(c) if c != ch else c.lower() for c in base)
    return ch.lower()


def build_fold_table(texts):
    """Every non-ASCII character of the data and of the Latin blocks, folded."""
    chars = set()
    for text in texts:
        chars.update(c for c in text if ord(c) > 0x7F)
    for lo, hi in ((0x00C0, 0x024F), (0x0300, 0x036F), (0x1E00, 0x1EFF)):
        chars.update(chr(c) for c in range(lo, hi + 1))
    chars.update(APOSTROPHES)
    # Every character is stored, even one that folds to itself, so the daemon
    # never falls back to its own folding for a character of the data.
    return {ord(ch): fold_char(ch) for ch in sorted(chars)}


def make_key(text, table):
    """The search key of a name: folded, ASCII punctuation as single spaces.

    Mirrors PlaceKey.make in Sources/RainPlaces/PlaceKey.swift."""
    out = []
    for ch in text:
        code = ord(ch)
        if code < 0x80:
            if "A" <= ch <= "Z":
                out.append(ch.lower())
            elif ch.isalnum():
                out.append(ch)
            elif ch in APOSTROPHES:
                pass
            else:
                out.append(" ")
        elif code in table:
            out.append(table[code])
        else:
            out.append(ch.lower())
    # Only ASCII spaces separate words, as in the Swift twin.
    return " ".join(word for word in "".join(out).split(" ") if word)


def read_tsv(path):
    try:
        handle = open(path, encoding="utf-8")
    except FileNotFoundError:
        raise SystemExit(f"{path} is missing: --source names the directory of the GeoNames "
                         "extracts, which scripts/geonames-extracts.py writes (docs/PLACES.md)")
    with handle:
        for number, line in enumerate(handle, 1):
            if line.startswith("#") or not line.strip():
                continue
            yield number, line.rstrip("\n").split("\t")


def read_tz_links(path):
    """Groups of zone names that tzdata links together (Asia/Calcutta = Asia/Kolkata)."""
    parent = {}

    def find(name):
        while parent.setdefault(name, name) != name:
            name = parent[name]
        return name

    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                parts = line.split()
                if len(parts) == 3 and parts[0] == "L":
                    parent[find(parts[2])] = find(parts[1])
    groups = {}
    for name in list(parent):
        groups.setdefault(find(name), []).append(name)
    return list(groups.values())


class Strings:
    """A pool of UTF-8 strings; equal strings are stored once."""

    def __init__(self):
        self.data = bytearray()
        self.offsets = {}

    def add(self, text):
        raw = text.encode("utf-8")
        if len(raw) > 0xFFFF:
            raise SystemExit(f"string too long for the place file: {text[:40]}...")
        if raw not in self.offsets:
            self.offsets[raw] = len(self.data)
            self.data += raw
        return self.offsets[raw], len(raw)


def build_kd_tree(points):
    """An implicit k-d tree: node order such that the middle of each range is
    the splitting node of that range. Returns [(place index, axis)]."""
    order = list(range(len(points)))
    axes = [0] * len(points)

    def build(lo, hi):
        if hi - lo <= 0:
            return
        spans = []
        for axis in range(3):
            values = [points[i][axis] for i in order[lo:hi]]
            spans.append(max(values) - min(values))
        axis = spans.index(max(spans))
        order[lo:hi] = sorted(order[lo:hi], key=lambda i: (points[i][axis], i))
        mid = (lo + hi) // 2
        axes[mid] = axis
        build(lo, mid)
        build(mid + 1, hi)

    sys.setrecursionlimit(10000)
    build(0, len(points))
    return [(order[n], axes[n]) for n in range(len(points))]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", required=True,
                        help="directory of the GeoNames extracts (scripts/geonames-extracts.py writes them)")
    parser.add_argument("--tzdata", default="/usr/share/zoneinfo/tzdata.zi")
    parser.add_argument("--output", default=os.path.join(repo, "data", "places.bin"))
    args = parser.parse_args()

    countries = []  # (code, name, aliases)
    country_index = {}
    for number, row in read_tsv(os.path.join(args.source, "countries.tsv")):
        code, iso3, name = row[0], row[1], row[2]
        country_index[code] = len(countries)
        countries.append((code, name, [iso3] + COUNTRY_ALIASES.get(code, [])))

    admin1_names = {}
    for number, row in read_tsv(os.path.join(args.source, "admin1.tsv")):
        admin1_names[(row[0], row[1])] = row[2]
    for number, row in read_tsv(os.path.join(args.source, "us_states.tsv")):
        admin1_names[("US", row[0])] = row[1]

    places = []
    for number, row in read_tsv(os.path.join(args.source, "cities15000.tsv")):
        if len(row) != 9:
            raise SystemExit(f"cities15000.tsv line {number}: expected 9 columns, got {len(row)}")
        gid, name, lat, lon, cc, a1, pop, tz, alts = row
        if cc not in country_index:
            raise SystemExit(f"cities15000.tsv line {number}: unknown country {cc!r}")
        places.append({
            "id": int(gid), "name": name, "lat": float(lat), "lon": float(lon),
            "cc": cc, "admin1": a1, "pop": int(pop), "tz": tz,
            "alts": [a for a in alts.split(";") if a.strip()],
        })
    places.sort(key=lambda p: p["id"])

    texts = [p["name"] for p in places] + [a for p in places for a in p["alts"]]
    texts += [c[1] for c in countries] + [a for c in countries for a in c[2]]
    texts += list(admin1_names.values())
    fold_table = build_fold_table(texts)

    def key(text):
        return make_key(text, fold_table)

    strings = Strings()
    keys = Strings()  # the folded keys, apart so a typo scan reads only them

    # Divisions used by the places, in a stable order.
    admin1_list = sorted({(p["cc"], p["admin1"]) for p in places if p["admin1"]})
    admin1_index = {pair: n for n, pair in enumerate(admin1_list)}

    # Qualifier keys: what may follow a comma to name a division or a country.
    qualifiers = []  # (offset, length) into keys

    def add_qualifiers(texts):
        first = len(qualifiers)
        seen = set()
        for text in texts:
            k = key(text)
            if k and k not in seen:
                seen.add(k)
                qualifiers.append(keys.add(k))
        return first, len(qualifiers) - first

    country_records = bytearray()
    for code, name, aliases in countries:
        name_ref = strings.add(name)
        first, count = add_qualifiers([code, name] + aliases)
        country_records += struct.pack("<2sIHIH", code.encode("ascii"), name_ref[0], name_ref[1], first, count)

    admin1_records = bytearray()
    for cc, code in admin1_list:
        name = admin1_names.get((cc, code), "")
        name_ref = strings.add(name)
        texts = [f"{cc}-{code}"]
        if name:
            texts.append(name)
        if code.isalpha():  # "TX", "ZH", "ENG"; numeric codes alone would mislead
            texts.append(code)
        abbreviation = ADMIN1_ABBREVIATIONS.get((cc, code))
        if abbreviation:
            texts += [abbreviation, f"{cc}-{abbreviation}"]
        first, count = add_qualifiers(texts)
        admin1_records += struct.pack("<HIHIH", country_index[cc], name_ref[0], name_ref[1], first, count)

    zones = sorted({p["tz"] for p in places})
    zone_index = {z: n for n, z in enumerate(zones)}
    biggest = {}
    for n, p in enumerate(places):
        best = biggest.get(p["tz"])
        if best is None or p["pop"] > places[best]["pop"]:
            biggest[p["tz"]] = n
    zone_records = bytearray()
    for z in zones:
        ref = strings.add(z)
        zone_records += struct.pack("<IHI", ref[0], ref[1], biggest[z])

    aliases = {}
    for group in read_tz_links(args.tzdata):
        present = [z for z in group if z in zone_index]
        if not present:
            continue
        target = max(present, key=lambda z: places[biggest[z]]["pop"])
        for name in group:
            if name not in zone_index:
                aliases[name] = zone_index[target]
    alias_records = bytearray()
    for name in sorted(aliases, key=lambda s: s.encode("utf-8")):
        ref = strings.add(name)
        alias_records += struct.pack("<IHH", ref[0], ref[1], aliases[name])

    place_records = bytearray()
    entries = []  # (key bytes, alternate flag, place index)
    for n, p in enumerate(places):
        name_ref = strings.add(p["name"])
        a1 = admin1_index.get((p["cc"], p["admin1"]), 0xFFFF)
        place_records += struct.pack(
            "<IiiIIHHHH", p["id"], round(p["lat"] * 1e5), round(p["lon"] * 1e5), p["pop"],
            name_ref[0], name_ref[1], country_index[p["cc"]], a1, zone_index[p["tz"]])
        primary = key(p["name"])
        seen = {primary}
        if primary:
            entries.append((primary.encode("utf-8"), 0, n))
        for alt in p["alts"]:
            k = key(alt)
            if k and k not in seen:
                seen.add(k)
                entries.append((k.encode("utf-8"), 1, n))
    entries.sort(key=lambda e: (e[0], e[1], -places[e[2]]["pop"], e[2]))
    name_records = bytearray()
    for raw, alternate, n in entries:
        if len(raw) > 0xFF:
            raise SystemExit(f"name key too long: {raw[:40]!r}")
        if len(name_records) // 10 >= 1 << 24:
            raise SystemExit("too many names for the 3-byte near-spelling index")
        offset, length = keys.add(raw.decode("utf-8"))
        name_records += struct.pack("<IBBI", offset, length, alternate, n)

    # Near-spelling index: for each key length L and part i, the first name
    # record of every distinct key of that length, sorted by the bytes of
    # part i. A query within k edits of a key meets one of its k+1 parts
    # unchanged, shifted by at most k (docs/PLACES.md).
    first_of_key = {}
    for index, (raw, alternate, n) in enumerate(entries):
        first_of_key.setdefault(raw, index)
    groups = {}
    for raw, index in first_of_key.items():
        length = len(raw)
        if length < 3:
            continue
        for part in range(near_parts(length)):
            lo, hi = near_bounds(length, part)
            groups.setdefault((length, part), []).append((raw[lo:hi], index))
    near_records = bytearray()
    near_groups = bytearray()
    for length in range(NEAR_MAX_LENGTH + 1):
        for part in range(NEAR_MAX_PARTS):
            members = sorted(groups.get((length, part), []))
            near_groups += struct.pack("<II", len(near_records) // 3, len(members))
            for _, index in members:
                near_records += struct.pack("<I", index)[:3]

    qualifier_records = b"".join(struct.pack("<IH", o, l) for o, l in qualifiers)

    fold_records = bytearray()
    for code in sorted(fold_table):
        ref = strings.add(fold_table[code])
        fold_records += struct.pack("<IIH", code, ref[0], ref[1])

    radians = math.pi / 180
    points = []
    for p in places:
        la, lo = p["lat"] * radians, p["lon"] * radians
        points.append((math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la)))
    tree_records = bytearray()
    for n, axis in build_kd_tree(points):
        x, y, z = points[n]
        tree_records += struct.pack("<fffI", x, y, z, n | (axis << 30))

    sections = [
        (b"STRS", strings.data, 1),
        (b"KEYS", keys.data, 1),
        (b"PLAC", place_records, 28),
        (b"CTRY", country_records, 14),
        (b"ADM1", admin1_records, 14),
        (b"QUAL", qualifier_records, 6),
        (b"NAME", name_records, 10),
        (b"ZONE", zone_records, 10),
        (b"ZALI", alias_records, 8),
        (b"FOLD", fold_records, 10),
        (b"KDTR", tree_records, 16),
        (b"NEAR", near_records, 3),
        (b"NEAG", near_groups, 8),
    ]
    header_size = 32 + 16 * len(sections)
    body = bytearray()
    table = bytearray()
    for tag, data, size in sections:
        if len(data) % size:
            raise SystemExit(f"section {tag} is not a whole number of records")
        while (header_size + len(body)) % 8:
            body += b"\0"
        table += struct.pack("<4sIII", tag, header_size + len(body), len(data), len(data) // size)
        body += data
    total = header_size + len(body)
    checked = table + body
    header = struct.pack("<8sIIIIII", MAGIC, VERSION, header_size, total, len(sections),
                         zlib.crc32(checked) & 0xFFFFFFFF, 0)
    output = header + checked
    assert len(output) == total
    temporary = args.output + ".tmp"
    with open(temporary, "wb") as handle:
        handle.write(output)
    os.replace(temporary, args.output)
    print(f"{args.output}: {total} bytes, {len(places)} places, {len(entries)} names, "
          f"{len(countries)} countries, {len(admin1_list)} divisions, {len(zones)} zones, "
          f"{len(aliases)} zone aliases, {len(fold_table)} folded characters")


if __name__ == "__main__":
    main()
