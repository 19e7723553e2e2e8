"""Sessions at internet scale (issue 19, DESIGN 4.9): figures printed, never asserted.

    python bench/sessions.py [--moves 1500] [--streams 3000] [--stalled 10000] [--only NAME ...]

- ``latency``: a 25-point backgammon match played move by move through the session API (in
  process, Flask test client): median move latency over moves 1-100 and over the last 100, on
  the memory store, a Redis of its own and a local Redis Cluster (3 masters + 1 replica each).
- ``streams``: `make run` (gevent, memory store); N event streams opened on one Take That
  session and left unread; /healthz p50/p99 measured while moves are made; then every stream
  is read to check it got every event once, in order.
- ``stalled``: `make run`; N connections from 127.0.0.1 that send headers and part of a body,
  then stop; /healthz from 127.0.0.2 meanwhile (p50/p99, failures).
- ``flood``: MAX_SESSIONS=1000 behind a trusted proxy; 2,000 creations from 400 addresses
  nobody plays, then a new client creates a session and plays.
- ``failover``: a local cluster, 30 moves, the master of the session's slot killed; seconds
  until a move lands again and acknowledged moves lost.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.app import create_app  # noqa: E402
from service.config import TestConfig  # noqa: E402
from tests.live import make_run  # noqa: E402
from tests.playout import choose  # noqa: E402
from tests.service.conftest import LocalCluster, RedisServer  # noqa: E402


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def play_match(client, moves: int, seed: int = 1) -> list[float]:
    """Move latencies (ms) of up to ``moves`` moves of 25-point backgammon matches."""
    rnd, out = random.Random(seed), []
    while len(out) < moves:
        r = client.post("/v1/sessions", json={"game": "backgammon", "players": 2, "seed": seed,
                                               "options": {"match_length": 25}})
        s = r.json
        tokens = {x["seat"]: x["token"] for x in s["seats"]}
        version = 0
        while len(out) < moves:
            info = client.get(f"/v1/sessions/{s['id']}", headers=auth(s["owner_token"])).json
            if not info["to_act"]:
                break
            seat = info["to_act"][0]
            legal = client.get(f"/v1/sessions/{s['id']}/legal-moves", headers=auth(tokens[seat])).json["moves"]
            move = choose(rnd, "backgammon", legal, lambda m: m["kind"])
            t = time.perf_counter()
            r = client.post(f"/v1/sessions/{s['id']}/moves", json={"move": move, "version": version},
                            headers=auth(tokens[seat]))
            out.append((time.perf_counter() - t) * 1000)
            assert r.status_code == 200, r.json
            version = r.json["version"]
    return out


def bench_latency(args) -> None:
    print(f"## move latency, 25-point backgammon match, in process (median ms of moves 1-100 and "
          f"{args.moves - 99}-{args.moves})")
    with tempfile.TemporaryDirectory() as tmp:
        redis = RedisServer(Path(tmp), "--save", "", "--appendonly", "no")
        (Path(tmp) / "cluster").mkdir()
        cluster = LocalCluster(Path(tmp) / "cluster")
        try:
            stores = {"memory": {}, "redis": {"REDIS_URL": redis.url},
                      "cluster": {"REDIS_URL": cluster.url, "REDIS_CLUSTER": True}}
            for name, config in stores.items():
                client = create_app(TestConfig, {**config, "SESSIONS_PER_MINUTE": 10**6}).test_client()
                ms = play_match(client, args.moves)
                print(f"| {name} | moves 1-100: {statistics.median(ms[:100]):.2f} ms | moves "
                      f"{args.moves - 99}-{args.moves}: {statistics.median(ms[-100:]):.2f} ms |")
        finally:
            redis.stop()
            cluster.stop()


def _get(port: int, path: str, source: str = "127.0.0.1", timeout: float = 10) -> tuple[int, float]:
    t = time.perf_counter()
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        data = sock.recv(100)
        sock.close()
        return int(data.split()[1]), (time.perf_counter() - t) * 1000
    except OSError:
        return 0, (time.perf_counter() - t) * 1000


def _post(url: str, path: str, body: dict, token: str | None = None) -> dict:
    import urllib.request

    req = urllib.request.Request(url + path, json.dumps(body).encode(), {
        "Content-Type": "application/json", **(auth(token) if token else {})})
    return json.loads(urllib.request.urlopen(req, timeout=30).read())


def _getj(url: str, path: str, token: str) -> dict:
    import urllib.request

    return json.loads(urllib.request.urlopen(urllib.request.Request(url + path, headers=auth(token)), timeout=30).read())


def bench_streams(args) -> None:
    print(f"## /healthz while {args.streams} unread event streams watch one Take That session (make run)")
    env = {"MAX_CONNECTIONS_PER_ADDRESS": "0", "MAX_STREAMS_PER_SESSION": str(args.streams + 10)}
    with make_run(env) as url:
        port = int(url.rsplit(":", 1)[1])
        s = _post(url, "/v1/sessions", {"game": "take-that", "players": 2, "seed": 3})
        t = time.perf_counter()
        socks = []
        for i in range(args.streams):
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            sock.sendall(f"GET /v1/sessions/{s['id']}/events?access_token={s['seats'][i % 2]['token']} HTTP/1.1\r\n"
                         "Host: x\r\nAccept: text/event-stream\r\n\r\n".encode())
            socks.append(sock)
        opened = time.perf_counter() - t
        time.sleep(2)
        idle = [_get(port, "/healthz")[1] for _ in range(20)]
        samples, stop = [], threading.Event()

        def probe():
            while not stop.is_set():
                samples.append(_get(port, "/healthz")[1])
                time.sleep(0.01)

        prober = threading.Thread(target=probe)
        prober.start()
        tokens, rnd, moves = {x["seat"]: x["token"] for x in s["seats"]}, random.Random(1), 0
        for _ in range(30):
            info = _getj(url, f"/v1/sessions/{s['id']}", s["owner_token"])
            if not info["to_act"]:
                break
            seat = info["to_act"][0]
            legal = _getj(url, f"/v1/sessions/{s['id']}/legal-moves", tokens[seat])["moves"]
            _post(url, f"/v1/sessions/{s['id']}/moves", {"move": rnd.choice(legal), "version": info["version"]},
                  tokens[seat])
            moves += 1
            time.sleep(0.05)
        stop.set()
        prober.join()
        complete = sum(_event_ids(sock, moves) == list(range(moves + 1)) for sock in socks)  # snapshot 0, moves
        for sock in socks:
            sock.close()
    print(f"| {args.streams} streams opened in {opened:.1f} s | idle /healthz p50 {pct(idle, .5):.1f} ms | "
          f"during {moves} moves: p50 {pct(samples, .5):.1f} ms, p99 {pct(samples, .99):.1f} ms, "
          f"worst {max(samples):.1f} ms ({len(samples)} probes) | streams then read: {complete}/{len(socks)} "
          "had every event once, in order |")


def _event_ids(sock: socket.socket, last: int) -> list[int]:
    """The event ids a stream's socket has received (read now, after the measurement), up to ``last``."""
    sock.settimeout(10)
    buf = b""
    with contextlib.suppress(OSError):
        while f"\nid: {last}\n".encode() not in buf:
            data = sock.recv(1 << 16)
            if not data:
                break
            buf += data
    return [int(line[4:]) for line in buf.decode(errors="replace").split("\n") if line.startswith("id: ")]


