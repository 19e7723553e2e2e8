"""Scenario tests for 11 nimmt! ("Rules §n" is docs/rules/11-nimmt.md; vectors 11N-1..13 are the rulebook's examples and edge cases).

Positions are drawn as ``stack i: bottom .. top``; ``hand sN`` is seat N's hand. Cards not
named in a position lie in the draw pile, whose next card to reveal is its last element.
"""

from __future__ import annotations

import copy
import itertools
import json
import random

import pytest

from rules.base import GameOver, IllegalMove, InvalidOption, InvalidState, NotYourTurn, Rng
from rules.eleven_nimmt import (
    _PLAN_CAP,
    ENGINE,
    NewStack,
    NextRound,
    Options,
    Phase,
    Play,
    StackPlay,
    State,
    Take,
    _starter_after,
    fits,
)
from service.games import BINDINGS
from tests.rules.catalogue import check_raise, codes_checked, raise_of

GID = "11-nimmt"


# --------------------------------------------------------------------------- helpers


def position(
    hands: list[list[int]],
    stacks: list[list[int]],
    *,
    draw_top: list[int] = (),
    draw: list[int] | None = None,
    bulls: list[int] | None = None,
    supply: int | None = None,
    turn: int = 0,
    options: dict | None = None,
    history: list[list[int]] = (),
    rnd: int | None = None,
    spare_to: int | None = None,
) -> State:
    """A play-phase state. Cards not placed go to the draw pile (below ``draw_top``, whose last
    card is revealed first), or into seat ``spare_to``'s hand when ``draw`` is given."""
    players = len(hands)
    placed = [c for h in hands for c in h] + [c for s in stacks for c in s] + list(draw_top) + list(draw or [])
    assert len(placed) == len(set(placed)), "test position places a card twice"
    rest = [c for c in range(1, 101) if c not in set(placed)]
    hands = [list(h) for h in hands]
    if draw is None:
        draw = rest + list(draw_top)
    else:
        assert spare_to is not None or not rest
        if spare_to is not None:
            hands[spare_to] += rest
    bulls = list(bulls or [0] * players)
    opts = Options(**ENGINE.resolve_options(options))
    return State(
        players=players,
        options=opts,
        phase=Phase.PLAY,
        round=rnd or len(history) + 1,
        starter=0,
        turn=turn,
        went_out=None,
        hands=tuple(tuple(sorted(h)) for h in hands),
        stacks=tuple(tuple(s) for s in stacks),
        stock=tuple(draw),
        bulls=tuple(bulls),
        supply=10 - sum(bulls) if supply is None else supply,
        history=tuple(tuple(r) for r in history),
        rng=Rng.from_seed(1),
    )


def play(*plan: tuple[int, list[int]]) -> Play:
    return ENGINE.move_from_json({"kind": "play", "plays": [{"stack": s, "cards": cs} for s, cs in plan]})


def code_of(state: State, seat: int, move) -> str:
    with pytest.raises(IllegalMove) as err:
        ENGINE.check(state, seat, move)
    return err.value.code


def invalid_code(data) -> str:
    with pytest.raises(InvalidState) as err:
        ENGINE.from_json(data)
    return err.value.code


def single_plays(state: State, seat: int) -> set[int]:
    return {m.plays[0].cards[0] for m in ENGINE.legal_moves(state, seat) if isinstance(m, Play)}


# --------------------------------------------------------------------------- distance rule


def test_distance_rule_wraps_from_100_to_1_on_top_96() -> None:
    """11N-1: a stack with top 96 accepts 97-100 and 1-6 (rules §5.1).

        stack 0: 96          hand s0: 86..100 (not 96), 1..16
    """
    hand = [c for c in range(86, 101) if c != 96] + list(range(1, 17))
    state = position([hand, [50]], [[96]])
    assert single_plays(state, 0) == {97, 98, 99, 100, 1, 2, 3, 4, 5, 6}
    assert code_of(state, 0, play((0, [7]))) == f"{GID}.not-in-range"
    assert code_of(state, 0, play((0, [95]))) == f"{GID}.not-in-range"


def test_card_5_fits_on_98_at_distance_7() -> None:
    """11N-2: top 98, card 5 is legal (distance 7) and becomes the top.

        stack 0: 98          hand s0: 5 40
    """
    state = position([[5, 40], [50]], [[98]])
    ENGINE.check(state, 0, play((0, [5])))
    after = ENGINE.apply(state, 0, play((0, [5])))
    assert after.stacks == ((98, 5),)
    assert after.hands[0] == (40,) and after.turn == 1


def test_top_54_accepts_55_to_64() -> None:
    """11N-4: top 54 -> legal values 55..64.

        stack 0: 54          hand s0: 44..75 (not 54)
    """
    state = position([[c for c in range(44, 76) if c != 54], [1]], [[54]])
    assert single_plays(state, 0) == set(range(55, 65))


def test_top_100_accepts_1_to_10() -> None:
    """11N-5: top 100 -> legal values 1..10.

        stack 0: 100         hand s0: 1..20, 90..99
    """
    state = position([list(range(1, 21)) + list(range(90, 100)), [50]], [[100]])
    assert single_plays(state, 0) == set(range(1, 11))
    assert all(fits(c, 100) == (1 <= c <= 10) for c in range(1, 101))


# --------------------------------------------------------------------------- bull cards


def test_bull_card_allows_any_subset_of_34_to_43_on_33() -> None:
    """11N-3: top 33 and one bull card: any subset of 34..43 may go on in one turn.

        stack 0: 33          hand s0: 30 34..43 44 50     bulls s0: 1
    """
    range_cards = list(range(34, 44))
    state = position([[30, *range_cards, 44, 50], [60]], [[33]], bulls=[1, 0])
    for size in range(1, 11):
        for subset in itertools.combinations(range_cards, size):
            ENGINE.check(state, 0, play((0, list(subset))))
    assert code_of(state, 0, play((0, [34, 44]))) == f"{GID}.not-in-range"
    assert code_of(state, 0, play((0, [30, 35]))) == f"{GID}.not-in-range"
    # 1023 plans are more than the cap: the list is the first ones plus representatives
    listed = [m for m in ENGINE.legal_moves(state, 0) if isinstance(m, Play)]
    assert len(listed) > _PLAN_CAP
    assert play((0, range_cards)) in listed and play((0, [34])) in listed


def test_cards_go_on_in_order_of_distance_from_the_old_top() -> None:
    """Rules §5.2: several cards go on ascending by distance from the old top, wrapping.

        stack 0: 96          hand s0: 2 4 99 50      bulls s0: 1
        play {0: [2, 4, 99]}  ->  stack 0: 96 99 2 4
    """
    state = position([[2, 4, 99, 50], [60]], [[96]], bulls=[1, 0])
    after = ENGINE.apply(state, 0, play((0, [4, 2, 99])))
    assert after.stacks == ((96, 99, 2, 4),)
    assert after.hands[0] == (50,)
    assert after.bulls == (1, 0), "bull cards are not used up by playing"


