"""Backgammon's values: the phase, the moves (one small class per kind) and the state.

Kept apart from the engine so that the JSON and setup readers in ``_setup`` and the engine in
``_engine`` both import them, and neither imports the other at module level.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rules.base import Json, NextRound, Rng

GAME_ID = "backgammon"


class Phase(Enum):
    OPENING = "opening"  # each side rolls one die; both seats may send the roll
    ROLL = "roll"  # the player on turn may double, resign or roll
    MOVE = "move"  # dice are rolled; the player on turn plays them (or resigns)
    OVER = "over"  # the game is over (the round, in match play)


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the dice (two, or one each in the opening); ``dice`` records physical dice."""

    dice: tuple[int, int] | None = None
    kind = "roll"


@dataclass(frozen=True, slots=True)
class Play:
    """A whole turn: checker steps ``((13, 7), (7, 3))`` (bar 25, off 0), with its notation.

    ``steps == ()`` is the forfeited turn when nothing can be played.
    """

    steps: tuple[tuple[int, int], ...]
    notation: str | None = None
    kind = "move"


@dataclass(frozen=True, slots=True)
class Double:
    kind = "double"


@dataclass(frozen=True, slots=True)
class Take:
    kind = "take"


@dataclass(frozen=True, slots=True)
class Drop:
    kind = "drop"


@dataclass(frozen=True, slots=True)
class Beaver:
    kind = "beaver"


@dataclass(frozen=True, slots=True)
class Raccoon:
    kind = "raccoon"


@dataclass(frozen=True, slots=True)
class Resign:
    level: str = "single"
    kind = "resign"


@dataclass(frozen=True, slots=True)
class AcceptResignation:
    kind = "accept-resignation"


@dataclass(frozen=True, slots=True)
class RejectResignation:
    kind = "reject-resignation"


Move = Roll | Play | Double | Take | Drop | Beaver | Raccoon | Resign | AcceptResignation | RejectResignation | NextRound
_SIMPLE = {c.kind: c for c in (Double, Take, Drop, Beaver, Raccoon, AcceptResignation, RejectResignation, NextRound)}
MOVE_KINDS = ("roll", "move", "double", "take", "drop", "beaver", "raccoon", "resign", "accept-resignation",
              "reject-resignation", "next-round")


# --------------------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: ``how`` is bear-off, drop or resign; ``level`` 1..3 (single..backgammon)."""

    winner: int
    how: str
    level: int
    cube: int
    multiplier: int
    points: int


@dataclass(frozen=True, slots=True)
class State:
    options: tuple[tuple[str, Json], ...]
    sides: tuple[tuple[int, ...], tuple[int, ...]]  # per seat, 26 counts in own numbering
    phase: Phase
    turn: int | None  # the seat on roll (None during the opening roll)
    dice: tuple[int, ...]
    cube: int
    owner: int | None
    offered: bool  # a double is offered by ``turn``; the other seat takes or drops
    resign: int  # 0, or the level (1..3) that ``turn`` offers to resign
    score: tuple[int, int]
    crawford: bool
    post_crawford: bool
    round: int  # the game of the match, 1-based
    result: Result | None
    rng: Rng
    beavered: bool = False  # ``1 - turn`` beavered: ``turn`` (the doubler) takes, drops or raccoons the redouble
    raccooned: bool = False  # ``turn`` raccooned the beaver: ``1 - turn`` (the beaverer) takes or drops

    def opt(self, name: str) -> Json:
        for key, value in self.options:
            if key == name:
                return value
        raise KeyError(name)
