"""One client against everyone (issue 28, DESIGN 4.9): figures, never assertions.

Every server is gunicorn with the gevent worker, as `make run` starts it, on loopback, started
from ``--tree`` (default: this checkout; ``git archive main | tar -x -C /tmp/main-tree`` gives the
figures before a change). Sections (``--only`` picks some):

- ``reads``: 400 concurrent ``GET /v1/sessions/{id}`` from 127.0.0.1 with ``REDIS_URL`` and one
  worker, and one GET from 127.0.0.2 in that moment: the answers by status and code.
- ``creations``: 200 concurrent ``POST /v1/sessions`` on a cold server, ``SESSIONS_PER_MINUTE=30``
  (memory store, one worker; Redis, two workers): how many were created.
- ``evictions``: ``MAX_SESSIONS=20`` filled with unplayed sessions, then 100 concurrent creations
  (Redis, two workers): how many answered ``store-full``.
- ``cpu``: the heaviest request found per endpoint (long replays of every game, the legal moves of
  the largest position met in random games, a score, hostile match records), each sent alone
  while ``/healthz`` is asked every 20 ms from another address: status and code, the worker's CPU
  for the request, and the slowest ``/healthz`` meanwhile.
- ``failover``: a local Redis Cluster; a game's replica paused (SIGSTOP), a move made, the master
  killed: what the move was answered, and whether every acknowledged move survived.

Usage: ``python bench/abuse.py [--tree DIR] [--only reads,creations,...]``. Loops are bounded.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.registry import ENGINES  # noqa: E402
from tests.live import free_port, redis_server, stop, wait_http  # noqa: E402
from tests.playout import ENDLESS_VARIANTS, PLAYOUT_OPTIONS, choose  # noqa: E402
from tests.service.burst import burst, request_bytes  # noqa: E402

GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
TICKS = os.sysconf("SC_CLK_TCK")


@contextmanager
def server(tree: Path, env: dict[str, str], workers: int = 1) -> Iterator[tuple[str, int]]:
    """`make run`'s command line from ``tree``; yields (base URL, master pid)."""
    port = free_port()
    args = [GUNICORN, "--config", "python:service.gunicorn_conf", "--worker-class", "gevent", "--workers",
            str(workers), "--worker-connections", "10000", "--bind", f"127.0.0.1:{port}", "service.app:create_app()"]
    proc = subprocess.Popen(args, cwd=tree, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(tree), "ACCESS_LOG": "0", **env})
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz")
        yield f"http://127.0.0.1:{port}", proc.pid
    finally:
        stop(proc)


def children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(") ")[2].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(") ")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def codes(answers: list[tuple[int, dict[str, Any]]]) -> dict[str, int]:
    return dict(Counter(f"{s} {b.get('code', '')}".strip() for s, b in answers).most_common())


# ----------------------------------------------------------------------------- sections


def reads(tree: Path) -> None:
    with redis_server() as (redis_url, _, _), server(tree, {"REDIS_URL": redis_url}) as (url, _):
        status, made = burst(url, request_bytes("POST", "/v1/sessions", {"game": "mak-yek", "players": 2}), 1)[0]
        read = request_bytes("GET", f"/v1/sessions/{made['id']}",
                             headers={"Authorization": f"Bearer {made['owner_token']}"})
        other: list[tuple[int, dict[str, Any]]] = []
        def meanwhile() -> None:
            time.sleep(0.05)
            other.extend(burst(url, read, 1, "127.0.0.2"))

        thread = threading.Thread(target=meanwhile)
        thread.start()
        started = time.perf_counter()
        answers = burst(url, read, 400)
        thread.join(60)
        after = burst(url, read, 1, "127.0.0.2")
        print(f"reads: 400 concurrent GET from one address in {time.perf_counter() - started:.2f} s: {codes(answers)}; "
              f"another address during the burst: {codes(other)}, right after it: {codes(after)}")


def creations(tree: Path) -> None:
    for store, workers in (("memory", 1), ("redis", 2)):
        with redis_server() as (redis_url, _, _):
            env = {"SESSIONS_PER_MINUTE": "30", **({"REDIS_URL": redis_url} if store == "redis" else {})}
            with server(tree, env, workers) as (url, _):
                answers = burst(url, request_bytes("POST", "/v1/sessions", {"game": "mak-yek", "players": 2}), 200)
        print(f"creations ({store}, {workers} worker(s)), limit 30, 200 concurrent: {codes(answers)}")


