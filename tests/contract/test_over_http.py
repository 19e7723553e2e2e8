"""The contract over real HTTP (issue 10 §4): schemathesis, every phase (examples, coverage,
fuzzing, stateful), against a server started exactly as `make run` starts it (gunicorn, gevent
worker), once with the memory store and once with a Redis of the test's own.

The run is the schemathesis command line, so a failure prints its own `curl` reproduction; the
JSON run report gives the counts this test asserts on: no 5xx, no response outside the schema,
no check failed. test_openapi.py checks the same contract in process; this file checks what only
a socket shows (the HTTP server's own answers, headers, the stores behind more than one worker).

The served spec links a created session's id and tokens into every session operation, which
is what the stateful phase follows (a test below checks the links are there).
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
import yaml

from tests.live import make_run, redis_server

# Cases per operation in the fuzzing phase and scenarios in the stateful phase; the examples
# and coverage phases are fixed by the schema (coverage makes every boundary case it defines).
FUZZ_EXAMPLES = 10
STATEFUL_EXAMPLES = 40
# The Redis run only needs the operations that touch the store.
SESSION_OPERATIONS = r"^/v1/sessions|^/healthz$|^/readyz$"
# Statuses that refuse a request outside the schema: as test_openapi.py, plus the token refusals,
# which come before the body is read.
REFUSALS = [400, 401, 403, 404, 405, 413, 415, 422]
# The server answers many creations and session requests from one address in these runs (the
# limits have their own tests: tests/service/test_bursts.py, test_limits.py).
SERVER_ENV = {"SESSIONS_PER_MINUTE": "1000000", "SESSION_REQUESTS_PER_SECOND": "0"}


CONFIG = f"""
seed = 20261125
# One worker: with threads, Python 3.11's ast.parse inside hypothesis fails ("AST constructor
# recursion depth mismatch").
workers = 1
[generation]
deterministic = true
database = "none"
max-examples = {FUZZ_EXAMPLES}

# A state can match its JSON Schema and still be impossible (a lost card, a wrong turn), which
# the contract answers with a 422 problem: schema-valid is not the same as acceptable.
[checks.positive_data_acceptance]
enabled = false

[checks.negative_data_rejection]
expected-statuses = {REFUSALS}

# validate, legal-moves and view take the state schema that apply takes: their coverage cases
# (every boundary of every state field) would double the run and find nothing apply's do not.
# They keep the examples and fuzzing phases here, and every phase in test_openapi.py.
[[operations]]
include-path-regex = "^/v1/games/[^/]+/(validate|legal-moves|view)$"
phases.coverage.enabled = false

[phases.stateful]
max-steps = 6
[phases.stateful.generation]
max-examples = {STATEFUL_EXAMPLES}
# The links hand over a real token, but schemathesis counts a header set by a link as generated
# and reads the 200 that token earns as auth not enforced. 401/403 have their own session tests
# (and ignored_auth stays on in the other phases).
[phases.stateful.checks.ignored_auth]
enabled = false
"""


def _spec(base_url: str, path: Path) -> Path:
    """The served contract (its links are what the stateful phase follows)."""
    with urllib.request.urlopen(f"{base_url}/openapi.yaml", timeout=10) as response:
        spec = yaml.safe_load(response.read())
    assert spec["paths"]["/v1/sessions"]["post"]["responses"]["201"]["links"], "createSession has no links"
    path.write_text(yaml.safe_dump(spec, sort_keys=False))
    return path


def _schemathesis(base_url: str, tmp: Path, *args: str) -> tuple[dict, str]:
    """Runs every phase against `base_url`; returns the JSON report and the console output."""
    (tmp / "schemathesis.toml").write_text(CONFIG)
    report = tmp / "report.json"
    exe = Path(sys.executable).with_name("schemathesis")
    run = subprocess.run(
        [str(exe), "--config-file", str(tmp / "schemathesis.toml"), "run", str(_spec(base_url, tmp / "openapi.yaml")),
         "--url", base_url, "--phases", "examples,coverage,fuzzing,stateful", "--no-color",
         "--report", "json,ndjson", "--report-json-path", str(report),
         "--report-ndjson-path", str(tmp / "events.ndjson"),
         # an event stream never ends by itself; tests/service/test_events.py covers it
         "--exclude-operation-id", "sessionEvents", *args],
        cwd=tmp, capture_output=True, text=True, timeout=600)
    return json.loads(report.read_text()), run.stdout + run.stderr


def _statuses(events: Path) -> dict[str, Counter]:
    """Per phase, how often each operation answered each status (from the NDJSON event log)."""
    seen: dict[str, Counter] = {}
    for line in events.read_text().splitlines():
        event = json.loads(line).get("ScenarioFinished")
        if event is None:
            continue
        recorder = event["recorder"]
        for case_id, interaction in recorder.get("interactions", {}).items():
            case = recorder["cases"][case_id]["value"]
            status = (interaction.get("response") or {}).get("status_code")
            seen.setdefault(event["phase"], Counter())[f"{case['method']} {case['path']} {status}"] += 1
    return seen


def _assert_clean(report: dict, output: str, events: Path) -> None:
    counts = report["test_cases"]
    print(f"schemathesis: {counts}, {report['running_time']:.1f} s")
    for phase, statuses in _statuses(events).items():
        print(f"  {phase}: {statuses.total()} requests", dict(sorted(statuses.items())))
    assert report["complete"], output[-20_000:]
    assert report["phases"]["stateful"]["status"] != "skip", "the stateful phase found no links"
    assert counts["generated"] > 0
    assert (report["failures"], report["errors"], counts["errored"]) == ([], [], 0), output[-20_000:]
    assert report["exit_code"] == 0, output[-20_000:]


def test_contract_over_http_memory_store(tmp_path):
    with make_run(SERVER_ENV) as url:
        report, output = _schemathesis(url, tmp_path)
    _assert_clean(report, output, tmp_path / "events.ndjson")


@pytest.mark.redis
def test_contract_over_http_redis_store(tmp_path):
    with redis_server() as (redis_url, _, _), \
            make_run({**SERVER_ENV, "REDIS_URL": redis_url}, REDIS_URL=redis_url) as url:
        report, output = _schemathesis(url, tmp_path, "--include-path-regex", SESSION_OPERATIONS)
    _assert_clean(report, output, tmp_path / "events.ndjson")


def test_rate_limited_creation_is_in_the_contract(tmp_path):
    """With the creation limit the server really has, the 429 it answers past the limit is a documented one."""
    with make_run({"SESSIONS_PER_MINUTE": "2"}) as url:
        report, output = _schemathesis(url, tmp_path, "--include-operation-id", "createSession",
                                       "--phases", "examples,fuzzing", "--checks", "status_code_conformance")
    assert report["test_cases"]["generated"] > 2
    assert report["failures"] == [], output[-5_000:]
