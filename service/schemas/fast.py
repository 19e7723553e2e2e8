"""The hot path's envelope check: a marshmallow schema, compiled.

``apply`` reads its envelope (``common.MoveRequest``: state, signature, seat, move) on every
request, and marshmallow's field-by-field load costs more than the rest of the request. The
schema is therefore converted once to JSON Schema (by apispec, the conversion that writes
``openapi.yaml``) and checked by ``jsonschema-rs``, a compiled validator, in draft 4, the
dialect of OpenAPI 3.0, where ``2.0`` is not an integer. The marshmallow class stays the one
definition; this module only changes how fast it is checked. (A game's state and move inside the
envelope are read by their declared shapes, ``rules.shapes``.)
"""

from __future__ import annotations

from collections.abc import Callable

import jsonschema_rs
import orjson
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import Schema, ValidationError

from rules.jsontypes import Json
from rules.shapes import JsonObject, excerpt


def _name(schema: Schema | type[Schema]) -> str:
    cls = schema if isinstance(schema, type) else type(schema)
    return f"{cls.__module__}.{cls.__qualname__}".replace(".", "_")


_NULLABLE_OBJECT: JsonObject = {"type": "object", "nullable": True}


def _json_schema_types(node: Json) -> Json:
    """OpenAPI 3.0 ``nullable`` -> JSON Schema ``type: [t, "null"]``; recursively."""
    if isinstance(node, dict):
        any_of = node.get("anyOf")
        if isinstance(any_of, list) and _NULLABLE_OBJECT in any_of:
            # apispec writes a nullable Nested as anyOf[{object, nullable}, $ref]: null or the ref
            node = {**node, "anyOf": [{"type": "null"} if x == _NULLABLE_OBJECT else x for x in any_of]}
        out: JsonObject = {k: _json_schema_types(v) for k, v in node.items() if k != "nullable"}
        if node.get("nullable"):
            if "type" not in out:  # oneOf/allOf/$ref: null, or one of them
                return {"anyOf": [out, {"type": "null"}]}
            kind = out["type"]
            out["type"] = [*kind, "null"] if isinstance(kind, list) else [kind, "null"]
            enum = out.get("enum")
            if isinstance(enum, list) and None not in enum:
                out["enum"] = [*enum, None]
        return out
    if isinstance(node, list):
        return [_json_schema_types(v) for v in node]
    return node


def _object(value: Json) -> JsonObject:
    if not isinstance(value, dict):
        raise TypeError(f"a JSON Schema object was expected, got {excerpt(value)}")
    return value


def json_schema(schema: Schema) -> JsonObject:
    """The JSON Schema document of a marshmallow schema (components inlined as refs)."""
    spec = APISpec("x", "1", "3.0.3", plugins=[MarshmallowPlugin(schema_name_resolver=_name)])
    spec.components.schema("Root", schema=schema)
    components: JsonObject = spec.to_dict()["components"]["schemas"]
    return _object(_json_schema_types({
        # OpenAPI 3.0's schema dialect is draft 4's: there 2.0 is a number, not an integer
        "$schema": "http://json-schema.org/draft-04/schema#",
        "$ref": "#/components/schemas/Root",
        "components": {"schemas": components},
    }))


def compile_validator(schema: Schema, where: str, nested: bool = True) -> Callable[[Json], Json]:
    """A function that returns its argument or raises marshmallow's ValidationError
    (errors under ``where``, or at the top level when ``nested`` is false).

    Only the first error is looked for (``validate`` stops there; ``iter_errors`` would find
    every error of a hostile 240 KB state first, which took seconds), and its message quotes
    at most a short excerpt of the offending value. The validator's own failures (recursion,
    overflow) are answered as invalid input too."""
    document = json_schema(schema)
    validator = jsonschema_rs.Draft4Validator(document)
    root = _object(_object(_object(document["components"])["schemas"])["Root"])
    listed = root.get("required", [])
    required = tuple(key for key in listed if isinstance(key, str)) if isinstance(listed, list) else ()
    props = root.get("properties", {})
    known = frozenset(props) if isinstance(props, dict) and root.get("additionalProperties") is False else None

    def validate(data: Json, where: str = where) -> Json:
        try:
            if validator.is_valid(data):
                return data
            if isinstance(data, dict):
                # the root's own errors first, by hand: jsonschema-rs would copy the whole
                # (perhaps 240 KB) object into its error, which costs milliseconds
                _check_keys(data, required, known)
            validator.validate(data)
        except _KeyProblem as problem:
            path, message = "_schema", str(problem)
        except jsonschema_rs.ValidationError as error:
            path = ".".join(str(p) for p in error.instance_path) or "_schema"
            message = _message(error)
        except (ValueError, OverflowError, RecursionError):
            path, message = "_schema", "the value is too deep or too large to check"
        else:  # is_valid and validate disagree: never seen, but refuse rather than pass
            path, message = "_schema", "the value does not match the schema"
        raise ValidationError({where: {path: [message]}} if nested else {path: [message]})

    return validate


class _KeyProblem(Exception):
    pass


def _check_keys(data: JsonObject, required: tuple[str, ...], known: frozenset[str] | None) -> None:
    missing = next((key for key in required if key not in data), None)
    if missing is not None:
        raise _KeyProblem(f"{missing!r} is a required property")
    if known is not None:
        extra = next((key for key in data if key not in known), None)
        if extra is not None:
            raise _KeyProblem(f"additional properties are not allowed ({excerpt(extra)} was unexpected)")


def _message(error: jsonschema_rs.ValidationError) -> str:
    """The error's message with the offending value cut to a short excerpt (DESIGN 4.4)."""
    message = error.message
    if len(message) > 120:
        try:
            quoted = orjson.dumps(error.instance).decode()
        except TypeError:
            quoted = ""
        if len(quoted) > 60 and quoted in message:  # cut the JSON text: repr of a big value is slow
            message = message.replace(quoted, quoted[:59] + "…")
    return message if len(message) <= 200 else message[:199] + "…"
