"""Backgammon scenarios, each citing docs/rules/backgammon.md: the GNU BG-checked vectors BG-0..BG-10,
scoring, the rulings of issue 9, notations, cube and match play, JSON, schemas and codes.

Diagrams show the mover ("me", X) on the bottom row, points in the mover's numbering;
``o`` are the opponent's checkers, counts in brackets.
"""

from __future__ import annotations

import json
import pathlib
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.backgammon import ENGINE as E
from rules.backgammon import _notation as nt
from rules.backgammon._state import Tally
from rules.base import IllegalMove, InvalidOption, InvalidState, NotYourTurn
from rules.shapes import shape_of


def side_json(counts: dict) -> tuple[list[int], int, int]:
    points = [0] * 24
    bar = 0
    for point, n in counts.items():
        if point == "bar":
            bar = n
        else:
            points[point - 1] = n
    return points, bar, 15 - sum(points) - bar


def position(me: dict, opp: dict, dice=None, seat: int = 0, options=None, **extra):
    """A state with ``seat`` on turn; ``me``/``opp`` are {point: count} in each side's numbering."""
    data = E.to_json(E.new(2, 0, options or {}))
    for key in ("position_id", "match_id", "xgid", "pips", "cube_enabled"):
        del data[key]
    for who, counts in ((seat, me), (1 - seat, opp)):
        pts, bar, off = side_json(counts)
        data["points"][who], data["bar"][who], data["off"][who] = pts, bar, off
    data["turn"] = seat
    data["phase"] = "move" if dice else "roll"
    data["dice"] = list(dice or [])
    for key, value in extra.items():
        data[key] = value
    return E.from_json(data)


def notations(state) -> set[str]:
    return {m.notation for m in E.legal_moves(state, state.turn) if m.kind == "move"}


def play(state, text: str, seat: int | None = None):
    seat = state.turn if seat is None else seat
    return E.apply(state, seat, E.move_from_json({"kind": "move", "notation": text}))


def code_of(state, move_json, seat: int | None = None) -> str:
    seat = state.turn if seat is None else seat
    with pytest.raises(IllegalMove) as err:
        E.check(state, seat, E.move_from_json(move_json))
    return err.value.code


START = {24: 2, 13: 5, 8: 3, 6: 5}


# --------------------------------------------------------------------------- vectors BG-0..BG-10 (docs/rules/backgammon.md §4, §9)


def test_start_position_pip_count_and_position_id() -> None:
    """BG-0: 2 on 24, 5 on 13, 3 on 8, 5 on 6 each; 167 pips; Position ID 4HPwATDgc/ABMA.

      13   14 15 16 17   18   | 19   20 21 22 23   24
      X(5)             o(3)   | o(5)              X(2)
      o(5)             X(3)   | X(5)              o(2)
      12   11 10  9  8    7   |  6    5  4  3  2    1     (X's numbering)
    """
    state = E.new(2, 1)
    data = E.to_json(state)
    assert data["pips"] == [167, 167]
    assert data["position_id"] == "4HPwATDgc/ABMA"
    assert data["xgid"] == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    assert E.legal_moves(state, 0) == E.legal_moves(state, 1) == [E.move_from_json({"kind": "roll"})]


def test_larger_die_must_be_played_when_only_one_die_can_be() -> None:
    """BG-1: me 12:1; opp 24:2 (my 1), 1:13 (my 24); roll 6-5 -> only 12/6.

      24 ... 13 | 12 ... 7 | 6 5 4 3 2 1
      o(13)     |  X       |           o(2)
    12/6 then 6/1 is blocked, 12/7 then 7/1 too: one die only, the larger wins.
    """
    state = position({12: 1}, {24: 2, 1: 13}, (6, 5))
    assert E.to_json(state)["position_id"] == "/x8AADAACAAAAA"
    assert notations(state) == {"12/6"}
    assert code_of(state, {"kind": "move", "notation": "12/7"}) == "backgammon.must-use-larger-die"


def test_only_the_playable_die_is_played() -> None:
    """BG-2: me 12:1; opp 19:2 (my 6), 24:2 (my 1), 1:11; 6-5 -> only 12/7.

      12 11 10 9 8 7 | 6    5 4 3 2 1
       X             | o(2)          o(2)
    """
    state = position({12: 1}, {19: 2, 24: 2, 1: 11}, (6, 5))
    assert E.to_json(state)["position_id"] == "/wcAYDAACAAAAA"
    assert notations(state) == {"12/7"}


def test_both_dice_in_the_only_order_that_works() -> None:
    """BG-3: me 13:1, 1:2; opp 16:2 (my 9), 1:13; 6-4 -> only 13/7/3 (13/9 is blocked).

      13 12 11 10 9    8 7 | 6 5 4 3 2 1
       X          o(2)     |           X(2)
    """
    state = position({13: 1, 1: 2}, {16: 2, 1: 13}, (6, 4))
    assert E.to_json(state)["position_id"] == "/x8AMAADQAAAAA"
    assert notations(state) == {"13/7/3"}
    after = play(state, "13/7 7/3")
    assert after.sides[0][3] == 1 and after.sides[0][13] == 0
    assert code_of(state, {"kind": "move", "notation": "13/9 9/3"}) == "backgammon.blocked-point"


def test_doubles_play_as_many_as_possible() -> None:
    """BG-4: me 24:2; opp 11:2 (= my 14), 2:13 (= my 23); 5-5 -> only 24/19(2).

      24   23    22 21 20 19 | 18 17 16 15 14
      X(2) o(13)             |             o(2)
    24/19 twice; 19/14 is blocked, so two of the four 5s are lost.
    """
    state = position({24: 2}, {11: 2, 2: 13}, (5, 5))
    assert E.to_json(state)["position_id"] == "/j+AAQAAAIABAA"
    assert notations(state) == {"24/19(2)"}
    assert code_of(state, {"kind": "move", "notation": "24/19"}) == "backgammon.must-use-all-dice"


def test_checker_on_the_bar_enters_first() -> None:
    """BG-5: me bar:1, 6:5, 8:3, 13:6; opp 1..4:2 (my 24..21), 13:7; 5-3.

      bar | 24 23 22 21 20 ...
       X  | o  o  o  o  .      -> bar/20, then 6/3, 8/5, 13/10 or 20/17
    """
    state = position({"bar": 1, 6: 5, 8: 3, 13: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 13: 7}, (5, 3))
    assert E.to_json(state)["position_id"] == "2wbwBwDgc/ADQA"
    assert notations(state) == {"bar/20 13/10", "bar/20 8/5", "bar/20 6/3", "bar/20/17"}
    assert code_of(state, {"kind": "move", "notation": "13/8 13/10"}) == "backgammon.must-enter-from-bar"
    assert code_of(state, {"kind": "move", "notation": "bar/22 13/8"}) == "backgammon.blocked-point"
    after = play(state, "bar/20 20/17")
    assert play(state, "13/10 bar/20") == play(state, "bar/20 13/10")  # written order is free
    assert after.sides[0][17] == 1 and after.sides[0][25] == 0


