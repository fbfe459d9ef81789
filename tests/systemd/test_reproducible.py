"""The package is reproducible: the same commit built in another directory
gives the same .deb, byte for byte (no build path compiled in)."""
import hashlib
import os
import pathlib
import shutil
import subprocess

import pytest

from sdtest import ROOT, WORK, note, run


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
    digests = {path: hashlib.sha256(path.read_bytes()).hexdigest() for path in (pathlib.Path(deb), again)}
    for path, digest in digests.items():
        note(f"  sha256 {digest}  {path}")
    shutil.rmtree(clone.parent)
    assert len(set(digests.values())) == 1, digests
