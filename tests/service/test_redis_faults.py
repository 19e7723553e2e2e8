"""Redis faults (issue 10 §3) on a real redis-server each test starts for itself.

A Redis that hangs costs one ``REDIS_TIMEOUT``, then session endpoints answer 503 at once
for ``REDIS_BACKOFF`` while the stateless endpoints keep their speed; a restart with AOF
loses no session, version or log entry; a restart without persistence loses them, and the
404 says so; ``MAX_SESSIONS`` and the creation rate hold across workers sharing Redis.
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
PLAYERS = BINDINGS[GAME].engine.players.start


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def start(client) -> dict:
    r = client.post("/v1/sessions", json={"game": GAME, "players": PLAYERS, "seed": 5})
    assert r.status_code == 201, r.json
    return r.json


def play(client, session: dict, moves: int) -> int:
    """``moves`` random legal moves through the session; the version reached."""
    rnd, tokens = random.Random(8), {x["seat"]: x["token"] for x in session["seats"]}
    version = client.get(f"/v1/sessions/{session['id']}", headers=auth(session["owner_token"])).json["version"]
    for _ in range(moves):
        seat = client.get(f"/v1/sessions/{session['id']}", headers=auth(session["owner_token"])).json["to_act"][0]
        legal = client.get(f"/v1/sessions/{session['id']}/legal-moves", headers=auth(tokens[seat])).json["moves"]
        move = choose(rnd, GAME, legal, lambda m: m["kind"])
        r = client.post(f"/v1/sessions/{session['id']}/moves", json={"move": move, "version": version},
                        headers=auth(tokens[seat]))
        assert r.status_code == 200, r.json
        version = r.json["version"]
    return version


def test_a_paused_redis_costs_one_timeout_then_session_calls_fail_fast(own_redis, monkeypatch):
    """SIGSTOP the Redis: the first session call meets the timeout and opens the breaker; while
    it is open, session calls are 503 (Retry-After) without asking Redis at all, and stateless
    endpoints keep answering; after SIGCONT and the back-off, sessions work again with nothing
    lost. (How long each takes is measured in bench/, never asserted here: DESIGN 2.)"""
    app = create_app(TestConfig, {"REDIS_URL": own_redis.url, "REDIS_TIMEOUT": 0.5, "REDIS_BACKOFF": 1.5})
    client = app.test_client()
    s = start(client)
    owner = auth(s["owner_token"])
    store = app.extensions["arbiter.store"]
    asked: list[int] = []
    pool = store._redis.connection_pool
    real = pool.get_connection
    monkeypatch.setattr(pool, "get_connection", lambda *a, **k: (asked.append(1), real(*a, **k))[1])
    own_redis.pause()
    try:
        first = client.get(f"/v1/sessions/{s['id']}", headers=owner)
        assert first.status_code == 503 and first.json["code"] == "session.store-unavailable"
        assert asked and store.unavailable(), "the first call asked Redis and opened the breaker"
        asked.clear()
        calls = [
            lambda: client.get(f"/v1/sessions/{s['id']}", headers=owner),
            lambda: client.get(f"/v1/sessions/{s['id']}/log", headers=owner),
            lambda: client.post(f"/v1/sessions/{s['id']}/moves", json={"move": {"kind": "roll"}, "version": 0},
                                headers=auth(s["seats"][0]["token"])),
            lambda: client.post("/v1/sessions", json={"game": GAME, "players": PLAYERS}),
            lambda: client.get("/readyz"),
        ]
        for call in calls:
            r = call()
            assert r.status_code == 503 and r.json["code"] == "session.store-unavailable", r.json
            assert int(r.headers["Retry-After"]) >= 1
        assert asked == [], f"{len(asked)} Redis calls while the breaker was open"
        for _ in range(3):
            assert client.post(f"/v1/games/{GAME}/new", json={"players": PLAYERS}).status_code == 201
            assert client.get("/healthz").status_code == 200
    finally:
        own_redis.resume()
    time.sleep(1.6)
    back = client.get(f"/v1/sessions/{s['id']}", headers=owner)
    assert back.status_code == 200 and back.json["version"] == 0


def test_a_redis_restart_with_aof_loses_no_session_version_or_log_entry(own_redis_server):
    """Redis with ``--appendonly yes --appendfsync always`` killed (no shutdown save) and
    started again on the same directory: every session, version and log entry is there, and
    the same app (its connections dropped) plays on."""
    server = own_redis_server("--appendonly", "yes", "--appendfsync", "always", "--save", "")
    app = create_app(TestConfig, {"REDIS_URL": server.url})
    client = app.test_client()
    sessions = [start(client) for _ in range(3)]
    versions = [play(client, s, n) for s, n in zip(sessions, (0, 3, 6), strict=True)]
    before = [client.get(f"/v1/sessions/{s['id']}/log", headers=auth(s["owner_token"])).json for s in sessions]
    records = [app.extensions["arbiter.store"].get(s["id"]) for s in sessions]
    server.restart()
    for s, version, log, record in zip(sessions, versions, before, records, strict=True):
        r = client.get(f"/v1/sessions/{s['id']}/log", headers=auth(s["owner_token"]))
        assert r.status_code == 200 and r.json == log and r.json["version"] == version
        assert app.extensions["arbiter.store"].get(s["id"]) == record
    assert play(client, sessions[2], 1) == versions[2] + 1


def test_after_redis_loses_its_data_the_404_says_the_session_may_be_lost(own_redis):
    """Without persistence a restart forgets every session: the 404 says it may have been lost."""
    client = create_app(TestConfig, {"REDIS_URL": own_redis.url}).test_client()
    s = start(client)
    own_redis.restart()
    r = client.get(f"/v1/sessions/{s['id']}", headers=auth(s["owner_token"]))
    assert r.status_code == 404 and r.json["code"] == "session.not-found"
    assert "expired" in r.json["detail"] and "lost" in r.json["detail"]


def test_max_sessions_holds_across_workers_sharing_redis(own_redis):
    """Two app instances (as two workers) on one Redis count the same live sessions (played
    ones: an unplayed one would make room, DESIGN 4.9); expired ones stop counting."""
    config = {"REDIS_URL": own_redis.url, "MAX_SESSIONS": 2, "SESSION_TTL": 2}
    a, b = (create_app(TestConfig, config).test_client() for _ in range(2))
    first = start(a)
    play(a, first, 1)
    play(b, start(b), 1)
    full = a.post("/v1/sessions", json={"game": GAME, "players": PLAYERS})
    assert full.status_code == 503 and full.json["code"] == "session.store-full"
    assert b.delete(f"/v1/sessions/{first['id']}", headers=auth(first["owner_token"])).status_code == 204
    play(b, start(b), 1)
    assert a.post("/v1/sessions", json={"game": GAME, "players": PLAYERS}).status_code == 503
    time.sleep(2.2)  # both expire
    start(a)
    start(a)


def test_the_creation_rate_is_counted_in_redis_across_workers(own_redis):
    config = {"REDIS_URL": own_redis.url, "SESSIONS_PER_MINUTE": 2}
    a, b = (create_app(TestConfig, config).test_client() for _ in range(2))
    body = {"game": GAME, "players": PLAYERS}
    assert [c.post("/v1/sessions", json=body).status_code for c in (a, b, a, b)] == [201, 201, 429, 429]
    r = b.post("/v1/sessions", json=body)
    assert r.json["code"] == "session.rate-limited" and 0 < int(r.headers["Retry-After"]) <= 60


def test_a_move_that_landed_is_answered_though_the_bookkeeping_after_it_fails(own_redis, monkeypatch):
    """The move is stored by one script; the live-session index is updated after it. Redis failing
    between the two must not answer 503 for a move that landed (a retry would then be 409)."""
    import redis

    app = create_app(TestConfig, {"REDIS_URL": own_redis.url})
    client = app.test_client()
    s = start(client)
    store = app.extensions["arbiter.store"]
    pipeline = store._redis.pipeline

    def failing_pipeline(*args, **kwargs):
        pipe = pipeline(*args, **kwargs)

        def execute(*a, **k):
            raise redis.exceptions.ConnectionError("connection lost after the move's script")

        pipe.execute = execute
        return pipe

    monkeypatch.setattr(store._redis, "pipeline", failing_pipeline)
    assert play(client, s, 1) == 1
    head, log = store.keys(s["id"])[:2]
    stored = redis.Redis.from_url(own_redis.url)  # the breaker the failure opened holds the store back
    assert stored.hget(head, "v") == b"1" and stored.llen(log) == 1
