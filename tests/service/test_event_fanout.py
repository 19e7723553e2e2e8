"""Many streams on one session (DESIGN 4.9, issue 19): every stream gets every move's event, in
order, and the fan-out of a move does not hold other requests. Behaviour only, no clock: under
gevent the order in which the one event loop does things is what the tests look at."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading

import pytest

from service import events
from service.app import create_app
from service.config import TestConfig
from tests.live import ROOT
from tests.service.test_events import _auth, _play, _session, _stream, parse


def _under_gevent(*args: object) -> dict:
    """A scenario of tests/service/gevent_fanout.py, in a process of its own (monkey patched)."""
    done = subprocess.run([sys.executable, "-m", "tests.service.gevent_fanout", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_under_gevent_a_request_arriving_mid_fan_out_is_answered_before_the_fan_out_ends():
    """20 batches of streams (200) watch one session; a new connection asks /healthz as soon as
    the first stream has the move. Woken all at once, every stream got the move before /healthz
    was answered (it was the last thing the server did, 201st); the fan-out now returns to the
    event loop after each WAKE_BATCH streams, so /healthz is answered within a few batches (after
    30 events, 3 batches, when this was written)."""
    streams = 20 * events.WAKE_BATCH
    out = _under_gevent("interleave", streams)
    assert out["received"] == [[0, 1]] * streams  # the snapshot, then the move, on every stream
    assert out["healthz"] == [200]
    order = out["order"]
    assert order.count("move") == streams
    answered = order.index("healthz")
    assert answered < 10 * events.WAKE_BATCH, f"/healthz came after {answered} of {streams} streams' events"


def test_under_gevent_every_stream_gets_every_event_in_order_while_fan_outs_overlap():
    """300 streams of three views; each move is made as soon as the first stream has the one
    before, so the next fan-out starts while the last one is under way and streams are woken
    late, a move or two behind. Each stream still gets each event once, in order; catching up
    is rendered once per view, not per stream; a resume after event 2 still works."""
    streams, moves = 300, 6
    out = _under_gevent("ordered", streams, moves)
    assert out["received"] == [list(range(moves + 1))] * streams
    assert out["rendered"] < streams and out["store_reads"] < streams, out
    assert out["resumed"] == list(range(3, moves + 1))


# --------------------------------------------------------------------------- threads (in process)


def _app(**config):
    return create_app(TestConfig, {"EVENTS_HEARTBEAT": 600, **config})


def _read_until(gen, version: int) -> list[dict]:
    seen: list[dict] = []
    while not seen or seen[-1]["id"] != str(version):
        seen += parse([next(gen)])
    return seen


def _read(gen, version: int) -> list[dict]:
    """The events up to ``version``, read by a thread: the join's limit is only there so that a
    stream left waiting for its heartbeat (600 s here) fails the test instead of hanging it."""
    seen: list[dict] = []
    reader = threading.Thread(target=lambda: seen.extend(_read_until(gen, version)), daemon=True)
    reader.start()
    reader.join(60)
    assert not reader.is_alive(), f"no event {version} on the stream"
    return seen


def test_many_streams_each_get_every_move_in_order():
    """30 streams of three views, each read by a thread of its own, while 8 moves are made."""
    app = _app()
    client = app.test_client()
    created = _session(client, "take-that")
    tokens = [created["seats"][0]["token"], created["seats"][1]["token"], created["owner_token"]] * 10
    gens = [_stream(client, created, token) for token in tokens]
    for gen in gens:
        assert parse([next(gen), next(gen)])[0]["event"] == "snapshot"
    moves = 8
    results: dict[int, list[dict]] = {}
    readers = [threading.Thread(target=lambda i=i, gen=gen: results.__setitem__(i, _read_until(gen, moves)),
                                daemon=True) for i, gen in enumerate(gens)]
    for reader in readers:
        reader.start()
    assert _play(client, created, random.Random(5), moves) == moves
    for reader in readers:
        reader.join(60)
    assert sorted(results) == list(range(len(gens)))
    for seen in results.values():
        assert [(e["event"], e["id"]) for e in seen] == [("move", str(v)) for v in range(1, moves + 1)]


def test_a_move_made_while_a_stream_is_not_waiting_is_sent_at_once_not_at_the_heartbeat():
    """The stream stays registered between two waits: moves made while it was busy (here: its
    reader had not asked for more) wake it at once. Before, they were found only at the next
    heartbeat (600 s here)."""
    app = _app()
    client = app.test_client()
    created = _session(client, "take-that")
    gen = _stream(client, created, created["seats"][1]["token"])
    assert parse([next(gen), next(gen)])[0]["event"] == "snapshot"
    _play(client, created, random.Random(1), 2)
    assert [(e["event"], e["id"]) for e in _read(gen, 2)] == [("move", "1"), ("move", "2")]


def test_a_stream_woken_by_a_move_of_this_process_reads_nothing_from_the_store(monkeypatch):
    """The move's head is handed to the streams: 10 streams of two seats, a move at a time, and
    no store read by a stream. Three moves at once then: each seat's catch-up reads the store
    once (its checkpoint and its log entries), whichever of its five streams comes first."""
    app = _app()
    client = app.test_client()
    created = _session(client, "11-nimmt")
    gens = [_stream(client, created, created["seats"][i % 2]["token"]) for i in range(10)]
    for gen in gens:
        assert parse([next(gen), next(gen)])[0]["event"] == "snapshot"
    store = app.extensions["arbiter.store"]
    reads: list[str] = []
    streams_reading = False

    def counted(name: str):
        real = getattr(store, name)

        def read(*args):
            if streams_reading:  # a stream's read, not the moves'
                reads.append(name)
            return real(*args)
        return read

    for name in ("get", "log", "checkpoint"):
        monkeypatch.setattr(store, name, counted(name))
    rnd = random.Random(2)
    for version in range(1, 4):
        assert _play(client, created, rnd, 1) == 1
        streams_reading = True
        for gen in gens:
            assert [e["id"] for e in _read(gen, version)] == [str(version)]
        streams_reading = False
    assert reads == []
    assert _play(client, created, rnd, 3) == 3
    streams_reading = True
    for gen in gens:
        assert [e["id"] for e in _read(gen, 6)] == ["4", "5", "6"]
    assert sorted(reads) == ["checkpoint", "checkpoint", "log", "log"]


def test_the_fan_out_pauses_after_every_batch_of_woken_streams(monkeypatch):
    """The mechanism itself: ``pause`` (under gevent a return to the event loop) after every
    WAKE_BATCH streams actually woken; streams already told of the version do not count."""
    monkeypatch.setattr(events, "WAKE_BATCH", 4)
    log: list[str] = []

    class Bell:  # the stream's event: tells the log when it is set
        def __init__(self, i: int) -> None:
            self.i = i

        def set(self) -> None:
            log.append(f"wake {self.i}")

    watches = [events._Watch(0) for _ in range(10)] + [events._Watch(7) for _ in range(5)]
    for i, watch in enumerate(watches):
        watch.event = Bell(i)  # type: ignore[assignment]
    events._ring(watches, 7, pause=lambda: log.append("pause"))
    assert log == ["wake 0", "wake 1", "wake 2", "wake 3", "pause", "wake 4", "wake 5", "wake 6", "wake 7",
                   "pause", "wake 8", "wake 9"]


@pytest.mark.parametrize("limit", [1, 3])
def test_streams_past_the_limit_are_refused_and_a_closed_one_frees_its_place(limit):
    app = _app(MAX_STREAMS_PER_SESSION=limit)
    client = app.test_client()
    created = _session(client, "take-that")
    url = f"/v1/sessions/{created['id']}/events?access_token={created['owner_token']}"
    opened = [client.get(url, buffered=False) for _ in range(limit)]
    for resp in opened:
        next(resp.iter_encoded())
    assert client.get(url).status_code == 429
    notifier = app.extensions["arbiter.events"]
    assert notifier.open_streams == limit
    opened[0].close()
    assert notifier.open_streams == limit - 1
    again = client.get(url, buffered=False)
    assert again.status_code == 200
    next(again.iter_encoded())
    again.close()
    for resp in opened[1:]:
        resp.close()
    assert notifier.open_streams == 0
    assert client.get(f"/v1/sessions/{created['id']}", headers=_auth(created["owner_token"])).status_code == 200
