"""Backgammon shapes: the state exactly as ``rules.backgammon`` writes it, the moves, setup, tally
(docs/rules/backgammon.md)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from rules.backgammon import ENGINE

from .common import RngSchema, int_field, kind_field, list_field, options_schema

GAME_ID = "backgammon"

_CUBE_MAX = 1 << 15
_LEVELS = ("single", "gammon", "backgammon")
_POSITION_ID = r"^[A-Za-z0-9+/]{14}$"
_MATCH_ID = r"^[A-Za-z0-9+/]{12}$"
_XGID = r"^XGID=[-A-Oa-o]{26}:\d{1,2}:(-1|0|1):(-1|1):(00|D|B|R|[1-6]{2}):\d{1,5}:\d{1,5}:[0-3]:\d{1,5}:\d{1,2}$"


def _nullable_seat(**kwargs) -> fields.Integer:
    return int_field(0, 1, allow_none=True, **kwargs)


def _pair(inner: fields.Field, **kwargs) -> fields.List:
    return list_field(inner, 2, 2, **kwargs)


class CubeSchema(Schema):
    value = int_field(1, _CUBE_MAX, required=True)
    owner = _nullable_seat(required=True)
    offered = fields.Boolean(required=True)
    beaver = fields.Boolean(load_default=False, metadata={
        "description": "the player doubled beavered: the doubler (on turn) takes, drops or raccoons the redouble"})
    raccoon = fields.Boolean(load_default=False, metadata={
        "description": "the doubler raccooned the beaver: the beaverer (not on turn, owning the cube) takes or drops"})


class MatchSchema(Schema):
    length = int_field(0, 64, required=True)
    score = _pair(int_field(0, 9999), required=True)
    crawford = fields.Boolean(required=True)
    post_crawford = fields.Boolean(required=True)


class ResultSchema(Schema):
    winner = int_field(0, 1, required=True)
    how = fields.String(required=True, validate=validate.OneOf(["bear-off", "drop", "resign"]))
    level = fields.String(required=True, validate=validate.OneOf(_LEVELS))
    cube = int_field(1, _CUBE_MAX, required=True)
    multiplier = int_field(1, 3, required=True)
    points = int_field(1, 3 * _CUBE_MAX, required=True)


class _ViewFields(Schema):
    options = fields.Nested(options_schema(ENGINE.options, "BackgammonOptions"), required=True)
    points = _pair(list_field(int_field(0, 15), 24, 24), required=True,
                   metadata={"description": "per seat, points 1..24 in that seat's own numbering"})
    bar = _pair(int_field(0, 15), required=True)
    off = _pair(int_field(0, 15), required=True)
    phase = fields.String(required=True, validate=validate.OneOf(["opening", "roll", "move", "over"]))
    turn = _nullable_seat(required=True)
    dice = list_field(int_field(1, 6), 2, required=True)
    cube = fields.Nested(CubeSchema, required=True)
    resign = fields.String(required=True, allow_none=True, validate=validate.OneOf(_LEVELS))
    match = fields.Nested(MatchSchema, required=True)
    round = int_field(1, 10**6, required=True, metadata={"description": "the game of the match, 1-based (1 in money play)"})
    colors = list_field(fields.String(validate=validate.OneOf(["white", "black"])), 2, 2, required=True,
                        metadata={"description": "labels only: seat 0 plays white, seat 1 black"})
    result = fields.Nested(ResultSchema, required=True, allow_none=True)
    pips = _pair(int_field(0, 375), required=True)
    position_id = fields.String(required=True, validate=validate.Regexp(_POSITION_ID))
    match_id = fields.String(required=True, validate=validate.Regexp(_MATCH_ID))
    xgid = fields.String(required=True, validate=validate.Regexp(_XGID))


class StateSchema(_ViewFields):
    rng = fields.Nested(RngSchema, required=True)


class ViewSchema(_ViewFields):
    """What ``view`` returns: the state without its rng."""


class RollSchema(Schema):
    kind = kind_field("roll")
    dice = _pair(int_field(1, 6), metadata={"description": "physical dice; in the opening roll seat 0's die then seat 1's"})


class PlaySchema(Schema):
    kind = kind_field("move")
    steps = list_field(_pair(int_field(0, 25)), 4,
                       metadata={"description": "[from, to] checker steps, bar 25, off 0; [] forfeits a blocked turn"})
    notation = fields.String(validate=validate.Length(0, 200),
                             metadata={"description": "standard notation, e.g. '13/7 7/3', '24/18*/15', 'bar/20', '6/off', '8/5(2)'"})


class ResignSchema(Schema):
    kind = kind_field("resign")
    level = fields.String(validate=validate.OneOf(_LEVELS))


def _simple(kind: str) -> type[Schema]:
    return type(f"{kind.title().replace('-', '')}Schema", (Schema,), {"kind": kind_field(kind)})


MOVES = {
    "roll": RollSchema,
    "move": PlaySchema,
    "double": _simple("double"),
    "take": _simple("take"),
    "drop": _simple("drop"),
    "beaver": _simple("beaver"),
    "raccoon": _simple("raccoon"),
    "resign": ResignSchema,
    "accept-resignation": _simple("accept-resignation"),
    "reject-resignation": _simple("reject-resignation"),
    "next-round": _simple("next-round"),
}


class SetupSchema(Schema):
    """``{"position_id", "match_id"?}`` or ``{"xgid"}`` (the engine checks the combination)."""

    position_id = fields.String(validate=validate.Regexp(_POSITION_ID))
    match_id = fields.String(validate=validate.Regexp(_MATCH_ID))
    xgid = fields.String(validate=validate.Regexp(_XGID))


class TallySchema(Schema):
    """A finished game's score sheet: who won, the cube, and the final board (the winner has all
    15 checkers off). Exactly what ``score_tally`` reads (docs/rules/backgammon.md §10)."""

    winner = int_field(0, 1, required=True)
    points = _pair(list_field(int_field(0, 15), 24, 24), required=True,
                   metadata={"description": "per seat, points 1..24 in that seat's own numbering"})
    bar = _pair(int_field(0, 15), required=True)
    off = _pair(int_field(0, 15), required=True)
    cube = int_field(1, _CUBE_MAX, load_default=1, metadata={"description": "the cube value, a power of two"})
    owner = _nullable_seat(load_default=None, metadata={"description": "the cube's owner; null when centred"})
    jacoby = fields.Boolean(load_default=False, metadata={"description": "the Jacoby rule (money play only)"})
    match_length = int_field(0, 64, load_default=0, metadata={"description": "0 for money play"})


SETUP = SetupSchema
TALLY = TallySchema