def test_closed_board_forfeits_the_turn() -> None:
    """BG-6: me bar:1, ...; opp holds 1..6 (my 24..19) with 2 each; 6-5: nothing enters.

      bar | 24 23 22 21 20 19
       X  | o2 o2 o2 o2 o2 o2   -> the only move is the empty play
    """
    state = position({"bar": 1, 6: 5, 8: 3, 13: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, (6, 5))
    assert E.to_json(state)["position_id"] == "27YBBwDgc/ADQA"
    moves = [m for m in E.legal_moves(state, 0) if m.kind == "move"]
    assert [E.move_to_json(m) for m in moves] == [{"kind": "move", "steps": [], "notation": ""}]
    after = E.apply(state, 0, moves[0])
    assert after.turn == 1 and after.sides == state.sides
    assert code_of(state, {"kind": "move", "steps": [[25, 20]]}) == "backgammon.no-legal-play"


@pytest.mark.parametrize(("me", "dice", "position_id", "plays", "also_legal"), [
    # BG-7: me 5:1, 4:1; opp 1:15 (my 24); 6-1 -> 5/off 4/3, or 5/4 4/off.
    #   6 5 4 3 2 1
    #     X X
    pytest.param({5: 1, 4: 1}, (6, 1), "/38AAAAoAAAAAA", {"5/off 4/3", "5/4/off"},
                 [{"notation": "5/4 4/off"}, {"steps": [[4, 3], [5, 0]]}],
                 id="BG-7-a-die-larger-than-the-highest-point"),
    # BG-8: me 6:1, 2:1; opp 1:15; 5-4 -> 6/1 2/off, or 6/2 2/off.
    #   6 5 4 3 2 1
    #   X       X
    pytest.param({6: 1, 2: 1}, (5, 4), "/38AAABCAAAAAA", {"6/1 2/off", "6/2/off"},
                 [{"notation": "6/2 2/off"}], id="BG-8-mixed-with-a-move-inside"),
])
def test_bear_off(me, dice, position_id, plays, also_legal) -> None:
    """BG-7, BG-8: bearing off, against 15 opposing checkers on the mover's 24: the plays GNU BG
    lists, and the same plays written another way are legal too."""
    state = position(me, {1: 15}, dice)
    assert E.to_json(state)["position_id"] == position_id
    assert notations(state) == plays
    for move in also_legal:
        assert E.is_legal(state, 0, E.move_from_json({"kind": "move", **move}))


def test_no_bear_off_until_all_checkers_are_home() -> None:
    """BG-9: me 7:1, 3:1; opp 1:15; 6-3 -> 7/1 3/off, or 7/4 4/off (7 must come home first).

      7 | 6 5 4 3 2 1
      X |       X
    """
    state = position({7: 1, 3: 1}, {1: 15}, (6, 3))
    assert E.to_json(state)["position_id"] == "/38AAACEAAAAAA"
    assert notations(state) == {"7/1 3/off", "7/4/off"}
    assert E.is_legal(state, 0, E.move_from_json({"kind": "move", "notation": "3/off 7/1"}))  # written order is free
    blocked = position({9: 1, 3: 1}, {1: 15}, (3, 2))
    assert code_of(blocked, {"kind": "move", "notation": "3/off 9/7"}) == "backgammon.cannot-bear-off"


def test_larger_die_cannot_bear_off_from_below_an_occupied_point() -> None:
    """docs/rules/backgammon.md §4.3: me 5:2, 2:1 with 6-1: the 6 may not bear off from 2 while 5 is occupied.

      6 5    4 3 2 1
        X(2)     X      legal: 5/off 5/4, 5/off 2/1, 5/4/off ... never 2/off 5/4
    """
    state = position({5: 2, 2: 1}, {1: 15}, (6, 1))
    assert "2/off 5/4" not in notations(state)
    assert code_of(state, {"kind": "move", "steps": [[2, 0], [5, 4]]}) == "backgammon.illegal-play"


def test_match_id_decodes_as_the_manual_example() -> None:
    """BG-10: QYkqASAAIAAA = 9-point match, 2-4, player 0 owns a 2-cube, player 1 on roll with 5-2."""
    fields = nt.decode_match_id("QYkqASAAIAAA")
    assert fields == {
        "cube_log": 1, "owner": 0, "on_roll": 1, "crawford": 0, "game_state": 1, "turn": 1, "doubled": 0,
        "resign": 0, "die1": 5, "die2": 2, "length": 9, "score0": 2, "score1": 4, "jacoby": 1,
    }
    assert nt.match_id(fields) == "QYkqASAAIAAA"
    state = E.new(2, 0, setup={"position_id": "4HPwATDgc/ABMA", "match_id": "QYkqASAAIAAA"})
    assert (state.turn, state.dice, state.cube.value, state.owner, state.score) == (1, (5, 2), 2, 0, (2, 4))
    assert E.options_of(state)["match_length"] == 9
    assert E.to_json(state)["match_id"] == "QYkqASAAIAAA"


# --------------------------------------------------------------------------- scoring vectors


def finish(me: dict, opp: dict, dice, text: str, cube=1, owner=None, options=None):
    state = position(me, opp, dice, options=options or {"match_length": 0, "cube": "on"},
                     cube={"value": cube, "owner": owner, "offered": False})
    return play(state, text)


def test_gammon_with_cube_four_scores_eight() -> None:
    """docs/rules/backgammon.md §5: a gammon (the loser has none off) with the cube at 4 -> 8.

      me: 1:1 (last checker) | opp: all 15 on its 7..12 (none off, none in my home)
    """
    after = finish({1: 1}, {12: 15}, (3, 2), "1/off", cube=4, owner=1)
    report = E.scores(after)
    assert report.points == (8, 0) and report.final and report.winners == (0,)
    assert report.breakdown[0].result == "gammon" and report.breakdown[0].multiplier == 2


def test_backgammon_with_a_checker_on_the_bar_and_cube_two_scores_six() -> None:
    """docs/rules/backgammon.md §5: backgammon (the loser has a checker on the bar) with the cube at 2 -> 6."""
    after = finish({2: 1}, {"bar": 1, 12: 14}, (4, 3), "2/off", cube=2, owner=0)
    assert E.scores(after).points == (6, 0)
    assert E.outcome(after).reason == "backgammon"


def test_backgammon_when_loser_is_in_the_winners_home_board() -> None:
    """docs/rules/backgammon.md §5: none off and a checker on the loser's 19..24 (the winner's home) is a backgammon."""
    after = finish({2: 1}, {20: 1, 12: 14}, (4, 3), "2/off")
    assert E.scores(after).points == (3, 0)


def test_single_game_when_the_loser_has_borne_off() -> None:
    """docs/rules/backgammon.md §5: the loser has borne off at least one checker -> single."""
    after = finish({2: 1}, {3: 14}, (4, 3), "2/off")
    assert E.scores(after).points == (1, 0) and E.outcome(after).reason == "single"


def test_dropped_redouble_scores_the_cube_before_the_offer() -> None:
    """docs/rules/backgammon.md §5, §6.1: a dropped redouble from 2 to 4 -> the doubler gets 2."""
    state = position(START, START, options={"cube": "on"}, cube={"value": 2, "owner": 0, "offered": False})
    state = E.apply(state, 0, E.move_from_json({"kind": "double"}))
    assert E.to_act(state) == {1}
    state = E.apply(state, 1, E.move_from_json({"kind": "drop"}))
    assert E.scores(state).points == (2, 0) and E.outcome(state).reason == "drop"


def crawford_state(score, crawford=False, post=False, phase="round-over"):
    data = E.to_json(E.new(2, 5, {"match_length": 7}))
    for key in ("position_id", "match_id", "xgid", "cube_enabled"):
        del data[key]
    data["match"].update(score=list(score), crawford=crawford, post_crawford=post)
    if phase in ("round-over", "game-over"):
        data.update(phase=phase, turn=1, result={"winner": 0, "how": "resign", "level": "single", "cube": 1,
                                                  "multiplier": 1, "points": 1})
    return E.from_json(data)


def test_crawford_game_has_no_cube_and_the_next_one_does() -> None:
    """docs/rules/backgammon.md §7: 7-point match at 6-3: the next game is Crawford (no cube); at 6-4 after it, doubling is allowed."""
    state = crawford_state((6, 3))
    state = E.apply(state, 0, E.move_from_json({"kind": "next-round"}))
    assert state.crawford and not state.post_crawford
    state = E.apply(state, 0, E.move_from_json({"kind": "roll", "dice": [3, 5]}))  # seat 1 starts with 5-3
    assert state.turn == 1 and state.phase.value == "move"
    # any turn start of the Crawford game: no double
    start = E.from_json({**strip_ids(E.to_json(state)), "phase": "roll", "dice": []})
    assert all(m.kind != "double" for m in E.legal_moves(start, 1))
    assert code_of(start, {"kind": "double"}, seat=1) == "backgammon.crawford-game"
    # seat 1 wins the Crawford game: 6-4, post-Crawford
    over = crawford_state((6, 4), crawford=True)
    nxt = E.apply(over, 1, E.move_from_json({"kind": "next-round"}))
    assert nxt.post_crawford and not nxt.crawford
    nxt = E.apply(nxt, 0, E.move_from_json({"kind": "roll", "dice": [6, 2]}))
    nxt = E.apply(nxt, 0, E.move_from_json({"kind": "move", "notation": "24/18 13/11"}))
    assert E.move_from_json({"kind": "double"}) in E.legal_moves(nxt, 1)


def strip_ids(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("position_id", "match_id", "xgid", "pips", "cube_enabled")}


# --------------------------------------------------------------------------- notation and play forms


def test_steps_and_notation_forms_are_all_accepted() -> None:
    """A move is a whole turn: steps [[13,7],[7,3]] or '13/7 7/3' or '13/7/3', dice in any order."""
    state = position(START, START, (6, 4))
    forms = [
        {"kind": "move", "steps": [[13, 7], [7, 3]]},
        {"kind": "move", "notation": "13/7 7/3"},
        {"kind": "move", "notation": "13/7/3"},
        {"kind": "move", "notation": "13/9/3"},  # the 4 first: same result
        {"kind": "move", "steps": [[13, 3]]},  # one hop of both dice
        {"kind": "move", "steps": [[13, 7], [7, 3]], "notation": "13/7/3"},
    ]
    results = {E.apply(state, 0, E.move_from_json(f)) for f in forms}
    assert len(results) == 1


def test_notation_and_steps_must_agree() -> None:
    with pytest.raises(IllegalMove) as err:
        E.move_from_json({"kind": "move", "steps": [[13, 7]], "notation": "13/9"})
    assert err.value.code == "backgammon.notation-mismatch"


def test_hit_is_marked_and_the_blot_goes_to_the_bar() -> None:
    """'24/18*/15': hitting the blot on my 18 (opponent's 7) sends it to the bar.

      24  23 22 21 20 19 18 17 16 15
      X(2)               o
    """
    opp = {**START, 7: 1, 6: 4}
    state = position(START, opp, (6, 3))
    assert "24/18*/15" in notations(state)
    after = play(state, "24/18*/15")
    assert after.sides[1][25] == 1 and after.sides[1][7] == 0
    assert code_of(state, {"kind": "move", "notation": "24/21* 13/7"}) == "backgammon.no-hit-there"


def test_doubles_notation_with_count() -> None:
    """'8/5(2) 6/3(2)': 3-3 played with two pairs of checkers."""
    state = position(START, START, (3, 3))
    assert "8/5(2) 6/3(2)" in notations(state)
    after = play(state, "8/5(2) 6/3(2)")
    assert after.sides[0][5] == 2 and after.sides[0][3] == 2 and after.turn == 1


def test_bar_and_off_forms() -> None:
    """'bar/20' enters on my 20 (opponent's 5); '6/off' bears off."""
    state = position({"bar": 1, 6: 14}, {1: 15}, (5, 4))
    listed = notations(state)
    assert {"bar/20 6/2", "bar/21 6/1"} <= listed
    assert len({"bar/20/16", "bar/21/16"} & listed) == 1  # one result, listed once
    assert E.is_legal(state, 0, E.move_from_json({"kind": "move", "notation": "bar/20/16"}))
    assert E.is_legal(state, 0, E.move_from_json({"kind": "move", "notation": "bar/21/16"}))
    home = position({6: 2, 5: 13}, {1: 15}, (6, 5))
    after = play(home, "6/off 5/off")
    assert after.sides[0][0] == 2


def test_unreadable_notation_is_a_bad_notation() -> None:
    with pytest.raises(IllegalMove) as err:
        E.move_from_json({"kind": "move", "notation": "13-7"})
    assert err.value.code == "backgammon.bad-notation"


def test_malformed_moves_are_bad_moves() -> None:
    for bad in ({"kind": "move"}, {"kind": "move", "steps": [[1, 2, 3]]}, {"kind": "roll", "dice": [1]},
                {"kind": "fly"}, {"kind": "resign", "level": "triple"}, "x", {"kind": "double", "x": 1}):
        with pytest.raises(IllegalMove) as err:
            E.move_from_json(bad)
        assert err.value.code == "backgammon.malformed-move"


def test_illegal_play_errors_name_the_rule() -> None:
    state = position(START, START, (6, 4))
    assert code_of(state, {"kind": "move", "notation": "12/6 12/8"}) == "backgammon.no-checker"
    assert code_of(state, {"kind": "move", "notation": "24/14 13/7"}) == "backgammon.dice-mismatch"
    assert code_of(state, {"kind": "move", "notation": "24/18"}) == "backgammon.must-use-all-dice"
    assert code_of(state, {"kind": "move", "steps": []}) == "backgammon.must-move"
    with pytest.raises(NotYourTurn) as err:
        E.check(state, 1, E.move_from_json({"kind": "move", "notation": "24/18 24/20"}))
    assert err.value.code == "backgammon.not-your-turn"


# --------------------------------------------------------------------------- opening roll, dice


def test_opening_tie_is_rolled_again() -> None:
    """docs/rules/backgammon.md §3: each side rolls one die; a tie is rolled again."""
    state = E.new(2, 3)
    again = E.apply(state, 1, E.move_from_json({"kind": "roll", "dice": [4, 4]}))
    assert again.phase.value == "opening" and E.to_act(again) == {0, 1}


def test_higher_opening_roller_plays_both_numbers() -> None:
    """docs/rules/backgammon.md §3 'use': seat 0 rolls 2, seat 1 rolls 6: seat 1 plays 6-2 at once."""
    state = E.apply(E.new(2, 3), 0, E.move_from_json({"kind": "roll", "dice": [2, 6]}))
    assert (state.turn, state.dice, state.phase.value) == (1, (2, 6), "move")
    assert "24/18 13/11" in notations(state)


def test_opening_reroll_option_rolls_afresh() -> None:
    """docs/rules/backgammon.md §3 'reroll': the higher roller starts but rolls two dice afresh."""
    state = E.apply(E.new(2, 3, {"opening_roll": "reroll"}), 0, E.move_from_json({"kind": "roll", "dice": [5, 1]}))
    assert (state.turn, state.dice, state.phase.value) == (0, (), "roll")
    rolled = E.apply(state, 0, E.move_from_json({"kind": "roll"}))
    assert len(rolled.dice) == 2 and rolled.rng.counter > state.rng.counter


def test_random_roll_comes_from_the_state_rng() -> None:
    state = E.apply(E.new(2, 11), 0, E.move_from_json({"kind": "roll"}))
    again = E.apply(E.new(2, 11), 1, E.move_from_json({"kind": "roll"}))
    assert state == again


def test_physical_dice_must_be_possible() -> None:
    state = E.new(2, 3)
    assert code_of(state, {"kind": "roll", "dice": [0, 7]}, seat=0) == "backgammon.bad-dice"


# --------------------------------------------------------------------------- cube and resignation


def test_cube_is_off_by_default_in_a_single_game() -> None:
    """docs/rules/backgammon.md §6.1: cube off by default for a single game, on in match play."""
    state = position(START, START)
    assert all(m.kind != "double" for m in E.legal_moves(state, 0))
    assert code_of(state, {"kind": "double"}) == "backgammon.cube-disabled"
    match = position(START, START, options={"match_length": 5})
    assert E.move_from_json({"kind": "double"}) in E.legal_moves(match, 0)


def test_take_gives_the_cube_to_the_taker_and_only_he_may_redouble() -> None:
    state = position(START, START, options={"cube": "on"})
    state = E.apply(state, 0, E.move_from_json({"kind": "double"}))
    assert code_of(state, {"kind": "roll"}, seat=1) == "backgammon.double-pending"
    state = E.apply(state, 1, E.move_from_json({"kind": "take"}))
    assert (state.cube.value, state.owner, state.turn, E.to_act(state)) == (2, 1, 0, {0})
    assert code_of(state, {"kind": "double"}) == "backgammon.not-cube-owner"
    data = E.to_json(state)
    assert data["cube"] == {"value": 2, "owner": 1, "offered": False, "beaver": False, "raccoon": False}


def test_max_cube_stops_doubling() -> None:
    state = position(START, START, options={"cube": "on", "max_cube": 2}, cube={"value": 2, "owner": 0, "offered": False})
    assert code_of(state, {"kind": "double"}) == "backgammon.max-cube"


def test_beaver_redoubles_and_keeps_the_cube() -> None:
    """docs/rules/backgammon.md §6.2 beaver (money option): the doubled player takes and redoubles at once, keeping the
    cube; like any redouble the original doubler then takes it (cube x4, the beaverer's) or
    drops it (the beaverer scores the cube at x2, its value before the beaver)."""
    state = position(START, START, options={"cube": "on", "beaver": True})
    state = E.apply(state, 0, E.move_from_json({"kind": "double"}))
    assert E.move_from_json({"kind": "beaver"}) in E.legal_moves(state, 1)
    beavered = E.apply(state, 1, E.move_from_json({"kind": "beaver"}))
    assert (beavered.cube.value, beavered.owner, E.to_act(beavered)) == (2, 1, {0})
    assert [m.kind for m in E.legal_moves(beavered, 0)] == ["take", "drop"]
    assert code_of(beavered, {"kind": "roll"}) == "backgammon.beaver-pending"
    assert code_of(beavered, {"kind": "beaver"}) == "backgammon.beaver-pending"
    assert code_of(beavered, {"kind": "raccoon"}) == "backgammon.raccoon-not-allowed"
    data = E.to_json(beavered)
    assert data["cube"] == {"value": 2, "owner": 1, "offered": False, "beaver": True, "raccoon": False}
    assert data["xgid"].split(":")[4] == "B"
    assert E.from_json(data) == beavered
    for cube in ({"value": 2, "owner": 0, "offered": False, "beaver": True},  # the doubler cannot own it
                 {"value": 1, "owner": None, "offered": False, "beaver": True}):  # nothing was taken
        with pytest.raises(InvalidState) as err:
            E.from_json({**strip_ids(data), "cube": cube})
        assert err.value.code == "backgammon.bad-cube"
    taken = E.apply(beavered, 0, E.move_from_json({"kind": "take"}))
    assert (taken.cube.value, taken.owner, taken.turn, taken.phase.value, E.to_act(taken)) == (4, 1, 0, "roll", {0})
    assert code_of(taken, {"kind": "double"}) == "backgammon.not-cube-owner"
    dropped = E.apply(beavered, 0, E.move_from_json({"kind": "drop"}))
    assert E.scores(dropped).points == (0, 2) and E.outcome(dropped).reason == "drop"
    assert E.outcome(dropped).winners == (1,)
    plain = E.apply(position(START, START, options={"cube": "on"}), 0, E.move_from_json({"kind": "double"}))
    assert code_of(plain, {"kind": "beaver"}, seat=1) == "backgammon.beaver-not-allowed"


def test_jacoby_counts_a_gammon_single_with_the_cube_centred() -> None:
    opts = {"cube": "on", "jacoby": True}
    assert E.scores(finish({1: 1}, {12: 15}, (3, 2), "1/off", options=opts)).points == (1, 0)
    assert E.scores(finish({1: 1}, {12: 15}, (3, 2), "1/off", cube=2, owner=0, options=opts)).points == (4, 0)


def test_resignation_accepted_scores_its_level_times_the_cube() -> None:
    state = position(START, START, options={"cube": "on"}, cube={"value": 2, "owner": 1, "offered": False})
    state = E.apply(state, 0, E.move_from_json({"kind": "resign", "level": "gammon"}))
    assert E.to_act(state) == {1}
    assert E.to_json(state)["resign"] == "gammon"
    done = E.apply(state, 1, E.move_from_json({"kind": "accept-resignation"}))
    assert E.scores(done).points == (0, 4) and E.outcome(done).winners == (1,)


def test_resignation_refused_play_goes_on() -> None:
    state = position(START, START, (3, 1))
    offered = E.apply(state, 0, E.move_from_json({"kind": "resign", "level": "single"}))
    back = E.apply(offered, 1, E.move_from_json({"kind": "reject-resignation"}))
    assert back == state


# --------------------------------------------------------------------------- match play


def test_match_goes_on_with_next_round_and_ends_at_n() -> None:
    """Match to 3: a gammon (2) then a single (1) ends it."""
    opts = {"match_length": 3}
    state = finish({1: 1}, {12: 15}, (3, 2), "1/off", options=opts)
    assert E.round_over(state) and E.to_act(state) == {0, 1} and E.outcome(state) is None
    assert E.scores(state).totals == (2, 0) and not E.scores(state).winners
    state = E.apply(state, 1, E.move_from_json({"kind": "next-round"}))
    assert state.phase.value == "opening" and state.round == 2 and state.crawford  # 2 = N-1
    data = strip_ids(E.to_json(state))
    data["points"][0], data["bar"][0], data["off"][0] = side_json({1: 1})
    data["points"][1], data["bar"][1], data["off"][1] = side_json({3: 2})
    data.update(phase="move", turn=0, dice=[2, 1])
    state = play(E.from_json(data), "1/off")
    assert E.outcome(state).winners == (0,) and E.scores(state).totals == (3, 0)
    assert E.to_act(state) == frozenset()


# --------------------------------------------------------------------------- IDs and setup


def test_position_id_puts_the_player_not_on_roll_first() -> None:
    """docs/rules/backgammon.md §9.1: one checker of the player NOT on roll on the bar -> 4HPwAVDgc/ABMA."""
    not_on_roll = position(START, {**START, 24: 1, "bar": 1})
    assert E.to_json(not_on_roll)["position_id"] == "4HPwAVDgc/ABMA"
    on_roll = position({**START, 24: 1, "bar": 1}, START)
    assert E.to_json(on_roll)["position_id"] == "4HPwATDgc/ABUA"


def test_setup_from_ids_round_trips() -> None:
    state = position({"bar": 1, 6: 5, 8: 3, 13: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 13: 7}, (5, 3), seat=1,
                     options={"match_length": 7}, match={"length": 7, "score": [3, 5], "crawford": False,
                                                         "post_crawford": False}, round=4,
                     cube={"value": 2, "owner": 0, "offered": False})
    data = E.to_json(state)
    again = E.new(2, 0, setup={"position_id": data["position_id"], "match_id": data["match_id"]})
    assert (again.sides, again.turn, again.dice, again.cube.value, again.owner, again.score) == (
        state.sides, 1, (5, 3), 2, 0, (3, 5))
    by_xg = E.new(2, 0, setup={"xgid": data["xgid"]})
    assert (by_xg.sides, by_xg.turn, by_xg.dice, by_xg.cube.value, by_xg.owner, by_xg.score) == (
        state.sides, 1, (5, 3), 2, 0, (3, 5))
    assert E.to_json(by_xg)["xgid"] == data["xgid"]


def test_setup_rejects_bad_ids() -> None:
    with pytest.raises(InvalidState) as err:
        E.new(2, 0, setup={"position_id": "not-an-id"})
    assert err.value.code == "backgammon.bad-position-id"
    with pytest.raises(InvalidState) as err:
        E.new(2, 0, setup={"xgid": "XGID=nope"})
    assert err.value.code == "backgammon.bad-xgid"
    with pytest.raises(InvalidOption) as err:
        E.new(2, 0, setup={"position_id": "4HPwATDgc/ABMA", "xgid": "x"})
    assert err.value.code == "backgammon.bad-setup"


# --------------------------------------------------------------------------- JSON, views, tampering


def tampered(**changes) -> dict:
    data = E.to_json(position(START, START, (3, 1)))
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"off": [1, 0]}, "backgammon.checker-count"),  # a checker too many
        ({"points": [[0] * 5 + [5, 0, 3] + [0] * 4 + [5] + [0] * 10 + [1], [0] * 5 + [5, 0, 3] + [0] * 4 + [5] + [0] * 10 + [2]]},
         "backgammon.checker-count"),  # a lost checker
        ({"turn": None}, "backgammon.bad-turn"),
        ({"phase": "roll"}, "backgammon.bad-turn"),
        ({"position_id": "4HPwATDgc/ABMB"}, "backgammon.id-mismatch"),
        ({"cube": {"value": 3, "owner": 0, "offered": False}}, "backgammon.bad-cube"),
        ({"result": {"winner": 0, "how": "bear-off", "level": "single", "cube": 1, "multiplier": 1, "points": 1}},
         "backgammon.bad-result"),
        ({"points": None}, "backgammon.bad-state"),
    ],
)
def test_from_json_rejects_tampered_states(changes, code) -> None:
    with pytest.raises(InvalidState) as err:
        E.from_json(tampered(**changes))
    assert err.value.code == code


