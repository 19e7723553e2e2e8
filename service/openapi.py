"""The OpenAPI 3.1 contract, made from the games' declarations: ``python -m service.openapi > openapi.yaml``.

Each game gets its own paths (``/v1/games/11-nimmt/apply`` ...) whose state, view, move, tally,
setup and score shapes are the components its declarations give (``rules/shapes.py``: never
inferred, never written twice), moves as a ``oneOf`` with a ``discriminator`` on ``kind``.
Sessions keep the paths of DESIGN 4 (``/v1/sessions/{id}``): each answer is a ``oneOf`` of the
games' ``<Game>Session`` (``SessionLegalMoves``, ``SessionLog`` ...) with a ``discriminator`` on
``game``, so a generated client hands back an ``ElevenNimmtSession`` whose ``state`` is an
``ElevenNimmtView``. Component names, tags and operation ids are identifiers (``ElevenNimmt``,
never ``11Nimmt``). Examples are real: a new game of each engine with seed 1, its first legal
move, its refusals, a score sheet the engine scores, a session of the first game.

The dialect is OpenAPI 3.1 (JSON Schema 2020-12): ``null`` is a type (``type: [integer,
"null"]``, ``anyOf: [..., {type: "null"}]``), which Redocly's recommended rules, openapi-typescript
and openapi-python-client all read the same way (3.0's ``nullable`` they each read differently).
Every operation states its security (none, or a session's bearer token). ``tests/contract``
checks that ``openapi.yaml`` equals this output, lints it with Redocly, compiles the TypeScript
types generated from it under ``tsc --strict``, runs schemathesis against it in process, and
generates and installs a Python client from it.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, TypedDict, cast

from rules import shapes
from rules.base import Option
from rules.events import event_type
from rules.jsontypes import Json, JsonObject, as_object, object_at
from rules.registry import ALIASES
from rules.spec import RecordFormat
from service.config import Config
from service.errors import problem_for
from service.games import BINDINGS, GameBinding
from service.i18n import catalogue
from service.records import FORMATS
from service.schemas import common

VERSION = "1.0.0"
P = "application/problem+json"
NULL: JsonObject = {"type": "null"}


def _pascal(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in text.replace("_", "-").split("-"))


def _prefix(b: GameBinding) -> str:
    """The game's identifier prefix, from its engine's module: ``ElevenNimmt``, ``ThreeFiveEight``
    (component names and operation ids must be identifiers, so never ``11Nimmt``)."""
    return _pascal(type(b.engine).__module__.split(".")[1])


def _ref(name: str) -> JsonObject:
    return {"$ref": f"#/components/schemas/{name}"}


def _obj(required: list[Json], **props: Json) -> JsonObject:
    out: JsonObject = {"type": "object", "additionalProperties": False, "properties": props}
    return {**out, "required": required} if required else out


def _nullable(schema: JsonObject) -> Json:
    out: Json = shapes.nullable(schema)
    return out


SEAT: JsonObject = {"type": "integer", "minimum": 0, "maximum": common.MAX_SEAT}
SEAT_OR_NULL: JsonObject = {"type": ["integer", "null"], "minimum": 0, "maximum": common.MAX_SEAT}
SIGNATURE: JsonObject = {"type": "string", "minLength": 1, "maxLength": 64,
             "description": "the service's signature of `state` (service/signing.py): sent back beside the state, "
                            "a state the service made skips the re-check; anything else gets the full check"}


def _record(formats: Mapping[str, RecordFormat]) -> JsonObject:
    """The ``record`` a game's ``replay`` takes: one of its formats (``GameSpec.records``)."""
    return {"type": "object", "additionalProperties": False, "required": ["format", "text"],
            "description": "a recorded match in the format other tools write (DESIGN 4.3)",
            "properties": {"format": {"type": "string", "enum": cast("list[Json]", sorted(formats))},
                           "text": {"type": "string", "minLength": 1,
                                    "maxLength": max(f.max_chars for f in formats.values()),
                                    "description": "the file's text; the body may be up to MAX_RECORD_BYTES "
                                                   "(default 4 MiB)"}}}


def _record_summary(formats: Mapping[str, RecordFormat]) -> JsonObject:
    """What a record's replay adds to the envelope: the members its formats declare, its moves and warnings."""
    return {
        **{name: schema for f in formats.values() for name, schema in f.summary.items()},
        "moves": {"type": "array", "description": "record replay: the record's moves as Arbiter moves",
                  "items": {"type": "object", "required": ["seat", "move"], "properties": {
                      "seat": SEAT, "move": {"type": "object"}}}},
        "warnings": {"type": "array", "description": "record replay: each writer's convention read and noted "
                     "(GET /v1/codes lists them under `warnings`), by line",
                     "items": {"type": "object", "required": ["line", "code", "detail"], "properties": {
                         "line": {"type": "integer", "minimum": 1}, "code": {"type": "string"},
                         "detail": {"type": "string"}, "context": {"type": "object"}}}},
    }


LABEL: JsonObject = {"type": "object", "additionalProperties": False, "required": ["en", "pl"],
         "description": "a text in English and Polish",
         "properties": {"en": {"type": "string"}, "pl": {"type": "string"}}}
