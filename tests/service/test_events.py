"""Live events (DESIGN 4.2): a snapshot, one event per move as each token may see it, resume,
heartbeats; in process with the memory store, and across two servers sharing one Redis."""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.request

import pytest

from service.app import create_app
from service.config import TestConfig
from service.games import BINDINGS
from tests.live import make_run, redis_server
from tests.playout import PLAYOUT_OPTIONS

GAMES = sorted(BINDINGS)


class _Schemas(dict):
    """Each game's ``<Game>Event`` schema of the contract, made when first asked for."""

    def __missing__(self, game: str):
        import jsonschema_rs

        from service.openapi import _prefix, build_spec

        components = {"schemas": build_spec()["components"]["schemas"]}
        self[game] = jsonschema_rs.validator_for({"$ref": f"#/components/schemas/{_prefix(BINDINGS[game])}Event",
                                                  "components": components})
        return self[game]


EVENT_SCHEMAS = _Schemas()


def parse(chunks) -> list[dict]:
    """SSE bytes -> [{"event", "id", "data"}] (comments and retry lines dropped)."""
    out = []
    for chunk in chunks:
        for block in chunk.decode().split("\n\n"):
            fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and line[0] != ":")
            if "data" in fields:
                out.append({"event": fields.get("event"), "id": fields.get("id"), "data": json.loads(fields["data"])})
    return out


def _auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def _session(client, game: str, seed: int = 4) -> dict:
    players = BINDINGS[game].engine.players.start if game != "kierki" else 4
    resp = client.post("/v1/sessions", json={"game": game, "players": players, "seed": seed,
                                              "options": PLAYOUT_OPTIONS.get(game, {})})
    assert resp.status_code == 201, resp.json
    return resp.json


def _play(client, created: dict, rnd: random.Random, moves: int) -> int:
    """Random legal moves by whichever seat acts; the number made."""
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    made = 0
    for _ in range(moves):
        info = client.get(f"/v1/sessions/{created['id']}", headers=_auth(tokens[0])).json
        if not info["to_act"]:
            break
        seat = rnd.choice(info["to_act"])
        legal = client.get(f"/v1/sessions/{created['id']}/legal-moves", headers=_auth(tokens[seat])).json["moves"]
        resp = client.post(f"/v1/sessions/{created['id']}/moves", headers=_auth(tokens[seat]),
                           json={"move": rnd.choice(legal), "version": info["version"]})
        assert resp.status_code == 200, resp.json
        made += 1
    return made


@pytest.fixture(params=["memory", pytest.param("cluster", marks=pytest.mark.redis)])
def app(request):
    """The memory store, and a real local Redis Cluster (DESIGN 4.9)."""
    config = {"EVENTS_HEARTBEAT": 0.05}
    if request.param == "cluster":
        config.update(request.getfixturevalue("redis_cluster").config())
    return create_app(TestConfig, config)


def _stream(client, created: dict, token: str, last_event_id: str | None = None):
    headers = {"Accept": "text/event-stream", **({"Last-Event-ID": last_event_id} if last_event_id else {})}
    resp = client.get(f"/v1/sessions/{created['id']}/events?access_token={token}", headers=headers, buffered=False)
    assert resp.status_code == 200 and resp.mimetype == "text/event-stream"
    assert resp.headers["Cache-Control"] == "no-store"
    return resp.iter_encoded()


@pytest.mark.parametrize("game", GAMES)
def test_each_seat_sees_each_move_as_its_view_shows_it(app, game):
    """Replaying a stream from version 0 gives, for every move, the seat's own view of the
    state after it (never more: another seat's hidden cards are not in it) and the move as
    that seat's log shows it."""
    client = app.test_client()
    created = _session(client, game)
    made = _play(client, created, random.Random(7), 12)
    assert made > 0
    for seat_entry in created["seats"]:
        token = seat_entry["token"]
        events = []
        gen = _stream(client, created, token, last_event_id="0")
        while len(events) < made:
            events += [e for e in parse([next(gen)]) if e["event"] == "move"]
        answer = client.get(f"/v1/sessions/{created['id']}/log", headers=_auth(token)).json
        log = answer["moves"]
        now = client.get(f"/v1/sessions/{created['id']}", headers=_auth(token)).json
        assert [e["data"]["version"] for e in events] == list(range(1, made + 1))
        assert [e["data"]["move"] for e in events] == [item["move"] for item in log]
        # what each move did: the same in the stream and the log, its move event showing the move as shown
        assert [e["data"]["events"] for e in events] == answer["events"]
        for item, did in zip(log, answer["events"], strict=True):
            shown = [] if item.get("hidden") else [{"type": "move", "seat": item["seat"], "move": item["move"]}]
            assert [d for d in did if d["type"] == "move"] == shown
            for d in did:
                assert not [str(err) for err in EVENT_SCHEMAS[game].iter_errors(d)], (d, game)
        assert events[-1]["data"]["state"] == now["state"]
        assert events[-1]["data"]["to_act"] == now["to_act"]
        for e in events:
            assert "rng" not in e["data"]["state"] and "seed" not in json.dumps(e["data"])


