"""Shapes of the Mak-yek state and move (``rules/mak_yek.py``); meaning is checked by the engine."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.schemas.common import int_field, kind_field, list_field

GAME_ID = "mak-yek"

SQUARE = r"^[a-h][1-8]$"


class OptionsSchema(Schema):
    first_player = fields.String(required=True, validate=validate.OneOf(["white", "black"]))
    max_custodian_per_move = fields.Raw(required=True, validate=validate.OneOf(["unlimited", 1]),
                                     metadata={"enum": ["unlimited", 1]})
    line_custodian = fields.Boolean(required=True)
    no_legal_move = fields.String(required=True, validate=validate.OneOf(["loses", "draw"]))
    repetition = fields.String(required=True, validate=validate.OneOf(["threefold", "off"]))
    no_capture_limit_plies = int_field(1, 1000, required=True)
    draw_by_agreement = fields.Boolean(required=True)


class StateSchema(Schema):
    board = list_field(fields.String(validate=validate.Regexp(r"^[WB.]{8}$")), 8, 8, required=True,
                       metadata={"description": "8 ranks of W, B and '.', rank 8 first, file a first"})
    to_move = int_field(0, 1, required=True)
    plies_since_capture = int_field(0, 1000, required=True)
    history = list_field(fields.String(validate=validate.Regexp(r"^[0-9a-f]{32}$")), 1000, required=True,
                         metadata={"description": "positions before each ply since the last capture"})
    draw_offer = int_field(0, 1, required=True, allow_none=True,
                           metadata={"description": "seat with an open draw offer, or null"})
    draw_agreed = fields.Boolean(required=True)
    options = fields.Nested(OptionsSchema, required=True)


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
