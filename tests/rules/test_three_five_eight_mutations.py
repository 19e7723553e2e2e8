"""Impossible 3-5-8 states are refused (issue 10 §2; docs/rules/3-5-8.md §9).

Real mid-game states come from seeded random playouts (``tests.playout.choose``); each is
mutated in one way (cards duplicated, lost or foreign; hand sizes; counters; scores; seats;
phases; types). Every mutation is either refused, by the state schema (``ValidationError``)
or by ``from_json`` (``InvalidState`` with a ``3-5-8.`` code), or is a state that play can
reach; the mutations that may be accepted are marked ``REACHABLE`` below with the reason.
Nothing else may be raised.
"""

from __future__ import annotations

import random
from itertools import islice

import pytest

from rules.base import InvalidState
from rules.three_five_eight import Discard, Phase, PlayCard
from service.games import BINDINGS
from tests.rules import mutations as mut
from tests.rules.mutations import MutationTests, duplicate_card, hand_seats, joker, lose_card, not_a_card, tables
from tests.rules.mutations import playout as play

GAME = "3-5-8"
E = BINDINGS[GAME].engine


def mid_game_states() -> list[dict]:
    """States of every phase (choose, exchange, discard, play mid-trick, round over), from playouts:
    per seed, one state of each phase met in the first 250 moves, picked at random."""
    out: list[dict] = []
    for seed in range(6):
        rnd = random.Random(seed)
        options = {"exchange_timing": "after-discard"} if seed % 2 else {}
        seen: dict[str, list[dict]] = {}
        for i, s in enumerate(islice(play(GAME, 3, seed, options, rnd=rnd), 251)):  # the states before each of 250 moves
            if i < 250 and E.to_act(s):
                seen.setdefault(s.phase.value, []).append(E.to_json(s))
        out += [rnd.choice(states) for _, states in sorted(seen.items())]
    phases = {d["phase"] for d in out}
    assert {"choose", "exchange", "discard", "play", "round-over"} <= phases, phases
    return out


STATES = mid_game_states()


def round_up(d, s, rnd):
    if d["round"] == 18:
        return False
    d["round"] += 1
    return True


def score_shift(d, s, rnd):
    """A point moved from one seat to another in a finished deal: still zero-sum."""
    if not d["history"]:
        return False
    return mut.shift_points(d["history"][rnd.randrange(len(d["history"]))], 3, 1, rnd)


def contract_changed(d, s, rnd):
    if not d["contracts"]:
        return False
    i = rnd.randrange(len(d["contracts"]))
    d["contracts"][i] = rnd.choice([c for c in ("H", "S", "D", "C", "NT", "BL") if c != d["contracts"][i]])
    return True


def extra_history_row(d, s, rnd):
    d["history"].append([0, 0, 0])
    d["contracts"].append("NT")
    return True


def trick_seat(d, s, rnd):
    if not d["trick"]:
        return False
    d["trick"][0]["seat"] = (d["trick"][0]["seat"] + 1) % 3
    return True


def won_pile_card(d, s, rnd):
    """A card moved from a hand to a won pile (the pile no longer holds whole tricks)."""
    seats = hand_seats(d)
    if not seats:
        return False
    d["won"][rnd.randrange(3)].append(d["hands"][seats[0]].pop())
    return True


def players_four(d, s, rnd):
    d["players"] = 4
    return True


def type_history_float(d, s, rnd):
    d["history"].append([0.5, -0.5, 0])
    d["contracts"].append("H")
    return True


REFUSED = {f.__name__: f for f in (
    duplicate_card, lose_card, joker, not_a_card, mut.move_card, round_up, mut.round_down, mut.next_seat("leader"),
    mut.next_seat("turn", "turn_other"), mut.turn_null, mut.score_plus_one, extra_history_row,
    mut.phase_changed(Phase), trick_seat, won_pile_card, players_four, mut.type_round_text, mut.type_hands_null,
    type_history_float, mut.unknown_field("current"), mut.missing_field,
)}

#: Mutations that may give a reachable state, and why.
REACHABLE = {
    "swap_cards": (mut.swap_cards, "another shuffle deals these hands; refused when the swap gives a seat a suit "
                                   "it showed a void in on the table, or a hand its hidden musik cards"),
    "dealer_next": (mut.next_seat("dealer"),
                    "with first_dealer 'random' another first dealer gives this sheet; refused when the roles no "
                    "longer fit the trick leader, the contracts used or the option"),
    "score_shift": (score_shift, "the same deal played differently gives these points (tricks stay in 0..16 "
                                 "and sum to 16); refused when they do not, or they disagree with the won piles"),
    "contract_changed": (contract_changed, "another contract choice in that deal; refused when a chooser would "
                                           "repeat a contract or the points need impossible tricks"),
    "rng_counter": (mut.rng_counter, mut.RNG_REJECTION_SAMPLING),
}


SUITE = MutationTests(GAME, STATES, tables(REFUSED, REACHABLE))
test_real_states_load_unchanged, test_enough_mutations_of_every_kind, test_mutation_is_refused_or_reachable = \
    SUITE.tests()


# --------------------------------------------------------------------------- scenarios of the checks


def test_a_void_shown_in_the_trick_cannot_hold_that_suit():
    """docs/rules/3-5-8.md §5: a seat that did not follow the led suit held none of it; it cannot
    hold one now. Found in play: a seat discards off-suit, then a card of the led suit is swapped in."""
    rnd = random.Random(3)
    s = E.new(3, 3, {"first_dealer": 0})
    while True:
        seat = min(E.to_act(s))
        moves = E.legal_moves(s, seat)
        if s.phase is Phase.PLAY and s.trick:
            led = s.trick[0].card.suit
            off = [m for m in moves if isinstance(m, PlayCard) and m.card.suit is not led]
            if off:
                s = E.apply(s, seat, off[0])
                break
        s = E.apply(s, seat, moves[0] if isinstance(moves[0], Discard) else rnd.choice(list(moves)))
    data = E.to_json(s)
    void_seat = data["trick"][-1]["seat"]
    led_suit = data["trick"][0]["card"][-1]
    donor = next(x for x in range(3) if x != void_seat and any(c[-1] == led_suit for c in data["hands"][x]))
    i = next(k for k, c in enumerate(data["hands"][donor]) if c[-1] == led_suit)
    j = next(k for k, c in enumerate(data["hands"][void_seat]) if c[-1] != led_suit)
    data["hands"][donor][i], data["hands"][void_seat][j] = data["hands"][void_seat][j], data["hands"][donor][i]
    with pytest.raises(InvalidState) as err:
        E.from_json(data)
    assert err.value.code == "3-5-8.bad-trick"
