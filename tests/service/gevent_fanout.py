"""Event streams under gevent, as `make run` serves them: run by tests/service/test_event_fanout.py
in a process of its own (``python -m tests.service.gevent_fanout SCENARIO``), because gevent's
monkey patching must come before anything else is imported and must not touch pytest's process.

The app is served by gevent's WSGI server on a real socket, its streams are read by greenlets
over real sockets: one event loop for all, as in gunicorn's gevent worker. The app is wrapped
to record, server side, the order in which things happen (a stream's move event handed to the
server, a /healthz answered). Prints one JSON object; the test asserts on it. No clock: every
wait here has a generous timeout only so that a failure ends instead of hanging.

- ``interleave``: STREAMS streams on one session, one move. As soon as the first stream's event
  is handed over, a client opens a new connection for /healthz. Prints the order of the move
  events and the /healthz answer.
- ``ordered``: STREAMS streams of three views (two seats and the owner), MOVES moves, each made
  as soon as the first stream has its predecessor (so fan-outs of two moves overlap). Prints
  the event ids each stream received, and how many events were rendered and how many store
  reads of the log the streams made meanwhile.
"""

from gevent import monkey

monkey.patch_all()

import json  # noqa: E402
import random  # noqa: E402
import socket  # noqa: E402
import sys  # noqa: E402

import gevent  # noqa: E402
import gevent.event  # noqa: E402
from gevent.pywsgi import WSGIServer  # noqa: E402

from service import events  # noqa: E402
from service.app import create_app  # noqa: E402
from service.config import TestConfig  # noqa: E402

TIMEOUT = 120  # seconds: only so that a broken fan-out fails the test instead of hanging it


class Recorder:
    """What the server hands over, in order: ``("snapshot" | "move", id)`` per stream event, and
    ``("healthz", None)`` per /healthz answered; ``on_move(version)`` is called at each move event."""

    def __init__(self, on_move=lambda version: None) -> None:
        self.order: list = []
        self.on_move = on_move
        self.snapshots = 0
        self.all_open = gevent.event.Event()
        self.expected = 0

    def record(self, kind: str, version: int | None) -> None:
        self.order.append((kind, version))
        if kind == "snapshot":
            self.snapshots += 1
            if self.snapshots == self.expected:
                self.all_open.set()
        elif kind == "move":
            self.on_move(version)


def serve(recorder: Recorder) -> tuple:
    """The app (memory store, long heartbeats) on a free port, telling ``recorder``."""
    app = create_app(TestConfig, {"EVENTS_HEARTBEAT": 600, "MAX_STREAMS_PER_SESSION": 10_000})
    inner = app.wsgi_app

    def recorded(body):
        try:
            for chunk in body:
                for kind in ("snapshot", "move"):
                    if chunk.startswith(b"id: ") and f"event: {kind}".encode() in chunk:
                        recorder.record(kind, int(chunk[4:chunk.index(b"\n")]))
                yield chunk
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()

    def recording(environ, start_response):
        body = inner(environ, start_response)
        if environ["PATH_INFO"] == "/healthz":
            recorder.record("healthz", None)
        return recorded(body) if environ["PATH_INFO"].endswith("/events") else body

    app.wsgi_app = recording  # type: ignore[method-assign]
    server = WSGIServer(("127.0.0.1", 0), app, log=None, error_log=None)
    server.start()
    return app, server


def read_stream(port: int, session_id: str, token: str, until: int, last_event_id: str | None = None) -> list[int]:
    """Open an event stream over a socket; the event ids it received, up to ``until``."""
    sock = socket.create_connection(("127.0.0.1", port))
    extra = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id else ""
    sock.sendall(f"GET /v1/sessions/{session_id}/events?access_token={token} HTTP/1.1\r\nHost: x\r\n"
                 f"Accept: text/event-stream\r\n{extra}\r\n".encode())
    buf = b""
    while f"\nid: {until}\n".encode() not in buf:
        data = sock.recv(65536)
        if not data:
            break
        buf += data
    sock.close()
    return [int(line[4:]) for line in buf.decode().split("\n") if line.startswith("id: ")]


