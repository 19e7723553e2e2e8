"""The playground's modules that do not draw (words, selection, session client, bots, score pads),
unit-tested with Node's own test runner: ``node --test tests/js/``. Node comes from Debian's
``nodejs`` package (.ci/run installs it when missing); without it this test fails with that command."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_node_unit_tests_pass():
    node = shutil.which("node")
    assert node, "node is missing: apt-get install -y nodejs"
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert files, "no tests/js/*.test.mjs"
    run = subprocess.run([node, "--test", *files], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
