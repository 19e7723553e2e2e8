"""``arbiter check -j 1`` against GNU Backgammon's own importer on the same ``.mat`` files (issue 25).

    python bench/records_vs_gnubg.py FOLDER_OR_FILES... [--limit N] [--rounds 3] [--core 0]

Both run as one process each, pinned to the same core (``taskset -c CORE``), one after the
other, ``--rounds`` times (interleaved, so both see the same machine); each is timed from start
to exit, its start-up included:

- Arbiter: ``python -m service.cli check -j 1 FILE...`` (what the ``arbiter`` console script
  runs), which replays every roll, play and cube action of every file through the rules;
- GNU BG: ``gnubg -t -q -r`` reading ``import mat FILE`` for each file from its standard input
  (``set confirm new off`` first, so a new import does not ask before dropping the last match).

Files GNU BG 1.07 aborts on (a Galaxy file with an empty player name overflows a buffer) are
found by a first pass that prints a marker after each import, and left out of both timings.
Reported: each side's files per second by CPU time (user + system of the process: the fair
figure on a machine shared with other work) and by wall-clock time, the median of the rounds,
and the ratio. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GNUBG = next((p for p in ("/usr/games/gnubg", "/usr/bin/gnubg") if Path(p).exists()), "gnubg")


def record_files(items: list[str], limit: int | None) -> list[Path]:
    files: list[Path] = []
    for item in items:
        path = Path(item)
        files += sorted(p for p in path.rglob("*.mat") if p.is_file()) if path.is_dir() else [path]
    return files[:limit] if limit else files


def gnubg_commands(files: list[Path], markers: bool = False) -> str:
    lines = ["set confirm new off"]
    for n, path in enumerate(files):
        if any(c in str(path) for c in "\"\n"):
            raise SystemExit(f"{path}: GNU BG's command line cannot take this file name")
        lines.append(f'import mat "{path}"')
        if markers:
            lines.append(f"arbiter_bench_marker_{n}")  # an unknown keyword: GNU BG names it on its output
    lines.append("quit")
    return "\n".join(lines) + "\n"


def run(argv: list[str], stdin: str | None, env: dict[str, str]) -> tuple[float, float, int, str]:
    """(wall seconds, CPU seconds of the child, exit status, output) of one pinned process."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as inp:
        if stdin is not None:
            inp.write(stdin.encode())
            inp.seek(0)
        started = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=inp, stdout=out, stderr=subprocess.STDOUT, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return wall, usage.ru_utime + usage.ru_stime, proc.returncode, out.read().decode("utf-8", "replace")


def gnubg_env(home: str) -> dict[str, str]:
    return {**os.environ, "HOME": home, "LANG": "C"}


def drop_gnubg_aborts(files: list[Path], home: str) -> tuple[list[Path], list[Path]]:
    """The files GNU BG imports without aborting, and those it aborts on."""
    kept, dropped = list(files), []
    while True:
        _, _, code, output = run([GNUBG, "-t", "-q", "-r"], gnubg_commands(kept, markers=True), gnubg_env(home))
        if code == 0:
            return kept, dropped
        done = [int(n) for n in re.findall(r"arbiter_bench_marker_(\d+)", output)]
        bad = (max(done) + 1) if done else 0
        if bad >= len(kept):
            raise SystemExit(f"gnubg exited with {code} after the last file:\n{output[-2000:]}")
        dropped.append(kept.pop(bad))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("items", nargs="+", metavar="FOLDER_OR_FILE")
    parser.add_argument("--limit", type=int, default=None, help="the first N files (sorted by name)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--core", type=int, default=0, help="the core both are pinned to")
    args = parser.parse_args(argv)
    files = record_files(args.items, args.limit)
    with tempfile.TemporaryDirectory() as home:
        files, dropped = drop_gnubg_aborts(files, home)
        for path in dropped:
            print(f"left out (gnubg aborts on it): {path}")
        pin = ["taskset", "-c", str(args.core)]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
        arbiter = [*pin, sys.executable, "-m", "service.cli", "check", "-j", "1", *map(str, files)]
        gnubg = [*pin, GNUBG, "-t", "-q", "-r"]
        commands = gnubg_commands(files)
        times: dict[str, list[tuple[float, float]]] = {"gnubg": [], "arbiter": []}
        verdicts = ""
        for _ in range(args.rounds):
            for name, argv_, stdin, env_ in (("gnubg", gnubg, commands, gnubg_env(home)), ("arbiter", arbiter, None, env)):
                wall, cpu, code, output = run(argv_, stdin, env_)
                if name == "arbiter":
                    verdicts = output
                elif code != 0:
                    raise SystemExit(f"gnubg exited with {code}")
                times[name].append((wall, cpu))
    median = {name: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
            for name, runs in times.items()}
    lines = verdicts.splitlines()
    counts = {label: sum(1 for line in lines if line.startswith(label)) for label in ("OK", "REFUSED", "UNREADABLE")}
    print(f"{len(files)} files; arbiter's verdicts: {counts}; load average at the end: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'':8} {'CPU s':>7} {'files/s (CPU)':>14} {'wall s':>7} {'files/s (wall)':>15}")
    for name in ("gnubg", "arbiter"):
        wall, cpu = median[name]
        rounds = " ".join(f"{c:.2f}" for _, c in times[name])
        print(f"{name:8} {cpu:7.2f} {len(files) / cpu:14.0f} {wall:7.2f} {len(files) / wall:15.0f}   CPU s by round: {rounds}")
    (gw, gc), (aw, ac) = median["gnubg"], median["arbiter"]
    print(f"arbiter / gnubg rate: CPU 1/{ac / gc:.1f}, wall 1/{aw / gw:.1f} (median of {args.rounds} rounds, "
          f"each process's start-up included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
