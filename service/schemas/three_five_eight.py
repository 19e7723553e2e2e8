"""Shapes of the 3-5-8 state, moves and deal tally (meaning is checked by rules.three_five_eight)."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate

from service.schemas.common import RngSchema, card_field, int_field, kind_field, list_field

GAME_ID = "3-5-8"

_CONTRACTS = ["H", "S", "D", "C", "BA", "BL"]
_PHASES = ["choose", "exchange", "discard", "play", "deal-over", "game-over"]


def _contract(**kwargs) -> fields.String:
    return fields.String(validate=validate.OneOf(_CONTRACTS), metadata={"enum": _CONTRACTS}, **kwargs)


def _cards(max_length: int, **kwargs) -> fields.List:
    return list_field(card_field(), max_length, **kwargs)


def _first_dealer(value) -> None:
    if value != "random" and not (type(value) is int and 0 <= value <= 2):
        raise ValidationError(f"must be 'random' or a seat 0-2, got {value!r}")


class OptionsSchema(Schema):
    must_trump = fields.Boolean(required=True)
    exchange = fields.Boolean(required=True)
    exchange_timing = fields.String(required=True, validate=validate.OneOf(["before-musik", "after-discard"]))
    exchange_limit = fields.String(required=True, validate=validate.OneOf(["per-opponent", "own-points"]))
    discard_trumps = fields.Boolean(required=True)
    tie = fields.String(required=True, validate=validate.OneOf(["shared", "draw"]))
    first_dealer = fields.Raw(
        required=True,
        validate=_first_dealer,
        metadata={"oneOf": [{"type": "string", "enum": ["random"]}, {"type": "integer", "minimum": 0, "maximum": 2}]},
    )


class PlaySchema(Schema):
    seat = int_field(0, 2, required=True)
    card = card_field(required=True)


class ExchangeStateSchema(Schema):
    queue = list_field(int_field(0, 2), 2, min_length=1, required=True)
    steps = list_field(int_field(0, 16), 3, min_length=3, required=True)


class DealRecordSchema(Schema):
    dealer = int_field(0, 2, required=True)
    contract = _contract(required=True)
    tricks = list_field(int_field(0, 16), 3, min_length=3, required=True)
    scores = list_field(int_field(-16, 16), 3, min_length=3, required=True)


class StateSchema(Schema):
    options = fields.Nested(OptionsSchema, required=True)
    deal = int_field(1, 18, required=True)
    dealer = int_field(0, 2, required=True)
    phase = fields.String(required=True, validate=validate.OneOf(_PHASES), metadata={"enum": _PHASES})
    contract = _contract(required=True, allow_none=True)
    hands = list_field(_cards(20), 3, min_length=3, required=True)
    musik = _cards(4, required=True)
    discards = _cards(4, required=True)
    leader = int_field(0, 2, required=True)
    trick = list_field(fields.Nested(PlaySchema), 2, required=True)
    last_trick = list_field(fields.Nested(PlaySchema), 3, required=True)
    won = list_field(_cards(48), 3, min_length=3, required=True)
    exchange = fields.Nested(ExchangeStateSchema, required=True, allow_none=True)
    history = list_field(fields.Nested(DealRecordSchema), 18, required=True)
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
    """One deal of the score sheet: the contract, who dealt (or chose), the tricks per seat."""

    contract = _contract(required=True)
    dealer = int_field(0, 2)
    chooser = int_field(0, 2)
    tricks = list_field(int_field(0, 16), 3, min_length=3, required=True)


TALLY = TallySchema
