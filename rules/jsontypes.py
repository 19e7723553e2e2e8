"""What JSON is, as one recursive type: the value a JSON document parses to.

A leaf module (it imports nothing of the project), so every other module can say ``Json`` for a
value read from or written to the wire without importing the core. Read a ``Json`` by narrowing
it (``isinstance(value, dict)``) before indexing: the type says it may be any JSON value.
"""

from __future__ import annotations

from typing import TypeAlias

Json: TypeAlias = dict[str, "Json"] | list["Json"] | str | int | float | bool | None
JsonObject: TypeAlias = dict[str, Json]  # a JSON object: what a body, a state or a schema is once narrowed

__all__ = ["Json", "JsonObject", "as_object", "object_at"]


def as_object(value: Json) -> JsonObject:
    """``value`` narrowed to the JSON object the caller knows it is (JSON the project itself made:
    an engine's state, a contract being built); anything else is the caller's bug."""
    if not isinstance(value, dict):
        raise TypeError(f"expected a JSON object, not {type(value).__name__}")
    return value


def object_at(value: Json, *keys: str) -> JsonObject:
    """The object at ``value[keys[0]][keys[1]]...``, each step narrowed as ``as_object`` does."""
    for key in keys:
        value = as_object(value)[key]
    return as_object(value)
