"""Scenario tests for Karten-Kniffel (``kniffel-cards``): docs/rules/kniffel-cards.md, cited as §n;
KN-1 .. KN-21 name the rule examples of the specification the page was written from.

Positions are built as JSON and loaded through ``from_json`` (so every position is a legal,
conserved 108-card state). Hands are drawn as ``P0: 1 3 6 6 6``; the stock lists the cards
that will be drawn next, in order.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from rules.base import IllegalMove, InvalidOption, InvalidState, Rng, RulesError
from rules.kniffel_cards import ENGINE, Box, Discard, Draw, Phase, Score, _values
from rules.shapes import encode
from service.games import BINDINGS

E = ENGINE
BOXES = [b.value for b in Box]
DEFAULTS = {name: opt.default for name, opt in E.options.items()}
DEALT = Rng.from_seed(1).shuffle(range(108))[1]  # an rng that has dealt the 108 cards


def position(
    hands,
    *,
    boxes=None,
    penalties=None,
    turn=0,
    start=0,
    next_draws=(),
    discard=(),
    options=None,
    phase="action",
    discarded=0,
    end_triggered_by=None,
    turns=None,
    missed=None,
):
    """A conserved state: ``next_draws`` are drawn first (in order), the rest of the deck after."""
    players = len(hands)
    pool = Counter({v: 18 for v in range(1, 7)})
    for h in (*hands, next_draws, discard):
        pool -= Counter(h)
        assert all(n >= 0 for n in pool.values())
    rest = sorted(pool.elements())
    stock = rest + list(reversed(next_draws))  # drawn from the end
    if turns is None:
        # the fewest rounds that explain every sheet and hand: a turn fills a box, or is an exchange
        # that grows the hand by one (penalties paid for grown hands count as such turns too);
        # the seats from the start player to the one to act have had one turn more
        need = [
            len((boxes or {}).get(p, {})) + max(0, len(hands[p]) - 5) + sum((penalties or {}).get(p, {}).values()) // 2
            for p in range(players)
        ]
        base = max(*need, 1 if discard else 0)
        turns = [base + ((p - start) % players < (turn - start) % players) for p in range(players)]
    sheets = []
    for p in range(players):
        filled = (boxes or {}).get(p, {})
        pen = (penalties or {}).get(p, {})
        sheets.append({
            "boxes": {b: filled.get(b) for b in BOXES},
            "penalties": {b: pen.get(b, 0) for b in BOXES},
            "extra_penalties": 0,
            "missed_announcement": bool((missed or {}).get(p, False)),
        })
    data = {
        "players": players,
        "options": DEFAULTS | {"start_player": start} | (options or {}),
        "turn": turn,
        "phase": phase,
        "discarded": discarded,
        "end_triggered_by": end_triggered_by,
        "turns": turns,
        "hands": [list(h) for h in hands],
        "stock": stock,
        "discard": list(discard),
        "sheets": sheets,
        "rng": encode(DEALT),
    }
    return E.from_json(data)


def sheet_with(*names, value_of=None):
    """A sheet with the named boxes filled by a valid value."""
    typical = {
        "ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18, "three-of-a-kind": 20,
        "four-of-a-kind": 22, "full-house": 25, "small-straight": 30, "large-straight": 40, "kniffel": 50,
    }
    return {n: (value_of or {}).get(n, typical[n]) for n in names}


def refused(state, seat, move, code):
    with pytest.raises(IllegalMove) as err:
        E.apply(state, seat, move)
    assert err.value.code == f"kniffel-cards.{code}", err.value
    assert move not in E.legal_moves(state, seat)
    E.codes[err.value.code].detail_pl.format(**err.value.context)
    return err.value


def box_of(state, seat, box):
    return _values(state.sheets[seat].boxes)[list(Box).index(box)]


def penalty_of(state, seat, box):
    return _values(state.sheets[seat].penalties)[list(Box).index(box)]


def missed(state):
    return tuple(int(sheet.missed_announcement) for sheet in state.sheets)


def bd(report):
    """The report's breakdown as a client reads it (one object per seat)."""
    return report.to_json()["breakdown"]


# ------------------------------------------------------------------ combinations KN-1 .. KN-6


@pytest.mark.parametrize(
    ("vector", "box", "cards", "value"),
    [
        ("KN-1", Box.THREE_OF_A_KIND, (4, 4, 4, 5, 6), 23),
        ("KN-2", Box.FOUR_OF_A_KIND, (2, 5, 5, 5, 5), 22),
        ("KN-3", Box.FULL_HOUSE, (1, 1, 3, 3, 3), 25),
        ("KN-4", Box.SMALL_STRAIGHT, (2, 3, 4, 5), 30),
        ("KN-5", Box.LARGE_STRAIGHT, (2, 3, 4, 5, 6), 40),
        ("KN-6", Box.KNIFFEL, (3, 3, 3, 3, 3), 50),
    ],
)
def test_lower_combination_scores_its_value(vector, box, cards, value) -> None:
    """§3, KN-1..KN-6: the lower boxes (sums for N of a kind, fixed 25/30/40/50 otherwise).

        P0: the five cards (plus a 1 when only four are played)   sheet empty
    """
    hand = cards + (1,) * (5 - len(cards))
    s = position([hand, (1, 1, 2, 2, 3)], next_draws=(6,))
    move = Score(box, cards)
    assert move in E.legal_moves(s, 0)
    after = E.apply(s, 0, move)
    assert box_of(after, 0, box) == value
    assert penalty_of(after, 0, box) == 0
    assert bd(E.scores(after))[0]["boxes"][box.value] == value


def test_legal_moves_at_turn_start_list_every_play_exchange_step_and_draw() -> None:
    """A small hand lists each box play, one discard per value, and draw 0 (pass) or 1.

        P0: 1 1 1 2 3   sheet empty
    """
    s = position([(1, 1, 1, 2, 3), (4, 4, 4, 5, 6)])
    assert E.legal_moves(s, 0) == [
        Score(Box.ONES, (1,)), Score(Box.ONES, (1, 1)), Score(Box.ONES, (1, 1, 1)),
        Score(Box.TWOS, (2,)), Score(Box.THREES, (3,)),
        Score(Box.THREE_OF_A_KIND, (1, 1, 1, 2, 3)),
        Discard(1), Discard(2), Discard(3),
        Draw(0), Draw(1),
    ]
    assert E.legal_moves(s, 1) == []


# ------------------------------------------------------------------------- exchange KN-7, 16, 17


def test_exchange_draws_as_many_as_discarded_or_one_more() -> None:
    """§2.1, KN-7: Stefan discards 1 and 3, then may draw 2 or 3; never 1 or 4.

        P0: 1 3 6 6 6  -> discard 1, discard 3 -> P0: 6 6 6 (2 discarded)
    """
    s = position([(1, 3, 6, 6, 6), (1, 2, 3, 4, 5)], next_draws=(6, 6, 2))
    s = E.apply(s, 0, Discard(1))
    assert s.phase is Phase.EXCHANGE and s.discarded == 1
    s = E.apply(s, 0, Discard(3))
    assert s.hands[0] == (6, 6, 6) and s.discard == (1, 3)
    assert [m for m in E.legal_moves(s, 0) if isinstance(m, Draw)] == [Draw(2), Draw(3)]
    refused(s, 0, Draw(1), "draw-too-few")
    refused(s, 0, Draw(4), "draw-too-many")
    refused(s, 0, Score(Box.SIXES, (6, 6, 6)), "exchange-in-progress")
    two = E.apply(s, 0, Draw(2))
    assert two.hands[0] == (6, 6, 6, 6, 6) and two.turn == 1 and two.turns == (1, 0)
    three = E.apply(s, 0, Draw(3))
    assert three.hands[0] == (2, 6, 6, 6, 6, 6) and three.phase is Phase.ACTION


def test_hand_may_never_exceed_ten_cards() -> None:
    """§2.1, KN-16: with 10 cards, discard 2 then draw 3 would make 11: illegal; draw 2 is fine.

        P0: 1 1 2 2 3 3 4 4 5 5  -> discard 1, discard 2 -> draw 3?
    """
    s = position([(1, 1, 2, 2, 3, 3, 4, 4, 5, 5), (6, 6, 6, 6, 6)])
    assert Draw(1) not in E.legal_moves(s, 0)
    refused(s, 0, Draw(1), "hand-limit")
    s = E.apply(E.apply(s, 0, Discard(1)), 0, Discard(2))
    refused(s, 0, Draw(3), "hand-limit")
    assert [m for m in E.legal_moves(s, 0) if isinstance(m, Draw)] == [Draw(2)]