def test_each_card_is_checked_against_the_top_before_the_turn() -> None:
    """Rules §5.2: 44 fits on 34 but not on the old top 33, so {34, 44} is illegal.

        stack 0: 33          hand s0: 34 44 50      bulls s0: 1
    """
    state = position([[34, 44, 50], [60]], [[33]], bulls=[1, 0])
    assert code_of(state, 0, play((0, [34, 44]))) == f"{GID}.not-in-range"


def test_two_cards_without_a_bull_card_are_illegal() -> None:
    """11N-9: a player without bull cards may play exactly one card.

        stack 0: 33   stack 1: 70      hand s0: 34 35 71     bulls s0: 0
    """
    state = position([[34, 35, 71], [60]], [[33], [70]])
    assert code_of(state, 0, play((0, [34, 35]))) == f"{GID}.needs-bull-card"
    assert code_of(state, 0, play((0, [34]), (1, [71]))) == f"{GID}.needs-bull-card"
    assert {json.dumps(ENGINE.move_to_json(m)) for m in ENGINE.legal_moves(state, 0)} == {
        json.dumps(m) for m in (
            {"kind": "take", "stack": 0}, {"kind": "take", "stack": 1},
            {"kind": "play", "plays": [{"stack": 0, "cards": [34]}]},
            {"kind": "play", "plays": [{"stack": 0, "cards": [35]}]},
            {"kind": "play", "plays": [{"stack": 1, "cards": [71]}]},
        )
    }


def test_one_bull_card_allows_one_stack_two_allow_two() -> None:
    """11N-10: with 1 bull card, playing onto 2 stacks is illegal; with 2 it is legal.

        stack 0: 33   stack 1: 70      hand s0: 34 35 71 90
    """
    plan = play((0, [34, 35]), (1, [71]))
    one = position([[34, 35, 71, 90], [60]], [[33], [70]], bulls=[1, 0])
    assert code_of(one, 0, plan) == f"{GID}.too-many-stacks"
    ENGINE.check(one, 0, play((0, [34, 35])))
    two = position([[34, 35, 71, 90], [60]], [[33], [70]], bulls=[2, 0])
    ENGINE.check(two, 0, plan)
    assert ENGINE.apply(two, 0, plan).stacks == ((33, 34, 35), (70, 71))
    # complete here (few plans): subsets of {34, 35} x subsets of {71}, minus the empty plan
    assert len([m for m in ENGINE.legal_moves(two, 0) if isinstance(m, Play)]) == 4 * 2 - 1


def test_a_card_goes_on_one_stack_only() -> None:
    """Stacks 33 and 30 both accept 35; it cannot be played on both.

        stack 0: 33   stack 1: 30      hand s0: 35 36 90     bulls s0: 2
    """
    state = position([[35, 36, 90], [60]], [[33], [30]], bulls=[2, 0])
    assert code_of(state, 0, play((0, [35]), (1, [35]))) == f"{GID}.card-played-twice"
    plays = [m for m in ENGINE.legal_moves(state, 0) if isinstance(m, Play)]
    # each of 35, 36: unplayed, on 0, or on 1 -> 3 * 3 - 1 plans
    assert len(plays) == 8


def test_malformed_plays_are_refused_with_their_codes() -> None:
    """stack 0: 33      hand s0: 34 35 50     bulls s0: 1"""
    state = position([[34, 35, 50], [60]], [[33]], bulls=[1, 0])
    assert code_of(state, 0, Play(())) == f"{GID}.empty-play"
    assert code_of(state, 0, Play((StackPlay(0, ()),))) == f"{GID}.empty-play"
    assert code_of(state, 0, play((3, [34]))) == f"{GID}.no-such-stack"
    assert code_of(state, 0, Play((StackPlay(0, (34,)), StackPlay(0, (35,))))) == f"{GID}.duplicate-stack"
    assert code_of(state, 0, play((0, [36]))) == f"{GID}.card-not-in-hand"
    assert code_of(state, 1, play((0, [34]))) == f"{GID}.not-your-turn"
    with pytest.raises(NotYourTurn) as err:
        ENGINE.check(state, 1, play((0, [34])))
    assert err.value.code == f"{GID}.not-your-turn" and err.value.context == {"seat": 1}


# --------------------------------------------------------------------------- taking


def _example_round() -> State:
    """The seed's example, 3 players (seats 0, 1, 2 = P1, P2, P3):

        stack 0: 31
        hand s0: 36 88 5 60     hand s1: 46 92 70 71     hand s2: 98 17 18
        draw pile, next to reveal last: ... 41 64 87 23
    """
    state = position(
        [[36, 88, 5, 60], [46, 92, 70, 71], [98, 17, 18]], [[31]], draw_top=[41, 64, 87, 23],
    )
    return state


def _after_11n6() -> State:
    state = _example_round()
    state = ENGINE.apply(state, 0, play((0, [36])))
    state = ENGINE.apply(state, 1, play((0, [46])))
    return ENGINE.apply(state, 2, Take(0))


def test_taking_three_cards_earns_a_bull_card_and_reveals_two_stacks() -> None:
    """11N-6: [31] <- P1 36, P2 46; P3 has nothing in 47..56, takes {31, 36, 46} (3 cards),
    gets a bull card; 23 and 87 are revealed as 2 new stacks.

        stack 0: 31 36 46    hand s2: 17 18 98      ->   stack 0: 23   stack 1: 87
    """
    state = _example_round()
    state = ENGINE.apply(state, 0, play((0, [36])))
    state = ENGINE.apply(state, 1, play((0, [46])))
    assert state.stacks == ((31, 36, 46),)
    assert ENGINE.legal_moves(state, 2) == [Take(0)], "P3 can only take"
    after = ENGINE.apply(state, 2, Take(0))
    assert after.hands[2] == (17, 18, 31, 36, 46, 98)
    assert after.bulls == (0, 0, 1) and after.supply == 9
    assert after.stacks == ((23,), (87,))
    assert after.turn == 0
    events = ENGINE.events(state, 2, Take(0), after)
    assert {"type": "bull-card", "seat": 2, "source": None} in events
    assert {"type": "new-stacks", "cards": [23, 87]} in events


def test_plays_on_the_87_stack_wrap_to_5() -> None:
    """11N-7: 88, 92, 98, 5 played one by one on the 87 stack: distances 1, 4, 6, 7.

        stack 0: 23   stack 1: 87   ->   stack 1: 87 88 92 98 5
    """
    state = _after_11n6()
    for seat, card, dist in [(0, 88, 1), (1, 92, 4), (2, 98, 6), (0, 5, 7)]:
        top = state.stacks[1][-1]
        assert (card - top) % 100 == dist
        state = ENGINE.apply(state, seat, play((1, [card])))
    assert state.stacks == ((23,), (87, 88, 92, 98, 5))
    assert state.stacks[1][-1] == 5


