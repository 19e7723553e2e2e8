"""``check`` of a play without listing every play (issue 25; docs/rules/backgammon.md §4.4-§4.6).

A play that uses every die, each single-die sub-move legal in turn, is legal: ``check`` takes it
without generating the roll's plays (``_uses_every_die``). Anything else (a refusal, a play that
leaves dice unused) is judged against the list as before. These tests hold the short cut to
that: whenever it says yes, the list says yes (else a play would be taken that the rules
refuse), and every listed play that uses every die is taken by it (else it would be no short
cut), over positions of random games and plays written for other rolls.
"""

from __future__ import annotations

import random

import pytest

from rules.backgammon import ENGINE as E
from rules.backgammon import _engine as engine
from rules.backgammon._board import mover_lists
from rules.backgammon._moves import generate
from rules.backgammon._state import Phase, Play
from rules.base import IllegalMove

GAMES = 20


def positions(seed: int) -> list:
    """The move-phase states of a random game (random legal plays, no cube, no resignation)."""
    rnd = random.Random(seed)
    state = E.new(2, f"fast-{seed}", {"cube": "off"})
    out = []
    while state.result is None:
        if state.phase is Phase.MOVE:
            out.append(state)
            plays = [m for m in E.legal_moves(state, state.turn) if m.kind == "move"]
            state = E.apply(state, state.turn, rnd.choice(plays))
        else:
            state = E.apply(state, 0 if state.turn is None else state.turn, E.move_from_json({"kind": "roll"}))
    return out


def listed(state) -> frozenset:
    """The results (mover's counts, points hit) of every legal play: what ``check`` compares with."""
    me, other = engine._mover(state)
    return engine._results(me, other, *state.dice)


def result(state, move: Play) -> tuple:
    me, other = engine._mover(state)
    end, hits = engine._replay(me, other, move.steps, move)
    return tuple(end), hits


def test_the_short_cut_takes_only_listed_plays_and_every_play_using_every_die() -> None:
    taken = refused_elsewhere = 0
    for seed in range(GAMES):
        states = positions(seed)
        rnd = random.Random(seed)
        for state in states:
            me, other = engine._mover(state)
            d1, d2 = state.dice
            results = listed(state)
            every = 4 if d1 == d2 else 2
            for move in E.legal_moves(state, state.turn):
                if move.kind != "move" or not move.steps:
                    continue
                fast = engine._uses_every_die(me, other, d1, d2, move)
                # a listed play's steps are its single-die sub-moves: one that uses every die is taken
                if len(move.steps) == every and not fast:
                    raise AssertionError(f"a listed play using every die was not taken: {move.notation} "
                                         f"with {d1}-{d2} in {E.to_json(state)['xgid']}")
                if fast:
                    taken += 1
                    assert result(state, move) in results
            # plays written for other rolls, and hops joined into one: whatever the short cut takes is listed
            others = rnd.sample(states, min(4, len(states)))
            for other_state in others:
                for move in E.legal_moves(other_state, other_state.turn)[:6]:
                    if move.kind != "move" or not move.steps:
                        continue
                    for candidate in (move, Play(((move.steps[0][0], move.steps[-1][1]),), None)):
                        if not all(1 <= s <= 25 and 0 <= t < s for s, t in candidate.steps):
                            continue
                        if engine._uses_every_die(me, other, d1, d2, candidate):
                            assert result(state, candidate) in results, (candidate, d1, d2)
                            E.check(state, state.turn, candidate)
                        else:
                            refused_elsewhere += 1
    assert taken > 20_000 and refused_elsewhere > 30_000, (taken, refused_elsewhere)


def test_a_play_leaving_a_die_unused_goes_to_the_list() -> None:
    """5/off with 6-1 when 5/4*/off is possible: the last checker off with one die is refused
    (must-use-all-dice), though each sub-move is legal: the short cut does not take it."""
    state = _state({5: 1}, {21: 1}, (6, 1))  # the opponent's blot on my 4 point
    me, other = engine._mover(state)
    one = E.move_from_json({"kind": "move", "notation": "5/off"})
    assert not engine._uses_every_die(me, other, 6, 1, one)
    both = E.move_from_json({"kind": "move", "notation": "5/4*/off"})
    assert engine._uses_every_die(me, other, 6, 1, both)
    assert generate(*mover_lists(me, other), 6, 1)[0] == 2
    E.check(state, 0, both)
    refused = pytest.raises(IllegalMove, E.check, state, 0, one)
    assert refused.value.code == "backgammon.must-use-all-dice"


def _state(me: dict, opp: dict, dice: tuple[int, int]):
    data = E.to_json(E.new(2, 0, {}))
    for key in ("position_id", "match_id", "xgid", "pips", "cube_enabled"):
        del data[key]
    for who, counts in ((0, me), (1, opp)):
        points = [0] * 24
        for point, n in counts.items():
            points[point - 1] = n
        data["points"][who], data["bar"][who], data["off"][who] = points, 0, 15 - sum(counts.values())
    data.update(turn=0, phase="move", dice=list(dice))
    return E.from_json(data)


def test_play_run_is_the_moves_applied() -> None:
    """``play_run`` (how a record is replayed) gives the very state that ``apply`` of each roll and
    then of its play gives, whenever it answers; it answers for every legal play (a forced pass
    too) after a roll in the roll phase that does not end the game, and leaves the rest (the
    opening roll, a roll not allowed now, an illegal play, the game's last play) to the two
    moves. A run of several plays stops at the first it does not take."""
    answered = declined = runs = passes = 0
    for seed in range(GAMES):
        rnd = random.Random(seed)
        state = E.new(2, f"pair-{seed}", {"match_length": 3})
        run_from, run = state, []  # the plays since the last move a run cannot hold
        while state.phase is not Phase.GAME_OVER:
            seat = state.turn
            if state.phase is not Phase.ROLL or seat is None:
                move = rnd.choice([m for m in E.legal_moves(state, min(E.to_act(state))) if m.kind != "resign"])
                assert E.play_run(state, [(min(E.to_act(state)), 3, 1, Play(((8, 5), (6, 5)), None))]) == (state, 0)
                state = run_from = E.apply(state, min(E.to_act(state)), move)
                run = []
                continue
            dice = (rnd.randint(1, 6), rnd.randint(1, 6))
            rolled = E.apply(state, seat, E.move_from_json({"kind": "roll", "dice": list(dice)}))
            play = rnd.choice([m for m in E.legal_moves(rolled, seat) if m.kind == "move"])
            wrong = Play(((24, 24 - dice[0] - dice[1] - 1),), None) if dice[0] + dice[1] < 23 else play
            assert E.play_run(state, [(1 - seat, *dice, play)]) == (state, 0)  # not this seat's roll
            for candidate in (wrong, play):
                after, done = E.play_run(state, [(seat, *dice, candidate)])
                if not done:
                    assert after is state
                    declined += 1
                    continue
                answered += 1
                assert done == 1 and E.to_json(after) == E.to_json(E.apply(rolled, seat, candidate))
            before, state = state, E.apply(rolled, seat, play)
            taken = state.phase is Phase.ROLL
            passes += taken and not play.steps
            assert (E.play_run(before, [(seat, *dice, play)])[1] == 1) == taken
            run.append((seat, *dice, play))
            after, done = E.play_run(run_from, run)
            if taken:
                assert done == len(run) and E.to_json(after) == E.to_json(state)
                runs += len(run) > 1
            else:  # the run stops at the first play it does not take
                assert done == len(run) - 1
                run_from, run = state, []
    assert answered > 500 and declined > 500 and runs > 500 and passes > 20, (answered, declined, runs, passes)