def test_at_most_five_cards_are_discarded() -> None:
    """§2.1, KN-17: a sixth discard in one exchange is refused.

        P0: 1 1 2 2 3 3 4 4   discard 1 1 2 2 3 -> discard 3?
    """
    s = position([(1, 1, 2, 2, 3, 3, 4, 4), (6, 6, 6, 6, 6)])
    for card in (1, 1, 2, 2, 3):
        s = E.apply(s, 0, Discard(card))
    err = refused(s, 0, Discard(3), "discard-limit")
    assert "5" in err.message
    assert E.legal_moves(s, 0) == [Draw(5), Draw(6)]


def test_discarding_a_card_not_in_hand_is_refused() -> None:
    """P0: 1 3 6 6 6 cannot discard a 4."""
    s = position([(1, 3, 6, 6, 6), (6, 6, 6, 6, 6)])
    err = refused(s, 0, Discard(4), "card-not-in-hand")
    assert "4" in err.message and "[1, 3, 6, 6, 6]" in err.message


# --------------------------------------------------------------- penalties and refill KN-8 .. 11


def test_scoring_with_six_cards_costs_two_and_refills_to_five() -> None:
    """§4.1-4.2, KN-8: P0: 2 4 5 6 6 6 scores Sixes with 6 6 6: 18, penalty 2, three left -> draw 2.

        P0: 2 4 5 6 6 6   stock top: 1, 3
    """
    s = position([(2, 4, 5, 6, 6, 6), (1, 1, 1, 1, 1)], next_draws=(1, 3))
    after = E.apply(s, 0, Score(Box.SIXES, (6, 6, 6)))
    assert box_of(after, 0, Box.SIXES) == 18 and penalty_of(after, 0, Box.SIXES) == 2
    assert after.hands[0] == (1, 2, 3, 4, 5)
    assert after.discard == (6, 6, 6)
    assert len(after.stock) == len(s.stock) - 2
    assert bd(E.scores(after))[0]["card_penalties"] == 2


def test_seven_card_hand_scoring_sixes_costs_four_and_draws_one() -> None:
    """§4.1-4.2, KN-9: P0: 1 3 5 6 6 6 6... (7 cards incl. 6 6 6 5 3) Sixes with 6 6 6 -> 18, penalty 4, draw 1.

        P0: 1 2 3 5 6 6 6   stock top: 4
    """
    s = position([(1, 2, 3, 5, 6, 6, 6), (1, 1, 1, 1, 1)], next_draws=(4,))
    after = E.apply(s, 0, Score(Box.SIXES, (6, 6, 6)))
    assert (box_of(after, 0, Box.SIXES), penalty_of(after, 0, Box.SIXES)) == (18, 4)
    assert after.hands[0] == (1, 2, 3, 4, 5)


def test_seven_card_hand_three_of_a_kind_costs_four_and_draws_three() -> None:
    """§4.1-4.2, KN-10: same 7-card hand, Three of a kind with 6 6 6 5 3: 26, penalty 4, draw 3.

        P0: 1 2 3 5 6 6 6   stock top: 4 4 4
    """
    s = position([(1, 2, 3, 5, 6, 6, 6), (1, 1, 1, 1, 1)], next_draws=(4, 4, 4))
    after = E.apply(s, 0, Score(Box.THREE_OF_A_KIND, (3, 5, 6, 6, 6)))
    assert (box_of(after, 0, Box.THREE_OF_A_KIND), penalty_of(after, 0, Box.THREE_OF_A_KIND)) == (26, 4)
    assert after.hands[0] == (1, 2, 4, 4, 4)
    assert E.scores(after).totals[0] == 26 - 4 - 20  # upper malus: no upper box yet (§7.3)


def test_eight_card_full_house_costs_six() -> None:
    """§4.1-4.2, KN-11: an 8-card hand plays a Full House: 25, penalty 6, three left -> draw 2.

        P0: 1 2 2 3 3 3 4 5   stock top: 6 6
    """
    s = position([(1, 2, 2, 3, 3, 3, 4, 5), (1, 1, 1, 1, 1)], next_draws=(6, 6))
    after = E.apply(s, 0, Score(Box.FULL_HOUSE, (2, 2, 3, 3, 3)))
    assert (box_of(after, 0, Box.FULL_HOUSE), penalty_of(after, 0, Box.FULL_HOUSE)) == (25, 6)
    assert after.hands[0] == (1, 4, 5, 6, 6)


# -------------------------------------------------------------------- invalid plays KN-12 .. 15


def test_five_equal_cards_are_not_a_full_house() -> None:
    """§3.2, KN-12: Full House with 3 3 3 3 3 is refused (the values must differ).

        P0: 3 3 3 3 3
    """
    s = position([(3, 3, 3, 3, 3), (1, 1, 1, 1, 1)])
    err = refused(s, 0, Score(Box.FULL_HOUSE, (3, 3, 3, 3, 3)), "invalid-combination")
    assert "[3, 3, 3, 3, 3]" in err.message
    boxes = {m.box for m in E.legal_moves(s, 0) if isinstance(m, Score)}
    assert boxes == {Box.THREES, Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND, Box.KNIFFEL}


def test_five_equal_cards_are_four_of_a_kind() -> None:
    """§3.2, KN-13: Four of a kind with 5 5 5 5 5 scores 25.

        P0: 5 5 5 5 5
    """
    s = position([(5, 5, 5, 5, 5), (1, 1, 1, 1, 1)])
    after = E.apply(s, 0, Score(Box.FOUR_OF_A_KIND, (5, 5, 5, 5, 5)))
    assert box_of(after, 0, Box.FOUR_OF_A_KIND) == 25


def test_small_straight_needs_exactly_four_consecutive_cards() -> None:
    """§3, KN-14: Small Straight with 2 3 4 6, or with five cards 1 2 3 4 5, is refused.

        P0: 1 2 3 4 5 6
    """
    s = position([(1, 2, 3, 4, 5, 6), (1, 1, 1, 1, 1)])
    refused(s, 0, Score(Box.SMALL_STRAIGHT, (2, 3, 4, 6)), "invalid-combination")
    refused(s, 0, Score(Box.SMALL_STRAIGHT, (1, 2, 3, 4, 5)), "wrong-card-count")
    smalls = [m.cards for m in E.legal_moves(s, 0) if isinstance(m, Score) and m.box is Box.SMALL_STRAIGHT]
    assert smalls == [(1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)]


def test_upper_box_takes_only_matching_cards() -> None:
    """§3.1, KN-15: Fours with 4 4 5 is refused; Fours with one 4 scores 4 (§3.3: holding back is fine).

        P0: 1 2 4 4 5
    """
    s = position([(1, 2, 4, 4, 5), (1, 1, 1, 1, 1)], next_draws=(6,))
    refused(s, 0, Score(Box.FOURS, (4, 4, 5)), "card-does-not-match")
    refused(s, 0, Score(Box.FOURS, (4, 4, 4)), "cards-not-in-hand")
    after = E.apply(s, 0, Score(Box.FOURS, (4,)))
    assert box_of(after, 0, Box.FOURS) == 4
    assert after.hands[0] == (1, 2, 4, 5, 6)


def test_lower_box_needs_five_cards() -> None:
    """§3.1: Three of a kind is always five cards.

        P0: 2 2 2 3 4
    """
    s = position([(2, 2, 2, 3, 4), (1, 1, 1, 1, 1)])
    refused(s, 0, Score(Box.THREE_OF_A_KIND, (2, 2, 2)), "wrong-card-count")


# ---------------------------------------------------------------------- filled box KN-19


def test_a_filled_box_cannot_be_scored_again() -> None:
    """§3.4, KN-19: a second Kniffel into the filled Kniffel box is refused; no bonus exists.

        P0: 4 4 4 4 4   sheet: Kniffel 50
    """
    s = position([(4, 4, 4, 4, 4), (1, 1, 1, 1, 1)], boxes={0: sheet_with("kniffel")})
    err = refused(s, 0, Score(Box.KNIFFEL, (4, 4, 4, 4, 4)), "box-filled")
    assert "kniffel" in err.message
    assert all(m.box is not Box.KNIFFEL for m in E.legal_moves(s, 0) if isinstance(m, Score))
    # the five equal cards still fit other empty boxes (§3.4)
    assert Score(Box.FOURS, (4, 4, 4, 4, 4)) in E.legal_moves(s, 0)