def test_from_json_rejects_a_point_held_by_both_sides() -> None:
    data = strip_ids(tampered())
    data["points"][0][23], data["points"][0][22] = 1, 1  # seat 0: 24 -> 23 with one checker
    data["points"][1][23], data["points"][1][1] = 1, 1  # seat 1: 24 -> 2 = seat 0's 23
    with pytest.raises(InvalidState) as err:
        E.from_json(data)
    assert err.value.code == "backgammon.shared-point"


def test_from_json_never_leaks_python_errors() -> None:
    for junk in (None, [], {"options": {}}, {"options": 5}, {**tampered(), "dice": "xx"}):
        with pytest.raises(InvalidState) as err:
            E.from_json(junk)
        assert err.value.code == "backgammon.bad-state"
        assert "Error" not in err.value.message and "None" not in err.value.message


def test_view_hides_only_the_rng_and_carries_the_ids() -> None:
    state = position(START, START, (3, 1))
    for seat in (None, 0, 1):
        view = E.view(state, seat)
        assert "rng" not in view
        assert {"position_id", "match_id", "xgid"} <= set(view)


# --------------------------------------------------------------------------- tally


def test_tally_scores_the_final_position() -> None:
    """Final position: seat 0 all off; seat 1 none off with a checker on the bar; cube 2 -> 6."""
    pts, bar, off = side_json({"bar": 1, 12: 14})
    tally = {"winner": 0, "cube": 2, "owner": 1, "points": [[0] * 24, pts], "bar": [0, bar], "off": [15, off]}
    report = E.score_tally(tally)
    assert report.points == (6, 0) and report.winners == (0,) and report.breakdown[0].result == "backgammon"


