"""The harness of every tests/rules/test_<game>_mutations.py (issue 10 §2: impossible states).

A game's file makes REAL states with ``playout`` (seeded random play, the conformance suite's
chooser), lists its mutations (functions that change a state's JSON in place) with what each
may give, and hands both to ``MutationTests``, whose ``tests()`` are the file's three tests:

- every real state loads, unchanged;
- enough mutations apply, and every kind at least once;
- per kind: each mutated state is refused, by the state schema (``BINDINGS[game].load_state``
  -> marshmallow ``ValidationError``) or by ``from_json`` (``InvalidState`` with a catalogued
  ``<game>.`` code whose Polish detail formats with the raise's context), unless the mutation
  names why play can reach it. Nothing else may be raised.

A mutation is ``change(data, state, rnd)`` (``state`` is the engine's state of the unchanged
``data``): it returns a false value where it does not apply, ``True`` where the table's
expectation holds, or the expectation itself: ``REFUSED`` or the reason play can reach it.
A change that leaves the JSON text as it was is no case.
"""

from __future__ import annotations

import copy
import enum
import json
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from marshmallow import ValidationError

from rules.base import InvalidState
from service.games import BINDINGS
from tests.playout import choose

REFUSED = "refused"
ACCEPTED = "accepted"

Change = Callable[[dict, Any, random.Random], "bool | str | None"]
Why = "str | Callable[[Any], str | None] | None"


def playout(game: str, players: int, seed: int, options: dict | None = None, *, rnd: random.Random | None = None,
            any_seat: bool = False,
            narrow: Callable[[Any, list, random.Random], list] | None = None) -> Iterator[Any]:
    """Every state of one seeded random game, the fresh one first, until nobody is to act.

    The lowest acting seat moves (``any_seat``: one of them at random); ``rnd`` (default
    ``Random(seed)``) picks with ``tests.playout.choose``; ``narrow(state, moves, rnd)`` may cut
    the legal moves down first."""
    engine = BINDINGS[game].engine
    rnd = random.Random(seed) if rnd is None else rnd
    state = engine.new(players, seed, options or {})
    yield state
    while acting := engine.to_act(state):
        seat = rnd.choice(sorted(acting)) if any_seat else min(acting)
        moves = list(engine.legal_moves(state, seat))
        if narrow is not None:
            moves = narrow(state, moves, rnd)
        state = engine.apply(state, seat, choose(rnd, game, moves, lambda m: engine.move_to_json(m)["kind"]))
        yield state


def load(game: str, data: dict, *, plain: bool = True) -> tuple[str, Any]:
    """(``ACCEPTED``, the state) or (``"schema"`` or the ``InvalidState`` code, None), loading
    ``data`` as a request's JSON is loaded. Any other exception fails the test, and so does a
    refusal whose message shows Python's ``None`` or an exception's name (``plain``)."""
    engine = BINDINGS[game].engine
    try:
        return ACCEPTED, BINDINGS[game].load_state(json.loads(json.dumps(data)))
    except ValidationError:
        return "schema", None
    except InvalidState as exc:
        assert exc.code.startswith(f"{game}.") and exc.code in engine.codes, exc.code
        assert not plain or ("Error" not in exc.message and "None" not in exc.message), exc.message
        assert "None" not in engine.codes[exc.code].detail_pl.format(**exc.context), exc.code
        return exc.code, None


def outcome(game: str, data: dict) -> str:
    """``ACCEPTED``, ``"schema"`` or the ``InvalidState`` code (see ``load``)."""
    return load(game, data)[0]


@dataclass(frozen=True)
class Mutation:
    change: Change
    #: why play can reach the result (or a function of the unchanged state that says so, or
    #: None there); None: always refused
    why: Why = None


def tables(refused: Iterable[Change] | Mapping[str, Change] = (),
           reachable: Mapping[str, tuple[Change, Why]] | None = None) -> dict[str, Mutation]:
    """One table from a REFUSED table (functions, or name -> function) and a REACHABLE one
    (name -> (function, why))."""
    named = refused.items() if isinstance(refused, Mapping) else ((f.__name__, f) for f in refused)
    return {**{name: Mutation(f) for name, f in named},
            **{name: Mutation(f, why) for name, (f, why) in (reachable or {}).items()}}


@dataclass(frozen=True)
class Case:
    kind: str
    index: int  # of the real state
    data: dict
    expect: str  # REFUSED or why play can reach it


def _text(data: dict) -> str:
    return json.dumps(data, sort_keys=True)


