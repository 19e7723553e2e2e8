"""``mypy --strict`` over every file of rules/ and service/, against a baseline of the errors themselves.

``python -m mypy`` checks what ``[tool.mypy]`` in pyproject.toml lists: all of rules/ and
service/, with ``strict = true`` (DESIGN 4.8: types that mean something; JSON is the recursive
``rules.jsontypes.Json``). ``mypy-baseline.txt`` lists the errors still accepted, one per line as
``path: message  [code]`` (without line numbers, so edits elsewhere in a file do not churn it). An
error not in the baseline fails, and so does a baseline entry mypy no longer reports (remove it):
one error cannot quietly replace another. The goal is an empty file.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / "mypy-baseline.txt"
ERROR = re.compile(r"^(?P<path>[^:]+):\d+: error: (?P<message>.*)$")


def errors(out: str) -> Counter[str]:
    found: Counter[str] = Counter()
    for line in out.splitlines():
        m = ERROR.match(line)
        if m:
            found[f"{m['path']}: {m['message']}"] += 1
    return found


def test_mypy_reads_every_file_of_rules_and_service_strictly():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert sorted(config["files"]) == ["rules", "service"]
    assert config.get("strict") is True
    relaxed = {"ignore_errors", "check_untyped_defs", "disallow_untyped_defs", "disallow_incomplete_defs",
               "disallow_untyped_calls", "disallow_any_generics", "warn_return_any", "warn_unused_ignores",
               "strict_equality", "allow_untyped_globals", "allow_redefinition", "implicit_reexport"}
    for override in config.get("overrides", []):  # an override may only name stubs that do not exist
        assert set(override) <= {"module", "ignore_missing_imports"}, override
    assert not relaxed & set(config), sorted(relaxed & set(config))  # beside strict = true they could only relax it


def test_mypy_reports_exactly_the_baseline(tmp_path):
    cache = tmp_path / "mypy-cache"  # fresh: an incremental cache from other code has crashed mypy
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), "--no-color-output",
                           "--no-error-summary"], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    out = done.stdout + done.stderr
    assert done.returncode in (0, 1) and ("error:" in out or done.returncode == 0), out  # not a crash
    found = errors(out)
    accepted = Counter(line.strip() for line in BASELINE.read_text().splitlines() if line.strip()
                       and not line.startswith("#"))
    new, gone = found - accepted, accepted - found
    assert not new, "errors not in mypy-baseline.txt:\n" + "\n".join(sorted(new.elements()))
    assert not gone, "fixed (remove them from mypy-baseline.txt):\n" + "\n".join(sorted(gone.elements()))
