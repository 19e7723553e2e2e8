"""Shapes of Kierki states, moves and score-sheet tallies (meaning: ``rules.kierki``)."""

from __future__ import annotations

import copy

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from rules.kierki import ENGINE, Deal, Phase
from service.schemas.common import RngSchema, card_field, int_field, kind_field, list_field, options_schema, seat_field

GAME_ID = "kierki"

_MAX_SEAT = 3
_MAX_HAND = 17  # three players hold 17 cards
_MAX_STOCK = 51 - 3 * 5  # three players: 15 dealt before trumps are named
_MAX_TRICKS = 17
_MAX_DEALS = 15  # 7 negative + 4 trump deals + 4 loteryjkas
_MAX_POINTS = 10_000
_CONTRACTS = tuple(d.value for d in Deal)
_SUITS = ("C", "D", "H", "S")


def _seat(**kwargs) -> fields.Integer:
    return int_field(0, _MAX_SEAT, **kwargs)


# A state carries every resolved option (declared once, in the engine); a tally may give any of them.
OptionsSchema = options_schema(ENGINE.options, "KierkiOptions")
_tally_options = {name: copy.copy(field) for name, field in OptionsSchema._declared_fields.items()}
for _field in _tally_options.values():
    _field.required = False
TallyOptionsSchema = Schema.from_dict(_tally_options, name="KierkiTallyOptions")


class TrickSchema(Schema):
    leader = _seat(required=True)
    cards = list_field(card_field(), 4, 3, required=True)
    winner = _seat(required=True)


class RowSchema(Schema):
    suit = fields.String(required=True, validate=validate.OneOf(_SUITS))
    low = int_field(2, 14, required=True)
    high = int_field(2, 14, required=True)


class StateSchema(Schema):
    players = int_field(3, 4, required=True)
    options = fields.Nested(OptionsSchema, required=True)
    round = int_field(1, _MAX_DEALS, required=True, metadata={"description": "the deal being played, 1-based"})
    contract = fields.String(required=True, validate=validate.OneOf(_CONTRACTS),
                             metadata={"description": "the contract of this deal (fixed by the deal list)"})
    dealer = _seat(required=True)
    phase = fields.String(required=True, validate=validate.OneOf([p.value for p in Phase]))
    hands = list_field(list_field(card_field(), _MAX_HAND), 4, 3, required=True)
    stock = list_field(card_field(), _MAX_STOCK, required=True)
    trump = fields.String(required=True, allow_none=True, validate=validate.OneOf((*_SUITS, "NT")))
    leader = _seat(required=True)
    turn = _seat(required=True, allow_none=True,
                 metadata={"description": "the one seat to act; null once the deal is over"})
    trick = list_field(card_field(), 3, required=True)
    tricks = list_field(fields.Nested(TrickSchema), _MAX_TRICKS, required=True)
    rows = list_field(fields.Nested(RowSchema), 4, required=True)
    finished = list_field(_seat(), 2, required=True)
    history = list_field(list_field(int_field(-_MAX_POINTS, _MAX_POINTS), 4, 3), _MAX_DEALS, required=True,
                         metadata={"description": "points of each seat in each finished deal (in the sign of "
                                                  "score_sign)"})
    rng = fields.Nested(RngSchema, required=True)


class PlayMoveSchema(Schema):
    kind = kind_field("play")
    card = card_field(required=True)


class NameTrumpMoveSchema(Schema):
    kind = kind_field("name-trump")
    suit = fields.String(required=True, validate=validate.OneOf((*_SUITS, "NT")))


class PassMoveSchema(Schema):
    kind = kind_field("pass")


class NextRoundMoveSchema(Schema):
    kind = kind_field("next-round")


MOVES = {
    "play": PlayMoveSchema,
    "name-trump": NameTrumpMoveSchema,
    "pass": PassMoveSchema,
    "next-round": NextRoundMoveSchema,
}


class TallySeatSchema(Schema):
    cards = list_field(card_field(), 52, required=True)
    tricks = list_field(int_field(1, _MAX_TRICKS), _MAX_TRICKS, required=True)


class TallySchema(Schema):
    """One deal of a score sheet: ``contract`` and ``players`` always; ``seats`` (the cards and
    trick numbers each seat took) for every contract but the loteryjka, ``finish_order`` (the
    two seats that went out first) for the loteryjka, and nothing else."""

    contract = fields.String(required=True, validate=validate.OneOf(_CONTRACTS))
    players = int_field(3, 4, required=True)
    options = fields.Nested(TallyOptionsSchema)
    seats = list_field(fields.Nested(TallySeatSchema), 4, 3,
                       metadata={"description": "required unless contract is 'loteryjka' (then not allowed)"})
    finish_order = list_field(seat_field(), 2, 2,
                              metadata={"description": "required when contract is 'loteryjka' (else not allowed)"})

    @validates_schema
    def _one_record(self, data, **kwargs):
        if "contract" not in data:
            return  # the field's own error says it is missing
        lottery = data["contract"] == "loteryjka"
        need, other = ("finish_order", "seats") if lottery else ("seats", "finish_order")
        if need not in data:
            raise ValidationError(f"required for contract {data['contract']!r}", need)
        if other in data:
            raise ValidationError(f"not allowed for contract {data['contract']!r}", other)


TALLY = TallySchema
