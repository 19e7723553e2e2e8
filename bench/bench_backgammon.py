"""Full-turn legal-play generation: our pure-Python generator against gnubg-nn, same positions, same run.

Run: ``python bench/bench_backgammon.py [positions] [repeats]``. Positions are turn starts
(with dice) reached by seeded random play; each generator is timed over all of them and
the best of ``repeats`` runs is reported as positions per second. gnubg-nn (GPL) is used
only here and in the oracle tests.
"""

from __future__ import annotations

import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import gnubg_nn  # noqa: E402

from rules.backgammon import ENGINE  # noqa: E402
from rules.backgammon._board import START, gnubg_side, mover_lists  # noqa: E402
from rules.backgammon._engine import _plays  # noqa: E402
from rules.backgammon._moves import generate, result_of  # noqa: E402


def positions(count: int, seed: int = 1) -> list[tuple[tuple[int, ...], tuple[int, ...], int, int]]:
    """(mover, other, d1, d2) turn starts from random games, each seat in its own numbering."""
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        me, other = START, START
        while True:
            d1, d2 = rnd.randint(1, 6), rnd.randint(1, 6)
            out.append((me, other, d1, d2))
            m, o = mover_lists(me, other)
            _, plays = generate(m, o, d1, d2)
            if plays:
                new_me, hits = result_of(m, o, rnd.choice(plays))
                new_other = list(other)
                for p in range(1, 25):
                    if hits >> p & 1:
                        new_other[25 - p] -= 1
                        new_other[25] += 1
                me, other = tuple(new_other), tuple(new_me)
                if other[0] == 15:
                    break
            else:
                me, other = other, me
            if len(out) >= count:
                break
    return out


def best_of(repeats: int, fn) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    pos = positions(count)
    boards = [([*gnubg_side(other)], [*gnubg_side(me)], d1, d2) for me, other, d1, d2 in pos]
    doubles = sum(d1 == d2 for *_, d1, d2 in pos)

    def ours() -> None:
        for me, other, d1, d2 in pos:
            generate(*mover_lists(me, other), d1, d2)

    uncached = _plays.__wrapped__

    def engine_path() -> None:  # what legal_moves/check pay on a cache miss
        for me, other, d1, d2 in pos:
            uncached(me, other, d1, d2)

    def theirs() -> None:
        for a, b, d1, d2 in boards:
            gnubg_nn.moves([a, b], d1, d2)

    t_ours = best_of(repeats, ours)
    t_engine = best_of(repeats, engine_path)
    t_gnubg = best_of(repeats, theirs)

    # legal_moves end to end (plays with notation), for the record
    states = []
    base = ENGINE.new(2, 0)
    import dataclasses

    from rules.backgammon._engine import Phase
    for me, other, d1, d2 in pos[: min(count, 2000)]:
        states.append(dataclasses.replace(base, sides=(me, other), turn=0, phase=Phase.MOVE, dice=(d1, d2)))

    def legal() -> None:
        _plays.cache_clear()
        for s in states:
            ENGINE.legal_moves(s, 0)

    t_legal = best_of(repeats, legal)

    r_ours, r_engine, r_gnubg = count / t_ours, count / t_engine, count / t_gnubg
    print(f"positions: {count} ({doubles} doubles), best of {repeats}, Python {sys.version.split()[0]}")
    print(f"gnubg_nn.moves          : {r_gnubg:12,.0f} positions/s")
    print(f"ours, generator         : {r_ours:12,.0f} positions/s   ratio ours/gnubg = 1/{r_gnubg / r_ours:.1f} ({r_ours / r_gnubg:.3f})")
    print(f"ours, engine (uncached) : {r_engine:12,.0f} positions/s   ratio = 1/{r_gnubg / r_engine:.1f}")
    print(f"ours, legal_moves (+notation, {len(states)} states): {len(states) / t_legal:,.0f} positions/s")


if __name__ == "__main__":
    main()