PROBLEM: JsonObject = {
    "type": "object",
    "description": "RFC 9457 problem details. Rule errors carry a stable `code` (GET /v1/codes lists each, "
                   "`type` links its page) and the members their message quotes; other members may follow.",
    "required": ["type", "title", "status", "detail", "code"],
    "additionalProperties": True,
    "properties": {
        "type": {"type": "string", "format": "uri-reference", "description": "`/problems/<code>`: the code's page"},
        "title": {"type": "string", "description": "the code's title, in the answer's language"},
        "status": {"type": "integer", "minimum": 400, "maximum": 599},
        "detail": {"type": "string", "description": "what was wrong, quoting a short excerpt of the input"},
        "code": {"type": "string", "description": "stable, always sent; GET /v1/codes lists every code"},
        "errors": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}},
                   "description": "request.invalid: the messages for each field, by its dotted path "
                                  "(`state.hands.1`), in the answer's language"},
        "field": {"type": "string", "description": "a state, move or tally of the wrong shape: the dotted path of "
                                                   "the first wrong field"},
        "seat": SEAT_OR_NULL,
        "index": {"type": "integer", "minimum": 0, "description": "replay: the index of the refused move"},
        "game": {"type": ["integer", "string"], "minimum": 1,
                 "description": "record replay: the game (1-based) of the refused move; game.unknown: the id asked for"},
        "move": {"type": "integer", "minimum": 0, "description": "record replay: the record's move number"},
        "line": {"type": "integer", "minimum": 1, "description": "a record that cannot be read: its line"},
        "version": {"type": "integer", "minimum": 0, "description": "a stale move: the session's version now"},
    },
}
SCORES_BASE: JsonObject = {
    "round": {"type": "integer", "minimum": 1, "description": "the round it scores (1-based)"},
    "points": {"type": "array", "items": {"type": "integer"}, "description": "this round's points, per seat"},
    "totals": {"type": "array", "items": {"type": "integer"}, "description": "running totals, per seat"},
    "history": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}},
                "description": "one row of per-seat points per finished round: once `final`, the round "
                               "just scored is the last row (DESIGN 4.5)"},
    "final": {"type": "boolean", "description": "the round's scores can no longer change"},
    "winners": {"type": "array", "items": SEAT, "description": "set when the game is over"},
}
OUTCOME: JsonObject = {
    "type": "object",
    "required": ["winners", "reason", "draw"],
    "properties": {
        "winners": {"type": "array", "items": SEAT},
        "reason": {"type": "string"},
        "draw": {"type": "boolean"},
        "points": {"type": "array", "items": {"type": "integer"}},
    },
}
VERSION_FIELD: JsonObject = {"type": "integer", "minimum": 0, "description": "the session's version: send it with the next move"}
SEEDED: JsonObject = {"type": "boolean", "description": "the creator chose the seed, so someone may know the deal (DESIGN 4.1)"}
SESSION_CREATED: JsonObject = {
    "type": "object", "required": ["id", "game", "version", "seeded", "owner_token", "seats", "to_act"],
    "properties": {
        "id": {"type": "string"}, "game": {"type": "string"}, "version": VERSION_FIELD, "seeded": SEEDED,
        "owner_token": {"type": "string", "description": "manages the session; holds no seat"},
        "seats": {"type": "array", "items": _obj(["seat", "token"], seat=SEAT, token={"type": "string"})},
        "to_act": {"type": "array", "items": SEAT}}}
OPTION: JsonObject = {
    "type": "object", "required": ["default", "description"],
    "description": "one rule option: its default, its values (`choices`, or a `type` with bounds), what it "
                   "does, and its label and help for players in both languages",
    "properties": {
        "default": {"type": ["string", "integer", "boolean", "object"],
                    "description": "the value a new game takes when the option is not given"},
        "description": {"type": "string", "description": "what it does, citing the rules page (English)"},
        "choices": {"type": "array", "items": {"type": ["string", "integer", "boolean"]},
                    "description": "the values it takes"},
        "choice_labels": {"type": "array", "items": _ref("Label"), "description": "a label per choice"},
        "type": {"type": "string", "enum": ["boolean", "integer", "string", "object"]},
        "minimum": {"type": "integer"}, "maximum": {"type": "integer"},
        "label": _ref("Label"), "help": _ref("Label")}}
GAME_ENTRY: JsonObject = {
    "type": "object", "required": ["id", "name", "players", "options", "move_kinds"],
    "properties": {
        "id": {"type": "string"}, "name": {"type": "string"},
        "label": {"allOf": [_ref("Label")], "description": "the game's name in English and Polish"},
        "players": _obj(["min", "max"], min={"type": "integer"}, max={"type": "integer"}),
        "options": {"type": "object", "additionalProperties": _ref("Option")},
        "move_kinds": {"type": "array", "items": _obj(["kind", "label"], kind={"type": "string"}, label=_ref("Label")),
                       "description": "the move kinds, each with its label"},
        "phases": {"type": "array", "items": _obj(["phase", "label"], phase={"type": "string"}, label=_ref("Label"))},
        "terms": {"type": "object", "additionalProperties": _ref("Label"),
                  "description": "the game's words a person may be shown, in English and Polish"},
        "aliases": {"type": "array", "items": {"type": "string"}, "description": "other ids that name it"},
        "legal_moves_complete": {"type": "boolean"}, "tally": {"type": "boolean"},
        "setup": {"type": "boolean"}, "records": {"type": "array", "items": {"type": "string"}}},
}
CODE_ENTRY = _obj(["code", "status", "title", "games"], code={"type": "string"},
                  status={"type": "integer", "minimum": 400, "maximum": 599},
                  title={"type": "string", "description": "in the language of Accept-Language (en or pl)"},
                  description={"type": "string", "description": "when it happens and what to do"},
                  games={"type": "array", "items": {"type": "string"}})
WARNING_ENTRY = _obj(["code", "title", "games"], code={"type": "string"},
                     title={"type": "string", "description": "in the language of Accept-Language (en or pl)"},
                     games={"type": "array", "items": {"type": "string"}})
PUBLIC: list[Json] = []  # an operation anyone may call
BEARER: list[Json] = [{"bearer": []}]  # a session's seat or owner token


_TITLES = {400: "Malformed JSON", 401: "Token required", 403: "Wrong token", 404: "Not found",
           405: "Method not allowed", 409: "Stale version", 413: "Body too large", 415: "Not JSON",
           429: "Too many requests", 422: "Invalid request, state, option or move", 503: "Session store unavailable"}


Problems = Mapping[int, Mapping[str, JsonObject]]  # real problems by status, each by its code
Codes = Mapping[int, Sequence[str]]  # every code an operation can answer, by status