def test_second_kniffel_play_option_scores_zero_and_fills_nothing() -> None:
    """§3.4 option second_kniffel_play: five equal cards played "as Kniffel" for 0 points.

        P0: 1 4 4 4 4 4 (6 cards)   sheet: Kniffel 50   stock top: 2 2 2 2 2
    """
    s = position(
        [(1, 4, 4, 4, 4, 4), (1, 1, 1, 1, 1)], boxes={0: sheet_with("kniffel")},
        next_draws=(2, 2, 2, 2), options={"second_kniffel_play": True},
    )
    move = Score(Box.KNIFFEL, (4, 4, 4, 4, 4))
    assert move in E.legal_moves(s, 0)
    before = E.scores(s).totals[0]
    after = E.apply(s, 0, move)
    assert box_of(after, 0, Box.KNIFFEL) == 50
    assert after.sheets[0].extra_penalties == 2
    assert E.scores(after).totals[0] == before - 2
    assert after.hands[0] == (1, 2, 2, 2, 2)
    assert E.from_json(json.loads(json.dumps(E.to_json(after)))) == after


# --------------------------------------------------------------------- upper bonus KN-18


@pytest.mark.parametrize(("upper", "bonus"), [(63, 35), (62, 0), (43, 0), (42, -20)])
def test_upper_bonus_and_malus_thresholds(upper, bonus) -> None:
    """§7.2, KN-18: U = 63 -> +35; 62 -> 0; 43 -> 0; 42 -> -20 (penalties do not count toward U)."""
    fills = {63: (3, 6, 9, 12, 15, 18), 62: (2, 6, 9, 12, 15, 18), 43: (1, 2, 3, 4, 15, 18), 42: (1, 2, 3, 4, 20, 12)}[upper]
    boxes = dict(zip(BOXES[:6], fills, strict=True))
    report = E.score_tally({"sheets": [{"boxes": boxes, "penalties": {"ones": 4}}]})
    item = bd(report)[0]
    assert item["upper"] == upper and item["upper_bonus"] == bonus
    assert report.totals == (upper + bonus - 4,) and report.final and report.winners == (0,)


# ------------------------------------------------------------------- end of game KN-20, 21


def test_round_is_finished_after_a_full_sheet() -> None:
    """§7.1, KN-20: 3 players, start P0; P1 fills its 12th box; P2 takes one more turn; then the end.

        P1: 1 2 3 4 5   sheet: all but Large Straight    P0 and P2 mid-game
    """
    eleven = sheet_with(*BOXES[:10], "kniffel")
    s = position(
        [(6, 6, 6, 6, 6), (1, 2, 3, 4, 5), (1, 1, 2, 2, 3)],
        boxes={1: eleven}, turn=1, turns=[12, 11, 11],
    )
    s = E.apply(s, 1, Score(Box.LARGE_STRAIGHT, (1, 2, 3, 4, 5)))
    assert s.end_triggered_by == 1 and E.to_act(s) == {2} and E.outcome(s) is None
    assert not E.scores(s).final
    s = E.apply(s, 2, Draw(1))
    assert E.to_act(s) == frozenset() and s.turns == (12, 12, 12)
    out = E.outcome(s)
    assert out is not None and E.round_over(s)
    report = E.scores(s)
    assert report.final and report.winners == out.winners == (1,)
    with pytest.raises(IllegalMove) as err:
        E.apply(s, 0, Draw(0))
    assert err.value.code == "kniffel-cards.game-over"


def test_game_ends_at_once_when_the_last_seat_of_the_round_fills_the_sheet() -> None:
    """§7.1: if the finisher sits just before the start player, the game ends at once.

        3 players, start P1; P0 (last in the round) fills its 12th box
    """
    eleven = sheet_with(*BOXES[1:])
    s = position(
        [(1, 1, 2, 3, 4), (6, 6, 6, 6, 6), (1, 1, 2, 2, 3)],
        boxes={0: eleven}, start=1, turn=0, turns=[11, 12, 12],
    )
    s = E.apply(s, 0, Score(Box.ONES, (1, 1)))
    assert E.outcome(s) is not None and s.turns == (12, 12, 12)


def test_unannounced_penultimate_fill_costs_ten_at_the_end() -> None:
    """§5.1, KN-21: P0 fills its 11th box without announcing: +10 penalty; announcing avoids it.

        P0: 2 2 3 4 5   sheet: 10 boxes filled, Twos and Kniffel empty
    """
    ten = sheet_with(*[b for b in BOXES if b not in ("twos", "kniffel")])
    s = position([(2, 2, 3, 4, 5), (1, 1, 1, 1, 1)], boxes={0: ten})
    plays = [m for m in E.legal_moves(s, 0) if isinstance(m, Score)]
    assert plays == [Score(Box.TWOS, (2,), True), Score(Box.TWOS, (2,)),
                     Score(Box.TWOS, (2, 2), True), Score(Box.TWOS, (2, 2))]
    silent = E.apply(s, 0, Score(Box.TWOS, (2, 2), announce=False))
    loud = E.apply(s, 0, Score(Box.TWOS, (2, 2), announce=True))
    assert missed(silent) == (1, 0) and missed(loud) == (0, 0)
    assert E.scores(loud).totals[0] - E.scores(silent).totals[0] == 10
    assert bd(E.scores(silent))[0]["announcement_penalty"] == 10
    events = E.events(s, 0, Score(Box.TWOS, (2, 2)), silent)
    assert {"type": "missed-announcement", "seat": 0, "penalty": 10} in events


def test_announce_is_refused_on_any_other_fill() -> None:
    """§5.1: announce belongs to the 11th fill only.

        P0: 2 2 3 4 5   sheet empty
    """
    s = position([(2, 2, 3, 4, 5), (1, 1, 1, 1, 1)])
    refused(s, 0, Score(Box.TWOS, (2,), announce=True), "nothing-to-announce")


def test_auto_announce_makes_the_announce_flag_irrelevant() -> None:
    """§5.2 option auto_announce (issue 9): "Kiedy gracz zdobędzie przedostatnią kombinację,
    musi to ogłosić" is done for the player, so the flag is never required, never penalised,
    and either value is accepted; legal-moves lists the play as a client sends it (no flag).

        P0: 2 2 3 4 5   sheet: 10 boxes filled (Twos and Kniffel empty)   auto_announce
        -> Twos with 2 2, with or without "announce": the 11th fill, no 10-point penalty
    """
    ten = sheet_with(*[b for b in BOXES if b not in ("twos", "kniffel")])
    s = position([(2, 2, 3, 4, 5), (1, 1, 1, 1, 1)], boxes={0: ten}, options={"auto_announce": True})
    plays = [m for m in E.legal_moves(s, 0) if isinstance(m, Score)]
    assert plays == [Score(Box.TWOS, (2,)), Score(Box.TWOS, (2, 2))]
    assert E.move_to_json(plays[1]) == {"kind": "score", "box": "twos", "cards": [2, 2]}
    for move in E.legal_moves(s, 0):  # every listed move is accepted as it is sent
        E.apply(s, 0, E.move_from_json(json.loads(json.dumps(E.move_to_json(move)))))
    sent = [{"kind": "score", "box": "twos", "cards": [2, 2]},
            {"kind": "score", "box": "twos", "cards": [2, 2], "announce": False},
            {"kind": "score", "box": "twos", "cards": [2, 2], "announce": True}]
    results = [E.apply(s, 0, E.move_from_json(m)) for m in sent]
    assert results[0] == results[1] == results[2]
    assert missed(results[0]) == (0, 0) and bd(E.scores(results[0]))[0]["announcement_penalty"] == 0
    assert not any(e["type"] == "missed-announcement" for e in E.events(s, 0, E.move_from_json(sent[0]), results[0]))
    # on any other fill the flag is just as irrelevant under the option
    early = position([(2, 2, 3, 4, 5), (1, 1, 1, 1, 1)], options={"auto_announce": True})
    assert E.apply(early, 0, Score(Box.TWOS, (2,), announce=True)) == E.apply(early, 0, Score(Box.TWOS, (2,)))


