"""Builds the OpenAPI 3.0.3 contract from the bindings: ``python -m service.openapi > openapi.yaml``.

Each game gets its own paths (``/v1/games/11-nimmt/apply`` ...) whose state, move, tally and
setup schemas come from that game's marshmallow schemas (converted by apispec), moves as a
``oneOf`` with a ``discriminator`` on ``kind``; its ``View`` is derived from the state schema
and the engine's views (below). Sessions keep the paths of DESIGN 4 (``/v1/sessions/{id}``):
each answer is a ``oneOf`` of the games' ``<Game>Session`` (``SessionLegalMoves``, ``SessionLog``
...) with a ``discriminator`` on ``game``, so a generated client hands back an
``ElevenNimmtSession`` whose ``state`` is an ``ElevenNimmtView``. Component names, tags and
operation ids are identifiers (``ElevenNimmt``, never ``11Nimmt``). Examples are real: a new
game of each engine with seed 1, its first legal move, its refusals, a score sheet the engine
scores, a session of the first game. ``tests/contract`` checks that ``openapi.yaml`` equals
this output, runs schemathesis against it in process, and generates a client from it.
"""

from __future__ import annotations

import copy
import random
import sys
from functools import cache
from typing import Any

import jsonschema_rs
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from rules import shapes
from rules.base import Option
from rules.registry import ALIASES
from service.config import Config
from service.errors import problem_for
from service.games import BINDINGS, GameBinding
from service.i18n import catalogue
from service.records import READERS
from service.schemas import common

Json = Any
VERSION = "1.0.0"
P = "application/problem+json"


def _pascal(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in text.replace("_", "-").split("-"))


def _schema_name(schema: Any) -> str:
    cls = schema if isinstance(schema, type) else type(schema)
    module = cls.__module__.rsplit(".", 1)[-1]
    prefix = "" if module in ("common", "abc", "schema") else _pascal(module)  # abc: Schema.from_dict
    name = cls.__name__.removesuffix("Schema")
    return name if name.startswith(prefix) else f"{prefix}{name}"


def _prefix(b: GameBinding) -> str:
    """The game's identifier prefix, from its engine's module: ``ElevenNimmt``, ``ThreeFiveEight``
    (component names and operation ids must be identifiers, so never ``11Nimmt``)."""
    return _pascal(type(b.engine).__module__.split(".")[1])


def _declared_components(spec: APISpec, b: GameBinding, p: str) -> dict[str, str]:
    """A declared game's components, made from its declarations (DESIGN 4.8): the state, its
    view, each move kind, the tally, the setup and the score breakdown; the moves' refs by kind."""
    game = b.spec
    moves = {m.__dict__["kind"]: m for m in game.moves}
    names = {cls: f"{p}Move{_pascal(kind)}" for kind, cls in moves.items()}
    names.update({game.state: f"{p}State"})

    def namer(cls: type) -> str:
        if cls in names:
            return names[cls]
        return cls.__name__ if cls.__module__ == "rules.base" or cls.__name__.startswith(p) else f"{p}{cls.__name__}"

    schemas = shapes.Schemas(namer)
    shapes.json_schema(game.state, schemas)
    shapes.view_schema(game.state, schemas, f"{p}View",
                       f"A {game.name} state as one seat sees it: what it may not see is null, with sizes beside "
                       "it; `rng` is absent (POST .../view, GET /v1/sessions/{id}).")
    kinds = {kind: shapes.json_schema(cls, schemas)["$ref"] for kind, cls in moves.items()}
    for cls in (game.tally, game.setup, game.breakdown):
        if cls is not None:
            shapes.json_schema(cls, schemas)
    if game.tally is not None and namer(game.tally) != f"{p}Tally":
        schemas.components[f"{p}Tally"] = shapes.json_schema(game.tally, schemas)
    if game.setup is not None and namer(game.setup) != f"{p}Setup":
        schemas.components[f"{p}Setup"] = shapes.json_schema(game.setup, schemas)
    breakdown = shapes.json_schema(game.breakdown, schemas)
    schemas.components[f"{p}Scores"] = {**SCORES, "required": [*SCORES["required"], "points", "history"],
                                        "properties": {**SCORES["properties"], **DECLARED_SCORES,
                                                       "breakdown": {"type": "array", "items": breakdown,
                                                                     "description": "per seat: what scored"}}}
    for name, component in schemas.components.items():
        if name not in spec.components.schemas:
            spec.components.schema(name, component)
    return kinds


def _ref(name: str) -> Json:
    return {"$ref": f"#/components/schemas/{name}"}


def _obj(required: list[str], **props: Json) -> Json:
    return {"type": "object", "additionalProperties": False, "required": required, "properties": props}


SEAT = {"type": "integer", "minimum": 0, "maximum": common.MAX_SEAT}
SIGNATURE = {"type": "string", "minLength": 1, "maxLength": 64,
             "description": "the service's signature of `state` (service/signing.py): sent back beside the state, "
                          "a state the service made skips the re-check; anything else gets the full check"}