def test_tally_needs_the_final_board_and_says_so() -> None:
    """docs/rules/backgammon.md §10: a tally is the winner and the final board; the schema
    requires exactly what the engine reads, and no message quotes Python internals."""
    required = {f.key for f in shape_of(Tally).fields if f.required}
    assert required == {"winner", "points", "bar", "off"}
    pts, bar, off = side_json({12: 15})
    base = {"winner": 0, "points": [[0] * 24, pts], "bar": [0, bar], "off": [15, off]}
    for key in ("points", "winner", "bar", "off"):
        partial = {k: v for k, v in base.items() if k != key}
        with pytest.raises(InvalidState) as err:
            E.score_tally(partial)
        assert err.value.code == "backgammon.bad-tally"
        assert "KeyError" not in err.value.message and "None" not in err.value.message
    for bad in ({**base, "points": [[0] * 24, None]}, {**base, "cube": 3}, {**base, "owner": 0},
                {**base, "jacoby": "yes"}, {**base, "match_length": -1}, {**base, "xgid": "XGID=x"}, [1, 2]):
        with pytest.raises(InvalidState) as err:
            E.score_tally(bad)
        assert err.value.code == "backgammon.bad-tally"
        assert "Error" not in err.value.message and "None" not in err.value.message and "^" not in err.value.message


def test_tally_rejects_a_winner_with_checkers_left() -> None:
    start, bar, off = side_json(START)
    with pytest.raises(InvalidState) as err:
        E.score_tally({"winner": 1, "cube": 1, "points": [start, start], "bar": [0, 0], "off": [0, 0]})
    assert err.value.code == "backgammon.winner-not-off"
    with pytest.raises(InvalidState) as err:
        E.score_tally({"winner": 1, "points": [start, start], "bar": [0, 0], "off": [0, 1]})
    assert err.value.code == "backgammon.checker-count"


# --------------------------------------------------------------------------- schemas over playouts


def random_game(state, rnd: random.Random, turns: int, calm):
    """The turns of a random game from ``state``, ``turns`` at most, until nobody is to act: a random
    acting seat plays a random move of ``calm(moves, rnd)`` (of all the legal moves where that is
    empty). Yields (state, seat, legal moves, move played, next state)."""
    for _ in range(turns):
        acting = E.to_act(state)
        if not acting:
            return
        seat = rnd.choice(sorted(acting))
        moves = E.legal_moves(state, seat)
        move = rnd.choice(calm(moves, rnd) or moves)
        after = E.apply(state, seat, move)
        yield state, seat, moves, move, after
        state = after


def _no_resignation(moves: list, rnd: random.Random) -> list:
    return [m for m in moves if m.kind != "resign"]


def test_declared_shapes_read_back_every_state_and_move_of_random_playouts() -> None:
    for seed in range(6):
        rnd = random.Random(seed)
        start = E.new(2, seed, {"match_length": [0, 3][seed % 2], "cube": "on", "beaver": seed % 3 == 0})
        for state, _, moves, _, after in random_game(start, rnd, 600, _no_resignation):
            assert E.from_json(json.loads(json.dumps(E.to_json(state)))) == state
            for move in moves:
                data = E.move_to_json(move)
                assert E.move_from_json(json.loads(json.dumps(data))) == move
            assert json.loads(json.dumps(E.to_json(after))) == E.to_json(after)


def _calm(moves: list, rnd: random.Random) -> list:
    """No resignation, and a double one time in ten."""
    return [m for m in moves if m.kind != "resign" and (m.kind != "double" or rnd.random() < 0.1)]


def test_long_playouts_obey_the_protocol() -> None:
    """The conformance checks on whole games (the generic suite's random resignations end
    games early): every listed move passes check, unlisted earlier moves are illegal or give
    a listed result, JSON round-trips, apply leaves its input alone, the same seed replays."""
    from tests.rules.test_conformance import check_step

    for seed, options in enumerate([{}, {"match_length": 3}, {"cube": "on", "beaver": True, "jacoby": True},
                                    {"match_length": 5, "opening_roll": "reroll", "max_cube": 8}]):
        rnd = random.Random(seed)
        start = E.new(2, seed, options)
        seen = E.to_json(start)
        pool: list = []
        history = []
        for state, seat, moves, move, after in random_game(start, rnd, 3000, _calm):
            assert E.to_json(state) == seen  # apply left its input as it was made
            check_step(E, state, seat, moves, pool)
            seen = E.to_json(after)
            history.append((seat, move))
            pool.append(move)
            del pool[:-60]
        state = after
        assert E.outcome(state) is not None and E.scores(state).winners == E.outcome(state).winners
        again = E.new(2, seed, options)
        for seat, move in history:
            again = E.apply(again, seat, move)
        assert again == state


