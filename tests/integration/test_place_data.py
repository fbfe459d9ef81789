"""The place data's build from GeoNames' own dump files: scripts/geonames-extracts.py
turns them into the extracts, scripts/make-places.py builds places.bin from those,
and the real raind searches the result. The dump files here are a few lines in
GeoNames' formats (readme.txt of https://download.geonames.org/export/dump/)."""
import subprocess
import sys

from raindtest import ROOT

EXTRACTS = ROOT / "scripts" / "geonames-extracts.py"
MAKE_PLACES = ROOT / "scripts" / "make-places.py"


def geoname(gid, name, alternates, lat, lon, cc, admin1, population, zone):
    """One line of cities15000.txt: the 19 columns of the geoname table."""
    columns = [str(gid), name, name, ",".join(alternates), lat, lon, "P", "PPLC", cc, "", admin1,
               "", "", "", str(population), "", "42", zone, "2024-01-01"]
    return "\t".join(columns)


def country(iso, iso3, name, capital, population, continent):
    """One line of countryInfo.txt (19 columns)."""
    columns = [iso, iso3, "0", iso, name, capital, "1", str(population), continent, "", "", "", "",
               "", "", "", "0", "", ""]
    return "\t".join(columns)


def write_dump(directory):
    directory.mkdir()
    (directory / "cities15000.txt").write_text("\n".join([
        geoname(2988507, "Paris", ["Paname", "Parigi", "巴黎", "Paris"], "48.85341", "2.3488", "FR", "11",
                2138551, "Europe/Paris"),
        geoname(4717560, "Paris", [], "33.66094", "-95.55551", "US", "TX", 24171,
                "America/Chicago"),
        geoname(1850147, "Tokyo", ["Tokio", "東京"], "35.6895", "139.69171", "JP", "40", 8336599,
                "Asia/Tokyo"),
        geoname(999, "Nowhere", [], "0", "0", "FR", "11", 20000, ""),
    ]) + "\n", encoding="utf-8")
    (directory / "countryInfo.txt").write_text("\n".join([
        "# GeoNames country information",
        "#ISO\tISO3\tISO-Numeric\tfips\tCountry\tCapital\tArea(in sq km)\tPopulation\tContinent\t...",
        country("FR", "FRA", "France", "Paris", 66987244, "EU"),
        country("US", "USA", "United States", "Washington", 327167434, "NA"),
        country("JP", "JPN", "Japan", "Tokyo", 126529100, "AS"),
    ]) + "\n", encoding="utf-8")
    (directory / "admin1CodesASCII.txt").write_text("\n".join([
        "FR.11\tÎle-de-France\tIle-de-France\t3012874",
        "US.TX\tTexas\tTexas\t4736286",
        "JP.40\tTōkyō\tTokyo\t1850144",
    ]) + "\n", encoding="utf-8")


def run(*args):
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, timeout=120)


def test_extracts_from_the_dump_build_place_data_raind_searches(tmp_path, daemon_factory):
    dump, extracts, data = tmp_path / "dump", tmp_path / "extracts", tmp_path / "data"
    write_dump(dump)
    made = run(EXTRACTS, "--dump", dump, "--output", extracts)
    assert made.returncode == 0, made.stderr
    assert "3 places (1 without a name or time zone left out)" in made.stderr

    cities = (extracts / "cities15000.tsv").read_text(encoding="utf-8").splitlines()
    assert cities[0].startswith("# geonameid\tname")
    assert [line.split("\t")[0] for line in cities[1:]] == ["1850147", "2988507", "4717560"]
    paris = cities[2].split("\t")
    assert len(paris) == 9 and paris[8] == "Paname;Parigi"  # Latin script only, not the name itself
    assert "TX\tTexas\t\t4736286" in (extracts / "us_states.tsv").read_text(encoding="utf-8")
    assert "FR\t11\tIle-de-France" in (extracts / "admin1.tsv").read_text(encoding="utf-8")

    data.mkdir()
    built = run(MAKE_PLACES, "--source", extracts, "--output", data / "places.bin", "--tzdata", tmp_path / "none")
    assert built.returncode == 0, built.stderr
    assert "3 places" in built.stdout

    daemon = daemon_factory(extra_env={"RAIND_DATA_DIR": str(data)})
    found = daemon.client().call("SearchPlaces", {"query": "Parigi"})["parameters"]["candidates"]
    assert [(c["name"], c["region"], c["countryCode"]) for c in found] == [("Paris", "Ile-de-France", "FR")]
    found = daemon.client().call("SearchPlaces", {"query": "Paris, Texas"})["parameters"]["candidates"]
    assert found[0]["source"] == {"kind": "geonames", "id": "4717560"}
    found = daemon.client().call("SearchPlaces", {"query": "tokio"})["parameters"]["candidates"]
    assert found[0]["name"] == "Tokyo" and found[0]["timeZone"] == "Asia/Tokyo"


def test_missing_dump_file_says_where_to_get_it(tmp_path):
    (tmp_path / "dump").mkdir()
    made = run(EXTRACTS, "--dump", tmp_path / "dump", "--output", tmp_path / "out")
    assert made.returncode == 1
    assert "cities15000.txt is missing" in made.stderr and "download.geonames.org/export/dump" in made.stderr


def test_make_places_needs_a_source_directory(tmp_path):
    made = run(MAKE_PLACES, "--output", tmp_path / "places.bin")
    assert made.returncode == 2 and "--source" in made.stderr
    made = run(MAKE_PLACES, "--source", tmp_path, "--output", tmp_path / "places.bin")
    assert made.returncode == 1 and "geonames-extracts.py" in made.stderr
