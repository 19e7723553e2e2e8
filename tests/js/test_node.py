"""The playground's modules that do not draw (words, selection, session client, bots, score pads),
unit-tested with Node's own test runner (this test runs them with the catalogue they read in
``ARBITER_CATALOGUE``; ``node --test tests/js/`` alone skips those). Node comes from Debian's
``nodejs`` package (.ci/run installs it when missing); without it this test fails with that command."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_node_unit_tests_pass(tmp_path):
    """The words are tested against the real catalogue: every game's ``GET /v1/games/{game}``,
    written to a file the Node tests read (``ARBITER_CATALOGUE``)."""
    from service.app import create_app
    from service.config import TestConfig

    client = create_app(TestConfig).test_client()
    games = [g["id"] for g in client.get("/v1/games").json["games"]]
    catalogue = {g: client.get(f"/v1/games/{g}").json for g in games}
    (tmp_path / "catalogue.json").write_text(json.dumps(catalogue))
    node = shutil.which("node")
    assert node, "node is missing: apt-get install -y nodejs"
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert files, "no tests/js/*.test.mjs"
    run = subprocess.run([node, "--test", *files], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "ARBITER_CATALOGUE": str(tmp_path / "catalogue.json")})
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
    assert "# skipped 0" in run.stdout, "a test skipped: the catalogue-based ones need ARBITER_CATALOGUE"