def test_legal_play_counts_match_the_recorded_gnubg_counts() -> None:
    """tests/rules/data/backgammon/legal_counts.json: 150 positions (doubles, the bar,
    bear-offs, forfeits) with the number of distinct plays GNU BG found; ours must agree."""
    path = pathlib.Path(__file__).parent / "data" / "backgammon" / "legal_counts.json"
    rows = json.loads(path.read_text())["positions"]
    assert len(rows) >= 100
    for row in rows:
        state = E.new(2, 0, setup={"position_id": row["position_id"]})
        state = E.apply(state, 0, E.move_from_json({"kind": "roll", "dice": row["dice"]}))
        plays = [m for m in E.legal_moves(state, 0) if m.kind == "move" and m.steps]
        assert len(plays) == row["plays"], row
        assert len({m.notation for m in plays}) == len(plays)


def test_pending_double_and_resignation_survive_the_ids() -> None:
    """Match ID: doubled bit and resign level, with 'turn' the seat that must answer; XGID: dice 'D'."""
    base = position(START, {**START, 24: 1, 23: 1}, seat=1, options={"match_length": 7})
    doubled = E.apply(base, 1, E.move_from_json({"kind": "double"}))
    data = E.to_json(doubled)
    fields = nt.decode_match_id(data["match_id"])
    assert (fields["doubled"], fields["on_roll"], fields["turn"]) == (1, 1, 0)
    assert ":D:" in data["xgid"]
    for setup in ({"position_id": data["position_id"], "match_id": data["match_id"]}, {"xgid": data["xgid"]}):
        again = E.new(2, 0, setup=setup)
        assert (again.sides, again.offered, again.turn, E.to_act(again)) == (doubled.sides, True, 1, {0})
    resigned = E.apply(base, 1, E.move_from_json({"kind": "resign", "level": "backgammon"}))
    data = E.to_json(resigned)
    assert nt.decode_match_id(data["match_id"])["resign"] == 3
    again = E.new(2, 0, setup={"position_id": data["position_id"], "match_id": data["match_id"]})
    assert again.resign == "backgammon" and E.to_act(again) == {0}


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.sampled_from(["", "x", "move", "roll", "single", "D"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["value", "owner", "a"]), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300)
@given(data=st.data())
def test_from_json_raises_only_invalid_state_on_tampered_input(data) -> None:
    """Hostile clients: any field replaced by any JSON value gives a state or InvalidState."""
    state = E.to_json(position({**START, 6: 4, 5: 1}, START, (3, 1), options={"cube": "on"}))
    key = data.draw(st.sampled_from(sorted(state)))
    target = state
    if isinstance(state[key], dict) and data.draw(st.booleans()):
        target = state[key]
        key = data.draw(st.sampled_from(sorted(target)))
    elif isinstance(state[key], list) and state[key] and data.draw(st.booleans()):
        target = state[key]
        key = data.draw(st.integers(0, len(target) - 1))
    target[key] = data.draw(_JSON)
    try:
        parsed = E.from_json(state)
    except InvalidState as err:
        assert err.code.startswith(("backgammon.", "state."))
    else:
        assert E.from_json(E.to_json(parsed)) == parsed


@settings(max_examples=300)
@given(move=_JSON | st.fixed_dictionaries({"kind": st.sampled_from(["move", "roll", "resign"])}, optional={
    "steps": _JSON, "notation": st.text(max_size=12), "dice": _JSON, "level": _JSON}))
def test_move_from_json_raises_only_bad_moves(move) -> None:
    state = position(START, START, (3, 1))
    try:
        parsed = E.move_from_json(move)
    except IllegalMove as err:
        assert err.code in ("backgammon.malformed-move", "backgammon.bad-notation", "backgammon.notation-mismatch")
        return
    try:
        E.check(state, 0, parsed)
    except IllegalMove as err:
        assert err.code.startswith("backgammon.")


def test_automatic_doubles_on_opening_ties() -> None:
    """docs/rules/backgammon.md §6.5 money option: an opening tie doubles the cube, which stays in the middle."""
    opts = {"cube": "on", "automatic_doubles": True}
    state = E.new(2, 3, opts)
    state = E.apply(state, 0, E.move_from_json({"kind": "roll", "dice": [4, 4]}))
    state = E.apply(state, 1, E.move_from_json({"kind": "roll", "dice": [2, 2]}))
    assert (state.cube.value, state.owner, state.phase.value) == (4, None, "opening")
    state = E.apply(state, 0, E.move_from_json({"kind": "roll", "dice": [6, 1]}))
    assert state.turn == 0 and E.to_json(state)["cube"] == {"value": 4, "owner": None, "offered": False, "beaver": False, "raccoon": False}
    assert E.from_json(E.to_json(state)) == state
    plain = E.apply(E.new(2, 3, {"cube": "on"}), 0, E.move_from_json({"kind": "roll", "dice": [4, 4]}))
    assert plain.cube.value == 1
    # Jacoby: automatic doubles do not turn the cube
    jac = finish({1: 1}, {12: 15}, (3, 2), "1/off", cube=2, options={**opts, "jacoby": True})
    assert E.scores(jac).points == (2, 0)
    with pytest.raises(InvalidState) as err:
        E.from_json({**strip_ids(E.to_json(state)), "options": {**E.options_of(state), "automatic_doubles": False}})
    assert err.value.code == "backgammon.bad-cube"


# --------------------------------------------------------------------------- review: cube, match, resignation, notation


def mv(state, seat, move_json):
    return E.apply(state, seat, E.move_from_json(move_json))


def test_double_is_offered_only_before_the_roll() -> None:
    """docs/rules/backgammon.md §6.1 "at the start of his own turn, before rolling": after rolling, doubling is refused,
    and the opening roll (§3 'use') goes straight to the move, with no chance to double."""
    rolled = position(START, START, (3, 1), options={"cube": "on"})
    assert all(m.kind != "double" for m in E.legal_moves(rolled, 0))
    assert code_of(rolled, {"kind": "double"}) == "backgammon.double-after-roll"
    opened = mv(E.new(2, 3, {"cube": "on"}), 0, {"kind": "roll", "dice": [5, 2]})
    assert (opened.turn, opened.phase.value) == (0, "move")
    assert code_of(opened, {"kind": "double"}) == "backgammon.double-after-roll"


def test_dropped_first_double_scores_one_point() -> None:
    """docs/rules/backgammon.md §5: a dropped double scores the cube before the offer: the centred 1-cube -> 1, single."""
    state = mv(position(START, START, options={"cube": "on"}), 0, {"kind": "double"})
    assert [m.kind for m in E.legal_moves(state, 1)] == ["take", "drop"]  # no beaver unless enabled
    done = mv(state, 1, {"kind": "drop"})
    assert E.scores(done).points == (1, 0) and done.result.cube == 1 and done.result.multiplier == 1


def test_cube_owner_redoubles_and_the_cube_changes_hands() -> None:
    """docs/rules/backgammon.md §6.1: after a take the taker owns the cube; on his next turn, before rolling, he may
    redouble; the other takes and now owns a 4-cube."""
    state = mv(position(START, START, options={"cube": "on"}), 0, {"kind": "double"})
    state = mv(state, 1, {"kind": "take"})
    state = mv(state, 0, {"kind": "roll", "dice": [3, 1]})
    state = mv(state, 0, {"kind": "move", "notation": "8/5 6/5"})
    assert state.turn == 1 and E.move_from_json({"kind": "double"}) in E.legal_moves(state, 1)
    state = mv(mv(state, 1, {"kind": "double"}), 0, {"kind": "take"})
    assert (state.cube.value, state.owner, state.turn) == (4, 0, 1)
    assert code_of(state, {"kind": "double"}) == "backgammon.not-cube-owner"


def test_max_cube_allows_doubling_up_to_it_and_limits_beavers() -> None:
    """docs/rules/backgammon.md §6.6 optional maximum cube: a double to exactly max_cube is allowed, past it not; a
    beaver that would pass it is refused."""
    state = position(START, START, options={"cube": "on", "max_cube": 4}, cube={"value": 2, "owner": 0, "offered": False})
    assert E.move_from_json({"kind": "double"}) in E.legal_moves(state, 0)
    state = mv(mv(state, 0, {"kind": "double"}), 1, {"kind": "take"})
    assert state.cube.value == 4
    beaver = mv(position(START, START, options={"cube": "on", "beaver": True, "max_cube": 2}), 0, {"kind": "double"})
    assert [m.kind for m in E.legal_moves(beaver, 1)] == ["take", "drop"]
    assert code_of(beaver, {"kind": "beaver"}, seat=1) == "backgammon.max-cube"


def test_jacoby_and_beaver_are_money_play_only() -> None:
    """docs/rules/backgammon.md §6: "None of §6.2-6.5 is used in match play": with match_length the Jacoby rule does not
    count a gammon single, and a beaver is refused."""
    opts = {"match_length": 5, "jacoby": True, "beaver": True}
    assert E.scores(finish({1: 1}, {12: 15}, (3, 2), "1/off", options=opts)).points == (2, 0)
    doubled = mv(position(START, START, options=opts), 0, {"kind": "double"})
    assert [m.kind for m in E.legal_moves(doubled, 1)] == ["take", "drop"]
    assert code_of(doubled, {"kind": "beaver"}, seat=1) == "backgammon.beaver-not-allowed"


