"""Real servers for tests that need a socket: the `make run` command line, and a redis-server
of the test's own (never the shared one on 6379)."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_run_args(port: int, **make_vars: str) -> list[str]:
    """The server command line that `make run` would run (from `make -n run`)."""
    extra = [f"{k}={v}" for k, v in make_vars.items()]
    out = subprocess.run(["make", "-n", "run", "HOST=127.0.0.1", f"PORT={port}", *extra], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    line = next(x for x in out.splitlines() if "gunicorn" in x and "--bind" in x)
    args = shlex.split(line)
    args[0] = str(Path(sys.executable).with_name("gunicorn"))
    return args


@contextlib.contextmanager
def served_in_thread(app) -> Iterator[str]:
    """``app`` served by werkzeug from a daemon thread on a free port; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(5)


def wait_http(url: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(url, timeout=0.5).read()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@contextlib.contextmanager
def make_run(env: dict | None = None, **make_vars: str) -> Iterator[str]:
    """A server started exactly as `make run` starts it; yields its base URL."""
    port = free_port()
    proc = subprocess.Popen(make_run_args(port, **make_vars), cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "ACCESS_LOG": "0", **(env or {})})
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz")
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(proc)


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM a server's process group (started with ``start_new_session``); SIGKILL what is
    still there after 5 s (open event streams keep a graceful shutdown waiting)."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(5)


@contextlib.contextmanager
def redis_server(*args: str) -> Iterator[tuple[str, subprocess.Popen, Path]]:
    """A redis-server of this test's own on a free port; yields (url, process, data dir)."""
    exe = shutil.which("redis-server")
    if exe is None:
        import pytest

        pytest.skip("redis-server is not installed (.ci/run installs it)")
    port = free_port()
    data = Path(tempfile.mkdtemp(prefix="arbiter-redis-"))
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(data),
                             *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0", proc, data
    finally:
        proc.kill()
        proc.wait(5)
        shutil.rmtree(data, ignore_errors=True)
