"""Sessions are the referee (DESIGN 4.1), for every game of the registry, in memory and in a real Redis.

Server-held state, seat tokens and views; chance drawn by the server only; the seed secret
until the game is over; ``version`` required and compared; limits on how many sessions live
and how fast one address makes them; the memory store sweeps and refuses several workers.
"""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from service.app import create_app
from service.config import TestConfig
from service.games import BINDINGS
from service.sessions import MemoryStore
from tests.playout import PLAYOUT_OPTIONS, choose

GAMES = list(BINDINGS)
#: games with a move that may carry physical dice (the stateless endpoints accept them): a field
#: `dice` in a declared move class
CHANCE_GAMES = [g for g, b in BINDINGS.items()
                if any("dice" in {f.name for f in dataclasses.fields(m)} for m in b.spec.moves)]


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis),
                        pytest.param("cluster", marks=pytest.mark.redis)])
def any_app(request):
    return request.getfixturevalue({"memory": "app", "redis": "redis_app", "cluster": "cluster_app"}[request.param])


@pytest.fixture(params=GAMES)
def game(request):
    return request.param


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def players_of(game: str) -> int:
    return BINDINGS[game].engine.players.start


def start(client, game: str, **extra) -> dict:
    body = {"game": game, "players": players_of(game), "seed": 11, "options": PLAYOUT_OPTIONS.get(game, {}), **extra}
    r = client.post("/v1/sessions", json={k: v for k, v in body.items() if v is not None})
    assert r.status_code == 201, r.json
    return r.json


def first_move(client, session):
    seat = session["to_act"][0]
    token = session["seats"][seat]["token"]
    moves = client.get(f"/v1/sessions/{session['id']}/legal-moves", headers=auth(token)).json["moves"]
    return seat, token, moves[0]


def opened(app, game: str) -> tuple:
    """A test client, a fresh session of ``game`` (``start``) and its first mover's seat, token and
    first legal move (``first_move``)."""
    client = app.test_client()
    session = start(client, game)
    return (client, session, *first_move(client, session))


def full_state(app, session_id: str) -> dict:
    """The record the store holds (the test peeks; no endpoint shows it)."""
    return app.extensions["arbiter.store"].get(session_id)


