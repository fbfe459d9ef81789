#!/usr/bin/env python3
"""Turn GeoNames' own dump files into the extracts scripts/make-places.py reads.

    scripts/geonames-extracts.py --dump DIR --output DIR

Input, in the --dump directory, from https://download.geonames.org/export/dump/
(CC BY 4.0, credit GeoNames; see data/README.md):

    cities15000.txt       unzipped from cities15000.zip
    countryInfo.txt
    admin1CodesASCII.txt

Output, in the --output directory: cities15000.tsv, countries.tsv,
admin1.tsv and us_states.tsv, tab-separated, each with a `#` header line
naming its columns (the columns are listed in docs/PLACES.md, "Regenerating").

Alternate names are kept only when every letter in them is Latin script
("München", "Peking"): the search folds names to plain letters, and a
name in another script could only be found by typing that script.
"""

import argparse
import os
import sys
import unicodedata

# Columns of the GeoNames "geoname" table (readme.txt of the dump).
GEONAMEID, NAME, ASCIINAME, ALTERNATENAMES, LATITUDE, LONGITUDE = 0, 1, 2, 3, 4, 5
COUNTRY_CODE, ADMIN1_CODE, POPULATION, TIMEZONE = 8, 10, 14, 17
GEONAME_COLUMNS = 19


def is_latin(text):
    """Whether every letter of `text` is a Latin letter; modifier letters
    such as the okina of "Hawaiʻi" go with any script."""
    return all(
        not ch.isalpha() or unicodedata.category(ch) == "Lm" or unicodedata.name(ch, "").startswith("LATIN")
        for ch in text
    )


def rows(path):
    """The tab-separated rows of a dump file, without its `#` comment lines."""
    try:
        handle = open(path, encoding="utf-8")
    except FileNotFoundError:
        raise SystemExit(
            f"{path} is missing: download it from https://download.geonames.org/export/dump/ "
            "(see docs/PLACES.md, \"Regenerating\")")
    with handle:
        for number, line in enumerate(handle, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            yield number, line.split("\t")


def clean(text):
    """A field as the extracts hold it: no tab, newline or list separator."""
    return " ".join(text.replace(";", " ").split())


def write(path, header, records):
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("# " + "\t".join(header) + "\n")
        for record in records:
            handle.write("\t".join(str(field) for field in record) + "\n")


def cities(path):
    """cities15000.tsv's records, sorted by geonameid, and how many were left out."""
    records = []
    skipped = 0
    for number, row in rows(path):
        if len(row) != GEONAME_COLUMNS:
            raise SystemExit(f"{path} line {number}: expected {GEONAME_COLUMNS} columns, got {len(row)}")
        name = clean(row[NAME])
        zone = row[TIMEZONE].strip()
        if not name or not zone:
            # make-places.py needs a name and a time zone for every place.
            skipped += 1
            continue
        alternates = []
        for alternate in row[ALTERNATENAMES].split(","):
            alternate = clean(alternate)
            if alternate and alternate != name and alternate not in alternates and is_latin(alternate):
                alternates.append(alternate)
        records.append((
            int(row[GEONAMEID]), name, row[LATITUDE], row[LONGITUDE], row[COUNTRY_CODE],
            row[ADMIN1_CODE], int(row[POPULATION] or 0), zone, ";".join(alternates)))
    records.sort(key=lambda record: record[0])
    return records, skipped


def countries(path):
    """countries.tsv's records: iso, iso3, name, capital, population, continent."""
    records = []
    for number, row in rows(path):
        if len(row) < 9:
            raise SystemExit(f"{path} line {number}: expected at least 9 columns, got {len(row)}")
        records.append((row[0], row[1], clean(row[4]), clean(row[5]), row[7] or "0", row[8]))
    return records


def divisions(path):
    """admin1.tsv's records (country, code, ASCII name) and us_states.tsv's (code, name, fips, geonameid)."""
    admin1 = []
    states = []
    for number, row in rows(path):
        if len(row) < 4 or "." not in row[0]:
            raise SystemExit(f"{path} line {number}: expected CC.CODE, name, asciiname, geonameid")
        country, code = row[0].split(".", 1)
        admin1.append((country, code, clean(row[2]) or clean(row[1])))
        if country == "US":
            # GeoNames codes US states by their postal abbreviation; it has no FIPS column.
            states.append((code, clean(row[1]), "", row[3]))
    return admin1, states


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", required=True, help="directory holding the GeoNames dump files")
    parser.add_argument("--output", required=True, help="directory to write the extracts to")
    args = parser.parse_args()

    city_records, skipped = cities(os.path.join(args.dump, "cities15000.txt"))
    country_records = countries(os.path.join(args.dump, "countryInfo.txt"))
    admin1_records, state_records = divisions(os.path.join(args.dump, "admin1CodesASCII.txt"))

    known = {record[0] for record in country_records}
    unknown = sorted({record[4] for record in city_records} - known)
    if unknown:
        raise SystemExit(f"countryInfo.txt lacks countries the cities use: {', '.join(unknown)}")

    os.makedirs(args.output, exist_ok=True)
    write(os.path.join(args.output, "cities15000.tsv"),
          ["geonameid", "name", "latitude", "longitude", "country_code", "admin1_code", "population",
           "timezone", "alternate_names"], city_records)
    write(os.path.join(args.output, "countries.tsv"),
          ["iso", "iso3", "name", "capital", "population", "continent"], country_records)
    write(os.path.join(args.output, "admin1.tsv"), ["country_code", "admin1_code", "name"], admin1_records)
    write(os.path.join(args.output, "us_states.tsv"), ["code", "name", "fips", "geonameid"], state_records)
    print(f"{args.output}: {len(city_records)} places ({skipped} without a name or time zone left out), "
          f"{len(country_records)} countries, {len(admin1_records)} divisions", file=sys.stderr)


if __name__ == "__main__":
    main()