def test_announce_on_another_fill_says_which_fill_it_is() -> None:
    """§5.1: without auto_announce, announce belongs to the 11th fill only; the refusal
    names the fill the play would be.

        P0: 2 2 3 4 5   sheet: Ones filled   -> Twos with 2, "announce": true is fill 2
    """
    s = position([(2, 2, 3, 4, 5), (1, 1, 1, 1, 1)], boxes={0: sheet_with("ones")})
    err = refused(s, 0, Score(Box.TWOS, (2,), announce=True), "nothing-to-announce")
    assert "is fill 2" in err.message


# ------------------------------------------------------------------------------ options


def test_pass_is_allowed_by_default_and_refused_without_the_option() -> None:
    """§2.2 allow_pass: discard 0 / draw 0.

        P0: 1 2 3 4 6
    """
    hands = [(1, 2, 3, 4, 6), (1, 1, 1, 1, 1)]
    s = position(hands)
    after = E.apply(s, 0, Draw(0))
    assert after.hands[0] == s.hands[0] and after.turn == 1
    strict = position(hands, options={"allow_pass": False})
    err = refused(strict, 0, Draw(0), "pass-not-allowed")
    assert "allow_pass" in err.message
    assert Draw(1) in E.legal_moves(strict, 0)


def test_excess_after_scoring_is_discarded_down_to_five_by_default() -> None:
    """§4.3 excess_after_score='discard': a 10-card hand scoring one card trims to 5.

        P0: 1 2 2 3 3 4 4 5 5 6  -> Ones with 1 -> 9 cards -> discard 4 of the player's choice
    """
    hand = (1, 2, 2, 3, 3, 4, 4, 5, 5, 6)
    s = position([hand, (1, 1, 1, 1, 1)])
    s = E.apply(s, 0, Score(Box.ONES, (1,)))
    assert penalty_of(s, 0, Box.ONES) == 10
    assert s.phase is Phase.TRIM and E.to_act(s) == {0}
    assert E.legal_moves(s, 0) == [Discard(2), Discard(3), Discard(4), Discard(5), Discard(6)]
    refused(s, 0, Draw(0), "must-discard-excess")
    refused(s, 0, Score(Box.TWOS, (2,)), "must-discard-excess")
    for card in (2, 3, 4, 5):
        assert E.to_act(s) == {0}
        s = E.apply(s, 0, Discard(card))
    assert s.hands[0] == (2, 3, 4, 5, 6) and s.phase is Phase.ACTION and s.turn == 1
    assert s.discard == (1, 2, 3, 4, 5)


def test_excess_after_scoring_is_kept_with_the_keep_option() -> None:
    """§4.3 excess_after_score='keep': the 9 remaining cards stay in hand.

        P0: 1 2 2 3 3 4 4 5 5 6  -> Ones with 1
    """
    s = position([(1, 2, 2, 3, 3, 4, 4, 5, 5, 6), (1, 1, 1, 1, 1)], options={"excess_after_score": "keep"})
    s = E.apply(s, 0, Score(Box.ONES, (1,)))
    assert s.hands[0] == (2, 2, 3, 3, 4, 4, 5, 5, 6) and s.turn == 1 and s.phase is Phase.ACTION


def test_upper_cards_all_option_requires_every_matching_card() -> None:
    """§3.3 upper_cards='all': Sixes must take all three 6s.

        P0: 2 4 6 6 6
    """
    s = position([(2, 4, 6, 6, 6), (1, 1, 1, 1, 1)], options={"upper_cards": "all"})
    refused(s, 0, Score(Box.SIXES, (6, 6)), "must-play-all-matching")
    sixes = [m for m in E.legal_moves(s, 0) if isinstance(m, Score) and m.box is Box.SIXES]
    assert sixes == [Score(Box.SIXES, (6, 6, 6))]
    default = position([(2, 4, 6, 6, 6), (1, 1, 1, 1, 1)])
    assert Score(Box.SIXES, (6, 6)) in E.legal_moves(default, 0)


def test_start_player_option_sets_the_first_seat_and_is_checked() -> None:
    """§1.4: the youngest player (start_player) starts; it must be a seat."""
    s = E.new(3, 5, {"start_player": 2})
    assert E.to_act(s) == {2} and E.options_of(s)["start_player"] == 2
    with pytest.raises(InvalidOption) as err:
        E.new(2, 5, {"start_player": 3})
    assert err.value.code == "kniffel-cards.start-player"
    with pytest.raises(InvalidOption) as err:
        E.new(2, 5, None, setup={"hands": []})
    assert err.value.code == "kniffel-cards.setup-unsupported"


# --------------------------------------------------------------------- setup and reshuffle


def test_new_game_deals_five_each_from_108_cards() -> None:
    """§1.3: 5 cards each; the rest is the stock; empty discard pile; same seed, same deal."""
    s = E.new(5, "table-7")
    assert [len(h) for h in s.hands] == [5] * 5 and len(s.stock) == 108 - 25 and s.discard == ()
    total = Counter(s.stock)
    for h in s.hands:
        total += Counter(h)
    assert total == Counter({v: 18 for v in range(1, 7)})
    assert E.new(5, "table-7") == s and E.new(5, "table-8") != s


def test_empty_stock_reshuffles_the_discard_pile_from_the_rng() -> None:
    """§6.2: the stock is empty; drawing shuffles the discard pile into a new stock.

        P0: 1 3 6 6 6   stock: empty   discard pile: the other 98 cards
    """
    hands = [(1, 3, 6, 6, 6), (1, 2, 3, 4, 5)]
    full = position(hands)
    s = position(hands, discard=full.stock, turns=[20, 20])  # 40 turns: the stock may have run out
    after = E.apply(s, 0, Draw(1))
    expected, rng = s.rng.shuffle(full.stock)
    assert after.rng == rng and after.discard == ()
    assert after.stock == expected[:-1] and after.hands[0] == tuple(sorted((1, 3, 6, 6, 6, expected[-1])))
    assert {"type": "reshuffle", "stock": len(expected) - 1} in E.events(s, 0, Draw(1), after)


def test_reshuffle_takes_the_cards_just_discarded_too() -> None:
    """§6.1 + §6.2: played cards go to the discard pile, which is reshuffled when needed.

        P0: 1 1 1 2 3 (stock empty, discard pile: 103 cards) scores Ones with 1 1 1 -> draws 3
    """
    hands = [(1, 1, 1, 2, 3), (1, 2, 3, 4, 5)]
    rest = list(position(hands).stock)
    s = E.from_json(E.to_json(position(hands, turns=[20, 20])) | {"discard": rest, "stock": []})
    after = E.apply(s, 0, Score(Box.ONES, (1, 1, 1)))
    assert len(after.hands[0]) == 5 and len(after.stock) == 98 + 3 - 3 and after.discard == ()


# ---------------------------------------------------------------------------- from_json


def tampered(**changes):
    data = E.to_json(position([(1, 3, 6, 6, 6), (1, 2, 3, 4, 5), (2, 2, 2, 2, 2)], turn=1))
    for key, value in changes.items():
        data[key] = value(data[key]) if callable(value) else value
    return data


@pytest.mark.parametrize(
    ("what", "changes", "code"),
    [
        ("lost card", {"stock": lambda d: d[1:]}, "missing-card"),
        ("duplicate card", {"discard": [6]}, "duplicate-card"),
        ("card value 7", {"discard": [7]}, "bad-state"),
        ("wrong turn", {"turn": 2}, "bad-turn"),
        ("uneven turns", {"turns": [0, 2, 0]}, "bad-turn"),
        ("phase", {"phase": "bidding"}, "bad-state"),
        ("the old word for the end", {"phase": "over", "turn": None}, "bad-state"),
        ("exchange without discards", {"phase": "exchange"}, "bad-phase"),
        ("trim with five cards", {"phase": "trim"}, "bad-phase"),
        ("end without a full sheet", {"end_triggered_by": 0}, "bad-end"),
        ("over too early", {"phase": "game-over", "turn": None}, "bad-end"),
        ("options", {"options": {"allow_pass": True}}, "bad-state"),
        ("start player beyond the table", {"options": lambda o: o | {"start_player": 3}}, "bad-state"),
        ("players", {"players": 6}, "bad-state"),
        ("one hand too many", {"players": 2}, "seat-count"),
        ("hands not a list", {"hands": "1 3 6 6 6"}, "bad-state"),
        ("missing field", {"rng": None}, "bad-state"),
    ],
)
def test_from_json_rejects_tampered_states(what, changes, code) -> None:
    with pytest.raises(InvalidState) as err:
        E.from_json(tampered(**changes))
    assert err.value.code == f"kniffel-cards.{code}", (what, err.value)