RECORD_GAMES = frozenset(READERS)
RECORD = {"type": "object", "additionalProperties": False, "required": ["format", "text"],
          "description": "a recorded match in the format other tools write (DESIGN 4.3)",
          "properties": {"format": {"type": "string", "enum": ["mat", "sgf"]},
                         "text": {"type": "string", "maxLength": 1_000_000}}}
RECORD_SUMMARY = {
    "games": {"type": "array", "description": "record replay: each game of the match", "items": {
        "type": "object", "required": ["number", "winner", "points", "score_after"], "properties": {
            "number": {"type": "integer"}, "winner": {**SEAT, "nullable": True}, "points": {"type": "integer"},
            "resigned": {"type": "boolean"}, "score_after": {"type": "array", "items": {"type": "integer"}}}}},
    "match": {"type": "object", "description": "record replay: the match", "properties": {
        "length": {"type": "integer"}, "players": {"type": "array", "items": {"type": "string"}},
        "score": {"type": "array", "items": {"type": "integer"}}}},
    "moves": {"type": "array", "description": "record replay: the record's moves as Arbiter moves",
              "items": {"type": "object", "required": ["seat", "move"], "properties": {
                  "seat": SEAT, "move": {"type": "object"}}}},
}
PROBLEM = {
    "type": "object",
    "description": "RFC 9457 problem details; rule errors carry a stable `code`.",
    "required": ["type", "title", "status", "detail"],
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "code": {"type": "string", "description": "stable; GET /v1/codes lists every code"},
        "errors": {"type": "object", "description": "schema errors by field"},
        "index": {"type": "integer", "description": "replay: the index of the refused move"},
        "seat": {},
    },
}
DECLARED_SCORES = {
    "round": {"type": "integer", "minimum": 1, "description": "the round it scores (1-based)"},
    "points": {"type": "array", "items": {"type": "integer"}, "description": "this round's points, per seat"},
    "history": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}},
                "description": "the finished rounds before this one: one row of per-seat points each"},
}
SCORES = {
    "type": "object",
    "required": ["round", "totals", "breakdown", "final", "winners"],
    "properties": {
        "round": {"type": "array", "items": {"type": "integer"}, "description": "this round, per seat"},
        "totals": {"type": "array", "items": {"type": "integer"}, "description": "running totals, per seat"},
        "breakdown": {"type": "array", "items": {"type": "object"}, "description": "scored items, per seat"},
        "final": {"type": "boolean", "description": "the round's scores can no longer change"},
        "winners": {"type": "array", "items": {"type": "integer"}, "description": "set when the game is over"},
    },
}
OUTCOME = {
    "type": "object",
    "required": ["winners", "reason", "draw"],
    "properties": {
        "winners": {"type": "array", "items": {"type": "integer"}},
        "reason": {"type": "string"},
        "draw": {"type": "boolean"},
        "points": {"type": "array", "items": {"type": "integer"}},
    },
}
VERSION_FIELD = {"type": "integer", "minimum": 0, "description": "the session's version: send it with the next move"}
SEEDED = {"type": "boolean", "description": "the creator chose the seed, so someone may know the deal (DESIGN 4.1)"}
SESSION_CREATED = {
    "type": "object", "required": ["id", "game", "version", "seeded", "owner_token", "seats", "to_act"],
    "properties": {
        "id": {"type": "string"}, "game": {"type": "string"}, "version": VERSION_FIELD, "seeded": SEEDED,
        "owner_token": {"type": "string", "description": "manages the session; holds no seat"},
        "seats": {"type": "array", "items": _obj(["seat", "token"], seat=SEAT, token={"type": "string"})},
        "to_act": {"type": "array", "items": SEAT}}}


_TITLES = {400: "Malformed JSON", 401: "Token required", 403: "Wrong token", 404: "Not found",
           409: "Stale version", 413: "Body too large", 415: "Not JSON", 429: "Too many requests",
           422: "Invalid request, state, option or move", 503: "Session store unavailable"}


def _problems(*statuses: int, examples: Json = None, codes: Json = None) -> Json:
    """Problem responses; ``examples`` maps a status to real problems (``{code: problem}``) and
    ``codes`` lists, per status, every code the operation can answer (from ``GET /v1/codes``)."""
    out = {}
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


def _problem_of(call) -> Json:
    """The real problem object that ``call()`` raises (an example made by the engines)."""
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - any refusal is an example
        return problem_for(exc)
    raise AssertionError("the example call was expected to be refused")


def _refusals(b: GameBinding, state: Any, seat: int, move: Any) -> Json:
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


def _json(schema: Json, example: Json = None, examples: Json = None) -> Json:
    media: dict[str, Json] = {"schema": schema}
    if example is not None:
        media["example"] = example
    if examples:
        media["examples"] = examples
    return {"content": {"application/json": media}}


