"""Benchmarks (`make bench`): HTTP apply vs a bare Flask echo, where the time goes, engine speed.

1. For every game, ``POST /v1/games/<game>/apply`` on the server `make run` uses (a mid-game
   state sent back with its signature, and without) next to a bare Flask + orjson echo of the
   same body served the same way on the same core, both loaded by ``wrk`` on loopback in the
   same run; requests/s, p50/p99 and the ratio; and replay of up to 1,000 moves in one request
   against the same moves as apply requests on one keep-alive connection.
2. In process, the cost of each stage of one apply request (JSON parse, envelope, state
   schema, from_json, move, engine apply, to_json, response JSON), and of the whole request
   on the fast path (service/fastpath.py) and through Flask.
3. In process, the cost of replay per move, and moves applied per second in random playouts.

Figures are printed, never asserted. Usage: ``python bench/run.py [--game 11-nimmt] [--seconds 10]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.registry import ENGINES  # noqa: E402
from tests.live import free_port, make_run_args, stop, wait_http  # noqa: E402


def serve(args: list[str], port: int) -> subprocess.Popen:
    """A server command pinned to core 0 (wrk runs on core 1), started and answering /healthz."""
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    proc = subprocess.Popen([*pin, *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True, env={**os.environ, "ACCESS_LOG": "0"})
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz")
    except OSError:
        stop(proc)
        raise
    return proc


def gunicorn(app: str, port: int, workers: int = 1, make_run: bool = False) -> subprocess.Popen:
    """``app`` under plain gunicorn (``workers`` sync workers) or, with ``make_run``, exactly as
    `make run` serves it (the command read from the Makefile)."""
    if make_run:
        return serve(make_run_args(port, APP=app), port)
    return serve([str(Path(sys.executable).with_name("gunicorn")), "--workers", str(workers), "--bind",
                  f"127.0.0.1:{port}", app], port)


def apply_body(game: str, seed: int = 3, plies: int = 6) -> dict:
    """A mid-game apply request: a few random plies in, with a legal move."""
    engine = ENGINES[game]
    rnd = random.Random(seed)
    state = engine.new(engine.players.start + 1 if engine.players.stop > engine.players.start + 1
                       else engine.players.start, seed)
    for _ in range(plies):
        seat = min(engine.to_act(state))
        state = engine.apply(state, seat, rnd.choice(engine.legal_moves(state, seat)))
    seat = min(engine.to_act(state))
    # a move after which the game goes on and the next seat has a move (the bench plays one more)
    move = next(m for m in engine.legal_moves(state, seat)
                if engine.to_act(after := engine.apply(state, seat, m))
                and engine.legal_moves(after, min(engine.to_act(after))))
    return {"state": engine.to_json(state), "seat": seat, "move": engine.move_to_json(move)}


def wrk(url: str, body: str, seconds: int, connections: int) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
        lua.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                  f"wrk.body = {json.dumps(body)}\n")
    out = subprocess.run(
        [*(["taskset", "-c", "1"] if shutil.which("taskset") else []), "wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", lua.name, url],
        capture_output=True, text=True, check=True,
    ).stdout
    os.unlink(lua.name)

    def ms(label: str) -> float:
        m = re.search(rf"^\s*{label}\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "p50_ms": ms("50%"), "p99_ms": ms("99%"), "errors": int(non2xx.group(1)) if non2xx else 0}


def _post(conn: http.client.HTTPConnection, path: str, body: dict) -> dict:
    conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    data = json.loads(resp.read())
    if resp.status >= 300:
        raise RuntimeError(f"{path}: {resp.status} {data}")
    return data


def signed_apply_body(port: int, game: str) -> dict:
    """A mid-game apply request as a client that sends back the state's ``signature`` makes it."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    first = apply_body(game)
    after = _post(conn, f"/v1/games/{game}/apply", first)
    seat = after["to_act"][0]
    moves = _post(conn, f"/v1/games/{game}/legal-moves", {"state": after["state"], "seat": seat})["moves"]
    return {"state": after["state"], "signature": after["signature"], "seat": seat, "move": moves[0]}


def playout_moves(game: str, limit: int = 1000, seed: int = 1) -> tuple[dict, list[dict]]:
    """``new`` parameters and up to ``limit`` moves of seeded random games (one game)."""
    from tests.playout import PLAYOUT_OPTIONS, choose

    engine = ENGINES[game]
    rnd = random.Random(seed)
    long = dict(engine.spec.playout.long_options)  # options that make the game long (its GameSpec, DESIGN 4.8)
    new = {"players": engine.players.start, "seed": seed, "options": {**PLAYOUT_OPTIONS.get(game, {}), **long}}
    state = engine.new(new["players"], seed, new["options"])
    moves = []
    while engine.to_act(state) and len(moves) < limit:
        seat = min(engine.to_act(state))
        move = choose(rnd, game, list(engine.legal_moves(state, seat)), lambda m: engine.move_to_json(m)["kind"])
        moves.append({"seat": seat, "move": engine.move_to_json(move)})
        state = engine.apply(state, seat, move)
    return new, moves


