"""Fixtures: the in-process app (memory store), and a real Redis server for the Redis tests.

The Redis fixture uses 127.0.0.1:6379 when it answers, else starts its own ``redis-server``
on a free port (never a fake), and stops it afterwards.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

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