def test_taking_one_card_earns_nothing_and_adds_a_stack() -> None:
    """11N-8: P2 can play neither on 23 (24..33) nor on 5 (6..15) and takes [23]:
    1 card, no bull card; 2 new stacks make 3 stacks.

        stack 0: 23   stack 1: 87 88 92 98 5     hand s1: 70 71
    """
    state = _after_11n6()
    for seat, card in [(0, 88), (1, 92), (2, 98), (0, 5)]:
        state = ENGINE.apply(state, seat, play((1, [card])))
    assert state.turn == 1
    assert ENGINE.legal_moves(state, 1) == [Take(0), Take(1)]
    after = ENGINE.apply(state, 1, Take(0))
    assert after.hands[1] == (23, 70, 71)
    assert after.bulls == state.bulls and after.supply == state.supply == 9
    assert after.stacks == ((87, 88, 92, 98, 5), (64,), (41,))


def test_empty_supply_taker_chooses_among_tied_opponents() -> None:
    """11N-11: supply empty; A (s0) 4 bulls, B (s1) 4, C (s2) 2; C takes a stack of 3 and
    takes one bull card from A or B, C's choice.

        stack 0: 10 12 15   stack 1: 70     bulls: 4 4 2, supply 0
    """
    state = position([[1, 2], [3, 4], [5, 6]], [[10, 12, 15], [70]], bulls=[4, 4, 2], supply=0, turn=2)
    takes = [m for m in ENGINE.legal_moves(state, 2) if isinstance(m, Take)]
    assert takes == [Take(0, 0), Take(0, 1), Take(1, 0), Take(1, 1)]
    assert code_of(state, 2, Take(0)) == f"{GID}.source-required"
    assert code_of(state, 2, Take(0, 2)) == f"{GID}.bad-source"
    from_a = ENGINE.apply(state, 2, Take(0, 0))
    from_b = ENGINE.apply(state, 2, Take(0, 1))
    assert from_a.bulls == (3, 4, 3) and from_b.bulls == (4, 3, 3)
    assert from_a.supply == from_b.supply == 0
    events = ENGINE.events(state, 2, Take(0, 1), from_b)
    assert {"type": "bull-card", "seat": 2, "source": 1} in events
    # a stack of 1 card: the source is still required (public rule) but nothing moves
    small = ENGINE.apply(state, 2, Take(1, 0))
    assert small.bulls == (4, 4, 2)


def test_source_is_refused_while_the_supply_has_bull_cards() -> None:
    """stack 0: 10 12 15     bulls: 1 0, supply 9"""
    state = position([[1, 2], [3, 4]], [[10, 12, 15]], bulls=[1, 0])
    assert code_of(state, 0, Take(0, 1)) == f"{GID}.source-not-needed"
    assert code_of(state, 0, Take(4)) == f"{GID}.no-such-stack"


def test_empty_supply_single_opponent_with_most_needs_no_source() -> None:
    """Supply empty; s0 5 bulls, s1 3, s2 2; s0 takes 3 cards: the bull comes from s1
    (rules §5.4: only opponents give); naming s1 is accepted too, s2 is not.

        stack 0: 10 12 15     bulls: 5 3 2, supply 0
    """
    state = position([[1, 2], [3, 4], [5, 6]], [[10, 12, 15]], bulls=[5, 3, 2], supply=0)
    assert ENGINE.legal_moves(state, 0)[0] == Take(0)
    assert ENGINE.apply(state, 0, Take(0)).bulls == (6, 2, 2)
    assert ENGINE.apply(state, 0, Take(0, 1)).bulls == (6, 2, 2)
    assert code_of(state, 0, Take(0, 2)) == f"{GID}.bad-source"


def test_option_empty_supply_all_players_moves_nothing_when_taker_has_most() -> None:
    """Option empty_supply='all-players': the taker holds the most, so nothing moves.

        stack 0: 10 12 15     bulls: 5 3 2, supply 0
    """
    state = position(
        [[1, 2], [3, 4], [5, 6]], [[10, 12, 15]], bulls=[5, 3, 2], supply=0,
        options={"empty_supply": "all-players"},
    )
    assert ENGINE.apply(state, 0, Take(0)).bulls == (5, 3, 2)
    assert code_of(state, 0, Take(0, 1)) == f"{GID}.bad-source"
    # the seat with 2 takes from the seat with the most overall
    other = position(
        [[1, 2], [3, 4], [5, 6]], [[10, 12, 15]], bulls=[5, 3, 2], supply=0, turn=2,
        options={"empty_supply": "all-players"},
    )
    assert ENGINE.apply(other, 2, Take(0)).bulls == (4, 3, 3)


def test_no_opponent_with_bull_cards_means_no_bull_card_moves() -> None:
    """Rules §5.4: supply empty and only the taker holds bull cards: nothing moves.

        stack 0: 10 12 15     bulls: 10 0, supply 0
    """
    state = position([[1, 2], [3, 4]], [[10, 12, 15]], bulls=[10, 0], supply=0)
    after = ENGINE.apply(state, 0, Take(0))
    assert after.bulls == (10, 0)
    assert code_of(state, 0, Take(0, 1)) == f"{GID}.bad-source"


# --------------------------------------------------------------------------- empty stock (§5.3)


def test_take_reveals_only_the_cards_left_in_the_draw_pile() -> None:
    """Rules §5.3: a take with one card left in the pile reveals one stack; with none, none.

        stack 0: 10 12   stack 1: 40     draw: 77
    """
    state = position([[1, 2], [3, 4]], [[10, 12], [40]], draw=[77], spare_to=1)
    after = ENGINE.apply(state, 0, Take(0))
    assert after.stacks == ((40,), (77,)) and after.stock == ()
    again = ENGINE.apply(after, 1, Take(0))
    assert again.stacks == ((77,),) and again.stock == ()


def test_no_stacks_means_placing_any_card_as_a_new_stack() -> None:
    """Rules §5.3: the pile is empty and the last stack was taken: the next player must place
    any one card from hand as a new stack.

        stack 0: 10 12     draw: (empty)     hand s1: 3 4 ...
    """
    state = position([[1, 2], [3, 4]], [[10, 12]], draw=[], spare_to=1)
    after = ENGINE.apply(state, 0, Take(0))
    assert after.stacks == () and after.turn == 1
    hand = after.hands[1]
    assert ENGINE.legal_moves(after, 1) == [NewStack(c) for c in hand]
    assert code_of(after, 1, Take(0)) == f"{GID}.no-stacks"
    assert code_of(after, 1, play((0, [3]))) == f"{GID}.no-stacks"
    assert code_of(after, 1, NewStack(1)) == f"{GID}.card-not-in-hand"
    placed = ENGINE.apply(after, 1, NewStack(50))
    assert placed.stacks == ((50,),) and 50 not in placed.hands[1]
    assert code_of(placed, 0, NewStack(1)) == f"{GID}.stacks-on-table"


