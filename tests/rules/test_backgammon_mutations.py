"""Impossible backgammon states (issue 10 §2; docs/rules/backgammon.md §11): mutations of real
mid-game states, made by seeded random playouts with the conformance chooser, are refused by
the state schema (``ValidationError``) or by ``from_json`` (``InvalidState`` with a
``backgammon.`` code), unless the mutation is marked reachable (then it must load). Nothing
else may escape.

Reachable mutations, and why:

- ``swap-sides``: both sides' checkers exchanged: every position of the one side is a position
  the other can reach too (the board is symmetric; the start positions are equal).
- ``turn-to-other`` in the roll phase without a pending decision: either player may be the one
  to roll (who started is not recorded in the state).
- ``dice-swapped``: the two dice in the other order are the same roll.
- ``duplicated-side``: seat 1's checkers copied from seat 0's (each in its own numbering) when
  no point is then shared: a symmetric position, which play can reach.

Every refused mutation but the stale IDs is refused by meaning too: with the derived fields
(IDs, pips) removed, ``from_json`` alone still raises ``InvalidState``.
"""

from __future__ import annotations

import copy
from itertools import islice

import pytest

from rules.backgammon import ENGINE as E
from rules.base import InvalidState
from tests.rules.mutations import ACCEPTED, outcome
from tests.rules.mutations import playout as play

OPTIONS = [{}, {"match_length": 5}, {"cube": "on", "beaver": True, "raccoon": True, "jacoby": True},
           {"match_length": 7, "max_cube": 8}]


def real_states(count: int) -> list[dict]:
    """``count`` mid-game states (not the opening, not finished) from seeded playouts."""
    out: list[dict] = []
    seed = 0
    while len(out) < count:
        game = islice(play("backgammon", 2, seed, OPTIONS[seed % len(OPTIONS)], any_seat=True), 1, 401)
        out += [E.to_json(s) for step, s in enumerate(game) if s.phase.value in ("roll", "move") and step % 37 == 5]
        seed += 1
    return out[:count]


def _first_point(points: list[int]) -> int:
    return next(i for i, n in enumerate(points) if n)


def _add_checker(d):
    d["points"][0][_first_point(d["points"][0])] += 1


def _remove_checker(d):
    d["points"][1][_first_point(d["points"][1])] -= 1


def _foreign_checker(d):
    """A checker of seat 0 moved onto a point seat 1 holds."""
    p1 = _first_point(d["points"][1])  # seat 1's point p1+1 is seat 0's point 24-p1
    d["points"][0][_first_point(d["points"][0])] -= 1
    d["points"][0][23 - p1] += 1


def _duplicate_side(d):
    d["points"][1] = list(d["points"][0])
    d["bar"][1], d["off"][1] = d["bar"][0], d["off"][0]


def _all_off(d):
    d["points"][0], d["bar"][0], d["off"][0] = [0] * 24, 0, 15


def _swap_sides(d):
    for key in ("points", "bar", "off"):
        d[key].reverse()


def _set(path, value):
    def mutate(d):
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return mutate


def _turn_other(d):
    d["turn"] = 1 - d["turn"]


def _dice_swap(d):
    d["dice"].reverse()


