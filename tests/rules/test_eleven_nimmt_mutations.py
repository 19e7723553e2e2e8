"""Impossible 11 nimmt! states are refused (issue 10 §2; docs/rules/11-nimmt.md §8).

Real mid-game states come from seeded random playouts (``tests/playout.py``'s chooser) under
several option sets. Each is mutated in one way (duplicate, missing and foreign cards; hand
sizes; counters; scores; seats; phases; types) and loaded the way the service loads a state
(``BINDINGS["11-nimmt"].load_state``: the declared shape, then the checks of meaning). A mutation must be
refused (InvalidState with an ``11-nimmt.`` code: ``bad-state`` for the shape), unless
its kind names why play can reach the result (``why``); nothing else may be raised. The harness
is tests/rules/mutations.py.
"""

from __future__ import annotations

from itertools import islice

from rules.eleven_nimmt import ENGINE, Phase, State
from tests.rules import mutations as mut
from tests.rules.mutations import Mutation, MutationTests
from tests.rules.mutations import playout as play

GAME = "11-nimmt"
OPTION_SETS = (
    {"rounds": 2},
    {"rounds": 2, "bulls_between_rounds": "keep", "next_starter": "round"},
    {"rounds": 2, "empty_supply": "all-players", "start_player": 1},
)


def _playout(seed: int, players: int, options: dict, taker: bool) -> list[State]:
    """Every state of one seeded random game (takes weighted down, as in the conformance suite).
    A ``taker`` game chooses among the takes alone half the time while the stock lasts, so that
    the stock runs out before a hand empties."""
    def narrow(state, moves, rnd):
        if taker and state.stock and rnd.random() < 0.5:
            return [m for m in moves if ENGINE.move_to_json(m)["kind"] == "take"] or moves
        return moves
    return list(islice(play(GAME, players, seed, options, narrow=narrow), 3000))


def _taken(state: State) -> int | None:
    """Stacks taken this round, while the stock tells (docs/rules/11-nimmt.md §8)."""
    if not state.stock:
        return None
    return (99 - 10 * state.players - len(state.stock)) // 2


def _fresh(state: State) -> bool:
    """No stack taken and no bull card out: every turn so far was one card on the one stack."""
    return _taken(state) == 0 and not any(state.bulls)