class MutationTests:
    """A game's mutation tests from its real states and its table of mutations.

    ``rng``: one ``Random(rng)`` runs through all states and kinds in order; None: each call
    gets a fresh ``Random(index of the state)``. ``tries``: calls per state and kind.
    ``reachable_loads``: a reachable case must load (else it may also be refused).
    ``as_given``: an accepted case loads as given (its JSON back unchanged, nothing silently
    fixed; games whose engine sorts hands cannot say so). ``min_refused``: how many cases at
    least must be refused. ``plain``: refusals' messages show no Python internals (see ``load``)."""

    def __init__(self, game: str, states: list[dict], mutations: Mapping[str, Mutation], *, rng: int | None = None,
                 tries: int = 1, reachable_loads: bool = False, as_given: bool = False, minimum: int = 100,
                 min_refused: int = 0, plain: bool = True):
        self.game, self.states, self.mutations = game, states, dict(mutations)
        self.reachable_loads, self.as_given = reachable_loads, as_given
        self.minimum, self.min_refused, self.plain = minimum, min_refused, plain
        self.cases = self._cases(rng, tries)

    def _cases(self, rng: int | None, tries: int) -> list[Case]:
        engine = BINDINGS[self.game].engine
        shared = random.Random(rng) if rng is not None else None
        out = []
        for index, data in enumerate(self.states):
            state, before = engine.from_json(copy.deepcopy(data)), _text(data)
            for kind, mutation in self.mutations.items():
                for _ in range(tries):
                    mutated = copy.deepcopy(data)
                    got = mutation.change(mutated, state, shared or random.Random(index))
                    if not got or _text(mutated) == before:  # True == 1, but not in JSON
                        continue
                    why = mutation.why(state) if callable(mutation.why) else mutation.why
                    out.append(Case(kind, index, mutated, got if isinstance(got, str) else why or REFUSED))
        return out

    def check(self, case: Case) -> str:
        """The case's outcome, once it is checked against what the case expects."""
        got, state = load(self.game, case.data, plain=self.plain)
        where = f"{case.kind} of real state {case.index}"
        if case.expect == REFUSED:
            assert got != ACCEPTED, f"{where} was accepted but play cannot reach it"
        elif self.reachable_loads:
            assert got == ACCEPTED, f"{where} ({case.expect}) was refused: {got}"
        if got == ACCEPTED and self.as_given:
            assert BINDINGS[self.game].engine.to_json(state) == json.loads(json.dumps(case.data)), where
        return got

    def refusal_codes(self, *kinds: str) -> set[str]:
        """The ``InvalidState`` codes ``from_json`` raises for the cases of ``kinds``."""
        codes = set()
        for case in self.cases:
            if case.kind in kinds:
                try:
                    BINDINGS[self.game].engine.from_json(case.data)
                except InvalidState as exc:
                    codes.add(exc.code)
        return codes

    def tests(self) -> tuple[Callable[[], None], Callable[[], None], Callable[[str], None]]:
        """The file's three tests (assign them to module-level ``test_*`` names)."""

        def test_real_states_load_unchanged() -> None:
            engine = BINDINGS[self.game].engine
            for data in self.states:
                got, state = load(self.game, data)
                assert got == ACCEPTED and engine.to_json(state) == json.loads(json.dumps(data)), got

        def test_enough_mutations_of_every_kind() -> None:
            assert len(self.cases) >= self.minimum, len(self.cases)
            assert {c.kind for c in self.cases} == set(self.mutations), "kinds never applied: " + ", ".join(
                sorted(set(self.mutations) - {c.kind for c in self.cases}))
            if self.min_refused:
                refused = sum(load(self.game, c.data, plain=self.plain)[0] != ACCEPTED for c in self.cases)
                assert refused >= self.min_refused, (refused, len(self.cases))

        @pytest.mark.parametrize("kind", list(self.mutations))
        def test_mutation_is_refused_or_reachable(kind: str) -> None:
            for case in self.cases:
                if case.kind == kind:
                    self.check(case)

        return test_real_states_load_unchanged, test_enough_mutations_of_every_kind, test_mutation_is_refused_or_reachable


# --------------------------------------------------------------------------- hand mutations
# The mutations of French-deck hands (``hands`` as lists of card names) the trick games share;
# each returns False where the state has no hand to change.


def hand_seats(d: dict) -> list[int]:
    """The seats holding cards."""
    return [s for s in range(d["players"]) if d["hands"][s]]


def duplicate_card(d, s, rnd):
    """A card of one hand replaced by a card another hand holds."""
    seats = hand_seats(d)
    if len(seats) < 2:
        return False
    a, b = rnd.sample(seats, 2)
    d["hands"][a][0] = d["hands"][b][-1]
    return True


