"""Doubling cube, results and match bookkeeping (docs/rules/backgammon.md §5-§7).

Pure helpers over plain values, shared by the engine and the score-sheet tally.
"""

from __future__ import annotations

CUBE_LIMIT = 1 << 15  # the Match ID stores log2(cube) in 4 bits
LEVELS = ("single", "gammon", "backgammon")


def effective_max(max_cube: int) -> int:
    return max_cube if max_cube else CUBE_LIMIT


def multiplier(level: int, turned: bool, money: bool, jacoby: bool) -> int:
    """The multiplier of a result ``level`` (1..3): with the Jacoby rule (money play only)
    gammons and backgammons count single while the cube was never turned (offered and
    taken; automatic doubles do not turn it)."""
    if money and jacoby and not turned:
        return 1
    return level


def game_points(level: int, cube: int, turned: bool, money: bool, jacoby: bool) -> tuple[int, int]:
    """(multiplier, points) for a game won at ``level`` with the cube at ``cube``."""
    k = multiplier(level, turned, money, jacoby)
    return k, k * cube


def next_crawford(length: int, rule: bool, score: tuple[int, ...], crawford: bool, post: bool) -> tuple[bool, bool]:
    """(crawford, post_crawford) for the next game of a match (docs/rules/backgammon.md §7).

    The first time a player reaches ``length - 1`` the next game is the Crawford game (no
    cube); every game after it is post-Crawford. There is one Crawford game per match.
    """
    if not length or not rule:
        return False, False
    if crawford or post:
        return False, True
    if max(score) == length - 1:
        return True, False
    return False, False


def is_log2(value: int) -> bool:
    return value >= 1 and value & (value - 1) == 0
