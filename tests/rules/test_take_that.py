"""Scenario tests for Take That ("§n" is docs/rules/take-that.md; vectors TT-1 .. TT-12 from the rulebook).

Positions are drawn as::

    row:  34 41 44        (left to right; the rightmost card decides what may be laid)
    P0:   hand 13 27 ...   pile: 10 cards left, top 33

Positions are built as JSON and loaded with ``from_json``, so every one of them also passes
the engine's conservation checks (79 cards, no duplicates, full hands while the pile lasts).
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from rules.base import GameOver, IllegalMove, InvalidOption, InvalidState, NotYourTurn
from rules.registry import ENGINES
from rules.take_that import ENGINE, Lay, NextRound, Phase, Take, Twist, is_toad, twin
from service.games import BINDINGS
from tests.rules.catalogue import check_raise, codes_checked, raise_of

CARDS = [n for n in range(12, 99) if n % 10]
HAND = {2: 9, 3: 9, 4: 8}
DEFAULT_OPTIONS = {name: opt.default for name, opt in ENGINE.options.items()}


def position(*, players=2, row=(), hands=None, stock=None, face_up=None, face_down=None, turn=0,
             options=None, phase="play", round=1, history=(), dealer=None, dump=None):
    """A position as JSON, loaded with ``from_json``.

    Unnamed hands are filled with the lowest unused cards: to full size while the stock lasts,
    else as short as the hand of the seat to act (or the shortest named hand), as play leaves
    them. The stock gets the rest, top LAST, unless ``stock`` is given: then what is left goes
    to seat ``dump``'s face-down pile (the last seat unless said otherwise). A finished round
    (``phase="round-over"``) has no seat to act and its scores end ``history``.
    """
    hands = {s: list(h) for s, h in (hands or {}).items()}
    face_up = {s: list(p) for s, p in (face_up or {}).items()}
    face_down = {s: list(p) for s, p in (face_down or {}).items()}
    used = set(row) | set(stock or ())
    for group in (hands, face_up, face_down):
        for cards in group.values():
            used |= set(cards)
    rest = [c for c in CARDS if c not in used]
    dealer = _dealer(players, round, options) if dealer is None else dealer
    sizes = _sizes(players, hands, turn, dealer) if stock == [] else [HAND[players]] * players
    for s in range(players):
        if s not in hands:
            hands[s], rest = rest[:sizes[s]], rest[sizes[s]:]
    dump = players - 1 if dump is None else dump
    if stock is None:  # as many turns played as put ``turn`` to act (one card drawn a turn)
        first = len(CARDS) - players * HAND[players]
        extra = (first - len(rest) - (turn - dealer - 1)) % players if phase == "play" else 0
        face_down[dump] = face_down.get(dump, []) + rest[:extra]
        stock = rest[extra:]
    else:
        face_down[dump] = face_down.get(dump, []) + rest
    data = {
        "players": players,
        "options": {**DEFAULT_OPTIONS, **(options or {})},
        "round": round,
        "dealer": dealer,
        "turn": None if phase != "play" else turn,
        "phase": phase,
        "stock": list(stock),
        "row": list(row),
        "hands": [hands[s] for s in range(players)],
        "face_up": [face_up.get(s, []) for s in range(players)],
        "face_down": [face_down.get(s, []) for s in range(players)],
        "history": [list(r) for r in history],
        "rng": {"v": 1, "key": "0" * 64, "counter": 0},
    }
    if phase != "play":
        data["history"].append([len(face_up.get(s, [])) - sum(5 if is_toad(c) else 1 for c in face_down.get(s, []))
                                for s in range(players)])
    return ENGINE.from_json(data)


def _dealer(players, round, options) -> int:
    """§7.1: the last seat deals the first round; the dealer moves one seat on each round."""
    moves = (options or {}).get("next_dealer", "clockwise") == "clockwise"
    return (players - 1 + (round - 1 if moves else 0)) % players


def _sizes(players, hands, turn, dealer) -> list[int]:
    """Hand sizes once the stock is used up (§8): the named hands as given, the others as play
    leaves them with ``turn`` to act (each seat one card shorter a turn, in turn order)."""
    size, first = HAND[players], len(CARDS) - players * HAND[players]
    start = (dealer + 1 + first) % players
    for k in range(players * size + 1):
        want = [size - k // players - ((s - start) % players < k % players) for s in range(players)]
        if (start + k) % players == turn and all(len(h) == want[s] for s, h in hands.items()):
            return want
    return [len(hands[turn]) if turn in hands else size] * players


def code_of(state, seat, move) -> str:
    with pytest.raises(IllegalMove) as err:
        ENGINE.check(state, seat, move)
    return err.value.code


def lays(moves):
    return sorted(m.card for m in moves if isinstance(m, Lay))


def twists(moves):
    return sorted(m.card for m in moves if isinstance(m, Twist))


def takes(moves):
    return sorted((m.card for m in moves if isinstance(m, Take)), key=lambda c: -1 if c is None else c)


# --------------------------------------------------------------------------- the deck (TT-12)


def test_deck_has_79_cards_seven_toads_and_36_twin_pairs():
    """TT-12: 12..98 without multiples of 10; toads 22..88; every other card has one twin."""
    state = ENGINE.new(2, seed=1)
    everything = [*state.stock, *state.row, *(c for h in state.hands for c in h)]
    assert sorted(everything) == CARDS and len(CARDS) == 79
    assert {c for c in CARDS if is_toad(c)} == {22, 33, 44, 55, 66, 77, 88}
    pairs = {frozenset((c, twin(c))) for c in CARDS if not is_toad(c)}
    assert len(pairs) == 36
    assert all(twin(c) in CARDS and twin(c) != c for c in CARDS if not is_toad(c))
    assert twin(49) == 94 and twin(12) == 21 and twin(19) == 91


@pytest.mark.parametrize(("players", "hand", "pile"), [(2, 9, 61), (3, 9, 52), (4, 8, 47)])
def test_deal_gives_nine_or_eight_cards_and_the_rest_is_the_pile(players, hand, pile):
    """§3: 9 cards each to 2-3 players, 8 to 4; the seat left of the dealer starts."""
    state = ENGINE.new(players, seed=players)
    assert [len(h) for h in state.hands] == [hand] * players
    assert len(state.stock) == pile and state.row == ()
    assert state.dealer == players - 1 and ENGINE.to_act(state) == {0}


# --------------------------------------------------------------------------- laying (TT-1, 2, 4, 5)


def test_empty_row_allows_laying_any_card_and_nothing_else():
    """TT-1: Alex (P0) starts, no card lies yet; he lays 34 and draws one.

        row:  (empty)
        P0:   12 13 14 15 16 17 18 19 34    pile top 98
    """
    hand = [12, 13, 14, 15, 16, 17, 18, 19, 34]
    rest = [c for c in CARDS if c not in hand]
    state = position(hands={0: hand}, stock=[c for c in rest if c != 98][9:] + [98])
    moves = ENGINE.legal_moves(state, 0)
    assert moves == tuple(Lay(c) for c in hand)
    assert code_of(state, 0, Take(12)) == "take-that.row-empty"
    assert code_of(state, 0, Twist(43)) == "take-that.row-empty"
    after = ENGINE.apply(state, 0, Lay(34))
    assert after.row == (34,)
    assert after.hands[0] == (12, 13, 14, 15, 16, 17, 18, 19, 98)
    assert len(after.stock) == len(state.stock) - 1 and ENGINE.to_act(after) == {1}


def test_lay_must_be_within_ten_of_the_rightmost_card_inclusive():
    """TT-2: Sarah (P1) faces 34; she may lay 24..44; she lays 41 and draws.

        row:  34
        P1:   23 24 29 41 43 44 45 52 67
    """
    hand = [23, 24, 29, 41, 43, 44, 45, 52, 67]
    state = position(row=[34], hands={1: hand}, turn=1)
    moves = ENGINE.legal_moves(state, 1)
    assert lays(moves) == [24, 29, 41, 43, 44]
    assert twists(moves) == [34]  # the row card 34 can be twisted: its twin 43 is in the hand
    assert code_of(state, 1, Lay(45)) == "take-that.not-in-range"
    assert code_of(state, 1, Lay(23)) == "take-that.not-in-range"
    assert code_of(state, 1, Lay(35)) == "take-that.card-not-in-hand"
    after = ENGINE.apply(state, 1, Lay(41))
    assert after.row == (34, 41) and len(after.hands[1]) == 9 and 41 not in after.hands[1]


def _layable_on(rightmost: int) -> list[int]:
    """Every card c for which Lay(c) is legal on ``rightmost``, asked one card at a time."""
    legal = []
    for c in CARDS:
        if c == rightmost:
            continue
        state = position(row=[rightmost], hands={0: [c]}, stock=[], dump=1)
        if ENGINE.is_legal(state, 0, Lay(c)):
            legal.append(c)
    return legal


def test_lay_range_at_the_low_end_has_no_wrap_around():
    """TT-4: rightmost 12: only 13-19, 21, 22 exist within 10 (nothing below 12, no wrap)."""
    assert _layable_on(12) == [13, 14, 15, 16, 17, 18, 19, 21, 22]


def test_lay_range_at_the_high_end_has_no_wrap_around():
    """TT-5: rightmost 98: only 88, 89, 91-97 exist within 10."""
    assert _layable_on(98) == [88, 89, 91, 92, 93, 94, 95, 96, 97]


# --------------------------------------------------------------------------- twisting (TT-3, 6, 7)


def test_twist_removes_a_row_card_anywhere_and_closes_the_gap():
    """TT-3: Marlena (P0) holds 94 and twists 49 out of the middle of the row.

        row:  31 49 57 62   ->   31 57 62
        P0 face up: 49 94 (+2); she draws one
    """
    hand = [14, 15, 16, 17, 18, 19, 23, 24, 94]
    state = position(row=[31, 49, 57, 62], hands={0: hand})
    assert twists(ENGINE.legal_moves(state, 0)) == [49]
    after = ENGINE.apply(state, 0, Twist(49))
    assert after.row == (31, 57, 62)
    assert sorted(after.face_up[0]) == [49, 94]
    assert 94 not in after.hands[0] and len(after.hands[0]) == 9
    assert ENGINE.scores(after).points[0] == 2
    assert code_of(state, 0, Twist(57)) == "take-that.twin-not-in-hand"
    assert code_of(state, 0, Twist(43)) == "take-that.not-in-row"


def test_toad_can_never_be_twisted():
    """TT-6: a toad (equal digits) in the row can never be twisted out, whatever the hand.

        row:  51 55 58
    """
    state = position(row=[51, 55, 58], hands={0: [12, 13, 14, 16, 17, 18, 19, 21, 85]})
    assert twists(ENGINE.legal_moves(state, 0)) == [58]
    assert code_of(state, 0, Twist(55)) == "take-that.toad-cannot-be-twisted"


def test_twisting_the_only_row_card_empties_the_row_and_next_player_opens_it():
    """TT-7: P0 holds 76 and twists the single row card 67; P1 must then lay any card.

        row:  67   ->   (empty)
    """
    state = position(row=[67], hands={0: [13, 14, 15, 16, 17, 18, 19, 21, 76]})
    after = ENGINE.apply(state, 0, Twist(67))
    assert after.row == () and after.phase is Phase.PLAY
    assert ENGINE.legal_moves(after, 1) == tuple(Lay(c) for c in after.hands[1])


# --------------------------------------------------------------------------- taking (TT-8, 10, 11)


def test_voluntary_take_although_a_lay_is_possible_then_open_a_new_row():
    """TT-8: P0 may take the row though 43 could be laid; minus 1+1+5+1+5 = 13.

        row:  34 41 44 38 33
        P0:   13 14 15 16 17 18 19 21 43   ->  takes, opens the new row with 17, draws
    """
    hand = [13, 14, 15, 16, 17, 18, 19, 21, 43]
    state = position(row=[34, 41, 44, 38, 33], hands={0: hand})
    moves = ENGINE.legal_moves(state, 0)
    assert lays(moves) == [43]
    assert takes(moves) == hand
    after = ENGINE.apply(state, 0, Take(17))
    assert after.face_down[0] == (34, 41, 44, 38, 33)
    assert after.row == (17,) and 17 not in after.hands[0] and len(after.hands[0]) == 9
    report = ENGINE.scores(after)
    assert report.points[0] == -13 and not report.final
    assert report.breakdown[0].face_down_points == -3 and report.breakdown[0].toad_points == -10
    assert ENGINE.to_act(after) == {1}
    assert code_of(state, 0, Take(None)) == "take-that.must-open-new-row"
    assert code_of(state, 0, Take(52)) == "take-that.card-not-in-hand"


def test_take_is_forced_when_nothing_can_be_laid_or_twisted():
    """§4.3: no hand card within 10 of 98 and no twin of a row card: only takes are legal.

        row:  12 98
        P0:   13 14 15 16 17 18 19 23 24
    """
    hand = [13, 14, 15, 16, 17, 18, 19, 23, 24]
    state = position(row=[12, 98], hands={0: hand})
    assert ENGINE.legal_moves(state, 0) == tuple(Take(c) for c in hand)


def test_empty_hand_and_empty_pile_force_a_take_that_ends_the_round():
    """TT-10: the pile is used up, row 52, P0's hand is empty: P0 must take; the round ends
    at once and no new row is opened.

        row:  52      pile: (empty)
        P0:   (empty)
    """
    state = position(row=[52], hands={0: []}, stock=[], round=2, history=[[0, 0]], options={"rounds": 3})
    assert ENGINE.legal_moves(state, 0) == (Take(None),)
    after = ENGINE.apply(state, 0, Take(None))
    assert after.phase is Phase.ROUND_OVER and after.row == ()
    assert 52 in after.face_down[0]
    assert ENGINE.round_over(after) and ENGINE.to_act(after) == {0, 1}
    assert ENGINE.outcome(after) is None and ENGINE.scores(after).final


def test_take_with_an_empty_pile_opens_no_new_row():
    """§5.1: once the pile is used up a take ends the round, so it names no card.

        row:  52 47      pile: (empty)
        P0:   13 14
    """
    state = position(row=[52, 47], hands={0: [13, 14]}, stock=[])
    assert takes(ENGINE.legal_moves(state, 0)) == [None]
    assert code_of(state, 0, Take(13)) == "take-that.no-new-row-at-end"


def test_professional_take_of_a_single_card_also_takes_the_pile_top():
    """TT-11: professional; row 67; pile top 33: P0 takes 67 and 33 face down (-6), opens a new
    row with 13 and draws the next card (25).

        row:  67      pile: ... 25 33 (top)
    """
    hand = [13, 14, 15, 16, 17, 18, 19, 21, 23]
    rest = [c for c in CARDS if c not in hand + [67, 33, 25]]
    deck = rest[10:] + [25, 33]
    state = position(row=[67], hands={0: hand}, stock=deck, options={"professional": True})
    after = ENGINE.apply(state, 0, Take(13))
    assert after.face_down[0] == (67, 33)
    assert ENGINE.scores(after).points[0] == -6
    assert after.row == (13,) and 25 in after.hands[0] and len(after.hands[0]) == 9
    assert len(after.stock) == len(deck) - 2
    plain = ENGINE.apply(position(row=[67], hands={0: hand}, stock=deck), 0, Take(13))
    assert plain.face_down[0] == (67,) and 33 in plain.hands[0]


def test_professional_take_of_a_longer_row_costs_no_extra_card():
    """§6.1: only a one-card row costs the pile top.

        row:  67 71
    """
    state = position(row=[67, 71], hands={0: [13, 14, 15, 16, 17, 18, 19, 21, 23]},
                     options={"professional": True})
    after = ENGINE.apply(state, 0, Take(13))
    assert after.face_down[0] == (67, 71) and len(after.stock) == len(state.stock) - 1


def test_professional_take_with_an_empty_pile_ends_the_round_without_extra_card():
    """§6.2: the pile is used up, so the take ends the round; there is no card to add.

        row:  67      pile: (empty)
    """
    state = position(row=[67], hands={0: [13, 14]}, stock=[], options={"professional": True})
    after = ENGINE.apply(state, 0, Take(None))
    assert after.face_down[0] == (67,) and after.phase is Phase.ROUND_OVER


def test_professional_take_of_the_last_pile_card_still_opens_a_new_row():
    """§6.1: with one card left, the professional extra card uses it up; the taker still opens
    the new row (the pile was not used up when the take began) and draws nothing.

        row:  67      pile: 33 (last)
    """
    hand = [13, 14, 15, 16, 17, 18, 19, 21, 23]
    state = position(row=[67], hands={0: hand}, stock=[33], options={"professional": True})
    after = ENGINE.apply(state, 0, Take(13))
    assert after.face_down[0] == (67, 33) and after.row == (13,) and after.stock == ()
    assert len(after.hands[0]) == 8 and after.phase is Phase.PLAY


# --------------------------------------------------------------------------- end of round (TT-9)


def test_round_score_is_face_up_minus_face_down_with_toads_five():
    """TT-9: Sara has +12 face up and -17 face down (7 cards and 2 toads): round -5."""
    face_up = [12, 21, 13, 31, 14, 41, 15, 51, 16, 61, 17, 71]
    face_down = [23, 24, 25, 26, 27, 28, 29, 33, 44]
    report = ENGINE.score_tally({"seats": [{"face_up": face_up, "face_down": face_down},
                                           {"face_up": [], "face_down": [55]}]})
    assert report.points == (-5, -5) and report.totals == (-5, -5)
    assert report.to_json()["breakdown"][0] == {
        "face_up": 12, "face_up_points": 12, "face_down": 7, "face_down_points": -7,
        "toads_face_down": 2, "toad_points": -10, "points": -5,
    }
    assert report.final and report.winners == (0, 1) and report.round == 1 and report.history == ()


def test_round_ends_when_the_last_draw_leaves_the_row_empty():
    """§5.2 (default): P0 twists the single row card and draws the last pile card: the
    pile is used up and the row empty, so the round is over at once.

        row:  67      pile: 98 (last)
    """
    hand = [13, 14, 15, 16, 17, 18, 19, 21, 76]
    state = position(row=[67], hands={0: hand}, stock=[98])
    after = ENGINE.apply(state, 0, Twist(67))
    assert after.phase is Phase.ROUND_OVER and 98 in after.hands[0]


def test_option_continue_after_last_draw_empties_the_row():
    """§5.2 alternative: the next player opens a new row; the round ends when a turn that
    began with an empty pile leaves the row empty.

        row:  67      pile: 98 (last)
    """
    hand = [13, 14, 15, 16, 17, 18, 19, 21, 76]
    opts = {"end_when_last_draw_empties_row": False}
    state = position(row=[67], hands={0: hand}, stock=[98], options=opts)
    after = ENGINE.apply(state, 0, Twist(67))
    assert after.phase is Phase.PLAY and after.row == () and ENGINE.to_act(after) == {1}
    opened = ENGINE.apply(after, 1, ENGINE.legal_moves(after, 1)[0])
    assert opened.row and len(opened.hands[1]) == 8
    taken = ENGINE.apply(opened, 0, Take(None))
    assert taken.phase is Phase.ROUND_OVER


def test_round_continues_with_shrinking_hands_after_the_pile_is_used_up():
    """§5.1: with the pile used up nobody draws; a lay leaves the hand one card shorter.

        row:  52      pile: (empty)
        P0:   13 47
    """
    state = position(row=[52], hands={0: [13, 47]}, stock=[])
    after = ENGINE.apply(state, 0, Lay(47))
    assert after.hands[0] == (13,) and after.phase is Phase.PLAY and ENGINE.to_act(after) == {1}


# --------------------------------------------------------------------------- rounds and game


def _finish_round(state, rnd: random.Random):
    while state.phase is Phase.PLAY:
        seat = next(iter(ENGINE.to_act(state)))
        state = ENGINE.apply(state, seat, rnd.choice(ENGINE.legal_moves(state, seat)))
    return state


def test_two_rounds_then_the_highest_total_wins():
    """§7.2: two rounds by default; round scores add up; the dealer moves on (§7.1)."""
    rnd = random.Random(5)
    state = _finish_round(ENGINE.new(3, seed=5), rnd)
    first = ENGINE.scores(state).points
    assert ENGINE.to_act(state) == {0, 1, 2} and ENGINE.outcome(state) is None
    assert code_of(state, 2, Lay(state.hands[2][0])) == "take-that.round-over"
    state = ENGINE.apply(state, 2, NextRound())
    assert state.round == 2 and state.dealer == 0 and ENGINE.to_act(state) == {1}
    assert state.history == (first,) and state.face_down == ((), (), ())
    assert sum(map(len, state.hands)) == 27 and len(state.stock) == 52
    state = _finish_round(state, rnd)
    report = ENGINE.scores(state)
    totals = tuple(a + b for a, b in zip(first, report.points, strict=True))
    assert report.totals == totals and report.final
    outcome = ENGINE.outcome(state)
    assert outcome is not None and ENGINE.to_act(state) == frozenset() and state.phase is Phase.GAME_OVER
    assert outcome.winners == report.winners == tuple(s for s in range(3) if totals[s] == max(totals))
    assert report.round == 2 and report.history == (first,)
    with pytest.raises(GameOver) as err:
        ENGINE.check(state, 0, NextRound())
    assert err.value.code == "take-that.game-over"


def test_next_round_is_refused_while_the_round_is_played():
    """Round flow: next-round is only for a finished round."""
    state = ENGINE.new(2, seed=3)
    assert code_of(state, 0, NextRound()) == "take-that.round-not-over"


def test_option_rounds_sets_the_number_of_rounds():
    """§7.2 'players may agree on more': rounds=1 ends after one round, rounds=3 after three."""
    rnd = random.Random(1)
    one = _finish_round(ENGINE.new(2, seed=1, options={"rounds": 1}), rnd)
    assert ENGINE.outcome(one) is not None and ENGINE.to_act(one) == frozenset()
    state = ENGINE.new(2, seed=2, options={"rounds": 3})
    for expected_round in (1, 2, 3):
        assert state.round == expected_round
        state = _finish_round(state, rnd)
        if expected_round < 3:
            assert ENGINE.outcome(state) is None
            state = ENGINE.apply(state, 1, NextRound())
    assert ENGINE.outcome(state) is not None and len(state.history) == 3
    with pytest.raises(InvalidOption) as err:
        ENGINE.new(2, seed=1, options={"rounds": 0})
    assert err.value.code == "options.out-of-range"


def test_option_next_dealer_same_keeps_the_dealer():
    """§7.1 alternative: the same dealer deals again; the seat to its left starts."""
    rnd = random.Random(4)
    state = _finish_round(ENGINE.new(4, seed=4, options={"next_dealer": "same"}), rnd)
    state = ENGINE.apply(state, 0, NextRound())
    assert state.dealer == 3 and ENGINE.to_act(state) == {0}
    assert [len(h) for h in state.hands] == [8, 8, 8, 8]


def _final(totals_before, face_up, face_down, tie_break):
    return position(
        players=2, row=[], stock=[], hands={0: [], 1: []}, face_up=face_up, face_down=face_down,
        phase="game-over", round=2, history=[totals_before], options={"tie_break": tie_break}, dump=1,
    )


def test_tied_totals_share_the_victory_unless_the_last_round_breaks_the_tie():
    """§7.3: equal totals share the win; option tie_break='last-round' prefers the better
    last round.

        round 2, P0: face up 13 31 14 41 15 51 (+6), face down 9 plain cards (-9): -3
                 P1: face down every other card: X;  earlier rounds chosen so both totals tie
    """
    face_up = {0: [13, 31, 14, 41, 15, 51]}
    p0_down = [c for c in CARDS if not is_toad(c) and c not in face_up[0]][:9]
    probe = _final([0, 0], face_up, {0: p0_down}, "shared")
    p1_round = ENGINE.scores(probe).points[1]
    assert ENGINE.scores(probe).points[0] == -3 and p1_round < -3
    shared = _final([p1_round + 3, 0], face_up, {0: p0_down}, "shared")
    report = ENGINE.scores(shared)
    assert report.totals == (p1_round, p1_round) and report.winners == (0, 1)
    assert ENGINE.outcome(shared).winners == (0, 1) and not ENGINE.outcome(shared).draw
    broken = _final([p1_round + 3, 0], face_up, {0: p0_down}, "last-round")
    assert ENGINE.outcome(broken).winners == (0,) and ENGINE.scores(broken).winners == (0,)


# --------------------------------------------------------------------------- options


def test_option_professional_twist_penalty_costs_the_pile_top():
    """§6.3: by default twisting away a one-card row costs nothing; with the option (and
    the professional variant) the top pile card goes face down.

        row:  67      pile: ... 25 33 (top)     P0 holds 76
    """
    hand = [13, 14, 15, 16, 17, 18, 19, 21, 76]
    rest = [c for c in CARDS if c not in hand + [67, 33, 25]]
    deck = rest[10:] + [25, 33]
    for opts, down, drawn in (
        ({"professional": True}, (), 33),
        ({"professional": True, "professional_twist_penalty": True}, (33,), 25),
        ({"professional": False, "professional_twist_penalty": True}, (), 33),
    ):
        after = ENGINE.apply(position(row=[67], hands={0: hand}, stock=deck, options=opts), 0, Twist(67))
        assert after.face_down[0] == down, opts
        assert drawn in after.hands[0], opts


def test_twist_of_a_longer_row_never_costs_an_extra_card():
    """§6.3: the penalty (when on) is only for a one-card row.

        row:  67 71      P0 holds 76
    """
    hand = [13, 14, 15, 16, 17, 18, 19, 21, 76]
    opts = {"professional": True, "professional_twist_penalty": True}
    after = ENGINE.apply(position(row=[67, 71], hands={0: hand}, options=opts), 0, Twist(67))
    assert after.face_down[0] == () and after.row == (71,)


def test_options_are_echoed_and_validated():
    state = ENGINE.new(2, seed=1, options={"professional": True, "face_down_view": "own"})
    assert ENGINE.options_of(state) == {**DEFAULT_OPTIONS, "professional": True, "face_down_view": "own"}
    for bad, code in (({"tie_break": "coin"}, "options.bad-value"), ({"professional": 1}, "options.bad-type"),
                      ({"nope": True}, "options.unknown")):
        with pytest.raises(InvalidOption) as err:
            ENGINE.new(2, seed=1, options=bad)
        assert err.value.code == code
    with pytest.raises(InvalidOption) as err:
        ENGINE.new(2, seed=1, setup={"dealer": 0})
    assert err.value.code == "take-that.setup-unsupported"


# --------------------------------------------------------------------------- views


def _midgame():
    """row 34 41; P0 took 12 21 13 face down; P1 twisted 14/41 face up."""
    return position(row=[34, 43], hands={0: [15, 16, 17, 18, 19, 23, 24, 25, 26]},
                    face_up={1: [14, 41]}, face_down={0: [12, 21, 13]}, turn=1)


def test_view_hides_other_hands_the_pile_and_face_down_cards():
    """§9: hands and face-down cards are private; the row, face-up cards and counts public."""
    state = _midgame()
    view = ENGINE.view(state, 0)
    assert "rng" not in view and view["stock"] is None and view["stock_size"] == len(state.stock)
    assert view["hands"] == [list(state.hands[0]), None] and view["hand_sizes"] == [9, 9]
    assert view["face_down"] == [None, None] and view["face_down_sizes"] == [3, 0]
    assert view["face_up"] == [[], [14, 41]]
    assert view["row"] == [34, 43]
    public = ENGINE.view(state, None)
    assert public["hands"] == [None, None] and public["hand_sizes"] == [9, 9]
    assert public["face_down"] == [None, None] and public["face_down_sizes"] == [3, 0]
    hidden = {*state.stock, *state.hands[1], 12, 21, 13}
    assert not hidden & _listed_numbers(view)
    assert not (hidden | set(state.hands[0])) & _listed_numbers(public)


def _listed_numbers(data) -> set[int]:
    """Every integer inside a list anywhere in ``data`` (cards are only ever listed)."""
    found: set[int] = set()

    def walk(x, in_list):
        if isinstance(x, dict):
            for v in x.values():
                walk(v, False)
        elif isinstance(x, list):
            for v in x:
                walk(v, True)
        elif isinstance(x, int) and in_list:
            found.add(x)

    walk(data, False)
    return found


def test_option_face_down_view_own_and_open():
    """§9 alternatives: 'own' shows each seat its own face-down cards; 'open' shows all."""
    own = _with_options(_midgame(), face_down_view="own")
    assert ENGINE.view(own, 0)["face_down"] == [[12, 21, 13], None]
    assert ENGINE.view(own, 1)["face_down"] == [None, []]
    assert ENGINE.view(own, None)["face_down"] == [None, None]
    opened = _with_options(_midgame(), face_down_view="open")
    assert ENGINE.view(opened, None)["face_down"] == [[12, 21, 13], []]


def _with_options(state, **changes):
    data = ENGINE.to_json(state)
    data["options"].update(changes)
    return ENGINE.from_json(data)


def test_face_down_cards_are_revealed_once_the_round_is_over():
    """§9: face-down piles are revealed at scoring; hands stay hidden."""
    state = position(row=[52], hands={0: [], 1: []}, stock=[], round=2, history=[[0, 0]])
    after = ENGINE.apply(state, 0, Take(None))
    view = ENGINE.view(after, None)
    assert view["face_down"][0] == list(after.face_down[0])
    assert view["hands"] == [None, None] and view["hand_sizes"] == [0, 0]


# --------------------------------------------------------------------------- errors and JSON


def test_move_from_json_rejects_malformed_moves():
    assert ENGINE.move_from_json({"kind": "lay", "card": 34}) == Lay(34)
    assert ENGINE.move_from_json({"kind": "twist", "card": 49}) == Twist(49)
    assert ENGINE.move_from_json({"kind": "take", "card": 12}) == Take(12)
    assert ENGINE.move_from_json({"kind": "take"}) == Take(None)
    assert ENGINE.move_from_json({"kind": "next-round"}) == NextRound()
    for bad in (None, [], {"kind": "play"}, {"kind": "lay"}, {"kind": "lay", "card": 40},
                {"kind": "lay", "card": "34"}, {"kind": "lay", "card": True}, {"kind": "lay", "card": 99},
                {"kind": "next-round", "card": 12}, {"kind": "twist", "card": 49, "extra": 1}):
        with pytest.raises(IllegalMove) as err:
            ENGINE.move_from_json(bad)
        assert err.value.code == "take-that.malformed-move", bad
        assert err.value.context["field"] in ("kind", "card", ""), (bad, err.value.context)


def test_wrong_seat_is_refused():
    state = ENGINE.new(3, seed=9)
    with pytest.raises(NotYourTurn) as err:
        ENGINE.check(state, 2, Lay(state.hands[2][0]))
    assert err.value.code == "take-that.not-your-turn"
    assert ENGINE.legal_moves(state, 2) == ()


def _tamper(mutate):
    data = ENGINE.to_json(_midgame())
    mutate(data)
    with pytest.raises(InvalidState) as err:
        ENGINE.from_json(data)
    return err.value.code


@pytest.mark.parametrize(("mutate", "code"), [
    (lambda d: d["stock"].pop(), "take-that.missing-card"),
    (lambda d: d["row"].append(d["stock"][0]), "take-that.duplicate-card"),
    (lambda d: d["hands"][1].__setitem__(0, 40), "take-that.bad-state"),
    (lambda d: d["hands"][1].__setitem__(0, True), "take-that.bad-state"),
    (lambda d: d.__setitem__("turn", 2), "take-that.bad-turn"),
    (lambda d: d.__setitem__("players", 5), "take-that.bad-state"),
    (lambda d: d["face_down"][0].append(d["hands"][1].pop()), "take-that.bad-hand-size"),
    (lambda d: d["face_up"][1].remove(41) or d["stock"].append(41), "take-that.bad-face-up"),
    (lambda d: d.update(phase="round-over", turn=None), "take-that.bad-phase"),
    (lambda d: d.update(phase="round-over"), "take-that.bad-turn"),
    (lambda d: d.update(phase="game-over", turn=None), "take-that.bad-phase"),
    (lambda d: d.__setitem__("phase", "over"), "take-that.bad-state"),
    (lambda d: d["options"].__setitem__("tie_break", "dice"), "take-that.bad-state"),
    (lambda d: d["options"].pop("rounds"), "take-that.bad-state"),
    (lambda d: d.__setitem__("round", 3), "take-that.bad-round"),
    (lambda d: d.__setitem__("history", [[1, 2]]), "take-that.bad-history"),
    (lambda d: d.pop("rng"), "take-that.bad-state"),
    (lambda d: d["hands"].append([]), "take-that.seat-count"),
    (lambda d: d.__setitem__("row", "34"), "take-that.bad-state"),
    (lambda d: d["rng"].__setitem__("key", "x"), "take-that.bad-state"),
    (lambda d: d["rng"].__setitem__("v", 2), "take-that.bad-state"),
])
def test_from_json_rejects_tampered_states(mutate, code):
    """Conservation (79 cards, no duplicates), full hands while the pile lasts, twin pairs face
    up, a consistent turn and phase, valid options; anything not of the declared shape is
    ``bad-state`` naming the field."""
    assert _tamper(mutate) == code


def test_from_json_rejects_toads_face_up_and_an_unended_round():
    data = ENGINE.to_json(_midgame())
    toad = next(c for c in data["stock"] if is_toad(c))
    data["face_up"][1] += [toad]
    data["stock"].remove(toad)
    with pytest.raises(InvalidState) as err:
        ENGINE.from_json(data)
    assert err.value.code == "take-that.bad-face-up"
    with pytest.raises(InvalidState) as err:
        position(row=[], hands={0: [13]}, stock=[])
    assert err.value.code == "take-that.bad-phase"


def test_from_json_never_raises_anything_but_invalid_state_on_junk():
    """Hostile clients: random structural damage only ever gives InvalidState."""
    rnd = random.Random(0)
    base = ENGINE.to_json(_midgame())
    junk = [None, 0, -1, 1.5, "x", [], {}, [None], True, 10**20]
    rejected = 0
    for _ in range(400):
        data = copy.deepcopy(base)
        target, key = data, rnd.choice(list(data))
        while isinstance(target[key], dict | list) and target[key] and rnd.random() < 0.6:
            target = target[key]
            key = rnd.choice(list(target)) if isinstance(target, dict) else rnd.randrange(len(target))
        target[key] = rnd.choice(junk)
        try:
            ENGINE.from_json(data)
        except InvalidState as exc:
            rejected += 1
            assert exc.code.startswith("take-that."), exc.code
    assert rejected > 300  # almost every damage is caught; the rest (e.g. rng counter 0) is harmless
    for bad in (None, [], "state", 12):
        with pytest.raises(InvalidState) as err:
            ENGINE.from_json(bad)
        assert err.value.code == "take-that.bad-state" and err.value.context["field"] == "state"


# --------------------------------------------------------------------------- tally


@pytest.mark.parametrize(("tally", "code"), [
    ({"seats": [{"face_up": [12], "face_down": []}, {"face_up": [], "face_down": []}]}, "take-that.bad-face-up"),
    ({"seats": [{"face_up": [22, 22], "face_down": []}, {"face_up": [], "face_down": []}]}, "take-that.bad-face-up"),
    ({"seats": [{"face_up": [], "face_down": [13]}, {"face_up": [], "face_down": [13]}]},
     "take-that.duplicate-card"),
    ({"seats": [{"face_up": [], "face_down": [40]}, {"face_up": [], "face_down": []}]}, "take-that.bad-tally"),
    ({"seats": [{"face_up": [], "face_down": []}]}, "take-that.bad-tally"),
    ({"seats": [{"face_up": []}, {"face_up": [], "face_down": []}]}, "take-that.bad-tally"),
    ({"seats": [{"face_up": [], "face_down": []}] * 2, "previous": [1]}, "take-that.bad-tally"),
    ("tally", "take-that.bad-tally"),
])
def test_tally_rejects_impossible_sheets(tally, code):
    with pytest.raises(InvalidState) as err:
        ENGINE.score_tally(tally)
    assert err.value.code == code


def test_tally_adds_previous_totals_and_breaks_ties_on_request():
    """§7.2: totals over rounds; §7.3 tie-break 'last-round'."""
    seats = [{"face_up": [12, 21], "face_down": [33]}, {"face_up": [], "face_down": [14, 15]}]
    report = ENGINE.score_tally({"seats": seats, "previous": [0, -1]})
    assert report.points == (-3, -2) and report.totals == (-3, -3)
    assert report.winners == (0, 1)
    assert report.history == ((0, -1),) and report.round == 2
    broken = ENGINE.score_tally({"seats": seats, "previous": [0, -1], "tie_break": "last-round"})
    assert broken.winners == (1,)


# --------------------------------------------------------------------------- playouts, schemas


def _playout_states(seed: int, players: int, options: dict):
    rnd = random.Random(seed)
    state = ENGINE.new(players, seed=seed, options=options)
    while ENGINE.to_act(state):
        seat = rnd.choice(sorted(ENGINE.to_act(state)))
        moves = ENGINE.legal_moves(state, seat)
        yield state, seat, moves
        state = ENGINE.apply(state, seat, rnd.choice(moves))
    yield state, None, ()


def _brute_force_moves(state, seat):
    """The rules of §4 read literally, card by card (an independent second reading)."""
    hand, row = set(state.hands[seat]), state.row
    if state.phase is Phase.ROUND_OVER:
        return {("next-round", None)}
    if not row:
        return {("lay", c) for c in hand}
    out = {("lay", c) for c in CARDS if c in hand and row[-1] - 10 <= c <= row[-1] + 10}
    out |= {("twist", r) for r in row if r // 10 != r % 10 and int(str(r)[::-1]) in hand}
    out |= {("take", c) for c in hand} if state.stock else {("take", None)}
    return out


OPTION_MIXES = [
    {},
    {"professional": True, "professional_twist_penalty": True, "end_when_last_draw_empties_row": False},
    {"professional": True, "next_dealer": "same", "tie_break": "last-round", "face_down_view": "open"},
    {"rounds": 3, "end_when_last_draw_empties_row": False, "face_down_view": "own"},
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTION_MIXES)
def test_random_playouts_conserve_cards_and_agree_with_a_literal_reading(players, options):
    """79 cards always; legal moves are exactly the literal rules; every state and move reads
    back as itself; games end well inside the 4000-move cap."""
    for seed in range(2):
        count = 0
        for state, seat, moves in _playout_states(seed * 7 + players, players, options):
            count += 1
            piles = [*state.stock, *state.row, *(c for group in (state.hands, state.face_up, state.face_down)
                                                 for p in group for c in p)]
            assert sorted(piles) == CARDS
            data = ENGINE.to_json(state)
            assert ENGINE.from_json(json.loads(json.dumps(data))) == state
            if seat is None:
                continue
            assert {(m.kind, getattr(m, "card", None)) for m in moves} == _brute_force_moves(state, seat)
            for move in moves:
                assert ENGINE.move_from_json(json.loads(json.dumps(ENGINE.move_to_json(move)))) == move
        assert count - 1 <= 81 * state.options.rounds - 1  # the bound in the module docstring
        assert ENGINE.outcome(state) is not None


def test_tally_shape_accepts_a_sheet_and_names_what_is_wrong():
    sheet = {"seats": [{"face_up": [12, 21], "face_down": [33]}, {"face_up": [], "face_down": [14]}],
             "previous": [3, -2], "tie_break": "last-round"}
    assert ENGINE.score_tally(sheet).totals == (3 + 2 - 5, -2 - 1)
    for bad, field in (({"seats": [], "extra": 1}, "tally"), ({"seats": []}, "tally.seats"),
                       ({**sheet, "tie_break": "dice"}, "tally.tie_break"),
                       ({"seats": [{"face_up": [20], "face_down": []}] * 2}, "tally.seats.0.face_up.0")):
        err = raise_of(lambda bad=bad: ENGINE.score_tally(bad))
        assert err.code == "take-that.bad-tally" and err.context["field"] == field, (bad, err)


def test_engine_is_registered():
    assert ENGINES["take-that"] is ENGINE
    assert ENGINE.players == range(2, 5)


def test_events_name_the_taken_row_the_twisted_pair_and_the_draw():
    """A professional take of a one-card row: the row, one unseen extra card, a draw.

        row:  67      pile: ... 25 33 (top)
    """
    hand = [13, 14, 15, 16, 17, 18, 19, 21, 76]
    rest = [c for c in CARDS if c not in hand + [67, 33, 25]]
    state = position(row=[67], hands={0: hand}, stock=rest[10:] + [25, 33], options={"professional": True})
    after = ENGINE.apply(state, 0, Take(13))
    assert ENGINE.events(state, 0, Take(13), after) == [
        {"type": "move", "seat": 0, "move": {"kind": "take", "card": 13}},
        {"type": "row-taken", "seat": 0, "cards": [67], "extra_face_down": 1},
        {"type": "drew", "seat": 0, "stock": len(state.stock) - 2},
    ]
    twisted = ENGINE.apply(state, 0, Twist(67))
    assert [e["type"] for e in ENGINE.events(state, 0, Twist(67), twisted)] == ["move", "twisted", "drew"]
    last = position(row=[52], hands={0: []}, stock=[], round=2, history=[[0, 0]], options={"rounds": 3})
    over = ENGINE.apply(last, 0, Take(None))
    assert [e["type"] for e in ENGINE.events(last, 0, Take(None), over)] == ["move", "row-taken", "round-over"]


# --------------------------------------------------------------------------- review additions


def test_twisting_the_rightmost_card_makes_the_card_before_it_the_reference():
    """§4.1 + §4.2: the gap closes, so after the rightmost card is twisted away the
    next lay is judged against the card that is now rightmost.

        row:  34 49      P0 holds 94      ->   row: 34; P1 may lay 24..44 only (not 39..59)
        P1:   25 44 45 52 53 56 57 58 59
    """
    p0 = [13, 14, 15, 16, 17, 18, 19, 21, 94]
    p1 = [25, 44, 45, 52, 53, 56, 57, 58, 59]
    state = position(row=[34, 49], hands={0: p0, 1: p1})
    before = position(row=[34, 49], hands={0: p0, 1: p1}, turn=1)
    assert lays(ENGINE.legal_moves(before, 1)) == [44, 45, 52, 53, 56, 57, 58, 59]
    after = ENGINE.apply(state, 0, Twist(49))
    assert after.row == (34,)
    assert lays(ENGINE.legal_moves(after, 1)) == [25, 44]
    assert code_of(after, 1, Lay(45)) == "take-that.not-in-range"


def test_twisting_the_last_row_card_with_the_pile_used_up_ends_the_round():
    """§5.1: after the pile is used up the round ends at once when the row becomes empty,
    also when its last card is twisted away (B); nobody opens a new row.

        row:  67      pile: (empty)      P0: 13 76
    """
    state = position(row=[67], hands={0: [13, 76], 1: [14, 15]}, stock=[], round=2, history=[[0, 0]])
    after = ENGINE.apply(state, 0, Twist(67))
    assert ENGINE.round_over(after) and after.phase is Phase.GAME_OVER and after.row == ()  # round 2 of 2
    assert after.hands[0] == (13,) and sorted(after.face_up[0]) == [67, 76]
    assert ENGINE.scores(after).points[0] == 2


def test_four_players_draw_back_up_to_eight_after_every_kind_of_turn():
    """§3 / §4: with 4 players a hand is 8 cards; a lay, a twist and a take with its
    follow-up lay each end with one draw, back to 8 while the pile lasts.

        row:  34 49
        P0: lays 41; P1: twists 49 with 94; P2: takes 34 41 and opens with its first card
    """
    state = position(players=4, row=[34, 49], hands={0: [12, 13, 14, 15, 16, 17, 18, 41],
                                                      1: [19, 21, 23, 24, 25, 26, 27, 94]})
    deck = len(state.stock)
    state = ENGINE.apply(state, 0, Lay(41))
    state = ENGINE.apply(state, 1, Twist(49))
    assert state.row == (34, 41)
    opener = state.hands[2][0]
    state = ENGINE.apply(state, 2, Take(opener))
    assert state.row == (opener,) and state.face_down[2] == (34, 41)
    assert [len(h) for h in state.hands] == [8, 8, 8, 8]
    assert len(state.stock) == deck - 3 and ENGINE.to_act(state) == {3}


# --------------------------------------------------------------------------- code catalogue (DESIGN 4.4)


def _tampered(mutate) -> dict:
    data = ENGINE.to_json(_midgame())
    mutate(data)
    return data


def _over():
    """row: (empty), stock used up: round 1 of 2 is over."""
    return ENGINE.apply(position(row=[52], hands={0: []}, stock=[], round=2, history=[[0, 0]],
                                 options={"rounds": 3}), 0, Take(None))


def _tt2():
    """TT-2: row 34; P1 holds 23 24 29 41 43 44 45 52 67."""
    return position(row=[34], hands={1: [23, 24, 29, 41, 43, 44, 45, 52, 67]}, turn=1)


#: one real raise of every catalogued code: the action and the code it must raise
TRIGGERS = {
    "not-your-turn": lambda: ENGINE.check(ENGINE.new(3, seed=9), 2, Lay(13)),
    "game-over": lambda: ENGINE.check(_final([0, 0], {}, {}, "shared"), 0, NextRound()),
    "no-such-seat": lambda: BINDINGS["take-that"].view(ENGINE.new(3, seed=1), 3),
    "malformed-move": lambda: ENGINE.move_from_json({"kind": "fly"}),
    "round-not-over": lambda: ENGINE.check(ENGINE.new(2, seed=3), 0, NextRound()),
    "round-over": lambda: ENGINE.check(_over(), 0, Lay(13)),
    "card-not-in-hand": lambda: ENGINE.check(_tt2(), 1, Lay(35)),
    "not-in-range": lambda: ENGINE.check(_tt2(), 1, Lay(45)),
    "row-empty": lambda: ENGINE.check(ENGINE.new(2, seed=3), 0, Take(None)),
    "not-in-row": lambda: ENGINE.check(_midgame(), 1, Twist(49)),
    "toad-cannot-be-twisted": lambda: ENGINE.check(
        position(row=[51, 55, 58], hands={0: [12, 13, 14, 16, 17, 18, 19, 21, 85]}), 0, Twist(55)),
    "twin-not-in-hand": lambda: ENGINE.check(_midgame(), 1, Twist(34)),
    "must-open-new-row": lambda: ENGINE.check(_midgame(), 1, Take(None)),
    "no-new-row-at-end": lambda: ENGINE.check(position(row=[52, 47], hands={0: [13, 14]}, stock=[]), 0, Take(13)),
    "setup-unsupported": lambda: ENGINE.new(2, seed=1, setup={"dealer": 0}),
    "bad-state": lambda: ENGINE.from_json([]),
    "seat-count": lambda: ENGINE.from_json(_tampered(lambda d: d["face_up"].append([]))),
    "bad-round": lambda: ENGINE.from_json(_tampered(lambda d: d.update(round=3))),
    "bad-dealer": lambda: ENGINE.from_json(_tampered(lambda d: d.update(dealer=0))),
    "bad-turn": lambda: ENGINE.from_json(_tampered(lambda d: d.update(turn=0))),
    "bad-phase": lambda: ENGINE.from_json(_tampered(lambda d: d.update(phase="round-over", turn=None))),
    "duplicate-card": lambda: ENGINE.from_json(_tampered(lambda d: d["row"].append(d["stock"][0]))),
    "missing-card": lambda: ENGINE.from_json(_tampered(lambda d: d["stock"].pop())),
    "bad-face-up": lambda: ENGINE.from_json(_tampered(lambda d: d["face_up"][1].remove(41) or d["stock"].append(41))),
    "bad-hand-size": lambda: ENGINE.from_json(_tampered(lambda d: d["face_down"][0].append(d["hands"][1].pop()))),
    "bad-history": lambda: ENGINE.from_json(_tampered(lambda d: d.update(history=[[1, 2]]))),
    "bad-tally": lambda: ENGINE.score_tally({"seats": []}),
}


def test_every_declared_code_has_a_real_trigger():
    """DESIGN 4.4: the codes are declared once (``take_that.C``, typed, so nothing raises a code
    it did not declare); each one has a real raise here."""
    assert {f"take-that.{name}" for name in TRIGGERS} == set(ENGINE.codes)


@pytest.mark.parametrize("name", sorted(TRIGGERS))
def test_each_code_is_raised_with_the_context_its_polish_detail_needs(name):
    """A real raise of each code; its Polish detail formats with the raise's context."""
    check_raise(ENGINE, f"take-that.{name}", raise_of(TRIGGERS[name]))


def test_codes_raised_while_playing_are_catalogued():
    """By playing: every refusal met by checking unlisted moves on random states is catalogued."""
    rnd = random.Random(12)
    seen = set()
    state = ENGINE.new(3, seed=12)
    while ENGINE.to_act(state):
        seat = min(ENGINE.to_act(state))
        moves = (Lay(rnd.choice(CARDS)), Twist(rnd.choice(CARDS)), Take(rnd.choice([None, *CARDS])), NextRound())
        seen |= codes_checked(ENGINE, state, moves, seats=(seat, (seat + 1) % 3))
        state = ENGINE.apply(state, seat, rnd.choice(ENGINE.legal_moves(state, seat)))
    assert seen <= set(ENGINE.codes) and len(seen) >= 8