class _Errors(TypedDict):
    """An operation's refusals: real problems and every code (``_op``'s keywords)."""

    problems: Problems
    codes: Codes


class _Refusals(TypedDict):
    new: JsonObject
    move: JsonObject
    seat: JsonObject
    tally: JsonObject | None


class _Examples(TypedDict):
    """Real examples of one game: a new game with seed 1, its first legal move and what it gives."""

    players: int
    state: Json
    seat: int
    move: Json
    refusals: _Refusals
    new: JsonObject
    applied: JsonObject
    legal: JsonObject
    scores: Json
    view: JsonObject


def _problems(*statuses: int, examples: Problems | None = None, codes: Codes | None = None) -> JsonObject:
    """Problem responses; ``examples`` maps a status to real problems (``{code: problem}``) and
    ``codes`` lists, per status, every code the operation can answer (from ``GET /v1/codes``)."""
    out: JsonObject = {}
    for s in statuses:
        desc = _TITLES[s]
        listed = (codes or {}).get(s)
        if listed:
            desc += ". Codes: " + ", ".join(f"`{c}`" for c in sorted(listed))
        media: dict[str, Json] = {"schema": _ref("Problem")}
        if examples and examples.get(s):
            media["examples"] = {code: {"summary": problem["title"], "value": problem}
                                 for code, problem in examples[s].items()}
        out[str(s)] = {"description": desc, "content": {P: media}}
    return out


def _problem_of(call: Callable[[], object]) -> JsonObject:
    """The real problem object that ``call()`` raises (an example made by the engines)."""
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - any refusal is an example
        return problem_for(exc)
    raise AssertionError("the example call was expected to be refused")


def _refusals(b: GameBinding, state: Any, seat: int, move: Any) -> _Refusals:
    """Real refusals of one game, by operation: a bad player count, a move out of turn (or
    after the end), a seat the table lacks, a malformed tally."""
    e = b.engine
    players = len(e.scores(state).totals)
    idle = [s for s in range(players) if s not in e.to_act(state)]
    bad_move = _problem_of(lambda: e.check(state, idle[0], move)) if idle else _problem_of(
        lambda: b.load_move({"kind": "no-such-kind"}))
    new = _problem_of(lambda: b.new({"players": e.players.stop}))
    no_seat = _problem_of(lambda: b.view(state, players))
    tally = _problem_of(lambda: b.score({"tally": {}})) if b.has_tally else None
    return {"new": new, "move": bad_move, "seat": no_seat, "tally": tally}


def _json(schema: Json, example: Json = None, examples: Json = None) -> JsonObject:
    media: dict[str, Json] = {"schema": schema}
    if example is not None:
        media["example"] = example
    if examples:
        media["examples"] = examples
    return {"content": {"application/json": media}}


def _score_examples(b: GameBinding, ex: _Examples) -> JsonObject:
    """The score request's examples: the example state and, where the engine scores one, the
    game's score sheet with the scores it gets."""
    out: JsonObject = {"state": {"summary": "a state", "value": {"state": ex["state"]}}}
    tally = b.spec.tally_example
    if tally is not None and b.has_tally:
        try:
            scored = b.score({"tally": tally})
        except Exception:  # noqa: BLE001 - a sheet the engine refuses is left out (tests/contract says so)
            return out
        out["tally"] = {"summary": f"a score sheet: totals {as_object(scored)['totals']}", "value": {"tally": tally}}
    return out


def _op(op_id: str, summary: str, request: JsonObject | None, ok: tuple[Json, ...], errors: tuple[int, ...],
        tags: list[Json], description: str = "", problems: Problems | None = None, codes: Codes | None = None,
        security: list[Json] = PUBLIC, **extra: Json) -> JsonObject:
    op: dict[str, Json] = {"operationId": op_id, "summary": summary, "tags": tags, "security": security}
    if description:
        op["description"] = description
    if request is not None:
        op["requestBody"] = {"required": True, **request}
    status, desc, schema, *example = ok  # (status, description, schema[, example])
    op["responses"] = {str(status): {"description": desc,
                                     **({} if schema is None else _json(schema, example[0] if example else None))},
                       **_problems(*errors, examples=problems, codes=codes)}
    op.update(extra)
    return op


def _option_schema(opt: Option) -> JsonObject:
    """A rule option as a new game's request takes it (optional: the default otherwise)."""
    if opt.choices is not None:
        return {**as_object(shapes.typed_enum(list(opt.choices))), "description": opt.description, "default": opt.default}
    out: JsonObject = {"type": opt.type, "description": opt.description, "default": opt.default}
    if opt.minimum is not None:
        out["minimum"] = opt.minimum
    if opt.maximum is not None:
        out["maximum"] = opt.maximum
    return out


def _examples(b: GameBinding) -> _Examples:
    e = b.engine
    players = e.players.start
    state = b.new({"players": players, "seed": 1})
    seat = min(e.to_act(state))
    move = e.legal_moves(state, seat)[0]
    after, events = b.apply(state, seat, move)
    return {"players": players, "state": e.to_json(state), "seat": seat, "move": e.move_to_json(move),
            "refusals": _refusals(b, state, seat, move), "new": b.result(state),
            "applied": b.result(after, events=events), "legal": b.legal_moves(state, seat),
            "scores": e.scores(after).to_json(), "view": b.view(state, seat)}


# --------------------------------------------------------------------------- a game's components


