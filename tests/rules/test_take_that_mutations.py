"""Impossible Take That states are refused (issue 10 §2; docs/rules/take-that.md §8).

Real mid-game states come from seeded random playouts (``tests/playout.py``'s chooser) under
several option sets. Each is mutated in one way (duplicate, missing and foreign cards; hand
sizes; counters; scores; seats; phases; types) and loaded the way the service loads a state
(``BINDINGS["take-that"].load_state``: the schema, then ``from_json``). A mutation must be
refused (a marshmallow ValidationError, or InvalidState with a ``take-that.`` code), unless
its kind names why play can reach the result (``why``); nothing else may be raised. The harness
is tests/rules/mutations.py.
"""

from __future__ import annotations

from collections import Counter

from rules.take_that import ENGINE, Phase, State, is_toad
from tests.rules import mutations as mut
from tests.rules.mutations import Mutation, MutationTests
from tests.rules.mutations import playout as play

GAME = "take-that"
OPTION_SETS = (
    {},
    {"professional": True},
    {"professional": True, "professional_twist_penalty": True, "face_down_view": "open"},
    {"end_when_last_draw_empties_row": False, "next_dealer": "same", "rounds": 3, "tie_break": "last-round"},
)


def _real_states() -> list[State]:
    """About 110 states: every 15th of 12 games (2-4 players, each option set) and every
    finished round, so the stock full, half gone and used up, finished rounds and later rounds
    all appear."""
    states = []
    for i, options in enumerate(OPTION_SETS):
        for players in (2, 3, 4):
            game = list(play(GAME, players, 100 + 10 * i + players, options))
            states += game[5::15] + [s for s in game if s.phase is Phase.ROUND_OVER]
    return states


REAL = _real_states()


# --------------------------------------------------------------------------- mutations

def _seat_holding(piles: list[list], rnd) -> int | None:
    """A random seat whose pile in ``piles`` holds cards (None: no pile does)."""
    seats = [s for s, pile in enumerate(piles) if pile]
    return rnd.choice(seats) if seats else None


def _hand_to_hand(data, state, rnd) -> bool:
    a = _seat_holding(data["hands"], rnd)
    if a is None:
        return False
    b = rnd.choice([s for s in range(state.players) if s != a])
    data["hands"][b].append(data["hands"][a].pop())
    return True


def _phase(data, state, rnd) -> bool:
    data["phase"] = "round-over" if data["phase"] == "play" else "play"
    return True


def _history_earlier(data, state, rnd) -> bool:
    earlier = len(data["history"]) - (state.phase is Phase.ROUND_OVER)
    if earlier < 1:
        return False
    data["history"][rnd.randrange(earlier)][rnd.randrange(state.players)] += rnd.choice([-1, 1])
    return True


def _history_last(data, state, rnd) -> bool:
    if state.phase is not Phase.ROUND_OVER:
        return False
    data["history"][-1][rnd.randrange(state.players)] += rnd.choice([-1, 1])
    return True


def _pair_face_down(data, state, rnd) -> bool:
    s = _seat_holding(data["face_up"], rnd)
    if s is None:
        return False
    card = data["face_up"][s][0]
    pair = [card, 10 * (card % 10) + card // 10]
    data["face_up"][s] = [c for c in data["face_up"][s] if c not in pair]
    data["face_down"][s] += pair
    return True


def _card_face_up(data, state, rnd) -> bool:
    s = _seat_holding(data["face_down"], rnd)
    if s is None:
        return False
    data["face_up"][s].append(data["face_down"][s].pop())
    return True


def _stock_left(state: State) -> bool:
    return bool(state.stock)


KINDS = {
    **mut.card_mutations(lambda d: [d["stock"], d["row"], *d["hands"], *d["face_up"], *d["face_down"]],
                         foreign=[10, 11, 40, 99, 100, 0]),
    "hand-to-hand": Mutation(_hand_to_hand, lambda s: (
        "professional variant, stock used up: an extra card may have left the stock on a take, so "
        "turns are not counted and shortfalls that grow by one in turn order are all reachable"
        if s.options.professional and not s.stock else None)),
    "stock-to-hand": Mutation(mut.stock_to_hand),
    "round": Mutation(mut.round_moved),
    "dealer": Mutation(mut.seat_moved("dealer")),
    "turn": Mutation(mut.turn_moved, lambda s: (
        "professional variant: a take of a one-card row may also take a stock card, so the stock "
        "no longer counts the turns played" if s.options.professional and s.phase is Phase.PLAY else None)),
    "seat-out-of-range": Mutation(mut.seat_out_of_range("turn", "dealer")),
    "phase": Mutation(_phase),
    "history-earlier": Mutation(_history_earlier, lambda s: (
        "an earlier round's scores come from piles no longer on the table; any score within the "
        "deck's bounds is some deal's")),
    "history-last": Mutation(_history_last),
    "history-length": Mutation(mut.history_length(lambda players: [0] * players)),
    "face-up-pair-face-down": Mutation(_pair_face_down, lambda s: (
        "both twins of a pair can lie in a row that is taken, face down; once the round is over "
        "the scores in history tell" if s.phase is Phase.PLAY else None)),
    "face-down-card-face-up": Mutation(_card_face_up),
    "players": Mutation(mut.players_changed(4)),
    "types": Mutation(mut.wrong_types(
        ("players", "2"), ("round", 1.5), ("stock", {}), ("hands", "x"), ("options", []), ("history", None),
        ("rng", "x"), ("phase", 3), ("row", [None]), ("face_up", None), ("turn", True), ("dealer", "0"),
    )),
    "rng-counter": mut.RNG_DEALS_ONLY,
}


SUITE = MutationTests(GAME, [ENGINE.to_json(s) for s in REAL], KINDS, rng=2026)
test_real_states_load_unchanged, test_enough_mutations_of_every_kind, test_mutation_is_refused_or_reachable = \
    SUITE.tests()


def test_real_states_are_mid_game():
    """The playouts give states of every phase (``test_real_states_load_unchanged`` loads each)."""
    assert len(REAL) >= 100
    phases = Counter((s.phase, bool(s.stock), s.round > 1) for s in REAL)
    assert phases[(Phase.PLAY, True, False)] and phases[(Phase.PLAY, False, False)]
    assert phases[(Phase.PLAY, True, True)] and phases[(Phase.ROUND_OVER, False, False)]


def test_some_mutations_play_cannot_reach_are_refused_for_the_new_reasons():
    """The checks beyond conservation fire on real states: dealer, hand sizes, turn, history."""
    codes = SUITE.refusal_codes("dealer", "hand-to-hand", "turn", "history-last")
    assert {"take-that.bad-dealer", "take-that.bad-hand-size", "take-that.bad-turn",
            "take-that.bad-history"} <= codes


def test_toads_never_lie_face_up_in_real_states():
    assert not any(is_toad(c) for s in REAL for pile in s.face_up for c in pile)