def test_jacoby_applies_to_resignations_until_the_cube_is_turned() -> None:
    """docs/rules/backgammon.md §6.4 Jacoby (money): an accepted gammon resignation with the cube centred scores 1;
    with the cube turned to 2 it scores 4. A backgammon resignation is 3 x cube."""
    opts = {"cube": "on", "jacoby": True}
    centred = mv(mv(position(START, START, options=opts), 0, {"kind": "resign", "level": "gammon"}),
                 1, {"kind": "accept-resignation"})
    assert E.scores(centred).points == (0, 1) and centred.result.multiplier == 1
    turned = position(START, START, options=opts, cube={"value": 2, "owner": 0, "offered": False})
    turned = mv(mv(turned, 0, {"kind": "resign", "level": "gammon"}), 1, {"kind": "accept-resignation"})
    assert E.scores(turned).points == (0, 4)
    bg = mv(mv(position(START, START, (6, 5)), 0, {"kind": "resign", "level": "backgammon"}),
            1, {"kind": "accept-resignation"})
    assert E.scores(bg).points == (0, 3) and E.outcome(bg).reason == "backgammon"


def test_only_the_player_on_turn_resigns_and_a_pending_resignation_blocks_play() -> None:
    """docs/rules/backgammon.md §8 resignation: offered by the player on turn; the opponent must answer it first."""
    state = position(START, START, options={"cube": "on"})
    with pytest.raises(NotYourTurn) as err:
        E.check(state, 1, E.move_from_json({"kind": "resign", "level": "single"}))
    assert err.value.code == "backgammon.not-your-turn"
    offered = mv(state, 0, {"kind": "resign", "level": "single"})
    assert [m.kind for m in E.legal_moves(offered, 1)] == ["accept-resignation", "reject-resignation"]
    assert code_of(offered, {"kind": "take"}, seat=1) == "backgammon.resignation-pending"
    assert code_of(state, {"kind": "accept-resignation"}) == "backgammon.no-resignation-offered"
    assert code_of(state, {"kind": "take"}) == "backgammon.no-double-offered"


def test_crawford_option_off_plays_no_crawford_game() -> None:
    """docs/rules/backgammon.md §7: with crawford=false, reaching N-1 (7-point match, 6-3) starts an ordinary game with the cube."""
    data = strip_ids(E.to_json(crawford_state((6, 3))))
    data["options"]["crawford"] = False
    state = mv(E.from_json(data), 0, {"kind": "next-round"})
    assert (state.crawford, state.post_crawford) == (False, False)
    state = mv(mv(state, 0, {"kind": "roll", "dice": [6, 2]}), 0, {"kind": "move", "notation": "24/18 13/11"})
    assert E.move_from_json({"kind": "double"}) in E.legal_moves(state, 1)


def test_crawford_game_follows_a_jump_to_n_minus_one_and_comes_once() -> None:
    """docs/rules/backgammon.md §7: a gammon from 4-0 to 6-0 in a 7-point match still makes the next game Crawford;
    when the trailer then also reaches 6 (6-6 after the Crawford game) there is no second one."""
    nxt = mv(crawford_state((6, 0)), 0, {"kind": "next-round"})
    assert (nxt.crawford, nxt.post_crawford) == (True, False)
    later = mv(crawford_state((6, 6), post=True), 1, {"kind": "next-round"})
    assert (later.crawford, later.post_crawford) == (False, True)


def test_dropped_double_in_post_crawford_match_adds_the_pre_offer_cube() -> None:
    """docs/rules/backgammon.md §5, §7 match play: 5-point match at 3-4 post-Crawford, seat 0 doubles, seat 1 drops:
    seat 0 scores 1 (4-4) and the match goes on; at 4-4 a drop ends it 5-4."""
    opts = {"match_length": 5}
    state = position(START, START, options=opts,
                     match={"length": 5, "score": [3, 4], "crawford": False, "post_crawford": True}, round=5)
    done = mv(mv(state, 0, {"kind": "double"}), 1, {"kind": "drop"})
    assert E.scores(done).totals == (4, 4) and E.outcome(done) is None and E.to_act(done) == {0, 1}
    nxt = mv(done, 0, {"kind": "next-round"})
    assert (nxt.crawford, nxt.post_crawford, nxt.cube.value, nxt.owner) == (False, True, 1, None)
    state = position(START, START, options=opts,
                     match={"length": 5, "score": [4, 4], "crawford": False, "post_crawford": True}, round=6)
    done = mv(mv(state, 0, {"kind": "double"}), 1, {"kind": "drop"})
    assert E.outcome(done).winners == (0,) and E.outcome(done).reason == "match" and E.to_act(done) == frozenset()


def test_notation_edge_cases() -> None:
    """docs/rules/backgammon.md §4.6: 'bar/20*' hits on entry (unmarked, the hit still happens), '25/20' is the bar, case does not matter,
    '(n)' may not exceed the checkers there, a path played 5 times is unreadable, and
    '8/5(2)' alone does not use all four 3s."""
    opp = {1: 2, 2: 2, 3: 2, 4: 2, 5: 1, 13: 6}  # a blot on its 5 = my 20
    state = position({"bar": 1, 6: 5, 8: 3, 13: 6}, opp, (5, 3))
    assert "bar/20* 6/3" in notations(state)
    after = play(state, "bar/20* 6/3")
    assert after.sides[1][25] == 1 and after.sides[1][5] == 0
    assert E.apply(state, 0, E.move_from_json({"kind": "move", "notation": "25/20* 6/3"})) == after
    assert E.apply(state, 0, E.move_from_json({"kind": "move", "notation": "BAR/20* 6/3"})) == after
    assert play(state, "bar/20 6/3") == after  # landing on a blot always hits; '*' is optional, but checked
    assert code_of(state, {"kind": "move", "notation": "13/10 6/1"}) == "backgammon.must-enter-from-bar"
    doubles = position(START, START, (3, 3))
    assert code_of(doubles, {"kind": "move", "notation": "8/5(2)"}) == "backgammon.must-use-all-dice"
    assert code_of(doubles, {"kind": "move", "notation": "8/5(4)"}) == "backgammon.no-checker"
    with pytest.raises(IllegalMove) as err:
        E.move_from_json({"kind": "move", "notation": "8/5(5)"})
    assert err.value.code == "backgammon.bad-notation"
    with pytest.raises(IllegalMove) as err:
        E.move_from_json({"kind": "move", "notation": "off/3"})
    assert err.value.code == "backgammon.bad-notation"


def test_bear_off_notation_uses_the_highest_point_rule() -> None:
    """BG-8 in notation: me 6:1, 2:1 with 5-4. '6/off' (one checker, 6/2/off) is the same result
    as '6/2 2/off'; '6/off 2/off' needs three dice (no single 5 or 4 bears off from 6), and '2/off'
    alone leaves the 4 unplayed."""
    state = position({6: 1, 2: 1}, {1: 15}, (5, 4))
    assert play(state, "6/off") == play(state, "6/2 2/off")
    assert code_of(state, {"kind": "move", "notation": "6/off 2/off"}) == "backgammon.dice-mismatch"
    assert code_of(state, {"kind": "move", "notation": "2/off"}) == "backgammon.illegal-play"


def test_tally_applies_jacoby_only_in_money_play() -> None:
    """Tally: a gammon (loser none off) with the cube centred counts 1 under Jacoby in money play,
    2 in match play."""
    pts, bar, off = side_json({12: 15})
    base = {"winner": 0, "points": [[0] * 24, pts], "bar": [0, bar], "off": [15, off]}
    assert E.score_tally({**base, "jacoby": True}).points == (1, 0)
    assert E.score_tally({**base, "jacoby": True, "match_length": 5}).points == (2, 0)
    assert E.score_tally({**base, "jacoby": True, "cube": 2, "owner": 1}).points == (4, 0)


# --------------------------------------------------------------------------- issue 9 rulings


def test_one_hop_spanning_both_dice_may_bear_off_from_outside_home() -> None:
    """docs/rules/backgammon.md §4.6: "a hop may span several dice; it is legal exactly when
    some stepwise form of it is". 6-2, me 8:1, 4:3: '8/off' is 8/2/off (or 8/6/off).

      9 | 8 | 7 | 6 5 4    3 2 1
        | X |   |     X(3)         opp: 15 on my 24
    """
    state = position({8: 1, 4: 3}, {1: 15}, (6, 2))
    assert play(state, "8/off") == play(state, "8/2/off") == play(state, "8/6 6/off")
    assert E.apply(state, 0, E.move_from_json({"kind": "move", "steps": [[8, 0]]})) == play(state, "8/2/off")
    nine = position({9: 1, 3: 2}, {1: 15}, (6, 3))  # 9/3/off or 9/6/off
    assert play(nine, "9/off") == play(nine, "9/3/off")
    # still refused: a checker left outside home, and a hop whose every landing is blocked
    outside = position({10: 1, 9: 1, 3: 1}, {1: 14, 20: 1}, (6, 3))
    assert code_of(outside, {"kind": "move", "notation": "9/off"}) == "backgammon.cannot-bear-off"
    blocked = position({8: 1, 3: 1}, {23: 2, 19: 2, 1: 11}, (6, 2))  # opp holds my 2 and my 6
    assert "8/off" not in notations(blocked)
    assert code_of(blocked, {"kind": "move", "notation": "8/off"}) == "backgammon.illegal-play"


def test_last_checker_that_can_hit_and_bear_off_must_use_both_dice() -> None:
    """docs/rules/backgammon.md §4.4: "A play must use as many dice as can be used" ... "counts
    the dice it actually used": 6-1, my last checker on 5, an opposing blot on my 4.
    5/4*/off uses both dice; 5/off uses only the 6 and is refused (GNU BG agrees).

      6 5 4 3 2 1
        X o          opp: blot on my 4, 14 on my 13
    """
    state = position({5: 1}, {21: 1, 12: 14}, (6, 1))
    assert notations(state) == {"5/4*/off"}
    assert code_of(state, {"kind": "move", "notation": "5/off"}) == "backgammon.must-use-all-dice"
    assert code_of(state, {"kind": "move", "steps": [[5, 0]]}) == "backgammon.must-use-all-dice"
    done = play(state, "5/4*/off")
    assert done.sides[1][25] == 1 and E.outcome(done).reason == "backgammon"  # the hit checker is on the bar
    assert E.scores(done).points == (3, 0)
    # with nothing to hit, either way ends the game in the same position
    clear = position({5: 1}, {12: 15}, (6, 1))
    assert play(clear, "5/off") == play(clear, "5/4/off")