def _real_states() -> list[State]:
    """About 100 states: a spread of each of 9 games (2, 4 and 7 players, each option set),
    the fresh deals and every finished round, so fresh tables, stocks half gone and used up,
    finished rounds and later rounds all appear."""
    states = []
    for i, options in enumerate(OPTION_SETS):
        for players in (2, 4, 7):
            game = _playout(200 + 10 * i + players, players, options, taker=players != 4)
            step = max(1, len(game) // 8)
            states += game[1:4] + game[5::step] + [s for s in game if s.phase is not Phase.PLAY]
    return states


REAL = _real_states()


# --------------------------------------------------------------------------- mutations

def _hand_to_hand(data, state, rnd) -> bool:
    givers = [s for s, h in enumerate(data["hands"]) if h]
    a = rnd.choice(givers)
    b = rnd.choice([s for s in range(state.players) if s != a])
    data["hands"][b].append(data["hands"][a].pop(rnd.randrange(len(data["hands"][a]))))
    return True


def _stock_to_stack(data, state, rnd) -> bool:
    if not data["stock"]:
        return False
    data["stacks"].append([data["stock"].pop()])
    return True


def _stack_to_hand(data, state, rnd) -> bool:
    if not data["stacks"]:
        return False
    s = rnd.randrange(len(data["stacks"]))
    data["hands"][rnd.randrange(state.players)] += data["stacks"].pop(s)
    return True


def _went_out(data, state, rnd) -> bool:
    went = data["went_out"]
    data["went_out"] = rnd.randrange(state.players) if went is None else (went + 1) % state.players
    return True


def _phase(data, state, rnd) -> bool:
    data["phase"] = rnd.choice([p.value for p in Phase if p is not state.phase])
    return True


def _supply(data, state, rnd) -> bool:
    data["supply"] += rnd.choice([-1, 1])
    return True


def _bull_from_supply(data, state, rnd) -> bool:
    if not data["supply"]:
        return False
    data["supply"] -= 1
    data["bulls"][rnd.randrange(state.players)] += 1
    return True


def _history_earlier(data, state, rnd) -> bool:
    earlier = len(data["history"]) - (state.phase is not Phase.PLAY)
    if earlier < 1:
        return False
    row = data["history"][rnd.randrange(earlier)]
    row[rnd.choice([s for s in range(state.players) if row[s]])] += 1
    return True


def _history_last(data, state, rnd) -> bool:
    if state.phase is Phase.PLAY:
        return False
    row = data["history"][-1]
    row[rnd.choice([s for s in range(state.players) if row[s]])] += rnd.choice([-1, 1])
    return True


def _after_a_take(state: State) -> str | None:
    if state.phase is Phase.PLAY and not _fresh(state):
        return ("once a stack has been taken (or a bull card is out) the state records neither how many "
                "turns were played nor who took what: any seat may be to act and hands of any size")
    return None


def _bull_reachable(state: State) -> str | None:
    taken = _taken(state)
    if taken is None or _bulls_kept(state) or 10 - state.supply + 1 <= taken:
        return ("bull cards out of the supply need as many takes of three or more cards, which the "
                "stock allows here (or the stock is used up, or bull cards were kept from earlier rounds)")
    return None


def _bulls_kept(state: State) -> bool:
    return state.options.bulls_between_rounds == "keep" and state.round > 1


def _last_stock_card(state: State) -> str | None:
    if len(state.stock) == 1:
        return ("moving the last stock card uses the stock up: a take that finds one card reveals it "
                "as a stack, a later take brings it into a hand, and an empty stock no longer counts takes")
    return None


KINDS = {
    **mut.card_mutations(lambda d: [d["stock"], *d["hands"], *d["stacks"]], foreign=[0, 101, -5, 104]),
    "hand-to-hand": Mutation(_hand_to_hand, _after_a_take),
    "stock-to-hand": Mutation(mut.stock_to_hand, _last_stock_card),
    "stock-to-stack": Mutation(_stock_to_stack, _last_stock_card),
    "stack-to-hand": Mutation(_stack_to_hand, lambda s: (
        "with the stock used up a take reveals nothing, so a stack can go to a hand without new "
        "stacks" if not s.stock and s.phase is Phase.PLAY else None)),
    "round": Mutation(mut.round_moved),
    "starter": Mutation(mut.seat_moved("starter")),
    "turn": Mutation(mut.turn_moved, _after_a_take),
    "went-out": Mutation(_went_out),
    "seat-out-of-range": Mutation(mut.seat_out_of_range("turn", "starter", "went_out")),
    "phase": Mutation(_phase),
    "supply": Mutation(_supply),
    "bull-from-supply": Mutation(_bull_from_supply, _bull_reachable),
    "history-earlier": Mutation(_history_earlier, lambda s: (
        "an earlier round's minus points were in hands no longer on the table; accepted when the "
        "starter the history gives does not change")),
    "history-last": Mutation(_history_last),
    "history-length": Mutation(mut.history_length(lambda players: [0] + [1] * (players - 1))),
    "players": Mutation(mut.players_changed(7)),
    "types": Mutation(mut.wrong_types(
        ("players", "2"), ("round", 1.5), ("stock", {}), ("hands", "x"), ("options", []), ("history", None),
        ("rng", "x"), ("phase", 3), ("stacks", [None]), ("bulls", None), ("turn", True), ("starter", "0"),
        ("supply", [1]),
    )),
    "rng-counter": mut.RNG_DEALS_ONLY,
}


SUITE = MutationTests(GAME, [ENGINE.to_json(s) for s in REAL], KINDS, rng=2026)
test_real_states_load_unchanged, test_enough_mutations_of_every_kind, test_mutation_is_refused_or_reachable = \
    SUITE.tests()


def test_real_states_are_mid_game():
    """The playouts give fresh tables, stocks in use and used up, finished rounds and later
    rounds (``test_real_states_load_unchanged`` loads each)."""
    assert len(REAL) >= 100
    assert any(_fresh(s) and s.phase is Phase.PLAY for s in REAL)
    assert any(_taken(s) and s.phase is Phase.PLAY for s in REAL)
    assert any(not s.stock and s.phase is Phase.PLAY for s in REAL)
    assert any(s.phase is Phase.ROUND_OVER for s in REAL) and any(s.phase is Phase.GAME_OVER for s in REAL)


def test_some_mutations_play_cannot_reach_are_refused_for_the_new_reasons():
    """The checks beyond conservation fire on real states: starter, stock, bull cards, turn."""
    codes = SUITE.refusal_codes("starter", "stock-to-stack", "bull-from-supply", "turn", "hand-to-hand")
    assert {"11-nimmt.bad-starter", "11-nimmt.bad-stock", "11-nimmt.bad-bulls", "11-nimmt.bad-turn",
            "11-nimmt.bad-hands"} <= codes