def evictions(tree: Path) -> None:
    with redis_server() as (redis_url, _, _):
        env = {"MAX_SESSIONS": "20", "SESSIONS_PER_MINUTE": "100000", "REDIS_URL": redis_url}
        with server(tree, env, 2) as (url, _):
            create = request_bytes("POST", "/v1/sessions", {"game": "mak-yek", "players": 2})
            burst(url, create, 20)
            answers = burst(url, create, 100)
    print(f"evictions (redis, 2 workers), MAX_SESSIONS 20 full of unplayed sessions, 100 concurrent: {codes(answers)}")


def playout(game: str, seed: int, max_moves: int = 5000) -> tuple[dict[str, Any], list[dict[str, Any]], list[Any]]:
    """A seeded random game (endless variant where the game has one): new, moves, states met."""
    engine = ENGINES[game]
    rnd = random.Random(seed)
    players = 2 if 2 in engine.players else min(engine.players)
    options = ENDLESS_VARIANTS.get(game) or PLAYOUT_OPTIONS.get(game, {})
    state = engine.new(players, seed, options)
    moves: list[dict[str, Any]] = []
    states = [state]
    while len(moves) < max_moves:
        acting = engine.to_act(state)
        if not acting:
            break
        seat = rnd.choice(sorted(acting))
        move = choose(rnd, game, list(engine.legal_moves(state, seat)), lambda m: engine.move_to_json(m)["kind"])
        moves.append({"seat": seat, "move": engine.move_to_json(move)})
        state = engine.apply(state, seat, move)
        states.append(state)
    return {"players": players, "seed": seed, "options": options}, moves, states


