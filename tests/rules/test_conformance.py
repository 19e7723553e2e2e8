"""The conformance suite: every engine in the registry, random playouts, the protocol's laws.

Each game and player count plays 20 seeded random games to the end (moves chosen from
``legal_moves`` only, options chosen at random per seed). The first 30 steps of each game are
checked in full, then one step in 10 (offset by the seed, so the seeds together cover every
phase): about 90 s of CPU for the whole file on the 2-core CI machine. At a checked step:
- every listed move passes ``check``; the one applied never raises;
- a well-formed move seen earlier in the game but not listed now raises ``IllegalMove``, or
  (where one result has several spellings, as in backgammon) gives the same state as a
  listed move; where the list is complete;
- ``from_json(json(to_json(s))) == s`` (and ``from_json`` checks conservation);
- the state passed to ``apply`` is unchanged;
- ``to_act`` is empty iff ``outcome`` is not None; scores have one entry per seat;
- views hold no rng and are plain JSON;
- the same seed and moves give the same state; a finished game refuses every move
  (``<game>.game-over``).
At many mid-game states, every seat that is not to act is refused every move the acting seats
could make (``<game>.not-your-turn``), and has no legal moves. The hidden-information law is in
``test_hidden_information.py``.
A game gets all of this by being listed in ``rules/registry.py``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from rules.base import BaseEngine, Engine, GameOver, IllegalMove, NotYourTurn
from rules.registry import ENGINES
from tests.playout import ENDLESS_VARIANTS, choose, random_options, random_states

MAX_MOVES = 4000
SEEDS = range(20)
FULL_CHECKS = 30  # every step of a game's first 30 moves is checked in full ...
CHECK_EVERY = 10  # ... and then one step in 10
CASES = [
    pytest.param(engine, n, id=f"{gid}-{n}p")
    for gid, engine in ENGINES.items()
    for n in engine.players
]
SEEDED_CASES = [
    pytest.param(engine, n, seed, id=f"{gid}-{n}p-s{seed}")
    for gid, engine in ENGINES.items()
    for n in engine.players
    for seed in SEEDS
]


def roundtrip(engine: Engine, state):
    return engine.from_json(json.loads(json.dumps(engine.to_json(state))))


def playout(engine: Engine, players: int, seed: int, *, checks: bool = True, options: dict | None = None,
            max_moves: int = MAX_MOVES, require_end: bool = True):
    """Play a seeded random game; return (options, moves, final state). With ``checks``, the
    steps ``FULL_CHECKS`` and ``CHECK_EVERY`` pick are checked by ``check_step``."""
    rnd = random.Random(seed)
    if options is None:
        options = random_options(engine, rnd)
    state = engine.new(players, seed, options)
    history: list[tuple[int, object]] = []
    pool: list[object] = []
    for step in range(max_moves):
        acting = engine.to_act(state)
        assert (not acting) == (engine.outcome(state) is not None)
        if not acting:
            break
        seat = rnd.choice(sorted(acting))
        moves = list(engine.legal_moves(state, seat))
        assert moves, f"seat {seat} is to act but has no legal move"
        checked = checks and (step < FULL_CHECKS or step % CHECK_EVERY == seed % CHECK_EVERY)
        if checked:
            check_step(engine, state, seat, moves, pool)
        move = choose(rnd, engine.game_id, moves, lambda m: engine.move_to_json(m)["kind"])
        before = json.dumps(engine.to_json(state), sort_keys=True) if checked else None
        new = engine.apply(state, seat, move)
        if checked:
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
    assert len(report.points) == players and len(report.breakdown) == players
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


@pytest.mark.parametrize(("engine", "players", "seed"), SEEDED_CASES)
def test_random_playout_obeys_the_protocol(engine: Engine, players: int, seed: int) -> None:
    options, history, final = playout(engine, players, seed)
    assert engine.outcome(final) is not None
    report = engine.scores(final)
    assert report.winners == engine.outcome(final).winners
    # a finished game takes no more moves, not even one that was legal before
    last_seat, last_move = history[-1]
    for seat in range(players):
        with pytest.raises(GameOver) as err:
            engine.check(final, seat, last_move)
        assert err.value.code == f"{engine.game_id}.game-over"
        assert not _legal_or_refused(engine, final, seat)
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


def _legal_or_refused(engine: Engine, state, seat: int) -> list:
    """``legal_moves`` of a seat that may not act: empty, or refused with the game's own code."""
    try:
        return list(engine.legal_moves(state, seat))
    except (NotYourTurn, GameOver) as err:
        assert err.code in (f"{engine.game_id}.not-your-turn", f"{engine.game_id}.game-over"), err.code
        return []


