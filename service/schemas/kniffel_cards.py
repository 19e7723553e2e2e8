"""Shapes of Karten-Kniffel (``kniffel-cards``) states, moves and score-sheet tallies.

Exactly the JSON ``rules.kniffel_cards`` writes (docs/rules/kniffel-cards.md §10); only shape and
types, never legality (``engine.from_json`` checks the meaning: 108 cards, possible box values,
consistent turns, reachable hands, §8).
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from rules.kniffel_cards import ENGINE
from service.schemas.common import RngSchema, int_field, kind_field, list_field, options_schema

GAME_ID = "kniffel-cards"

BOXES = (
    "ones", "twos", "threes", "fours", "fives", "sixes",
    "three-of-a-kind", "four-of-a-kind", "full-house", "small-straight", "large-straight", "kniffel",
)
MAX_PLAYERS = 5
MAX_TURNS = 1_000_000
MAX_EXTRA_PENALTY = 10 * MAX_TURNS


def _bool(**kwargs) -> fields.Boolean:
    return fields.Boolean(truthy={True}, falsy={False}, **kwargs)


def _value() -> fields.Integer:
    """A card: its value 1-6."""
    return int_field(1, 6)


def _seat(**kwargs) -> fields.Integer:
    return int_field(0, MAX_PLAYERS - 1, **kwargs)


BoxesSchema = Schema.from_dict(
    {box: int_field(1, 50, required=True, allow_none=True) for box in BOXES}, name="KniffelCardsBoxes"
)
PenaltiesSchema = Schema.from_dict({box: int_field(0, 10, required=True) for box in BOXES}, name="KniffelCardsPenalties")

SheetSchema = Schema.from_dict(
    {
        "boxes": fields.Nested(BoxesSchema, required=True),
        "penalties": fields.Nested(PenaltiesSchema, required=True),
        "extra_penalties": int_field(0, MAX_EXTRA_PENALTY, required=True),
        "missed_announcement": _bool(required=True),
    },
    name="KniffelCardsSheet",
)


class StateSchema(Schema):
    players = int_field(2, MAX_PLAYERS, required=True)
    options = fields.Nested(options_schema(ENGINE.options, "KniffelCardsOptions"), required=True)
    turn = _seat(required=True, allow_none=True, metadata={"description": "the seat to act; null once the game is over"})
    phase = fields.String(required=True, validate=validate.OneOf(["action", "exchange", "trim", "over"]))
    discarded = int_field(0, 5, required=True)
    end_triggered_by = _seat(required=True, allow_none=True)
    turns = list_field(int_field(0, MAX_TURNS), MAX_PLAYERS, 2, required=True)
    hands = list_field(list_field(_value(), 10), MAX_PLAYERS, 2, required=True)
    stock = list_field(_value(), 108, required=True, metadata={"description": "the draw pile; top is the last"})
    discard = list_field(_value(), 108, required=True)
    sheets = list_field(fields.Nested(SheetSchema), MAX_PLAYERS, 2, required=True)
    rng = fields.Nested(RngSchema, required=True)


class ScoreSchema(Schema):
    """Play ``cards`` into the empty ``box``; ``announce`` the penultimate (11th) fill
    (docs/rules/kniffel-cards.md §2.3, §5)."""

    kind = kind_field("score")
    box = fields.String(required=True, validate=validate.OneOf(list(BOXES)))
    cards = list_field(_value(), 5, 1, required=True)
    announce = _bool(required=False)


class DiscardSchema(Schema):
    """Discard one card of value ``card`` (an exchange step, or down to 5 after scoring)."""

    kind = kind_field("discard")
    card = int_field(1, 6, required=True)


class DrawSchema(Schema):
    """End the exchange: draw ``count`` cards (as many as discarded, or one more)."""

    kind = kind_field("draw")
    count = int_field(0, 6, required=True)


MOVES = {"score": ScoreSchema, "discard": DiscardSchema, "draw": DrawSchema}

TallyBoxesSchema = Schema.from_dict(
    {box: int_field(1, 50, required=False, allow_none=True) for box in BOXES}, name="KniffelCardsTallyBoxes"
)
TallyPenaltiesSchema = Schema.from_dict(
    {box: int_field(0, 10, required=False) for box in BOXES}, name="KniffelCardsTallyPenalties"
)
TallySheetSchema = Schema.from_dict(
    {
        "boxes": fields.Nested(TallyBoxesSchema, required=True),
        "penalties": fields.Nested(TallyPenaltiesSchema, required=False),
        "extra_penalties": int_field(0, MAX_EXTRA_PENALTY, required=False),
        "missed_announcement": _bool(required=False),
    },
    name="KniffelCardsTallySheet",
)


class TallySchema(Schema):
    """One Kniffel score sheet per seat: box values, penalty fields, missed announcement."""

    sheets = list_field(fields.Nested(TallySheetSchema), MAX_PLAYERS, 1, required=True)


TALLY = TallySchema
