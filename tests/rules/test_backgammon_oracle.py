"""Differential tests against GNU Backgammon (gnubg-nn, GPL: imported only here and in bench/).

On seeded positions the set of positions reachable by our legal plays (each listed play
applied through ``check`` and ``apply``) equals the set ``gnubg_nn.moves`` returns, and our
Position IDs equal ``gnubg_nn.position_id``. The positions come from four streams
(docs/rules/backgammon.md §4):

- ``play``: turn starts reached by random play from the start position (doubles, hits,
  entering, some bear-offs);
- ``bear-off``: every checker home or nearly so (one or two on 7..10, so a hop such as
  ``9/off`` is in play), the opponent holding points and blots in the mover's home board;
- ``bar``: one to three of the mover's checkers on the bar against a home board of points
  and blots;
- ``last``: one or two checkers left, blots of the opponent on the way (the last checker that
  can hit and bear off must use both dice, §4.4).

The default run compares 3,000 positions (about 8 s); ``ORACLE_FULL=1 ORACLE_POSITIONS=20000
pytest -m oracle tests/rules/test_backgammon_oracle.py`` (``make oracle``) runs more.
"""

from __future__ import annotations

import os
import random

import pytest

from rules.backgammon import ENGINE as E
from rules.backgammon._board import gnubg_side
from rules.backgammon._notation import decode_position_id

gnubg = pytest.importorskip("gnubg_nn")

CI_POSITIONS = 3000
FULL_POSITIONS = int(os.environ.get("ORACLE_POSITIONS", "20000"))
STREAMS = ("play", "play", "play", "play", "play", "bear-off", "bear-off", "bar", "last", "last")


def gnubg_board(state) -> list[list[int]]:
    """GNU BG's board: [player not on roll, player on roll], 25 counts each (index 24 the bar)."""
    t = state.turn
    return [list(gnubg_side(state.sides[1 - t])), list(gnubg_side(state.sides[t]))]


def our_results(state) -> set:
    t = state.turn
    out = set()
    for move in E.legal_moves(state, t):
        if move.kind != "move" or not move.steps:
            continue
        after = E.apply(state, t, move)
        out.add((gnubg_side(after.sides[1 - t]), gnubg_side(after.sides[t])))
    return out


def their_results(state) -> set:
    d1, d2 = state.dice
    return {tuple(map(tuple, gnubg.board_from_position_key(k))) for k in gnubg.moves(gnubg_board(state), d1, d2)}


def random_turn_starts(seed: int):
    """Turn starts with dice, from seeded random games (no cube, no resignations), endlessly."""
    rnd = random.Random(seed)
    game = 0
    while True:
        game += 1
        state = E.new(2, f"oracle-{seed}-{game}")
        while E.to_act(state):
            seat = min(E.to_act(state))
            if state.phase.value in ("opening", "roll"):
                state = E.apply(state, seat, E.move_from_json({"kind": "roll", "dice": [rnd.randint(1, 6), rnd.randint(1, 6)]}))
                continue
            yield state
            plays = [m for m in E.legal_moves(state, seat) if m.kind == "move"]
            state = E.apply(state, seat, rnd.choice(plays))


def scatter(rnd: random.Random, counts: list[int], n: int, points: list[int]) -> None:
    for _ in range(n):
        counts[rnd.choice(points)] += 1


def built(rnd: random.Random, kind: str):
    """A constructed turn start of stream ``kind``; counts are per seat in own numbering
    (index 0 off, 1..24 points, 25 bar), the mover being seat 0 or 1 at random."""
    me = [0] * 26
    opp = [0] * 26  # the opponent, on the mover's points (converted below)
    if kind == "bear-off":
        scatter(rnd, me, rnd.randint(3, 13), list(range(1, 7)))
        if rnd.random() < 0.4:
            scatter(rnd, me, rnd.randint(1, 2), list(range(7, 11)))
        in_home = rnd.randint(0, 5)
    elif kind == "bar":
        me[25] = rnd.randint(1, 3)
        scatter(rnd, me, rnd.randint(0, 12 - me[25]), list(range(1, 25)))
        in_home = rnd.randint(4, 12)
    else:  # last
        scatter(rnd, me, rnd.randint(1, 2), list(range(1, 11)) if rnd.random() < 0.3 else list(range(1, 7)))
        in_home = rnd.randint(1, 4)
    me[0] = 15 - sum(me)
    free = [p for p in range(1, 25) if not me[p]]
    home = [p for p in free if p <= 6]
    for _ in range(in_home):  # blots and points of the opponent in the mover's home board
        if home:
            opp[rnd.choice(home)] += 1
    if kind != "bar" and rnd.random() < 0.2:
        opp[25] = 1
    rest = rnd.randint(1 if not sum(opp) else 0, 15 - sum(opp))
    scatter(rnd, opp, rest, [p for p in free if p > 6] or free)
    other = [15 - sum(opp), *(opp[25 - p] for p in range(1, 25)), opp[25]]  # to the opponent's numbering
    seat = rnd.randint(0, 1)
    data = E.to_json(E.new(2, 0))
    for key in ("position_id", "match_id", "xgid", "pips", "cube_enabled"):
        del data[key]
    for who, side in ((seat, me), (1 - seat, other)):
        data["points"][who], data["bar"][who], data["off"][who] = side[1:25], side[25], side[0]
    data.update(phase="move", turn=seat, dice=[rnd.randint(1, 6), rnd.randint(1, 6)])
    return E.from_json(data)