# (name, mutate, reachable, applies-to(state json) -> bool)
MUTATIONS = [
    ("extra-checker", _add_checker, False, None),
    ("missing-checker", _remove_checker, False, None),
    ("foreign-checker", _foreign_checker, False, None),
    ("duplicated-side", _duplicate_side, True, lambda d: not any(
        d["points"][0][i] and d["points"][0][23 - i] for i in range(24))),
    ("all-off-game-on", _all_off, False, None),
    ("swap-sides", _swap_sides, True, lambda d: not d["cube"]["offered"] and not d["resign"]
     and d["cube"]["owner"] is None and not d["cube"]["beaver"] and not d["cube"]["raccoon"]),
    ("off-16", _set(("off", 0), 16), False, None),
    ("bar-negative", _set(("bar", 1), -1), False, None),
    ("points-23", lambda d: d["points"][0].pop(), False, None),
    ("points-string", _set(("points",), "24/13"), False, None),
    ("seat-2-turn", _set(("turn",), 2), False, None),
    ("turn-minus-1", _set(("turn",), -1), False, None),
    ("turn-null", _set(("turn",), None), False, None),
    ("turn-string", _set(("turn",), "0"), False, None),
    ("turn-to-other", _turn_other, True, lambda d: d["phase"] == "roll" and not d["cube"]["offered"]
     and not d["resign"] and not d["cube"]["beaver"] and not d["cube"]["raccoon"]
     and (d["cube"]["owner"] is None or d["options"]["cube"] == "on" or d["match"]["length"])),
    ("phase-opening", _set(("phase",), "opening"), False, None),
    ("phase-over", _set(("phase",), "over"), False, None),
    ("phase-unknown", _set(("phase",), "bearoff"), False, None),
    ("dice-in-roll", lambda d: d.update(dice=[3, 1]) if d["phase"] == "roll" else d.update(dice=[]), False, None),
    ("dice-7", lambda d: d.update(dice=[7, 1], phase="move"), False, None),
    ("dice-three", lambda d: d.update(dice=[1, 2, 3], phase="move"), False, None),
    ("dice-swapped", _dice_swap, True, lambda d: d["phase"] == "move"),
    ("cube-3", _set(("cube", "value"), 3), False, None),
    ("cube-0", _set(("cube", "value"), 0), False, None),
    ("cube-owner-2", _set(("cube", "owner"), 2), False, None),
    ("cube-owner-empty", _set(("cube", "owner"), ""), False, None),
    ("cube-1-owned", lambda d: d["cube"].update(value=1, owner=0), False, None),
    ("offer-after-roll", lambda d: d["cube"].update(offered=True) if d["phase"] == "move"
     else d.update(phase="move", dice=[2, 1]) or d["cube"].update(offered=True), False, None),
    ("beaver-without-offer", lambda d: d["cube"].update(beaver=True, value=1, owner=None), False, None),
    ("raccoon-in-match", lambda d: d["cube"].update(raccoon=True), False,
     lambda d: d["match"]["length"] or not d["options"]["raccoon"]),
    ("resign-in-opening", lambda d: d.update(resign="single", phase="opening", turn=None, dice=[]), False, None),
    ("resign-level", _set(("resign",), "double"), False, None),
    ("score-negative", _set(("match", "score", 0), -1), False, None),
    ("score-reached-length", lambda d: d["match"]["score"].__setitem__(0, d["match"]["length"]), False,
     lambda d: d["match"]["length"]),
    ("round-0", _set(("round",), 0), False, None),
    ("round-ahead-of-score", lambda d: d.update(round=sum(d["match"]["score"]) + 2), False,
     lambda d: d["match"]["length"]),
    ("round-2-money", _set(("round",), 2), False, lambda d: not d["match"]["length"]),
    ("crawford-without-n-1", lambda d: d["match"].update(crawford=True, post_crawford=False, score=[0, 0]), False, None),
    ("crawford-and-post", lambda d: d["match"].update(crawford=True, post_crawford=True), False, None),
    ("n-1-without-crawford", lambda d: d["match"].update(score=[d["match"]["length"] - 1, 0], crawford=False,
                                                          post_crawford=False), False,
     lambda d: d["match"]["length"] > 1 and d["options"]["crawford"]),
    ("result-while-playing", _set(("result",), {"winner": 0, "how": "resign", "level": "single", "cube": 1,
                                                "multiplier": 1, "points": 1}), False, None),
    ("length-disagrees", _set(("match", "length"), 9), False, None),
    ("option-unknown", lambda d: d["options"].update(doubling=True), False, None),
    ("option-type", _set(("options", "jacoby"), "yes"), False, None),
    ("colors-swapped", _set(("colors",), ["black", "white"]), False, None),
    ("position-id-stale", _set(("position_id",), "4HPwATDgc/ABMA"), False,
     lambda d: d["position_id"] != "4HPwATDgc/ABMA"),
    ("pips-wrong", lambda d: d["pips"].__setitem__(0, d["pips"][0] + 1), False, None),
    ("rng-missing", lambda d: d.pop("rng"), False, None),
]


def test_mutations_of_real_states_are_refused_or_reachable() -> None:
    states = real_states(12)
    done = 0
    reachable = 0
    for data in states:
        assert outcome("backgammon", data) == ACCEPTED  # the real state itself loads
        for name, mutate, may_load, applies in MUTATIONS:
            if applies is not None and not applies(data):
                continue
            mutated = copy.deepcopy(data)
            mutate(mutated)
            if mutated == data:
                continue
            if may_load:
                for key in ("position_id", "match_id", "xgid", "pips", "cube_enabled"):
                    mutated.pop(key)  # the IDs follow the board: the engine writes them afresh
                assert outcome("backgammon", E.to_json(E.from_json(mutated))) == ACCEPTED, name
                reachable += 1
            else:
                assert outcome("backgammon", mutated) != ACCEPTED, (name, data)
                if name not in ("position-id-stale", "pips-wrong"):
                    bare = {k: v for k, v in mutated.items() if k not in ("position_id", "match_id", "xgid", "pips", "cube_enabled")}
                    with pytest.raises(InvalidState) as err:
                        E.from_json(bare)
                    assert err.value.code.startswith("backgammon."), name
            done += 1
    assert done >= 100 and reachable >= 10


@pytest.mark.parametrize(("name", "code"), [
    ("round-2-money", "backgammon.bad-round"), ("round-ahead-of-score", "backgammon.bad-round"),
    ("n-1-without-crawford", "backgammon.bad-crawford"), ("foreign-checker", "backgammon.shared-point"),
    ("extra-checker", "backgammon.checker-count"),
])
def test_engine_codes_of_impossible_counters(name, code) -> None:
    """The counters the schema cannot judge: docs/rules/backgammon.md §11."""
    mutate, applies = next((m, a) for n, m, _, a in MUTATIONS if n == name)
    data = next(d for d in real_states(12) if applies is None or applies(d))
    mutate(data)
    with pytest.raises(InvalidState) as err:
        E.from_json(data)
    assert err.value.code == code
