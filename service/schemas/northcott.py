"""Shapes of the Northcott state and moves (``rules/northcott.py``); meaning is checked by the engine."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.schemas.common import RngSchema, int_field, kind_field, list_field

GAME_ID = "northcott"

SQUARE = r"^[a-h]([1-9]|1[0-2])$"


class OptionsSchema(Schema):
    variant = fields.String(required=True, validate=validate.OneOf(["dice", "classic"]))
    board = fields.String(required=True, validate=validate.OneOf(["8x8", "8x10", "8x12"]))
    placement = fields.String(required=True, validate=validate.OneOf(["in-order", "choose-file"]))
    first_player = fields.String(required=True, validate=validate.OneOf(["white", "higher-roll"]))
    misere = fields.Boolean(required=True)


def _ranks() -> fields.List:
    return list_field(int_field(1, 12, allow_none=True), 8, 8, required=True,
                      metadata={"description": "rank (1-based) of the pawn in files a..h, null before placement"})


class StateSchema(Schema):
    phase = fields.String(required=True, validate=validate.OneOf(["setup", "first-roll", "play"]))
    to_move = int_field(0, 1, required=True)
    white = _ranks()
    black = _ranks()
    die = int_field(1, 6, required=True, allow_none=True)
    rng = fields.Nested(RngSchema, required=True)
    options = fields.Nested(OptionsSchema, required=True)


class RollSchema(Schema):
    kind = kind_field("roll")
    dice = list_field(int_field(1, 6), 2, 1,
                      metadata={"description": "physical dice: one in the setup, [white, black] for the first player"})


class PlaceSchema(Schema):
    kind = kind_field("place")
    file = fields.String(required=True, validate=validate.OneOf(list("abcdefgh")))


class MoveSchema(Schema):
    kind = kind_field("move")
    from_ = fields.String(required=True, data_key="from", validate=validate.Regexp(SQUARE))
    to = fields.String(required=True, validate=validate.Regexp(SQUARE))


MOVES = {"roll": RollSchema, "place": PlaceSchema, "move": MoveSchema}
TALLY = None
