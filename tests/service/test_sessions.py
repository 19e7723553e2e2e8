"""Sessions: server-held state, seat tokens, views, atomic moves; in memory and in a real Redis."""

from __future__ import annotations

import threading

import pytest

from service.games import BINDINGS

GAME = next(iter(BINDINGS))
ENGINE = BINDINGS[GAME].engine
PLAYERS = ENGINE.players.start


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
def any_app(request):
    return request.getfixturevalue("app" if request.param == "memory" else "redis_app")


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def start(client, **extra):
    r = client.post("/v1/sessions", json={"game": GAME, "players": PLAYERS, "seed": 11, **extra})
    assert r.status_code == 201, r.json
    return r.json


def first_move(client, session):
    seat = session["to_act"][0]
    token = session["seats"][seat]["token"]
    moves = client.get(f"/v1/sessions/{session['id']}/legal-moves", headers=auth(token)).json["moves"]
    return seat, token, moves[0]


def test_session_tokens_are_unguessable_and_distinct(any_app):
    s = start(any_app.test_client())
    tokens = [s["owner_token"], *(x["token"] for x in s["seats"])]
    assert len(set(tokens)) == len(tokens) == PLAYERS + 1
    assert all(len(t) >= 43 for t in tokens) and len(s["id"]) >= 22  # >= 256 and >= 128 bits
    assert "state" not in s


def test_each_seat_sees_its_view_only(any_app):
    client = any_app.test_client()
    s = start(client)
    for seat in s["seats"]:
        r = client.get(f"/v1/sessions/{s['id']}", headers=auth(seat["token"]))
        assert r.status_code == 200 and r.json["seat"] == seat["seat"] and r.json["version"] == 0
        assert "rng" not in r.get_data(as_text=True)
        # what the seat gets is exactly the engine's view for that seat
        full = ENGINE.new(PLAYERS, 11)
        assert r.json["state"] == ENGINE.view(full, seat["seat"])


def test_move_lands_once_and_bumps_the_version(any_app):
    client = any_app.test_client()
    s = start(client)
    seat, token, move = first_move(client, s)
    r = client.post(f"/v1/sessions/{s['id']}/moves", json={"move": move, "version": 0}, headers=auth(token))
    assert r.status_code == 200 and r.json["version"] == 1 and r.json["seat"] == seat
    stale = client.post(f"/v1/sessions/{s['id']}/moves", json={"move": move, "version": 0}, headers=auth(token))
    assert stale.status_code == 409 and stale.json["code"] == "session.stale-version"
    log = client.get(f"/v1/sessions/{s['id']}/log", headers=auth(s["owner_token"])).json
    assert log["moves"] == [{"seat": seat, "move": move}] and log["new"]["seed"] == 11


def test_a_seat_that_is_not_to_act_is_refused_403(any_app):
    client = any_app.test_client()
    s = start(client)
    seat, _, move = first_move(client, s)
    idle = [x for x in s["seats"] if x["seat"] not in s["to_act"]]
    if not idle:
        pytest.skip("every seat acts at the start of this game")
    r = client.post(f"/v1/sessions/{s['id']}/moves", json={"move": move}, headers=auth(idle[0]["token"]))
    assert r.status_code == 403 and r.json["code"] == "session.not-your-turn"


def test_tokens_decide_access(any_app):
    client = any_app.test_client()
    s = start(client)
    assert client.get(f"/v1/sessions/{s['id']}").status_code == 401
    assert client.get(f"/v1/sessions/{s['id']}", headers=auth("forged")).status_code == 403
    other = start(client)
    assert client.get(f"/v1/sessions/{s['id']}", headers=auth(other["seats"][0]["token"])).status_code == 403
    assert client.delete(f"/v1/sessions/{s['id']}", headers=auth(s["seats"][0]["token"])).status_code == 403
    assert client.get("/v1/sessions/nope", headers=auth("x")).status_code == 404