def test_a_play_with_a_die_not_rolled_is_a_dice_mismatch() -> None:
    """docs/rules/backgammon.md §4.6: hops must be made of the dice rolled. 6-4 from the start:
    '24/19' moves a 5 (no 5 was rolled): dice-mismatch; '24/18' uses the 6 and leaves the 4
    playable: must-use-all-dice."""
    state = position(START, START, (6, 4))
    assert code_of(state, {"kind": "move", "notation": "24/19"}) == "backgammon.dice-mismatch"
    assert code_of(state, {"kind": "move", "notation": "24/19 13/9"}) == "backgammon.dice-mismatch"
    assert code_of(state, {"kind": "move", "notation": "24/18"}) == "backgammon.must-use-all-dice"
    doubles = position(START, START, (3, 3))
    assert code_of(doubles, {"kind": "move", "notation": "13/7 8/4"}) == "backgammon.dice-mismatch"
    assert code_of(doubles, {"kind": "move", "notation": "13/7"}) == "backgammon.must-use-all-dice"


def test_xgid_of_a_money_game_with_a_turned_cube_and_a_session_score() -> None:
    """docs/rules/backgammon.md §9.3: eXtreme Gammon's money XGIDs carry the session score and
    the Jacoby (1) and beaver (2) flags; a turned cube means the cube is in use.

    XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:23:21:3:0:10 -- the start position, cube 2 owned
    by the top player (seat 1), bottom (seat 0) on roll, session score 23-21, Jacoby and beavers.
    """
    xg = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:23:21:3:0:10"
    state = E.new(2, 0, setup={"xgid": xg})
    opts = E.options_of(state)
    assert (state.cube.value, state.owner, state.turn, state.score, state.phase.value) == (2, 1, 0, (23, 21), "roll")
    assert (opts["match_length"], opts["cube"], opts["jacoby"], opts["beaver"]) == (0, "on", True, True)
    assert E.to_json(state)["xgid"] == xg
    assert E.from_json(E.to_json(state)) == state
    # the owner of a turned cube doubles on in money play; the score counts the session on
    assert code_of(state, {"kind": "double"}) == "backgammon.not-cube-owner"
    won = mv(mv(state, 0, {"kind": "resign", "level": "single"}), 1, {"kind": "accept-resignation"})
    assert E.scores(won).points == (0, 2) and E.scores(won).totals == (23, 23)
    with pytest.raises(InvalidOption) as err:
        E.new(2, 0, {"cube": "off"}, setup={"xgid": xg})
    assert err.value.code == "backgammon.bad-setup"


def test_ids_after_a_take_in_money_play_read_back() -> None:
    """docs/rules/backgammon.md §9: after a take in money play (cube on, Jacoby) the state's own
    XGID and Position/Match IDs give the same game through ``new``; the Match ID's Jacoby bit
    (bit 66, stored by GNU BG as "not Jacoby") carries the Jacoby rule."""
    state = mv(mv(position(START, START, options={"cube": "on", "jacoby": True}), 0, {"kind": "double"}),
               1, {"kind": "take"})
    data = E.to_json(state)
    assert nt.decode_match_id(data["match_id"])["jacoby"] == 1
    for setup in ({"xgid": data["xgid"]}, {"position_id": data["position_id"], "match_id": data["match_id"]}):
        again = E.new(2, 0, setup=setup)
        assert (again.sides, again.cube.value, again.owner, again.turn, again.score) == (state.sides, 2, 1, 0, (0, 0))
        assert E.options_of(again)["jacoby"] and E.to_json(again)["match_id"] == data["match_id"]
    plain = E.to_json(position(START, START, options={"cube": "on"}))["match_id"]
    assert nt.decode_match_id(plain)["jacoby"] == 0
    assert not E.options_of(E.new(2, 0, setup={"position_id": "4HPwATDgc/ABMA", "match_id": plain}))["jacoby"]


def test_raccoon_redoubles_a_beaver() -> None:
    """docs/rules/backgammon.md §6.3 (option ``raccoon``, money play with beavers): after a beaver
    the doubler may raccoon: take the beaver and redouble at once. As in GNU BG the beaverer keeps
    the cube and takes (cube x8 from before the double) or drops (the raccooner scores x4)."""
    opts = {"cube": "on", "beaver": True, "raccoon": True}
    beavered = mv(mv(position(START, START, options=opts), 0, {"kind": "double"}), 1, {"kind": "beaver"})
    assert [m.kind for m in E.legal_moves(beavered, 0)] == ["take", "drop", "raccoon"]
    raccooned = mv(beavered, 0, {"kind": "raccoon"})
    assert (raccooned.cube.value, raccooned.owner, E.to_act(raccooned)) == (4, 1, {1})
    assert [m.kind for m in E.legal_moves(raccooned, 1)] == ["take", "drop"]
    assert code_of(raccooned, {"kind": "beaver"}, seat=1) == "backgammon.raccoon-pending"
    data = E.to_json(raccooned)
    assert data["cube"]["raccoon"] and data["xgid"].split(":")[4] == "R"
    fields = nt.decode_match_id(data["match_id"])
    assert (fields["doubled"], fields["on_roll"], fields["turn"], fields["owner"]) == (1, 0, 1, 1)
    for setup in ({"xgid": data["xgid"]}, {"position_id": data["position_id"], "match_id": data["match_id"]}):
        again = E.new(2, 0, setup=setup)
        assert (again.raccooned, again.cube.value, again.owner, E.to_act(again)) == (True, 4, 1, {1})
    taken = mv(raccooned, 1, {"kind": "take"})
    assert (taken.cube.value, taken.owner, taken.turn, E.to_act(taken)) == (8, 1, 0, {0})
    dropped = mv(raccooned, 1, {"kind": "drop"})
    assert E.scores(dropped).points == (4, 0)
    no_raccoon = mv(mv(position(START, START, options={"cube": "on", "beaver": True}), 0, {"kind": "double"}),
                    1, {"kind": "beaver"})
    assert code_of(no_raccoon, {"kind": "raccoon"}) == "backgammon.raccoon-not-allowed"


_ROUND_TRIP_OPTIONS = [
    {"cube": "on"}, {"cube": "on", "jacoby": True, "beaver": True, "raccoon": True},
    {"cube": "on", "automatic_doubles": True, "max_cube": 64}, {"match_length": 5}, {"match_length": 3, "crawford": False},
]


def playout_states(seed: int, options: dict, limit: int = 400):
    rnd = random.Random(seed)
    state = E.new(2, seed, options)
    for _ in range(limit):
        yield state
        acting = E.to_act(state)
        if not acting:
            return
        seat = rnd.choice(sorted(acting))
        moves = E.legal_moves(state, seat)
        cube = [m for m in moves if m.kind in ("double", "take", "beaver", "raccoon")]
        calm = [m for m in moves if m.kind != "resign" or rnd.random() < 0.02] or moves
        state = E.apply(state, seat, rnd.choice(cube if cube and rnd.random() < 0.5 else calm))


def test_round_trip_playouts_reach_every_cube_state() -> None:
    """The round trip of every exported ID on seeds 0..59, whose playouts reach what they must."""
    seen = set()
    for seed in range(60):
        for state in playout_states(seed, _ROUND_TRIP_OPTIONS[seed % len(_ROUND_TRIP_OPTIONS)]):
            check_round_trip(state)
            seen |= {name for name, flag in (
                ("offered", state.offered), ("beaver", state.beavered), ("raccoon", state.raccooned),
                ("resign", state.resign), ("owned", state.owner is not None), ("crawford", state.crawford),
                ("centred>1", state.cube.value > 1 and state.owner is None), ("opening", state.phase.value == "opening"),
                ("over", state.phase.value in ("round-over", "game-over")), ("move", state.phase.value == "move")) if flag}
    assert seen == {"offered", "beaver", "raccoon", "resign", "owned", "crawford", "centred>1", "opening", "over",
                    "move"}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), which=st.integers(0, len(_ROUND_TRIP_OPTIONS) - 1))
def test_every_exported_id_reads_back(seed, which) -> None:
    """docs/rules/backgammon.md §9: over playout states (cube actions, beavers, raccoons,
    resignations, automatic doubles, Crawford) state -> XGID -> new(setup) gives the same
    position, cube, score and turn (an XGID cannot carry a resignation), and Position ID +
    Match ID give that and the pending resignation. A finished game is not a setup."""
    for state in playout_states(seed, _ROUND_TRIP_OPTIONS[which]):
        check_round_trip(state)


def check_round_trip(state) -> None:
    """State -> IDs -> new(setup): the same game (see the property test)."""
    data = E.to_json(state)
    ids = {"position_id": data["position_id"], "match_id": data["match_id"]}
    if state.phase.value in ("round-over", "game-over"):
        with pytest.raises(InvalidState) as err:
            E.new(2, 0, setup=ids)
        assert err.value.code == "backgammon.setup-game-over"
        return
    key = (state.sides, state.cube.value, state.owner, state.score, state.turn, state.dice, state.offered,
           state.beavered, state.raccooned, state.crawford)
    by_ids = E.new(2, 0, setup=ids)
    assert (by_ids.sides, by_ids.cube.value, by_ids.owner, by_ids.score, by_ids.turn, by_ids.dice, by_ids.offered,
            by_ids.beavered, by_ids.raccooned, by_ids.crawford, by_ids.resign) == (*key, state.resign)
    assert E.to_json(by_ids)["match_id"] == data["match_id"]
    if state.phase.value == "opening":
        return  # an XGID has no opening roll: it reads as seat 0 to roll
    by_xg = E.new(2, 0, setup={"xgid": data["xgid"]})
    assert (by_xg.sides, by_xg.cube.value, by_xg.owner, by_xg.score, by_xg.turn, by_xg.dice, by_xg.offered,
            by_xg.beavered, by_xg.raccooned, by_xg.crawford) == key
    if not state.resign:
        assert E.to_json(by_xg)["xgid"] == data["xgid"]