@pytest.mark.parametrize(
    ("box", "value", "code"),
    [
        ("ones", 6, "impossible-box"), ("sixes", 8, "impossible-box"), ("full-house", 24, "impossible-box"),
        ("three-of-a-kind", 4, "impossible-box"), ("four-of-a-kind", 4, "impossible-box"),
        ("kniffel", 0, "bad-state"), ("small-straight", True, "bad-state"),
    ],
)
def test_from_json_rejects_impossible_box_values(box, value, code) -> None:
    data = tampered()
    data["sheets"][0]["boxes"][box] = value
    with pytest.raises(InvalidState) as err:
        E.from_json(data)
    assert err.value.code == f"kniffel-cards.{code}" and json.dumps(value) in err.value.message  # quoted as JSON
    if code == "bad-state":  # not of the declared shape: the field is named
        assert err.value.context["field"] == f"sheets.0.boxes.{box}"


def test_from_json_rejects_tampered_sheets() -> None:
    base = tampered()
    cases = [
        (lambda d: d["sheets"][0]["penalties"].__setitem__("ones", 2), "bad-penalties"),  # beside an empty box
        (lambda d: d["sheets"][0].__setitem__("missed_announcement", True), "bad-announcement"),
        (lambda d: d["sheets"][0].__setitem__("extra_penalties", 2), "bad-penalties"),
        (lambda d: d["sheets"][0]["boxes"].pop("ones"), "bad-state"),
        (lambda d: d["sheets"][0]["boxes"].__setitem__("chance", 20), "bad-state"),
        (lambda d: d.__setitem__("sheets", d["sheets"][:2]), "seat-count"),
    ]
    for change, code in cases:
        data = json.loads(json.dumps(base))
        change(data)
        with pytest.raises(InvalidState) as err:
            E.from_json(data)
        assert err.value.code == f"kniffel-cards.{code}"
    data = json.loads(json.dumps(base))
    data["sheets"][0]["boxes"]["ones"] = 3
    data["sheets"][0]["boxes"]["twos"] = 4  # two boxes after one turn
    with pytest.raises(InvalidState) as err:
        E.from_json(data)
    assert err.value.code == "kniffel-cards.bad-turn"


@pytest.mark.parametrize("junk", [None, [], "state", 5, {"players": 2}])
def test_from_json_rejects_junk_with_invalid_state(junk) -> None:
    with pytest.raises(InvalidState) as err:
        E.from_json(junk)
    assert err.value.code == "kniffel-cards.bad-state"


@pytest.mark.parametrize(
    "junk",
    [
        None, {"kind": "pass"}, {"kind": "discard", "card": 0}, {"kind": "draw", "count": -1},
        {"kind": "draw", "count": True}, {"kind": "score", "box": "chance", "cards": [1]},
        {"kind": "score", "box": "ones", "cards": []}, {"kind": "score", "box": "ones", "cards": [1], "announce": 1},
        {"kind": "discard", "card": 1, "extra": 2},
    ],
)
def test_move_from_json_rejects_malformed_moves(junk) -> None:
    with pytest.raises(IllegalMove) as err:
        E.move_from_json(junk)
    assert err.value.code == "kniffel-cards.malformed-move" and "field" in err.value.context


# ------------------------------------------------------------------------------ view


def test_view_hides_other_hands_and_the_stock_order() -> None:
    """§10.3: hands and the stock order are hidden; the discard pile and sheets are public.
    DESIGN 4.5: ``hands`` holds the seat's own hand and null for the others, ``hand_sizes``
    every size, ``stock`` null with ``stock_size`` the number of cards left; a spectator sees no hand."""
    s = E.apply(E.new(3, 11), 0, Discard(E.new(3, 11).hands[0][0]))
    for seat in (None, 0, 1, 2):
        view = E.view(s, seat)
        assert "rng" not in view and view["stock"] is None and view["stock_size"] == len(s.stock)
        assert view["turn"] == 0
        assert view["discard"] == list(s.discard) and view["sheets"] == E.to_json(s)["sheets"]
        assert view["hands"] == [list(h) if p == seat else None for p, h in enumerate(s.hands)]
        assert view["hand_sizes"] == [4, 5, 5]
        json.dumps(view)


# ------------------------------------------------------------------------------ tally


def test_tally_scores_sheets_with_breakdown_and_winners() -> None:
    """§7.2: total = boxes + bonus/malus - card penalties - 10 per missed announcement."""
    full = {"ones": 3, "twos": 6, "threes": 12, "fours": 12, "fives": 15, "sixes": 18,
            "three-of-a-kind": 24, "four-of-a-kind": 27, "full-house": 25, "small-straight": 30,
            "large-straight": 40, "kniffel": 50}
    other = {"ones": 2, "twos": 4, "full-house": 25, "kniffel": 50}
    report = E.score_tally({"sheets": [
        {"boxes": full, "penalties": {"kniffel": 4, "ones": 2}, "missed_announcement": True},
        {"boxes": other, "extra_penalties": 0},
    ]})
    assert bd(report)[0]["upper"] == 66 and bd(report)[0]["upper_bonus"] == 35
    assert report.totals[0] == 66 + 35 + 196 - 6 - 10
    assert report.totals[1] == 6 - 20 + 75
    assert report.winners == (0,) and report.final
    assert bd(report)[1]["boxes"]["threes"] is None


def test_tally_ties_share_the_win() -> None:
    """§7.4: equal best totals share the win."""
    sheet = {"boxes": {"kniffel": 50}}
    assert E.score_tally({"sheets": [sheet, sheet, {"boxes": {}}]}).winners == (0, 1)


@pytest.mark.parametrize(
    ("tally", "code"),
    [
        ({"sheets": [{"boxes": {"fives": 12}}]}, "impossible-box"),
        ({"sheets": [{"boxes": {"large-straight": 30}}]}, "impossible-box"),
        ({"sheets": [{"boxes": {"three-of-a-kind": 31}}]}, "impossible-box"),
        ({"sheets": [{"boxes": {"chance": 20}}]}, "bad-tally"),
        ({"sheets": [{"boxes": {"ones": 1}, "penalties": {"ones": 3}}]}, "bad-penalties"),
        ({"sheets": [{"boxes": {"ones": 1}, "penalties": {"twos": 2}}]}, "bad-penalties"),
        ({"sheets": [{"boxes": {"ones": 1}, "missed_announcement": True}]}, "bad-announcement"),
        ({"sheets": []}, "bad-tally"),
        ({"sheets": [{"penalties": {"ones": 0}}]}, "bad-tally"),
        ({"sheets": [{"boxes": None}]}, "bad-tally"),
        ({"sheets": [{"boxes": {}, "penalties": None}]}, "bad-tally"),
        ({"boxes": {}}, "bad-tally"),
    ],
)
def test_tally_rejects_impossible_sheets(tally, code) -> None:
    with pytest.raises(InvalidState) as err:
        E.score_tally(tally)
    assert err.value.code == f"kniffel-cards.{code}"


def test_tally_shape_says_what_the_engine_needs() -> None:
    """The tally's declared shape requires exactly what ``score_tally`` requires: ``sheets``,
    and ``boxes`` in every sheet; the penalty fields and the missed announcement are optional;
    what is not of the shape is ``bad-tally`` naming the field."""
    minimal = {"sheets": [{"boxes": {"ones": 3, "kniffel": None}}]}
    assert E.score_tally(minimal).totals == (3 - 20,)
    report = E.score_tally(minimal)
    assert report.round == 1 and report.history == () and report.points == report.totals
    full = {"sheets": [{"boxes": {"ones": 3}, "penalties": {"ones": 2}, "extra_penalties": 0,
                        "missed_announcement": False}]}
    assert E.score_tally(full).totals == (3 - 20 - 2,)
    for missing, field in (({}, "tally"), ({"sheets": [{}]}, "tally.sheets.0"),
                           ({"sheets": [{"penalties": {}}]}, "tally.sheets.0"),
                           ({"sheets": [{"boxes": {"ones": 0}}]}, "tally.sheets.0.boxes.ones")):
        with pytest.raises(InvalidState) as err:
            E.score_tally(missing)
        assert err.value.code == "kniffel-cards.bad-tally" and err.value.context["field"].startswith(field)