def idle_seat_law(engine: Engine, players: int, seeds=range(3), every: int = 13) -> tuple[int, list[str]]:
    """At every ``every``-th state of seeded games, each seat outside ``to_act`` must get
    NotYourTurn (``<game>.not-your-turn``) for each move a seat to act could make, and have no
    legal moves. Returns (cases checked, failures)."""
    checked, failures = 0, []
    for seed in seeds:
        for state in random_states(engine, players, seed, every=every):
            acting = engine.to_act(state)
            if not acting:
                continue
            moves = [m for seat in sorted(acting) for m in engine.legal_moves(state, seat)]
            for idle in sorted(set(range(players)) - acting):
                where = f"seed {seed}, {engine.to_json(state).get('phase')}, to act {sorted(acting)}, seat {idle}"
                if _legal_or_refused(engine, state, idle):
                    failures.append(f"{where}: has legal moves")
                for move in moves:
                    checked += 1
                    try:
                        engine.check(state, idle, move)
                    except NotYourTurn as err:
                        if err.code != f"{engine.game_id}.not-your-turn":
                            failures.append(f"{where}: {engine.move_to_json(move)} refused as {err.code}")
                    except IllegalMove as err:
                        failures.append(f"{where}: {engine.move_to_json(move)} refused as {err.code}, not whose turn")
                    else:
                        failures.append(f"{where}: {engine.move_to_json(move)} accepted")
    return checked, failures


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_a_seat_that_is_not_to_act_is_refused_every_move_of_the_seats_that_are(engine: Engine, players: int) -> None:
    """At every 13th state of three seeded games (start, middle, ends of rounds), each seat
    outside ``to_act`` is refused with ``<game>.not-your-turn`` each move that a seat to act
    could make, and has no legal moves."""
    checked, failures = idle_seat_law(engine, players)
    assert not failures, "\n".join(failures[:10])
    assert checked >= 20, f"only {checked} idle-seat cases in these games"


@pytest.mark.parametrize("engine", ENGINES.values(), ids=list(ENGINES))
def test_an_engine_that_forgets_whose_turn_it_is_is_caught(engine: Engine, monkeypatch) -> None:
    """Self-check: with the turn check switched off, the idle-seat law reports failures."""
    monkeypatch.setattr(engine, "check_turn", lambda state, seat: None)
    checked, failures = idle_seat_law(engine, engine.players.start, seeds=range(3), every=7)
    assert checked > 0 and failures


def test_rules_import_nothing_but_the_standard_library() -> None:
    code = (
        "import importlib, pkgutil, sys, rules\n"
        "for m in pkgutil.walk_packages(rules.__path__, 'rules.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = {'flask', 'marshmallow', 'redis', 'werkzeug', 'yaml'} & set(sys.modules)\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_games_own_moves_keep_their_labels_in_the_catalogue() -> None:
    """A term named like one of the game's own moves is a thing, not the move (Kanasta's discard pile,
    backgammon's resignation): the move buttons said "Stos: 5♠" and "Poddanie: Gammon". Only the shared
    next-round takes the game's words for it."""
    for game_id, engine in ENGINES.items():
        described = {m["kind"]: m["label"] for m in engine.spec.describe()["move_kinds"]}
        for move in engine.spec.moves:
            kind, label = move.__dict__["kind"], move.__dict__["label"]
            if move.__module__ != "rules.base":
                assert described[kind] == label.to_json(), (game_id, kind)
            elif kind in engine.spec.terms:
                assert described[kind] == engine.spec.terms[kind].to_json(), (game_id, kind)