def _declared_components(b: GameBinding, p: str) -> tuple[dict[str, JsonObject], dict[str, Json]]:
    """A declared game's components, made from its declarations (DESIGN 4.8): the state, its
    view, each move kind, the tally, the setup and the score report with its breakdown; and the
    moves' refs by kind."""
    game = b.spec
    moves = {m.__dict__["kind"]: m for m in game.moves}
    names: dict[type, str] = {cls: f"{p}Move{_pascal(kind)}" for kind, cls in moves.items()}
    names.update({game.state: f"{p}State", game.breakdown: f"{p}Breakdown"})
    tallies = game.tally if isinstance(game.tally, tuple) else (game.tally,) if game.tally is not None else ()
    if len(tallies) == 1:
        names[tallies[0]] = f"{p}Tally"
    if game.setup is not None:
        names[game.setup] = f"{p}Setup"

    def namer(cls: type) -> str:
        if cls in names:
            return names[cls]
        return cls.__name__ if cls.__module__ == "rules.base" or cls.__name__.startswith(p) else f"{p}{cls.__name__}"

    schemas = shapes.Schemas(namer)
    shapes.json_schema(game.state, schemas)
    shapes.view_schema(game.state, schemas, f"{p}View",
                       f"A {game.name} state as one seat sees it: what it may not see is null, with sizes beside "
                       "it; `rng` is absent (POST .../view, GET /v1/sessions/{id}).")
    kinds = {kind: as_object(shapes.json_schema(cls, schemas))["$ref"] for kind, cls in moves.items()}
    for cls in (*tallies, game.setup, game.breakdown):
        if cls is not None:
            shapes.json_schema(cls, schemas)
    _event_components(b, p, schemas)
    if len(tallies) > 1:  # one closed shape each, told apart by their discriminator's values
        schemas.components[f"{p}Tally"] = {
            "oneOf": [shapes.json_schema(cls, schemas) for cls in tallies],
            "description": f"A {game.name} score sheet: one of {len(tallies)} shapes"}
    schemas.components[f"{p}Scores"] = {
        "type": "object", "description": f"A {game.name} score report (DESIGN 4.5)",
        "required": ["round", "points", "totals", "history", "breakdown", "final", "winners"],
        "properties": {**SCORES_BASE, "breakdown": {"type": "array", "items": _ref(f"{p}Breakdown"),
                                                    "description": "per seat: what scored, and its points"}}}
    return schemas.components, kinds


def _event_components(b: GameBinding, p: str, schemas: shapes.Schemas) -> None:
    """``{p}Event``: the ``oneOf`` of the game's declared event classes (DESIGN 4.8), each a
    component ``{p}<Class>`` (the game's prefix, then the event class's name), told apart by ``type``; the shared
    move event's ``move`` is the game's move and its ``seat`` one of the game's seats."""
    mapping: dict[str, Json] = {}
    for cls in b.spec.event_classes:
        mapping[event_type(cls)] = shapes.json_schema(cls, schemas)["$ref"]
    move_event = object_at(schemas.components[f"{p}MoveEvent"], "properties")
    move_event["seat"] = {**as_object(move_event["seat"]), "maximum": b.spec.players.stop - 2}
    # the move as the token may see it: whole, or (in a seat's stream and log) its kind and what it may see
    # (a bare $ref: openapi-typescript reads allOf of a union as a subtype)
    kinds: list[Json] = list(b.spec.move_kinds)
    schemas.components[f"{p}MoveSeen"] = {
        "type": "object", "required": ["kind"], "additionalProperties": True,
        "properties": {"kind": {"type": "string", "enum": kinds}},
        "description": f"A {b.spec.name} move part of which this token may not see: its `kind` and what it may see"}
    move_event["move"] = {"anyOf": [_ref(f"{p}Move"), _ref(f"{p}MoveSeen")]}
    schemas.components[f"{p}Event"] = {
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
        "description": f"What a {b.spec.name} move did; `type` is one of {', '.join(mapping)} "
                       f"(docs/rules/{b.engine.game_id}.md).",
    }


def _game_components(b: GameBinding, p: str) -> tuple[dict[str, JsonObject], dict[str, Json]]:
    return _declared_components(b, p)


def _session_components(b: GameBinding, p: str, new_props: JsonObject, status: JsonObject,
                        events: JsonObject) -> dict[str, JsonObject]:
    """The per-game session shapes; ``Session``, ``SessionCreate`` ... choose among them by ``game``."""
    gid = b.engine.game_id
    aliases = b.spec.aliases
    ids: list[Json] = [gid, *sorted({*aliases, *(alias for alias, target in ALIASES.items() if target == gid)})]
    game: JsonObject = {"type": "string", "enum": [gid], "description": "the game id (the discriminator)"}
    about: JsonObject = {"id": {"type": "string"}, "game": game, "version": VERSION_FIELD, "seeded": SEEDED}
    return {
        f"{p}SessionCreate": _obj(
            ["game", "players"], game={"type": "string", "enum": ids, "description": "the game id (or an alias)"},
            **new_props),
        f"{p}Session": {
            "type": "object", "description": f"A {b.engine.name} session as one token sees it",
            "required": ["id", "game", "version", "seeded", "seat", "state", "to_act", "round_over", "game_over",
                         "options"],
            "properties": {
                **about,
                "seat": {**SEAT_OR_NULL, "description": "the token's seat; null for the owner (a spectator)"},
                "state": _ref(f"{p}View"), **status,
                "events": {**events, "description": "after a move: what it did"}}},
        f"{p}SessionLegalMoves": {
            "type": "object", "required": ["id", "game", "version", "seeded", "seat", "moves", "complete"],
            "properties": {
                **about, "seat": SEAT_OR_NULL,
                "moves": {"type": "array", "items": _ref(f"{p}Move")}, "complete": {"type": "boolean"}}},
        f"{p}SessionMoveEvent": {
            "type": "object", "description": f"The data of a {b.engine.name} session's `event: move` (GET "
                                             "/v1/sessions/{session_id}/events): the move as the token may see it, "
                                             "the status after it, the token's view and what the move did",
            "required": ["version", "seat", "move", "to_act", "round_over", "game_over", "state", "events"],
            "properties": {
                "version": VERSION_FIELD, "seat": SEAT, "move": _nullable({"anyOf": [_ref(f"{p}Move"), _ref(f"{p}MoveSeen")]}),
                **{k: v for k, v in status.items() if k != "options"}, "state": _ref(f"{p}View"), "events": events}},
        f"{p}SessionLog": {
            "type": "object", "required": ["id", "game", "version", "seeded", "new", "moves", "events"], "properties": {
                **about,
                "new": {"type": "object", "additionalProperties": True,
                        "description": "how the game was made (`players`, `options`; `seed` once the game is over)"},
                "moves": {"type": "array", "items": {
                    "type": "object", "required": ["seat", "move"], "properties": {
                        "seat": SEAT, "move": _nullable({"anyOf": [_ref(f"{p}Move"), _ref(f"{p}MoveSeen")]}),
                        "hidden": {"type": "boolean", "description": "the move is hidden from this token"}}}},
                "events": {"type": "array", "items": events,
                           "description": "`events[i]`: what `moves[i]` did, as this token may see it (a hidden "
                                          "move has no `move` event)"}}},
    }


