"""HTTP glue for recorded matches (DESIGN 4.3): which game reads and writes which record formats.

The views stay game-free: ``replay`` and ``write`` look the game up here. Today only
backgammon has records (Jellyfish ``.mat`` read and written, GNU BG ``.sgf`` read); the
formatting and the checks live in ``rules/backgammon/_records.py``.
"""

from __future__ import annotations

from typing import Any

from flask import current_app

from rules.backgammon import _records as backgammon_records
from service.errors import ApiError

Json = Any

READERS = {
    "backgammon": {"mat": backgammon_records.parse_mat, "sgf": backgammon_records.parse_sgf},
}
_WRITERS = {"backgammon": backgammon_records.write_mat}


def _no_records(game_id: str) -> ApiError:
    return ApiError(404, "game.no-records", "No match records",
                    f"{game_id!r} has no match-record format (records exist for {sorted(READERS)})")


def replay(binding, record: Json) -> Json:
    """``/replay`` with ``{"record": {"format", "text"}}``: the final envelope, ``games`` and ``match``."""
    readers = READERS.get(binding.engine.game_id)
    if readers is None:
        raise _no_records(binding.engine.game_id)
    parsed = readers[record["format"]](record["text"])
    done = backgammon_records.replay_record(binding.engine, parsed, current_app.config["MAX_REPLAY_MOVES"])
    return {**binding.result(done.state), "applied": done.applied, "games": done.games, "match": done.match,
            "moves": done.moves}


def write(binding, req: Json) -> str:
    """``POST /v1/games/{game}/record``: ``{"new" or "state", "moves"}`` as ``.mat`` text."""
    writer = _WRITERS.get(binding.engine.game_id)
    if writer is None:
        raise _no_records(binding.engine.game_id)
    start = binding.load_state(req["state"]) if "state" in req else binding.new(req["new"])
    moves = [{"seat": m["seat"], "move": binding.engine.move_to_json(binding.load_move(m["move"], f"moves.{i}.move"))}
             for i, m in enumerate(req["moves"])]
    return writer(binding.engine, start, moves, req.get("players") or ("Player 0", "Player 1"))


def session_log_mat(binding, session: Json) -> str:
    """The hook for ``GET /v1/sessions/{id}/log?format=mat``: a session record's ``new`` and
    ``log`` written as ``.mat`` (``service.sessions`` calls it with the stored record)."""
    writer = _WRITERS.get(binding.engine.game_id)
    if writer is None:
        raise _no_records(binding.engine.game_id)
    return writer(binding.engine, binding.new(session["new"]), session["log"], ("Seat 0", "Seat 1"))