# ------------------------------------------------------------------ schemas and playouts


def random_game(players: int, seed: int, options: dict):
    rnd = random.Random(seed)
    s = E.new(players, seed, options)
    yield s, None
    while E.to_act(s):
        seat = min(E.to_act(s))
        move = rnd.choice(list(E.legal_moves(s, seat)))
        s = E.apply(s, seat, move)
        yield s, move


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        (2, 1, {}),
        (5, 2, {"excess_after_score": "keep", "upper_cards": "all", "allow_pass": False}),
        (3, 3, {"second_kniffel_play": True, "auto_announce": True, "start_player": 1}),
    ],
)
def test_states_and_moves_from_playouts_read_back_as_themselves(players, seed, options) -> None:
    """Every state and move written reads back as itself (the declared shapes, DESIGN 4.8)."""
    seen = set()
    for n, (state, move) in enumerate(random_game(players, seed, options)):
        if n % 7 == 0 or not E.to_act(state):
            assert E.from_json(json.loads(json.dumps(E.to_json(state)))) == state
            for m in E.legal_moves(state, state.turn):
                assert E.move_from_json(json.loads(json.dumps(E.move_to_json(m)))) == m
        if move is not None:
            data = E.move_to_json(move)
            seen.add(data["kind"])
            assert E.move_from_json(json.loads(json.dumps(data))) == move
    assert E.outcome(state) is not None
    assert seen == {"score", "discard", "draw"}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_end_well_within_the_move_cap(players) -> None:
    """Random play (uniform over the listed moves) ends far below the conformance cap of 4000."""
    rnd = random.Random(players)
    for seed in range(4):
        options = {
            "allow_pass": rnd.random() < 0.5,
            "excess_after_score": rnd.choice(["discard", "keep"]),
            "second_kniffel_play": rnd.random() < 0.5,
            "auto_announce": rnd.random() < 0.5,
            "upper_cards": rnd.choice(["any", "all"]),
        }
        length = sum(1 for _ in random_game(players, seed, options)) - 1
        assert length < 2500, (options, length)


# ------------------------------------------------------------------ §3: the combinations table

_COMBINATIONS = [
    # upper boxes: 1-5 cards, all of the box's face; value = face x count
    (Box.ONES, (1,), 1), (Box.ONES, (1, 1, 1, 1, 1), 5),
    (Box.TWOS, (2, 2), 4), (Box.THREES, (3, 3, 3), 9), (Box.FOURS, (4, 4, 4, 4), 16),
    (Box.FIVES, (5, 5, 5, 5, 5), 25), (Box.SIXES, (6,), 6), (Box.SIXES, (6, 6, 6, 6, 6), 30),
    (Box.TWOS, (1, 2), "card-does-not-match"), (Box.SIXES, (5,), "card-does-not-match"),
    # Three of a kind: 5 cards, at least 3 equal; the sum of all five
    (Box.THREE_OF_A_KIND, (1, 1, 1, 2, 3), 8), (Box.THREE_OF_A_KIND, (2, 2, 2, 2, 6), 14),
    (Box.THREE_OF_A_KIND, (6, 6, 6, 6, 6), 30), (Box.THREE_OF_A_KIND, (1, 1, 1, 6, 6), 15),
    (Box.THREE_OF_A_KIND, (1, 1, 2, 2, 3), "invalid-combination"),
    (Box.THREE_OF_A_KIND, (1, 1, 1, 2), "wrong-card-count"),
    # Four of a kind: 5 cards, at least 4 equal; the sum of all five
    (Box.FOUR_OF_A_KIND, (3, 3, 3, 3, 1), 13), (Box.FOUR_OF_A_KIND, (1, 1, 1, 1, 1), 5),
    (Box.FOUR_OF_A_KIND, (3, 3, 3, 1, 1), "invalid-combination"),
    (Box.FOUR_OF_A_KIND, (3, 3, 3, 3), "wrong-card-count"),
    # Full House: 3 of a + 2 of b, a != b; always 25
    (Box.FULL_HOUSE, (6, 6, 6, 5, 5), 25), (Box.FULL_HOUSE, (1, 1, 6, 6, 6), 25),
    (Box.FULL_HOUSE, (2, 2, 2, 2, 5), "invalid-combination"),
    (Box.FULL_HOUSE, (2, 2, 4, 4, 5), "invalid-combination"),
    (Box.FULL_HOUSE, (4, 4, 4, 4, 4), "invalid-combination"),
    # Small Straight: exactly 4 consecutive; always 30
    (Box.SMALL_STRAIGHT, (1, 2, 3, 4), 30), (Box.SMALL_STRAIGHT, (3, 4, 5, 6), 30),
    (Box.SMALL_STRAIGHT, (1, 2, 3, 3), "invalid-combination"),
    (Box.SMALL_STRAIGHT, (2, 3, 4, 5, 6), "wrong-card-count"),
    # Large Straight: 1-5 or 2-6; always 40
    (Box.LARGE_STRAIGHT, (1, 2, 3, 4, 5), 40), (Box.LARGE_STRAIGHT, (2, 3, 4, 5, 6), 40),
    (Box.LARGE_STRAIGHT, (1, 2, 3, 4, 6), "invalid-combination"),
    (Box.LARGE_STRAIGHT, (1, 2, 3, 4), "wrong-card-count"),
    # Kniffel: 5 equal; always 50
    (Box.KNIFFEL, (1, 1, 1, 1, 1), 50), (Box.KNIFFEL, (6, 6, 6, 6, 6), 50),
    (Box.KNIFFEL, (6, 6, 6, 6, 5), "invalid-combination"),
    (Box.KNIFFEL, (6, 6, 6, 6), "wrong-card-count"),
]


@pytest.mark.parametrize(("box", "cards", "expected"), _COMBINATIONS)
def test_every_box_of_the_4_6_table_scores_its_value_or_refuses(box, cards, expected) -> None:
    """§3: each box's definition and value, legal and illegal cases, on an empty sheet.

        P0: the played cards, padded with 1s up to five cards
    """
    hand = tuple(sorted(cards)) + (1, 1, 1, 1, 1)[: max(0, 5 - len(cards))]
    s = position([hand, (2, 2, 3, 3, 4)])
    move = Score(box, tuple(sorted(cards)))
    if isinstance(expected, str):
        refused(s, 0, move, expected)
        return
    assert move in E.legal_moves(s, 0)
    after = E.apply(s, 0, move)
    assert box_of(after, 0, box) == expected
    assert penalty_of(after, 0, box) == 0 and len(after.hands[0]) == 5


def test_a_box_is_never_filled_with_zero_or_struck_out() -> None:
    """§2.3: filling a box with 0 or striking it is not allowed: a score needs 1-5 cards and
    a valid combination; with no valid play the only moves are exchange steps.

        P0: 1 1 2 2 6   sheet: every box filled but Kniffel (11th fill made, not announced)
    """
    names = [b.value for b in Box if b is not Box.KNIFFEL]
    s = position(
        [(1, 1, 2, 2, 6), (3, 3, 4, 4, 5)], boxes={0: sheet_with(*names)}, next_draws=(5,),
        missed={0: True},
    )
    assert all(not isinstance(m, Score) for m in E.legal_moves(s, 0))
    with pytest.raises(IllegalMove) as err:
        E.move_from_json({"kind": "score", "box": "kniffel", "cards": [], "announce": False})
    assert err.value.code == "kniffel-cards.malformed-move"
    refused(s, 0, Score(Box.KNIFFEL, (1, 1, 2, 2, 6)), "invalid-combination")


def test_unfilled_boxes_at_the_end_score_nothing_and_the_upper_sum_uses_filled_boxes() -> None:
    """§7.3: at the end, empty boxes score 0 and U counts only filled upper boxes.

        P1 (not the finisher): Sixes 30, Fives 25 filled, nothing else -> U = 55, no adjustment;
        total 55 - 0 = 55.  P0: all 12 boxes; U = 3+6+9+12+15+18 = 63 -> +35
    """
    full = sheet_with(*[b.value for b in Box])
    s = position(
        [(1, 2, 3, 4, 5), (1, 1, 2, 2, 6)],
        boxes={0: full, 1: sheet_with("sixes", "fives", value_of={"sixes": 30, "fives": 25})},
        turn=1, end_triggered_by=0, turns=[12, 11],
    )
    after = E.apply(s, 1, Draw(1))
    assert after.phase is Phase.GAME_OVER
    report = E.scores(after)
    assert bd(report)[1]["upper"] == 55 and bd(report)[1]["upper_bonus"] == 0
    assert report.totals[1] == 55
    assert bd(report)[0]["upper"] == 63 and bd(report)[0]["upper_bonus"] == 35
    assert report.totals[0] == 63 + 35 + 20 + 22 + 25 + 30 + 40 + 50
    assert E.outcome(after).winners == (0,)


