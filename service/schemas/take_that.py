"""Shapes of Take That states, moves and score tallies (meaning is checked by the engine)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from rules.take_that import ENGINE
from service.schemas.common import RngSchema, int_field, kind_field, list_field, options_schema

GAME_ID = "take-that"

_DECK = 79
_MAX_PLAYERS = 4
_MAX_HAND = 9
_MAX_ROUNDS = 20
_MAX_ROUND_SCORE = 200


def _card(**kwargs) -> fields.Integer:
    """A Take That card: an integer 12..98 that is not a multiple of 10."""
    return int_field(12, 98, **kwargs)


def _cards(max_length: int = _DECK, **kwargs) -> fields.List:
    return list_field(_card(), max_length, **kwargs)


def _per_seat(inner: fields.Field, **kwargs) -> fields.List:
    return list_field(inner, _MAX_PLAYERS, min_length=2, **kwargs)


class StateSchema(Schema):
    players = int_field(2, _MAX_PLAYERS, required=True)
    options = fields.Nested(options_schema(ENGINE.options, "TakeThatOptions"), required=True)
    round = int_field(1, _MAX_ROUNDS, required=True)
    dealer = int_field(0, _MAX_PLAYERS - 1, required=True)
    turn = int_field(0, _MAX_PLAYERS - 1, required=True, allow_none=True,
                     metadata={"description": "the seat to act; null once the round is over"})
    phase = fields.String(required=True, validate=validate.OneOf(["play", "round-over"]))
    stock = _cards(required=True, metadata={"description": "face-down draw pile, top card last"})
    row = _cards(required=True, metadata={"description": "the row, left to right"})
    hands = _per_seat(_cards(_MAX_HAND), required=True)
    face_up = _per_seat(_cards(), required=True, metadata={"description": "twisted pairs, +1 a card"})
    face_down = _per_seat(_cards(), required=True, metadata={"description": "taken cards, -1 (toad -5) a card"})
    history = list_field(_per_seat(int_field(-_MAX_ROUND_SCORE, _MAX_ROUND_SCORE)), _MAX_ROUNDS, required=True,
                         metadata={"description": "scores of the finished rounds, one list per round"})
    rng = fields.Nested(RngSchema, required=True)


class LaySchema(Schema):
    kind = kind_field("lay")
    card = _card(required=True)


class TwistSchema(Schema):
    kind = kind_field("twist")
    card = _card(required=True, metadata={"description": "the row card twisted out; its twin leaves the hand"})


class TakeSchema(Schema):
    kind = kind_field("take")
    card = _card(metadata={"description": "hand card opening the new row; absent once the pile is used up"})


class NextRoundSchema(Schema):
    kind = kind_field("next-round")


MOVES = {"lay": LaySchema, "twist": TwistSchema, "take": TakeSchema, "next-round": NextRoundSchema}


class TallySeatSchema(Schema):
    face_up = _cards(required=True)
    face_down = _cards(required=True)


class TallySchema(Schema):
    seats = _per_seat(fields.Nested(TallySeatSchema), required=True)
    previous = _per_seat(int_field(-_MAX_ROUNDS * _MAX_ROUND_SCORE, _MAX_ROUNDS * _MAX_ROUND_SCORE))
    tie_break = fields.String(validate=validate.OneOf(ENGINE.options["tie_break"].choices))


TALLY = TallySchema