def test_placing_the_last_card_as_a_new_stack_ends_the_round() -> None:
    """Rules §5.3: a new stack made from the last card in hand ends the round as usual.

        stacks: none     hand s0: 42     hand s1: everything else
    """
    state = position([[42], [1]], [], draw=[], spare_to=1)
    after = ENGINE.apply(state, 0, NewStack(42))
    assert after.phase is Phase.ROUND_OVER and after.went_out == 0
    assert after.history[-1][0] == 0


# --------------------------------------------------------------------------- scoring and rounds


def test_round_end_counts_heads_left_in_hand() -> None:
    """11N-12: the round ends when s0 plays its last card; s1 holds 55 10 3 100 -> 7+3+1+3 = 14.

        stack 0: 20     hand s0: 21     hand s1: 3 10 55 100
    """
    state = position([[21], [55, 10, 3, 100]], [[20]])
    after = ENGINE.apply(state, 0, play((0, [21])))
    assert after.phase is Phase.ROUND_OVER and after.turn is None and after.went_out == 0
    assert ENGINE.to_act(after) == frozenset({0, 1})
    report = ENGINE.scores(after)
    assert report.points == (0, 14) and report.totals == (0, 14) and report.final
    breakdown = report.to_json()["breakdown"]
    assert breakdown[1] == {"cards": [{"card": 3, "heads": 1}, {"card": 10, "heads": 3}, {"card": 55, "heads": 7},
                                      {"card": 100, "heads": 3}], "went_out": False, "bulls": 0, "points": 14}
    assert breakdown[0]["went_out"] and breakdown[0]["points"] == 0
    assert report.round == 1 and report.history == ()
    assert code_of(after, 1, Take(0)) == f"{GID}.round-over"
    assert ENGINE.legal_moves(after, 1) == [NextRound()]


def test_heads_table_totals_167() -> None:
    """Rules §2.2: the 6 nimmt! table on 1..100 has 167 heads: 55 has 7, multiples of 11 have 5."""
    report = ENGINE.score_tally({"hands": [list(range(1, 100)), []]})
    assert report.points == (167 - 3, 0)  # 100 (3 heads) is on the table
    cards = {e.card: e.heads for e in report.breakdown[0].cards}
    assert cards[55] == 7 and cards[33] == 5 and cards[40] == 3 and cards[45] == 2 and cards[41] == 1


def test_mid_round_scores_are_running_heads_in_hand() -> None:
    """scores() mid-round: heads in each hand plus earlier rounds, final False."""
    state = position([[55, 1], [10]], [[20]], history=[[0, 4]], options={"rounds": 3})
    report = ENGINE.scores(state)
    assert report.points == (8, 3) and report.totals == (8, 7) and not report.final
    assert report.history == ((0, 4),) and report.round == 2 and report.winners == ()


def _round_over(players: int, history: list[list[int]], went_out: int, options: dict | None = None) -> State:
    """A round-over state: seat N holds ``history[-1][N]`` one-head cards; one bull card each."""
    last = history[-1]
    assert last[went_out] == 0
    ones = iter(c for c in range(1, 101) if c % 5 and c % 11)
    hands = tuple(tuple(next(ones) for _ in range(last[s])) for s in range(players))
    held = {c for h in hands for c in h}
    rest = tuple(c for c in range(1, 101) if c not in held)  # one ascending stack, the stock used up
    opts = Options(**ENGINE.resolve_options(options))
    starter = _starter_after(history[:-1], opts, players) if len(history) > 1 else 0
    return State(
        players=players, options=opts, phase=Phase.ROUND_OVER,
        round=len(history), starter=starter, turn=None, went_out=went_out, hands=hands,
        stacks=(rest,), stock=(), bulls=(1,) * players, supply=10 - players,
        history=tuple(tuple(r) for r in history), rng=Rng.from_seed(1),
    )


def test_highest_cumulative_total_starts_the_next_round() -> None:
    """11N-13: 4 players play 4 rounds; the next starter has the highest cumulative total.

        history: round 1 [0, 9, 2, 3], round 2 [4, 0, 8, 2]  -> totals [4, 9, 10, 5]
    """
    state = _round_over(4, [[0, 9, 2, 3], [4, 0, 8, 2]], went_out=1)
    ENGINE.from_json(ENGINE.to_json(state))  # a consistent position
    nxt = ENGINE.apply(state, 3, NextRound())
    assert nxt.round == 3 and nxt.starter == 2 and nxt.turn == 2
    assert nxt.phase is Phase.PLAY and all(len(h) == 10 for h in nxt.hands)
    assert len(nxt.stacks) == 1 and len(nxt.stock) == 100 - 41
    assert nxt.bulls == (0, 0, 0, 0) and nxt.supply == 10, "bull cards return to the supply"
    assert nxt.rng.counter > state.rng.counter


def test_four_players_play_four_rounds_then_the_game_ends() -> None:
    """11N-13: with 4 players the 4th round's end ends the game; fewest total wins.

        round 4, stack 0: 20     hand s0: 21 ...; history totals before: [10, 5, 7, 9]
    """
    state = position(
        [[21], [1], [2], [3]], [[20]], history=[[0, 5, 3, 4], [10, 0, 2, 3], [0, 1, 2, 2]],
    )
    assert state.round == 4
    after = ENGINE.apply(state, 0, play((0, [21])))
    assert after.phase is Phase.GAME_OVER and ENGINE.to_act(after) == frozenset()
    totals = ENGINE.scores(after).totals
    assert totals == (10, 7, 8, 10)
    assert ENGINE.outcome(after).winners == (1,) == ENGINE.scores(after).winners
    with pytest.raises(GameOver) as err:
        ENGINE.check(after, 0, NextRound())
    assert err.value.code == f"{GID}.game-over"
    assert ENGINE.legal_moves(after, 0) == []


def test_next_round_only_once_the_round_is_over() -> None:
    state = position([[21, 22], [1]], [[20]])
    assert code_of(state, 0, NextRound()) == f"{GID}.round-not-over"


def test_final_tie_is_a_shared_win() -> None:
    """Rules §6.4: equal fewest totals share the win (2 players, 2 rounds)."""
    state = position([[21], [10, 1]], [[20]], history=[[4, 0]])
    after = ENGINE.apply(state, 0, play((0, [21])))
    assert after.phase is Phase.GAME_OVER
    assert ENGINE.scores(after).totals == (4, 4)
    assert ENGINE.outcome(after).winners == (0, 1)