def test_a_hidden_card_is_never_in_another_seats_event(app):
    """Take That: seat 0's hand is private; seat 1's events after seat 0's moves never name a
    card that is still in seat 0's hand."""
    client = app.test_client()
    created = _session(client, "take-that")
    _play(client, created, random.Random(3), 6)
    owner_view = client.get(f"/v1/sessions/{created['id']}/log", headers=_auth(created["seats"][0]["token"]))
    assert owner_view.status_code == 200
    seat0 = client.get(f"/v1/sessions/{created['id']}", headers=_auth(created["seats"][0]["token"])).json
    hand0 = set(seat0["state"]["hands"][0])
    assert hand0
    gen = _stream(client, created, created["seats"][1]["token"], last_event_id="0")
    events = []
    while len(events) < 6:
        events += [e for e in parse([next(gen)]) if e["event"] == "move"]
    for e in events:
        assert e["data"]["state"]["hands"][0] is None
        shown = {c for hand in e["data"]["state"]["hands"] if hand for c in hand}
        assert not shown & hand0


def test_snapshot_first_then_a_move_then_heartbeats(app):
    client = app.test_client()
    created = _session(client, "take-that")
    gen = _stream(client, created, created["seats"][1]["token"])
    first = parse([next(gen), next(gen)])
    assert first[0]["event"] == "snapshot" and first[0]["id"] == "0"
    snapshot_of_get = client.get(f"/v1/sessions/{created['id']}", headers=_auth(created["seats"][1]["token"])).json
    assert first[0]["data"]["state"] == snapshot_of_get["state"]
    assert next(gen) == b": keep-alive\n\n"
    _play(client, created, random.Random(1), 1)
    moves = []
    while not moves:
        moves = [e for e in parse([next(gen)]) if e["event"] == "move"]
    assert moves[0]["id"] == "1" and moves[0]["data"]["seat"] == 0


def test_resume_after_last_event_id_sends_only_what_was_missed(app):
    client = app.test_client()
    created = _session(client, "11-nimmt")
    made = _play(client, created, random.Random(2), 5)
    gen = _stream(client, created, created["seats"][0]["token"], last_event_id="3")
    events = []
    while len(events) < made - 3:
        events += parse([next(gen)])
    assert [e["event"] for e in events] == ["move"] * (made - 3)
    assert [e["id"] for e in events] == [str(v) for v in range(4, made + 1)]


def test_too_far_behind_or_unknown_ids_get_a_fresh_snapshot(app):
    app.config["EVENTS_RESUME_LIMIT"] = 2
    client = app.test_client()
    created = _session(client, "11-nimmt")
    made = _play(client, created, random.Random(2), 5)
    for last in ("0", "999", "junk", "\u00b2"):
        gen = _stream(client, created, created["seats"][0]["token"], last_event_id=last)
        events = parse([next(gen), next(gen)])
        assert events[0]["event"] == "snapshot" and events[0]["id"] == str(made)


def test_stream_needs_a_token_of_the_session(app):
    client = app.test_client()
    created = _session(client, "take-that")
    assert client.get(f"/v1/sessions/{created['id']}/events").status_code == 401
    assert client.get(f"/v1/sessions/{created['id']}/events?access_token=nope").status_code == 403
    assert client.get("/v1/sessions/nope/events?access_token=nope").status_code == 404


def test_the_owner_streams_as_a_spectator(app):
    client = app.test_client()
    created = _session(client, "take-that")
    gen = _stream(client, created, created["owner_token"])
    snapshot = [e for e in parse([next(gen), next(gen)]) if e["event"] == "snapshot"][0]
    assert snapshot["data"]["seat"] is None
    assert all(hand is None for hand in snapshot["data"]["state"]["hands"])


def test_a_last_event_id_of_non_ascii_digits_gets_a_snapshot_not_a_500(app):
    """'²'.isdigit() is true and int('²') raises: such an id is unknown, like 'junk'."""
    client = app.test_client()
    created = _session(client, "take-that")
    gen = _stream(client, created, created["owner_token"], last_event_id="\u00b2")
    assert parse([next(gen), next(gen)])[0]["event"] == "snapshot"


