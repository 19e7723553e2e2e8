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


def penalty_beside(filled: bool, points: int) -> Callable[[dict, State], bool]:
    """``points`` of penalty beside the first filled (or empty) box of the first sheet that has one."""
    def mutate(d, s):
        for sheet in d["sheets"]:
            boxes = [b for b, v in sheet["boxes"].items() if (v is not None) == filled]
            if boxes:
                sheet["penalties"][boxes[0]] = points
                return True
        return False
    return mutate


def reversed_pile(pile: str) -> Callable[[dict, State], bool]:
    """The pile in reverse order, where that changes it."""
    def mutate(d, s):
        if len(set(d[pile])) < 2:
            return False
        d[pile].reverse()
        return True
    return mutate


MUTATIONS: dict[str, Mutation] = {}


def mutation(name: str, expect: str = REFUSED):
    """Register ``fn(data, state) -> applicable`` that changes ``data`` in place."""
    def register(fn: Callable[[dict, State], bool]):
        MUTATIONS[name] = Mutation(lambda data, state, rnd: fn(data, state), None if expect == REFUSED else expect)
        return fn
    return register


def sets(name: str, path: tuple, value, *, unless: Callable[[State], bool] = lambda s: False) -> None:
    """Register a mutation that writes ``value`` at ``path`` (keys and indexes) of the JSON; it
    does not apply to the states where ``unless(state)``."""
    def mutate(d, s):
        if unless(s):
            return False
        *outer, last = path
        for key in outer:
            d = d[key]
        d[last] = value
        return True
    mutation(name)(mutate)


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


sets("foreign card 0 in a hand", ("hands", 0, 0), 0)


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


sets("discarded 1 outside an exchange", ("discarded",), 1, unless=lambda s: s.phase is Phase.EXCHANGE)
sets("discarded 6", ("discarded",), 6)


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


sets("rng counter before the deal", ("rng", "counter"), 5)


@mutation("rng counter as a string")
def _(d, s):
    d["rng"]["counter"] = str(d["rng"]["counter"])
    return True


# ------------------------------------------------------------------ scores (refused)


sets("impossible upper box value", ("sheets", 0, "boxes", "ones"), 7)
sets("impossible full house value", ("sheets", -1, "boxes", "full-house"), 24)
mutation("penalty beside an empty box")(penalty_beside(filled=False, points=2))
mutation("odd penalty beside a filled box")(penalty_beside(filled=True, points=3))
sets("penalty above 10", ("sheets", 0, "penalties", "ones"), 12)


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


sets("extra penalties without the second-Kniffel option", ("sheets", 0, "extra_penalties"), 2,
     unless=lambda s: s.options.second_kniffel_play)
sets("missed announcement as 1", ("sheets", 0, "missed_announcement"), 1)


# ------------------------------------------------------------------- seats (refused)


@mutation("turn given to the next seat")
def _(d, s):
    if s.turn is None:
        return False
    d["turn"] = (s.turn + 1) % s.players
    return True


sets("turn null mid-game", ("turn",), None, unless=lambda s: s.turn is None)
sets("turn set once the game is over", ("turn",), 0, unless=lambda s: s.turn is not None)
sets("turn beyond the seats", ("turn",), 9)
sets("turn -1", ("turn",), -1)


@mutation("end triggered by a seat without a full sheet")
def _(d, s):
    for p in range(s.players):
        if fills(d, p) < 12:
            d["end_triggered_by"] = p
            return True
    return False


sets("no end recorded in a finished game", ("end_triggered_by",), None,
     unless=lambda s: s.phase is not Phase.GAME_OVER)


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


sets("game over mid-game", ("phase",), "game-over", unless=lambda s: s.phase is Phase.GAME_OVER)
sets("unknown phase", ("phase",), "bidding")
sets("exchange with nothing discarded", ("phase",), "exchange", unless=lambda s: s.phase is not Phase.ACTION)
sets("trim with a five-card hand", ("phase",), "trim",
     unless=lambda s: s.phase is not Phase.ACTION or len(s.hands[s.turn]) != 5)
sets("exchange in progress turned back into a choice", ("phase",), "action",
     unless=lambda s: s.phase is not Phase.EXCHANGE)


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


sets("unknown field", ("current",), 0)
sets("option value of the wrong type", ("options", "allow_pass"), "yes")


# ----------------------------------------------------------------------- reachable


mutation("stock in another order", "reachable: any order of the stock is a shuffle's outcome")(reversed_pile("stock"))
mutation("discard pile in another order", "reachable: the players could have discarded in that order")(
    reversed_pile("discard"))


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
