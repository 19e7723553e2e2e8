"""Serving (DESIGN 4.6), against the server `make run` starts: slow clients and open event
streams do not take capacity from ordinary requests; connections are kept alive; the echo
benchmark app is served by the same command. Each check allows a generous deadline (a blocked
server never answers within it); speed itself is measured in bench/, not here."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import time
import urllib.request
from collections.abc import Iterator

from tests.live import make_run

DEADLINE = 3.0  # seconds; a server stalled by slow clients or streams does not answer at all


def _quick_requests(base: str, n: int = 10) -> list[float]:
    times = []
    for _ in range(n):
        t = time.monotonic()
        with urllib.request.urlopen(f"{base}/v1/games/take-that", timeout=DEADLINE) as resp:
            assert resp.status == 200
        times.append(time.monotonic() - t)
    return times


@contextlib.contextmanager
def connections(base: str, count: int, first: bytes, timeout: float) -> Iterator[list[socket.socket]]:
    """``count`` connections to the server at ``base``, each sent ``first``; all closed on the way out."""
    port = int(base.rsplit(":", 1)[1])
    opened = []
    try:
        for _ in range(count):
            s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
            s.sendall(first)
            opened.append(s)
        yield opened
    finally:
        for s in opened:
            s.close()


def test_two_hundred_slow_clients_do_not_delay_other_requests():
    """200 connections that send their headers a line at a time and never finish them."""
    with make_run() as base, connections(base, 200, b"GET /healthz HTTP/1.1\r\nHost: x\r\n", timeout=5) as slow:
        for s in slow:
            s.sendall(b"X-Slow: 1\r\n")
        assert max(_quick_requests(base)) < DEADLINE


def test_a_hundred_open_event_streams_leave_requests_fast():
    with make_run() as base:
        req = urllib.request.Request(f"{base}/v1/sessions", json.dumps({"game": "take-that", "players": 2}).encode(),
                                     {"Content-Type": "application/json"})
        created = json.loads(urllib.request.urlopen(req, timeout=5).read())
        path = f"/v1/sessions/{created['id']}/events?access_token={created['seats'][1]['token']}"
        request = f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode()
        with connections(base, 100, request, timeout=10) as streams:
            opened = 0
            for s in streams:
                buf = b""
                while b"event: snapshot" not in buf:
                    chunk = s.recv(65536)
                    assert chunk, "a stream was closed before its snapshot"
                    buf += chunk
                opened += 1
            assert opened == 100
            assert max(_quick_requests(base)) < DEADLINE


def test_connections_are_kept_alive():
    with make_run() as base:
        host, port = base.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=5)
        conn.request("GET", "/healthz")
        conn.getresponse().read()
        sock = conn.sock
        conn.request("POST", "/v1/games/take-that/new", body=json.dumps({"players": 2}),
                      headers={"Content-Type": "application/json"})
        assert conn.getresponse().status == 201
        assert conn.sock is sock


def test_the_echo_benchmark_is_served_by_the_same_command():
    """`APP=bench.echo_app:app make run` serves the bare echo with the same settings."""
    with make_run(APP="bench.echo_app:app") as base:
        req = urllib.request.Request(f"{base}/echo", b'{"a": [1, 2]}', {"Content-Type": "application/json"})
        assert json.loads(urllib.request.urlopen(req, timeout=5).read()) == {"a": [1, 2]}


def test_the_gevent_worker_serves_connections_in_turn():
    """After each request the gevent worker yields (service/gunicorn_conf.py), so a connection
    whose next request has already arrived does not go ahead of the others; other workers do not."""
    import gevent
    from gunicorn.workers.ggevent import GeventWorker
    from gunicorn.workers.gthread import ThreadWorker

    from service.gunicorn_conf import post_request

    for worker_class, expected in ((GeventWorker, ["other connection"]), (ThreadWorker, [])):
        ran: list[str] = []
        waiting = gevent.spawn(ran.append, "other connection")
        post_request(worker_class.__new__(worker_class), None, {}, None)
        assert ran == expected, worker_class.__name__
        waiting.kill()
