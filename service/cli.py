"""``arbiter check FILE...``: recorded games checked in process, no server (DESIGN 4.3).

Reads match records (``.mat``, ``.sgf``: the games whose record readers take that format, as
``service.records.READERS`` lists them) and JSON replay files ``{"game", "new" or "state",
"moves"}`` for every game of the registry. One line per file, in the order given::

    OK       match.mat: 7 point match charlot1 9 - 2 charlot2 (4 games)
    REFUSED  bad.mat:42: backgammon.blocked-point: point 5 is blocked ...
    UNREADABLE  junk.mat:3: backgammon.bad-record: line 3: cannot read 'hello'

``--json`` writes one JSON object per line instead; ``-j N`` checks N files at a time (worker
processes, each paying the start-up once). Exit status: 0 when every file is legal, 1 when a move
was refused, 2 when a file could not be read (2 wins over 1), and 2 when the paths name no record
at all (an empty folder).

A file is read only when it is a regular file (a FIFO, a device or a link to one is refused, never
waited on) and holds at most ``MAX_RECORD_BYTES`` (the service's limit, 4 MiB by default). Its text
is UTF-8 (with or without a byte-order mark), UTF-16 with a byte-order mark, or else Latin-1 as
older Windows writers save names; bytes with NULs and no UTF-16 byte-order mark (binary, or
UTF-16 without its mark) are refused, as ``file.encoding``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import stat
import sys
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from marshmallow import ValidationError

from rules.base import IllegalMove, RulesError
from rules.jsontypes import Json, JsonObject

if TYPE_CHECKING:
    from service.games import GameBinding

OK, REFUSED, UNREADABLE = "ok", "refused", "unreadable"
EXIT = {OK: 0, REFUSED: 1, UNREADABLE: 2}
MAX_MOVES = 100_000  # a file on the command line is the user's own: far above the service's MAX_REPLAY_MOVES


class FileRefused(Exception):
    """A path that cannot be read as a record file: its ``code`` (``file.*``) and why."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code, self.detail = code, detail


def max_record_bytes() -> int:
    from service.config import Config

    return int(Config.MAX_RECORD_BYTES)


