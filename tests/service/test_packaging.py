"""What a newcomer touches first: the README's commands and tour, the Dockerfile, CI."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_readme_opens_with_the_two_commands():
    first_block = re.search(r"```sh\n(.*?)```", README, re.S).group(1)
    assert [line.split("#")[0].strip() for line in first_block.strip().splitlines()] == ["make run", "make test"]


def test_ci_runs_the_readme_test_command():
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def _gunicorn_args_of_make_run() -> list[str]:
    out = subprocess.run(["make", "-n", "run", "HOST=H", "PORT=P", "WORKERS=W", "THREADS=T"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    line = next(x for x in out.splitlines() if "gunicorn" in x and "--bind" in x)
    return shlex.split(line)[1:]


def test_docker_entry_point_is_the_make_run_command():
    cmd = re.search(r'^CMD \["sh", "-c", "exec gunicorn (.*)"\]$', (ROOT / "Dockerfile").read_text(), re.M)
    assert cmd, "the Dockerfile's CMD is not an exec of gunicorn"
    docker = shlex.split(cmd.group(1).replace("$WORKERS", "W").replace("$THREADS", "T")
                         .replace("$HOST", "H").replace("$PORT", "P"))
    assert docker == _gunicorn_args_of_make_run()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def live_server():
    """The server exactly as `make run` starts it."""
    from tests.live import make_run

    with make_run() as url:
        yield url


@pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq")), reason="the tour uses curl and jq")
def test_readme_tour_works_as_printed(live_server, tmp_path):
    tour = re.search(r"<!-- tour -->\n```sh\n(.*?)```", README, re.S).group(1)
    script = tour.replace("API=http://127.0.0.1:8000", f"API={live_server}")
    out = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60, env={**os.environ})
    assert out.returncode == 0, out.stderr
    assert '"status": 422' in out.stdout and "not-your-turn" in out.stdout
    assert '"final":false' in out.stdout
    assert '"code":"take-that.not-your-turn","title":"Nie twoja kolej"' in out.stdout
    assert "event: snapshot" in out.stdout and "event: move" in out.stdout