def keys_in(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


# --------------------------------------------------------------------------- tokens and views


def test_session_tokens_are_unguessable_and_distinct(any_app, game):
    s = start(any_app.test_client(), game)
    tokens = [s["owner_token"], *(x["token"] for x in s["seats"])]
    assert len(set(tokens)) == len(tokens) == players_of(game) + 1
    assert all(len(t) >= 43 for t in tokens) and len(s["id"]) >= 22  # >= 256 and >= 128 bits
    assert "state" not in s


def test_each_seat_sees_its_view_only(any_app, game):
    client = any_app.test_client()
    s = start(client, game)
    engine = BINDINGS[game].engine
    full = engine.from_json(full_state(any_app, s["id"])["state"])
    for seat in s["seats"]:
        r = client.get(f"/v1/sessions/{s['id']}", headers=auth(seat["token"]))
        assert r.status_code == 200 and r.json["seat"] == seat["seat"] and r.json["version"] == 0
        assert r.json["state"] == engine.view(full, seat["seat"])


def test_the_owner_sees_what_a_spectator_sees(any_app, game):
    """DESIGN 4.1: the owner token holds no seat and sees no more than a spectator until the end:
    the spectator view, no legal moves, and the log as a spectator's (hidden moves hidden)."""
    client, s, seat, token, move = opened(any_app, game)
    assert client.post(f"/v1/sessions/{s['id']}/moves", json={"move": move, "version": 0},
                       headers=auth(token)).status_code == 200
    engine = BINDINGS[game].engine
    full = engine.from_json(full_state(any_app, s["id"])["state"])
    owner = auth(s["owner_token"])
    assert client.get(f"/v1/sessions/{s['id']}", headers=owner).json["state"] == engine.view(full, None)
    assert client.get(f"/v1/sessions/{s['id']}/legal-moves", headers=owner).json["moves"] == []
    shown = engine.move_view(engine.move_from_json(move), seat, None)
    expected = {"seat": seat, "move": shown} if shown is not None else {"seat": seat, "move": None, "hidden": True}
    assert client.get(f"/v1/sessions/{s['id']}/log", headers=owner).json["moves"] == [expected]
    r = client.post(f"/v1/sessions/{s['id']}/moves", json={"move": move, "version": 1}, headers=owner)
    assert r.status_code == 403 and r.json["code"] == "session.owner-cannot-move"


def test_no_token_sees_the_seed_or_rng_before_the_end(any_app, game):
    """DESIGN 4.1: no session endpoint shows ``seed`` or ``rng`` to any token (owner included)
    before the game is over; the seed value appears nowhere."""
    client = any_app.test_client()
    s = start(client, game, seed="the-secret-seed")
    seat, token, move = first_move(client, s)
    moved = client.post(f"/v1/sessions/{s['id']}/moves", json={"move": move, "version": 0}, headers=auth(token))
    assert moved.status_code == 200
    answers = [s, moved.json]
    for t in [s["owner_token"], *(x["token"] for x in s["seats"])]:
        for path in ("", "/log", "/legal-moves"):
            r = client.get(f"/v1/sessions/{s['id']}{path}", headers=auth(t))
            assert r.status_code == 200, r.json
            answers.append(r.json)
    for answer in answers:
        assert not {"seed", "rng"} & keys_in(answer), answer
        assert "the-secret-seed" not in str(answer)


def test_the_log_shows_the_seed_once_the_game_is_over(app, game, monkeypatch):
    """At the end the log's ``new`` (with the seed) and moves replay the game with /replay."""
    client = app.test_client()
    s = start(client, game, seed=77)
    engine = BINDINGS[game].engine
    monkeypatch.setattr(engine, "outcome", lambda state: object())  # as if the game were over
    log = client.get(f"/v1/sessions/{s['id']}/log", headers=auth(s["seats"][0]["token"])).json
    assert log["new"]["seed"] == 77 and log["seeded"] is True


def test_seeded_is_on_every_response_about_a_seeded_session(any_app, game):
    """DESIGN 4.1: a creator who chose the seed may know the deal; every answer says so."""
    client = any_app.test_client()
    for seed, seeded in ((5, True), (None, False)):
        s = start(client, game, seed=seed)
        seat, token, move = first_move(client, s)
        answers = [s]
        for t in (s["owner_token"], token):
            answers += [client.get(f"/v1/sessions/{s['id']}{p}", headers=auth(t)).json
                        for p in ("", "/log", "/legal-moves")]
        answers.append(client.post(f"/v1/sessions/{s['id']}/moves", json={"move": move, "version": 0},
                                   headers=auth(token)).json)
        assert [a["seeded"] for a in answers] == [seeded] * len(answers), answers


# --------------------------------------------------------------------------- moves and versions


def test_move_lands_once_and_bumps_the_version(any_app, game):
    client, s, seat, token, move = opened(any_app, game)
    r = client.post(f"/v1/sessions/{s['id']}/moves", json={"move": move, "version": 0}, headers=auth(token))
    assert r.status_code == 200 and r.json["version"] == 1 and r.json["seat"] == seat
    stale = client.post(f"/v1/sessions/{s['id']}/moves", json={"move": move, "version": 0}, headers=auth(token))
    assert stale.status_code == 409 and stale.json["code"] == "session.stale-version"
    log = client.get(f"/v1/sessions/{s['id']}/log", headers=auth(token)).json
    assert log["version"] == 1 and [m["seat"] for m in log["moves"]] == [seat]
    assert any_app.extensions["arbiter.store"].log(s["id"]) == [{"seat": seat, "move": move, "events": r.json["events"]}]
    assert log["events"] == [r.json["events"]]  # the mover sees its move's events as its answer gave them


def test_a_move_without_version_is_422_and_changes_nothing(any_app, game):
    """DESIGN 4.1: a move names the version it was made against; without it, 422."""
    client, s, _, token, move = opened(any_app, game)
    r = client.post(f"/v1/sessions/{s['id']}/moves", json={"move": move}, headers=auth(token))
    assert r.status_code == 422 and r.json["code"] == "session.version-required"
    assert full_state(any_app, s["id"])["version"] == 0


def test_a_seat_that_is_not_to_act_is_refused_403(any_app, game):
    client, s, _, _, move = opened(any_app, game)
    idle = [x for x in s["seats"] if x["seat"] not in s["to_act"]]
    if not idle:
        pytest.skip(f"every seat acts at the start of {game}")
    r = client.post(f"/v1/sessions/{s['id']}/moves", json={"move": move, "version": 0},
                    headers=auth(idle[0]["token"]))
    assert r.status_code == 403 and r.json["code"] == "session.not-your-turn"


def test_an_illegal_move_leaves_the_session_untouched(any_app, game):
    client, s, _, token, _ = opened(any_app, game)
    before = full_state(any_app, s["id"])
    r = client.post(f"/v1/sessions/{s['id']}/moves", json={"move": {"kind": "nonsense"}, "version": 0},
                    headers=auth(token))
    assert r.status_code == 422
    assert full_state(any_app, s["id"]) == before


def test_concurrent_moves_on_one_version_exactly_one_lands(any_app, game):
    """Threads race the same move on version 0: one 200, the rest 409 (never two landings)."""
    client_factory = any_app.test_client
    s = start(client_factory(), game)
    _, token, move = first_move(client_factory(), s)
    barrier, results = threading.Barrier(6), []

    def race():
        c = client_factory()
        barrier.wait()
        r = c.post(f"/v1/sessions/{s['id']}/moves", json={"move": move, "version": 0}, headers=auth(token))
        results.append(r.status_code)

    threads = [threading.Thread(target=race) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results).count(200) == 1 and all(code in (200, 409) for code in results), results
    record = full_state(any_app, s["id"])
    assert len(any_app.extensions["arbiter.store"].log(s["id"])) == 1 and record["version"] == 1


# --------------------------------------------------------------------------- chance is the server's


@pytest.mark.parametrize("game", CHANCE_GAMES)
def test_a_move_carrying_dice_is_refused_and_changes_nothing(any_app, game):
    """DESIGN 4.1: in a session the dice are the server's. A roll with physical dice, which the
    stateless /validate accepts for that very state, is 422 session.chance-from-server there."""
    client, s, seat, token, move = opened(any_app, game)
    assert move == {"kind": "roll"}, f"{game} starts with a roll"
    before = full_state(any_app, s["id"])
    verdicts = {tuple(d): client.post(f"/v1/games/{game}/validate", json={
        "state": before["state"], "seat": seat, "move": {"kind": "roll", "dice": d}}).json for d in ([6, 5], [4])}
    legal = [list(d) for d, verdict in verdicts.items() if verdict.get("legal")]
    assert legal, "the stateless endpoint keeps accepting physical dice"
    r = client.post(f"/v1/sessions/{s['id']}/moves", json={"move": {"kind": "roll", "dice": legal[0]}, "version": 0},
                    headers=auth(token))
    assert r.status_code == 422 and r.json["code"] == "session.chance-from-server", r.json
    assert full_state(any_app, s["id"]) == before
    drawn = client.post(f"/v1/sessions/{s['id']}/moves", json={"move": {"kind": "roll"}, "version": 0},
                        headers=auth(token))
    assert drawn.status_code == 200 and drawn.json["version"] == 1


def test_the_dice_games_are_found():
    """The parametrization above is not empty: backgammon and Northcott roll dice."""
    assert len(CHANCE_GAMES) >= 2


def test_sessions_play_on_with_chance_drawn_by_the_server(app, game):
    """Every legal move a session lists leaves chance to the server, and is accepted as listed."""
    client = app.test_client()
    s = start(client, game)
    engine = BINDINGS[game].engine
    rnd, version, tokens = random.Random(3), 0, {x["seat"]: x["token"] for x in s["seats"]}
    for _ in range(40):
        state = engine.from_json(full_state(app, s["id"])["state"])
        acting = sorted(engine.to_act(state))
        if not acting:
            break
        seat = acting[0]
        moves = client.get(f"/v1/sessions/{s['id']}/legal-moves", headers=auth(tokens[seat])).json["moves"]
        assert not any(engine.carries_chance(engine.move_from_json(m)) for m in moves)
        move = choose(rnd, game, moves, lambda m: m["kind"])
        r = client.post(f"/v1/sessions/{s['id']}/moves", json={"move": move, "version": version},
                        headers=auth(tokens[seat]))
        assert r.status_code == 200, (move, r.json)
        version += 1
    assert version > 0


# --------------------------------------------------------------------------- access and headers


def test_tokens_decide_access(any_app, game):
    client = any_app.test_client()
    s = start(client, game)
    missing = client.get(f"/v1/sessions/{s['id']}")
    assert missing.status_code == 401 and missing.headers["WWW-Authenticate"] == "Bearer"
    assert client.get(f"/v1/sessions/{s['id']}", headers=auth("forged")).status_code == 403
    other = start(client, game)
    assert client.get(f"/v1/sessions/{s['id']}", headers=auth(other["seats"][0]["token"])).status_code == 403
    assert client.delete(f"/v1/sessions/{s['id']}", headers=auth(s["seats"][0]["token"])).status_code == 403
    gone = client.get("/v1/sessions/nope", headers=auth("x"))
    assert gone.status_code == 404 and "may have expired" in gone.json["detail"] and "lost" in gone.json["detail"]


def test_session_responses_are_never_cached(any_app, game):
    """DESIGN 4.1: Cache-Control: no-store on every session answer, refusals included."""
    client, s, _, token, move = opened(any_app, game)
    answers = [
        client.post("/v1/sessions", json={"game": game, "players": players_of(game)}),
        client.get(f"/v1/sessions/{s['id']}", headers=auth(token)),
        client.get(f"/v1/sessions/{s['id']}/log", headers=auth(token)),
        client.get(f"/v1/sessions/{s['id']}/legal-moves", headers=auth(token)),
        client.post(f"/v1/sessions/{s['id']}/moves", json={"move": move, "version": 0}, headers=auth(token)),
        client.post(f"/v1/sessions/{s['id']}/moves", json={"move": move, "version": 0}, headers=auth(token)),  # 409
        client.get(f"/v1/sessions/{s['id']}"),  # 401
        client.delete(f"/v1/sessions/{s['id']}", headers=auth(s["owner_token"])),
    ]
    assert [r.headers.get("Cache-Control") for r in answers] == ["no-store"] * len(answers)
    assert "Cache-Control" not in client.get("/v1/games").headers


def test_owner_deletes_and_the_session_is_gone(any_app, game):
    client = any_app.test_client()
    s = start(client, game)
    assert client.delete(f"/v1/sessions/{s['id']}", headers=auth(s["owner_token"])).status_code == 204
    r = client.get(f"/v1/sessions/{s['id']}", headers=auth(s["owner_token"]))
    assert r.status_code == 404 and r.json["code"] == "session.not-found"


# --------------------------------------------------------------------------- limits


def play_one(client, session) -> None:
    seat, token, move = first_move(client, session)
    r = client.post(f"/v1/sessions/{session['id']}/moves", json={"move": move, "version": 0}, headers=auth(token))
    assert r.status_code == 200, r.json


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
def full_app(request):
    """An app whose store holds at most 2 sessions: in memory, or on a Redis of the test's own
    (filling the shared one would evict other tests' sessions)."""
    config = {"MAX_SESSIONS": 2}
    if request.param == "redis":
        config["REDIS_URL"] = request.getfixturevalue("own_redis").url
    return create_app(TestConfig, config)


def test_max_sessions_is_503_store_full_until_one_ends(full_app, game):
    """DESIGN 4.1, 4.9: MAX_SESSIONS live sessions per store; when every one has had a move,
    503 session.store-full."""
    client = full_app.test_client()
    first, second = start(client, game), start(client, game)
    play_one(client, first)
    play_one(client, second)
    r = client.post("/v1/sessions", json={"game": game, "players": players_of(game)})
    assert r.status_code == 503 and r.json["code"] == "session.store-full" and r.headers["Retry-After"]
    assert client.delete(f"/v1/sessions/{first['id']}", headers=auth(first["owner_token"])).status_code == 204
    start(client, game)


def test_a_full_store_drops_the_oldest_session_nobody_moved_in(full_app):
    """DESIGN 4.9: filling the store with sessions nobody plays denies no one a new session:
    the least recently used session without a move goes first; played sessions stay."""
    game = GAMES[0]
    client = full_app.test_client()
    played = start(client, game)
    play_one(client, played)
    full_app.extensions["arbiter.store"]._max = 3
    idle = [start(client, game) for _ in range(2)]
    newest = start(client, game)  # full: the oldest idle one goes
    seen = {s["id"]: client.get(f"/v1/sessions/{s['id']}", headers=auth(s["owner_token"])).status_code
            for s in (played, *idle, newest)}
    assert seen == {played["id"]: 200, idle[0]["id"]: 404, idle[1]["id"]: 200, newest["id"]: 200}


def test_session_creation_is_rate_limited_per_client_address():
    """DESIGN 4.1: SESSIONS_PER_MINUTE creations per client address; beyond it 429 with
    Retry-After. Another address is counted apart; stateless endpoints are not limited."""
    client = create_app(TestConfig, {"SESSIONS_PER_MINUTE": 3}).test_client()
    game = GAMES[0]
    body = {"game": game, "players": players_of(game)}
    codes = [client.post("/v1/sessions", json=body).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    r = client.post("/v1/sessions", json=body)
    assert r.status_code == 429 and r.json["code"] == "session.rate-limited" and r.mimetype == "application/problem+json"
    assert 0 < int(r.headers["Retry-After"]) <= 60
    assert client.post("/v1/sessions", json=body, environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 201
    assert all(client.post(f"/v1/games/{game}/new", json={"players": players_of(game)}).status_code == 201
               for _ in range(5))


def test_the_memory_store_sweeps_expired_sessions_without_a_read():
    """DESIGN 4.1: the memory store drops expired sessions itself; it does not wait for a read."""
    store = MemoryStore(ttl=0.2, max_sessions=10, sweep_every=0.1)
    store.create("a", {"version": 0})
    store.create("b", {"version": 0})
    assert len(store) == 2
    deadline = time.monotonic() + 5
    while len(store) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(store) == 0


def test_several_workers_with_the_memory_store_are_refused(monkeypatch):
    """DESIGN 4.1: the sessions would split between processes: refuse at start, say what to set."""
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    with pytest.raises(RuntimeError, match="REDIS_URL") as exc:
        create_app(TestConfig)
    assert "3 worker processes" in str(exc.value) and "split" in str(exc.value)
    create_app(TestConfig, {"REDIS_URL": "redis://127.0.0.1:1/0"})  # shared sessions: any number of workers
    monkeypatch.setenv("WEB_CONCURRENCY", "1")
    create_app(TestConfig)


def test_gunicorn_with_two_workers_and_the_memory_store_does_not_start(tmp_path):
    """The real thing: ``gunicorn --workers 2`` without REDIS_URL exits with the reason."""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "WEB_CONCURRENCY")}
    proc = subprocess.run(
        [str(gunicorn), "--workers", "2", "--bind", "127.0.0.1:0", "service.app:create_app()"],
        cwd=Path(__file__).parents[2], env=env, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode != 0
    assert "would split the sessions" in proc.stderr and "REDIS_URL" in proc.stderr


# --------------------------------------------------------------------------- Redis


@pytest.mark.redis
def test_redis_sessions_expire(redis_url):
    import redis

    client = create_app(TestConfig, {"REDIS_URL": redis_url, "SESSION_TTL": 1}).test_client()
    s = start(client, GAMES[0])
    ttl = redis.Redis.from_url(redis_url).ttl(f"arbiter:{{{s['id']}}}:head")
    assert 0 < ttl <= 1
    redis.Redis.from_url(redis_url).pexpire(f"arbiter:{{{s['id']}}}:head", 1)
    time.sleep(0.05)
    assert client.get(f"/v1/sessions/{s['id']}", headers=auth(s["owner_token"])).status_code == 404


@pytest.mark.redis
def test_redis_sessions_are_shared_between_app_instances(redis_url, game):
    a = create_app(TestConfig, {"REDIS_URL": redis_url}).test_client()
    b = create_app(TestConfig, {"REDIS_URL": redis_url}).test_client()
    s = start(a, game)
    assert b.get(f"/v1/sessions/{s['id']}", headers=auth(s["owner_token"])).status_code == 200


def test_redis_down_sessions_503_stateless_still_work(dead_redis_app):
    client = dead_redis_app.test_client()
    game = GAMES[0]
    r = client.post("/v1/sessions", json={"game": game, "players": players_of(game)})
    assert r.status_code == 503 and r.mimetype == "application/problem+json"
    assert r.json["code"] == "session.store-unavailable" and r.headers["Retry-After"]
    assert client.get("/v1/sessions/abc", headers=auth("x")).status_code == 503
    assert client.get("/readyz").status_code == 503
    assert client.get("/healthz").status_code == 200
    assert client.post(f"/v1/games/{game}/new", json={"players": players_of(game)}).status_code == 201


def test_memory_store_is_ready(client):
    r = client.get("/readyz")
    assert r.status_code == 200 and r.json["store"] == "MemoryStore"


# --------------------------------------------------------------------------- validate


def test_validate_judges_a_session_move_without_making_it(any_app, game):
    """POST /v1/sessions/{id}/validate: 200 legal with the version, the session unchanged."""
    client, s, _, token, move = opened(any_app, game)
    before = full_state(any_app, s["id"])
    r = client.post(f"/v1/sessions/{s['id']}/validate", json={"move": move, "version": 0}, headers=auth(token))
    assert r.status_code == 200 and r.json["legal"] is True and r.json["version"] == 0
    assert full_state(any_app, s["id"]) == before


def test_validate_answers_the_problem_the_move_would_get(any_app):
    game = GAMES[0]
    client, s, _, token, move = opened(any_app, game)
    for body, headers in (({"move": {"kind": "nonsense"}, "version": 0}, auth(token)),
                          ({"move": move, "version": 5}, auth(token)),
                          ({"move": move}, auth(token)),
                          ({"move": move, "version": 0}, auth(s["owner_token"])),
                          ({"move": move, "version": 0}, {})):
        would = client.post(f"/v1/sessions/{s['id']}/validate", json=body, headers=headers)
        made = client.post(f"/v1/sessions/{s['id']}/moves", json=body, headers=headers)
        assert would.status_code == made.status_code >= 400 and would.json["code"] == made.json["code"], body
    assert full_state(any_app, s["id"])["version"] == 0