# --------------------------------------------------------------------------- a game's paths


def _game(b: GameBinding) -> tuple[dict[str, JsonObject], dict[str, Json]]:
    """(components, paths) of one game."""
    e = b.engine
    gid, p = e.game_id, _prefix(b)
    tags: list[Json] = [p]  # an identifier: generated clients name a module after it (`api.eleven_nimmt`)
    components, kinds = _game_components(b, p)
    components[f"{p}Move"] = {
        "oneOf": [{"$ref": r} for r in kinds.values()],
        "discriminator": {"propertyName": "kind", "mapping": kinds},
        "description": f"A {e.name} move; `kind` is one of {', '.join(kinds)}.",
    }
    state, move = _ref(f"{p}State"), _ref(f"{p}Move")
    ex = _examples(b)
    options: JsonObject = {"type": "object", "description": "rule options; see GET /v1/games/" + gid,
               "properties": {n: _option_schema(o) for n, o in e.options.items()},
               "additionalProperties": False}
    new_props: dict[str, Json] = {
        "players": {"type": "integer", "minimum": e.players.start, "maximum": e.players.stop - 1},
        "seed": {"oneOf": [{"type": "integer", "minimum": -common.SEED_MAX, "maximum": common.SEED_MAX},
                           {"type": "string", "maxLength": 128}],
                 "description": "feeds the state's rng: same seed and moves, same game"},
        "options": options,
    }
    if f"{p}Setup" in components:
        new_props["setup"] = _ref(f"{p}Setup")
    components[f"{p}NewGame"] = _obj(["players"], **new_props)
    new_req = _ref(f"{p}NewGame")
    resolved = as_object(as_object(components[f"{p}State"]).get("properties", {})).get("options") or {
        "type": "object", "description": "the resolved options"}
    scores = _ref(f"{p}Scores")
    status: JsonObject = {
        "to_act": {"type": "array", "items": SEAT, "description": "the seats that may move now"},
        "round_over": {"type": "boolean"},
        "game_over": {"type": "boolean"},
        "options": resolved,
        "scores": scores,
        "outcome": _ref("Outcome"),
    }
    events: JsonObject = {"type": "array", "items": _ref(f"{p}Event"), "description": "what the move did, in order"}
    components[f"{p}Envelope"] = {
        "type": "object", "description": f"A {e.name} state after a request, and its status",
        "required": ["state", "to_act", "round_over", "game_over", "options", "events"],
        "properties": {"state": state, **status, "events": events,
                       "signature": SIGNATURE,
                       "applied": {"type": "integer", "description": "replay: the number of moves applied"},
                       **(_record_summary(FORMATS[gid]) if gid in FORMATS else {})}}
    result = _ref(f"{p}Envelope")
    components.update(_session_components(b, p, new_props, status, events))
    ref = ex["refusals"]
    game_codes = sorted(c for c, entry in catalogue().items() if gid in entry.games)
    opt_codes = sorted(c for c in catalogue() if c.startswith("options."))
    state_codes = [*game_codes, "request.invalid", *(c for c in catalogue() if c.startswith("state."))]

    def errs(*examples: JsonObject | None, codes: list[str] = state_codes) -> _Errors:
        return {"problems": {422: {cast(str, p["code"]): p for p in examples if p}}, "codes": {422: codes}}

    move_req = _obj(["state", "seat", "move"], state=state, signature=SIGNATURE, seat=SEAT, move=move)
    move_ex: JsonObject = {"state": ex["state"], "seat": ex["seat"], "move": ex["move"]}
    moves: JsonObject = {"type": "array", "maxItems": Config.MAX_REPLAY_MOVES, "description": "at most MAX_REPLAY_MOVES "
             "(default shown)", "items": _obj(["seat", "move"], seat=SEAT, move=move)}
    replay_from: list[Json] = [_obj(["state", "moves"], state=state, signature=SIGNATURE, moves=moves),
                   _obj(["new", "moves"], new=new_req, moves=moves)]
    if gid in FORMATS:
        replay_from.append(_obj(["record"], record=_record(FORMATS[gid])))
    tally: JsonObject = _ref(f"{p}Tally") if f"{p}Tally" in components else {"type": "object"}
    base = f"/v1/games/{gid}"
    oid = p[0].lower() + p[1:]
    paths: dict[str, Json] = {
        f"{base}/new": {"post": _op(
            f"{oid}New", f"New {e.name} game", _json(new_req, {"players": ex["players"], "seed": 1}),
            (201, "the new game", result, ex["new"]), (400, 413, 415, 422), tags,
            **errs(ref["new"], codes=[*opt_codes, "request.invalid", *(c for c in game_codes if "setup" in c)]))},
        f"{base}/legal-moves": {"post": _op(
            f"{oid}LegalMoves", f"Legal {e.name} moves",
            _json(_obj(["state"], state=state, signature=SIGNATURE, seat=SEAT_OR_NULL),
                  {"state": ex["state"], "seat": ex["seat"]}),
            (200, "the moves of `seat` (default: the first seat to act); each is accepted as is by apply",
             {"type": "object", "required": ["seat", "moves", "complete"], "properties": {
                 "seat": SEAT_OR_NULL, "moves": {"type": "array", "items": move},
                 "complete": {"type": "boolean", "description": "false where melds are sampled (Canasta)"}}},
             ex["legal"]),
            (400, 413, 415, 422), tags, **errs(ref["seat"]))},
        f"{base}/validate": {"post": _op(
            f"{oid}Validate", f"Is this {e.name} move legal?", _json(move_req, move_ex),
            (200, "a verdict: an illegal move is an answer, not an error", {
                "type": "object", "required": ["legal"], "properties": {
                    "legal": {"type": "boolean"}, "problem": _ref("Problem")}}),
            (400, 413, 415, 422), tags, **errs(ref["move"]))},
        f"{base}/apply": {"post": _op(
            f"{oid}Apply", f"Apply a {e.name} move", _json(move_req, move_ex),
            (200, "the resulting state, events and (at a round's end) scores", result, ex["applied"]),
            (400, 413, 415, 422), tags, "An illegal move answers 422 with its stable `code`.", **errs(ref["move"]))},
        f"{base}/replay": {"post": _op(
            f"{oid}Replay", f"Replay a recorded {e.name} game",
            _json({"oneOf": replay_from,
                   "description": "`state` or `new`, with `moves`" + (", or a match `record` alone"
                                                                      if gid in FORMATS else "")},
                  {"new": {"players": ex["players"], "seed": 1}, "moves": [{"seat": ex["seat"], "move": ex["move"]}]}),
            (200, "the final state and scores", result), (400, 413, 415, 422), tags,
            "The first illegal move answers 422; the problem's `index` names it.", **errs(ref["move"]))},
        f"{base}/score": {"post": _op(
            f"{oid}Score", f"Score a {e.name} state or score sheet",
            _json({"oneOf": [_obj(["state"], state=state, signature=SIGNATURE), _obj(["tally"], tally=tally)],
                   "description": "a `state`, or a score sheet's `tally`"}, examples=_score_examples(b, ex)),
            (200, "round and running scores with breakdown", scores, ex["scores"]), (400, 413, 415, 422), tags,
            **errs(ref["tally"]))},
        f"{base}/view": {"post": _op(
            f"{oid}View", f"A {e.name} state as one seat may see it",
            _json(_obj(["state", "seat"], state=state, signature=SIGNATURE, seat=SEAT_OR_NULL),
                  {"state": ex["state"], "seat": ex["seat"]}),
            (200, "the redacted state (`seat: null` for spectators)", {
                "type": "object", "required": ["seat", "state"],
                "properties": {"seat": SEAT_OR_NULL, "state": _ref(f"{p}View")}}, ex["view"]),
            (400, 413, 415, 422), tags, **errs(ref["seat"]))},
    }
    written = [fmt for fmt, f in FORMATS.get(gid, {}).items() if f.write is not None]
    if written:
        players: JsonObject = {"type": ["array", "null"], "minItems": 2, "maxItems": 2, "description": "the two players' names "
                   "for the record's header (default: Player 0, Player 1)",
                   "items": {"type": "string", "minLength": 1, "maxLength": 40}}
        paths[f"{base}/record"] = {"post": _op(
            f"{oid}Record", f"Write a {e.name} game as a match record (.{written[0]})",
            _json({"oneOf": [_obj(["state", "moves"], state=state, moves=moves, players=players),
                             _obj(["new", "moves"], new=new_req, moves=moves, players=players)],
                   "description": "`state` or `new`, with `moves`"},
                  {"new": {"players": ex["players"], "seed": 1}, "moves": [{"seat": ex["seat"], "move": ex["move"]}]}),
            (200, f"the record's .{written[0]} text, which `replay` reads back", None),
            (400, 413, 415, 422), tags, **errs(ref["move"]))}
        object_at(paths, f"{base}/record", "post", "responses", "200")["content"] = {"text/plain": {"schema": {"type": "string"}}}
    if gid in FORMATS:
        paths[f"{base}/records"] = {"post": _op(
            f"{oid}RecordFile", f"Check a {e.name} match record file",
            None, (200, "as `replay` with a `record`: the final envelope, `games`, `match` and `warnings`", result),
            (400, 413, 415, 422), tags, "The file itself is the body, as `application/octet-stream` or `text/plain` "
            "(`curl --data-binary @match.mat -H 'Content-Type: text/plain'`), up to MAX_RECORD_BYTES (default 4 MiB). An illegal move answers 422 "
            "with `code`, `line`, `game`, `move` and `index`.", **errs(ref["move"]))}
        object_at(paths, f"{base}/records", "post")["requestBody"] = {"required": True, "content": {
            # the bytes of the file, as a generated client uploads one; the server takes `text/plain` (what
            # curl sends with -H 'Content-Type: text/plain') the same, which openapi-python-client cannot generate
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}}
        object_at(paths, f"{base}/records", "post")["parameters"] = [{
            "name": "format", "in": "query", "required": False, "description": "the record's format; left out, "
            "an `.sgf` is known by its `(;` and anything else is read as `.mat`",
            "schema": {"type": "string", "enum": cast("list[Json]", sorted(FORMATS[gid]))}}]
    return components, paths