def heaviest_legal_moves(game: str, states: list[Any]) -> dict[str, Any]:
    """The state (and seat) whose legal moves took longest here, of at most 400 looked at."""
    engine = ENGINES[game]
    best: tuple[float, Any, int] = (-1.0, states[0], 0)
    for state in states[:: max(1, len(states) // 400)]:
        for seat in sorted(engine.to_act(state)):
            t = time.process_time()
            engine.legal_moves(state, seat)
            spent = time.process_time() - t
            if spent > best[0]:
                best = (spent, state, seat)
    return {"state": engine.to_json(best[1]), "seat": best[2]}


def attacks() -> list[tuple[str, str, str, bytes]]:
    """(name, path, content type, body), the heaviest found per endpoint."""
    out: list[tuple[str, str, str, bytes]] = []
    for game in ENGINES:
        new, moves, states = playout(game, seed=11)
        body: dict[str, Any] = {"new": new, "moves": moves}
        while len(json.dumps(body)) > 250_000:  # MAX_BODY_BYTES
            body["moves"] = body["moves"][: len(body["moves"]) * 9 // 10]
        out.append((f"replay {game} ({len(body['moves'])} moves)", f"/v1/games/{game}/replay", "application/json",
                    json.dumps(body).encode()))
        out.append((f"legal-moves {game} (heaviest of the game)", f"/v1/games/{game}/legal-moves", "application/json",
                    json.dumps(heaviest_legal_moves(game, states)).encode()))
        out.append((f"score {game} (final state)", f"/v1/games/{game}/score", "application/json",
                    json.dumps({"state": ENGINES[game].to_json(states[-1])}).encode()))
    hostile = {
        "records: '; [' + 4,500 spaces + 'a' (4.5 KB)": "; [" + " " * 4500 + "a\n",
        "records: score line of 8,000 'a:1 ' (32 KB)": " 1 point match\n\n Game 1\n " + "a:1 " * 8000 + "\n",
        "records: 128,000 ';' (128 KB)": ";" * 128_000,
        "records: .sgf values never closed (32 KB)": "(;FF[4]GM[6]" + "C[" * 10_000 + ")",
    }
    for name, text in hostile.items():
        out.append((name, "/v1/games/backgammon/records", "text/plain", text.encode()))
    out.append(("replay record: '; [' + 3,000 spaces (JSON)", "/v1/games/backgammon/replay", "application/json",
                json.dumps({"record": "; [" + " " * 3000 + "a\n"}).encode()))
    return out


def send(url: str, path: str, content_type: str, body: bytes, timeout: float = 120) -> tuple[int, str]:
    req = urllib.request.Request(f"{url}{path}", data=body, headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, ""
    except urllib.error.HTTPError as exc:
        try:
            return exc.code, json.loads(exc.read()).get("code", "")
        except ValueError:
            return exc.code, ""
    except OSError as exc:  # the worker killed: no answer
        return 0, type(exc).__name__


def probe(url: str, slowest: list[float], done: threading.Event) -> None:
    """Ask /healthz every 20 ms from 127.0.0.2 until ``done``; the slowest answer in ``slowest[0]``."""
    while not done.is_set():
        t = time.perf_counter()
        with contextlib.suppress(OSError):
            burst(url, request_bytes("GET", "/healthz"), 1, "127.0.0.2", timeout=60)
        slowest[0] = max(slowest[0], time.perf_counter() - t)
        time.sleep(0.02)


def cpu(tree: Path) -> None:
    found = attacks()
    with server(tree, {}) as (url, master):
        worker = children(master)[0]
        print(f"cpu: one worker (pid {worker}); REQUEST_CPU_SECONDS as configured (default 5 where it exists)")
        print(f"{'request':60} {'answer':36} {'CPU s':>6} {'wall s':>7} {'/healthz max ms':>16}")
        for name, path, content_type, body in found:
            slowest, done = [0.0], threading.Event()
            prober = threading.Thread(target=probe, args=(url, slowest, done))
            before, started = cpu_seconds(worker), time.perf_counter()
            prober.start()
            status, code = send(url, path, content_type, body)
            wall = time.perf_counter() - started
            done.set()
            prober.join(60)
            alive = worker in children(master)
            spent = cpu_seconds(worker) - before if alive else float("nan")
            answer = f"{status} {code}".strip() + ("" if alive else " (worker killed)")
            print(f"{name[:60]:60} {answer[:36]:36} {spent:6.2f} {wall:7.2f} {slowest[0] * 1000:16.0f}", flush=True)
            if not alive:
                worker = children(master)[0] if children(master) else worker
                time.sleep(2)


def failover(tree: Path) -> None:
    sys.path.insert(0, str(tree))
    from service.app import create_app  # noqa: PLC0415 - from the tree measured
    from service.config import TestConfig  # noqa: PLC0415
    from tests.service.conftest import LocalCluster  # noqa: PLC0415
    from tests.service.test_redis_cluster import GAME, try_move  # noqa: PLC0415

    session: Any
    out: Any
    with tempfile.TemporaryDirectory() as workdir:
        cluster = LocalCluster(Path(workdir))
        try:
            app = create_app(TestConfig, {"REDIS_URL": cluster.url, "REDIS_CLUSTER": True, "REDIS_WAIT_MS": 100,
                                          "REDIS_TIMEOUT": 0.5, "REDIS_BACKOFF": 0.2})
            client = app.test_client()
            session, rnd = client.post("/v1/sessions", json={"game": GAME, "players": 2, "seed": 3}).json, random.Random(4)
            acked: dict[int, Any] = {}
            for _ in range(10):
                status, move, out = try_move(client, session, rnd)
                acked[out["version"]] = move
            key = f"arbiter:{{{session['id']}}}:head"
            master = cluster.master_of(key)
            replica = int(cluster.node(master).info("replication")["slave0"]["port"])
            os.kill(cluster.procs[replica].pid, signal.SIGSTOP)
            status, move, out = try_move(client, session, rnd)
            paused = f"{status} {(out or {}).get('code', '')}".strip()
            paused_ack = (out["version"], move) if status == 200 else None
            cluster.kill(master)
            os.kill(cluster.procs[replica].pid, signal.SIGCONT)
            started, statuses = time.monotonic(), []
            while time.monotonic() - started < 60:
                status, move, out = try_move(client, session, rnd)
                statuses.append(status)
                if status == 200:
                    acked[out["version"]] = move
                    break
                time.sleep(0.2)
            store = app.extensions["arbiter.store"]
            log = store.log(session["id"])
            lost = [v for v, m in acked.items() if v > len(log) or log[v - 1]["move"] != m]
            if paused_ack is not None:
                v, m = paused_ack
                if v > len(log) or log[v - 1]["move"] != m:
                    lost.append(v)
                acked_count = len(acked) + 1
            else:
                acked_count = len(acked)
            print(f"failover: the move made with the replica paused: {paused}; first move after the master was killed "
                  f"landed after {time.monotonic() - started:.1f} s ({len(statuses)} tries); acknowledged moves lost: "
                  f"{lost or 'none'} of {acked_count}")
        finally:
            cluster.stop()


SECTIONS = {"reads": reads, "creations": creations, "evictions": evictions, "cpu": cpu, "failover": failover}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tree", type=Path, default=ROOT)
    parser.add_argument("--only", default=",".join(SECTIONS))
    args = parser.parse_args()
    for name in args.only.split(","):
        SECTIONS[name](args.tree.resolve())


if __name__ == "__main__":
    main()