def test_discard_nothing_and_draw_one_grows_the_hand_and_the_next_score_pays_for_it() -> None:
    """§2.1 + §4.1: 'd = 0, draw 1' is legal and the hand grows to 6; scoring from 6 cards next turn
    costs 2 penalty points beside the box filled, and the hand is refilled to 5.

        P0: 1 3 6 6 6   stock top: 6, then 2 4 5
    """
    s = position([(1, 3, 6, 6, 6), (1, 2, 3, 4, 5)], next_draws=(6, 2, 4, 5))
    s = E.apply(s, 0, Draw(1))
    assert s.hands[0] == (1, 3, 6, 6, 6, 6) and s.turn == 1
    s = E.apply(s, 1, Draw(0))
    after = E.apply(s, 0, Score(Box.SIXES, (6, 6, 6, 6)))
    assert (box_of(after, 0, Box.SIXES), penalty_of(after, 0, Box.SIXES)) == (24, 2)
    assert after.hands[0] == (1, 2, 3, 4, 5)


def test_end_of_game_waits_for_the_trim_and_wraps_past_the_last_seat() -> None:
    """§7.1 + §4.3: 3 players, start P2 (order P2, P0, P1). P0 fills its 12th box from a
    7-card hand (penalty 4), must first discard down to 5; then P1, the seat just before the
    start player, takes the last turn and the game ends with equal turns.

        P0: 1 2 2 3 3 4 4   sheet: all but Ones      -> Ones with 1: 6 left, discard one
    """
    s = position(
        [(1, 2, 2, 3, 3, 4, 4), (6, 6, 6, 6, 6), (1, 1, 2, 2, 3)],
        boxes={0: sheet_with(*BOXES[1:])}, start=2, turn=0, turns=[13, 13, 14],
    )
    s = E.apply(s, 0, Score(Box.ONES, (1,)))
    assert s.phase is Phase.TRIM and s.end_triggered_by == 0 and E.to_act(s) == {0}
    assert penalty_of(s, 0, Box.ONES) == 4
    refused(s, 0, Draw(0), "must-discard-excess")
    s = E.apply(s, 0, Discard(4))
    assert s.hands[0] == (2, 2, 3, 3, 4) and E.to_act(s) == {1} and s.phase is Phase.ACTION
    s = E.apply(s, 1, Score(Box.KNIFFEL, (6, 6, 6, 6, 6)))
    assert s.phase is Phase.GAME_OVER and s.turns == (14, 14, 14)
    assert E.outcome(s) is not None


# ----------------------------------------------------------- impossible states (docs §8)


def fresh_json(players=3, seed=4):
    return E.to_json(E.new(players, seed))


def move_cards(data, src, dst, count, value=None):
    """Move ``count`` cards (of ``value``, or any) from pile/hand ``src`` to ``dst`` (JSON)."""
    def ref(name):
        return data["hands"][name] if isinstance(name, int) else data[name]
    for _ in range(count):
        pile = ref(src)
        card = pile.pop(pile.index(value) if value is not None else -1)
        ref(dst).append(card)
    return data


def refused_state(data, code):
    with pytest.raises(InvalidState) as err:
        E.from_json(data)
    assert err.value.code == f"kniffel-cards.{code}", err.value
    return err.value


def test_a_fresh_table_with_an_eight_card_hand_is_refused() -> None:
    """§8 (issue 10): every hand is dealt 5 cards and grows by one card per exchange at most;
    before anyone has played a turn no hand holds more than 5, even if all 108 cards are there.

        3 players, turns 0 0 0, P0 to act    P1: 5 cards + 3 from the stock = 8
    """
    data = move_cards(fresh_json(), "stock", 1, 3)
    err = refused_state(data, "bad-hand-size")
    assert err.context == {"seat": 1, "got": 8}
    assert "8 cards" in err.message


def test_a_hand_grows_by_one_card_per_exchange_at_most() -> None:
    """§8: a hand holds 5 + (turns that were exchanges) cards at most; a turn that filled a
    box grew nothing. P1 has had 2 turns and filled 1 box: 6 cards at most, 7 refused.

        P0: 5 cards (to act)   P1: 1 2 3 4 5 6 6   turns 2 2   P1 filled Ones
    """
    base = dict(boxes={1: sheet_with("ones")}, turns=[2, 2])
    assert position([(1, 1, 2, 2, 3), (1, 2, 3, 4, 5, 6)], **base).hands[1] == (1, 2, 3, 4, 5, 6)
    with pytest.raises(InvalidState) as err:
        position([(1, 1, 2, 2, 3), (1, 2, 3, 4, 5, 6, 6)], **base)
    assert err.value.code == "kniffel-cards.bad-hand-size"
    with pytest.raises(InvalidState) as err:  # and never fewer than 5 outside an exchange
        position([(1, 1, 2, 2, 3), (1, 2, 3, 4)], **base)
    assert err.value.code == "kniffel-cards.bad-hand-size"


def test_penalty_points_need_the_exchanges_that_grew_the_hand() -> None:
    """§8 with §4.3 'discard': 2 penalty points are one card the hand grew by in an exchange,
    and the hand is back to 5 after every score. P1 has had 3 turns, 2 of them filled boxes:
    one exchange, so 2 penalty points at most (4 refused); with 'keep' only the largest penalty
    is bound, since a kept hand can pay again.

        P0: to act   P1: 1 1 2 2 3   turns 3 3   P1: Ones 3 (penalty p), Twos 6 (penalty 0)
    """
    hands = [(1, 1, 2, 2, 3), (1, 1, 2, 2, 3)]
    filled = {1: sheet_with("ones", "twos")}
    position(hands, boxes=filled, penalties={1: {"ones": 2}}, turns=[3, 3])
    with pytest.raises(InvalidState) as err:
        position(hands, boxes=filled, penalties={1: {"ones": 2, "twos": 2}}, turns=[3, 3])
    assert err.value.code == "kniffel-cards.bad-penalties" and err.value.context["seat"] == 1
    position(hands, boxes=filled, penalties={1: {"ones": 2, "twos": 2}}, turns=[3, 3],
             options={"excess_after_score": "keep"})


def test_the_stock_shrinks_by_six_cards_a_turn_at_most() -> None:
    """§8 with §2.1 and §6: a turn draws 6 cards at most (discard 5, draw 6); before the stock
    can have run out, it holds at least the dealt stock less 6 per finished turn.

        3 players, turns 1 0 0: the stock holds >= 93 - 6 = 87 cards; 10 moved to the discard pile
    """
    data = fresh_json()
    data = move_cards(data, "stock", "discard", 6) | {"turns": [1, 0, 0], "turn": 1}
    E.from_json(data)
    refused_state(move_cards(data, "stock", "discard", 1), "bad-stock")


def test_the_seat_to_act_is_derived_and_null_once_over() -> None:
    """§7.1 and DESIGN 4.5: ``turn`` is the seat after the finished turns, from the start
    player; null once the game is over. A different seat, or null mid-game, is refused.

        3 players, start P0, turns 1 1 0: P2 to act
    """
    data = E.to_json(position([(1, 1, 2, 2, 3)] * 3, turns=[1, 1, 0], turn=2))
    assert data["turn"] == 2
    for wrong in (0, None):
        err = refused_state(data | {"turn": wrong}, "bad-turn")
        assert err.context == {"expected": 2, "got": wrong}