# --------------------------------------------------------------------------- the whole contract


def build_spec() -> JsonObject:
    """The contract as a dict (built once per process)."""
    return copy.deepcopy(_build_spec())


@cache
def _build_spec() -> JsonObject:
    components: dict[str, Json] = {"Label": LABEL, "Problem": PROBLEM, "Outcome": OUTCOME,
                                   "SessionCreated": SESSION_CREATED, "Option": OPTION, "GameEntry": GAME_ENTRY,
                                   "CodeEntry": CODE_ENTRY}
    paths: dict[str, Json] = {}
    for b in BINDINGS.values():
        found, game_paths = _game(b)
        for name, component in found.items():
            components.setdefault(name, component)
        paths.update(game_paths)
    paths.update(_common_paths())
    return {
        "openapi": "3.1.0",
        "info": {"title": "Arbiter", "version": VERSION,
                 "description": "A REST referee for tabletop games: whether a move is legal, the resulting state, "
                                "and scores with their breakdown. Errors are RFC 9457 problem+json with a stable "
                                "`code`.",
                 "license": {"name": "MIT", "identifier": "MIT"}},
        "servers": [{"url": "/", "description": "this server (make run serves http://127.0.0.1:8000)"}],
        "tags": [*(cast(Json, {"name": _prefix(b), "description": f"{b.engine.name} (`{gid}`)"})
                   for gid, b in BINDINGS.items()),
                 {"name": "catalogue", "description": "the games, their options and moves, and the error codes"},
                 {"name": "sessions", "description": "server-held games: each seat sees its own view (DESIGN 4.1)"},
                 {"name": "operations", "description": "liveness, readiness and metrics"}],
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "description": "a session's seat or owner token"}},
        },
    }