#: one real score sheet per game that has one (``POST /v1/games/{game}/score`` with ``tally``),
#: taken from the rules pages' examples and the scenario tests; each is scored when the spec
#: is built, and ``tests/contract`` checks that every game with a tally schema has one.
TALLIES: dict[str, Json] = {
    "11-nimmt": {"hands": [[55, 10, 3, 100], [], [11, 12]], "previous": [5, 0, 1], "bulls": [2, 0, 3]},
    "kniffel-cards": {"sheets": [
        {"boxes": {"ones": 2, "twos": 4, "full-house": 25, "kniffel": 50}, "penalties": {"ones": 4}},
        {"boxes": {"kniffel": 50}}]},
    "take-that": {"seats": [{"face_up": [12, 21], "face_down": [33]}, {"face_up": [], "face_down": [14, 15]}],
                  "previous": [0, -1]},
    "3-5-8": {"contract": "BL", "dealer": 0, "tricks": [8, 5, 3]},
    "kierki": {"contract": "no-tricks", "players": 3, "seats": [
        {"cards": ["3C", "4C", "5C", "QC", "KC", "AC", "8D", "9D", "10D", "4H", "5H", "6H", "KH", "AH", "2S", "9S",
                   "10S", "JS"], "tricks": [1, 4, 7, 10, 13, 16]},
        {"cards": ["6C", "7C", "8C", "2D", "3D", "4D", "JD", "QD", "KD", "7H", "8H", "9H", "3S", "4S", "5S", "QS",
                   "KS", "AS"], "tricks": [2, 5, 8, 11, 14, 17]},
        {"cards": ["9C", "10C", "JC", "5D", "6D", "7D", "AD", "2H", "3H", "10H", "JH", "QH", "6S", "7S", "8S"],
         "tricks": [3, 6, 9, 12, 15]}]},
    "canasta": {"ended": "stock", "sides": [
        {"melds": [{"rank": "7", "cards": ["7C", "7D", "7S", "7H", "7C", "2H", "JK"]}]}, {}]},
    "backgammon": {"winner": 0, "cube": 2, "owner": 1, "points": [[0] * 24, [0] * 11 + [14] + [0] * 12],
                   "bar": [0, 1], "off": [15, 0]},
}


def _score_examples(b: GameBinding, ex: Json) -> Json:
    """The score request's examples: the example state and, where the engine scores one, the
    game's score sheet with the scores it gets."""
    out = {"state": {"summary": "a state", "value": {"state": ex["state"]}}}
    tally = b.spec.tally_example if b.spec is not None else TALLIES.get(b.engine.game_id)
    if tally is not None and b.has_tally:
        try:
            scored = b.score({"tally": tally})
        except Exception:  # noqa: BLE001 - a sheet the engine refuses is left out (tests/contract says so)
            return out
        out["tally"] = {"summary": f"a score sheet: round {scored['round']}, totals {scored['totals']}",
                        "value": {"tally": tally}}
    return out


def _op(op_id: str, summary: str, request: Json | None, ok: tuple[Any, ...], errors: tuple[int, ...],
        tags: list[str], description: str = "", problems: Json = None, codes: Json = None, **extra: Json) -> Json:
    op: dict[str, Json] = {"operationId": op_id, "summary": summary, "tags": tags}
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


def _option_schema(opt: Option) -> Json:
    if opt.choices is not None:
        return {"enum": list(opt.choices), "description": opt.description, "default": opt.default}
    out = {"type": opt.type, "description": opt.description, "default": opt.default}
    if opt.minimum is not None:
        out["minimum"] = opt.minimum
    if opt.maximum is not None:
        out["maximum"] = opt.maximum
    return out


def _examples(b: GameBinding) -> Json:
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


# --------------------------------------------------------------------------- views
# A view is the state redacted for one seat (``engine.view``): other seats' hands become null
# (or counts), ``hand_sizes`` appears, a face-down pile may become its size, ``rng`` goes. The
# ``<Game>View`` schema is derived from the state schema, property by property, guided by the
# views of seeded random playouts: a property every sampled value of which the state schema
# accepts keeps the state's schema; one whose values changed shape (a pile that became a
# count, a hand that became null) gets the state's schema where it still fits, widened where
# it does not; one only views have is described from its values.

_VIEW_MOVES = 120


def _sample_views(b: GameBinding) -> list[tuple[Json, Json]]:
    """(view, state JSON) pairs: every seat's and a spectator's view along seeded random
    playouts, at both ends of the player range and with each option choice that is not the
    default (a view may depend on one), to the end of the game or a bounded number of moves."""
    e = b.engine
    runs: list[tuple[int, dict[str, Json], int]] = [(n, {}, _VIEW_MOVES) for n in {e.players.start, e.players.stop - 1}]
    runs += [(e.players.start, {name: choice}, _VIEW_MOVES // 4) for name, opt in e.options.items()
             for choice in (opt.choices or ((True, False) if opt.type == "boolean" else ())) if choice != opt.default]
    out: list[tuple[Json, Json]] = []
    for players, options, moves in runs:
        rnd = random.Random(1)
        state = b.new({"players": players, "seed": 1, "options": options})
        for step in range(moves + 1):
            acting = sorted(e.to_act(state))
            over = not acting or e.outcome(state) is not None
            if over or step % 4 == 0:
                full = e.to_json(state)
                out.extend((e.view(state, seat), full) for seat in (*range(players), None))
            if over or step == moves:
                break
            seat = rnd.choice(acting)
            state = e.apply(state, seat, rnd.choice(list(e.legal_moves(state, seat))))
    return out


def _json_schema(node: Json) -> Json:
    """An OpenAPI 3.0 schema as JSON Schema (``nullable`` spelled out) to check samples with."""
    if isinstance(node, list):
        return [_json_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _json_schema(v) for k, v in node.items() if k not in ("nullable", "discriminator", "example")}
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


class _Checker:
    """Does a value fit an OpenAPI schema (refs into the spec's components)?"""

    def __init__(self, spec: APISpec) -> None:
        self._components = {"schemas": _json_schema(dict(spec.components.schemas))}
        self._cache: dict[int, Any] = {}

    def fits(self, schema: Json, value: Json) -> bool:
        if id(schema) not in self._cache:  # the schemas are the spec's own dicts, alive while it is built
            self._cache[id(schema)] = jsonschema_rs.validator_for(
                {"allOf": [_json_schema(schema)], "components": self._components})
        return bool(self._cache[id(schema)].is_valid(value))


def _kind(value: Json) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}[type(value)]


