"""The package is reproducible: the same commit built in another directory
gives the same .deb, byte for byte (no build path compiled in); so is the
Plasma applet's, built beside it."""
import hashlib
import os
import pathlib
import shutil
import subprocess

import pytest

from sdtest import ROOT, WORK, note, run


def digest(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def elf_sections(path):
    """Each section of an ELF file with the digest of its bytes (readelf's table)."""
    data = pathlib.Path(path).read_bytes()
    table = subprocess.run(["readelf", "-W", "-S", str(path)], capture_output=True, text=True).stdout
    sections = {}
    for line in table.splitlines():
        fields = line.replace("[ ", "[").split()
        if len(fields) >= 6 and fields[0].startswith("[") and fields[0] != "[Nr]":
            name, offset, size = fields[1], int(fields[4], 16), int(fields[5], 16)
            sections[name] = (size, hashlib.sha256(data[offset:offset + size]).hexdigest()[:12])
    return sections


def differences(first, second, scratch):
    """What differs between two .debs: control and data members by file, and
    in each differing ELF file the sections that differ."""
    trees = []
    for n, deb in enumerate((first, second)):
        tree = scratch / f"tree-{n}"
        run(["dpkg-deb", "-R", str(deb), str(tree)])
        trees.append(tree)
    found = []
    names = sorted({p.relative_to(t).as_posix() for t in trees for p in t.rglob("*") if p.is_file()})
    for name in names:
        paths = [t / name for t in trees]
        if not all(p.exists() for p in paths):
            found.append(f"{name}: only in {'the first' if paths[0].exists() else 'the second'}")
            continue
        if digest(paths[0]) == digest(paths[1]):
            continue
        found.append(f"{name}: {paths[0].stat().st_size} and {paths[1].stat().st_size} bytes")
        if paths[0].read_bytes()[:4] == b"\x7fELF":
            a, b = elf_sections(paths[0]), elf_sections(paths[1])
            for section in sorted(set(a) | set(b)):
                if a.get(section) != b.get(section):
                    found.append(f"  section {section}: {a.get(section)} and {b.get(section)}")
    return found


def test_same_commit_elsewhere_builds_the_same_package(deb):
    if subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                      text=True).stdout.strip():
        pytest.skip("the checkout has uncommitted changes: the .deb under test is not the commit's")
    clone = WORK / "reproducible" / "elsewhere-raind"
    if clone.parent.exists():
        shutil.rmtree(clone.parent)
    clone.parent.mkdir(parents=True)
    run(["git", "clone", "--quiet", str(ROOT), str(clone)])
    result = subprocess.run([str(clone / "scripts" / "package")], cwd=clone, capture_output=True, text=True,
                            timeout=3600, env={**os.environ, "RAIND_PACKAGE_DIR": str(clone / "build-package")})
    assert result.returncode == 0, result.stderr[-4000:]
    again = pathlib.Path(result.stdout.strip().splitlines()[-1])
    # --- gnome-shell-extension-raind: the extension's package, built beside each, the same too.
    gnome = [sorted(path.parent.glob("gnome-shell-extension-raind_*_all.deb")) for path in (pathlib.Path(deb), again)]
    assert all(gnome), f"no gnome-shell-extension-raind .deb beside {deb} or {again}"
    assert digest(gnome[0][-1]) == digest(gnome[1][-1]), \
        "gnome-shell-extension-raind differs: " + "\n".join(differences(gnome[0][-1], gnome[1][-1], clone.parent))
    # --- end of gnome-shell-extension-raind
    digests = {path: digest(path) for path in (pathlib.Path(deb), again)}
    for path, value in digests.items():
        note(f"  sha256 {value}  {path}")
    if len(set(digests.values())) != 1:
        # Kept for a person to compare (diffoscope), with what differs in the note and the failure.
        kept = WORK / "reproducible-mismatch"
        shutil.rmtree(kept, ignore_errors=True)
        kept.mkdir(parents=True)
        shutil.copy(deb, kept / "here.deb")
        shutil.copy(again, kept / "elsewhere.deb")
        found = differences(kept / "here.deb", kept / "elsewhere.deb", kept)
        note("\n".join(["  differs:"] + [f"    {line}" for line in found]))
        shutil.rmtree(clone.parent)
        pytest.fail("the package built elsewhere differs (kept in " + str(kept) + "):\n" + "\n".join(found))
    # --- KDE Plasma applet: plasma-applet-raind, written beside each raind .deb ---
    plasma_name = pathlib.Path(deb).name.replace("raind_", "plasma-applet-raind_", 1)
    plasma = [pathlib.Path(deb).parent / plasma_name, again.parent / plasma_name]
    plasma_digests = {path: digest(path) for path in plasma}
    for path, value in plasma_digests.items():
        note(f"  sha256 {value}  {path}")
    if len(set(plasma_digests.values())) != 1:
        kept = WORK / "reproducible-mismatch-plasma"
        shutil.rmtree(kept, ignore_errors=True)
        kept.mkdir(parents=True)
        shutil.copy(plasma[0], kept / "here.deb")
        shutil.copy(plasma[1], kept / "elsewhere.deb")
        found = differences(kept / "here.deb", kept / "elsewhere.deb", kept)
        shutil.rmtree(clone.parent)
        pytest.fail("the Plasma applet's package built elsewhere differs (kept in " + str(kept) + "):\n"
                    + "\n".join(found))
    # --- end of the KDE Plasma applet ---
    shutil.rmtree(clone.parent)