def turn_starts(count: int, seed: int):
    """``count`` (stream, state) pairs: the streams interleaved in the proportions of ``STREAMS``."""
    rnd = random.Random(seed)
    played = random_turn_starts(seed)
    for i in range(count):
        kind = STREAMS[i % len(STREAMS)]
        yield kind, next(played) if kind == "play" else built(rnd, kind)


def run(count: int, seed: int) -> dict:
    stats = {"positions": 0, "doubles": 0, "bar": 0, "bear_off": 0, "forfeit": 0, "plays": 0, "bear_off_hit": 0,
             "streams": {}, "mismatch": []}
    for kind, state in turn_starts(count, seed):
        board = gnubg_board(state)
        ours_id = E.to_json(state)["position_id"]
        assert ours_id == gnubg.position_id(board)
        assert decode_position_id(ours_id) == tuple(map(tuple, gnubg.board_from_position_id(ours_id)))
        ours, theirs = our_results(state), their_results(state)
        stats["positions"] += 1
        stats["streams"][kind] = stats["streams"].get(kind, 0) + 1
        stats["plays"] += len(ours)
        stats["doubles"] += state.dice[0] == state.dice[1]
        me = state.sides[state.turn]
        stats["bar"] += me[25] > 0
        home = all(not me[p] for p in range(7, 26))
        stats["bear_off"] += home
        stats["bear_off_hit"] += home and any(after[0][24] > state.sides[1 - state.turn][25] for after in theirs)
        stats["forfeit"] += not theirs
        if ours != theirs:
            stats["mismatch"].append((kind, ours_id, state.dice, len(ours), len(theirs)))
    return stats


def report(stats: dict) -> str:
    return (f"oracle: {stats['positions']} positions {stats['streams']}, {stats['plays']} distinct plays, "
            f"{stats['doubles']} doubles, {stats['bar']} from the bar, {stats['bear_off']} bear-off "
            f"({stats['bear_off_hit']} with a hit), {stats['forfeit']} forfeits, {len(stats['mismatch'])} mismatches")


def test_legal_plays_and_position_ids_match_gnubg() -> None:
    """The full comparison, in every run: 3,000 positions over the four streams."""
    stats = run(CI_POSITIONS, seed=2026)
    print("\n" + report(stats))
    assert stats["positions"] == CI_POSITIONS
    assert set(stats["streams"]) == {"play", "bear-off", "bar", "last"}
    assert stats["doubles"] and stats["bar"] and stats["bear_off"] and stats["forfeit"] and stats["bear_off_hit"]
    assert stats["mismatch"] == []


@pytest.mark.oracle
@pytest.mark.skipif(not os.environ.get("ORACLE_FULL"), reason="full oracle run: set ORACLE_FULL=1")
def test_full_oracle_run() -> None:
    stats = run(FULL_POSITIONS, seed=7)
    print("\n" + report(stats))
    assert stats["positions"] == FULL_POSITIONS
    assert stats["mismatch"] == []


def test_spec_vectors_agree_with_gnubg() -> None:
    """The vectors BG-1..BG-9 (docs/rules/backgammon.md §4): gnubg's Position ID and legal set equal ours."""
    from tests.rules.test_backgammon import position

    vectors = [
        ({12: 1}, {24: 2, 1: 13}, (6, 5)), ({12: 1}, {19: 2, 24: 2, 1: 11}, (6, 5)),
        ({13: 1, 1: 2}, {16: 2, 1: 13}, (6, 4)), ({24: 2}, {11: 2, 2: 13}, (5, 5)),
        ({"bar": 1, 6: 5, 8: 3, 13: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 13: 7}, (5, 3)),
        ({"bar": 1, 6: 5, 8: 3, 13: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, (6, 5)),
        ({5: 1, 4: 1}, {1: 15}, (6, 1)), ({6: 1, 2: 1}, {1: 15}, (5, 4)), ({7: 1, 3: 1}, {1: 15}, (6, 3)),
    ]
    for me, opp, dice in vectors:
        state = position(me, opp, dice)
        assert E.to_json(state)["position_id"] == gnubg.position_id(gnubg_board(state))
        assert our_results(state) == their_results(state)