# --------------------------------------------------------------------------- code catalogue (DESIGN 4.4)


def _raise(fn):
    try:
        fn()
    except (IllegalMove, InvalidState, InvalidOption) as err:
        return err
    raise AssertionError("no error raised")


def _bare(data: dict) -> dict:
    return strip_ids(data)


def _triggers() -> dict:
    """One real raise of every catalogued code: code -> the error."""
    from service.games import BINDINGS
    from tests.rules.test_backgammon_records import GNUBG_ILLEGAL_LEFT, MINI, check_mat

    s = position(START, START, (6, 4))
    roll = position(START, START)
    cube = {"cube": "on", "beaver": True, "raccoon": True}
    doubled = mv(position(START, START, options=cube), 0, {"kind": "double"})
    beavered = mv(doubled, 1, {"kind": "beaver"})
    raccooned = mv(beavered, 0, {"kind": "raccoon"})
    resigned = mv(roll, 0, {"kind": "resign"})
    over = mv(resigned, 1, {"kind": "accept-resignation"})
    opening = E.new(2, 0)
    match = crawford_state((3, 6))
    data = E.to_json(s)
    pts, _, _ = side_json({12: 15})
    good_tally = {"winner": 0, "points": [[0] * 24, pts], "bar": [0, 0], "off": [15, 0]}

    def state_with(**changes):
        return lambda: E.from_json({**_bare(data), **changes})

    def check(state, move, seat=None):
        return lambda: E.check(state, state.turn if seat is None else seat, E.move_from_json(move))

    cases = {
        "not-your-turn": check(s, {"kind": "move", "notation": "24/18 24/20"}, seat=1),
        "game-over": check(over, {"kind": "next-round"}, seat=0),
        "no-such-seat": lambda: BINDINGS["backgammon"].view(s, 2),
        "round-over": check(crawford_state((1, 1)), {"kind": "roll"}, seat=0),
        "round-not-over": check(roll, {"kind": "next-round"}),
        "opening-roll": check(opening, {"kind": "double"}, seat=0),
        "must-roll": check(roll, {"kind": "move", "notation": "24/18"}),
        "must-move": check(s, {"kind": "roll"}),
        "bad-dice": check(roll, {"kind": "roll", "dice": [0, 7]}),
        "malformed-move": lambda: E.move_from_json({"kind": "fly"}),
        "bad-notation": lambda: E.move_from_json({"kind": "move", "notation": "13-7"}),
        "notation-mismatch": lambda: E.move_from_json({"kind": "move", "steps": [[13, 7]], "notation": "13/9"}),
        "bad-resign-level": lambda: E.check(roll, 0, type(E.legal_moves(roll, 0)[-1])("triple")),
        "no-legal-play": check(position({"bar": 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, (6, 5)),
                               {"kind": "move", "steps": [[25, 20]]}),
        "bad-step": check(s, {"kind": "move", "steps": [[13, 17], [13, 9]]}),
        "no-checker": check(s, {"kind": "move", "notation": "12/6 12/8"}),
        "must-enter-from-bar": check(position({"bar": 1, 6: 5, 8: 3, 13: 6}, START, (5, 3)),
                                     {"kind": "move", "notation": "13/8 13/10"}),
        "blocked-point": check(position({13: 1, 1: 2, 6: 12}, {16: 2, 1: 13}, (6, 4)), {"kind": "move", "notation": "13/9 9/3"}),
        "cannot-bear-off": check(position({9: 1, 3: 1, 2: 13}, {1: 15}, (3, 2)), {"kind": "move", "notation": "3/off 9/7"}),
        "no-hit-there": check(s, {"kind": "move", "notation": "24/18* 13/9"}),
        "dice-mismatch": check(s, {"kind": "move", "notation": "24/19"}),
        "must-use-all-dice": check(s, {"kind": "move", "notation": "24/18"}),
        "must-use-larger-die": check(position({12: 1}, {24: 2, 1: 13}, (6, 5)), {"kind": "move", "notation": "12/7"}),
        "illegal-play": check(position({5: 2, 2: 1}, {1: 15}, (6, 1)), {"kind": "move", "steps": [[2, 0], [5, 4]]}),
        "cube-disabled": check(roll, {"kind": "double"}),
        "crawford-game": check(E.from_json({**_bare(E.to_json(match)), "phase": "roll", "result": None,
                                            "match": {**E.to_json(match)["match"], "crawford": True}}),
                               {"kind": "double"}),
        "not-cube-owner": check(mv(doubled, 1, {"kind": "take"}), {"kind": "double"}),
        "max-cube": check(position(START, START, options={"cube": "on", "max_cube": 2},
                                   cube={"value": 2, "owner": 0, "offered": False}), {"kind": "double"}),
        "double-after-roll": check(s, {"kind": "double"}),
        "double-pending": check(doubled, {"kind": "roll"}, seat=1),
        "no-double-offered": check(roll, {"kind": "take"}),
        "beaver-not-allowed": check(mv(position(START, START, options={"cube": "on"}), 0, {"kind": "double"}),
                                    {"kind": "beaver"}, seat=1),
        "beaver-pending": check(beavered, {"kind": "roll"}),
        "raccoon-not-allowed": check(mv(mv(position(START, START, options={"cube": "on", "beaver": True}), 0,
                                           {"kind": "double"}), 1, {"kind": "beaver"}), {"kind": "raccoon"}),
        "raccoon-pending": check(raccooned, {"kind": "beaver"}, seat=1),
        "resignation-pending": check(resigned, {"kind": "take"}, seat=1),
        "no-resignation-offered": check(roll, {"kind": "accept-resignation"}),
        "bad-state": state_with(points=None),
        "checker-count": state_with(off=[1, 0]),
        "shared-point": state_with(points=[[0] * 5 + [5, 0, 3] + [0] * 4 + [5] + [0] * 9 + [1, 1],
                                           [0, 1] + [0] * 3 + [5, 0, 3] + [0] * 4 + [5] + [0] * 10 + [1]]),
        "bad-turn": state_with(phase="roll"),
        "bad-cube": state_with(cube={"value": 3, "owner": 0, "offered": False}),
        "bad-result": state_with(result={"winner": 0, "how": "bear-off", "level": "single", "cube": 1, "multiplier": 1,
                                         "points": 1}),
        "bad-score": lambda: E.from_json({**_bare(E.to_json(match)), "phase": "roll", "result": None,
                                          "match": {**E.to_json(match)["match"], "score": [7, 0]}}),
        "bad-crawford": lambda: E.from_json({**_bare(data), "match": {**data["match"], "crawford": True}}),
        "bad-round": state_with(round=2),
        "id-mismatch": lambda: E.from_json({**data, "pips": [1, 1]}),
        "bad-position-id": lambda: E.new(2, 0, setup={"position_id": "not-an-id"}),
        "bad-match-id": lambda: E.new(2, 0, setup={"position_id": "4HPwATDgc/ABMA", "match_id": nt.match_id({
            **nt.decode_match_id("QYkqASAAIAAA"), "owner": 2})}),
        "bad-xgid": lambda: E.new(2, 0, setup={"xgid": "XGID=nope"}),
        "bad-setup": lambda: E.new(2, 0, setup={"position_id": "4HPwATDgc/ABMA", "xgid": "x"}),
        "setup-game-over": lambda: E.new(2, 0, setup={"position_id": E.to_json(over)["position_id"],
                                                      "match_id": E.to_json(over)["match_id"]}),
        "bad-tally": lambda: E.score_tally({"winner": 0}),
        "winner-not-off": lambda: E.score_tally({**good_tally, "winner": 1}),
        # match records (rules/backgammon/_records.py, DESIGN 4.3)
        "bad-record": lambda: check_mat(E, "hello\n"),
        "record-score-mismatch": lambda: check_mat(E, MINI.replace(" Ann : 0                        Bob : 1",
                                                                   " Ann : 1                        Bob : 0")),
        "record-result-mismatch": lambda: check_mat(E, MINI.replace("Wins 1 point", "Wins 2 points")),
        "record-illegal-play": lambda: check_mat(E, GNUBG_ILLEGAL_LEFT),
    }
    return {f"backgammon.{name}": _raise(fn) for name, fn in cases.items()}


def test_code_catalogue_lists_every_code_raised_and_each_is_raised() -> None:
    """DESIGN 4.4: the typed codes (``C.<name>`` in the package's source) are all declared, each
    declared code is raised by a real call, and every ``detail_pl`` formats with the context of
    that raise."""
    from rules.backgammon._codes import C

    source = "\n".join(p.read_text() for p in pathlib.Path(nt.__file__).parent.glob("*.py") if p.name != "_codes.py")
    written = {f"backgammon.{c.replace('_', '-')}" for c in re.findall(r"\bC\.([a-z][a-z_]+[a-z])\b", source)}
    assert written <= set(E.codes) == set(C.all()), written - set(E.codes)
    raised = _triggers()
    assert set(raised) == set(E.codes)
    for code, err in raised.items():
        assert err.code == code, (code, err.code, err.message)
        entry = E.codes[code]
        assert entry.title.en and entry.title.pl and entry.detail_pl and entry.description.en and entry.description.pl
        entry.detail_pl.format(**err.context)
        assert "None" not in err.message and "Error" not in err.message, (code, err.message)