def test_the_end_comes_in_the_round_of_the_first_full_sheet() -> None:
    """§7.1: once a seat fills its 12th box, only the seats after it in that round still play.
    P1 filled its sheet; P0 (before it in the round) cannot be the one to act.

        3 players, start P0; P1 full sheet, end_triggered_by 1; turns 13 12 12 -> P1 to act: refused
    """
    full = sheet_with(*BOXES)
    ok = position([(1, 1, 2, 2, 3)] * 3, boxes={1: full}, turns=[13, 13, 12], turn=2, end_triggered_by=1)
    assert E.to_act(ok) == {2}
    with pytest.raises(InvalidState) as err:
        position([(1, 1, 2, 2, 3)] * 3, boxes={1: full}, turns=[13, 12, 12], turn=1, end_triggered_by=1)
    assert err.value.code == "kniffel-cards.bad-end"
    with pytest.raises(InvalidState) as err:  # P2 full too, though its turn of the last round has not come
        position([(1, 1, 2, 2, 3)] * 3, boxes={1: full, 2: full}, turns=[13, 13, 12], turn=2, end_triggered_by=1)
    assert err.value.code == "kniffel-cards.bad-end"


def test_an_rng_that_has_not_dealt_is_refused() -> None:
    """§1: the deal shuffles 108 cards, drawing 107 numbers from the rng at least."""
    data = fresh_json()
    data["rng"]["counter"] = 3
    refused_state(data, "bad-rng")


# ------------------------------------------------------------------- code catalogue (DESIGN 4.4)


def _raised(action) -> RulesError:
    with pytest.raises(RulesError) as err:
        action()
    return err.value


def _state_with(change):
    data = tampered()
    change(data)
    return lambda: E.from_json(data)


TEN = {"boxes": {0: sheet_with(*[b for b in BOXES if b not in ("twos", "kniffel")])}}
# one real raise of every code: what the engine (or the service, for no-such-seat) answers
PRODUCERS = {
    "not-your-turn": lambda: E.apply(position([(1, 2, 3, 4, 5)] * 2), 1, Draw(1)),
    "game-over": lambda: E.apply(_finished(), 0, Draw(0)),
    "no-such-seat": lambda: BINDINGS["kniffel-cards"].view(E.new(2, 1), 4),
    "malformed-move": lambda: E.move_from_json({"kind": "draw", "count": 9}),
    "card-not-in-hand": lambda: E.apply(position([(1, 3, 6, 6, 6), (1, 1, 1, 1, 1)]), 0, Discard(4)),
    "discard-limit": lambda: E.apply(_discarded([(1, 1, 2, 2, 3, 3, 4, 4), (6,) * 5], (1, 1, 2, 2, 3)), 0, Discard(3)),
    "must-discard-excess": lambda: E.apply(E.apply(position([(1, 2, 2, 3, 3, 4, 4, 5, 5, 6), (1,) * 5]), 0,
                                                   Score(Box.ONES, (1,))), 0, Draw(0)),
    "draw-too-few": lambda: E.apply(_discarded([(1, 3, 6, 6, 6), (1,) * 5], (1, 3)), 0, Draw(1)),
    "draw-too-many": lambda: E.apply(_discarded([(1, 3, 6, 6, 6), (1,) * 5], (1, 3)), 0, Draw(4)),
    "hand-limit": lambda: E.apply(position([(1, 1, 2, 2, 3, 3, 4, 4, 5, 5), (6,) * 5]), 0, Draw(1)),
    "pass-not-allowed": lambda: E.apply(position([(1, 2, 3, 4, 6), (1,) * 5], options={"allow_pass": False}), 0,
                                        Draw(0)),
    "exchange-in-progress": lambda: E.apply(_discarded([(1, 3, 6, 6, 6), (1,) * 5], (1,)), 0, Score(Box.SIXES, (6,))),
    "cards-not-in-hand": lambda: E.apply(position([(1, 2, 4, 4, 5), (1,) * 5]), 0, Score(Box.FOURS, (4, 4, 4))),
    "box-filled": lambda: E.apply(position([(4,) * 5, (1,) * 5], boxes={0: sheet_with("kniffel")}), 0,
                                  Score(Box.KNIFFEL, (4,) * 5)),
    "wrong-card-count": lambda: E.apply(position([(2, 2, 2, 3, 4), (1,) * 5]), 0,
                                        Score(Box.THREE_OF_A_KIND, (2, 2, 2))),
    "card-does-not-match": lambda: E.apply(position([(1, 2, 4, 4, 5), (1,) * 5]), 0, Score(Box.FOURS, (4, 4, 5))),
    "invalid-combination": lambda: E.apply(position([(3,) * 5, (1,) * 5]), 0, Score(Box.FULL_HOUSE, (3,) * 5)),
    "must-play-all-matching": lambda: E.apply(position([(2, 4, 6, 6, 6), (1,) * 5], options={"upper_cards": "all"}),
                                              0, Score(Box.SIXES, (6, 6))),
    "nothing-to-announce": lambda: E.apply(position([(2, 2, 3, 4, 5), (1,) * 5]), 0, Score(Box.TWOS, (2,), True)),
    "start-player": lambda: E.new(2, 5, {"start_player": 3}),
    "setup-unsupported": lambda: E.new(2, 5, None, setup={"hands": []}),
    "bad-state": lambda: E.from_json([]),
    "seat-count": _state_with(lambda d: d.__setitem__("players", 2)),
    "duplicate-card": _state_with(lambda d: d.__setitem__("discard", [6])),
    "missing-card": _state_with(lambda d: d["stock"].pop()),
    "bad-hand-size": lambda: E.from_json(move_cards(fresh_json(), "stock", 1, 3)),
    "bad-stock": lambda: E.from_json(move_cards(fresh_json(), "stock", "discard", 1)),
    "impossible-box": _state_with(lambda d: d["sheets"][1]["boxes"].__setitem__("ones", 6)),
    "bad-penalties": _state_with(lambda d: d["sheets"][1]["penalties"].__setitem__("ones", 2)),
    "bad-announcement": _state_with(lambda d: d["sheets"][1].__setitem__("missed_announcement", True)),
    "bad-turn": _state_with(lambda d: d.__setitem__("turn", 2)),
    "bad-phase": _state_with(lambda d: d.__setitem__("phase", "exchange")),
    "bad-end": _state_with(lambda d: d.__setitem__("end_triggered_by", 0)),
    "bad-tally": lambda: E.score_tally({"boxes": {}}),
    "bad-rng": _state_with(lambda d: d["rng"].__setitem__("counter", 3)),
}


def _finished():
    """P0 filled its sheet; P1 (last in the round) passes: the game is over."""
    s = position([(1, 2, 3, 4, 5), (1, 1, 2, 2, 6)], boxes={0: sheet_with(*BOXES)}, turn=1, end_triggered_by=0,
                 turns=[12, 11])
    return E.apply(s, 1, Draw(0))


def _discarded(hands, cards):
    s = position(hands)
    for card in cards:
        s = E.apply(s, 0, Discard(card))
    return s


def test_every_code_is_catalogued_raised_and_has_a_polish_detail() -> None:
    """DESIGN 4.4: the codes are declared once (``kniffel_cards.C``, typed, so nothing raises a
    code it did not declare); each has a real raise here, and every Polish detail formats with
    a real raise's context."""
    assert {f"kniffel-cards.{name}" for name in PRODUCERS} == set(E.codes)
    for name, action in PRODUCERS.items():
        err = _raised(action)
        assert err.code == f"kniffel-cards.{name}", (name, err)
        entry = E.codes[err.code]
        assert isinstance(err, entry.error) and entry.description.en and entry.description.pl
        assert entry.title.en and entry.title.pl and entry.title.en != entry.title.pl
        detail = entry.detail_pl.format(**err.context)
        assert "None" not in detail, (name, detail)


def test_refusals_seen_in_play_format_their_polish_detail() -> None:
    """Every refusal met by the scenario helpers formats its Polish detail (no missing context)."""
    s = position([(1, 3, 6, 6, 6), (1, 2, 3, 4, 5)])
    for move, code in [
        (Discard(2), "card-not-in-hand"), (Draw(3), "draw-too-many"), (Score(Box.TWOS, (2,)), "cards-not-in-hand"),
        (Score(Box.FULL_HOUSE, (1, 3, 6, 6, 6)), "invalid-combination"),
        (Score(Box.SMALL_STRAIGHT, (1, 3, 6, 6, 6)), "wrong-card-count"),
        (Score(Box.ONES, (1,), True), "nothing-to-announce"),
    ]:
        err = _raised(lambda m=move: E.apply(s, 0, m))
        assert err.code == f"kniffel-cards.{code}"
        assert "None" not in E.codes[err.code].detail_pl.format(**err.context)
