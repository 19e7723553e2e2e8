"""HTTP glue for recorded matches (DESIGN 4.3, 4.8): each game's record formats come from its
declaration (``GameSpec.records``: reader, replayer, writer, warning codes, summary); nothing
here names a game. The views stay game-free; a game without records answers ``game.no-records``.

Flask, the error classes and the catalogues are imported by the functions that answer requests:
``arbiter check`` reads records through this module and starts faster without them.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from marshmallow import ValidationError

from rules.base import Engine
from rules.jsontypes import Json, JsonObject, as_object
from rules.registry import ENGINES
from rules.spec import RecordFormat

if TYPE_CHECKING:
    from service.errors import ApiError
    from service.games import GameBinding
    from service.sessions import RecordWithLog

#: every game's record formats, by game id (the games with none left out)
FORMATS: Mapping[str, Mapping[str, RecordFormat]] = MappingProxyType(
    {gid: engine.spec.records for gid, engine in ENGINES.items() if engine.spec.records})
#: each game's readers by format (``arbiter check`` picks the game that reads a file's format)
READERS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {gid: {fmt: f.read for fmt, f in formats.items()} for gid, formats in FORMATS.items()})
#: the longest record text any game reads (the request schemas' bound)
MAX_RECORD_CHARS = max((f.max_chars for formats in FORMATS.values() for f in formats.values()), default=0)


def formats_of(engine: Engine[Any, Any]) -> Mapping[str, RecordFormat]:
    """The game's record formats, or ``game.no-records``."""
    formats = FORMATS.get(engine.game_id)
    if formats is None:
        raise _no_records(f"{engine.game_id!r} has no match-record format (records exist for {sorted(FORMATS)})")
    return formats


def _no_records(detail: str) -> ApiError:
    from service.errors import ApiError

    return ApiError(404, "game.no-records", "No match records", detail)


def _format(engine: Engine[Any, Any], fmt: str) -> RecordFormat:
    formats = formats_of(engine)
    if fmt not in formats:
        raise ValidationError({"format": [f"{engine.game_id} records are {sorted(formats)}, not {fmt[:10]!r}"]})
    return formats[fmt]


def check_text(engine: Engine[Any, Any], fmt: str, text: str, max_moves: int) -> Any:
    """A record's text read in ``fmt`` and replayed through ``engine`` (its game must read ``fmt``)."""
    record = _format(engine, fmt)
    return record.replay(engine, record.read(text), max_moves)


def replay(binding: GameBinding, record: Mapping[str, Any]) -> JsonObject:
    """``/replay`` with ``{"record": {"format", "text"}}``: the final envelope, ``moves``,
    ``warnings`` and the members the format's ``summary`` declares (``games``, ``match``)."""
    from flask import current_app, request

    from service import i18n

    done = check_text(binding.engine, record["format"], record["text"], current_app.config["MAX_REPLAY_MOVES"])
    lang = i18n.negotiate(request.accept_languages)
    summary = {name: getattr(done, name) for name in _format(binding.engine, record["format"]).summary}
    return {**binding.result(done.state), "applied": done.applied, **summary, "moves": done.moves,
            "warnings": [_warning_in(w, lang) for w in done.warnings]}


def _warning_in(warning: Json, lang: str) -> Json:
    """A record's warning with its ``detail`` in the answer's language (``Accept-Language: pl``)."""
    from service import i18n

    members = as_object(warning)
    code = members["code"]
    declared = i18n.warning_catalogue().get(code) if isinstance(code, str) else None
    if lang != "pl" or declared is None:
        return warning
    return {**members, "detail": i18n.fill_pl(declared.text.detail_pl, as_object(members.get("context", {})))}


def sniff(text: str) -> str:
    """A record's format from its text: an ``.sgf`` opens with ``(;``, anything else is read as ``.mat``."""
    return "sgf" if text.lstrip("\ufeff \t\r\n").startswith("(;") else "mat"


class NotText(ValueError):
    """Bytes that are no record's text: NUL bytes without a UTF-16 byte-order mark (binary, or
    UTF-16 written without its mark), or UTF-16 by its mark that does not decode."""


def decode(raw: bytes) -> str:
    """A record file's bytes as text, the one reading of them for the HTTP endpoints and ``arbiter
    check``: UTF-16 by its byte-order mark, else UTF-8 (its own mark is the reader's to note), else
    Latin-1, which older Windows writers use for names; :class:`NotText` for anything else."""
    for bom, encoding in ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        if raw.startswith(bom) and not raw.startswith(codecs.BOM_UTF32_LE):
            try:
                return raw[len(bom):].decode(encoding)
            except UnicodeDecodeError as exc:
                raise NotText(f"UTF-16 by its byte-order mark, but byte {exc.start + 2} is no UTF-16 text") from None
    if b"\0" in raw:
        raise NotText("NUL bytes and no UTF-16 byte-order mark: not a text file (UTF-8, or UTF-16 with its "
                      "byte-order mark)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def replay_file(binding: GameBinding, raw: bytes, fmt: str | None) -> JsonObject:
    """``POST /v1/games/{game}/records``: the file itself, answered as ``replay`` with a record."""
    formats = formats_of(binding.engine)
    if fmt is not None and fmt not in formats:
        raise ValidationError({"format": [f"one of {sorted(formats)} (or leave it out to sniff), not {fmt[:10]!r}"]})
    if not raw.strip():
        raise ValidationError({"_schema": ["the body is the record file itself, and it is empty"]})
    try:
        text = decode(raw)
    except NotText as exc:
        raise ValidationError({"_schema": [str(exc)]}) from None
    return replay(binding, {"format": fmt or sniff(text), "text": text})


def _writer(engine: Engine[Any, Any]) -> tuple[str, Callable[..., str]]:
    """The game's record writer (the first format that writes) and its format."""
    for fmt, record in formats_of(engine).items():
        if record.write is not None:
            return fmt, record.write
    raise _no_records(f"{engine.game_id!r} writes no match-record format")


def write(binding: GameBinding, req: Mapping[str, Any]) -> str:
    """``POST /v1/games/{game}/record``: ``{"new" or "state", "moves"}`` as record text."""
    _, writer = _writer(binding.engine)
    start = binding.load_state(req["state"]) if "state" in req else binding.new(req["new"])
    moves: list[JsonObject] = [{"seat": m["seat"], "move": binding.engine.move_to_json(binding.load_move(m["move"], f"moves.{i}.move"))}
             for i, m in enumerate(req["moves"])]
    return str(writer(binding.engine, start, moves, req.get("players") or ("Player 0", "Player 1")))


def session_log_mat(binding: GameBinding, session: RecordWithLog) -> str:
    """The hook for ``GET /v1/sessions/{id}/log?format=mat``: a session record's ``new`` and
    ``log`` written as ``.mat`` (``service.sessions`` calls it with the stored record)."""
    record = formats_of(binding.engine).get("mat")
    if record is None or record.write is None:
        raise _no_records(f"{binding.engine.game_id!r} writes no .mat record")
    return str(record.write(binding.engine, binding.new(session["new"]), session["log"], ("Seat 0", "Seat 1")))
