"""The random player used by the conformance suite and the HTTP playouts.

It picks uniformly among the legal moves, except that a few move kinds are weighted down in
games where a player who keeps choosing them never lets the game end (the rules allow it;
real players don't do it):
- 11 nimmt!: taking a stack is always legal; once the draw pile is empty, a random taker
  keeps the table at one stack and no hand ever empties (4-7 players never finished within
  4000 moves with uniform choice; with takes weighted 0.02 every seeded game ends).
- Kanasta: asking the partner "may I go out?" is legal before and after drawing.
- Backgammon: resigning is always legal; a random resigner ends games after a few moves,
  so the playouts would barely reach bearing off or the cube.
A game whose variant never ends under random play (classic Northcott: pawns may retreat) says
so in its GameSpec's ``playout``: the playouts use its ``options`` and ``test_conformance``
checks the ``endless`` variant for a bounded number of steps.

``random_options`` and ``random_states`` give the laws that look at single positions (hidden
information, idle seats) real mid-game states of every registered game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from rules.registry import ENGINES

# Each game says these in its GameSpec's ``playout`` (DESIGN 4.8); the tests read them from there.
KIND_WEIGHTS: dict[str, dict[str, float]] = {gid: dict(e.spec.playout.weights) for gid, e in ENGINES.items()}
PLAYOUT_OPTIONS: dict[str, dict] = {gid: dict(e.spec.playout.options) for gid, e in ENGINES.items()}
ENDLESS_VARIANTS: dict[str, dict] = {gid: dict(e.spec.playout.endless) for gid, e in ENGINES.items()
                                     if e.spec.playout.endless is not None}


def choose(rnd: random.Random, game_id: str, moves: list, kind_of) -> object:
    """One of ``moves``; ``kind_of(move)`` names its kind."""
    weights = KIND_WEIGHTS.get(game_id)
    if not weights:
        return rnd.choice(moves)
    return rnd.choices(moves, [weights.get(kind_of(m), 1.0) for m in moves])[0]


def random_options(engine, rnd: random.Random) -> dict:
    """A random value for every option that has choices or is boolean, plus the playout overrides."""
    chosen = {}
    for name, opt in engine.options.items():
        if opt.choices is not None:
            chosen[name] = rnd.choice(opt.choices)
        elif opt.type == "boolean":
            chosen[name] = rnd.random() < 0.5
    return {**chosen, **PLAYOUT_OPTIONS.get(engine.game_id, {})}


def random_steps(engine, players: int, seed: int, *, max_moves: int = 2000,
                 options: dict | None = None) -> Iterator[tuple]:
    """``(before, seat, move, after)`` of each move of a seeded random game under random options
    (``options`` set over them), from the first move to the end (or ``max_moves``). Nothing is
    checked here."""
    rnd = random.Random(seed)
    state = engine.new(players, seed, {**random_options(engine, rnd), **(options or {})})
    for _ in range(max_moves):
        acting = engine.to_act(state)
        if not acting:
            return
        seat = rnd.choice(sorted(acting))
        move = choose(rnd, engine.game_id, list(engine.legal_moves(state, seat)),
                      lambda m: engine.move_to_json(m)["kind"])
        after = engine.apply(state, seat, move)
        yield state, seat, move, after
        state = after


def random_states(engine, players: int, seed: int, *, every: int = 7, max_moves: int = 2000) -> Iterator:
    """Every ``every``-th state (offset by the seed) of a seeded random game under random
    options, from the first move to the end; the final state too. Nothing is checked here."""
    last = None
    for step, (before, _, _, last) in enumerate(random_steps(engine, players, seed, max_moves=max_moves)):  # noqa: B007
        if step % every == seed % every:
            yield before
    if last is not None and not engine.to_act(last):
        yield last
