"""Shared schema pieces and the request/response envelopes."""

from __future__ import annotations

from collections.abc import Mapping, Sized
from typing import Any

from flask import current_app
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from service.records import FORMATS, MAX_RECORD_CHARS

MAX_SEAT = 15
SEED_MAX = 2**63 - 1


def seat_field(**kwargs: Any) -> fields.Integer:
    return fields.Integer(strict=True, validate=validate.Range(0, MAX_SEAT), **kwargs)


def int_field(lo: int, hi: int, **kwargs: Any) -> fields.Integer:
    """A strict integer in ``lo..hi`` (bounded, so OpenAPI carries the range)."""
    return fields.Integer(strict=True, validate=validate.Range(lo, hi), **kwargs)


def list_field(inner: fields.Field[Any], max_length: int, min_length: int = 0, **kwargs: Any) -> fields.List[Any]:
    return fields.List(inner, validate=validate.Length(min_length, max_length), **kwargs)


class SeedField(fields.Field[int | str]):
    """A seed: an integer, or a string of at most 128 characters."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> int | str:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValidationError("a seed is an integer or a string")
        if isinstance(value, int) and not -SEED_MAX <= value <= SEED_MAX:
            raise ValidationError(f"an integer seed is within ±{SEED_MAX}")
        if isinstance(value, str) and len(value) > 128:
            raise ValidationError("a string seed has at most 128 characters")
        return value


# The envelopes' objects are fields.Dict() without ``keys=fields.String()``: JSON keys are strings
# anyway, and checking them one by one cost 110 ms on a hostile state of 13,000 keys.


class NewGameRequest(Schema):
    players = int_field(1, MAX_SEAT + 1, required=True)
    seed = SeedField(load_default=None, allow_none=False)
    options = fields.Dict(load_default=dict)
    setup = fields.Dict(load_default=None, allow_none=False)


def signature_field() -> fields.String:
    return fields.String(validate=validate.Length(1, 64), metadata={
        "description": "the `signature` the service returned with this state: a state it produced comes back "
                       "without being re-checked (service/signing.py); anything else gets the full check"})


class StateRequest(Schema):
    state = fields.Dict(required=True)
    signature = signature_field()
    seat = seat_field(load_default=None, allow_none=True)


class ViewRequest(Schema):
    state = fields.Dict(required=True)
    signature = signature_field()
    seat = seat_field(required=True, allow_none=True)


class MoveRequest(Schema):
    state = fields.Dict(required=True)
    signature = signature_field()
    seat = seat_field(required=True)
    move = fields.Dict(required=True)


class SeatMove(Schema):
    seat = seat_field(required=True)
    move = fields.Dict(required=True)


class SeatMoves(fields.List[Any]):
    """``[{"seat", "move"}, ...]``: documented as a list of ``SeatMove``, checked in one pass.

    marshmallow's per-item load cost 9 ms for 1,000 moves, more than replaying them; here each
    item's shape is checked directly, and each ``move`` is then checked by its game's compiled
    move check as it is replayed."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(fields.Nested(SeatMove), **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> list[Any]:
        if not isinstance(value, list):
            raise self.make_error("invalid")
        for index, item in enumerate(value):
            problem = _seat_move_problem(item)
            if problem:
                raise ValidationError({index: problem})
        return value


def _seat_move_problem(item: object) -> dict[str, list[str]] | None:
    if not isinstance(item, dict):
        return {"_schema": ["Invalid input type."]}
    unknown = next((key for key in item if key not in ("seat", "move")), None)
    if unknown is not None:
        return {str(unknown)[:40]: ["Unknown field."]}
    seat = item.get("seat")
    if "seat" not in item:
        return {"seat": ["Missing data for required field."]}
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= MAX_SEAT:
        return {"seat": [f"Must be an integer between 0 and {MAX_SEAT}."]}
    if not isinstance(item.get("move"), dict):
        return {"move": ["Missing data for required field." if "move" not in item else "Not a valid mapping type."]}
    return None


class RecordText(Schema):
    """A recorded match in a format other tools write (DESIGN 4.3)."""

    format = fields.String(required=True, validate=validate.OneOf(sorted({f for fs in FORMATS.values() for f in fs})),
                           metadata={"description": "the record's format: one of the game's `records` "
                                                    "(GET /v1/games/{game})"})
    text = fields.String(required=True, validate=validate.Length(1, MAX_RECORD_CHARS),
                         metadata={"description": "the file's text; the body may be up to MAX_RECORD_BYTES"})


def _max_replay_moves(moves: Sized, field: str = "moves") -> None:
    """The ``MAX_REPLAY_MOVES`` configuration value bounds every replayed list."""
    limit = current_app.config["MAX_REPLAY_MOVES"]
    if len(moves) > limit:
        raise ValidationError(f"at most {limit} moves (MAX_REPLAY_MOVES), got {len(moves)}", field)


class ReplayRequest(Schema):
    state = fields.Dict()
    signature = signature_field()
    new = fields.Nested(NewGameRequest)
    record = fields.Nested(RecordText)
    moves = SeatMoves(metadata={
        "description": "required with 'state' or 'new'; at most MAX_REPLAY_MOVES (default 5000)"})

    @validates_schema
    def _one_start(self, data: Mapping[str, Any], **kwargs: Any) -> None:
        if sum(key in data for key in ("state", "new", "record")) != 1:
            raise ValidationError("give exactly one of 'state', 'new' or 'record'", "_schema")
        if "record" in data:
            if "moves" in data:
                raise ValidationError("a record carries its own moves", "moves")
            return
        if "moves" not in data:
            raise ValidationError("Missing data for required field.", "moves")
        _max_replay_moves(data["moves"])


class RecordRequest(Schema):
    """``POST /v1/games/{game}/record``: moves to write as a match record (``.mat``)."""

    state = fields.Dict(keys=fields.String())
    new = fields.Nested(NewGameRequest)
    moves = SeatMoves(required=True)
    players = list_field(fields.String(validate=validate.Length(1, 40)), 2, 2, load_default=None)

    @validates_schema
    def _one_start(self, data: Mapping[str, Any], **kwargs: Any) -> None:
        if ("state" in data) == ("new" in data):
            raise ValidationError("give exactly one of 'state' or 'new'", "_schema")
        _max_replay_moves(data.get("moves", []))


class ScoreRequest(Schema):
    state = fields.Dict()
    signature = signature_field()
    tally = fields.Dict()

    @validates_schema
    def _one_input(self, data: Mapping[str, Any], **kwargs: Any) -> None:
        if ("state" in data) == ("tally" in data):
            raise ValidationError("give exactly one of 'state' or 'tally'", "_schema")


class SessionCreateRequest(NewGameRequest):
    game = fields.String(required=True, validate=validate.Length(1, 40))


class SessionMoveRequest(Schema):
    move = fields.Dict(required=True)
    version = fields.Integer(strict=True, validate=validate.Range(0, 2**31), load_default=None)