def test_starter_tie_goes_to_more_in_the_last_round_then_clockwise() -> None:
    """Rules §6.2: totals tie -> more in the last round; still tied -> clockwise after
    the seat that went out.

        a) history [0, 6, 3, 5], [3, 0, 3, 1]: totals [3, 6, 6, 6]; last round 0/3/1 -> s2
        b) history [0, 6, 6, 4], [6, 0, 0, 2]: totals [6, 6, 6, 6]; last 6/0/0/2 -> s0
        c) history [4, 0, 4, 4], [0, 4, 4, 4]: totals [4, 4, 8, 8]; s2, s3 tie on both;
           s0 went out, so s2 (first clockwise after s0) starts
    """
    assert ENGINE.apply(_round_over(4, [[0, 6, 3, 5], [3, 0, 3, 1]], 1), 0, NextRound()).starter == 2
    assert ENGINE.apply(_round_over(4, [[0, 6, 6, 4], [6, 0, 0, 2]], 1), 0, NextRound()).starter == 0
    assert ENGINE.apply(_round_over(4, [[4, 0, 4, 4], [0, 4, 4, 4]], 0), 0, NextRound()).starter == 2
    # went out = s3: the first tied seat clockwise after s3 among s2 and s0 is s0
    state = _round_over(4, [[4, 0, 4, 4], [4, 4, 4, 0]], 3)
    assert ENGINE.apply(state, 0, NextRound()).starter == 0


def test_option_next_starter_round_uses_the_last_round() -> None:
    """Option next_starter='round': most minus points in the round just finished.

        history [0, 9, 2, 3], [4, 0, 8, 2]: cumulative -> s2 (10); round -> s2 (8)
        history [0, 9, 2, 3], [5, 0, 1, 2]: cumulative -> s1 (9); round -> s0 (5)
    """
    history = [[0, 9, 2, 3], [5, 0, 1, 2]]
    assert ENGINE.apply(_round_over(4, history, 1), 0, NextRound()).starter == 1
    state = _round_over(4, history, 1, {"next_starter": "round"})
    assert ENGINE.apply(state, 0, NextRound()).starter == 0


def test_option_keep_bull_cards_between_rounds() -> None:
    """Option bulls_between_rounds='keep': bull cards stay with their holders."""
    state = _round_over(3, [[0, 2, 3]], 0, {"bulls_between_rounds": "keep"})
    assert ENGINE.apply(state, 0, NextRound()).bulls == (1, 1, 1)
    state = _round_over(3, [[0, 2, 3]], 0)
    assert ENGINE.apply(state, 0, NextRound()).bulls == (0, 0, 0)


def test_option_rounds_overrides_one_round_per_player() -> None:
    """Rules §6.4: 'rounds' overrides the number of rounds (0 = one per player)."""
    state = position([[21], [1], [2]], [[20]], options={"rounds": 1})
    assert ENGINE.apply(state, 0, play((0, [21]))).phase is Phase.GAME_OVER
    state = position([[21], [1], [2]], [[20]])
    assert ENGINE.apply(state, 0, play((0, [21]))).phase is Phase.ROUND_OVER


def test_option_start_player_and_new_game() -> None:
    """Rules §3: 10 cards each, one face-up stack, the rest in the draw pile; start_player starts."""
    state = ENGINE.new(5, 11, {"start_player": 3})
    assert state.turn == 3 and state.starter == 3
    assert [len(h) for h in state.hands] == [10] * 5
    assert len(state.stacks) == 1 and len(state.stacks[0]) == 1 and len(state.stock) == 49
    assert state.supply == 10 and state.bulls == (0,) * 5
    assert ENGINE.options_of(state)["start_player"] == 3
    with pytest.raises(InvalidOption) as err:
        ENGINE.new(3, 1, {"start_player": 3})
    assert err.value.code == "options.out-of-range"
    with pytest.raises(InvalidOption) as err:
        ENGINE.new(8, 1)
    assert err.value.code == "options.players"
    with pytest.raises(InvalidOption) as err:
        ENGINE.new(3, 1, setup={"x": 1})
    assert err.value.code == f"{GID}.setup-unsupported"
    assert ENGINE.new(4, 99) == ENGINE.new(4, 99)
    assert ENGINE.new(4, 99) != ENGINE.new(4, 98)


# --------------------------------------------------------------------------- views


def test_view_hides_hands_draw_pile_and_stack_contents() -> None:
    """Rules §4: a seat sees its own hand, the other hands as null with their sizes, the stock
    as a count and stacks as top cards only; never the rng.

        stack 0: 31 36 46   stack 1: 87      hand s0: 1 2     hand s1: 3 4 5
    """
    state = position([[1, 2], [3, 4, 5]], [[31, 36, 46], [87]])
    view = ENGINE.view(state, 0)
    assert view["hands"] == [[1, 2], None] and view["hand_sizes"] == [2, 3]
    assert view["stacks"] == [None, None] and view["stacks_tops"] == [46, 87] and "stacks_sizes" not in view
    assert view["stock"] is None and view["stock_size"] == len(state.stock)
    assert "rng" not in view
    assert ENGINE.view(state, None)["hands"] == [None, None]
    text = json.dumps(ENGINE.view(state, 1))
    assert "36" not in text and "31" not in text


def test_option_open_information_shows_whole_stacks() -> None:
    state = position([[1, 2], [3, 4, 5]], [[31, 36, 46], [87]], options={"open_information": True})
    view = ENGINE.view(state, None)
    assert view["stacks"] == [[31, 36, 46], [87]] and view["stacks_tops"] == [46, 87]
    assert view["hands"] == [None, None] and view["hand_sizes"] == [2, 3] and view["stock"] is None


def test_hands_are_shown_once_the_round_is_over() -> None:
    state = _round_over(3, [[0, 2, 3]], 0)
    view = ENGINE.view(state, None)
    assert view["hands"] == [list(h) for h in state.hands]
    assert view["hand_sizes"] == [len(h) for h in state.hands]


# --------------------------------------------------------------------------- tally


def test_tally_counts_heads_per_seat_with_breakdown() -> None:
    """11N-12 as a score sheet: hands [55 10 3 100], [], [11 12] -> 14, 0, 6."""
    report = ENGINE.score_tally(
        {"hands": [[55, 10, 3, 100], [], [11, 12]], "previous": [5, 0, 1], "bulls": [2, 0, 3]}
    )
    assert report.points == (14, 0, 6) and report.totals == (19, 0, 7) and report.final
    assert report.to_json()["breakdown"][2]["cards"] == [{"card": 11, "heads": 5}, {"card": 12, "heads": 1}]
    assert report.breakdown[1].went_out and report.breakdown[0].bulls == 2
    assert report.round == 2 and report.history == ((5, 0, 1),) and report.winners == ()


