"""Scan a folder of match records and report, per writer, how many replay and why the rest are refused.

    python bench/scan_records.py tests/rules/data/backgammon/records [--json]
    python bench/scan_records.py tests/rules/data/backgammon/records/corpus --expected   # the verdicts, as JSON
    python bench/scan_records.py --attacks [--size BYTES] [--only NAME]   # each hostile input's seconds per MiB

Every ``.mat``/``.txt``/``.sgf`` file under the folder is read and replayed by
``rules/backgammon/_records.py`` (nothing is asserted: this is a report). The writer of a file is
taken from ``EXPECTED.json`` or ``MANIFEST.json`` in the folder when it lists the file (by name, or by
its path under the folder: the corpus's manifest), else
guessed from the text (GNU BG's ``.sgf`` ``AP[GNU Backgammon``, XG's byte-order mark,
BackgammonGalaxy's ``Losses``, a ``Backgammon Studio`` file name...). Refusals are grouped by
their ``code`` (and, for unreadable lines, the start of the message), so the conventions a
reader lacks stand out. It uses only ``parse_mat``/``parse_sgf``/``replay_record``, which the
code before issue 18 has too: ``--code DIR`` imports the rules from another checkout (an export
of main: ``git archive main | tar -x -C /tmp/main-code``) for the "before" figures; by default the
rules of this checkout.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = (".mat", ".txt", ".sgf")


def guess_writer(path: Path, text: str) -> str:
    head = text[:3000]
    if path.suffix.lower() == ".sgf":
        return "GNU Backgammon (.sgf)" if "GNU Backgammon" in head else "other (.sgf)"
    if "Backgammon Studio" in path.name or "Backgammon Studio" in head:
        return "Backgammon Studio"
    if text.startswith("\ufeff") or "eXtreme Gammon" in head or "XG" in path.name:
        return "eXtreme Gammon"
    if re.search(r"Losses\s+\d", text) or "Galaxy" in head:
        return "BackgammonGalaxy"
    if "BGBlitz" in head:
        return "BGBlitz"
    if "GamesGrid" in head:
        return "GamesGrid"
    if "GNU Backgammon" in head or "gnubg" in path.name.lower():
        return "GNU Backgammon"
    return "unknown writer"


def verdict(path: Path) -> dict:
    """What checking ``path`` answers: ``{"score", "games": [[winner, points, resigned]], "warnings":
    {code: count}}``, or ``{"refused": {"code", "line"}, "message"}``."""
    from rules.backgammon import ENGINE
    from rules.backgammon import _records as records
    from rules.base import RulesError

    text = path.read_bytes().decode("utf-8", errors="replace")
    try:
        parse = records.parse_sgf if path.suffix.lower() == ".sgf" or text.lstrip("\ufeff \r\n").startswith("(;") \
            else records.parse_mat
        done = records.replay_record(ENGINE, parse(text), 100_000)
    except RulesError as exc:
        return {"refused": {"code": exc.code, "line": exc.context.get("line")}, "message": exc.message}
    return {"score": done.match["score"],
            "games": [[g["winner"], g["points"], g.get("resigned", False)] for g in done.games],
            "warnings": dict(sorted(Counter(w["code"] for w in getattr(done, "warnings", [])).items()))}


def scan_file(path: Path) -> tuple[str, str, list[str]]:
    """(status, why, warning codes): status "replayed" or "refused"."""
    found = verdict(path)
    if "refused" in found:
        why = found["refused"]["code"]
        if why.endswith("bad-record"):  # which text could not be read
            why += ": " + re.sub(r"^line \d+: ", "", found["message"])[:40]
        return "refused", why, []
    return "replayed", "", [code for code, n in found["warnings"].items() for _ in range(n)]


def scan(folder: Path) -> dict:
    manifest: dict = {}
    for listing in sorted([*folder.rglob("EXPECTED.json"), *folder.rglob("MANIFEST.json")]):
        under = listing.parent.relative_to(folder).as_posix()
        for name, entry in json.loads(listing.read_text()).items():
            if "writer" in entry:
                manifest[name if under == "." else f"{under}/{name}"] = entry
    by_writer: dict[str, Counter] = defaultdict(Counter)
    reasons: dict[str, Counter] = defaultdict(Counter)
    noted: dict[str, Counter] = defaultdict(Counter)
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)
    started = time.perf_counter()
    for path in files:
        entry = manifest.get(path.relative_to(folder).as_posix()) or manifest.get(path.name, {})
        writer = entry.get("writer") or guess_writer(path, path.read_bytes().decode("utf-8", errors="replace"))
        status, why, warnings = scan_file(path)
        by_writer[writer][status] += 1
        if why:
            reasons[writer][why] += 1
        noted[writer].update(warnings)
    return {"files": len(files), "seconds": round(time.perf_counter() - started, 2),
            "writers": {w: {"replayed": c["replayed"], "refused": c["refused"], "why": dict(reasons[w]),
                            "conventions_noted": dict(noted[w])} for w, c in sorted(by_writer.items())}}


def attacks(size: int, only: list[str] | None = None) -> None:
    """Each hostile input of tests/rules/test_backgammon_record_attacks.py at ``size`` bytes: its
    verdict and the seconds it took, per MiB (the readers are linear: this stays flat with size)."""
    sys.path.append(str(ROOT))  # the tests of this checkout; the rules from --code, first on the path
    from tests.rules.test_backgammon_record_attacks import ATTACKS
    from tests.rules.test_backgammon_record_attacks import verdict as attack_verdict

    print(f"{'input':20} {'bytes':>9} {'seconds':>8} {'s/MiB':>7}  verdict")
    for name, build in ATTACKS.items():
        if only and name not in only:
            continue
        text = build(size)
        started = time.perf_counter()
        found = attack_verdict(text)
        took = time.perf_counter() - started
        size_mib = len(text.encode()) / 2**20
        print(f"{name:20} {len(text.encode()):>9} {took:>8.2f} {took / size_mib:>7.2f}  {found}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, nargs="?")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--expected", action="store_true", help="print each file's verdict (EXPECTED.json's shape)")
    parser.add_argument("--attacks", action="store_true", help="time the hostile inputs instead")
    parser.add_argument("--size", type=int, default=4 * 1024 * 1024, help="the hostile inputs' size in bytes")
    parser.add_argument("--only", action="append", help="time only this hostile input (repeatable)")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose rules/ to use")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.code.resolve()))
    if args.attacks:
        attacks(args.size, args.only)
        return 0
    if args.folder is None:
        parser.error("a folder of records (or --attacks)")
    if args.expected:
        files = sorted(p for p in args.folder.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)
        found = {p.relative_to(args.folder).as_posix(): verdict(p) for p in files}
        print(json.dumps({k: {kk: vv for kk, vv in v.items() if kk != "message"} for k, v in found.items()},
                         indent=1, ensure_ascii=False))
        return 0
    report = scan(args.folder)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{report['files']} records in {report['seconds']} s")
    print(f"{'writer':54} {'replayed':>8} {'refused':>8}  why refused / conventions noted")
    for writer, row in report["writers"].items():
        why = ", ".join(f"{k} x{v}" for k, v in sorted(row["why"].items(), key=lambda kv: -kv[1]))
        noted = ", ".join(f"{k.split('.', 1)[1]} x{v}" for k, v in sorted(row["conventions_noted"].items()))
        print(f"{writer:54} {row['replayed']:>8} {row['refused']:>8}  {why}{' | noted: ' + noted if noted else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
