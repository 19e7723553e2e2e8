"""Full-turn legal-play generation: our pure-Python generator against gnubg-nn, same positions, same run.

Run: ``python bench/bench_backgammon.py [positions] [repeats]``. Positions are turn starts
(with dice) reached by seeded random play; each generator is timed over all of them and
the best of ``repeats`` runs is reported as positions per second. gnubg-nn (GPL) is used
only here and in the oracle tests. The engine's own paths follow (issue 11): ``to_json`` and
``from_json`` of those states and ``move_from_json`` + ``apply`` of one listed play each, every
cache cleared. Times are CPU times of this process (``time.process_time``), which other
processes on a busy machine disturb far less than wall time.
"""

from __future__ import annotations

import dataclasses
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import gnubg_nn  # noqa: E402

from rules.backgammon import ENGINE, _notation, _setup  # noqa: E402
from rules.backgammon._board import START, gnubg_side, mover_lists  # noqa: E402
from rules.backgammon._engine import Phase, _play_of, _plays, _results  # noqa: E402
from rules.backgammon._moves import generate, result_of  # noqa: E402
from rules.backgammon._notation import format_play  # noqa: E402


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


def timed(chunks: list, fn, repeats: int) -> float:
    """Sum over chunks of the best of ``repeats`` timings: robust to a busy machine."""
    total = 0.0
    for chunk in chunks:
        best = float("inf")
        for _ in range(repeats):
            t0 = time.process_time()
            fn(chunk)
            best = min(best, time.process_time() - t0)
        total += best
    return total


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    pos = positions(count)
    doubles = sum(d1 == d2 for *_, d1, d2 in pos)
    size = 250
    ours_in = [[(*mover_lists(me, other), d1, d2) for me, other, d1, d2 in pos[i:i + size]] for i in range(0, count, size)]
    engine_in = [pos[i:i + size] for i in range(0, count, size)]
    gnubg_in = [[([[*gnubg_side(other)], [*gnubg_side(me)]], d1, d2) for me, other, d1, d2 in pos[i:i + size]]
                for i in range(0, count, size)]
    uncached = _plays.__wrapped__
    states = [dataclasses.replace(ENGINE.new(2, 0), points=(tuple(me[1:25]), tuple(other[1:25])),
                                  bar=(me[25], other[25]), off=(me[0], other[0]), turn=0, phase=Phase.MOVE,
                                  dice=(d1, d2))
              for me, other, d1, d2 in pos]
    states_in = [states[i:i + size] for i in range(0, count, size)]

    def ours(chunk) -> None:  # the generator alone (scratch lists prepared)
        for me, opp, d1, d2 in chunk:
            generate(me, opp, d1, d2)

    def engine_path(chunk) -> None:  # what legal_moves/check pay on a cache miss
        for me, other, d1, d2 in chunk:
            uncached(me, other, d1, d2)

    def theirs(chunk) -> None:
        for board, d1, d2 in chunk:
            gnubg_nn.moves(board, d1, d2)

    def legal(chunk) -> None:  # the API's list: Play objects with notation, every cache cleared
        _plays.cache_clear()
        _play_of.cache_clear()
        format_play.cache_clear()
        for s in chunk:
            ENGINE.legal_moves(s, 0)

    def clear() -> None:
        _plays.cache_clear()
        _results.cache_clear()
        _play_of.cache_clear()
        format_play.cache_clear()
        _setup._ids.cache_clear()
        _notation._parse_play.cache_clear()

    jsons_in = [[ENGINE.to_json(s) for s in chunk] for chunk in states_in]
    plays_in = [[(s, ENGINE.move_to_json(ENGINE.legal_moves(s, 0)[0])) for s in chunk] for chunk in states_in]

    def to_json(chunk) -> None:
        clear()
        for s in chunk:
            ENGINE.to_json(s)

    def from_json(chunk) -> None:
        clear()
        for data in chunk:
            ENGINE.from_json(data)

    def apply(chunk) -> None:
        clear()
        for s, move in chunk:
            ENGINE.apply(s, 0, ENGINE.move_from_json(move))

    t_gnubg = timed(gnubg_in, theirs, repeats)
    t_ours = timed(ours_in, ours, repeats)
    t_engine = timed(engine_in, engine_path, repeats)
    t_legal = timed(states_in, legal, max(1, repeats // 2))
    t_to, t_from, t_apply = (timed(data, fn, repeats) for data, fn in
                             ((states_in, to_json), (jsons_in, from_json), (plays_in, apply)))

    r_ours, r_engine, r_gnubg, r_legal = (count / t for t in (t_ours, t_engine, t_gnubg, t_legal))
    print(f"positions: {count} ({doubles} doubles), chunks of {size}, best of {repeats} per chunk, "
          f"Python {sys.version.split()[0]}")
    print(f"gnubg_nn.moves              : {r_gnubg:10,.0f} positions/s")
    print(f"ours, generator             : {r_ours:10,.0f} positions/s   ours/gnubg = {r_ours / r_gnubg:.3f} (1/{r_gnubg / r_ours:.1f})")
    print(f"ours, engine path (uncached): {r_engine:10,.0f} positions/s   ours/gnubg = {r_engine / r_gnubg:.3f} (1/{r_gnubg / r_engine:.1f})")
    print(f"ours, legal_moves + notation: {r_legal:10,.0f} positions/s")
    print(f"engine to_json              : {count / t_to:10,.0f} states/s")
    print(f"engine from_json            : {count / t_from:10,.0f} states/s")
    print(f"engine move_from_json+apply : {count / t_apply:10,.0f} moves/s (a listed play, uncached)")


if __name__ == "__main__":
    main()