@pytest.mark.parametrize(
    ("tally", "code"),
    [
        ({"hands": [[1, 2], [2]]}, "duplicate-card"),
        ({"hands": [[1], [2]]}, "bad-tally"),  # nobody went out
        ({"hands": [[], []]}, "bad-tally"),  # two went out
        ({"hands": [[0], []]}, "bad-tally"),
        ({"hands": [[101], []]}, "bad-tally"),
        ({"hands": [[True], []]}, "bad-tally"),
        ({"hands": [list(range(1, 101)), []]}, "bad-tally"),
        ({"hands": [[1], []], "bulls": [6, 5]}, "bad-tally"),
        ({"hands": [[1], []], "bulls": [1]}, "bad-tally"),
        ({"hands": [[1], []], "previous": [1, -1]}, "bad-tally"),
        ({"hands": [[1], []], "heads": "bullenparty"}, "bad-tally"),
        ({"hands": [[1], []], "extra": 1}, "bad-tally"),
        ({"hands": "x"}, "bad-tally"),
        ({}, "bad-tally"),
        ([], "bad-tally"),
    ],
)
def test_impossible_tallies_are_refused(tally, code) -> None:
    with pytest.raises(InvalidState) as err:
        ENGINE.score_tally(tally)
    assert err.value.code == f"{GID}.{code}"


# --------------------------------------------------------------------------- JSON


def _json_state() -> dict:
    state = ENGINE.new(3, 5)
    state = ENGINE.apply(state, 0, ENGINE.legal_moves(state, 0)[0])  # the listed take: 2 stacks
    return ENGINE.to_json(state)


def _tampered(change) -> dict:
    data = copy.deepcopy(_json_state())
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda d: d["hands"][0].pop(), "missing-card"),
        (lambda d: d["hands"][1].append(d["hands"][0][0]), "duplicate-card"),
        (lambda d: d["stock"].append(0), "bad-state"),
        (lambda d: d.update(turn=None), "bad-turn"),
        (lambda d: d.update(turn=3), "bad-state"),
        (lambda d: d.update(starter=5), "bad-state"),
        (lambda d: d.update(turn=True), "bad-state"),
        (lambda d: d.update(went_out=1), "bad-turn"),
        (lambda d: d.update(phase="round-over"), "bad-turn"),
        (lambda d: d.update(phase="dealing"), "bad-state"),
        (lambda d: d.update(phase="over", turn=None, went_out=0), "bad-state"),
        (lambda d: d.update(round=4), "bad-round"),
        (lambda d: d.update(supply=9), "bad-bulls"),
        (lambda d: d.update(bulls=[11, -1, 0]), "bad-state"),
        (lambda d: d.update(bulls=[1, 0, 0, 0], supply=9), "seat-count"),
        (lambda d: d.update(players=4), "seat-count"),
        (lambda d: d.update(players=9), "bad-state"),
        (lambda d: d.update(history=[[0, 1, 2]]), "bad-history"),
        (lambda d: d["options"].update(heads="x"), "bad-state"),
        (lambda d: d["options"].pop("heads"), "bad-state"),
        (lambda d: d["options"].update(start_player=3), "bad-state"),
        (lambda d: d.update(rng={"v": 1}), "bad-state"),
        (lambda d: d.update(extra=1), "bad-state"),
        (lambda d: d.pop("stacks"), "bad-state"),
        (lambda d: d.update(stacks=[[]]), "bad-state"),
        (lambda d: d.update(hands="abc"), "bad-state"),
    ],
)
def test_from_json_rejects_tampered_states(change, code) -> None:
    """Conservation, the seats, phase and round, bull cards and history; anything not of the
    declared shape is ``bad-state`` naming the field."""
    assert invalid_code(_tampered(change)) == f"{GID}.{code}"


def test_a_state_not_of_the_declared_shape_names_the_field() -> None:
    for change, field in ((lambda d: d.update(turn=3), "turn"), (lambda d: d["stock"].append(0), "stock."),
                          (lambda d: d["options"].update(heads="x"), "options.heads")):
        data = _tampered(change)
        with pytest.raises(InvalidState) as err:
            ENGINE.from_json(data)
        assert err.value.context["field"].startswith(field), (field, err.value.context)


def test_from_json_rejects_a_stack_breaking_the_distance_rule() -> None:
    """stack [31, 80]: 80 is not within 10 above 31."""
    state = position([[1, 2], [3]], [[31, 80]])
    assert invalid_code(ENGINE.to_json(state)) == f"{GID}.bad-stack"
    assert ENGINE.from_json(ENGINE.to_json(position([[10, 11], [30]], [[96, 99, 2, 4]], draw=[], spare_to=1))).stacks == ((96, 99, 2, 4),)


def test_from_json_rejects_an_empty_hand_mid_round_and_garbage() -> None:
    state = position([[], [3]], [[31]])
    assert invalid_code(ENGINE.to_json(state)) == f"{GID}.bad-hands"
    for junk in (None, [], "state", 3):
        assert invalid_code(junk) == f"{GID}.bad-state"


@pytest.mark.parametrize(
    "data",
    [
        None, [], {"kind": "fly"}, {"kind": "play"}, {"kind": "play", "plays": []},
        {"kind": "play", "plays": [{"stack": 0}]}, {"kind": "play", "plays": [{"stack": 0, "cards": []}]},
        {"kind": "play", "plays": [{"stack": 0, "cards": [101]}]},
        {"kind": "play", "plays": [{"stack": -1, "cards": [5]}]},
        {"kind": "play", "plays": [{"stack": 0, "cards": ["5"]}]},
        {"kind": "play", "plays": ["x"]},
        {"kind": "take"}, {"kind": "take", "stack": 0, "source": 9}, {"kind": "take", "stack": 0, "x": 1},
        {"kind": "take", "stack": True}, {"kind": "new-stack", "card": 0}, {"kind": "next-round", "x": 1},
    ],
)
def test_malformed_moves_are_malformed_moves(data) -> None:
    with pytest.raises(IllegalMove) as err:
        ENGINE.move_from_json(data)
    assert err.value.code == f"{GID}.malformed-move" and "field" in err.value.context


def test_move_json_is_canonical() -> None:
    move = ENGINE.move_from_json({"kind": "play", "plays": [{"stack": 2, "cards": [9, 3]}, {"stack": 0, "cards": [7]}]})
    assert move == Play((StackPlay(0, (7,)), StackPlay(2, (3, 9))))
    assert ENGINE.move_to_json(Take(1)) == {"kind": "take", "stack": 1}
    assert ENGINE.move_from_json({"kind": "take", "stack": 1, "source": 2}) == Take(1, 2)


# --------------------------------------------------------------------------- playouts


def _random_states(players: int, seed: int, steps: int, options: dict | None = None):
    rnd = random.Random(seed)
    state = ENGINE.new(players, seed, options)
    for _ in range(steps):
        acting = sorted(ENGINE.to_act(state))
        if not acting:
            break
        seat = rnd.choice(acting)
        moves = ENGINE.legal_moves(state, seat)
        yield state, seat, moves
        state = ENGINE.apply(state, seat, rnd.choice(moves))
    yield state, None, []


