"""Two trees side by side, in process: where one apply request's time goes, before and after a change.

On a shared, loaded machine one run of ``stages`` moves by far more than a change to the core
does. Here a worker process per tree (each with its own code first on the path) prepares every
game's mid-game state, move and requests (as ``bench/run.py`` does), and the driver asks the two
workers in turn, in random order, for short timed batches of the same step; the figure kept is
each side's fastest batch, the one least disturbed by the machine's other work.

Usage (the old tree checked out anywhere, e.g. ``git worktree add /tmp/before main``)::

    python bench/paired.py --before /tmp/before [--after .] [--rounds 20] [--batch 0.002]
        [--steps from_json,apply,"wsgi signed","wsgi unsigned"]

Figures are printed, never asserted: µs per call, ``before -> after``, and after/before per step.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STEPS = ("from_json", "to_json", "view", "apply", "replace", "wsgi signed", "wsgi unsigned")


def worker() -> None:
    """Times batches on request: reads ``game|step|n`` lines, writes seconds."""
    from bench.run import apply_body, wsgi_post
    from rules.base import replace
    from rules.registry import ENGINES
    from service.app import create_app
    from service.config import TestConfig

    app = create_app(TestConfig, {"FAST_PATH": True})
    steps = {}
    for game, e in ENGINES.items():
        text = json.dumps(apply_body(game))
        data = json.loads(text)
        state, move, seat = e.from_json(data["state"]), e.move_from_json(data["move"]), data["seat"]
        path = f"/v1/games/{game}/apply"
        made = json.loads(wsgi_post(app, path, text.encode())())
        nxt = min(made["to_act"])
        signed = json.dumps({"state": made["state"], "signature": made["signature"], "seat": nxt,
                             "move": e.move_to_json(e.legal_moves(e.from_json(made["state"]), nxt)[0])}).encode()
        steps[game] = {
            "from_json": lambda e=e, d=data["state"]: e.from_json(d),
            "to_json": lambda e=e, s=state: e.to_json(s),
            "view": lambda e=e, s=state: e.view(s, 0),
            "apply": lambda e=e, s=state, seat=seat, m=move: e.apply(s, seat, m),
            "replace": lambda s=state: replace(s, turn=s.turn),
            "wsgi signed": wsgi_post(app, path, signed),
            "wsgi unsigned": wsgi_post(app, path, text.encode()),
        }
    print("ready", flush=True)
    for line in sys.stdin:
        game, step, n = line.rstrip("\n").split("|")
        fn, count = steps[game][step], int(n)
        start = time.perf_counter()
        for _ in range(count):
            fn()
        print(time.perf_counter() - start, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the old tree")
    parser.add_argument("--after", default=str(ROOT), help="the new tree (default: this one)")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--batch", type=float, default=0.002, help="seconds a batch takes, about")
    parser.add_argument("--steps", default=",".join(STEPS))
    args = parser.parse_args()
    trees = {"before": Path(args.before).resolve(), "after": Path(args.after).resolve()}
    procs = {}
    for name, tree in trees.items():
        env = {**os.environ, "PYTHONPATH": str(tree)}
        # this file runs as each worker, with that tree first on the path (the old tree need not have it)
        procs[name] = subprocess.Popen([sys.executable, __file__, "--worker"], cwd=tree, env=env,
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for proc in procs.values():
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"

    def ask(name: str, game: str, step: str, n: int) -> float:
        proc = procs[name]
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(f"{game}|{step}|{n}\n")
        proc.stdin.flush()
        return float(proc.stdout.readline())

    from rules.registry import ENGINES

    games, steps = list(ENGINES), args.steps.split(",")
    sizes = {(g, s): max(3, int(args.batch / max(ask("before", g, s, 20) / 20, 1e-7))) for g in games for s in steps}
    best: dict[tuple[str, str, str], float] = {}
    rnd = random.Random(1)
    for _ in range(args.rounds):
        for g in games:
            for s in steps:
                for name in rnd.sample(list(trees), 2):
                    n = sizes[(g, s)]
                    key = (g, s, name)
                    best[key] = min(best.get(key, float("inf")), ask(name, g, s, n) / n * 1e6)
    for proc in procs.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    print("| game | " + " | ".join(steps) + " |")
    print("|---" * (len(steps) + 1) + "|")
    for g in games:
        cells = [f"{best[(g, s, 'before')]:.1f} -> {best[(g, s, 'after')]:.1f}" for s in steps]
        print(f"| {g} | " + " | ".join(cells) + " |")
    for s in steps:
        r = sorted(best[(g, s, "after")] / best[(g, s, "before")] for g in games)
        print(f"{s}: after/before median {r[len(r) // 2]:.2f}, min {r[0]:.2f}, max {r[-1]:.2f}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        worker()
    else:
        sys.path.insert(0, str(ROOT))
        main()
