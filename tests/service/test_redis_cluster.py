"""Sessions on a Redis Cluster (DESIGN 4.9) that loses a master mid-game.

A local cluster of the test's own (three masters with one replica each): a game is played, the
master holding the session's hash slot is killed (as a crash would: no shutdown), its replica
takes over, and the game goes on. A move is acknowledged (200) only after ``WAIT 1`` saw it on
the replica, so every acknowledged move is in the log after the failover, at its version. The
promoted replica is then a master without a replica of its own: the game plays on there.
"""

from __future__ import annotations

import random
import time

import pytest

from service.app import create_app
from service.config import TestConfig
from service.games import BINDINGS
from tests.playout import choose

pytestmark = pytest.mark.redis

GAME = "backgammon" if "backgammon" in BINDINGS else next(iter(BINDINGS))


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def try_move(client, session: dict, rnd: random.Random) -> tuple[int, dict | None, dict | None]:
    """One random legal move; (status, the move, the answer) - status 503 while the store fails."""
    sid, tokens = session["id"], {x["seat"]: x["token"] for x in session["seats"]}
    info = client.get(f"/v1/sessions/{sid}", headers=auth(session["owner_token"]))
    if info.status_code != 200:
        return info.status_code, None, None
    seat = info.json["to_act"][0]
    legal = client.get(f"/v1/sessions/{sid}/legal-moves", headers=auth(tokens[seat]))
    if legal.status_code != 200:
        return legal.status_code, None, None
    move = choose(rnd, GAME, legal.json["moves"], lambda m: m["kind"])
    r = client.post(f"/v1/sessions/{sid}/moves", json={"move": move, "version": info.json["version"]},
                    headers=auth(tokens[seat]))
    return r.status_code, move, r.json


def test_a_master_lost_mid_game_loses_no_acknowledged_move(own_cluster):
    app = create_app(TestConfig, {**own_cluster.config(), "REDIS_TIMEOUT": 0.5, "REDIS_BACKOFF": 0.2})
    client = app.test_client()
    r = client.post("/v1/sessions", json={"game": GAME, "players": 2, "seed": 3})
    assert r.status_code == 201
    session, rnd = r.json, random.Random(4)
    acknowledged: dict[int, dict] = {}  # version -> the move that made it

    def play(n: int) -> None:
        for _ in range(n):
            status, move, out = try_move(client, session, rnd)
            assert status == 200, out
            acknowledged[out["version"]] = move

    play(30)
    master = own_cluster.master_of(f"arbiter:{{{session['id']}}}:head")
    waits = own_cluster.node(master).info("commandstats").get("cmdstat_wait", {}).get("calls", 0)
    assert waits >= 30, "each move waits for the shard's replica (WAIT 1) before it is acknowledged"
    own_cluster.kill(master)
    statuses = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # moves go on being tried while the replica takes over
        status, move, out = try_move(client, session, rnd)
        statuses.append(status)
        if status == 200:
            acknowledged[out["version"]] = move
            break
        assert status in (503, 409), out  # unavailable, or a move of unknown fate made the version stale
        time.sleep(0.1)
    assert statuses[-1] == 200, f"no move landed within 60 s of the failover: {statuses[-10:]}"
    play(10)

    assert own_cluster.master_after(f"arbiter:{{{session['id']}}}:head", master) != master
    store = app.extensions["arbiter.store"]
    head, log = store.get(session["id"]), store.log(session["id"])
    assert head["version"] == len(log) == max(acknowledged)
    for version, move in acknowledged.items():
        assert log[version - 1]["move"] == move, f"acknowledged move {version} lost or changed"