def bench_stalled(args) -> None:
    print(f"## {args.stalled} stalled bodies from 127.0.0.1 against /healthz from 127.0.0.2 (make run)")
    with make_run({"BODY_TIMEOUT": "10"}) as url:
        port = int(url.rsplit(":", 1)[1])
        socks, refused = [], 0
        head = (b"POST /v1/games/take-that/apply HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 1000\r\n\r\n{")
        t = time.perf_counter()
        for _ in range(args.stalled):
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                sock.sendall(head)
                socks.append(sock)
            except OSError:
                refused += 1
        opened = time.perf_counter() - t
        rounds = []
        for _ in range(2):  # right after opening them, and 3 s later (all still open)
            results = [_get(port, "/healthz", source="127.0.0.2") for _ in range(50)]
            rounds.append([r[1] for r in results if r[0] == 200])
            time.sleep(3)
        refused_429 = 0
        for sock in socks[-100:]:
            with contextlib.suppress(OSError):
                sock.settimeout(0.5)
                refused_429 += b" 429 " in sock.recv(100)
        for sock in socks:
            sock.close()
    print(f"| opened in {opened:.1f} s ({refused} connects failed); of the last 100, {refused_429} got 429 |")
    for name, ms in zip(("right after", "3 s later"), rounds, strict=True):
        print(f"| other address, {name}: {len(ms)}/50 answered 200, p50 {pct(ms, .5):.1f} ms, "
              f"p99 {pct(ms, .99):.1f} ms |")


