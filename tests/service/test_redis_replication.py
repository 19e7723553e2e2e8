"""Acknowledged means replicated (DESIGN 4.9), on a local Redis Cluster of the test's own.

A move is acknowledged (200) only when ``WAIT 1`` says the shard's replica has it. With the
replica paused (SIGSTOP on its own ``redis-server``), a move is written on the master but answered
503 ``session.not-replicated`` with its version; the master is then killed, the resumed replica
takes over, and every acknowledged move is still in the log at its version. The unconfirmed
move's fate is what ``GET`` says: here it may survive (its bytes can sit in the paused replica's
socket buffer) or not (a real partition loses it); either way no 200 was given for it.
"""

from __future__ import annotations

import os
import random
import signal
import time
from typing import Any

import pytest

from service.app import create_app
from service.config import TestConfig
from tests.service.conftest import LocalCluster
from tests.service.test_redis_cluster import GAME, try_move

pytestmark = pytest.mark.redis


def _replica_of(cluster: LocalCluster, master: int) -> int:
    info = cluster.node(master).info("replication")
    return int(info["slave0"]["port"])


def test_a_move_no_replica_confirmed_is_503_not_replicated_and_no_acknowledged_move_is_lost(
        own_cluster: LocalCluster) -> None:
    app = create_app(TestConfig, {"REDIS_URL": own_cluster.url, "REDIS_CLUSTER": True, "REDIS_WAIT_MS": 100,
                                  "REDIS_TIMEOUT": 0.5, "REDIS_BACKOFF": 0.2})
    client = app.test_client()
    r = client.post("/v1/sessions", json={"game": GAME, "players": 2, "seed": 3})
    assert r.status_code == 201
    session: Any = r.json
    rnd = random.Random(4)
    acknowledged: dict[int, Any] = {}
    for _ in range(10):
        status, move, out = try_move(client, session, rnd)
        assert status == 200 and out is not None, out
        acknowledged[out["version"]] = move

    key = f"arbiter:{{{session['id']}}}:head"
    master = own_cluster.master_of(key)
    replica = _replica_of(own_cluster, master)
    os.kill(own_cluster.procs[replica].pid, signal.SIGSTOP)
    try:
        status, move, out = try_move(client, session, rnd)
        assert status == 503 and out is not None, out
        assert out["code"] == "session.not-replicated"
        assert out["version"] == max(acknowledged) + 1, "the answer names the version the move would have made"
        own_cluster.kill(master)
    finally:
        os.kill(own_cluster.procs[replica].pid, signal.SIGCONT)

    deadline = time.monotonic() + 60
    statuses = []
    while time.monotonic() < deadline:  # the replica takes over; moves are tried until one lands
        status, move, out = try_move(client, session, rnd)
        statuses.append(status)
        if status == 200 and out is not None:
            acknowledged[out["version"]] = move
            break
        assert status in (503, 409), out
        time.sleep(0.2)
    assert statuses[-1] == 200, f"no move landed within 60 s of the failover: {statuses[-10:]}"
    assert own_cluster.master_after(key, master) == replica

    store = app.extensions["arbiter.store"]
    head, log = store.get(session["id"]), store.log(session["id"])
    assert head["version"] == len(log) == max(acknowledged)
    for version, played in acknowledged.items():
        assert log[version - 1]["move"] == played, f"acknowledged move {version} lost or changed"