def replay_vs_apply(port: int, game: str, rounds: int = 3) -> tuple[int, float]:
    """Moves, and (the same moves as apply requests on one keep-alive connection) / (one replay):
    the median of ``rounds`` rounds, each timing both."""
    new, moves = playout_moves(game)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    ratios = []
    for _ in range(rounds):
        t = time.perf_counter()
        out = _post(conn, f"/v1/games/{game}/new", new)
        for item in moves:
            out = _post(conn, f"/v1/games/{game}/apply", {"state": out["state"], "signature": out["signature"], **item})
        applies = time.perf_counter() - t
        t = time.perf_counter()
        replayed = _post(conn, f"/v1/games/{game}/replay", {"new": new, "moves": moves})
        replay = time.perf_counter() - t
        assert replayed["state"] == out["state"]
        ratios.append(applies / replay)
    return len(moves), sorted(ratios)[len(ratios) // 2]


def http_bench(games: list[str], seconds: int, connections: int, rounds: int = 3) -> None:
    """Per game: apply (signed and unsigned) and the orjson echo of the same body, each served as
    `make run` serves it (gunicorn, gevent worker) and pinned to the same core, side by side in
    one run; and replay against applies.

    The three are measured in turn, ``rounds`` times (echo, signed, unsigned, echo, ...), and each
    ratio is the median of the rounds' ratios to the echo of the same round: on a shared machine
    one 5 s figure of the same server swings by a fifth from one run to the next, and a slow
    moment then lands on one of the three alone."""
    if shutil.which("wrk") is None:
        print("wrk is not installed (apt-get install wrk): skipping the HTTP benchmark")
        return
    rows = []
    for game in games:
        p_app, p_echo = free_port(), free_port()
        app = gunicorn("service.app:create_app()", p_app, make_run=True)
        echo = gunicorn("bench.echo_app:app", p_echo, make_run=True)
        try:
            body = signed_apply_body(p_app, game)
            text = json.dumps(body)
            unsigned = json.dumps({k: v for k, v in body.items() if k != "signature"})
            url, echo_url = f"http://127.0.0.1:{p_app}/v1/games/{game}/apply", f"http://127.0.0.1:{p_echo}/echo"
            wrk(url, text, 1, connections)
            wrk(echo_url, text, 1, connections)
            runs: dict[str, list[dict]] = {"echo": [], "signed": [], "unsigned": []}
            for _ in range(rounds):
                runs["echo"].append(wrk(echo_url, text, seconds, connections))
                runs["signed"].append(wrk(url, text, seconds, connections))
                runs["unsigned"].append(wrk(url, unsigned, seconds, connections))
            n, ratio = replay_vs_apply(p_app, game)
        finally:
            stop(app)
            stop(echo)
        rows.append((game, runs, n, ratio))
        print(f"  {game}: " + "; ".join(f"{kind} " + " ".join(f"{r['rps']:.0f}" for r in rs) for kind, rs in runs.items())
              + f" req/s; replay x{ratio:.1f} over {n} moves", flush=True)
    print(f"\nHTTP, wrk -t1 -c{connections} -d{seconds}s on loopback (core 1); the app and the echo each served as "
          "`make run` serves them (gunicorn, gevent worker) on core 0. apply: a mid-game state sent back with its "
          "signature; unsigned: the same request without it; echo: Flask + orjson sending the same body back. "
          f"{rounds} rounds of the three in turn: req/s and ms are the rounds' medians, each ratio the median of the "
          "rounds' ratios to that round's echo. replay/apply: the same moves as one replay request against apply "
          "requests on one keep-alive connection, the median of 3 rounds\n")
    print("| game | signed req/s | p50 ms | p99 ms | unsigned req/s | echo req/s | signed/echo | unsigned/echo "
          "| moves | replay/apply |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    signed_r, unsigned_r = [], []
    for game, runs, n, ratio in rows:
        med = {kind: {key: statistics.median(r[key] for r in rs) for key in ("rps", "p50_ms", "p99_ms")}
               for kind, rs in runs.items()}
        signed_r.append(statistics.median(a["rps"] / e["rps"] for a, e in zip(runs["signed"], runs["echo"], strict=True)))
        unsigned_r.append(statistics.median(a["rps"] / e["rps"] for a, e in zip(runs["unsigned"], runs["echo"], strict=True)))
        print(f"| {game} | {med['signed']['rps']:.0f} | {med['signed']['p50_ms']:.2f} | {med['signed']['p99_ms']:.2f} "
              f"| {med['unsigned']['rps']:.0f} | {med['echo']['rps']:.0f} | {signed_r[-1]:.2f} | {unsigned_r[-1]:.2f} "
              f"| {n} | {ratio:.1f} |")
    for name, r in (("signed/echo", signed_r), ("unsigned/echo", unsigned_r)):
        r.sort()
        print(f"{name}: min {r[0]:.2f}, median {r[len(r) // 2]:.2f}")


def stages(game: str, repeat: int = 300) -> None:
    """Microseconds per stage of one apply request, in process (no HTTP)."""
    import orjson

    from service.api import _LOADERS
    from service.app import create_app
    from service.config import TestConfig
    from service.games import BINDINGS
    from service.schemas.common import MoveRequest

    b = BINDINGS[game]
    text = json.dumps(apply_body(game))
    envelope = _LOADERS[MoveRequest]
    data = json.loads(text)
    state = b.engine.from_json(data["state"])
    move = b.engine.move_from_json(data["move"])
    new = b.engine.apply(state, data["seat"], move)
    result = b.result(new, events=b.engine.events(state, data["seat"], move, new))
    steps = {
        "orjson.loads(body)": lambda: orjson.loads(text),
        "envelope (compiled)": lambda: envelope(data),
        "engine.from_json": lambda: b.engine.from_json(data["state"]),
        "move check + from_json": lambda: b.load_move(data["move"]),
        "engine.apply (check + move)": lambda: b.engine.apply(state, data["seat"], move),
        "result (to_json, scores, events)": lambda: b.result(new, events=b.engine.events(
            state, data["seat"], move, new)),
        "orjson.dumps(response)": lambda: orjson.dumps(result),
    }
    from bench.echo_app import app as echo_app

    path = f"/v1/games/{game}/apply"
    for label, fast in (("fast path", True), ("through Flask", False)):
        app = create_app(TestConfig, {"FAST_PATH": fast})
        made = json.loads(wsgi_post(app, path, text.encode())())
        signed = json.dumps({"state": made["state"], "signature": made["signature"], "seat": min(made["to_act"]),
                             "move": b.engine.move_to_json(b.engine.legal_moves(
                                 b.engine.from_json(made["state"]), min(made["to_act"]))[0])}).encode()
        steps[f"WSGI apply, {label}, signed"] = wsgi_post(app, path, signed)
        steps[f"WSGI apply, {label}, unsigned"] = wsgi_post(app, path, text.encode())
    echo = json.dumps({"payload": data["state"], "seat": data["seat"], "move": data["move"]}).encode()
    steps["WSGI bare Flask echo, same size"] = wsgi_post(echo_app, "/echo", echo)
    print(f"\nWhere one {game} apply request's time goes (in process, µs, best of 3 x {repeat})")
    for name, fn in steps.items():
        best = min(timed(fn, repeat) for _ in range(3))
        print(f"  {name:<40}{best * 1e6:>9.1f}")


def wsgi_post(app, path: str, body: bytes):
    """A function making one POST of a JSON ``body`` through a WSGI app, called directly (no HTTP,
    no test client): werkzeug's EnvironBuilder makes the environ once, each call a fresh input."""
    import io

    from werkzeug.test import EnvironBuilder

    base = EnvironBuilder(path=path, method="POST", data=body, content_type="application/json").get_environ()

    def call() -> bytes:
        status: list[str] = []
        out = app({**base, "wsgi.input": io.BytesIO(body)}, lambda s, headers, exc_info=None: status.append(s))
        data = b"".join(out)
        getattr(out, "close", lambda: None)()
        if not status[0].startswith("200"):
            raise RuntimeError(f"{path}: {status[0]} {data[:200]!r}")
        return data

    return call


def timed(fn, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def replay_per_move(games: list[str], rounds: int = 5) -> None:
    """µs a move of ``GameBinding.replay`` (read each move, check it, apply it) in process: the
    engines' share of the replay/apply ratio."""
    from service.games import BINDINGS

    print(f"\nReplay in process (the moves of the HTTP table; µs a move, best of {rounds})")
    for game in games:
        new, moves = playout_moves(game)

        def replay(binding=BINDINGS[game], new=new, moves=moves) -> None:
            binding.replay(binding.new(new), moves)

        best = min(timed(replay, 1) for _ in range(rounds))
        print(f"  {game:<16}{len(moves):>6} moves{best / len(moves) * 1e6:>8.1f}")


def engine_throughput(seconds: float = 2.0) -> None:
    print(f"\nEngine throughput, random playouts in process ({seconds:.0f} s a game)")
    print(f"  {'game':<16}{'moves/s':>10}{'games':>8}")
    for gid, engine in ENGINES.items():
        rnd = random.Random(1)
        moves = games = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            state = engine.new(engine.players.start, rnd.randrange(1 << 30))
            while engine.to_act(state) and time.perf_counter() < deadline:
                seat = rnd.choice(sorted(engine.to_act(state)))
                state = engine.apply(state, seat, rnd.choice(engine.legal_moves(state, seat)))
                moves += 1
            games += 1
        print(f"  {gid:<16}{moves / seconds:>10.0f}{games:>8}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="all", help="a game id, or 'all'")
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=5, help="rounds of echo, signed and unsigned in turn")
    parser.add_argument("--skip-http", action="store_true")
    args = parser.parse_args()
    games = list(ENGINES) if args.game == "all" else [args.game]
    if not args.skip_http:
        http_bench(games, args.seconds, args.connections, args.rounds)
    stages(games[0])
    replay_per_move(games)
    engine_throughput()


if __name__ == "__main__":
    main()