def bench_flood(args) -> None:
    print("## store flood: MAX_SESSIONS=1000, 2,000 unplayed creations from 400 addresses behind a trusted proxy")
    app = create_app(TestConfig, {"MAX_SESSIONS": 1000, "SESSIONS_PER_MINUTE": 30, "TRUSTED_PROXIES": "10.0.0.1"})
    client = app.test_client()
    codes: dict[int, int] = {}
    for i in range(2000):
        r = client.post("/v1/sessions", json={"game": "take-that", "players": 2},
                        headers={"X-Forwarded-For": f"198.51.{i % 400 // 200}.{i % 200}"},
                        environ_base={"REMOTE_ADDR": "10.0.0.1"})
        codes[r.status_code] = codes.get(r.status_code, 0) + 1
    r = client.post("/v1/sessions", json={"game": "take-that", "players": 2},
                    headers={"X-Forwarded-For": "203.0.113.9"}, environ_base={"REMOTE_ADDR": "10.0.0.1"})
    print(f"| flood answers {codes} | a new client then: {r.status_code} | live sessions "
          f"{app.extensions['arbiter.store'].count()} |")


def bench_failover(args) -> None:
    print("## cluster failover: the master of the session's slot killed after 30 moves")
    from tests.service.test_redis_cluster import try_move

    with tempfile.TemporaryDirectory() as tmp:
        cluster = LocalCluster(Path(tmp))
        try:
            app = create_app(TestConfig, {"REDIS_URL": cluster.url, "REDIS_CLUSTER": True,
                                          "REDIS_TIMEOUT": 0.5, "REDIS_BACKOFF": 0.2})
            client = app.test_client()
            s = client.post("/v1/sessions", json={"game": "backgammon", "players": 2, "seed": 3}).json
            rnd, acked = random.Random(4), {}
            while len(acked) < 30:
                status, move, out = try_move(client, s, rnd)
                acked[out["version"]] = move
            master = cluster.master_of(f"arbiter:{{{s['id']}}}:head")
            cluster.kill(master)
            t, tries = time.perf_counter(), 0
            while True:
                status, move, out = try_move(client, s, rnd)
                tries += 1
                if status == 200:
                    acked[out["version"]] = move
                    break
                time.sleep(0.05)
            back = time.perf_counter() - t
            log = app.extensions["arbiter.store"].log(s["id"])
            lost = sum(1 for v, m in acked.items() if v > len(log) or log[v - 1]["move"] != m)
        finally:
            cluster.stop()
    print(f"| a move landed again {back:.1f} s after the kill ({tries} tries) | acknowledged moves: {len(acked)}, "
          f"lost: {lost} |")


BENCHES = {"latency": bench_latency, "streams": bench_streams, "stalled": bench_stalled,
           "flood": bench_flood, "failover": bench_failover}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=1500)
    parser.add_argument("--streams", type=int, default=3000)
    parser.add_argument("--stalled", type=int, default=10000)
    parser.add_argument("--only", nargs="*", choices=list(BENCHES), default=list(BENCHES))
    args = parser.parse_args()
    for name in args.only:
        with contextlib.suppress(KeyboardInterrupt):
            BENCHES[name](args)


if __name__ == "__main__":
    main()
