"""Impossible Karten-Kniffel states are refused, reachable ones are not (docs/rules/kniffel-cards.md §8).

Real mid-game states come from seeded random playouts (``tests/playout.py``'s chooser) under
several option sets; each is mutated in many ways (duplicate, missing and foreign cards; hand
sizes; counters; scores; seats; phases; types) and loaded as the service loads a request's
state: ``BINDINGS["kniffel-cards"].load_state`` (the declared shape, then the checks of meaning).

Every mutation is either
- REFUSED: an ``InvalidState`` whose code is a
  ``kniffel-cards.*`` code (``bad-state`` for the shape), and nothing else; or
- REACHABLE: accepted, with the reason some sequence of moves reaches it written beside it.
  These are: another order of the stock (any order is a shuffle's); another order of the
  discard pile (the players could have discarded in that order); a round of passes added
  under ``allow_pass`` (every seat took one more turn that changed nothing); another possible
  value in a filled box once the stock may have been reshuffled (the sheet is the only record
  of past plays and the piles no longer show which cards were played); two hands of the same
  size swapped between seats that are not acting (cards have no identity: a different deal
  and different draws); a card moved between the stock and the discard pile once the stock
  may have run out (the reshuffle came at another moment).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rules.kniffel_cards import ENGINE as E
from rules.kniffel_cards import Phase, State
from tests.rules.mutations import ACCEPTED, REFUSED, Mutation, MutationTests, outcome
from tests.rules.mutations import playout as play

GAME = "kniffel-cards"
CONFIGS = [
    (2, 11, {}),
    (3, 12, {"excess_after_score": "keep", "second_kniffel_play": True}),
    (4, 13, {"auto_announce": True, "start_player": 2}),
    (5, 14, {"upper_cards": "all", "allow_pass": False}),
    (3, 15, {"second_kniffel_play": True, "start_player": 1}),
]


def playout_samples() -> Iterator[State]:
    """From each seeded playout: the fresh table, six states spread over the game, the first
    exchange and the first trim in progress, and the finished game."""
    for players, seed, options in CONFIGS:
        states = list(play(GAME, players, seed, options))
        picked = {0, len(states) - 1, *range(len(states) // 7, len(states) - 1, len(states) // 7)}
        for phase in (Phase.EXCHANGE, Phase.TRIM):
            picked |= {next((i for i, s in enumerate(states) if s.phase is phase and i > 50), 0)}
        yield from (states[i] for i in sorted(picked))


SAMPLES = list(playout_samples())


# ------------------------------------------------------------------------- helpers


def fills(data, p: int) -> int:
    return sum(v is not None for v in data["sheets"][p]["boxes"].values())


def resting_seats(state: State) -> list[int]:
    """Seats that are not in the middle of their turn."""
    return [p for p in range(state.players) if p != state.turn or state.phase is Phase.ACTION]


def may_have_reshuffled(state: State) -> bool:
    """A turn draws 6 cards at most: before 6 x turns reach the dealt stock, nothing was reshuffled."""
    return 6 * sum(state.turns) >= 108 - 5 * state.players


def take(data, src: str, dst: list, count: int) -> bool:
    """Move ``count`` cards from the stock (then the discard pile) into ``dst``; False if short."""
    for _ in range(count):
        pile = data[src] if data[src] else data["discard"]
        if not pile:
            return False
        dst.append(pile.pop())
    return True


MUTATIONS: dict[str, Mutation] = {}


def mutation(name: str, expect: str = REFUSED):
    """Register ``fn(data, state) -> applicable`` that changes ``data`` in place."""
    def register(fn: Callable[[dict, State], bool]):
        MUTATIONS[name] = Mutation(lambda data, state, rnd: fn(data, state), None if expect == REFUSED else expect)
        return fn
    return register


# ----------------------------------------------------------------- cards (refused)


@mutation("duplicate card in a hand")
def _(d, s):
    d["hands"][0].append(d["hands"][0][0])
    return True


@mutation("duplicate card on the stock")
def _(d, s):
    d["stock"].append(6)
    return True


@mutation("card missing from the stock or discard pile")
def _(d, s):
    pile = d["stock"] or d["discard"]
    if not pile:
        return False
    pile.pop()
    return True


@mutation("card missing from a hand")
def _(d, s):
    d["hands"][-1].pop()
    return True


@mutation("foreign card 7 on the discard pile")
def _(d, s):
    if not d["stock"]:
        return False
    d["stock"].pop()
    d["discard"].append(7)
    return True


@mutation("foreign card 0 in a hand")
def _(d, s):
    d["hands"][0][0] = 0
    return True


@mutation("card written as a string")
def _(d, s):
    d["hands"][0][0] = str(d["hands"][0][0])
    return True


@mutation("one card's value changed")
def _(d, s):
    d["hands"][0][0] = d["hands"][0][0] % 6 + 1
    return True


# ------------------------------------------------------------- hand sizes (refused)


@mutation("a resting hand grows beyond one card per exchange turn")
def _(d, s):
    p = resting_seats(s)[-1]
    exchanges = d["turns"][p] - fills(d, p)
    return take(d, "stock", d["hands"][p], 5 + exchanges + 1 - len(d["hands"][p]))


@mutation("a fresh table with an 8-card hand")
def _(d, s):
    if sum(s.turns):
        return False
    return take(d, "stock", d["hands"][1], 3)


@mutation("a resting hand below five cards")
def _(d, s):
    p = resting_seats(s)[0]
    while len(d["hands"][p]) > 4:
        d["discard"].append(d["hands"][p].pop())
    return True


@mutation("a hand of eleven")
def _(d, s):
    return take(d, "stock", d["hands"][0], 11 - len(d["hands"][0]))


@mutation("the stock emptied into the discard pile before it can run out")
def _(d, s):
    if may_have_reshuffled(s) or not d["stock"]:
        return False
    d["discard"] += d["stock"]
    d["stock"] = []
    return True


# --------------------------------------------------------------- counters (refused)


@mutation("one seat's turn counter + 1")
def _(d, s):
    d["turns"][-1] += 1
    return True


@mutation("turn counters reset with a box filled")
def _(d, s):
    if not any(fills(d, p) for p in range(s.players)):
        return False
    d["turns"] = [0] * s.players
    d["turn"] = None if s.phase is Phase.GAME_OVER else s.options.start_player
    return True


@mutation("discarded 1 outside an exchange")
def _(d, s):
    if s.phase is Phase.EXCHANGE:
        return False
    d["discarded"] = 1
    return True


@mutation("discarded 6")
def _(d, s):
    d["discarded"] = 6
    return True


@mutation("a box filled beyond the seat's turns")
def _(d, s):
    for p in resting_seats(s):
        empty = [b for b, v in d["sheets"][p]["boxes"].items() if v is None]
        if empty and fills(d, p) >= d["turns"][p]:
            d["sheets"][p]["boxes"][empty[0]] = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5}.get(
                empty[0], {"sixes": 6, "full-house": 25, "small-straight": 30, "large-straight": 40,
                           "kniffel": 50}.get(empty[0], 15))
            return True
    return False


@mutation("rng counter before the deal")
def _(d, s):
    d["rng"]["counter"] = 5
    return True


@mutation("rng counter as a string")
def _(d, s):
    d["rng"]["counter"] = str(d["rng"]["counter"])
    return True


# ------------------------------------------------------------------ scores (refused)


@mutation("impossible upper box value")
def _(d, s):
    d["sheets"][0]["boxes"]["ones"] = 7
    return True


@mutation("impossible full house value")
def _(d, s):
    d["sheets"][-1]["boxes"]["full-house"] = 24
    return True


@mutation("penalty beside an empty box")
def _(d, s):
    for sheet in d["sheets"]:
        empty = [b for b, v in sheet["boxes"].items() if v is None]
        if empty:
            sheet["penalties"][empty[0]] = 2
            return True
    return False


@mutation("odd penalty beside a filled box")
def _(d, s):
    for sheet in d["sheets"]:
        filled = [b for b, v in sheet["boxes"].items() if v is not None]
        if filled:
            sheet["penalties"][filled[0]] = 3
            return True
    return False


@mutation("penalty above 10")
def _(d, s):
    d["sheets"][0]["penalties"]["ones"] = 12
    return True


@mutation("penalties that need more exchanges than the seat had")
def _(d, s):
    for p in resting_seats(s):
        sheet = d["sheets"][p]
        filled = [b for b, v in sheet["boxes"].items() if v is not None]
        # an exchange that drew one more card pays 2 points once ('discard' trims the hand after
        # every score); a kept hand may pay again, but no single penalty exceeds 2 per exchange
        paid = 5 * len(filled) if s.options.excess_after_score == "discard" else 5
        if filled and paid > d["turns"][p] - len(filled):
            for b in filled:
                sheet["penalties"][b] = 10
            return True
    return False


@mutation("missed announcement before the 11th fill")
def _(d, s):
    for p, sheet in enumerate(d["sheets"]):
        if fills(d, p) < 11:
            sheet["missed_announcement"] = True
            return True
    return False


@mutation("extra penalties without the second-Kniffel option")
def _(d, s):
    if s.options.second_kniffel_play:
        return False
    d["sheets"][0]["extra_penalties"] = 2
    return True


@mutation("missed announcement as 1")
def _(d, s):
    d["sheets"][0]["missed_announcement"] = 1
    return True


# ------------------------------------------------------------------- seats (refused)


@mutation("turn given to the next seat")
def _(d, s):
    if s.turn is None:
        return False
    d["turn"] = (s.turn + 1) % s.players
    return True


@mutation("turn null mid-game")
def _(d, s):
    if s.turn is None:
        return False
    d["turn"] = None
    return True


@mutation("turn set once the game is over")
def _(d, s):
    if s.turn is not None:
        return False
    d["turn"] = 0
    return True


@mutation("turn beyond the seats")
def _(d, s):
    d["turn"] = 9
    return True


@mutation("turn -1")
def _(d, s):
    d["turn"] = -1
    return True


@mutation("end triggered by a seat without a full sheet")
def _(d, s):
    for p in range(s.players):
        if fills(d, p) < 12:
            d["end_triggered_by"] = p
            return True
    return False


@mutation("no end recorded in a finished game")
def _(d, s):
    if s.phase is not Phase.GAME_OVER:
        return False
    d["end_triggered_by"] = None
    return True


@mutation("another start player mid-game")
def _(d, s):
    if s.phase is Phase.GAME_OVER:
        return False
    d["options"]["start_player"] = (s.options.start_player + 1) % s.players
    return True


@mutation("one more seat")
def _(d, s):
    if s.players == 5:
        return False
    d["players"] += 1
    return True


@mutation("players as a string")
def _(d, s):
    d["players"] = str(d["players"])
    return True


# ------------------------------------------------------------------ phases (refused)


@mutation("game over mid-game")
def _(d, s):
    if s.phase is Phase.GAME_OVER:
        return False
    d["phase"] = "game-over"
    return True


@mutation("unknown phase")
def _(d, s):
    d["phase"] = "bidding"
    return True


@mutation("exchange with nothing discarded")
def _(d, s):
    if s.phase is not Phase.ACTION:
        return False
    d["phase"] = "exchange"
    return True


@mutation("trim with a five-card hand")
def _(d, s):
    if s.phase is not Phase.ACTION or len(s.hands[s.turn]) != 5:
        return False
    d["phase"] = "trim"
    return True


@mutation("exchange in progress turned back into a choice")
def _(d, s):
    if s.phase is not Phase.EXCHANGE:
        return False
    d["phase"] = "action"
    return True


# ------------------------------------------------------------------- types (refused)


@mutation("hands as text")
def _(d, s):
    d["hands"] = " ".join(str(c) for c in d["hands"][0])
    return True


@mutation("sheets missing")
def _(d, s):
    del d["sheets"]
    return True


@mutation("boxes as a list")
def _(d, s):
    d["sheets"][0]["boxes"] = list(d["sheets"][0]["boxes"].values())
    return True


@mutation("unknown field")
def _(d, s):
    d["current"] = 0
    return True


@mutation("option value of the wrong type")
def _(d, s):
    d["options"]["allow_pass"] = "yes"
    return True


# ----------------------------------------------------------------------- reachable


@mutation("stock in another order", "reachable: any order of the stock is a shuffle's outcome")
def _(d, s):
    if len(set(d["stock"])) < 2:
        return False
    d["stock"].reverse()
    return True


@mutation("discard pile in another order", "reachable: the players could have discarded in that order")
def _(d, s):
    if len(set(d["discard"])) < 2:
        return False
    d["discard"].reverse()
    return True


@mutation("a round of passes", "reachable: every seat passed once more (allow_pass), which changes nothing else")
def _(d, s):
    if not s.options.allow_pass or s.end_triggered_by is not None or s.phase is not Phase.ACTION:
        return False
    d["turns"] = [t + 1 for t in d["turns"]]
    return True


@mutation(
    "another possible value in a filled box",
    "reachable: the sheet is the only record of past plays; once the stock may have been reshuffled "
    "the piles no longer show which cards were played",
)
def _(d, s):
    if not may_have_reshuffled(s):
        return False
    for sheet in d["sheets"]:
        for box, other in (("ones", 2), ("twos", 4), ("threes", 6), ("sixes", 12), ("three-of-a-kind", 17)):
            if sheet["boxes"][box] not in (None, other):
                sheet["boxes"][box] = other
                return True
    return False


@mutation(
    "equal-sized hands swapped between resting seats",
    "reachable: cards have no identity; a different deal and different draws give these hands",
)
def _(d, s):
    resting = resting_seats(s)
    for i, p in enumerate(resting):
        for q in resting[i + 1:]:
            if len(d["hands"][p]) == len(d["hands"][q]) and d["hands"][p] != d["hands"][q]:
                d["hands"][p], d["hands"][q] = d["hands"][q], d["hands"][p]
                return True
    return False


@mutation(
    "a card moved from the stock to the discard pile",
    "reachable: once the stock may have run out, the reshuffle could have come at another moment",
)
def _(d, s):
    if not may_have_reshuffled(s) or s.phase is not Phase.ACTION or not d["stock"]:
        return False
    d["discard"].append(d["stock"].pop())
    return True


# ---------------------------------------------------------------------------- tests


SUITE = MutationTests(GAME, [E.to_json(s) for s in SAMPLES], MUTATIONS, reachable_loads=True)
test_real_states_load_unchanged, test_enough_mutations_of_every_kind, test_mutation_is_refused_or_reachable = \
    SUITE.tests()


def test_the_samples_are_real_and_varied() -> None:
    assert len(SAMPLES) >= 40
    assert all(outcome(GAME, E.to_json(s)) == ACCEPTED for s in SAMPLES)
    phases = {s.phase for s in SAMPLES}
    assert phases == set(Phase)
    assert any(sum(s.turns) == 0 for s in SAMPLES) and any(s.end_triggered_by is not None for s in SAMPLES)
