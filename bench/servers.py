"""Which HTTP server `make run` uses, chosen by measurement (issue 11 §1, DESIGN 4.6).

Candidates, each serving the same app with one worker process pinned to core 0 (wrk and the
probes run on core 1), measured side by side in one run:

- ``gunicorn-gthread``: gunicorn, gthread worker, 4 threads (the old default);
- ``gunicorn-gevent``: gunicorn, gevent worker (greenlets; the worker patches the standard
  library, so redis-py and the locks of the memory store cooperate);
- ``gunicorn-gevent-pywsgi``: gunicorn's worker that parses HTTP with gevent's own ``pywsgi``
  (gunicorn's request limits and its pre/post request hooks do not apply there);
- ``granian``: granian's WSGI interface (a Rust HTTP server), 4 blocking threads.

Criteria: 200 slow clients that send their headers a line every 2 s must not delay other
requests (median of 20 ordinary requests < 100 ms); HTTP/1.1 keep-alive (two requests on one
connection); open event streams (how many of N streams get their snapshot, and the median
latency of ordinary requests while they are open); requests per second of ``apply`` and of
the bare echo (wrk, keep-alive). Usage: ``python bench/servers.py [--streams 2000]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.run import apply_body, serve, wrk  # noqa: E402
from tests.live import free_port, stop  # noqa: E402

BIN = Path(sys.executable).parent
CONF = ["--config", "python:service.gunicorn_conf"]  # as `make run`: the gevent worker yields after each request


def command(server: str, app: str, port: int) -> list[str]:
    """The command line of one candidate (the Makefile's `make run` uses the same flags)."""
    bind = f"127.0.0.1:{port}"
    if server == "gunicorn-gthread":
        return [str(BIN / "gunicorn"), *CONF, "-k", "gthread", "--workers", "1", "--threads", "4", "--bind", bind, app]
    if server == "gunicorn-gevent":
        return [str(BIN / "gunicorn"), *CONF, "-k", "gevent", "--workers", "1", "--worker-connections", "10000",
                "--bind", bind, app]
    if server == "gunicorn-gevent-pywsgi":
        return [str(BIN / "gunicorn"), *CONF, "-k", "gevent_pywsgi", "--workers", "1", "--worker-connections", "10000",
                "--bind", bind, app]
    if server == "granian":
        target, factory = (app[:-2], ["--factory"]) if app.endswith("()") else (app, [])
        return [str(BIN / "granian"), "--interface", "wsgi", "--workers", "1", "--blocking-threads", "4",
                "--host", "127.0.0.1", "--port", str(port), "--no-log", *factory, target]
    raise ValueError(server)


def start(server: str, app: str, port: int) -> subprocess.Popen:
    return serve(command(server, app, port), port)


def latency_ms(port: int, n: int = 20, timeout: float = 10.0) -> float:
    """Median ms of ``n`` fresh GET /healthz requests (a timed-out request counts as ``timeout``)."""
    times = []
    for _ in range(n):
        t = time.perf_counter()
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=timeout).read()
            times.append((time.perf_counter() - t) * 1000)
        except OSError:
            times.append(timeout * 1000)
    return statistics.median(times)


def slow_clients(port: int, count: int = 200) -> float:
    socks = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        socks.append(s)
    time.sleep(0.5)
    for s in socks:
        s.sendall(b"X-Slow: 1\r\n")  # a line of headers, never the blank line that ends them
    result = latency_ms(port)
    for s in socks:
        s.close()
    return result


def keep_alive(port: int) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/healthz")
    first = conn.getresponse()
    first.read()
    sock = conn.sock
    conn.request("GET", "/healthz")
    second = conn.getresponse()
    second.read()
    return first.status == second.status == 200 and conn.sock is sock and sock is not None


def streams(port: int, count: int) -> tuple[int, float]:
    """Open ``count`` event streams on one session; how many got a snapshot, and the latency."""
    req = json.dumps({"game": "take-that", "players": 2}).encode()
    created = json.loads(urllib.request.urlopen(urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/sessions", req, {"Content-Type": "application/json"})).read())
    path = f"/v1/sessions/{created['id']}/events?access_token={created['seats'][1]['token']}"
    socks = []
    for _ in range(count):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
            socks.append(s)
        except OSError:
            break
    got = 0
    deadline = time.monotonic() + 20
    for s in socks:
        s.settimeout(max(0.01, deadline - time.monotonic()))
        buf = b""
        try:
            while b"event: snapshot" not in buf:
                chunk = s.recv(65536)
                if not chunk:
                    break
                buf += chunk
        except OSError:
            pass
        got += b"event: snapshot" in buf
    result = latency_ms(port, timeout=5)
    for s in socks:
        s.close()
    return got, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", default="gunicorn-gthread,gunicorn-gevent,gunicorn-gevent-pywsgi,granian")
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--game", default="take-that")
    args = parser.parse_args()
    body = apply_body(args.game)
    text = json.dumps(body)
    echo_text = json.dumps({"payload": body["state"], "seat": body["seat"], "move": body["move"]})
    rows = []
    for server in args.servers.split(","):
        port, eport = free_port(), free_port()
        app = start(server, "service.app:create_app()", port)
        try:
            row = {"server": server, "idle_ms": latency_ms(port), "keep_alive": keep_alive(port),
                   "slow_ms": slow_clients(port)}
            time.sleep(1)
            row["streams_ok"], row["streams_ms"] = streams(port, args.streams)
        finally:
            stop(app)
        app = start(server, "service.app:create_app()", port)  # afresh: streams may still hold its threads
        try:
            wrk(f"http://127.0.0.1:{port}/v1/games/{args.game}/apply", text, 1, 8)
            row["apply"] = wrk(f"http://127.0.0.1:{port}/v1/games/{args.game}/apply", text, args.seconds, 8)
        finally:
            stop(app)
        echo = start(server, "bench.echo_app:app", eport)
        try:
            wrk(f"http://127.0.0.1:{eport}/echo", echo_text, 1, 8)
            row["echo"] = wrk(f"http://127.0.0.1:{eport}/echo", echo_text, args.seconds, 8)
        finally:
            stop(echo)
        rows.append(row)
        print(json.dumps(row), flush=True)
    print(f"\n| server | idle ms | 200 slow clients: median ms | keep-alive | {args.streams} streams: snapshots"
          f" | ms with streams open | {args.game} apply req/s | apply p99 ms | echo req/s | apply/echo |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['server']} | {r['idle_ms']:.1f} | {r['slow_ms']:.1f} | {'yes' if r['keep_alive'] else 'no'} "
              f"| {r['streams_ok']} | {r['streams_ms']:.1f} | {r['apply']['rps']:.0f} | {r['apply']['p99_ms']:.1f} "
              f"| {r['echo']['rps']:.0f} "
              f"| {r['apply']['rps'] / r['echo']['rps']:.2f} |")


if __name__ == "__main__":
    main()