def _by_game(name: str, description: str, aliases: bool = False) -> JsonObject:
    """``oneOf`` the games' ``<Game><name>`` schemas, told apart by ``game``."""
    mapping: dict[str, Json] = {gid: f"#/components/schemas/{_prefix(b)}{name}" for gid, b in BINDINGS.items()}
    if aliases:
        for gid, b in BINDINGS.items():
            for alias in (*b.spec.aliases,
                          *(a for a, target in ALIASES.items() if target == gid)):
                mapping[alias] = mapping[gid]
    out: JsonObject = {"oneOf": [{"$ref": r} for r in dict.fromkeys(mapping.values())],
                 "discriminator": {"propertyName": "game", "mapping": mapping}}
    return {**out, "description": description} if description else out


def _session_examples() -> tuple[JsonObject, JsonObject, JsonObject, Json]:
    """A real session of the first game: the create request, its answer, the first seat's
    view of it and that seat's first legal move (tokens as made by ``secrets``)."""
    b = next(iter(BINDINGS.values()))
    e = b.engine
    players = e.players.start
    state = b.new({"players": players, "seed": 1})
    seat = min(e.to_act(state))
    create: JsonObject = {"game": e.game_id, "players": players}
    created: JsonObject = {"id": "Jq8bX2nS0y5wq1c3rZ4p7A", "game": e.game_id, "version": 0, "seeded": False,
               "owner_token": "o1f0cB6cWJ4pX0bQm3n6tq0yV9fE1yQGm8pYxRk3bOA",
               "seats": [{"seat": i, "token": f"s{i}Nf0zq8Lw3mV7yP2c9KdE4hT6bR1uXa5gJ0iO3kF_8"} for i in range(players)],
               "to_act": cast(list[Json], sorted(e.to_act(state)))}
    shown: JsonObject = {"id": created["id"], "game": e.game_id, "version": 0, "seeded": False, "seat": seat, **b.status(state),
             "state": e.view(state, seat)}
    return create, created, shown, e.move_to_json(e.legal_moves(state, seat)[0])