def _nullable(schema: Json) -> Json:
    if "$ref" in schema:
        return {"allOf": [schema], "nullable": True}
    return {**schema, "nullable": True}


def _derive(pairs: list[tuple[Json, Json]], hint: Json | None, check: _Checker) -> Json:
    """A schema for the view values of ``pairs`` ((view value, state value) pairs): ``hint``
    (the state's schema) where every value fits it, widened where one does not."""
    present = [(v, full) for v, full in pairs if v is not None]
    nullable = len(present) < len(pairs)
    if hint is not None and present and all(check.fits(hint, v) for v, _ in present):
        schema = hint
    else:
        hint = hint or {}
        kinds = sorted({_kind(v) for v, _ in present})
        parts = [_derive_kind(kind, [(v, f) for v, f in present if _kind(v) == kind], hint, check) for kind in kinds]
        schema = parts[0] if len(parts) == 1 else {"oneOf": parts} if parts else {"type": "object"}
    return _nullable(schema) if nullable else schema


def _derive_kind(kind: str, pairs: list[tuple[Json, Json]], hint: Json, check: _Checker) -> Json:
    if kind == "array":
        items = [(item, full[i] if isinstance(full, list) and len(full) == len(v) else None)
                 for v, full in pairs for i, item in enumerate(v)]
        hinted = hint.get("items") if hint.get("type") == "array" else None
        return {"type": "array", "items": _derive(items, hinted, check) if items else (hinted or {"type": "object"})}
    if kind == "object":
        return {"type": "object"}
    if kind == "integer" and hint.get("type") == "array":
        if all(isinstance(full, list) and v == len(full) for v, full in pairs):
            return {"type": "integer", "minimum": 0, "description": "hidden in a view: the number of its items"}
        return {"type": "integer", "description": "in a view: the one item the rules show (the top card)"}
    if kind == "string" and hint.get("type") == "string" and "enum" not in hint:
        return {k: v for k, v in hint.items() if k != "pattern"}
    return {"type": kind}


def _view_schema(spec: APISpec, b: GameBinding) -> Json:
    """``<Game>View``: the state as one seat may see it (see above)."""
    state = spec.components.schemas[f"{_prefix(b)}State"]
    props = state.get("properties", {})
    views = _sample_views(b)
    check = _Checker(spec)
    keys = [k for k in props if any(k in v for v, _ in views)]
    keys += sorted({k for v, _ in views for k in v} - set(keys))
    return {
        "type": "object",
        "description": f"A {b.engine.name} state as one seat sees it: other seats' hidden cards are null or "
                       "counts, `rng` is absent (POST .../view, GET /v1/sessions/{id}).",
        "required": [k for k in keys if all(k in v for v, _ in views)],
        "properties": {k: _derive([(v[k], full.get(k)) for v, full in views if k in v], props.get(k), check)
                       for k in keys},
    }


def _session_components(spec: APISpec, b: GameBinding, p: str, new_props: Json, status: Json, events: Json) -> None:
    """The per-game session shapes; ``Session``, ``SessionCreate`` ... choose among them by ``game``."""
    gid = b.engine.game_id
    ids = [gid, *sorted(alias for alias, target in ALIASES.items() if target == gid)]
    game = {"type": "string", "enum": [gid], "description": "the game id (the discriminator)"}
    about = {"id": {"type": "string"}, "game": game, "version": VERSION_FIELD, "seeded": SEEDED}
    spec.components.schema(f"{p}SessionCreate", _obj(
        ["game", "players"], game={"type": "string", "enum": ids, "description": "the game id (or an alias)"},
        **new_props))
    spec.components.schema(f"{p}Session", {
        "type": "object", "description": f"A {b.engine.name} session as one token sees it",
        "required": ["id", "game", "version", "seeded", "seat", "state", "to_act", "round_over", "game_over",
                     "options"],
        "properties": {
            **about,
            "seat": {**SEAT, "nullable": True, "description": "the token's seat; null for the owner (a spectator)"},
            "state": _ref(f"{p}View"), **status,
            "events": {**events, "description": "after a move: what it did"}}})
    spec.components.schema(f"{p}SessionLegalMoves", {
        "type": "object", "required": ["id", "game", "version", "seeded", "seat", "moves", "complete"],
        "properties": {
            **about, "seat": {**SEAT, "nullable": True},
            "moves": {"type": "array", "items": _ref(f"{p}Move")}, "complete": {"type": "boolean"}}})
    spec.components.schema(f"{p}SessionLog", {
        "type": "object", "required": ["id", "game", "version", "seeded", "new", "moves"], "properties": {
            **about,
            "new": {"type": "object", "additionalProperties": True,
                    "description": "how the game was made (`players`, `options`; `seed` once the game is over)"},
            "moves": {"type": "array", "items": {
                "type": "object", "required": ["seat", "move"], "properties": {
                    "seat": SEAT, "move": {"allOf": [_ref(f"{p}Move")], "nullable": True},
                    "hidden": {"type": "boolean", "description": "the move is hidden from this token"}}}}}})


