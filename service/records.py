"""HTTP glue for recorded matches (DESIGN 4.3): which game reads and writes which record formats.

The views stay game-free: ``replay`` and ``write`` look the game up here. Today only
backgammon has records (Jellyfish ``.mat`` read and written, GNU BG ``.sgf`` read); the
formatting and the checks live in ``rules/backgammon/_records.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from flask import current_app, request
from marshmallow import ValidationError

from rules.backgammon import _records as backgammon_records
from rules.base import Engine
from rules.jsontypes import Json, JsonObject, as_object
from service import i18n
from service.errors import ApiError

if TYPE_CHECKING:
    from service.games import GameBinding
    from service.sessions import RecordWithLog

READERS = {
    "backgammon": {"mat": backgammon_records.parse_mat, "sgf": backgammon_records.parse_sgf},
}
_WRITERS = {"backgammon": backgammon_records.write_mat}
_REPLAYERS = {"backgammon": backgammon_records.replay_record}


def check_text(engine: Engine[Any, Any], fmt: str, text: str, max_moves: int) -> backgammon_records.Replayed:
    """A record's text read in ``fmt`` and replayed through ``engine`` (its game must read ``fmt``)."""
    game_id = engine.game_id
    return _REPLAYERS[game_id](engine, READERS[game_id][fmt](text), max_moves)


def _no_records(game_id: str) -> ApiError:
    return ApiError(404, "game.no-records", "No match records",
                    f"{game_id!r} has no match-record format (records exist for {sorted(READERS)})")


def replay(binding: GameBinding, record: Mapping[str, Any]) -> JsonObject:
    """``/replay`` with ``{"record": {"format", "text"}}``: the final envelope, ``games`` and ``match``."""
    readers = READERS.get(binding.engine.game_id)
    if readers is None:
        raise _no_records(binding.engine.game_id)
    done = check_text(binding.engine, record["format"], record["text"], current_app.config["MAX_REPLAY_MOVES"])
    lang = i18n.negotiate(request.accept_languages)
    return {**binding.result(done.state), "applied": done.applied, "games": done.games, "match": done.match,
            "moves": done.moves, "warnings": [_warning_in(w, lang) for w in done.warnings]}


def _warning_in(warning: Json, lang: str) -> Json:
    """A record's warning with its ``detail`` in the answer's language (``Accept-Language: pl``)."""
    members = as_object(warning)
    code = members["code"]
    declared = backgammon_records.RECORD_WARNINGS.get(code) if isinstance(code, str) else None
    if lang != "pl" or declared is None:
        return warning
    return {**members, "detail": declared.detail_pl.format(**as_object(members.get("context", {})))}


def sniff(text: str) -> str:
    """A record's format from its text: GNU BG's ``.sgf`` opens with ``(;``, anything else is read as ``.mat``."""
    return "sgf" if text.lstrip("\ufeff \t\r\n").startswith("(;") else "mat"


def decode(raw: bytes) -> str:
    """A record file's bytes as text: UTF-8 (a byte-order mark is the reader's to note), else
    Latin-1, which older Windows writers use for names (every byte is a character: never fails)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def replay_file(binding: GameBinding, raw: bytes, fmt: str | None) -> JsonObject:
    """``POST /v1/games/{game}/records``: the file itself, answered as ``replay`` with a record."""
    if fmt is not None and fmt not in ("mat", "sgf"):
        raise ValidationError({"format": [f"'mat' or 'sgf' (or leave it out to sniff), not {fmt[:10]!r}"]})
    if not raw.strip():
        raise ValidationError({"_schema": ["the body is the record file itself, and it is empty"]})
    text = decode(raw)
    return replay(binding, {"format": fmt or sniff(text), "text": text})


def write(binding: GameBinding, req: Mapping[str, Any]) -> str:
    """``POST /v1/games/{game}/record``: ``{"new" or "state", "moves"}`` as ``.mat`` text."""
    writer = _WRITERS.get(binding.engine.game_id)
    if writer is None:
        raise _no_records(binding.engine.game_id)
    start = binding.load_state(req["state"]) if "state" in req else binding.new(req["new"])
    moves: list[backgammon_records.SeatMove] = [{"seat": m["seat"], "move": binding.engine.move_to_json(binding.load_move(m["move"], f"moves.{i}.move"))}
             for i, m in enumerate(req["moves"])]
    return writer(binding.engine, start, moves, req.get("players") or ("Player 0", "Player 1"))


def session_log_mat(binding: GameBinding, session: RecordWithLog) -> str:
    """The hook for ``GET /v1/sessions/{id}/log?format=mat``: a session record's ``new`` and
    ``log`` written as ``.mat`` (``service.sessions`` calls it with the stored record)."""
    writer = _WRITERS.get(binding.engine.game_id)
    if writer is None:
        raise _no_records(binding.engine.game_id)
    return writer(binding.engine, binding.new(session["new"]), session["log"], ("Seat 0", "Seat 1"))