def read_file(path: str, limit: int) -> bytes:
    """A regular file's bytes, at most ``limit`` of them: a FIFO, a device or a folder is refused
    before it is opened (opening a FIFO waits for a writer), and a file that grows past the limit
    while it is read is refused too."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise FileRefused("file.unreadable", exc.strerror or str(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a FIFO" if stat.S_ISFIFO(info.st_mode) else \
            "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) else "not a regular file"
        raise FileRefused("file.not-regular", f"{kind}: only regular files are read")
    if info.st_size > limit:
        raise FileRefused("file.too-large", f"{info.st_size} bytes, over MAX_RECORD_BYTES ({limit})")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # swapped between stat and open
                raise FileRefused("file.not-regular", "only regular files are read")
            raw = f.read(limit + 1)
    except OSError as exc:
        raise FileRefused("file.unreadable", exc.strerror or str(exc)) from None
    if len(raw) > limit:
        raise FileRefused("file.too-large", f"over MAX_RECORD_BYTES ({limit} bytes)")
    return raw


def decode(raw: bytes) -> str:
    """A record file's text, read as the HTTP endpoints read it (:func:`service.records.decode`);
    bytes that are no text are ``file.encoding``."""
    from service.records import NotText
    from service.records import decode as decode_record

    try:
        return decode_record(raw)
    except NotText as exc:
        raise FileRefused("file.encoding", str(exc)) from None


def check_file(path: str) -> JsonObject:
    """One file's verdict: ``{"file", "status", ...}`` (the result, or the refusal's code and place)."""
    _checked[0] += 1
    if not _checked[0] % COLLECT_EVERY and not gc.isenabled():
        gc.collect()
    try:
        text = decode(read_file(path, max_record_bytes()))
    except FileRefused as exc:
        return {"file": path, "status": UNREADABLE, "code": exc.code, "detail": exc.detail}
    try:
        return {"file": path, **_check(path, text)}
    except RulesError as exc:
        status = REFUSED if isinstance(exc, IllegalMove) else UNREADABLE
        place: JsonObject = {k: cast("Json", exc.context[k]) for k in ("line", "game", "move", "index") if exc.context.get(k) is not None}
        return {"file": path, "status": status, "code": exc.code, **place, "detail": exc.message}
    except ValidationError as exc:
        return {"file": path, "status": UNREADABLE, "code": "request.invalid", "detail": _flat(exc.messages)}


def _check(path: str, text: str) -> JsonObject:
    from rules.registry import ENGINES
    from service import records  # the readers and the registry, imported once in the process that needs them

    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix == "json" or (suffix not in ("mat", "sgf", "txt") and text.lstrip().startswith("{")):
        from service.games import BINDINGS  # the service's bindings: JSON replay files only

        return _check_json(text, BINDINGS)
    fmt = suffix if suffix in ("mat", "sgf") else records.sniff(text)
    games = [gid for gid, readers in records.READERS.items() if fmt in readers]
    if not games:
        return {"status": UNREADABLE, "code": "file.format", "detail": f"no game reads .{fmt} records"}
    done = records.check_text(ENGINES[games[0]], fmt, text, MAX_MOVES)
    return {"status": OK, "game": games[0], "format": fmt, "match": done.match, "games": len(done.games),
            "applied": done.applied, "warnings": done.warnings}


def _check_json(text: str, bindings: Mapping[str, GameBinding]) -> JsonObject:
    try:
        data = json.loads(text)
    except ValueError as exc:
        return {"status": UNREADABLE, "code": "file.json", "line": getattr(exc, "lineno", 1), "detail": str(exc)}
    if not isinstance(data, dict) or not isinstance(data.get("moves"), list) or ("new" in data) == ("state" in data):
        return {"status": UNREADABLE, "code": "file.json",
                "detail": 'a replay file is {"game", "new" or "state", "moves": [{"seat", "move"}, ...]}'}
    from service.games import get_binding

    binding = get_binding(str(data.get("game", "")))
    start = binding.load_state(data["state"]) if "state" in data else binding.new(data["new"])
    final, applied = binding.replay(start, data["moves"])
    status = binding.status(final)
    return {"status": OK, "game": binding.engine.game_id, "applied": applied, "game_over": status.get("game_over"),
            **({"outcome": status["outcome"]} if status.get("outcome") else {})}


def _flat(messages: Any) -> str:
    if isinstance(messages, dict):
        return "; ".join(f"{k}: {_flat(v)}" for k, v in messages.items())
    if isinstance(messages, list):
        return ", ".join(_flat(m) for m in messages)
    return str(messages)


def line_of(result: Mapping[str, Any]) -> str:
    """The human line for one verdict (``check_file``'s: its members depend on its status)."""
    where = result["file"] + (f":{result['line']}" if result.get("line") else "")
    if result["status"] == OK:
        if "match" in result:
            m = result["match"]
            names = m["players"] or ["", ""]
            length = f"{m['length']} point match" if m["length"] else "money session"
            summary = f"{length} {names[0]} {m['score'][0]} - {m['score'][1]} {names[1]} ({result['games']} games)"
            if result.get("warnings"):
                summary += f", {len(result['warnings'])} convention(s) noted: " + ", ".join(
                    sorted({w["code"].split(".", 1)[1] for w in result["warnings"]}))
        else:
            summary = f"{result['game']}, {result['applied']} moves" + (", game over" if result.get("game_over") else "")
        return f"OK          {where}: {summary}"
    place = "".join(f" {k} {result[k]}" for k in ("game", "move", "index") if k in result)
    label = "REFUSED    " if result["status"] == REFUSED else "UNREADABLE "
    return f"{label} {where}: {result['code']}:{place and place + ':'} {result['detail']}"


def start() -> None:
    """A checking process's start-up, paid once: the readers and every game's rules imported
    (the service's bindings, Flask and the schemas only when a JSON replay file asks for them),
    then frozen out of the cyclic garbage collector (they live as long as the process, and every
    full collection while thousands of files are checked would walk them again). The collector
    then runs once every COLLECT_EVERY files instead of every few hundred objects: a record's
    objects are freed by their counts, and the automatic collections cost a sixth of the check
    (the cycles an exception's traceback makes are collected at those times)."""
    from service import records  # noqa: F401

    gc.collect()
    gc.freeze()
    gc.disable()


COLLECT_EVERY = 256
_checked = [0]


def check_all(paths: Sequence[str], jobs: int = 1) -> Iterator[JsonObject]:
    """Each file's verdict, in the order given; ``jobs`` > 1 checks files in worker processes."""
    if jobs <= 1 or len(paths) <= 1:
        start()
        yield from map(check_file, paths)
        return
    with ProcessPoolExecutor(max_workers=jobs, initializer=start) as pool:
        yield from pool.map(check_file, paths, chunksize=max(1, min(16, len(paths) // (jobs * 4))))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arbiter", description="Arbiter, a referee for tabletop games.")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="check recorded games: .mat, .sgf and JSON replay files",
                           description="Check recorded games in process: every move replayed through the rules. "
                                       "Exit status 0: every file legal; 1: a move was refused; 2: a file could "
                                       "not be read.")
    check.add_argument("files", nargs="+", metavar="FILE", help=".mat, .sgf or .json (a folder: the files in it)")
    check.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help="check N files at a time")
    check.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args(argv)
    paths = _expand(args.files)
    if not paths:
        print("arbiter check: no record file (.mat, .sgf, .json) in " + ", ".join(args.files), file=sys.stderr)
        return EXIT[UNREADABLE]
    worst = 0
    for result in check_all(paths, args.jobs):
        print(json.dumps(result, ensure_ascii=False) if args.json else line_of(result), flush=False)
        worst = max(worst, EXIT[cast(str, result["status"])])
    sys.stdout.flush()
    return worst


def _expand(items: Sequence[str]) -> list[str]:
    out: list[str] = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            out += sorted(str(f) for f in p.rglob("*") if f.is_file() and f.suffix.lower() in (".mat", ".sgf", ".json"))
        else:
            out.append(item)
    return out


if __name__ == "__main__":
    sys.exit(main())
