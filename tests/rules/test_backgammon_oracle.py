"""Differential tests against GNU Backgammon (gnubg-nn, GPL: imported only here and in bench/).

On seeded random positions (turn starts reached by random play from the start position,
so doubles, hits, entering and bear-offs all occur) the set of positions reachable by our
legal plays equals the set ``gnubg_nn.moves`` returns, and our Position IDs equal
``gnubg_nn.position_id``. CI runs a few hundred positions; the full run (>= 2000) is
``ORACLE_FULL=1 pytest -m oracle tests/rules/test_backgammon_oracle.py`` (``make oracle``).
"""

from __future__ import annotations

import os
import random

import pytest

from rules.backgammon import ENGINE as E
from rules.backgammon._board import gnubg_side
from rules.backgammon._notation import decode_position_id

gnubg = pytest.importorskip("gnubg_nn")

CI_POSITIONS = 300
FULL_POSITIONS = int(os.environ.get("ORACLE_POSITIONS", "3000"))


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


def random_turn_starts(count: int, seed: int):
    """Turn starts with dice, from seeded random games (no cube, no resignations)."""
    rnd = random.Random(seed)
    made = 0
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
            made += 1
            if made >= count:
                return
            plays = [m for m in E.legal_moves(state, seat) if m.kind == "move"]
            state = E.apply(state, seat, rnd.choice(plays))


def run(count: int, seed: int) -> dict:
    stats = {"positions": 0, "doubles": 0, "bar": 0, "bear_off": 0, "forfeit": 0, "plays": 0, "mismatch": []}
    for state in random_turn_starts(count, seed):
        board = gnubg_board(state)
        ours_id = E.to_json(state)["position_id"]
        assert ours_id == gnubg.position_id(board)
        assert decode_position_id(ours_id) == tuple(map(tuple, gnubg.board_from_position_id(ours_id)))
        ours, theirs = our_results(state), their_results(state)
        stats["positions"] += 1
        stats["plays"] += len(ours)
        stats["doubles"] += state.dice[0] == state.dice[1]
        me = state.sides[state.turn]
        stats["bar"] += me[25] > 0
        stats["bear_off"] += all(not me[p] for p in range(7, 26))
        stats["forfeit"] += not theirs
        if ours != theirs:
            stats["mismatch"].append((ours_id, state.dice, len(ours), len(theirs)))
    return stats


def test_legal_plays_and_position_ids_match_gnubg_on_random_positions() -> None:
    stats = run(CI_POSITIONS, seed=2026)
    assert stats["positions"] == CI_POSITIONS
    assert stats["doubles"] and stats["bar"] and stats["bear_off"] and stats["forfeit"]
    assert stats["mismatch"] == []


@pytest.mark.oracle
@pytest.mark.skipif(not os.environ.get("ORACLE_FULL"), reason="full oracle run: set ORACLE_FULL=1")
def test_full_oracle_run() -> None:
    stats = run(FULL_POSITIONS, seed=7)
    print(f"\noracle: {stats['positions']} positions, {stats['plays']} distinct plays, "
          f"{stats['doubles']} doubles, {stats['bar']} from the bar, {stats['bear_off']} bear-off, "
          f"{stats['forfeit']} forfeits, {len(stats['mismatch'])} mismatches")
    assert stats["positions"] >= 2000
    assert stats["mismatch"] == []


def test_spec_vectors_agree_with_gnubg() -> None:
    """The §5.8 boards: gnubg's Position ID and legal set equal ours (BG-1..BG-9)."""
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
