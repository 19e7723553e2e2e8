"""The contract of the games not yet declared (issue 17 moves them one by one), kept apart so
that ``service/openapi.py`` reads as the contract of declared games: their components come from
their marshmallow schema modules (converted by apispec) and their ``View`` is inferred from
sample games. When every game is declared this module goes.
"""

from __future__ import annotations

import random
from typing import Any

import jsonschema_rs
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

Json = Any


def _pascal(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in text.replace("_", "-").split("-"))


def _schema_name(schema: Any) -> str:
    cls = schema if isinstance(schema, type) else type(schema)
    module = cls.__module__.rsplit(".", 1)[-1]
    prefix = "" if module in ("common", "abc", "schema") else _pascal(module)  # abc: Schema.from_dict
    name = cls.__name__.removesuffix("Schema")
    return name if name.startswith(prefix) else f"{prefix}{name}"


def components(b: Any, p: str) -> tuple[dict[str, Json], dict[str, str]]:
    """(components, move refs by kind) of a game not yet declared, in OpenAPI 3.0 form (the
    caller converts them to 3.1)."""
    spec = APISpec("x", "1", "3.0.3", plugins=[MarshmallowPlugin(schema_name_resolver=_schema_name)])
    spec.components.schema(f"{p}State", schema=b.state)
    spec.components.schema(f"{p}View", _view_schema(spec, b))
    kinds = {}
    for kind, schema in b.moves.items():
        name = f"{p}Move{_pascal(kind)}"
        spec.components.schema(name, schema=schema)
        kinds[kind] = f"#/components/schemas/{name}"
    if b.setup is not None:
        spec.components.schema(f"{p}Setup", schema=b.setup)
    if b.tally is not None:
        spec.components.schema(f"{p}Tally", schema=b.tally)
    return _typed_enums(spec.to_dict()["components"]["schemas"]), kinds


# --------------------------------------------------------------------------- views
# A view is the state redacted for one seat (``engine.view``): other seats' hands become null
# (or counts), ``hand_sizes`` appears, a face-down pile may become its size, ``rng`` goes. The
# ``<Game>View`` schema is derived from the state schema, property by property, guided by the
# views of seeded random playouts: a property every sampled value of which the state schema
# accepts keeps the state's schema; one whose values changed shape (a pile that became a
# count, a hand that became null) gets the state's schema where it still fits, widened where
# it does not; one only views have is described from its values.

_VIEW_MOVES = 120


def _sample_views(b: Any) -> list[tuple[Json, Json]]:
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


def _view_schema(spec: APISpec, b: Any) -> Json:
    """``<Game>View``: the state as one seat may see it (see above)."""
    state = spec.components.schemas[f"{_pascal(type(b.engine).__module__.split('.')[1])}State"]
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