def healthz(port: int) -> int:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    status = int(sock.recv(100).split()[1])
    sock.close()
    return status


def open_streams(port: int, recorder: Recorder, session_id: str, tokens: list[str], until: int) -> list:
    """Greenlets reading ``tokens``' streams up to event ``until``, once all have their snapshot."""
    recorder.expected = recorder.snapshots + len(tokens)
    greenlets = [gevent.spawn(read_stream, port, session_id, token, until) for token in tokens]
    assert recorder.all_open.wait(TIMEOUT), "the streams did not open"
    return greenlets


def a_move(client, created: dict, rnd: random.Random) -> None:
    auth = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created["seats"]}
    info = client.get(f"/v1/sessions/{created['id']}", headers=auth[0]).json
    seat = info["to_act"][0]
    legal = client.get(f"/v1/sessions/{created['id']}/legal-moves", headers=auth[seat]).json["moves"]
    resp = client.post(f"/v1/sessions/{created['id']}/moves", headers=auth[seat],
                       json={"move": rnd.choice(legal), "version": info["version"]})
    assert resp.status_code == 200, resp.json


def interleave(streams: int) -> dict:
    probes: list = []

    def on_move(version: int) -> None:
        if not probes:  # the first stream's event: a new client arrives while the fan-out goes on
            probes.append(gevent.spawn(healthz, server.server_port))

    recorder = Recorder(on_move)
    app, server = serve(recorder)
    client = app.test_client()
    created = client.post("/v1/sessions", json={"game": "take-that", "players": 2, "seed": 3}).json
    greenlets = open_streams(server.server_port, recorder, created["id"], [created["owner_token"]] * streams, 1)
    a_move(client, created, random.Random(1))
    gevent.joinall(greenlets, timeout=TIMEOUT)
    gevent.joinall(probes, timeout=TIMEOUT)
    server.stop()
    return {"order": [kind for kind, _ in recorder.order if kind != "snapshot"],
            "healthz": [g.value for g in probes], "received": [g.value for g in greenlets]}


def ordered(streams: int, moves: int) -> dict:
    firsts = {v: gevent.event.Event() for v in range(1, moves + 1)}
    rendered: list = []
    real_event = events._event
    events._event = lambda *a: rendered.append(a[1]) or real_event(*a)  # type: ignore[assignment]
    recorder = Recorder(lambda version: firsts[version].set())
    app, server = serve(recorder)
    client = app.test_client()
    created = client.post("/v1/sessions", json={"game": "take-that", "players": 2, "seed": 3}).json
    views = [created["seats"][0]["token"], created["seats"][1]["token"], created["owner_token"]]
    greenlets = open_streams(server.server_port, recorder, created["id"], [views[i % 3] for i in range(streams)],
                             moves)
    store = app.extensions["arbiter.store"]
    reads: list = []
    real_log, real_checkpoint = store.log, store.checkpoint
    store.log = lambda *a: reads.append("log") or real_log(*a)
    store.checkpoint = lambda *a: reads.append("checkpoint") or real_checkpoint(*a)
    rnd = random.Random(1)
    for version in range(1, moves + 1):
        a_move(client, created, rnd)
        assert firsts[version].wait(TIMEOUT), f"no stream got move {version}"  # the next move: mid-fan-out
    gevent.joinall(greenlets, timeout=TIMEOUT)
    store.log, store.checkpoint = real_log, real_checkpoint
    resumed = read_stream(server.server_port, created["id"], views[1], moves, last_event_id="2")
    server.stop()
    return {"received": [g.value for g in greenlets], "rendered": len(rendered), "store_reads": len(reads),
            "resumed": resumed}


if __name__ == "__main__":
    scenario, *numbers = sys.argv[1:]
    result = {"interleave": interleave, "ordered": ordered}[scenario](*map(int, numbers))
    print(json.dumps(result))