def lose_card(d, s, rnd):
    seats = hand_seats(d)
    if not seats:
        return False
    d["hands"][rnd.choice(seats)].pop()
    return True


def _first_card_becomes(name: str, card: str, doc: str):
    """A mutation that writes ``card`` over the first card of the first hand holding cards."""

    def mutate(d, s, rnd):
        seats = hand_seats(d)
        if not seats:
            return False
        d["hands"][seats[0]][0] = card
        return True

    mutate.__name__ = mutate.__qualname__ = name
    mutate.__doc__ = doc
    return mutate


joker = _first_card_becomes("joker", "JK", "A joker, which these decks lack, in place of a card.")
not_a_card = _first_card_becomes("not_a_card", "1Z", "A name that is no card, in place of a card.")


def swap_cards(d, s, rnd):
    """A random card of one hand swapped with a random card of another."""
    seats = hand_seats(d)
    if len(seats) < 2:
        return False
    a, b = rnd.sample(seats, 2)
    i, j = rnd.randrange(len(d["hands"][a])), rnd.randrange(len(d["hands"][b]))
    d["hands"][a][i], d["hands"][b][j] = d["hands"][b][j], d["hands"][a][i]
    return True


def move_card(d, s, rnd):
    """A card passed from one hand to another: every card is there once, the sizes are wrong."""
    seats = hand_seats(d)
    if not seats:
        return False
    a = rnd.choice(seats)
    b = rnd.choice([s for s in range(d["players"]) if s != a])
    d["hands"][b].append(d["hands"][a].pop())
    return True


def shift_points(row: list[int], players: int, points: int, rnd) -> bool:
    """``points`` moved from one random seat of a score ``row`` to another: still zero-sum."""
    a, b = rnd.sample(range(players), 2)
    row[a] += points
    row[b] -= points
    return True


def score_plus_one(d, s, rnd):
    """A point more for a random seat in the last finished deal."""
    if not d["history"]:
        return False
    d["history"][-1][rnd.randrange(d["players"])] += 1
    return True


# --------------------------------------------------------------------------- counter mutations
# The same counter, seat, phase and type mutations of the trick games' JSON (``players``, ``round``,
# ``turn``, ``phase``, ``rng``), refused or reachable as each game's table says.


def round_down(d, s, rnd):
    d["round"] -= 1  # round 0 is refused by the schema
    return True


def next_seat(key: str, name: str | None = None) -> Change:
    """A mutation (named ``name``, default ``<key>_next``) that gives ``key`` to the next seat
    (seat 0 where it is null)."""

    def mutate(d, s, rnd):
        d[key] = (d[key] + 1) % d["players"] if d[key] is not None else 0
        return True

    mutate.__name__ = mutate.__qualname__ = name or f"{key}_next"
    return mutate


def turn_null(d, s, rnd):
    if d["turn"] is None:
        return False
    d["turn"] = None
    return True


def phase_changed(phases: type[enum.Enum]) -> Change:
    """A mutation that sets another of the game's ``phases``."""

    def phase_changed(d, s, rnd):
        d["phase"] = rnd.choice([p.value for p in phases if p.value != d["phase"]])
        return True

    return phase_changed


def type_round_text(d, s, rnd):
    d["round"] = str(d["round"])
    return True


def type_hands_null(d, s, rnd):
    d["hands"] = None
    return True


def unknown_field(key: str) -> Change:
    """A mutation that adds a field the state does not have."""

    def unknown_field(d, s, rnd):
        d[key] = 0
        return True

    return unknown_field


def missing_field(d, s, rnd):
    del d[rnd.choice(sorted(d))]
    return True


def rng_counter(d, s, rnd):
    """The rng's counter one further."""
    d["rng"]["counter"] += 1
    return True


#: Why an rng counter one further is reachable in games that deal by rejection sampling.
RNG_REJECTION_SAMPLING = ("how many draws the deals took is not recorded (rejection sampling draws a variable "
                          "number), so any counter is possible")


# --------------------------------------------------------------------------- number-card mutations
# The mutations 11 nimmt! and Take That share: cards are numbers in lists, seats count from 0 to
# ``state.players - 1`` and the state has ``round``, ``turn`` and an ``rng`` counter. Each keeps the
# order of its calls to ``rnd``, so a suite's cases stay those its seed gives.


