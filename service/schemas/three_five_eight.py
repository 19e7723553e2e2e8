"""Shapes of the 3-5-8 state, moves and deal tally (meaning is checked by rules.three_five_eight)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from rules.three_five_eight import ENGINE, Contract, Phase
from service.schemas.common import RngSchema, card_field, int_field, kind_field, list_field, options_schema

GAME_ID = "3-5-8"

_CONTRACTS = [c.value for c in Contract]
_PHASES = [p.value for p in Phase]


def _contract(**kwargs) -> fields.String:
    return fields.String(validate=validate.OneOf(_CONTRACTS), metadata={"enum": _CONTRACTS}, **kwargs)


def _cards(max_length: int, **kwargs) -> fields.List:
    return list_field(card_field(), max_length, **kwargs)


class PlaySchema(Schema):
    seat = int_field(0, 2, required=True)
    card = card_field(required=True)


class ExchangeStateSchema(Schema):
    queue = list_field(int_field(0, 2), 2, min_length=1, required=True)
    steps = list_field(int_field(0, 16), 3, min_length=3, required=True)


class StateSchema(Schema):
    players = int_field(3, 3, required=True)
    options = fields.Nested(options_schema(ENGINE.options, "ThreeFiveEightOptions"), required=True)
    round = int_field(1, 18, required=True, metadata={"description": "the deal being played, 1..18"})
    dealer = int_field(0, 2, required=True)
    phase = fields.String(required=True, validate=validate.OneOf(_PHASES), metadata={"enum": _PHASES})
    turn = int_field(0, 2, required=True, allow_none=True,
                     metadata={"description": "the one seat to act; null when all three (next-round) or none act"})
    contract = _contract(required=True, allow_none=True)
    hands = list_field(_cards(20), 3, min_length=3, required=True)
    musik = _cards(4, required=True)
    discards = _cards(4, required=True)
    leader = int_field(0, 2, required=True)
    trick = list_field(fields.Nested(PlaySchema), 2, required=True)
    last_trick = list_field(fields.Nested(PlaySchema), 3, required=True)
    won = list_field(_cards(48), 3, min_length=3, required=True)
    exchange = fields.Nested(ExchangeStateSchema, required=True, allow_none=True)
    history = list_field(list_field(int_field(-16, 16), 3, min_length=3), 18, required=True,
                         metadata={"description": "points of each seat in each finished deal"})
    contracts = list_field(_contract(), 18, required=True,
                           metadata={"description": "the contract of each finished deal (as history)"})
    rng = fields.Nested(RngSchema, required=True)


class ChooseSchema(Schema):
    kind = kind_field("choose")
    contract = _contract(required=True)


class ExchangeSchema(Schema):
    kind = kind_field("exchange")
    to = int_field(0, 2, required=True)
    card = card_field(required=True)


class EndExchangeSchema(Schema):
    kind = kind_field("end-exchange")


class DiscardSchema(Schema):
    kind = kind_field("discard")
    card = card_field(required=True)


class PlayCardSchema(Schema):
    kind = kind_field("play")
    card = card_field(required=True)


class NextRoundSchema(Schema):
    kind = kind_field("next-round")


MOVES = {
    "choose": ChooseSchema,
    "exchange": ExchangeSchema,
    "end-exchange": EndExchangeSchema,
    "discard": DiscardSchema,
    "play": PlayCardSchema,
    "next-round": NextRoundSchema,
}


class TallySchema(Schema):
    """One deal of the score sheet: the contract, who dealt (the chooser sits on his left), the
    tricks each seat took (16 in all)."""

    contract = _contract(required=True)
    dealer = int_field(0, 2, required=True)
    tricks = list_field(int_field(0, 16), 3, min_length=3, required=True)


TALLY = TallySchema
