"""Benchmarks (`make bench`): HTTP apply vs a bare Flask echo, where the time goes, engine speed.

1. ``POST /v1/games/<game>/apply`` under gunicorn (same settings as ``make run``: 2 sync
   workers) next to a bare Flask JSON echo served the same way with a body of similar size,
   both loaded by ``wrk`` on loopback in the same run; requests/s, p50/p99 and the ratio.
2. In process, the cost of each stage of one apply request (JSON parse, envelope, state
   schema, from_json, move, engine apply, to_json, response JSON).
3. In process, moves applied per second in random playouts of each game.

Figures are printed, never asserted. Usage: ``python bench/run.py [--game 11-nimmt] [--seconds 10]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.registry import ENGINES  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def gunicorn(app: str, port: int, workers: int = 2) -> subprocess.Popen:
    exe = Path(sys.executable).with_name("gunicorn")
    proc = subprocess.Popen(
        [str(exe), "--workers", str(workers), "--threads", "1", "--bind", f"127.0.0.1:{port}", app],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=0.5)
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"gunicorn {app} did not start")


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM the server's process group; SIGKILL what is still there after 5 s (open streams)."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(5)


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
    move = engine.legal_moves(state, seat)[0]
    return {"state": engine.to_json(state), "seat": seat, "move": engine.move_to_json(move)}


def wrk(url: str, body: str, seconds: int, connections: int) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
        lua.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                  f"wrk.body = {json.dumps(body)}\n")
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", lua.name, url],
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


def http_bench(game: str, seconds: int, connections: int) -> None:
    if shutil.which("wrk") is None:
        print("wrk is not installed (apt-get install wrk): skipping the HTTP benchmark")
        return
    body = apply_body(game)
    text = json.dumps(body)
    echo_text = json.dumps({"payload": body["state"], "seat": body["seat"], "move": body["move"]})
    p_app, p_echo = free_port(), free_port()
    app = gunicorn("service.app:create_app()", p_app)
    echo = gunicorn("bench.echo_app:app", p_echo)
    try:
        wrk(f"http://127.0.0.1:{p_app}/v1/games/{game}/apply", text, 2, connections)  # warm up
        wrk(f"http://127.0.0.1:{p_echo}/echo", echo_text, 2, connections)
        a = wrk(f"http://127.0.0.1:{p_app}/v1/games/{game}/apply", text, seconds, connections)
        e = wrk(f"http://127.0.0.1:{p_echo}/echo", echo_text, seconds, connections)
    finally:
        stop(app)
        stop(echo)
    print(f"\nHTTP, gunicorn 2 sync workers, wrk -t1 -c{connections} -d{seconds}s on loopback "
          f"(request body {len(text)} B apply, {len(echo_text)} B echo)")
    print(f"{'endpoint':<34}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'non-2xx':>10}")
    for name, r in ((f"POST /v1/games/{game}/apply", a), ("POST /echo (bare Flask)", e)):
        print(f"{name:<34}{r['rps']:>10.0f}{r['p50_ms']:>10.2f}{r['p99_ms']:>10.2f}{r['errors']:>10}")
    print(f"apply / echo = {a['rps'] / e['rps']:.2f}")


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
        "state schema (marshmallow)": lambda: b.state.validate(data["state"]),
        "state schema (jsonschema-rs)": lambda: b.check_state(data["state"]),
        "engine.from_json": lambda: b.engine.from_json(data["state"]),
        "move check + from_json": lambda: b.load_move(data["move"]),
        "engine.apply (check + move)": lambda: b.engine.apply(state, data["seat"], move),
        "result (to_json, scores, events)": lambda: b.result(new, events=b.engine.events(
            state, data["seat"], move, new)),
        "orjson.dumps(response)": lambda: orjson.dumps(result),
    }
    client = create_app(TestConfig).test_client()
    steps["whole request (Flask test client)"] = lambda: client.post(
        f"/v1/games/{game}/apply", data=text, content_type="application/json")
    print(f"\nWhere one {game} apply request's time goes (in process, µs, best of 3 x {repeat})")
    for name, fn in steps.items():
        best = min(timed(fn, repeat) for _ in range(3))
        print(f"  {name:<36}{best * 1e6:>9.1f}")


def timed(fn, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


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
    parser.add_argument("--game", default="11-nimmt")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--skip-http", action="store_true")
    args = parser.parse_args()
    if not args.skip_http:
        http_bench(args.game, args.seconds, args.connections)
    stages(args.game)
    engine_throughput()


if __name__ == "__main__":
    main()