def card_mutations(piles: Callable[[dict], list[list]], foreign: list[int]) -> dict[str, Mutation]:
    """"duplicate-card", "missing-card" and "foreign-card" (one of ``foreign``), always refused,
    at a random place among the cards of ``piles(data)``."""

    def spots(data: dict) -> list[tuple[list, int]]:
        return [(pile, i) for pile in piles(data) for i in range(len(pile))]

    def duplicate(data, state, rnd) -> bool:
        (a, i), (b, j) = rnd.sample(spots(data), 2)
        a[i] = b[j]
        return True

    def missing(data, state, rnd) -> bool:
        pile, i = rnd.choice(spots(data))
        del pile[i]
        return True

    def foreign_card(data, state, rnd) -> bool:
        pile, i = rnd.choice(spots(data))
        pile[i] = rnd.choice(foreign)
        return True

    return {"duplicate-card": Mutation(duplicate), "missing-card": Mutation(missing),
            "foreign-card": Mutation(foreign_card)}


def stock_to_hand(data, state, rnd) -> bool:
    """The top stock card into a random hand."""
    if not data["stock"]:
        return False
    data["hands"][rnd.randrange(state.players)].append(data["stock"].pop())
    return True


def round_moved(data, state, rnd) -> bool:
    """The round one earlier or later (later from round 1)."""
    data["round"] += rnd.choice([-1, 1]) if data["round"] > 1 else 1
    return True


def seat_moved(key: str) -> Change:
    """``data[key]``, a seat, moved to another seat."""

    def mutate(data, state, rnd) -> bool:
        data[key] = (data[key] + rnd.randrange(1, state.players)) % state.players
        return True

    return mutate


def turn_moved(data, state, rnd) -> bool:
    """The turn to another seat (to seat 0 when nobody is to act)."""
    turn = data["turn"]
    data["turn"] = 0 if turn is None else (turn + rnd.randrange(1, state.players)) % state.players
    return True


def seat_out_of_range(*keys: str) -> Change:
    """One of ``keys``, a seat, set to no seat of the table."""

    def mutate(data, state, rnd) -> bool:
        data[rnd.choice(keys)] = rnd.choice([state.players, -1, 7])
        return True

    return mutate


def history_length(row: Callable[[int], list[int]]) -> Change:
    """The history a round shorter, or a round longer by ``row(players)``."""

    def mutate(data, state, rnd) -> bool:
        if data["history"] and rnd.random() < 0.5:
            data["history"].pop()
        else:
            data["history"].append(row(state.players))
        return True

    return mutate


def players_changed(most: int) -> Change:
    """One player more (one fewer at ``most``)."""

    def mutate(data, state, rnd) -> bool:
        data["players"] += 1 if state.players < most else -1
        return True

    return mutate


def wrong_types(*pairs: tuple[str, Any]) -> Change:
    """One of the (field, value of the wrong JSON type) ``pairs`` written."""

    def mutate(data, state, rnd) -> bool:
        key, value = rnd.choice(pairs)
        data[key] = copy.deepcopy(value)  # no two cases share a list
        return True

    return mutate


#: The rng-counter mutation of games whose rng only deals the rounds to come.
RNG_DEALS_ONLY = Mutation(rng_counter, "the rng only deals the rounds to come; nothing on the table records how many "
                                       "draws it made (a state from another seed is as real)")


# --------------------------------------------------------------------------- board-game mutations
# Mak-yek's and Northcott's: two seats, seat 0 White, both always refused.


def colors_changed(*wrong: list[str]) -> Change:
    """A mutation that relabels the colours with one of ``wrong``."""

    def colors_changed(data, state, rnd):
        """Colours are labels: seat 0 is always White. REFUSED."""
        data["colors"] = rnd.choice(wrong)
        return REFUSED

    return colors_changed


def wrong_type(wrong: Mapping[str, Any], unknown: Callable[[dict, random.Random], None]) -> Change:
    """A mutation that writes ``wrong[key]`` over a random field, deletes it, or has ``unknown``
    add a field the state does not have."""

    def wrong_type(data, state, rnd):
        """A field of the wrong JSON type, a missing field or an unknown one. REFUSED (the
        declared shape: bad-state)."""
        key = rnd.choice(list(data))
        how = rnd.choice(["type", "missing", "unknown"])
        if how == "missing":
            del data[key]
        elif how == "unknown":
            unknown(data, rnd)
        else:
            data[key] = copy.deepcopy(wrong[key])
        return REFUSED

    return wrong_type


def board_game_suite(game: str, states: list[dict], mutations: Iterable[Change], *, min_refused: int) -> MutationTests:
    """The suite of a board game's mutations (all named by their functions): two tries a state and
    kind from one ``Random(2026)``, at least 300 cases and ``min_refused`` refusals, and an
    accepted case loads as given."""
    return MutationTests(game, states, tables(mutations), rng=2026, tries=2, as_given=True, minimum=300,
                         min_refused=min_refused)