def test_a_store_failure_while_a_stream_is_answered_is_a_keep_alive_then_the_answer(app, monkeypatch):
    """DESIGN 4.9: a briefly unavailable store never ends a stream. The first snapshot's read
    failing (after the 200) sends a keep-alive, and the snapshot follows once the store answers;
    the session gone meanwhile ends the stream with `end`."""
    from service import sessions
    from service.errors import store_unavailable

    client = app.test_client()
    created = _session(client, "take-that")
    real_show, failures = sessions.show, [1]

    def show(*args, **kwargs):
        if failures:
            failures.pop()
            raise store_unavailable("the store failed for this test")
        return real_show(*args, **kwargs)

    monkeypatch.setattr(sessions, "show", show)
    gen = _stream(client, created, created["owner_token"])
    assert next(gen).startswith(b"retry:")
    assert next(gen) == b": keep-alive (session store unavailable)\n\n"
    assert parse([next(gen)])[0]["event"] == "snapshot"
    failures.append(1)
    monkeypatch.setattr(sessions, "show", lambda *a, **k: (_ for _ in ()).throw(
        sessions.session_not_found(created["id"])))
    resumed = _stream(client, created, created["owner_token"])
    assert next(resumed).startswith(b"retry:")
    assert parse([next(resumed)])[0]["event"] == "end"


def test_streams_per_session_are_bounded_429(app):
    app.config["MAX_STREAMS_PER_SESSION"] = 2
    client = app.test_client()
    created = _session(client, "take-that")
    url = f"/v1/sessions/{created['id']}/events?access_token={created['owner_token']}"
    open_ = [client.get(url, buffered=False) for _ in range(2)]
    for r in open_:
        next(r.iter_encoded())
    refused = client.get(url)
    assert refused.status_code == 429 and refused.json["code"] == "session.too-many-streams"
    open_[0].close()
    again = client.get(url, buffered=False)
    assert again.status_code == 200
    again.close()


def test_a_stream_never_read_still_gives_its_place_back(app):
    """HEAD, or a client gone before the first byte: the body is never iterated, yet the stream's
    registration is released when the response closes (else MAX_STREAMS_PER_SESSION fills)."""
    app.config["MAX_STREAMS_PER_SESSION"] = 2
    client = app.test_client()
    created = _session(client, "take-that")
    url = f"/v1/sessions/{created['id']}/events?access_token={created['owner_token']}"
    for _ in range(3):
        head = client.head(url)
        assert head.status_code == 200
        head.close()  # as a WSGI server closes every body
        client.get(url, buffered=False).close()  # closed before its first chunk
    assert app.extensions["arbiter.events"].open_streams == 0
    again = client.get(url, buffered=False)
    assert again.status_code == 200
    again.close()


def test_a_move_is_rendered_once_per_distinct_view_however_many_streams_watch(app, monkeypatch):
    """DESIGN 4.9: ten streams of seat 1 and ten of the owner cost two renderings of the move."""
    from service import events

    rendered = []
    real = events._event
    monkeypatch.setattr(events, "_event", lambda *a: rendered.append(a[4]) or real(*a))
    client = app.test_client()
    created = _session(client, "take-that")
    gens = [_stream(client, created, token) for token in [created["seats"][1]["token"]] * 10
            + [created["owner_token"]] * 10]
    for gen in gens:
        assert parse([next(gen), next(gen)])[0]["event"] == "snapshot"
    _play(client, created, random.Random(1), 1)
    for gen in gens:
        moves = []
        while not moves:
            moves = [e for e in parse([next(gen)]) if e["event"] == "move"]
        assert moves[0]["id"] == "1"
    assert sorted(rendered, key=str) == [1, None]


def test_a_resume_reads_only_from_the_checkpoint_before_last_event_id(app, monkeypatch):
    """DESIGN 4.9: with a checkpoint every 2 moves, a resume from 3 of 5 reads log entries 2-4
    (from the checkpoint after move 2), not the log from the start."""
    from service import sessions

    monkeypatch.setattr(sessions, "CHECKPOINT_EVERY", 2)
    client = app.test_client()
    created = _session(client, "11-nimmt")
    made = _play(client, created, random.Random(2), 5)
    assert made == 5
    store = app.extensions["arbiter.store"]
    reads = []
    real_log = store.log
    monkeypatch.setattr(store, "log", lambda sid, start=0, stop=None: reads.append((start, stop)) or real_log(sid, start, stop))
    gen = _stream(client, created, created["seats"][0]["token"], last_event_id="3")
    events = []
    while len(events) < 2:
        events += [e for e in parse([next(gen)]) if e["event"] == "move"]
    assert [e["id"] for e in events] == ["4", "5"] and reads == [(2, 5)]


