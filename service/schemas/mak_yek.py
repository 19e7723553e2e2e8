"""Shapes of the Mak-yek state and move (``rules/mak_yek.py``); meaning is checked by the engine."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from rules.boards import COLORS
from rules.mak_yek import ENGINE, REASONS
from service.schemas.common import int_field, kind_field, list_field, options_schema

GAME_ID = "mak-yek"

SQUARE = r"^[a-h][1-8]$"


class ResultSchema(Schema):
    winner = int_field(0, 1, required=True, allow_none=True, metadata={"description": "the winning seat; null: a draw"})
    reason = fields.String(required=True, validate=validate.OneOf(list(REASONS)), metadata={"enum": list(REASONS)})


class StateSchema(Schema):
    board = list_field(fields.String(validate=validate.Regexp(r"^[WB.]{8}$")), 8, 8, required=True,
                       metadata={"description": "8 ranks of W (seat 0's men), B (seat 1's) and '.', rank 8 first, "
                                                "file a first"})
    colors = list_field(fields.String(validate=validate.OneOf(list(COLORS))), 2, 2, required=True,
                        metadata={"description": "colour labels of seats 0 and 1: always [\"white\", \"black\"]"})
    turn = int_field(0, 1, required=True, allow_none=True,
                     metadata={"description": "the seat to move; null once the game is over"})
    plies_since_capture = int_field(0, 1000, required=True)
    positions = list_field(fields.String(validate=validate.Regexp(r"^[0-9a-f]{32}$")), 1000, required=True,
                           metadata={"description": "positions before each ply since the last capture (for repetition)"})
    draw_offer = int_field(0, 1, required=True, allow_none=True,
                           metadata={"description": "seat with an open draw offer, or null"})
    draw_agreed = fields.Boolean(required=True)
    result = fields.Nested(ResultSchema, required=True, allow_none=True,
                           metadata={"description": "how the game ended; null while it runs"})
    options = fields.Nested(options_schema(ENGINE.options, "MakYekOptions"), required=True)


class MoveSchema(Schema):
    kind = kind_field("move")
    from_ = fields.String(required=True, data_key="from", validate=validate.Regexp(SQUARE))
    to = fields.String(required=True, validate=validate.Regexp(SQUARE))
    custodian = fields.String(validate=validate.Regexp(SQUARE),
                              metadata={"description": "the custodian capture made, under max_custodian_per_move=1"})


class OfferDrawSchema(Schema):
    kind = kind_field("offer-draw")


class AcceptDrawSchema(Schema):
    kind = kind_field("accept-draw")


MOVES = {"move": MoveSchema, "offer-draw": OfferDrawSchema, "accept-draw": AcceptDrawSchema}
TALLY = None
