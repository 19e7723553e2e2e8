"""Backgammon's checks of meaning, IDs, setups and the score sheet (docs/rules/backgammon.md §9-§11).

The shapes (``_state``) read and write the JSON; here is what a shape cannot say: 15 checkers a
side, no point held by both sides, a phase consistent with the dice, cube, offers and result, and
the IDs (Position ID, Match ID, XGID) of a state.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, cast

from rules.base import BaseEngine, ScoreReport, replace
from rules.jsontypes import Json
from rules.shapes import ShapeError, decode_computed, shape_of

from . import _notation as nt
from . import _state
from ._board import CHECKERS, OFF, from_gnubg_side, gammon_level, gnubg_side, overlap, pips
from ._codes import C
from ._cube import effective_max, game_points, is_log2
from ._state import (
    LEVELS,
    MAX_MATCH,
    MAX_SCORE,
    OVER,
    Breakdown,
    Cube,
    Match,
    Phase,
    Play,
    Setup,
    State,
    Tally,
)

_MATCH_STATE = {"bear-off": 2, "resign": 3, "drop": 4}
_show = nt.show


# --------------------------------------------------------------------------- IDs of a state


_last: tuple[object, tuple[str, str, str]] = (None, ("", "", ""))


def ids_of(state: State) -> tuple[str, str, str]:
    """(Position ID, Match ID, XGID) of a state; seat 0 is on roll while nobody is.

    Cached on what the IDs show (not the rng or the round), so a state written by ``to_json``
    and read back by ``from_json``, which checks the IDs, computes them once; the last state's
    IDs are kept by identity (the writer asks for each of the three).
    """
    global _last
    last = _last
    if last[0] is state:
        return last[1]
    res = state.result
    if state.phase is Phase.OPENING:
        game_state = 0
    elif res is not None:
        game_state = _MATCH_STATE[res.how]
    else:
        game_state = 1
    c, m, o = state.cube, state.match, state.options
    # the key is plain values (tuples hash in C; the dataclasses' hashes are Python functions)
    ids = _ids(state.points, state.bar, state.off, state.turn, game_state, state.dice, c.value, c.owner, c.offered,
               c.beaver, c.raccoon, state.resign_level, m.score, m.crawford, o.match_length, o.jacoby, o.beaver,
               o.max_cube)
    _last = (state, ids)
    return ids


_state.ids_of = ids_of


@lru_cache(maxsize=4096)
def _ids(points: tuple[tuple[int, ...], ...], bar: tuple[int, ...], off: tuple[int, ...], turn: int | None,
         game_state: int, dice: tuple[int, ...], cube: int, owner: int | None, offered: bool, beavered: bool,
         raccooned: bool, resign: int, score: tuple[int, ...], crawford: bool, length: int, jacoby_opt: bool,
         beaver_opt: bool, max_cube: int) -> tuple[str, str, str]:
    sides = (off[0], *points[0], bar[0]), (off[1], *points[1], bar[1])
    on_roll = turn if turn is not None else 0
    pos = nt.position_id(gnubg_side(sides[1 - on_roll]), gnubg_side(sides[on_roll]))
    deciding = 1 - on_roll if (offered or resign or raccooned) else on_roll
    d1, d2 = dice or (0, 0)
    # the Jacoby bit (GNU BG stores "not Jacoby"): the option in money play; set in match play
    # (GNU BG's default, and the manual's example), where the rule does not apply
    jacoby = int(bool(jacoby_opt)) if not length else 1
    cube_log = cube.bit_length() - 1
    mid = nt.match_id({
        "cube_log": cube_log, "owner": 3 if owner is None else owner, "on_roll": on_roll, "crawford": int(crawford),
        "game_state": game_state, "turn": deciding, "doubled": int(offered or beavered or raccooned),
        "resign": resign, "die1": d1, "die2": d2, "length": length, "score0": score[0], "score1": score[1],
        "jacoby": jacoby,
    })
    xdice = "D" if offered else "B" if beavered else "R" if raccooned else f"{d1}{d2}" if dice else "00"
    flags = int(crawford) if length else int(bool(jacoby_opt)) + 2 * int(bool(beaver_opt))
    xg = nt.xgid(gnubg_side(sides[0]), gnubg_side(sides[1]), {
        "cube_log": cube_log, "cube_pos": 0 if owner is None else (1 if owner == 0 else -1),
        "turn": 1 if on_roll == 0 else -1, "dice": xdice, "score_bottom": score[0], "score_top": score[1],
        "flags": flags, "length": length, "max_cube_log": max_cube.bit_length() - 1 if max_cube else 10,
    })
    return pos, mid, xg


# --------------------------------------------------------------------------- meaning of a state

#: the values a state's JSON carries that follow from the rest (its computed values; checked after
#: the meaning)
DERIVED = frozenset(c.name for c in shape_of(State).computed if not c.view_only)


def check_state(state: State) -> State:
    """What play can reach, beyond the shape (§11)."""
    sides = state.sides
    for seat in (0, 1):
        total = sum(sides[seat])
        if total != CHECKERS:
            raise C.checker_count(f"seat {seat} has {total} checkers on the board, bar and off; must be {CHECKERS}",
                                  seat=seat, expected=CHECKERS, got=total)
    shared = overlap(sides[0], sides[1])
    if shared:
        raise C.shared_point(f"seat 0's point {shared} (seat 1's point {25 - shared}) holds checkers of both sides",
                             point=shared)
    cube = state.cube.value
    if not is_log2(cube):
        raise C.bad_cube(f"the cube value must be a power of two, got {cube}")
    if cube > effective_max(state.options.max_cube):
        raise C.bad_cube(f"the cube value {cube} is above max_cube {state.options.max_cube}")
    if cube == 1 and state.cube.owner is not None:
        raise C.bad_cube(f"a cube at 1 has no owner, got owner {_show(state.cube.owner)}")
    if state.match.length != state.options.match_length:
        raise C.bad_state(f"match.length {state.match.length} differs from the option match_length "
                          f"{state.options.match_length}", field="match.length")
    res = state.result
    if res is not None and (not is_log2(res.cube)):
        raise C.bad_result(f"result.cube must be a power of two, got {res.cube}")
    check_consistency(state)
    return state


def check_derived(state: State, given: dict[str, Json]) -> None:
    """The derived values a client sent with a state (IDs, pips, colors, cube_enabled) must have
    their shape (``bad-state``); the IDs and pips must be what the state gives (``id-mismatch``;
    ``colors``, fixed labels: ``bad-state``). ``cube_enabled`` is only read: it follows from the
    options and the Crawford flag, which a client setting up a position edits."""
    try:
        sent = decode_computed(State, given)
    except ShapeError as exc:
        raise C.bad_state(f"malformed backgammon state: {exc.message}", field=exc.path) from None
    for key in given:
        if key == "cube_enabled":  # follows from the options and the Crawford flag, which a client may edit
            continue
        got, want = sent[key], getattr(state, key)
        if got != want:
            if key == "colors":
                raise C.bad_state(f"colors are the labels {list(want)}, got {_show(given[key])}", field="colors")
            raise C.id_mismatch(f"{key} {_show(given[key])} does not match the board and match ({_show(want)})",
                                field=key)


def check_consistency(state: State) -> None:
    """Phase, turn, dice, offers, cube, result, score and Crawford flags that play can reach (§11)."""
    phase, turn = state.phase, state.turn
    cube = state.cube.value
    length = state.opt("match_length")
    if phase is Phase.OPENING:
        if turn is not None or state.dice or state.offered or state.resign or state.result is not None:
            raise C.bad_turn("during the opening roll nobody is on turn and there are no dice, offers or result")
    elif turn is None:
        raise C.bad_turn(f"phase {_show(phase.value)} needs the seat on turn")
    other = None if turn is None else 1 - turn  # the seat not on turn; None only in the opening
    if phase is Phase.ROLL and state.dice:
        raise C.bad_turn("before the roll there are no dice")
    if phase is Phase.MOVE and len(state.dice) != 2:
        raise C.bad_turn(f"the move phase needs two dice, got {list(state.dice)}")
    if phase in OVER and state.dice:
        raise C.bad_turn("a finished game has no dice")
    if state.offered and (phase is not Phase.ROLL or state.resign):
        raise C.bad_turn("a double is offered only before the roll, and not with a resignation pending")
    if state.beavered and (phase is not Phase.ROLL or state.offered or state.resign or length
                           or not state.opt("beaver") or state.owner != other or cube < 2
                           or cube * 2 > effective_max(state.opt("max_cube"))):
        raise C.bad_cube("a beaver waits only before the roll in money play with beavers, "
                   "the beaverer owning the taken cube, below the maximum")
    if state.raccooned and (phase is not Phase.ROLL or state.offered or state.beavered or state.resign or length
                            or not state.opt("beaver") or not state.opt("raccoon") or state.owner != other
                            or cube < 4 or cube * 2 > effective_max(state.opt("max_cube"))):
        raise C.bad_cube("a raccoon waits only before the roll in money play with raccoons, "
                   "the beaverer owning the cube at 4 or more, below the maximum")
    if state.resign and phase not in (Phase.ROLL, Phase.MOVE):
        raise C.bad_turn("a resignation is offered only during play")
    if state.offered:
        cube_on = state.opt("cube") == "on" or (state.opt("cube") == "auto" and length > 0)
        if not cube_on or state.crawford or state.owner not in (None, turn):
            raise C.bad_cube("a double is offered where doubling is not allowed")
        if cube * 2 > effective_max(state.opt("max_cube")):
            raise C.bad_cube("a double is offered past the maximum cube")
    if cube > 1 and state.owner is None and not (state.opt("automatic_doubles") and length == 0):
        raise C.bad_cube(f"a cube at {cube} in the middle needs automatic doubles (money play)")
    if cube > 1:
        cube_on = state.opt("cube") == "on" or (state.opt("cube") == "auto" and length > 0)
        if not cube_on or state.crawford:
            raise C.bad_cube(f"the cube is at {cube} but the cube is not in use in this game")
    for seat in (0, 1):
        if state.sides[seat][OFF] == CHECKERS and phase not in OVER:
            raise C.bad_result(f"seat {seat} has borne off all checkers but the game is not over")
    if (phase in OVER) != (state.result is not None):
        raise C.bad_result("a result is present exactly when the game is over")
    res = state.result
    if res is not None:
        if res.how == "bear-off":
            if state.sides[res.winner][OFF] != CHECKERS:
                raise C.bad_result(f"seat {res.winner} won by bearing off but has {state.sides[res.winner][OFF]} off")
            if LEVELS.index(res.level) + 1 != gammon_level(state.sides[1 - res.winner]):
                raise C.bad_result("the result level does not match the loser's position")
        if res.cube != cube or res.points != res.multiplier * res.cube:
            raise C.bad_result("result points must be multiplier x cube, with the game's cube")
        if res.how == "drop" and res.multiplier != 1:
            raise C.bad_result("a dropped double scores the cube value, multiplier 1")
        if res.how != "drop" and res.multiplier != LEVELS.index(res.level) + 1 and not (
                res.multiplier == 1 and not length and state.opt("jacoby") and state.owner is None):
            raise C.bad_result("the multiplier is the level (1 for a gammon or backgammon only under the "
                       "Jacoby rule, in money play, with the cube never turned)")
        if (res.how == "bear-off" and res.winner != turn) or (res.how == "resign" and res.winner != other):
            raise C.bad_result("a bear-off is won by the player on turn, a resignation by the other",
                       seat=res.winner)
        if state.score[res.winner] < res.points:
            raise C.bad_result("the match score does not include the game's points")
    if length:
        over = max(state.score) >= length
        if over and phase is not Phase.GAME_OVER:
            raise C.bad_score(f"a score has reached the match length {length} but the match goes on "
                              f"(phase {_show(phase.value)})")
        if phase is Phase.GAME_OVER and not over:
            raise C.bad_score(f"the match is over only once a score reaches {length}: phase 'round-over'")
        if max(state.score) >= length and min(state.score) >= length:
            raise C.bad_score("both players cannot have won the match")
        if state.crawford and state.post_crawford:
            raise C.bad_crawford("a game is not both the Crawford game and post-Crawford")
        if (state.crawford or state.post_crawford) and not state.opt("crawford"):
            raise C.bad_crawford("Crawford flags are set but the Crawford rule is off")
        if state.crawford and max(state.score) < length - 1:
            raise C.bad_crawford(f"the Crawford game needs a player at {length - 1}")
        if state.post_crawford and max(state.score) < length - 1:
            raise C.bad_crawford(f"post-Crawford games need a player at {length - 1}")
        if (length > 1 and phase not in OVER and state.opt("crawford") and max(state.score) == length - 1
                and not (state.crawford or state.post_crawford)):
            raise C.bad_crawford(f"with a player at {length - 1} this game is the Crawford game or post-Crawford")
        played = state.round - (phase not in OVER)  # games finished, each worth a point at least
        if sum(state.score) < played:
            raise C.bad_round(f"{played} game(s) finished but the match score is only "
                       f"{state.score[0]}-{state.score[1]}", expected=played, got=sum(state.score))
    elif phase is Phase.ROUND_OVER:
        raise C.bad_score("a money game is one game: once it is over, the phase is 'game-over'")
    elif state.crawford or state.post_crawford:
        raise C.bad_crawford("Crawford flags belong to match play")
    elif state.round != 1:
        raise C.bad_round(f"money play is a single game: round 1, got {state.round}", expected=1, got=state.round)
    check_history(state)


def check_history(state: State) -> None:
    """``match.history`` (§7): one row per earlier game of this match, the winner's points and 0;
    per seat the rows make the score at most (a match set up or read at a written score starts
    with no rows, so its score is greater; a record's forfeit writes the match's end as the score)."""
    rows = state.match.history
    if not rows:
        return
    if not state.match.length:
        raise C.bad_state("money play is a single game: match.history is empty", field="match.history")
    if len(rows) >= state.round:
        raise C.bad_state(f"match.history lists {len(rows)} earlier game(s), but this is game {state.round}",
                          field="match.history")
    for k, row in enumerate(rows):
        if min(row) or not max(row):
            raise C.bad_state(f"match.history[{k}] is {list(row)}: a game gives points to its winner alone",
                              field=f"match.history.{k}")
    for seat in (0, 1):
        made = sum(row[seat] for row in rows)
        if min(MAX_SCORE, made) > state.score[seat]:
            raise C.bad_state(f"seat {seat}'s games in match.history make {made} points, more than the score "
                              f"{state.score[seat]}", field="match.history")


# --------------------------------------------------------------------------- moves


def play_of(move: Play) -> Play:
    """A ``move`` read by its shape, with its steps: from the notation when only it was given; when
    both were, they must describe the same steps (``notation-mismatch``)."""
    notation, steps = move.notation, move.steps
    if notation is None:
        if steps is None:
            raise C.malformed_move("a move needs 'steps' ([[13, 7], [7, 3]]) or 'notation' ('13/7/3')", field="steps")
        return move
    parsed = nt.parse_play(notation)[0]
    if steps is None:
        return Play(parsed, notation)
    if sorted(parsed) != sorted(steps):
        raise C.notation_mismatch(f"notation {_show(notation)} does not describe the steps "
                                  f"{_show([list(s) for s in steps])}")
    return move


# --------------------------------------------------------------------------- setup


def _sides_from_ids(not_on_roll: tuple[int, ...], on_roll: tuple[int, ...],
                    seat_on_roll: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    sides: list[tuple[int, ...]] = [(), ()]
    sides[seat_on_roll] = from_gnubg_side(on_roll)
    sides[1 - seat_on_roll] = from_gnubg_side(not_on_roll)
    return sides[0], sides[1]


def _bad_setup(message: str, field: str = "setup") -> Exception:
    return C.bad_setup(message, field=field)


def apply_setup(engine: BaseEngine[State, Any], state: State, setup: Setup) -> State:
    """A state from ``{"position_id", "match_id"?}`` or ``{"xgid"}`` (docs/rules/backgammon.md §9).

    Reads what GNU BG and eXtreme Gammon export and everything Arbiter exports: money games with
    a turned cube (the cube option becomes "on"), a session score, a pending double, beaver
    (XGID dice ``B``; Match ID: doubled, the doubler to decide) or raccoon (``R``; doubled, the
    beaverer to decide and owning the cube), the Jacoby/beaver flags of an XGID and the Jacoby
    bit of a Match ID (money play). The setup's match length replaces the option.
    """
    keys = {k for k in ("position_id", "match_id", "xgid") if getattr(setup, k) is not None}
    if keys not in ({"position_id"}, {"position_id", "match_id"}, {"xgid"}):
        raise _bad_setup(f"setup takes position_id (+ match_id) or xgid, got {sorted(keys)}")
    options = dict(engine.options_of(state))
    beavered = raccooned = False
    phase = None
    if setup.xgid is not None:
        bottom, top, f = nt.decode_xgid(setup.xgid)
        sides = (from_gnubg_side(bottom), from_gnubg_side(top))
        turn = 0 if f["turn"] == 1 else 1
        length = f["length"]
        crawford = False
        if length:
            crawford = bool(f["flags"] & 1)
        else:
            options["jacoby"] = bool(f["flags"] & 1)
            options["beaver"] = bool(f["flags"] & 2)
        if f["max_cube_log"] != 10:
            if f["max_cube_log"] > 15:
                raise _bad_setup(f"max cube 2**{f['max_cube_log']} is above 2**15", "xgid")
            options["max_cube"] = 1 << f["max_cube_log"]
        if f["cube_log"] > 15:
            raise _bad_setup(f"cube 2**{f['cube_log']} is above 2**15", "xgid")
        cube = 1 << f["cube_log"]
        owner = None if f["cube_pos"] == 0 else (0 if f["cube_pos"] == 1 else 1)
        dice_s = f["dice"]
        offered = dice_s == "D"
        beavered = dice_s == "B"
        raccooned = dice_s == "R"
        dice = () if dice_s in ("00", "D", "B", "R") else (int(dice_s[0]), int(dice_s[1]))
        score = (f["score_bottom"], f["score_top"])
        resign = 0
    else:
        assert setup.position_id is not None, "the keys checked above: position_id (+ match_id) without xgid"
        nor, onr = nt.decode_position_id(setup.position_id)
        if setup.match_id is not None:
            m = nt.decode_match_id(setup.match_id)
            if m["game_state"] > 1:
                raise C.setup_game_over(f"match ID {_show(setup.match_id)} describes a finished game")
            turn = m["on_roll"]
            if m["owner"] == 2:
                raise C.bad_match_id("cube owner 2 is not a valid Match ID value")
            owner = None if m["owner"] == 3 else m["owner"]
            cube = 1 << m["cube_log"]
            resign = m["resign"]
            doubled = bool(m["doubled"])
            deciding_other = m["turn"] != turn
            # doubled with the doubler to decide: a beaver waits; with the beaverer to decide and
            # owning the cube: a raccoon waits (GNU BG leaves the cube with the player not on roll)
            beavered = doubled and not deciding_other
            raccooned = doubled and deciding_other and owner == 1 - turn
            offered = doubled and not beavered and not raccooned
            if deciding_other != (offered or raccooned or bool(resign)):
                raise C.bad_match_id("the Match ID's turn differs from the player on roll exactly when "
                                     "a double, raccoon or resignation waits")
            if (m["die1"] == 0) != (m["die2"] == 0) or m["die1"] > 6 or m["die2"] > 6:
                raise C.bad_match_id(f"dice {m['die1']}-{m['die2']} are not a roll")
            dice = (m["die1"], m["die2"]) if m["die1"] else ()
            length = m["length"]
            score = (m["score0"], m["score1"])
            crawford = bool(m["crawford"])
            if not length:
                options["jacoby"] = bool(m["jacoby"])
            if m["game_state"] == 0:  # no game started: the opening roll
                phase = Phase.OPENING
        else:
            turn, owner, cube, offered, resign, dice, crawford = 0, None, 1, False, 0, (), False
            length = cast(int, options["match_length"])
            score = (0, 0)
        sides = _sides_from_ids(nor, onr, turn)
    if length > MAX_MATCH:
        raise _bad_setup(f"match length {length} is above {MAX_MATCH}")
    if max(score) > MAX_SCORE:
        raise _bad_setup(f"score {score[0]}-{score[1]} is above {MAX_SCORE}")
    options["match_length"] = length
    if beavered or raccooned:
        if length:
            raise _bad_setup("beavers and raccoons belong to money play")
        options["beaver"] = True
        options["raccoon"] = options["raccoon"] or raccooned
    if not length and (cube > 1 or owner is not None or offered or beavered or raccooned):
        # a money game whose cube was turned or offered plays with the cube
        if options["cube"] == "off":
            raise _bad_setup("the setup's cube is in use but the option cube is 'off'")
        options["cube"] = "on"
        if cube > 1 and owner is None:  # a centred cube above 1 comes from automatic doubles
            options["automatic_doubles"] = True
    for seat in (0, 1):
        if sides[seat][OFF] == CHECKERS:
            raise C.setup_game_over(f"seat {seat} has no checkers left: the game is over")
    assert engine.spec is not None, "backgammon is declared"
    opts = engine.spec.options(**engine.resolve_options(options))
    post = bool(length and opts.crawford and not crawford and max(score) == length - 1)
    if phase is None:
        phase = Phase.MOVE if dice else Phase.ROLL
    new = replace(
        state, options=opts, points=(tuple(sides[0][1:25]), tuple(sides[1][1:25])),
        bar=(sides[0][25], sides[1][25]), off=(sides[0][0], sides[1][0]),
        turn=None if phase is Phase.OPENING else turn, phase=phase, dice=dice,
        cube=Cube(cube, owner, offered, beavered, raccooned), resign=LEVELS[resign - 1] if resign else None,
        match=Match(length, score, crawford, post),
    )
    if overlap(*new.sides):
        raise C.shared_point("the setup puts checkers of both sides on one point", point=overlap(*new.sides))
    check_consistency(new)
    return new


# --------------------------------------------------------------------------- tally


def tally_report(tally: Tally) -> ScoreReport:
    """Points for a finished game from its final board, cube and winner (docs/rules/backgammon.md §10).

    The board per seat in its own numbering, as in a state; the winner must have borne off all 15.
    """
    winner, cube, owner, length = tally.winner, tally.cube, tally.owner, tally.match_length
    if cube == 1 and owner is not None:
        raise C.bad_tally(f"cube owner {_show(owner)} with cube 1: a 1-cube has no owner (null)", field="owner")
    sides = [(tally.off[s], *tally.points[s], tally.bar[s]) for s in (0, 1)]
    for seat, side in enumerate(sides):
        if sum(side) != CHECKERS:
            raise C.checker_count(f"seat {seat} has {sum(side)} checkers on the board, bar and off; "
                                  f"must be {CHECKERS}", seat=seat, expected=CHECKERS, got=sum(side))
    if overlap(sides[0], sides[1]):
        raise C.shared_point("the tally puts checkers of both sides on one point", point=overlap(sides[0], sides[1]))
    if sides[winner][OFF] != CHECKERS:
        raise C.winner_not_off(f"seat {winner} is named the winner but has {sides[winner][OFF]} of 15 checkers off",
                               seat=winner, expected=CHECKERS, got=sides[winner][OFF])
    level = gammon_level(sides[1 - winner])
    k, points = game_points(level, cube, owner is not None, not length, tally.jacoby)
    rnd = [0, 0]
    rnd[winner] = points
    breakdown = tuple(
        Breakdown(result=LEVELS[level - 1] if s == winner else None, how="bear-off" if s == winner else None,
                  cube=cube, multiplier=k if s == winner else 0, pips=pips(sides[s]), borne_off=sides[s][OFF],
                  match_score=rnd[s], points=rnd[s])
        for s in (0, 1)
    )
    return ScoreReport(tuple(rnd), tuple(rnd), breakdown, True, (winner,), round=1, history=())