def _game_paths(spec: APISpec, b: GameBinding) -> dict[str, Json]:
    e = b.engine
    gid, p = e.game_id, _prefix(b)
    tags = [p]  # an identifier: generated clients name a module after it (`api.eleven_nimmt`)
    if b.spec is not None:
        kinds = _declared_components(spec, b, p)
    else:
        spec.components.schema(f"{p}State", schema=b.state)
        spec.components.schema(f"{p}View", _view_schema(spec, b))
        kinds = {}
        for kind, schema in b.moves.items():
            name = f"{p}Move{_pascal(kind)}"
            spec.components.schema(name, schema=schema)
            kinds[kind] = f"#/components/schemas/{name}"
    spec.components.schema(f"{p}Move", {
        "oneOf": [{"$ref": r} for r in kinds.values()],
        "discriminator": {"propertyName": "kind", "mapping": kinds},
        "description": f"A {e.name} move; `kind` is one of {', '.join(kinds)}.",
    })
    state, move = _ref(f"{p}State"), _ref(f"{p}Move")
    ex = _examples(b)
    options = {"type": "object", "description": "rule options; see GET /v1/games/" + gid,
               "properties": {n: _option_schema(o) for n, o in e.options.items()},
               "additionalProperties": False}
    new_props: dict[str, Json] = {
        "players": {"type": "integer", "minimum": e.players.start, "maximum": e.players.stop - 1},
        "seed": {"oneOf": [{"type": "integer", "minimum": -common.SEED_MAX, "maximum": common.SEED_MAX},
                           {"type": "string", "maxLength": 128}],
                 "description": "feeds the state's rng: same seed and moves, same game"},
        "options": options,
    }
    if b.spec is not None and b.spec.setup is not None:
        new_props["setup"] = _ref(f"{p}Setup")
    elif b.setup is not None:
        spec.components.schema(f"{p}Setup", schema=b.setup)
        new_props["setup"] = _ref(f"{p}Setup")
    spec.components.schema(f"{p}NewGame", _obj(["players"], **new_props))
    new_req = _ref(f"{p}NewGame")
    resolved = (spec.components.schemas[f"{p}State"].get("properties", {}).get("options")
                or {"type": "object", "description": "the resolved options"})
    status = {
        "to_act": {"type": "array", "items": SEAT, "description": "the seats that may move now"},
        "round_over": {"type": "boolean"},
        "game_over": {"type": "boolean"},
        "options": resolved,
        "scores": _ref(f"{p}Scores" if b.spec is not None else "Scores"),
        "outcome": _ref("Outcome"),
    }
    events = {"type": "array", "items": {"type": "object", "additionalProperties": True},
              "description": "what the move did, in order"}
    spec.components.schema(f"{p}Envelope", {
        "type": "object", "description": f"A {e.name} state after a request, and its status",
        "required": ["state", "to_act", "round_over", "game_over", "options", "events"],
        "properties": {"state": state, **status, "events": events,
                       "signature": SIGNATURE,
                       "applied": {"type": "integer", "description": "replay: the number of moves applied"},
                       **(RECORD_SUMMARY if gid in RECORD_GAMES else {})}})
    result = _ref(f"{p}Envelope")
    _session_components(spec, b, p, new_props, status, events)
    ref = ex["refusals"]
    game_codes = sorted(c for c, entry in catalogue().items() if gid in entry.games)
    opt_codes = sorted(c for c in catalogue() if c.startswith("options."))
    state_codes = [*game_codes, "request.invalid", *(c for c in catalogue() if c.startswith("state."))]

    def errs(*examples: Json, codes: list[str] = state_codes) -> Json:
        return {"problems": {422: {p["code"]: p for p in examples if p}}, "codes": {422: codes}}

    move_req = _obj(["state", "seat", "move"], state=state, signature=SIGNATURE, seat=SEAT, move=move)
    move_ex = {"state": ex["state"], "seat": ex["seat"], "move": ex["move"]}
    base = f"/v1/games/{gid}"
    oid = p[0].lower() + p[1:]
    paths = {
        f"{base}/new": {"post": _op(
            f"{oid}New", f"New {e.name} game", _json(new_req, {"players": ex["players"], "seed": 1}),
            (201, "the new game", result, ex["new"]), (400, 413, 415, 422), tags,
            **errs(ref["new"], codes=[*opt_codes, "request.invalid", *(c for c in game_codes if "setup" in c)]))},
        f"{base}/legal-moves": {"post": _op(
            f"{oid}LegalMoves", f"Legal {e.name} moves",
            _json(_obj(["state"], state=state, signature=SIGNATURE, seat={**SEAT, "nullable": True}),
                  {"state": ex["state"], "seat": ex["seat"]}),
            (200, "the moves of `seat` (default: the first seat to act); each is accepted as is by apply",
             {"type": "object", "required": ["seat", "moves", "complete"], "properties": {
                 "seat": {**SEAT, "nullable": True}, "moves": {"type": "array", "items": move},
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
            _json({"type": "object", "additionalProperties": False, "properties": {
                "state": state, "signature": SIGNATURE, "new": new_req,
                "moves": {"type": "array", "maxItems": Config.MAX_REPLAY_MOVES,
                          "description": "at most MAX_REPLAY_MOVES (default shown)",
                          "items": _obj(["seat", "move"], seat=SEAT, move=move)},
                **({"record": RECORD} if gid in RECORD_GAMES else {})},
                "oneOf": [{"required": ["state", "moves"], "not": {"required": ["new"]}},
                          {"required": ["new", "moves"], "not": {"required": ["state"]}},
                          *([{"required": ["record"], "not": {"anyOf": [{"required": ["state"]}, {"required": ["new"]},
                                                                         {"required": ["moves"]}]}}]
                            if gid in RECORD_GAMES else [])],
                "description": "exactly one of `state` or `new`, with `moves`"
                               + (", or a match `record` alone" if gid in RECORD_GAMES else "")},
                {"new": {"players": ex["players"], "seed": 1}, "moves": [{"seat": ex["seat"], "move": ex["move"]}]}),
            (200, "the final state and scores", result), (400, 413, 415, 422), tags,
            "The first illegal move answers 422; the problem's `index` names it.", **errs(ref["move"]))},
        f"{base}/score": {"post": _op(
            f"{oid}Score", f"Score a {e.name} state or score sheet",
            _json({"type": "object", "additionalProperties": False, "properties": {
                "state": state, "signature": SIGNATURE,
                "tally": _ref(f"{p}Tally") if b.has_tally else {"type": "object"}},
                "oneOf": [{"required": ["state"], "not": {"required": ["tally"]}},
                          {"required": ["tally"], "not": {"required": ["state"]}}],
                "description": "exactly one of `state` or `tally`"}, examples=_score_examples(b, ex)),
            (200, "round and running scores with breakdown", _ref(f"{p}Scores" if b.spec is not None else "Scores"),
             ex["scores"]), (400, 413, 415, 422), tags,
            **errs(ref["tally"]))},
        f"{base}/view": {"post": _op(
            f"{oid}View", f"A {e.name} state as one seat may see it",
            _json(_obj(["state", "seat"], state=state, signature=SIGNATURE, seat={**SEAT, "nullable": True}),
                  {"state": ex["state"], "seat": ex["seat"]}),
            (200, "the redacted state (`seat: null` for spectators)", {
                "type": "object", "required": ["seat", "state"],
                "properties": {"seat": {**SEAT, "nullable": True}, "state": _ref(f"{p}View")}}, ex["view"]),
            (400, 413, 415, 422), tags, **errs(ref["seat"]))},
    }
    if gid in RECORD_GAMES:
        paths[f"{base}/record"] = {"post": _op(
            f"{oid}Record", f"Write a {e.name} game as a match record (.mat)",
            _json({"type": "object", "additionalProperties": False, "required": ["moves"], "properties": {
                "state": state, "new": new_req,
                "moves": {"type": "array", "maxItems": Config.MAX_REPLAY_MOVES,
                          "items": _obj(["seat", "move"], seat=SEAT, move=move)},
                "players": {"type": "array", "minItems": 2, "maxItems": 2,
                            "items": {"type": "string", "maxLength": 40}}},
                "description": "exactly one of `state` or `new`, with `moves`"},
                {"new": {"players": ex["players"], "seed": 1}, "moves": [{"seat": ex["seat"], "move": ex["move"]}]}),
            (200, "the Jellyfish .mat text, which GNU BG imports and `replay` reads back", None),
            (400, 413, 415, 422), tags, **errs(ref["move"]))}
        paths[f"{base}/record"]["post"]["responses"]["200"]["content"] = {"text/plain": {"schema": {"type": "string"}}}
    if b.spec is None and b.tally is not None:
        spec.components.schema(f"{p}Tally", schema=b.tally)
    return paths


def _typed_enums(node: Json) -> Json:
    """An ``enum`` of mixed types (an option that is ``"unlimited"`` or ``1``) becomes a ``oneOf``
    of one typed enum per type (code generators want one type per enum), and so does a nullable
    one (``None | Contract`` in a generated client, where a bare nullable enum refuses null)."""
    if isinstance(node, list):
        return [_typed_enums(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _typed_enums(v) for k, v in node.items()}
    values = out.get("enum")
    if not isinstance(values, list):
        return out
    nullable = out.get("nullable", False) or None in values
    values = [v for v in values if v is not None]
    kinds = sorted({_kind(v) for v in values})
    if len(kinds) == 1 and not nullable:
        return {"type": kinds[0], **out}
    rest = {k: v for k, v in out.items() if k not in ("enum", "type", "nullable")}
    return {**rest, "oneOf": [{"type": kind, "enum": [v for v in values if _kind(v) == kind]} for kind in kinds],
            **({"nullable": True} if nullable else {})}


def build_spec() -> Json:
    """The contract as a dict (built once per process: the view schemas play sample games)."""
    return copy.deepcopy(_build_spec())


@cache
def _build_spec() -> Json:
    spec = APISpec(
        title="Arbiter",
        version=VERSION,
        openapi_version="3.0.3",
        plugins=[MarshmallowPlugin(schema_name_resolver=_schema_name)],
        info={"description": "A REST referee for tabletop games: whether a move is legal, the resulting "
                             "state, and scores with their breakdown. Errors are RFC 9457 problem+json "
                             "with a stable `code`."},
    )
    spec.components.schema("Problem", PROBLEM)
    spec.components.schema("Scores", SCORES)
    spec.components.schema("Outcome", OUTCOME)
    spec.components.schema("SessionCreated", SESSION_CREATED)
    for b in BINDINGS.values():
        for path, item in _game_paths(spec, b).items():
            spec.path(path, operations=item)
    for path, item in _common_paths().items():
        spec.path(path, operations=item)
    out = _typed_enums(spec.to_dict())
    out["components"]["securitySchemes"] = {
        "bearer": {"type": "http", "scheme": "bearer", "description": "a session's seat or owner token"}}
    out["tags"] = [{"name": _prefix(b), "description": f"{b.engine.name} (`{gid}`)"} for gid, b in BINDINGS.items()] + [
        {"name": "catalogue"}, {"name": "sessions"}, {"name": "operations"}]
    return out


def _by_game(name: str, description: str, aliases: bool = False) -> Json:
    """``oneOf`` the games' ``<Game><name>`` schemas, told apart by ``game``."""
    mapping = {gid: f"#/components/schemas/{_prefix(b)}{name}" for gid, b in BINDINGS.items()}
    if aliases:
        mapping.update({alias: mapping[gid] for alias, gid in ALIASES.items()})
    out: Json = {"oneOf": [{"$ref": r} for r in dict.fromkeys(mapping.values())],
                 "discriminator": {"propertyName": "game", "mapping": mapping}}
    return {**out, "description": description} if description else out


def _session_examples() -> tuple[Json, Json, Json, Json]:
    """A real session of the first game: the create request, its answer, the first seat's
    view of it and that seat's first legal move (tokens as made by ``secrets``)."""
    b = next(iter(BINDINGS.values()))
    e = b.engine
    players = e.players.start
    state = b.new({"players": players, "seed": 1})
    seat = min(e.to_act(state))
    create = {"game": e.game_id, "players": players}
    created = {"id": "Jq8bX2nS0y5wq1c3rZ4p7A", "game": e.game_id, "version": 0, "seeded": False,
               "owner_token": "o1f0cB6cWJ4pX0bQm3n6tq0yV9fE1yQGm8pYxRk3bOA",
               "seats": [{"seat": i, "token": f"s{i}Nf0zq8Lw3mV7yP2c9KdE4hT6bR1uXa5gJ0iO3kF_8"} for i in range(players)],
               "to_act": sorted(e.to_act(state))}
    shown = {"id": created["id"], "game": e.game_id, "version": 0, "seeded": False, "seat": seat, **b.status(state),
             "state": e.view(state, seat)}
    return create, created, shown, e.move_to_json(e.legal_moves(state, seat)[0])


def _common_paths() -> dict[str, Json]:
    ex_create, ex_created, ex_session, ex_move = _session_examples()
    label = {"type": "object", "additionalProperties": False, "required": ["en", "pl"], "description": "a text in "
             "English and Polish", "properties": {"en": {"type": "string"}, "pl": {"type": "string"}}}
    game_entry = {
        "type": "object", "required": ["id", "name", "players", "options", "move_kinds"],
        "properties": {
            "id": {"type": "string"}, "name": {"type": "string"},
            "label": {**label, "description": "the game's name in English and Polish"},
            "players": {"type": "object", "properties": {"min": {"type": "integer"}, "max": {"type": "integer"}}},
            "options": {"type": "object", "additionalProperties": {"type": "object"}},
            "move_kinds": {"type": "array", "items": {"oneOf": [
                {"type": "string"},
                {"type": "object", "required": ["kind", "label"], "properties": {
                    "kind": {"type": "string"}, "label": label}}]},
                "description": "the move kinds, each with its label (a game not yet declared: the kind alone)"},
            "phases": {"type": "array", "items": {"type": "object", "required": ["phase", "label"], "properties": {
                "phase": {"type": "string"}, "label": label}}},
            "terms": {"type": "object", "additionalProperties": label,
                      "description": "the game's words a person may be shown, in English and Polish"},
            "aliases": {"type": "array", "items": {"type": "string"}, "description": "other ids that name it"},
            "legal_moves_complete": {"type": "boolean"}, "tally": {"type": "boolean"},
            "setup": {"type": "boolean"}, "records": {"type": "array", "items": {"type": "string"}}},
    }
    sid = {"name": "session_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 64}}
    auth: Json = [{"bearer": []}]
    session = _by_game("Session", "")
    any_move = {"anyOf": [_ref(f"{_prefix(b)}Move") for b in BINDINGS.values()],
                "description": "a move of the session's game (that game's Move schema)"}
    first = next(iter(BINDINGS))
    paths = {
        "/v1/games": {"get": _op("listGames", "The games, their options and move kinds", None,
                                 (200, "the catalogue", {"type": "object", "required": ["games"], "properties": {
                                     "games": {"type": "array", "items": game_entry}}}), (), ["catalogue"])},
        "/v1/games/{game}": {"get": _op(
            "describeGame", "One game's entry", None, (200, "the game", game_entry), (404,), ["catalogue"],
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
                       (401, 403, 404, 422, 503), ["sessions"], parameters=[sid], security=auth),
            "delete": _op("deleteSession", "End a session (owner token)", None, (204, "deleted", None),
                          (401, 403, 404, 503), ["sessions"], parameters=[sid], security=auth)},
        "/v1/sessions/{session_id}/moves": {"post": _op(
            "sessionMove", "Make a move as the token's seat",
            _json(_obj(["move", "version"], move=any_move, version={
                "type": "integer", "minimum": 0, "maximum": 2**31, "description": "the version the move answers"}),
                {"move": ex_move, "version": 0}),
            (200, "as apply, with the acting seat's view", session),
            (400, 401, 403, 404, 409, 413, 415, 422, 503), ["sessions"], parameters=[sid], security=auth)},
        "/v1/sessions/{session_id}/legal-moves": {"get": _op(
            "sessionLegalMoves", "The token's seat's legal moves now", None,
            (200, "the moves", _by_game("SessionLegalMoves", "the seat's legal moves")),
            (401, 403, 404, 422, 503), ["sessions"], parameters=[sid], security=auth)},
        "/v1/sessions/{session_id}/log": {"get": _op(
            "sessionLog", "The move history, replayable with /replay", None,
            (200, "the log; a seat's log hides what its view hides (`?format=mat`: a backgammon match record "
                  "as text/plain)", _by_game("SessionLog", "the move history")),
            (401, 403, 404, 422, 503), ["sessions"], security=auth,
            parameters=[sid, {"name": "format", "in": "query", "required": False,
                              "schema": {"type": "string", "enum": ["json", "mat"], "default": "json"}}])},
        "/v1/sessions/{session_id}/events": {"get": _op(
            "sessionEvents", "Live events: a snapshot, then each move as the token may see it (SSE)", None,
            (200, "`text/event-stream`: `event: snapshot` (as GET the session), then `event: move` with "
                  "`{version, seat, move, to_act, round_over, game_over, scores?, state}`; a comment line every "
                  "EVENTS_HEARTBEAT seconds", None),
            (401, 403, 404, 503), ["sessions"], "DESIGN 4.2. `Last-Event-ID` resumes after a version.",
            parameters=[sid, {"name": "access_token", "in": "query", "required": False,
                              "schema": {"type": "string", "maxLength": 100},
                              "description": "the token, for a browser's EventSource (RFC 6750 2.3)"},
                        {"name": "Last-Event-ID", "in": "header", "required": False,
                         "schema": {"type": "string", "maxLength": 20}}], security=auth)},
        "/v1/codes": {"get": _op(
            "listCodes", "Every error code, with its status, title and games", None,
            (200, "the catalogue (titles in the language of Accept-Language: en or pl)", {
                "type": "object", "required": ["codes"], "properties": {"codes": {"type": "array", "items": {
                    "type": "object", "required": ["code", "status", "title", "games"], "properties": {
                        "code": {"type": "string"}, "status": {"type": "integer"}, "title": {"type": "string"},
                        "games": {"type": "array", "items": {"type": "string"}}}}}}}), (), ["catalogue"])},
        "/metrics": {"get": _op("metrics", "Prometheus metrics of this worker process", None,
                                (200, "text format 0.0.4", None), (), ["operations"])},
        "/healthz": {"get": _op("healthz", "Liveness", None, (200, "alive", {"type": "object"}), (),
                                ["operations"])},
        "/readyz": {"get": _op("readyz", "Readiness, including the session store", None,
                               (200, "ready", {"type": "object"}), (503,), ["operations"])},
    }
    # createSession -> every session operation (OpenAPI links: generated clients and the stateful
    # contract tests follow them), with the owner's token and with seat 0's
    paths["/v1/sessions"]["post"]["responses"]["201"]["links"] = {
        name: {"operationId": target, "parameters": {
            "path.session_id": "$response.body#/id",
            "header.Authorization": "Bearer {$response.body#/" + token + "}"}}
        for name, target, token in (
            ("getSession", "getSession", "owner_token"), ("getSessionAsSeat", "getSession", "seats/0/token"),
            ("sessionLegalMoves", "sessionLegalMoves", "seats/0/token"), ("sessionMove", "sessionMove", "seats/0/token"),
            ("sessionLog", "sessionLog", "owner_token"), ("deleteSession", "deleteSession", "owner_token"))}
    return paths


if __name__ == "__main__":  # pragma: no cover
    import yaml

    yaml.safe_dump(build_spec(), sys.stdout, sort_keys=False, allow_unicode=True)
