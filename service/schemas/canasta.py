"""Shapes of Kanasta (``canasta``) states, moves and tallies: exactly what ``rules.canasta`` writes."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from rules.canasta import ENGINE
from service.schemas.common import RngSchema, card_field, int_field, kind_field, list_field, options_schema

GAME_ID = "canasta"

_RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
_TOTAL = 10**7


def _cards(max_length: int = 108, **kwargs) -> fields.List:
    return list_field(card_field(), max_length, **kwargs)


class GroupSchema(Schema):
    rank = fields.String(required=True, validate=validate.OneOf(_RANKS))
    cards = _cards(required=True)
    new = fields.Boolean(metadata={"description": "start another meld of this rank (option one_meld_per_rank=false)"})


class TableMeldSchema(Schema):
    """A meld on the table (state): rank and cards."""

    rank = fields.String(required=True, validate=validate.OneOf(_RANKS))
    cards = _cards(required=True)


def _groups(**kwargs) -> fields.List:
    return list_field(fields.Nested(GroupSchema), 12, **kwargs)


class SideSchema(Schema):
    melds = list_field(fields.Nested(TableMeldSchema), 24, required=True)
    red_threes = _cards(4, required=True)
    total = int_field(-_TOTAL, _TOTAL, required=True)


class StateSchema(Schema):
    players = int_field(2, 4, required=True)
    options = fields.Nested(options_schema(ENGINE.options, "CanastaOptions"), required=True)
    round = int_field(1, 10**6, required=True)
    dealer = int_field(0, 3, required=True)
    turn = int_field(0, 3, required=True, allow_none=True,
                     metadata={"description": "the one seat to act; null when several or none act"})
    phase = fields.String(
        required=True, validate=validate.OneOf(["draw", "play", "answer", "double", "round-over", "game-over"])
    )
    stock = _cards(required=True)
    discard = _cards(required=True)
    discard_closed = fields.Boolean(required=True)
    hands = list_field(_cards(), 4, 2, required=True)
    sides = list_field(fields.Nested(SideSchema), 3, 2, required=True)
    history = list_field(list_field(int_field(-_TOTAL, _TOTAL), 4, 2), 10**6, required=True,
                         metadata={"description": "one row per finished round: each seat's points"})
    laid = list_field(fields.Boolean(), 4, 2, required=True)
    red_threes_pending = list_field(fields.Boolean(), 4, 2, required=True)
    drew = fields.String(required=True, allow_none=True, validate=validate.OneOf(["stock", "discard"]))
    asked = fields.String(required=True, allow_none=True, validate=validate.OneOf(["asked", "yes", "no"]))
    meld_moves = int_field(0, 200, required=True)
    concealed_melds = list_field(fields.String(validate=validate.OneOf(_RANKS)), 12, required=True, allow_none=True)
    buying = fields.Boolean(required=True)
    out_seat = int_field(0, 3, required=True, allow_none=True)
    double_out = fields.Boolean(required=True)
    concealed_out = fields.Boolean(required=True)
    ending = fields.String(required=True, allow_none=True, validate=validate.OneOf(["out", "stock"]))
    rng = fields.Nested(RngSchema, required=True)


class DrawSchema(Schema):
    kind = kind_field("draw")


class TakePileSchema(Schema):
    kind = kind_field("take-pile")
    using = _cards(30, required=True)
    melds = _groups()


class TakeTopSchema(Schema):
    kind = kind_field("take-top-to-go-out")
    using = _cards(30, required=True)
    melds = _groups()


class MeldSchema(Schema):
    kind = kind_field("meld")
    melds = _groups(required=True)


class DiscardSchema(Schema):
    kind = kind_field("discard")
    card = card_field(required=True)


class AskPartnerSchema(Schema):
    kind = kind_field("ask-partner")


class AnswerSchema(Schema):
    kind = kind_field("answer")
    yes = fields.Boolean(required=True)


class DoubleGoOutSchema(Schema):
    kind = kind_field("double-go-out")
    melds = _groups(required=True)


class DeclineDoubleSchema(Schema):
    kind = kind_field("decline-double")


class EndRoundSchema(Schema):
    kind = kind_field("end-round")


class NextRoundSchema(Schema):
    kind = kind_field("next-round")


MOVES = {
    "draw": DrawSchema,
    "take-pile": TakePileSchema,
    "take-top-to-go-out": TakeTopSchema,
    "meld": MeldSchema,
    "discard": DiscardSchema,
    "ask-partner": AskPartnerSchema,
    "answer": AnswerSchema,
    "double-go-out": DoubleGoOutSchema,
    "decline-double": DeclineDoubleSchema,
    "end-round": EndRoundSchema,
    "next-round": NextRoundSchema,
}


class TallyOptionsSchema(Schema):
    """The options that change a round's points; each defaults to the game's default."""

    black_three_meld_value = fields.Integer(
        strict=True, validate=validate.OneOf(list(ENGINE.options["black_three_meld_value"].choices)),
        metadata={"description": ENGINE.options["black_three_meld_value"].description})
    max_three_wilds = fields.Boolean(metadata={"description": ENGINE.options["max_three_wilds"].description})
    one_meld_per_rank = fields.Boolean(metadata={"description": ENGINE.options["one_meld_per_rank"].description})


class TallySideSchema(Schema):
    melds = list_field(fields.Nested(TableMeldSchema), 24)
    red_threes = int_field(0, 4)
    hands = list_field(_cards(), 2, 1)
    went_out = fields.Boolean()
    double = fields.Boolean()
    concealed = fields.Boolean()
    total = int_field(-_TOTAL, _TOTAL)


class TallySchema(Schema):
    """One hand of a score sheet: per side its melds, red threes, hands and how it ended."""

    players = int_field(2, 4)
    ended = fields.String(validate=validate.OneOf(["out", "stock"]))
    options = fields.Nested(TallyOptionsSchema)
    sides = list_field(fields.Nested(TallySideSchema), 3, 2, required=True)


TALLY = TallySchema
