"""Fixtures: the in-process app (memory store), and a real Redis server for the Redis tests.

``redis_url`` uses 127.0.0.1:6379 when it answers, else starts its own ``redis-server`` on a
free port (never a fake), and stops it afterwards; tests there change nothing but their own
keys. A test that pauses, restarts, fills or counts a Redis server uses ``own_redis``: a
``RedisServer`` of its own on a free port, in its own directory.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis

from service.app import create_app
from service.config import TestConfig


@pytest.fixture
def app():
    return create_app(TestConfig)


@pytest.fixture
def client(app):
    return app.test_client()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=0.5).ping())
    except redis.exceptions.RedisError:
        return False


class RedisServer:
    """A ``redis-server`` of the test's own on a free port, working in ``workdir``: paused,
    resumed, killed and restarted at will (same port, same directory, same flags)."""

    def __init__(self, workdir: Path, *flags: str) -> None:
        exe = shutil.which("redis-server")
        if exe is None:
            pytest.fail("no redis-server to start")
        self.exe, self.workdir, self.flags = exe, workdir, flags
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.exe, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.workdir), *self.flags],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for _ in range(200):
            if _answers(self.url):
                return
            time.sleep(0.05)
        pytest.fail("the redis-server started for the test never answered")

    def pause(self) -> None:
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        os.kill(self.proc.pid, signal.SIGCONT)

    def kill(self) -> None:
        """As a crash or power loss would: no shutdown save."""
        self.resume()
        self.proc.kill()
        self.proc.wait(10)

    def restart(self) -> None:
        self.kill()
        self.start()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.kill()


@pytest.fixture
def own_redis(tmp_path):
    """A fresh Redis without persistence (``own_redis_server`` for other flags)."""
    server = RedisServer(tmp_path, "--save", "", "--appendonly", "no")
    yield server
    server.stop()


@pytest.fixture
def own_redis_server(tmp_path):
    """A factory: ``own_redis_server(*flags)`` starts a Redis of the test's own, stopped after it."""
    servers = []

    def make(*flags: str) -> RedisServer:
        servers.append(RedisServer(tmp_path, *flags))
        return servers[-1]

    yield make
    for server in servers:
        server.stop()


@pytest.fixture(scope="session")
def redis_url():
    url = "redis://127.0.0.1:6379/0"
    if _answers(url):
        yield url
        return
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.fail("no Redis on 127.0.0.1:6379 and no redis-server to start")
    port = _free_port()
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        for _ in range(100):
            if _answers(url):
                break
            time.sleep(0.05)
        else:
            pytest.fail("the redis-server started for the tests never answered")
        yield url
    finally:
        proc.terminate()
        proc.wait(5)


@pytest.fixture
def redis_app(redis_url):
    return create_app(TestConfig, {"REDIS_URL": redis_url})


@pytest.fixture
def dead_redis_app():
    """An app whose REDIS_URL points at a port where nothing listens."""
    return create_app(TestConfig, {"REDIS_URL": f"redis://127.0.0.1:{_free_port()}/0", "REDIS_TIMEOUT": 0.5})
