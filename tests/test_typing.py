"""mypy with a baseline that only goes down (issue 12 §4).

``python -m mypy`` checks what ``[tool.mypy]`` in pyproject.toml lists (rules/base.py, service/
and rules/mak_yek.py, the last strictly). The error count may not exceed the number in
``mypy-baseline.txt``; when it falls below, lower the number (the test says so). The strictly
typed modules may have no error at all. The cache lives in the system's temporary directory.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / "mypy-baseline.txt"
STRICT = ("rules/mak_yek.py",)


def test_mypy_errors_do_not_exceed_the_baseline():
    cache = Path(tempfile.gettempdir()) / "arbiter-mypy-cache"
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), "--no-color-output"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    out = done.stdout + done.stderr
    summary = re.search(r"Found (\d+) errors? in|Success: no issues found", out)
    assert summary, out  # a crash or a config error prints neither
    count = int(summary.group(1) or 0)
    baseline = int(BASELINE.read_text().split()[0])
    strict_errors = [line for line in out.splitlines() if line.startswith(STRICT) and ": error:" in line]
    assert not strict_errors, "strictly typed modules must stay clean:\n" + "\n".join(strict_errors)
    assert count <= baseline, f"mypy found {count} errors, the baseline allows {baseline}:\n{out}"
    if count < baseline:
        warnings.warn(f"mypy found {count} errors, fewer than the baseline {baseline}: "
                      f"lower mypy-baseline.txt to {count}", stacklevel=1)