def test_a_session_expires_after_its_last_move_whoever_watches(app):
    """Heartbeats do not keep a session alive: its stream ends with the reason."""
    app.extensions["arbiter.store"]._ttl = 0.5
    client = app.test_client()
    created = _session(client, "take-that")
    gen = _stream(client, created, created["owner_token"])
    seen = []
    for chunk in gen:
        seen += parse([chunk])
        if seen and seen[-1]["event"] == "end":
            break
    assert "expired" in seen[-1]["data"]["reason"]


# --------------------------------------------------------------------------- over real HTTP


def _post(url: str, body: dict, token: str | None = None) -> dict:
    req = urllib.request.Request(url, json.dumps(body).encode(), {
        "Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})})
    return json.loads(urllib.request.urlopen(req, timeout=10).read())


def _get(url: str, token: str) -> dict:
    req = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    return json.loads(urllib.request.urlopen(req, timeout=10).read())


def _first_move_event(url: str, token: str, found: list, ready: threading.Event) -> None:
    with urllib.request.urlopen(f"{url}?access_token={token}", timeout=20) as resp:
        buf = b""
        while b"event: move" not in buf:
            line = resp.readline()
            if not line:
                return
            buf += line
            if b"event: snapshot" in buf:
                ready.set()
        found.append(time.monotonic())


def _move_seen_by_other_seat(create_on: str, stream_on: str, move_on: str) -> float:
    created = _post(f"{create_on}/v1/sessions", {"game": "take-that", "players": 2, "seed": 9})
    s0, s1 = (s["token"] for s in created["seats"])
    found: list = []
    ready = threading.Event()
    reader = threading.Thread(target=_first_move_event, daemon=True,
                              args=(f"{stream_on}/v1/sessions/{created['id']}/events", s1, found, ready))
    reader.start()
    assert ready.wait(10), "no snapshot on the stream"
    move = _get(f"{move_on}/v1/sessions/{created['id']}/legal-moves", s0)["moves"][0]
    _post(f"{move_on}/v1/sessions/{created['id']}/moves", {"move": move, "version": 0}, s0)
    moved = time.monotonic()
    reader.join(10)
    assert found, "the other seat's stream never got the move"
    return found[0] - moved


def test_a_move_reaches_the_other_seats_stream():
    with make_run() as url:
        _move_seen_by_other_seat(url, url, url)  # asserts the move arrives


@pytest.mark.redis
def test_two_servers_on_one_redis_a_move_on_one_is_an_event_on_the_other():
    """Two `make run` instances share one real Redis (a server of this test's own): the
    session is made and moved on A and streamed from B."""
    with redis_server() as (redis_url, _, _), make_run({"REDIS_URL": redis_url}, WORKERS="1") as a, \
            make_run({"REDIS_URL": redis_url}, WORKERS="1") as b:
        _move_seen_by_other_seat(a, b, a)  # asserts the move arrives


@pytest.mark.redis
def test_two_servers_on_one_redis_cluster_a_move_on_one_is_an_event_on_the_other(redis_cluster):
    """DESIGN 4.9: the same across two `make run` instances on a Redis Cluster."""
    env = {"REDIS_URL": redis_cluster.url, "REDIS_CLUSTER": "1", "REDIS_WAIT_MS": str(redis_cluster.WAIT_MS)}
    with make_run(env, WORKERS="1") as a, make_run(env, WORKERS="1") as b:
        _move_seen_by_other_seat(a, b, a)  # asserts the move arrives


@pytest.mark.redis
def test_a_paused_redis_never_tells_a_stream_its_session_is_gone(own_redis):
    """DESIGN 4.9: the store unavailable for a moment: heartbeats go on, no `event: end`, and
    the next move arrives once Redis is back."""
    app = create_app(TestConfig, {"REDIS_URL": own_redis.url, "EVENTS_HEARTBEAT": 0.05,
                                  "REDIS_TIMEOUT": 0.2, "REDIS_BACKOFF": 0.2})
    client = app.test_client()
    created = _session(client, "take-that")
    gen = _stream(client, created, created["owner_token"])
    assert parse([next(gen), next(gen)])[0]["event"] == "snapshot"
    own_redis.pause()
    try:
        during = [next(gen) for _ in range(10)]
    finally:
        own_redis.resume()
    assert not [e for e in parse(during) if e["event"] == "end"]
    time.sleep(0.3)
    _play(client, created, random.Random(1), 1)
    seen = []
    while not [e for e in seen if e["event"] == "move"]:
        seen += parse([next(gen)])
    assert not [e for e in seen if e["event"] == "end"]
