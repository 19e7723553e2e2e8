"""`make test` on a fresh machine installs only what is missing (``make browser-deps``, which
``.ci/run`` now relies on too), and takes a Node.js from elsewhere as it is: Debian's nodejs and
npm are installed only when there is no ``node`` at all (they would conflict with NodeSource's).

Run with a PATH of fake tools only: ``id`` says root, ``apt-get`` records what it was asked to
install, and ``node``/``npm``/``redis-server``/``redis-cli`` exist or not as the case needs.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _tool(bin_dir: Path, name: str, body: str = "exit 0") -> None:
    path = bin_dir / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


def _browser_deps(tmp_path: Path, present: list[str], chromium: bool) -> tuple[int, str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "apt.log"
    _tool(bin_dir, "id", "echo 0")
    _tool(bin_dir, "apt-get", f'echo "$@" >> {log}')
    _tool(bin_dir, "node", "echo v20.0.0")
    for name in ("npm", "redis-server", "redis-cli"):
        if name in present:
            _tool(bin_dir, name)
    if "node" not in present:
        (bin_dir / "node").unlink()
    browser = tmp_path / "chromium"
    if chromium:
        _tool(tmp_path, "chromium")
    make = shutil.which("make")
    assert make, "make is needed to run the README's commands"
    out = subprocess.run([make, "-s", "browser-deps", f"CHROMIUM={browser}"], cwd=ROOT, capture_output=True, text=True,
                         env={"PATH": str(bin_dir)}, timeout=30)
    return out.returncode, out.stderr, log.read_text() if log.exists() else ""


def test_a_node_from_elsewhere_is_kept_and_only_chromium_installed(tmp_path: Path) -> None:
    code, err, apt = _browser_deps(tmp_path, ["node", "npm", "redis-server", "redis-cli"], chromium=False)
    assert code == 0, err
    assert "install -y -qq chromium" in apt
    assert "nodejs" not in apt and "npm" not in apt and "redis" not in apt


def test_nothing_missing_installs_nothing(tmp_path: Path) -> None:
    code, err, apt = _browser_deps(tmp_path, ["node", "npm", "redis-server", "redis-cli"], chromium=True)
    assert code == 0, err
    assert apt == ""


def test_no_node_at_all_installs_debian_nodejs_and_npm_and_redis(tmp_path: Path) -> None:
    code, err, apt = _browser_deps(tmp_path, [], chromium=True)
    assert code == 0, err
    assert "install -y -qq redis-server nodejs npm" in apt


@pytest.mark.parametrize("present", [["node", "redis-server", "redis-cli"]])
def test_a_node_without_npm_is_not_mixed_with_debian_npm(tmp_path: Path, present: list[str]) -> None:
    code, err, apt = _browser_deps(tmp_path, present, chromium=True)
    assert code != 0 and "npm is missing beside" in err
    assert apt == ""