def test_states_and_moves_of_random_playouts_read_back_as_themselves() -> None:
    """Every state and move written reads back as itself (the declared shapes, DESIGN 4.8)."""
    kinds = set()
    for players, seed in [(2, 1), (4, 2), (7, 3)]:
        options = {"open_information": True, "bulls_between_rounds": "keep"} if seed == 2 else None
        for state, _seat, moves in _random_states(players, seed, 300, options):
            assert ENGINE.from_json(json.loads(json.dumps(ENGINE.to_json(state)))) == state
            for move in moves[:40]:
                data = ENGINE.move_to_json(move)
                kinds.add(data["kind"])
                assert ENGINE.move_from_json(json.loads(json.dumps(data))) == move
    assert kinds == set(ENGINE.move_kinds)


def _brute_force_plans(state: State, seat: int, extra: list[int]):
    """Every assignment of the candidate cards to a stack (or to none): all well-formed plans."""
    hand = state.hands[seat]
    candidates = sorted({c for c in hand if any(fits(c, s[-1]) for s in state.stacks)} | set(extra))
    for choice in itertools.product(range(-1, len(state.stacks)), repeat=len(candidates)):
        plan: dict[int, list[int]] = {}
        for card, s in zip(candidates, choice, strict=True):
            if s >= 0:
                plan.setdefault(s, []).append(card)
        if plan:
            yield Play(tuple(StackPlay(s, tuple(cs)) for s, cs in sorted(plan.items())))


def test_legal_moves_agree_with_check_on_reachable_states() -> None:
    """Where the list is complete (few plans), a plan is listed iff ``check`` accepts it."""
    compared = 0
    for players, seed in [(2, 10), (3, 11), (5, 12)]:
        for state, seat, moves in _random_states(players, seed, 250):
            if seat is None or state.phase is not Phase.PLAY or not state.stacks:
                continue
            hand = state.hands[seat]
            fitting = [c for c in hand if any(fits(c, s[-1]) for s in state.stacks)]
            extra = [c for c in hand if c not in fitting][:1]
            if (len(state.stacks) + 1) ** (len(fitting) + len(extra)) > 5000:
                continue
            listed = {m for m in moves if isinstance(m, Play)}
            if len(listed) >= _PLAN_CAP:
                continue  # possibly truncated
            for plan in _brute_force_plans(state, seat, extra):
                assert ENGINE.is_legal(state, seat, plan) == (plan in listed), plan
            for move in moves:
                ENGINE.check(state, seat, move)
            compared += 1
    assert compared > 50


def test_two_player_random_games_end_well_within_the_cap() -> None:
    """Uniformly random play ends with 2 players (the draw pile rarely runs out)."""
    for seed in range(3):
        states = list(_random_states(2, seed, 4000))
        final = states[-1][0]
        assert ENGINE.outcome(final) is not None, f"seed {seed}: no end"
        assert len(states) < 1000


# --------------------------------------------------------------------------- review additions


def test_two_stacks_in_one_turn_each_card_checked_against_its_own_old_top_with_wrap() -> None:
    """Rules §5.2: with 2 bull cards a plan covers 2 stacks; every card is checked against
    the top ITS stack had before the turn, and each stack gets its cards in order of distance
    from that top (wrapping past 100).

        stack 0: 95   stack 1: 33      hand s0: 3 5 40 43 44 99 60     bulls s0: 2
        play {0: [5, 99, 3], 1: [43, 40]}  ->  stack 0: 95 99 3 5   stack 1: 33 40 43
    """
    state = position([[3, 5, 40, 43, 44, 99, 60], [70]], [[95], [33]], bulls=[2, 0])
    plan = play((0, [5, 99, 3]), (1, [43, 40]))
    after = ENGINE.apply(state, 0, plan)
    assert after.stacks == ((95, 99, 3, 5), (33, 40, 43))
    assert after.hands[0] == (44, 60)
    # 44 is 1 above the new top 43 but 11 above the old top 33
    assert code_of(state, 0, play((0, [99]), (1, [43, 44]))) == f"{GID}.not-in-range"
    # 5 fits stack 0 (old top 95, distance 10) but not stack 1 (old top 33)
    assert code_of(state, 0, play((0, [99]), (1, [40, 5]))) == f"{GID}.not-in-range"
    # one card cannot go on both stacks
    assert code_of(state, 0, play((0, [99, 3]), (1, [3]))) == f"{GID}.card-played-twice"


def test_voluntary_take_although_a_play_is_possible() -> None:
    """Rules §5: PLAY or TAKE is always allowed; taking is also a tactical choice. A take of
    3 cards earns a bull card even though 47 could have been played.

        stack 0: 31 36 46      hand s0: 47 90      bulls 0, supply 10
    """
    state = position([[47, 90], [10]], [[31, 36, 46]], draw_top=[12, 77])
    assert play((0, [47])) in ENGINE.legal_moves(state, 0)
    assert Take(0) in ENGINE.legal_moves(state, 0)
    after = ENGINE.apply(state, 0, Take(0))
    assert after.hands[0] == (31, 36, 46, 47, 90)
    assert after.bulls == (1, 0) and after.supply == 9
    assert after.stacks == ((77,), (12,)), "the top two cards of the draw pile, in draw order"


def test_last_supply_card_then_bull_cards_come_from_opponents() -> None:
    """Rules §5.2 / §5.4: the last supply card goes to the taker; the next taker of 3+
    cards gets one from the opponent holding the most.

        stack 0: 10 12 15   stack 1: 50 52 55      bulls: 5 4, supply 1
    """
    state = position([[1, 2, 3], [4, 5, 6]], [[10, 12, 15], [50, 52, 55]], bulls=[5, 4], supply=1)
    after = ENGINE.apply(state, 0, Take(0))
    assert after.bulls == (6, 4) and after.supply == 0
    stack = next(i for i, s in enumerate(after.stacks) if s == (50, 52, 55))
    again = ENGINE.apply(after, 1, Take(stack))
    assert again.bulls == (5, 5) and again.supply == 0


def test_a_bull_card_won_by_taking_is_used_from_the_next_turn() -> None:
    """Rules §5.2: TAKE ends the turn; the bull card it earned lets the taker play several cards
    on their next turn.

        stack 0: 31 36 46      hand s0: 22 23     draw: ... 60 20 (20 revealed first)   bulls 0
        s0 takes (bull card), s1 plays 70 on 60, s0 plays 22 and 23 together on 20
    """
    state = position([[22, 23], [70, 71]], [[31, 36, 46]], draw_top=[60, 20])
    assert code_of(state, 0, play((0, [31]))) == f"{GID}.card-not-in-hand"
    after = ENGINE.apply(state, 0, Take(0))
    assert after.turn == 1 and after.bulls == (1, 0)
    assert after.stacks == ((20,), (60,))
    after = ENGINE.apply(after, 1, play((1, [70])))
    after = ENGINE.apply(after, 0, play((0, [23, 22])))
    assert after.stacks == ((20, 22, 23), (60, 70))
    assert after.hands[0] == (31, 36, 46)