def _common_paths() -> dict[str, Json]:
    ex_create, ex_created, ex_session, ex_move = _session_examples()
    sid: JsonObject = {"name": "session_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 64}}
    session = _by_game("Session", "")
    any_move: JsonObject = {"anyOf": [_ref(f"{_prefix(b)}Move") for b in BINDINGS.values()],
                "description": "a move of the session's game (that game's Move schema)"}
    first = next(iter(BINDINGS))
    code_example = catalogue()[f"{first}.not-your-turn"].to_json("en")
    paths: dict[str, Json] = {
        "/v1/games": {"get": _op("listGames", "The games, their options and move kinds", None,
                                 (200, "the catalogue", _obj(["games"], games={"type": "array",
                                                                              "items": _ref("GameEntry")})),
                                 (), ["catalogue"])},
        "/v1/games/{game}": {"get": _op(
            "describeGame", "One game's entry", None, (200, "the game", _ref("GameEntry")), (404,), ["catalogue"],
            parameters=[{"name": "game", "in": "path", "required": True,
                         "schema": {"type": "string", "maxLength": 40}, "example": first}])},
        "/v1/sessions": {"post": _op(
            "createSession", "Start a server-held game; the state stays on the server",
            _json(_by_game("SessionCreate", "", aliases=True), ex_create),
            (201, "the session: give each player its seat token", _ref("SessionCreated"), ex_created),
            (400, 404, 413, 415, 422, 429, 503), ["sessions"])},
        "/v1/sessions/{session_id}": {
            "get": _op("getSession", "The session as the token's seat sees it", None,
                       (200, "the view, version and who acts", session, ex_session),
                       (401, 403, 404, 422, 429, 503), ["sessions"], parameters=[sid], security=BEARER),
            "delete": _op("deleteSession", "End a session (owner token)", None, (204, "deleted", None),
                          (401, 403, 404, 429, 503), ["sessions"], parameters=[sid], security=BEARER)},
        "/v1/sessions/{session_id}/moves": {"post": _op(
            "sessionMove", "Make a move as the token's seat",
            _json(_obj(["move", "version"], move=any_move, version={
                "type": "integer", "minimum": 0, "maximum": 2**31, "description": "the version the move answers"}),
                {"move": ex_move, "version": 0}),
            (200, "as apply, with the acting seat's view", session),
            (400, 401, 403, 404, 409, 413, 415, 422, 429, 503), ["sessions"], parameters=[sid], security=BEARER)},
        "/v1/sessions/{session_id}/validate": {"post": _op(
            "sessionValidate", "Judge a move as the token's seat without making it",
            _json(_obj(["move", "version"], move=any_move, version={
                "type": "integer", "minimum": 0, "maximum": 2**31, "description": "the version the move answers"}),
                {"move": ex_move, "version": 0}),
            (200, "the move would be accepted now; the session is unchanged",
             _obj(["legal", "version"], legal={"type": "boolean", "const": True},
                  version={"type": "integer", "minimum": 0}, id={"type": "string"}, game={"type": "string"},
                  seeded={"type": "boolean"})),
            (400, 401, 403, 404, 409, 413, 415, 422, 429, 503), ["sessions"],
            "Same body and token as a session move; an illegal move gets the very problem the move would get. "
            "Never changes the session.", parameters=[sid], security=BEARER)},
        "/v1/sessions/{session_id}/legal-moves": {"get": _op(
            "sessionLegalMoves", "The token's seat's legal moves now", None,
            (200, "the moves", _by_game("SessionLegalMoves", "the seat's legal moves")),
            (401, 403, 404, 422, 429, 503), ["sessions"], parameters=[sid], security=BEARER)},
        "/v1/sessions/{session_id}/log": {"get": _op(
            "sessionLog", "The move history, replayable with /replay", None,
            (200, "the log; a seat's log hides what its view hides (`?format=mat`: a match record as "
                  "text/plain, for a game whose `records` write `mat`)", _by_game("SessionLog", "the move history")),
            (401, 403, 404, 422, 429, 503), ["sessions"], security=BEARER,
            parameters=[sid, {"name": "format", "in": "query", "required": False,
                              "schema": {"type": "string", "enum": ["json", "mat"], "default": "json"}}])},
        "/v1/sessions/{session_id}/events": {"get": _op(
            "sessionEvents", "Live events: a snapshot, then each move as the token may see it (SSE)", None,
            (200, "`text/event-stream`: `event: snapshot` (as GET the session), then `event: move` with "
                  "`{version, seat, move, to_act, round_over, game_over, scores?, outcome?, state, events}` (the "
                  "game's `<Game>SessionMoveEvent`: `events` are its `<Game>Event`s); a comment line every "
                  "EVENTS_HEARTBEAT seconds", None),
            (401, 403, 404, 429, 503), ["sessions"], "DESIGN 4.2, 4.9. `Last-Event-ID` resumes after a version; "
            "at most MAX_STREAMS_PER_SESSION streams per session (429 `session.too-many-streams`).",
            parameters=[sid, {"name": "access_token", "in": "query", "required": False,
                              "schema": {"type": "string", "maxLength": 100},
                              "description": "the token, for a browser's EventSource (RFC 6750 2.3)"},
                        {"name": "Last-Event-ID", "in": "header", "required": False,
                         "schema": {"type": "string", "maxLength": 20}}], security=BEARER)},
        "/v1/codes": {"get": _op(
            "listCodes", "Every error code: its status, title, when it happens and what to do, and its games", None,
            (200, "the catalogue (titles and descriptions in the language of Accept-Language: en or pl)",
             _obj(["codes", "warnings"], codes={"type": "array", "items": _ref("CodeEntry")},
                  warnings={"type": "array", "items": WARNING_ENTRY,
                            "description": "the writers' conventions a record replay reads and notes (not errors: "
                                           "they come in a 200 answer's `warnings`)"})), (), ["catalogue"])},
        "/problems/{code}": {"get": _op(
            "describeProblem", "The page of one error code (a problem's `type` links it)", None,
            (200, "the code's catalogue entry (JSON for `Accept: application/json`, else an HTML page)",
             _ref("CodeEntry"), code_example), (404,), ["catalogue"],
            parameters=[{"name": "code", "in": "path", "required": True,
                         "schema": {"type": "string", "maxLength": 80}, "example": f"{first}.not-your-turn"}])},
        "/metrics": {"get": _op("metrics", "Prometheus metrics of this worker process", None,
                                (200, "text format 0.0.4", None), (), ["operations"])},
        "/healthz": {"get": _op("healthz", "Liveness", None,
                                (200, "alive", _obj(["status"], status={"type": "string"})), (), ["operations"])},
        "/readyz": {"get": _op("readyz", "Readiness, including the session store", None,
                               (200, "ready", _obj(["status"], status={"type": "string"},
                                                   store={"type": "string"})), (503,), ["operations"])},
    }
    object_at(paths, "/problems/{code}", "get", "responses", "200", "content")["text/html"] = {"schema": {"type": "string"}}
    object_at(paths, "/metrics", "get", "responses", "200")["content"] = {"text/plain": {"schema": {"type": "string"}}}
    # SSE: the body is text; the data of each `event: move` is the session's game's SessionMoveEvent
    object_at(paths, "/v1/sessions/{session_id}/events", "get", "responses", "200")["content"] = {"text/event-stream": {
        "schema": {"oneOf": [_ref(f"{_prefix(b)}SessionMoveEvent") for b in BINDINGS.values()],
                   "description": "the JSON `data:` of each `event: move`, of the session's game"}}}
    # createSession -> every session operation (OpenAPI links: generated clients and the stateful
    # contract tests follow them), with the owner's token and with seat 0's
    object_at(paths, "/v1/sessions", "post", "responses", "201")["links"] = {
        name: {"operationId": target, "parameters": {
            "path.session_id": "$response.body#/id",
            "header.Authorization": "Bearer {$response.body#/" + token + "}"}}
        for name, target, token in (
            ("getSession", "getSession", "owner_token"), ("getSessionAsSeat", "getSession", "seats/0/token"),
            ("sessionLegalMoves", "sessionLegalMoves", "seats/0/token"), ("sessionMove", "sessionMove", "seats/0/token"),
            ("sessionLog", "sessionLog", "owner_token"), ("deleteSession", "deleteSession", "owner_token"))}
    return paths


@cache
def contract_yaml() -> str:
    """The contract as YAML, as `make openapi` writes it and `/openapi.yaml` serves it. libyaml's
    dumper where PyYAML has it (the same text, a sixth of the pure-Python dumper's 0.95 s of CPU:
    the first `/openapi.yaml` of a loaded worker met the request budget, a 503)."""
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return cast(str, yaml.dump(build_spec(), Dumper=dumper, sort_keys=False, allow_unicode=True))


if __name__ == "__main__":  # pragma: no cover
    sys.stdout.write(contract_yaml())
