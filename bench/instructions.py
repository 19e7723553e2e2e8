"""Instructions per apply request, in process, counted by callgrind: a figure the machine's load does not move.

On a machine shared with other work, requests/s (``bench/run.py``) and even CPU time per request
swing by a third from one run to the next; the number of instructions a request executes does
not. This runs the app's WSGI callable (``create_app(Config)``, as ``make run`` serves it: the
fast path behind ``Guard``) on each game's mid-game apply request, signed and unsigned, and the
bare Flask + orjson echo on the same body, each ``N`` times inside one ``functools.reduce`` call;
``valgrind --tool=callgrind --toggle-collect=functools_reduce`` counts only what runs inside it
(one dump per reduce). What gunicorn and gevent do around a request is not counted (the same for
the app and the echo).

Usage: ``python bench/instructions.py [TREE] [--games a,b] [-n 40]`` (valgrind installed; TREE, the
checkout whose app is measured, defaults to this one: ``git worktree add /tmp/old COMMIT`` and
``python bench/instructions.py /tmp/old`` compares a commit). About 2 minutes of CPU for nine games.
"""

from __future__ import annotations

import argparse
import glob
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# run inside valgrind, in TREE: the requests, each kind N times in one functools.reduce
CHILD = r'''
import functools, io, json, os, sys
tree, games, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.chdir(tree); sys.path.insert(0, tree)
from werkzeug.test import EnvironBuilder
from rules.registry import ENGINES
from service.app import create_app
from service.config import Config
from bench.run import apply_body
from bench.echo_app import app as echo
app = create_app(Config)

def post(app, path, body):
    base = EnvironBuilder(path=path, method="POST", data=body, content_type="application/json").get_environ()
    base["REMOTE_ADDR"] = "127.0.0.1"
    def call():
        status = []
        out = app({**base, "wsgi.input": io.BytesIO(body)}, lambda s, h, e=None: status.append(s))
        data = b"".join(out)
        getattr(out, "close", lambda: None)()
        assert status[0].startswith("200"), (status, data[:300])
        return data
    return call

for game in (list(ENGINES) if games == "all" else games.split(",")):
    path = f"/v1/games/{game}/apply"
    after = json.loads(post(app, path, json.dumps(apply_body(game)).encode())())
    seat = after["to_act"][0]
    moves = json.loads(post(app, f"/v1/games/{game}/legal-moves",
                            json.dumps({"state": after["state"], "seat": seat}).encode())())["moves"]
    body = {"state": after["state"], "signature": after["signature"], "seat": seat, "move": moves[0]}
    unsigned = {k: v for k, v in body.items() if k != "signature"}
    for kind, call in (("signed", post(app, path, json.dumps(body).encode())),
                       ("unsigned", post(app, path, json.dumps(unsigned).encode())),
                       ("echo", post(echo, "/echo", json.dumps(body).encode()))):
        for _ in range(10):
            call()
        functools.reduce(lambda a, _: call(), range(n), None)
        print(game, kind, flush=True)
'''


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", default=str(ROOT))
    parser.add_argument("--games", default="all")
    parser.add_argument("-n", type=int, default=40, help="requests counted per game and kind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        child = Path(tmp, "child.py")
        child.write_text(CHILD)
        labels = subprocess.run(
            ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=functools_reduce",
             "--dump-after=functools_reduce", f"--callgrind-out-file={tmp}/out", sys.executable, str(child),
             args.tree, args.games, str(args.n)],
            capture_output=True, text=True, check=True, env={**os.environ, "ACCESS_LOG": "0"},
        ).stdout.split("\n")
        totals = []
        for dump in sorted(glob.glob(f"{tmp}/out.*"), key=lambda p: int(p.rsplit(".", 1)[1])):
            with open(dump) as f:
                total = next(int(line.split()[1]) for line in f if line.startswith(("summary:", "totals:")))
            if total > args.n * 100_000:  # ours; a library's own functools.reduce on the way dumps too
                totals.append(total // args.n)
    rows: dict[str, dict[str, int]] = {}
    for label, total in zip([x for x in labels if x], totals, strict=True):
        game, kind = label.split()
        rows.setdefault(game, {})[kind] = total
    print(f"Instructions per request (thousands), in process, {args.tree}\n")
    print("| game | signed | unsigned | echo | signed/echo | unsigned/echo |")
    print("|---|---|---|---|---|---|")
    for game, r in rows.items():
        print(f"| {game} | {r['signed'] // 1000} | {r['unsigned'] // 1000} | {r['echo'] // 1000} "
              f"| {r['signed'] / r['echo']:.2f} | {r['unsigned'] / r['echo']:.2f} |")


if __name__ == "__main__":
    main()
