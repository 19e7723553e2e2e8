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
from typing import Any

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


class LocalCluster:
    """A real Redis Cluster of the tests' own: three masters with one replica each
    (``redis-server --cluster-enabled yes`` on free ports, ``redis-cli --cluster create``), in
    ``workdir``. ``url`` names one node, as ``REDIS_URL`` with ``REDIS_CLUSTER=1`` does."""

    def __init__(self, workdir: Path, node_timeout_ms: int = 1000) -> None:
        exe, cli = shutil.which("redis-server"), shutil.which("redis-cli")
        if exe is None or cli is None:
            pytest.fail("no redis-server and redis-cli to start a cluster with")
        self.ports: list[int] = []
        while len(self.ports) < 6:  # the cluster bus listens on port + 10000 as well
            port = _free_port()
            if port < 55000 and port not in self.ports and _port_free(port + 10000):
                self.ports.append(port)
        self.procs: dict[int, subprocess.Popen] = {}
        self.exe, self.workdir, self.node_timeout_ms = exe, workdir, node_timeout_ms
        try:
            for port in self.ports:
                self.start(port)
            subprocess.run([cli, "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports),
                            "--cluster-replicas", "1", "--cluster-yes"],
                           check=True, capture_output=True, timeout=60)
            self.wait_ok()
            self.wait_replicas()
        except BaseException:
            self.stop()
            raise
        self.url = f"redis://127.0.0.1:{self.ports[0]}/0"

    def start(self, port: int) -> None:
        node_dir = self.workdir / f"node-{port}"
        node_dir.mkdir(exist_ok=True)
        self.procs[port] = subprocess.Popen(
            [self.exe, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(node_dir), "--save", "",
             "--appendonly", "no", "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
             "--cluster-node-timeout", str(self.node_timeout_ms), "--repl-diskless-sync-delay", "0", "--logfile", str(node_dir / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            if _answers(f"redis://127.0.0.1:{port}/0"):
                return
            time.sleep(0.05)
        pytest.fail(f"cluster node {port} never answered")

    def node(self, port: int) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=port, decode_responses=True, socket_timeout=2)

    def live_ports(self) -> list[int]:
        return [p for p, proc in self.procs.items() if proc.poll() is None]

    def state(self, port: int) -> str:
        info = self.node(port).execute_command("CLUSTER INFO")
        if isinstance(info, dict):
            return str(info.get("cluster_state"))
        return "ok" if "cluster_state:ok" in str(info) else "fail"

    def wait_replicas(self, seconds: float = 60) -> None:
        """Until each replica has its master's data (a replica that never synced cannot take over)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            infos = [self.node(p).info("replication") for p in self.live_ports()]
            replicas = [i for i in infos if i.get("role") == "slave"]
            if len(replicas) == 3 and all(i.get("master_link_status") == "up" for i in replicas):
                return
            time.sleep(0.1)
        pytest.fail("the cluster's replicas never synced with their masters")

    def wait_ok(self, seconds: float = 60) -> None:
        """Until every live node says the cluster is ok and each slot has a master."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                if all(self.state(p) == "ok" for p in self.live_ports()):
                    return
            except redis.exceptions.RedisError:
                pass
            time.sleep(0.1)
        pytest.fail("the local Redis Cluster never reached cluster_state:ok")

    #: how long a move waits for its shard's replica in the tests' apps (``REDIS_WAIT_MS``): ``WAIT``
    #: answers as soon as the replica has the move, but on a two-core machine running the whole
    #: suite a healthy replica took longer than the default 50 ms, and the move was refused as
    #: not replicated. Below the shortest ``REDIS_TIMEOUT`` the tests give (0.5 s), so a ``WAIT``
    #: never outlasts its socket; the test that pauses a replica sets its own.
    WAIT_MS = 400

    def config(self) -> dict[str, Any]:
        """An app's settings for this cluster."""
        return {"REDIS_URL": self.url, "REDIS_CLUSTER": True, "REDIS_WAIT_MS": self.WAIT_MS}

    def master_of(self, key: str) -> int:
        slot = self.node(self.live_ports()[0]).execute_command("CLUSTER KEYSLOT", key)
        for start, end, master, *_ in self.node(self.live_ports()[0]).execute_command("CLUSTER SLOTS"):
            if start <= slot <= end:
                return int(master[1])
        raise LookupError(key)

    def master_after(self, key: str, lost: int, seconds: float = 30) -> int:
        """``key``'s master once the node asked no longer names ``lost`` (it learns of a promotion by
        gossip, perhaps after a move has already landed on the new master); ``lost`` if it never does."""
        deadline = time.monotonic() + seconds
        while (master := self.master_of(key)) == lost and time.monotonic() < deadline:
            time.sleep(0.1)
        return master

    def kill(self, port: int) -> None:
        proc = self.procs[port]
        proc.kill()
        proc.wait(10)

    def stop(self) -> None:
        for port in self.live_ports():
            self.kill(port)


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory):
    """One local Redis Cluster (3 masters, 1 replica each) for the whole test session."""
    cluster = LocalCluster(tmp_path_factory.mktemp("redis-cluster"))
    yield cluster
    cluster.stop()


@pytest.fixture
def own_cluster(tmp_path):
    """A Redis Cluster of the test's own, for a test that kills its nodes."""
    cluster = LocalCluster(tmp_path)
    yield cluster
    cluster.stop()


@pytest.fixture
def cluster_app(redis_cluster):
    return create_app(TestConfig, redis_cluster.config())
