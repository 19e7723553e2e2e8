"""Shapes of 11 nimmt! states, moves and tallies (``rules/eleven_nimmt.py`` writes them).

Shape and types only; the engine's ``from_json`` checks meaning (100 cards, 10 bull cards,
a consistent turn).
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from rules.eleven_nimmt import ENGINE
from service.schemas.common import RngSchema, int_field, kind_field, list_field, options_schema

GAME_ID = "11-nimmt"

MAX_PLAYERS = 7
MAX_ROUNDS = 20
MAX_HEADS = 167  # all 100 cards under the 6 nimmt! table


def _card(**kwargs) -> fields.Integer:
    return int_field(1, 100, **kwargs)


def _cards(**kwargs) -> fields.List:
    return list_field(_card(), 100, **kwargs)


class StateSchema(Schema):
    """The full state, exactly as ``ENGINE.to_json`` writes it."""

    players = int_field(2, MAX_PLAYERS, required=True)
    options = fields.Nested(options_schema(ENGINE.options, "ElevenNimmtOptions"), required=True)
    phase = fields.String(required=True, validate=validate.OneOf(["play", "round-over", "game-over"]))
    round = int_field(1, MAX_ROUNDS, required=True)
    starter = int_field(0, MAX_PLAYERS - 1, required=True)
    turn = int_field(0, MAX_PLAYERS - 1, required=True, allow_none=True,
                     metadata={"description": "the seat to act; null once the round is over"})
    went_out = int_field(0, MAX_PLAYERS - 1, required=True, allow_none=True,
                         metadata={"description": "the seat whose hand emptied; null while the round runs"})
    hands = list_field(_cards(), MAX_PLAYERS, 2, required=True)
    stacks = list_field(list_field(_card(), 100, 1), 100, required=True)
    stock = _cards(required=True, metadata={"description": "face-down draw pile, next card last"})
    bulls = list_field(int_field(0, 10), MAX_PLAYERS, 2, required=True)
    supply = int_field(0, 10, required=True)
    history = list_field(list_field(int_field(0, MAX_HEADS), MAX_PLAYERS, 2), MAX_ROUNDS, required=True,
                         metadata={"description": "minus points per seat of each finished round"})
    rng = fields.Nested(RngSchema, required=True)


class StackPlaySchema(Schema):
    stack = int_field(0, 99, required=True)
    cards = list_field(_card(), 100, 1, required=True)


class PlaySchema(Schema):
    """Cards onto stacks; each card within 10 above its stack's top before the turn."""

    kind = kind_field("play")
    plays = list_field(fields.Nested(StackPlaySchema), 100, 1, required=True)


class TakeSchema(Schema):
    """Take a whole stack; ``source`` names the seat a bull card comes from when there is a choice."""

    kind = kind_field("take")
    stack = int_field(0, 99, required=True)
    source = int_field(0, MAX_PLAYERS - 1)


class NewStackSchema(Schema):
    """With no stacks on the table, place one card from hand as a new stack."""

    kind = kind_field("new-stack")
    card = _card(required=True)


class NextRoundSchema(Schema):
    kind = kind_field("next-round")


MOVES = {
    "play": PlaySchema,
    "take": TakeSchema,
    "new-stack": NewStackSchema,
    "next-round": NextRoundSchema,
}


class TallySchema(Schema):
    """Cards left in each hand at the end of a round (exactly one hand empty)."""

    hands = list_field(_cards(), MAX_PLAYERS, 2, required=True)
    heads = fields.String(validate=validate.OneOf(ENGINE.options["heads"].choices))
    previous = list_field(int_field(0, MAX_HEADS * MAX_ROUNDS), MAX_PLAYERS, 2)
    bulls = list_field(int_field(0, 10), MAX_PLAYERS, 2)


TALLY = TallySchema
