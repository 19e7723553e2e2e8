"""Board model (docs/rules/backgammon.md §2): per-seat counts in each seat's own numbering.

A side is a tuple of 26 counts: index 0 borne off, 1..24 the points, 25 the bar. A seat's
point ``p`` is the other seat's point ``25 - p``.
"""

from __future__ import annotations

BAR = 25
OFF = 0
CHECKERS = 15

# 2 on the 24-point, 5 on the 13, 3 on the 8, 5 on the 6 (docs/rules/backgammon.md §3).
START: tuple[int, ...] = tuple({24: 2, 13: 5, 8: 3, 6: 5}.get(i, 0) for i in range(26))


def pips(side: tuple[int, ...]) -> int:
    """Pip count: sum of point x checkers, the bar counting 25 (docs/rules/backgammon.md §2)."""
    return sum(i * side[i] for i in range(1, 26))


def mover_lists(me: tuple[int, ...], other: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Scratch lists for the generator: the mover's side, the opponent on the mover's points."""
    return list(me), [0, *other[24:0:-1], 0]


def gnubg_side(side: tuple[int, ...]) -> tuple[int, ...]:
    """Points 1..24 then the bar: the 25 counts GNU BG's board (and the IDs) use."""
    return side[1:26]


def from_gnubg_side(counts: tuple[int, ...]) -> tuple[int, ...]:
    return (CHECKERS - sum(counts), *counts)


def overlap(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """A point (in ``a``'s numbering) where both sides have checkers, or 0 when none."""
    for p in range(1, 25):
        if a[p] and b[25 - p]:
            return p
    return 0


def gammon_level(loser: tuple[int, ...]) -> int:
    """1 single, 2 gammon, 3 backgammon for the loser's side when the winner is all off (docs/rules/backgammon.md §5)."""
    if loser[OFF]:
        return 1
    if loser[BAR] or any(loser[p] for p in range(19, 25)):
        return 3
    return 2