def test_owner_deletes_and_the_session_is_gone(any_app):
    client = any_app.test_client()
    s = start(client)
    assert client.delete(f"/v1/sessions/{s['id']}", headers=auth(s["owner_token"])).status_code == 204
    r = client.get(f"/v1/sessions/{s['id']}", headers=auth(s["owner_token"]))
    assert r.status_code == 404 and r.json["code"] == "session.not-found"


def test_an_illegal_move_leaves_the_session_untouched(any_app):
    client = any_app.test_client()
    s = start(client)
    seat, token, _ = first_move(client, s)
    r = client.post(f"/v1/sessions/{s['id']}/moves", json={"move": {"kind": "nonsense"}}, headers=auth(token))
    assert r.status_code == 422
    after = client.get(f"/v1/sessions/{s['id']}", headers=auth(token)).json
    assert after["version"] == 0 and after["state"] == ENGINE.view(ENGINE.new(PLAYERS, 11), seat)


def test_concurrent_moves_on_one_version_exactly_one_lands(any_app):
    """Threads race the same move on version 0: one 200, the rest 409 (never two landings)."""
    client_factory = any_app.test_client
    s = start(client_factory())
    _, token, move = first_move(client_factory(), s)
    barrier, results = threading.Barrier(8), []

    def race():
        c = client_factory()
        barrier.wait()
        r = c.post(f"/v1/sessions/{s['id']}/moves", json={"move": move, "version": 0}, headers=auth(token))
        results.append(r.status_code)

    threads = [threading.Thread(target=race) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results).count(200) == 1 and all(code in (200, 409, 422) for code in results), results
    log = client_factory().get(f"/v1/sessions/{s['id']}/log", headers=auth(s["owner_token"])).json
    assert len(log["moves"]) == 1 and log["version"] == 1


def test_a_seat_log_hides_the_seed_until_the_end(any_app):
    client = any_app.test_client()
    s = start(client)
    log = client.get(f"/v1/sessions/{s['id']}/log", headers=auth(s["seats"][0]["token"])).json
    assert "seed" not in log["new"] and log["new"]["players"] == PLAYERS


@pytest.mark.redis
def test_redis_sessions_expire(redis_url):
    from service.app import create_app
    from service.config import TestConfig

    app = create_app(TestConfig, {"REDIS_URL": redis_url, "SESSION_TTL": 1})
    client = app.test_client()
    s = start(client)
    import redis

    ttl = redis.Redis.from_url(redis_url).ttl(f"arbiter:session:{s['id']}")
    assert 0 < ttl <= 1
    redis.Redis.from_url(redis_url).pexpire(f"arbiter:session:{s['id']}", 1)
    import time

    time.sleep(0.05)
    assert client.get(f"/v1/sessions/{s['id']}", headers=auth(s["owner_token"])).status_code == 404


@pytest.mark.redis
def test_redis_sessions_are_shared_between_app_instances(redis_url):
    from service.app import create_app
    from service.config import TestConfig

    a = create_app(TestConfig, {"REDIS_URL": redis_url}).test_client()
    b = create_app(TestConfig, {"REDIS_URL": redis_url}).test_client()
    s = start(a)
    assert b.get(f"/v1/sessions/{s['id']}", headers=auth(s["owner_token"])).status_code == 200


def test_redis_down_sessions_503_stateless_still_work(dead_redis_app):
    client = dead_redis_app.test_client()
    r = client.post("/v1/sessions", json={"game": GAME, "players": PLAYERS})
    assert r.status_code == 503 and r.mimetype == "application/problem+json"
    assert r.json["code"] == "session.store-unavailable"
    assert client.get("/v1/sessions/abc", headers=auth("x")).status_code == 503
    assert client.get("/readyz").status_code == 503
    assert client.get("/healthz").status_code == 200
    assert client.post(f"/v1/games/{GAME}/new", json={"players": PLAYERS}).status_code == 201


def test_memory_store_is_ready(client):
    r = client.get("/readyz")
    assert r.status_code == 200 and r.json["store"] == "MemoryStore"
