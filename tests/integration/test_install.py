"""scripts/install: a staged install under a prefix runs from where it was
put, finding its place data beside its executable, with nothing compiled in."""
import os
import pathlib
import shutil
import subprocess

from raindtest import BIN, ROOT, Daemon


def staged_install(tmp_path, prefix="/opt/raind"):
    stage = tmp_path / "stage"
    env = {**os.environ, "PREFIX": prefix, "DESTDIR": str(stage), "BUILD_DIR": str(BIN),
           "SYSCONFDIR": "/etc"}
    subprocess.run([str(ROOT / "scripts" / "install")], env=env, check=True, capture_output=True, text=True)
    return stage


def test_install_honours_prefix_and_destdir(tmp_path):
    stage = staged_install(tmp_path)
    root = stage / "opt" / "raind"
    for path in ("bin/raind", "bin/raindctl", "share/raind/places.bin", "share/man/man5/raind.conf.5",
                 "share/locale/de/LC_MESSAGES/raind.mo", "share/locale/pt_BR/LC_MESSAGES/raind.mo",
                 "share/locale/zh_CN/LC_MESSAGES/raind.mo",
                 "share/man/man8/raind.8", "share/man/man1/raindctl.1", "lib/systemd/system/raind.service",
                 "lib/systemd/user/raind.socket", "lib/sysusers.d/raind.conf", "share/doc/raind/SYSTEMD.md",
                 "share/bash-completion/completions/raindctl", "share/zsh/site-functions/_raindctl",
                 "share/fish/vendor_completions.d/raindctl.fish"):
        assert (root / path).exists(), path
    assert (stage / "etc" / "raind" / "raind.conf").exists()
    unit = (root / "lib/systemd/system/raind.service").read_text()
    assert "ExecStart=/opt/raind/bin/raind --system" in unit, unit
    assert "file:///opt/raind/share/doc/raind/SYSTEMD.md" in unit


def test_installed_raind_finds_its_place_data_beside_it(tmp_path):
    stage = staged_install(tmp_path)
    installed = stage / "opt" / "raind" / "bin" / "raind"
    daemon = Daemon(tmp_path / "daemon", args=("--log-level", "debug"))
    # The tests' own RAIND_DATA_DIR would win over what is looked for here.
    daemon.env.pop("RAIND_DATA_DIR", None)
    daemon.start(command=[str(installed), "--log-level", "debug"])
    try:
        result = daemon.ctl("search", "Zurich", check=True)
        assert "Zürich" in result.stdout, result.stdout
        expected = stage / "opt" / "raind" / "share" / "raind" / "places.bin"
        assert f"place data opened: {expected}" in daemon.read_log(), daemon.read_log()
    finally:
        daemon.stop()


def test_scripts_run_leaves_a_build_tree_that_speaks_the_users_language(tmp_path):
    """Issue 32, point 5: `./scripts/run` (the README's first command)
    compiles the catalogues where a binary built in the checkout finds them,
    so raindctl run from the build tree, with no RAIND_LOCALE_DIR, speaks
    German under de_DE.UTF-8. `swift` is a stand-in answering with the tests'
    build directory: the build itself is not what is tested here."""
    if ROOT not in BIN.resolve().parents:
        import pytest
        pytest.skip(f"the binaries ({BIN}) are not built inside this checkout ({ROOT})")
    shims = tmp_path / "shims"
    shims.mkdir()
    swift = shims / "swift"
    swift.write_text(f'#!/bin/sh\ncase "$*" in *--show-bin-path*) echo "{BIN}" ;; esac\n')
    swift.chmod(0o755)
    compiled = ROOT / ".build" / "locale"
    if compiled.exists():
        shutil.rmtree(compiled)
    daemon = Daemon(tmp_path / "daemon")
    daemon.env["PATH"] = f"{shims}:{daemon.env['PATH']}"
    daemon.start(command=["bash", str(ROOT / "scripts" / "run"), "--log-level", "debug"])
    try:
        german = {"LANG": "de_DE.UTF-8", "LANGUAGE": "", "LC_ALL": ""}
        assert "RAIND_LOCALE_DIR" not in daemon.env
        status = daemon.ctl("status", check=True, env=german).stdout
        assert "Orte:" in status and "Abonnenten:" in status, status
        assert (compiled / "de" / "LC_MESSAGES" / "raind.mo").exists()
        # Under C, English as before.
        assert "Places:" in daemon.ctl("status", check=True, env={"LANG": "C"}).stdout
    finally:
        daemon.stop()
