"""Shapes of the Northcott state and moves (``rules/northcott.py``); meaning is checked by the engine."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from rules.boards import COLORS
from rules.northcott import ENGINE, REASONS
from service.schemas.common import RngSchema, int_field, kind_field, list_field, options_schema

GAME_ID = "northcott"

SQUARE = r"^[a-h]([1-9]|1[0-2])$"


def _ranks() -> fields.List:
    return list_field(int_field(1, 12, allow_none=True), 8, 8,
                      metadata={"description": "rank (1-based, from seat 0's edge) of the seat's pawn in files a..h, "
                                               "null before placement"})


class ResultSchema(Schema):
    winner = int_field(0, 1, required=True)
    reason = fields.String(required=True, validate=validate.OneOf(list(REASONS)), metadata={"enum": list(REASONS)})


class StateSchema(Schema):
    phase = fields.String(required=True, validate=validate.OneOf(["setup", "first-roll", "play"]))
    colors = list_field(fields.String(validate=validate.OneOf(list(COLORS))), 2, 2, required=True,
                        metadata={"description": "colour labels of seats 0 and 1: always [\"white\", \"black\"]"})
    turn = int_field(0, 1, required=True, allow_none=True,
                     metadata={"description": "the seat to act; null in the first-player roll and once the game is over"})
    pawns = list_field(_ranks(), 2, 2, required=True, metadata={"description": "seat 0's pawns, then seat 1's"})
    die = int_field(1, 6, required=True, allow_none=True)
    result = fields.Nested(ResultSchema, required=True, allow_none=True,
                           metadata={"description": "how the game ended; null while it runs"})
    rng = fields.Nested(RngSchema, required=True)
    options = fields.Nested(options_schema(ENGINE.options, "NorthcottOptions"), required=True)


class RollSchema(Schema):
    kind = kind_field("roll")
    dice = list_field(int_field(1, 6), 2, 1,
                      metadata={"description": "physical dice: one in the setup, [seat 0, seat 1] for the first player"})


class PlaceSchema(Schema):
    kind = kind_field("place")
    file = fields.String(required=True, validate=validate.OneOf(list("abcdefgh")))


class MoveSchema(Schema):
    kind = kind_field("move")
    from_ = fields.String(required=True, data_key="from", validate=validate.Regexp(SQUARE))
    to = fields.String(required=True, validate=validate.Regexp(SQUARE))


MOVES = {"roll": RollSchema, "place": PlaceSchema, "move": MoveSchema}
TALLY = None
