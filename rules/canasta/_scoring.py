"""Scoring a hand and the opening minimum (docs/rules/canasta.md §6, §10)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.cards import Card

from ._melds import Meld, card_value, is_canasta, is_natural_canasta, meld_value

NATURAL_CANASTA = 500
MIXED_CANASTA = 300
RED_THREE = 100
FOUR_RED_THREES = 800
GOING_OUT = 100
DOUBLE_GOING_OUT = 100
CONCEALED = 100

CANASTA_MINIMUM = -1  # "meld a whole canasta at once" (the 7500 game at 5000 and more)


def opening_minimum(total: int, table: str) -> int:
    """§6: the opening minimum from the side's score before the hand."""
    if table == "10000":
        for bound, need in ((0, 15), (1000, 30), (2000, 60), (3000, 90), (5000, 120), (7000, 150)):
            if total < bound:
                return need
        return 180
    if table == "7500" and total >= 5000:
        return CANASTA_MINIMUM
    if total < 0:
        return 15
    if total < 1500:
        return 50
    if total < 3000:
        return 90
    return 120


def side_score(
    melds: Sequence[Meld],
    red_threes: int,
    hands: Iterable[Sequence[Card]],
    *,
    black_three: int,
    went_out: bool = False,
    double: bool = False,
    concealed: bool = False,
) -> tuple[int, dict[str, int]]:
    """§10: one side's hand score and its breakdown (every item named)."""
    natural = sum(1 for m in melds if is_natural_canasta(m))
    mixed = sum(1 for m in melds if is_canasta(m)) - natural
    cards = sum(meld_value(m, black_three) for m in melds if m[0] != 3)
    blacks = sum(meld_value(m, black_three) for m in melds if m[0] == 3)
    if red_threes == 4:
        reds = FOUR_RED_THREES if natural + mixed else -FOUR_RED_THREES
    else:
        reds = red_threes * (RED_THREE if natural + mixed else -RED_THREE)
    in_hand = -sum(card_value(c) for h in hands for c in h)
    items = {
        "meld_cards": cards,
        "natural_canastas": natural,
        "natural_canasta_bonus": natural * NATURAL_CANASTA,
        "mixed_canastas": mixed,
        "mixed_canasta_bonus": mixed * MIXED_CANASTA,
        "black_threes": blacks,
        "red_threes": red_threes,
        "red_three_points": reds,
        "going_out": GOING_OUT if went_out else 0,
        "double_going_out": DOUBLE_GOING_OUT if double else 0,
        "going_out_from_hand": CONCEALED if concealed else 0,
        "cards_in_hand": in_hand,
    }
    total = (
        cards + items["natural_canasta_bonus"] + items["mixed_canasta_bonus"] + blacks + reds
        + items["going_out"] + items["double_going_out"] + items["going_out_from_hand"] + in_hand
    )
    items["points"] = total
    return total, items
