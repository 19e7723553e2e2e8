"""Shapes of Kierki states, moves and score-sheet tallies (meaning: ``rules.kierki``)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.schemas.common import RngSchema, card_field, int_field, kind_field, list_field, seat_field

GAME_ID = "kierki"

_MAX_SEAT = 3
_MAX_HAND = 17  # three players hold 17 cards
_MAX_STOCK = 51 - 3 * 5  # three players: 15 dealt before trumps are named
_MAX_TRICKS = 17
_MAX_DEALS = 15  # 7 negative + 4 trump deals + 4 loteryjkas
_MAX_POINTS = 10_000
_DEALS = (
    "no-tricks", "no-hearts", "no-queens", "no-kings-jacks", "no-king-of-hearts", "no-seventh-and-last",
    "no-last", "robber", "trumps", "loteryjka",
)
_SUITS = ("C", "D", "H", "S")


def _seat(**kwargs) -> fields.Integer:
    return int_field(0, _MAX_SEAT, **kwargs)


def _choice(*values, **kwargs) -> fields.Field:
    if all(isinstance(v, bool) for v in values):
        return fields.Boolean(**kwargs)
    if all(isinstance(v, int) for v in values):
        return fields.Integer(strict=True, validate=validate.OneOf(values), **kwargs)
    return fields.String(validate=validate.OneOf(values), **kwargs)


_OPTION_VALUES: dict[str, tuple] = {
    "ruleset": ("standard", "book6"),
    "trump_chooser": ("dealer-after-5", "left-of-dealer"),
    "no_trump_allowed": (True, False),
    "lottery_start_rank": (8, 7),
    "lottery": ("one", "one-per-player"),
    "king_of_hearts_must_drop": (True, False),
    "early_end": (True, False),
    "score_sign": ("penalties-negative", "penalties-positive"),
    "three_player_trump_trick": (25, 20),
    "book6_sixth_deal": ("last", "last-two", "3rd-and-7th", "3rd-and-8th"),
    "book6_robber": (True, False),
    "deal_order": ("fixed",),
    "book6_positive": ("loteryjka", "trumps", "none"),
}

# A state carries every resolved option; a tally may give any of them.
OptionsSchema = Schema.from_dict(
    {name: _choice(*values, required=True) for name, values in _OPTION_VALUES.items()}, name="KierkiOptions"
)
TallyOptionsSchema = Schema.from_dict(
    {name: _choice(*values) for name, values in _OPTION_VALUES.items()}, name="KierkiTallyOptions"
)


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
    deal_no = int_field(0, _MAX_DEALS - 1, required=True)
    deal = fields.String(required=True, validate=validate.OneOf(_DEALS))
    dealer = _seat(required=True)
    phase = fields.String(required=True, validate=validate.OneOf(("name-trump", "play", "lottery", "deal-over")))
    hands = list_field(list_field(card_field(), _MAX_HAND), 4, 3, required=True)
    stock = list_field(card_field(), _MAX_STOCK, required=True)
    trump = fields.String(required=True, allow_none=True, validate=validate.OneOf((*_SUITS, "NT")))
    leader = _seat(required=True)
    turn = _seat(required=True)
    trick = list_field(card_field(), 3, required=True)
    tricks = list_field(fields.Nested(TrickSchema), _MAX_TRICKS, required=True)
    rows = list_field(fields.Nested(RowSchema), 4, required=True)
    finished = list_field(_seat(), 2, required=True)
    results = list_field(list_field(int_field(-_MAX_POINTS, _MAX_POINTS), 4, 3), _MAX_DEALS, required=True)
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
    """One deal of a score sheet: the cards and trick numbers each seat took (trick deals),
    or the two seats that went out first (loteryjka)."""

    deal = fields.String(required=True, validate=validate.OneOf(_DEALS))
    players = int_field(3, 4, required=True)
    options = fields.Nested(TallyOptionsSchema)
    seats = list_field(fields.Nested(TallySeatSchema), 4, 3)
    finish_order = list_field(seat_field(), 2, 2)


TALLY = TallySchema
