"""The conformance suite: every engine in the registry, random playouts, the protocol's laws.

At every step of a seeded random playout (moves chosen from ``legal_moves`` only):
- every listed move passes ``check``; the one applied never raises;
- a well-formed move seen earlier in the game but not listed now raises ``IllegalMove``, or
  (where one result has several spellings, as in backgammon) gives the same state as a
  listed move; where the list is complete;
- ``from_json(json(to_json(s))) == s`` (and ``from_json`` checks conservation);
- the state passed to ``apply`` is unchanged;
- ``to_act`` is empty iff ``outcome`` is not None; scores have one entry per seat;
- views hold no rng and are plain JSON;
- the same seed and moves give the same state.
A game gets all of this by being listed in ``rules/registry.py``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import BaseEngine, Engine, GameOver, IllegalMove, RulesError
from rules.registry import ENGINES
from tests.playout import ENDLESS_VARIANTS, PLAYOUT_OPTIONS, choose

MAX_MOVES = 4000
CASES = [
    pytest.param(engine, n, id=f"{gid}-{n}p")
    for gid, engine in ENGINES.items()
    for n in engine.players
]


def random_options(engine: Engine, rnd: random.Random) -> dict:
    """A random value for every option that has choices or is boolean."""
    chosen = {}
    for name, opt in engine.options.items():
        if opt.choices is not None:
            chosen[name] = rnd.choice(opt.choices)
        elif opt.type == "boolean":
            chosen[name] = rnd.random() < 0.5
    return chosen


def roundtrip(engine: Engine, state):
    return engine.from_json(json.loads(json.dumps(engine.to_json(state))))


def playout(engine: Engine, players: int, seed: int, *, checks: bool = True, options: dict | None = None,
            max_moves: int = MAX_MOVES, require_end: bool = True):
    """Play a seeded random game; return (options, moves, final state)."""
    rnd = random.Random(seed)
    if options is None:
        options = {**random_options(engine, rnd), **PLAYOUT_OPTIONS.get(engine.game_id, {})}
    state = engine.new(players, seed, options)
    history: list[tuple[int, object]] = []
    pool: list[object] = []
    for _ in range(max_moves):
        acting = engine.to_act(state)
        assert (not acting) == (engine.outcome(state) is not None)
        if not acting:
            break
        seat = rnd.choice(sorted(acting))
        moves = list(engine.legal_moves(state, seat))
        assert moves, f"seat {seat} is to act but has no legal move"
        if checks:
            check_step(engine, state, seat, moves, pool)
        move = choose(rnd, engine.game_id, moves, lambda m: engine.move_to_json(m)["kind"])
        before = json.dumps(engine.to_json(state), sort_keys=True)
        new = engine.apply(state, seat, move)
        assert json.dumps(engine.to_json(state), sort_keys=True) == before, "apply mutated its input"
        history.append((seat, move))
        pool.append(move)
        del pool[:-60]
        state = new
    else:
        assert not require_end, f"no end within {max_moves} moves"
    return options, history, state


def check_step(engine: Engine, state, seat: int, moves: list, pool: list) -> None:
    assert roundtrip(engine, state) == state
    for move in moves:
        engine.check(state, seat, move)
        assert engine.move_from_json(json.loads(json.dumps(engine.move_to_json(move)))) == move
    report = engine.scores(state)
    players = len(report.totals)
    assert len(report.round) == players and len(report.breakdown) == players
    for viewer in [None, *range(players)]:
        view = engine.view(state, viewer)
        text = json.dumps(view)
        assert '"rng"' not in text, "a view shows the rng"
    if not engine.legal_moves_complete:
        return
    listed = {json.dumps(engine.move_to_json(m), sort_keys=True) for m in moves}
    results = None
    for other in pool[-8:]:
        if json.dumps(engine.move_to_json(other), sort_keys=True) in listed:
            continue
        try:
            engine.check(state, seat, other)
        except IllegalMove:
            continue
        if results is None:
            results = [engine.apply(state, seat, m) for m in moves]
        assert engine.apply(state, seat, other) in results, f"unlisted move {other} is legal"


@pytest.mark.parametrize("engine", ENGINES.values(), ids=list(ENGINES))
def test_engine_satisfies_protocol(engine: Engine) -> None:
    assert isinstance(engine, Engine) and isinstance(engine, BaseEngine)
    assert engine.game_id and engine.name and engine.move_kinds
    assert 1 <= engine.players.start < engine.players.stop
    for name, opt in engine.options.items():
        assert opt.validate(name, opt.default) == opt.default and opt.description


def test_game_ids_are_unique_and_stable_strings() -> None:
    from rules.registry import _ENGINES

    ids = [e.game_id for e in _ENGINES]
    assert len(ids) == len(set(ids)) == len(ENGINES)
    assert all(gid == gid.lower() and " " not in gid for gid in ids)


@pytest.mark.parametrize(("engine", "players"), CASES)
@settings(max_examples=3)
@given(seed=st.integers(0, 2**31))
def test_random_playout_obeys_the_protocol(engine: Engine, players: int, seed: int) -> None:
    options, history, final = playout(engine, players, seed)
    assert engine.outcome(final) is not None
    report = engine.scores(final)
    assert report.winners == engine.outcome(final).winners
    # a finished game takes no more moves, not even one that was legal before
    last_seat, last_move = history[-1]
    with pytest.raises(GameOver):
        engine.check(final, last_seat, last_move)
    # same seed, same moves, same game
    again = engine.new(players, seed, options)
    for seat, move in history:
        again = engine.apply(again, seat, move)
    assert again == final


@pytest.mark.parametrize(("game_id", "options"), ENDLESS_VARIANTS.items())
def test_variants_that_random_play_never_ends_obey_the_protocol_for_400_moves(game_id, options):
    engine = ENGINES[game_id]
    for players in engine.players:
        for seed in range(3):
            playout(engine, players, seed, options=options, max_moves=400, require_end=False)


@pytest.mark.parametrize("engine", ENGINES.values(), ids=list(ENGINES))
def test_a_seat_that_is_not_to_act_is_refused(engine: Engine) -> None:
    state = engine.new(engine.players.start, 7)
    acting = engine.to_act(state)
    idle = [s for s in range(engine.players.start) if s not in acting]
    seat = min(acting)
    move = engine.legal_moves(state, seat)[0]
    for other in idle:
        with pytest.raises(RulesError) as err:
            engine.check(state, other, move)
        assert err.value.code.startswith(engine.game_id + ".")


def test_rules_import_nothing_but_the_standard_library() -> None:
    code = (
        "import importlib, pkgutil, sys, rules\n"
        "for m in pkgutil.walk_packages(rules.__path__, 'rules.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = {'flask', 'marshmallow', 'redis', 'werkzeug', 'yaml'} & set(sys.modules)\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