def test_bull_cards_held_at_the_round_end_score_nothing() -> None:
    """Rules §2.2 / §6.1: bull cards are not scored; only the heads in hand count.

        stack 0: 20     hand s0: 21 (goes out)     hand s1: 10 55, holds 3 bull cards
    """
    state = position([[21], [10, 55]], [[20]], bulls=[0, 3])
    after = ENGINE.apply(state, 0, play((0, [21])))
    report = ENGINE.scores(after)
    assert report.points == (0, 10) and report.breakdown[1].bulls == 3


# --------------------------------------------------------------------------- code catalogue (DESIGN 4.4)


def _state_with(change) -> dict:
    return _tampered(change)


def _no_stacks() -> State:
    """stack: none    stock: empty    hand s0: 1 2    hand s1: 3 ..."""
    return position([[1, 2], [3, 4]], [], draw=[], spare_to=1)


def _with_bulls() -> State:
    """stack 0: 33   stack 1: 60    hand s0: 34 35 61, one bull card"""
    return position([[34, 35, 61], [70]], [[33], [60]], bulls=[1, 0], draw_top=[90])


def _empty_supply() -> State:
    """stack 0: 10 12 15    bulls 4 4 2, supply 0, seat 2 to act"""
    return position([[1, 2], [3, 4], [5, 6]], [[10, 12, 15], [70]], bulls=[4, 4, 2], supply=0, turn=2)


#: one real raise of every catalogued code: the action and the code it must raise
TRIGGERS = {
    "not-your-turn": lambda: ENGINE.check(ENGINE.new(3, 1), 2, Take(0)),
    "game-over": lambda: ENGINE.check(
        ENGINE.apply(position([[21], [1], [2], [3]], [[20]], history=[[0, 5, 3, 4], [10, 0, 2, 3], [0, 1, 2, 2]]),
                     0, play((0, [21]))), 0, NextRound()),
    "no-such-seat": lambda: BINDINGS[GID].view(ENGINE.new(3, 1), 5),
    "malformed-move": lambda: ENGINE.move_from_json({"kind": "fly"}),
    "round-not-over": lambda: ENGINE.check(ENGINE.new(2, 1), 0, NextRound()),
    "round-over": lambda: ENGINE.check(_round_over(3, [[0, 2, 3]], 0), 0, Take(0)),
    "no-stacks": lambda: ENGINE.check(_no_stacks(), 0, Take(0)),
    "empty-play": lambda: ENGINE.check(_with_bulls(), 0, Play(())),
    "no-such-stack": lambda: ENGINE.check(_with_bulls(), 0, play((5, [34]))),
    "duplicate-stack": lambda: ENGINE.check(_with_bulls(), 0, Play((StackPlay(0, (34,)), StackPlay(0, (35,))))),
    "card-played-twice": lambda: ENGINE.check(_with_bulls(), 0, Play((StackPlay(0, (34,)), StackPlay(1, (34,))))),
    "needs-bull-card": lambda: ENGINE.check(position([[34, 35], [70]], [[33]]), 0, play((0, [34, 35]))),
    "too-many-stacks": lambda: ENGINE.check(_with_bulls(), 0, play((0, [34]), (1, [61]))),
    "card-not-in-hand": lambda: ENGINE.check(_with_bulls(), 0, play((0, [36]))),
    "not-in-range": lambda: ENGINE.check(_with_bulls(), 0, play((1, [34]))),
    "source-required": lambda: ENGINE.check(_empty_supply(), 2, Take(0)),
    "source-not-needed": lambda: ENGINE.check(_with_bulls(), 0, Take(0, 1)),
    "bad-source": lambda: ENGINE.check(_empty_supply(), 2, Take(0, 2)),
    "stacks-on-table": lambda: ENGINE.check(_with_bulls(), 0, NewStack(34)),
    "setup-unsupported": lambda: ENGINE.new(3, 1, setup={"x": 1}),
    "bad-state": lambda: ENGINE.from_json([]),
    "seat-count": lambda: ENGINE.from_json(_state_with(lambda d: d.update(players=4))),
    "bad-phase": lambda: ENGINE.from_json(_state_with(lambda d: d.update(phase="game-over", turn=None, went_out=0))),
    "bad-round": lambda: ENGINE.from_json(_state_with(lambda d: d.update(round=4))),
    "bad-turn": lambda: ENGINE.from_json(_state_with(lambda d: d.update(turn=None))),
    "bad-hands": lambda: ENGINE.from_json(ENGINE.to_json(position([[], [3]], [[31]]))),
    "bad-stack": lambda: ENGINE.from_json(ENGINE.to_json(position([[1, 2], [3]], [[31, 80]]))),
    "bad-stock": lambda: ENGINE.from_json(_state_with(lambda d: d["stacks"].append([d["stock"].pop()]))),
    "duplicate-card": lambda: ENGINE.from_json(_state_with(lambda d: d["hands"][1].append(d["hands"][0][0]))),
    "missing-card": lambda: ENGINE.from_json(_state_with(lambda d: d["hands"][0].pop())),
    "bad-bulls": lambda: ENGINE.from_json(_state_with(lambda d: d.update(supply=9))),
    "bad-history": lambda: ENGINE.from_json(_state_with(lambda d: d.update(history=[[0, 1, 2]]))),
    "bad-starter": lambda: ENGINE.from_json(_state_with(lambda d: d.update(starter=1))),
    "bad-tally": lambda: ENGINE.score_tally({"hands": [[1], [2]]}),
}


def test_every_declared_code_has_a_real_trigger() -> None:
    """DESIGN 4.4: the codes are declared once (``eleven_nimmt.C``, typed, so nothing raises a
    code it did not declare); each one has a real raise here."""
    assert {f"{GID}.{name}" for name in TRIGGERS} == set(ENGINE.codes)


@pytest.mark.parametrize("name", sorted(TRIGGERS))
def test_each_code_is_raised_with_the_context_its_polish_detail_needs(name: str) -> None:
    """A real raise of each code; its Polish detail formats with the raise's context."""
    check_raise(ENGINE, f"{GID}.{name}", raise_of(TRIGGERS[name]))


def test_codes_raised_while_playing_are_catalogued() -> None:
    """By playing: every refusal met by checking unlisted moves on random states is catalogued."""
    rnd = random.Random(11)
    seen = set()
    for state, seat, _ in _random_states(3, 4, 300):
        seat = 0 if seat is None else seat
        moves = (Take(rnd.randrange(6)), NewStack(rnd.randrange(1, 101)), NextRound(),
                 play((rnd.randrange(4), [rnd.randrange(1, 101)])))
        seen |= codes_checked(ENGINE, state, moves, seats=(seat, (seat + 1) % 3))
    assert seen <= set(ENGINE.codes) and len(seen) >= 5
