"""JSON of states and moves, setups from Position ID / Match ID / XGID, the score tally.

``from_json`` checks meaning: 15 checkers a side, no point held by both sides, a phase
consistent with the dice, cube, offers and result, and the IDs agreeing with the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from rules.base import IllegalMove, InvalidOption, InvalidState, Json, Rng, RulesError, ScoreReport, malformed, replace

from . import _notation as nt
from ._board import BAR, CHECKERS, OFF, from_gnubg_side, gammon_level, gnubg_side, overlap, pips
from ._cube import CUBE_LIMIT, LEVELS, effective_max, game_points, is_log2
from ._state import (
    _SIMPLE,
    GAME_ID,
    Move,
    Phase,
    Play,
    Resign,
    Result,
    Roll,
    State,
)

_HOWS = ("bear-off", "drop", "resign")
COLORS = ("white", "black")  # labels of seats 0 and 1 (the XGID's bottom and top player)
_MAX_SCORE = 9999
_MATCH_STATE = {"bear-off": 2, "resign": 3, "drop": 4}


_show = nt.show


def _bad(code: str, message: str, **context: Json) -> InvalidState:
    return InvalidState(f"{GAME_ID}.{code}", message, **context)


# --------------------------------------------------------------------------- IDs of a state


def ids_of(state: State) -> tuple[str, str, str]:
    """(Position ID, Match ID, XGID) of a state; seat 0 is on roll while nobody is.

    Cached on what the IDs show (not the rng or the round), so a state written by ``to_json``
    and read back by ``from_json``, which checks the IDs, computes them once.
    """
    res = state.result
    if state.phase is Phase.OPENING:
        game_state = 0
    elif res is not None:
        game_state = _MATCH_STATE[res.how]
    else:
        game_state = 1
    return _ids(state.sides, state.turn, game_state, state.dice, state.cube, state.owner, state.offered,
                state.beavered, state.raccooned, state.resign, state.score, state.crawford, state.options)


@lru_cache(maxsize=4096)
def _ids(sides, turn, game_state, dice, cube, owner, offered, beavered, raccooned, resign, score, crawford,
         options) -> tuple[str, str, str]:
    opts = dict(options)
    on_roll = turn if turn is not None else 0
    pos = nt.position_id(gnubg_side(sides[1 - on_roll]), gnubg_side(sides[on_roll]))
    length = opts["match_length"]
    deciding = 1 - on_roll if (offered or resign or raccooned) else on_roll
    d1, d2 = dice or (0, 0)
    # the Jacoby bit (GNU BG stores "not Jacoby"): the option in money play; set in match play
    # (GNU BG's default, and the manual's example), where the rule does not apply
    jacoby = int(bool(opts["jacoby"])) if not length else 1
    cube_log = cube.bit_length() - 1
    mid = nt.match_id({
        "cube_log": cube_log, "owner": 3 if owner is None else owner, "on_roll": on_roll, "crawford": int(crawford),
        "game_state": game_state, "turn": deciding, "doubled": int(offered or beavered or raccooned),
        "resign": resign, "die1": d1, "die2": d2, "length": length, "score0": score[0], "score1": score[1],
        "jacoby": jacoby,
    })
    xdice = "D" if offered else "B" if beavered else "R" if raccooned else f"{d1}{d2}" if dice else "00"
    flags = int(crawford) if length else int(bool(opts["jacoby"])) + 2 * int(bool(opts["beaver"]))
    max_cube = opts["max_cube"]
    xg = nt.xgid(gnubg_side(sides[0]), gnubg_side(sides[1]), {
        "cube_log": cube_log, "cube_pos": 0 if owner is None else (1 if owner == 0 else -1),
        "turn": 1 if on_roll == 0 else -1, "dice": xdice, "score_bottom": score[0], "score_top": score[1],
        "flags": flags, "length": length, "max_cube_log": max_cube.bit_length() - 1 if max_cube else 10,
    })
    return pos, mid, xg


# --------------------------------------------------------------------------- state JSON


def state_to_json(state: State) -> Json:
    pos, mid, xg = ids_of(state)
    res = state.result
    return {
        "options": dict(state.options),
        "points": [list(side[1:25]) for side in state.sides],
        "bar": [side[BAR] for side in state.sides],
        "off": [side[OFF] for side in state.sides],
        "phase": state.phase.value,
        "turn": state.turn,
        "dice": list(state.dice),
        "cube": {"value": state.cube, "owner": state.owner, "offered": state.offered, "beaver": state.beavered,
                 "raccoon": state.raccooned},
        "resign": LEVELS[state.resign - 1] if state.resign else None,
        "match": {"length": state.opt("match_length"), "score": list(state.score), "crawford": state.crawford,
                  "post_crawford": state.post_crawford},
        "round": state.round,
        "result": None if res is None else {
            "winner": res.winner, "how": res.how, "level": LEVELS[res.level - 1], "cube": res.cube,
            "multiplier": res.multiplier, "points": res.points,
        },
        "pips": [pips(side) for side in state.sides],
        "position_id": pos,
        "match_id": mid,
        "xgid": xg,
        "colors": list(COLORS),
        "rng": state.rng.to_json(),
    }


def _int(value: Json, lo: int, hi: int, what: str, code: str = "bad-state") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise _bad(code, f"{what} must be an integer {lo}..{hi}, got {_show(value)}")
    return value


def _bool(value: Json, what: str) -> bool:
    if not isinstance(value, bool):
        raise _bad("bad-state", f"{what} must be true or false, got {_show(value)}")
    return value


def _seat_or_none(value: Json, what: str) -> int | None:
    return None if value is None else _int(value, 0, 1, what)


def state_from_json(engine, data: Json) -> State:
    try:
        with malformed(f"{GAME_ID}.bad-state", "backgammon state"):
            return _state_from_json(engine, data)
    except RulesError as exc:
        if isinstance(exc, InvalidState):
            raise
        raise InvalidState(f"{GAME_ID}.bad-options", exc.message) from exc


def _state_from_json(engine, data: Json) -> State:
    if not isinstance(data, Mapping):
        raise _bad("bad-state", f"a state is a JSON object, got {_show(data)}")
    options = engine.resolve_options(data["options"])
    sides = []
    for seat in (0, 1):
        pts = data["points"][seat]
        if not isinstance(pts, list) or len(pts) != 24:
            raise _bad("bad-state", f"points[{seat}] must list 24 counts, got {_show(pts)}")
        side = (
            _int(data["off"][seat], 0, CHECKERS, f"off[{seat}]"),
            *(_int(n, 0, CHECKERS, f"points[{seat}][{i}]") for i, n in enumerate(pts)),
            _int(data["bar"][seat], 0, CHECKERS, f"bar[{seat}]"),
        )
        if sum(side) != CHECKERS:
            raise _bad("checker-count", f"seat {seat} has {sum(side)} checkers on the board, bar and off; must be {CHECKERS}",
                       seat=seat, expected=CHECKERS, got=sum(side))
        sides.append(side)
    if len(data["points"]) != 2 or len(data["bar"]) != 2 or len(data["off"]) != 2:
        raise _bad("bad-state", "points, bar and off hold one entry per seat (2)")
    shared = overlap(sides[0], sides[1])
    if shared:
        raise _bad("shared-point", f"seat 0's point {shared} (seat 1's point {25 - shared}) holds checkers of both sides")
    try:
        phase = Phase(data["phase"])
    except ValueError:
        raise _bad("bad-state", f"phase must be one of {[p.value for p in Phase]}, got {_show(data['phase'])}") from None
    turn = _seat_or_none(data["turn"], "turn")
    dice = tuple(_int(d, 1, 6, "a die") for d in data["dice"])
    cube_j = data["cube"]
    cube = _int(cube_j["value"], 1, CUBE_LIMIT, "cube value")
    if not is_log2(cube):
        raise _bad("bad-cube", f"the cube value must be a power of two, got {cube}")
    if cube > effective_max(options["max_cube"]):
        raise _bad("bad-cube", f"the cube value {cube} is above max_cube {options['max_cube']}")
    owner = _seat_or_none(cube_j["owner"], "cube owner")
    offered = _bool(cube_j["offered"], "cube offered")
    beavered = _bool(cube_j.get("beaver", False), "cube beaver")
    raccooned = _bool(cube_j.get("raccoon", False), "cube raccoon")
    if cube == 1 and owner is not None:
        raise _bad("bad-cube", f"a cube at 1 has no owner, got owner {_show(owner)}")
    resign_j = data["resign"]
    if resign_j is not None and resign_j not in LEVELS:
        raise _bad("bad-state", f"resign must be null or one of {list(LEVELS)}, got {_show(resign_j)}")
    resign = LEVELS.index(resign_j) + 1 if resign_j else 0
    match = data["match"]
    length = _int(match["length"], 0, 64, "match length")
    if length != options["match_length"]:
        raise _bad("bad-state", f"match.length {length} differs from the option match_length {options['match_length']}")
    score = tuple(_int(s, 0, 9999, "a score") for s in match["score"])
    if len(score) != 2:
        raise _bad("bad-state", f"match.score must have 2 entries, got {_show(match['score'])}")
    crawford = _bool(match["crawford"], "match.crawford")
    post = _bool(match["post_crawford"], "match.post_crawford")
    rnd = _int(data["round"], 1, 10**6, "round")
    res_j = data["result"]
    result = None
    if res_j is not None:
        how = res_j["how"]
        if how not in _HOWS or res_j["level"] not in LEVELS:
            raise _bad("bad-result", f"result.how must be one of {list(_HOWS)} and level one of {list(LEVELS)}")
        result = Result(
            _int(res_j["winner"], 0, 1, "result.winner"), how, LEVELS.index(res_j["level"]) + 1,
            _int(res_j["cube"], 1, CUBE_LIMIT, "result.cube"), _int(res_j["multiplier"], 1, 3, "result.multiplier"),
            _int(res_j["points"], 1, 3 * CUBE_LIMIT, "result.points"),
        )
    if "colors" in data and data["colors"] != list(COLORS):
        raise _bad("bad-state", f"colors are the labels {list(COLORS)}, got {_show(data['colors'])}")
    rng = Rng.from_json(data["rng"])
    state = State(
        options=tuple(sorted(options.items())), sides=(sides[0], sides[1]), phase=phase, turn=turn, dice=dice,
        cube=cube, owner=owner, offered=offered, resign=resign, score=score, crawford=crawford,
        post_crawford=post, round=rnd, result=result, rng=rng, beavered=beavered, raccooned=raccooned,
    )
    _check_consistency(state)
    pos, mid, xg = ids_of(state)
    expected = {"position_id": pos, "match_id": mid, "xgid": xg, "pips": [pips(side) for side in state.sides]}
    for key in ("position_id", "match_id", "xgid", "pips"):
        if key in data and data[key] != expected[key]:
            raise _bad("id-mismatch", f"{key} {_show(data[key])} does not match the board and match ({_show(expected[key])})")
    return state


def _check_consistency(state: State) -> None:
    phase, turn = state.phase, state.turn
    length = state.opt("match_length")
    if phase is Phase.OPENING:
        if turn is not None or state.dice or state.offered or state.resign or state.result is not None:
            raise _bad("bad-turn", "during the opening roll nobody is on turn and there are no dice, offers or result")
    elif turn is None:
        raise _bad("bad-turn", f"phase {_show(phase.value)} needs the seat on turn")
    if phase is Phase.ROLL and state.dice:
        raise _bad("bad-turn", "before the roll there are no dice")
    if phase is Phase.MOVE and len(state.dice) != 2:
        raise _bad("bad-turn", f"the move phase needs two dice, got {list(state.dice)}")
    if phase is Phase.OVER and state.dice:
        raise _bad("bad-turn", "a finished game has no dice")
    if state.offered and (phase is not Phase.ROLL or state.resign):
        raise _bad("bad-turn", "a double is offered only before the roll, and not with a resignation pending")
    if state.beavered and (phase is not Phase.ROLL or state.offered or state.resign or length
                           or not state.opt("beaver") or state.owner != 1 - turn or state.cube < 2
                           or state.cube * 2 > effective_max(state.opt("max_cube"))):
        raise _bad("bad-cube", "a beaver waits only before the roll in money play with beavers, "
                   "the beaverer owning the taken cube, below the maximum")
    if state.raccooned and (phase is not Phase.ROLL or state.offered or state.beavered or state.resign or length
                            or not state.opt("beaver") or not state.opt("raccoon") or state.owner != 1 - turn
                            or state.cube < 4 or state.cube * 2 > effective_max(state.opt("max_cube"))):
        raise _bad("bad-cube", "a raccoon waits only before the roll in money play with raccoons, "
                   "the beaverer owning the cube at 4 or more, below the maximum")
    if state.resign and phase not in (Phase.ROLL, Phase.MOVE):
        raise _bad("bad-turn", "a resignation is offered only during play")
    if state.offered:
        cube_on = state.opt("cube") == "on" or (state.opt("cube") == "auto" and length > 0)
        if not cube_on or state.crawford or state.owner not in (None, turn):
            raise _bad("bad-cube", "a double is offered where doubling is not allowed")
        if state.cube * 2 > effective_max(state.opt("max_cube")):
            raise _bad("bad-cube", "a double is offered past the maximum cube")
    if state.cube > 1 and state.owner is None and not (state.opt("automatic_doubles") and length == 0):
        raise _bad("bad-cube", f"a cube at {state.cube} in the middle needs automatic doubles (money play)")
    if state.cube > 1:
        cube_on = state.opt("cube") == "on" or (state.opt("cube") == "auto" and length > 0)
        if not cube_on or state.crawford:
            raise _bad("bad-cube", f"the cube is at {state.cube} but the cube is not in use in this game")
    for seat in (0, 1):
        if state.sides[seat][OFF] == CHECKERS and phase is not Phase.OVER:
            raise _bad("bad-result", f"seat {seat} has borne off all checkers but the game is not over")
    if (phase is Phase.OVER) != (state.result is not None):
        raise _bad("bad-result", "a result is present exactly when the game is over")
    res = state.result
    if res is not None:
        if res.how == "bear-off":
            if state.sides[res.winner][OFF] != CHECKERS:
                raise _bad("bad-result", f"seat {res.winner} won by bearing off but has {state.sides[res.winner][OFF]} off")
            if res.level != gammon_level(state.sides[1 - res.winner]):
                raise _bad("bad-result", "the result level does not match the loser's position")
        if res.cube != state.cube or res.points != res.multiplier * res.cube:
            raise _bad("bad-result", "result points must be multiplier x cube, with the game's cube")
        if res.how == "drop" and res.multiplier != 1:
            raise _bad("bad-result", "a dropped double scores the cube value, multiplier 1")
        if res.how != "drop" and res.multiplier != res.level and not (
                res.multiplier == 1 and not length and state.opt("jacoby") and state.owner is None):
            raise _bad("bad-result", "the multiplier is the level (1 for a gammon or backgammon only under the "
                       "Jacoby rule, in money play, with the cube never turned)")
        if (res.how == "bear-off" and res.winner != turn) or (res.how == "resign" and res.winner != 1 - turn):
            raise _bad("bad-result", "a bear-off is won by the player on turn, a resignation by the other",
                       seat=res.winner)
        if state.score[res.winner] < res.points:
            raise _bad("bad-result", "the match score does not include the game's points")
    if length:
        over = max(state.score) >= length
        if over and phase is not Phase.OVER:
            raise _bad("bad-score", f"a score has reached the match length {length} but the game goes on")
        if max(state.score) >= length and min(state.score) >= length:
            raise _bad("bad-score", "both players cannot have won the match")
        if state.crawford and state.post_crawford:
            raise _bad("bad-crawford", "a game is not both the Crawford game and post-Crawford")
        if (state.crawford or state.post_crawford) and not state.opt("crawford"):
            raise _bad("bad-crawford", "Crawford flags are set but the Crawford rule is off")
        if state.crawford and max(state.score) < length - 1:
            raise _bad("bad-crawford", f"the Crawford game needs a player at {length - 1}")
        if state.post_crawford and max(state.score) < length - 1:
            raise _bad("bad-crawford", f"post-Crawford games need a player at {length - 1}")
        if (length > 1 and phase is not Phase.OVER and state.opt("crawford") and max(state.score) == length - 1
                and not (state.crawford or state.post_crawford)):
            raise _bad("bad-crawford", f"with a player at {length - 1} this game is the Crawford game or post-Crawford")
        played = state.round - (phase is not Phase.OVER)  # games finished, each worth a point at least
        if sum(state.score) < played:
            raise _bad("bad-round", f"{played} game(s) finished but the match score is only "
                       f"{state.score[0]}-{state.score[1]}", expected=played, got=sum(state.score))
    elif state.crawford or state.post_crawford:
        raise _bad("bad-crawford", "Crawford flags belong to match play")
    elif state.round != 1:
        raise _bad("bad-round", f"money play is a single game: round 1, got {state.round}", expected=1, got=state.round)


# --------------------------------------------------------------------------- moves


_MOVE_FIELDS = {"roll": {"dice"}, "move": {"steps", "notation"}, "resign": {"level"}}  # besides "kind"


def move_from_json(data: Json) -> Move:
    # a plain dict is a Mapping: tested first, as the ABC check costs more than the rest of a roll's reading
    if not (type(data) is dict or isinstance(data, Mapping)) or not isinstance(data.get("kind"), str):
        raise IllegalMove(f"{GAME_ID}.bad-move", f"a move is an object with a 'kind', got {_show(data)}")
    kind = data["kind"]
    allowed = _MOVE_FIELDS.get(kind, set())
    extra = sorted(set(data) - allowed - {"kind"})
    if extra:
        raise IllegalMove(f"{GAME_ID}.bad-move", f"unexpected field(s) {extra} in a {_show(kind)} move")
    if kind in _SIMPLE:
        return _SIMPLE[kind]()
    if kind == "roll":
        dice = data.get("dice")
        if dice is None:
            return Roll()
        if (not isinstance(dice, list) or len(dice) != 2
                or not all(isinstance(d, int) and not isinstance(d, bool) for d in dice)):
            raise IllegalMove(f"{GAME_ID}.bad-move", f"dice must be a list of two integers, got {_show(dice)}")
        return Roll((dice[0], dice[1]))
    if kind == "resign":
        level = data.get("level", "single")
        if level not in LEVELS:
            raise IllegalMove(f"{GAME_ID}.bad-move", f"resign level must be one of {list(LEVELS)}, got {_show(level)}")
        return Resign(level)
    if kind == "move":
        return _play_from_json(data)
    raise IllegalMove(f"{GAME_ID}.bad-move", f"unknown move kind {_show(kind)}")


def _play_from_json(data: Json) -> Play:
    notation = data.get("notation")
    steps_j = data.get("steps")
    if notation is None and steps_j is None:
        raise IllegalMove(f"{GAME_ID}.bad-move", "a move needs 'steps' ([[13, 7], [7, 3]]) or 'notation' ('13/7/3')")
    parsed = nt.parse_play(notation)[0] if notation is not None else None
    if steps_j is None:
        return Play(parsed, notation)
    if not isinstance(steps_j, list) or len(steps_j) > 4:
        raise IllegalMove(f"{GAME_ID}.bad-move", f"steps must be a list of at most 4 [from, to] pairs, got {_show(steps_j)}")
    steps = []
    for step in steps_j:
        if (not isinstance(step, list) or len(step) != 2
                or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 25 for p in step)):
            raise IllegalMove(f"{GAME_ID}.bad-move", f"a step is [from, to] with points 0..25 (bar 25, off 0), got {_show(step)}")
        steps.append((step[0], step[1]))
    if parsed is not None and sorted(parsed) != sorted(steps):
        raise IllegalMove(f"{GAME_ID}.notation-mismatch", f"notation {_show(notation)} does not describe the steps {_show(steps_j)}")
    return Play(tuple(steps), notation)


# --------------------------------------------------------------------------- setup


def _sides_from_ids(not_on_roll, on_roll, seat_on_roll: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    sides = [None, None]
    sides[seat_on_roll] = from_gnubg_side(on_roll)
    sides[1 - seat_on_roll] = from_gnubg_side(not_on_roll)
    return sides[0], sides[1]


def apply_setup(engine, state: State, setup: Json) -> State:
    """A state from ``{"position_id", "match_id"?}`` or ``{"xgid"}`` (docs/rules/backgammon.md §9).

    Reads what GNU BG and eXtreme Gammon export and everything Arbiter exports: money games with
    a turned cube (the cube option becomes "on"), a session score, a pending double, beaver
    (XGID dice ``B``; Match ID: doubled, the doubler to decide) or raccoon (``R``; doubled, the
    beaverer to decide and owning the cube), the Jacoby/beaver flags of an XGID and the Jacoby
    bit of a Match ID (money play). The setup's match length replaces the option.
    """
    if not isinstance(setup, Mapping) or not setup:
        raise InvalidOption(f"{GAME_ID}.bad-setup", f"setup is {{position_id, match_id?}} or {{xgid}}, got {_show(setup)}")
    keys = set(setup)
    if keys not in ({"position_id"}, {"position_id", "match_id"}, {"xgid"}):
        raise InvalidOption(f"{GAME_ID}.bad-setup", f"setup takes position_id (+ match_id) or xgid, got {sorted(keys)}")
    options = dict(state.options)
    beavered = raccooned = False
    phase = None
    if "xgid" in setup:
        bottom, top, f = nt.decode_xgid(setup["xgid"])
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
                raise _bad("bad-setup", f"max cube 2**{f['max_cube_log']} is above 2**15")
            options["max_cube"] = 1 << f["max_cube_log"]
        if f["cube_log"] > 15:
            raise _bad("bad-setup", f"cube 2**{f['cube_log']} is above 2**15")
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
        nor, onr = nt.decode_position_id(setup["position_id"])
        if "match_id" in setup:
            m = nt.decode_match_id(setup["match_id"])
            if m["game_state"] > 1:
                raise _bad("setup-game-over", f"match ID {_show(setup['match_id'])} describes a finished game")
            turn = m["on_roll"]
            if m["owner"] == 2:
                raise _bad("bad-match-id", "cube owner 2 is not a valid Match ID value")
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
                raise _bad("bad-match-id", "the Match ID's turn differs from the player on roll exactly when "
                           "a double, raccoon or resignation waits")
            if (m["die1"] == 0) != (m["die2"] == 0) or m["die1"] > 6 or m["die2"] > 6:
                raise _bad("bad-match-id", f"dice {m['die1']}-{m['die2']} are not a roll")
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
            length = options["match_length"]
            score = (0, 0)
        sides = _sides_from_ids(nor, onr, turn)
    if length > 64:
        raise _bad("bad-setup", f"match length {length} is above 64")
    if max(score) > _MAX_SCORE:
        raise _bad("bad-setup", f"score {score[0]}-{score[1]} is above {_MAX_SCORE}")
    options["match_length"] = length
    if beavered or raccooned:
        if length:
            raise _bad("bad-setup", "beavers and raccoons belong to money play")
        options["beaver"] = True
        options["raccoon"] = options["raccoon"] or raccooned
    if not length and (cube > 1 or owner is not None or offered or beavered or raccooned):
        # a money game whose cube was turned or offered plays with the cube
        if options["cube"] == "off":
            raise _bad("bad-setup", "the setup's cube is in use but the option cube is 'off'")
        options["cube"] = "on"
        if cube > 1 and owner is None:  # a centred cube above 1 comes from automatic doubles
            options["automatic_doubles"] = True
    for seat in (0, 1):
        if sides[seat][OFF] == CHECKERS:
            raise _bad("setup-game-over", f"seat {seat} has no checkers left: the game is over")
    options = engine.resolve_options(options)
    post = bool(length and options["crawford"] and not crawford and max(score) == length - 1)
    if phase is None:
        phase = Phase.MOVE if dice else Phase.ROLL
    new = replace(
        state, options=tuple(sorted(options.items())), sides=sides, turn=None if phase is Phase.OPENING else turn,
        phase=phase, dice=dice, cube=cube, owner=owner, offered=offered, beavered=beavered, raccooned=raccooned,
        resign=resign, score=score, crawford=crawford, post_crawford=post,
    )
    if overlap(sides[0], sides[1]):
        raise _bad("shared-point", "the setup puts checkers of both sides on one point")
    _check_consistency(new)
    return new


# --------------------------------------------------------------------------- tally


_TALLY_KEYS = ("winner", "points", "bar", "off", "cube", "owner", "jacoby", "match_length")


def tally_report(tally: Json) -> ScoreReport:
    """Points for a finished game from its final board, cube and winner (docs/rules/backgammon.md §10).

    ``{"winner": 0|1, "points": [[24], [24]], "bar": [a, b], "off": [a, b], "cube"?: 1, "owner"?: null,
    "jacoby"?: false, "match_length"?: 0}``: the board per seat in its own numbering, as in a state.
    The winner must have borne off all 15.
    """
    if not isinstance(tally, Mapping):
        raise _bad("bad-tally", f"a tally is a JSON object, got {_show(tally)}")
    unknown = sorted(str(k) for k in tally if k not in _TALLY_KEYS)
    if unknown:
        raise _bad("bad-tally", f"unknown tally field(s) {_show(unknown)}; known: {list(_TALLY_KEYS)}")
    missing = [k for k in _TALLY_KEYS[:4] if k not in tally]
    if missing:
        raise _bad("bad-tally", f"a tally needs {missing}: the winner and the final board (points, bar, off)")
    winner = tally["winner"]
    if winner not in (0, 1) or isinstance(winner, bool):
        raise _bad("bad-tally", f"winner must be 0 or 1, got {_show(winner)}")
    cube = tally.get("cube", 1)
    if not isinstance(cube, int) or isinstance(cube, bool) or not is_log2(cube) or cube > CUBE_LIMIT:
        raise _bad("bad-tally", f"cube must be a power of two up to {CUBE_LIMIT}, got {_show(cube)}")
    owner = tally.get("owner")
    if owner not in (None, 0, 1) or isinstance(owner, bool) or (cube == 1 and owner is not None):
        raise _bad("bad-tally", f"cube owner {_show(owner)} with cube {cube}: null (in the middle) or a seat; "
                   "a 1-cube has no owner")
    jacoby = tally.get("jacoby", False)
    if not isinstance(jacoby, bool):
        raise _bad("bad-tally", f"jacoby must be true or false, got {_show(jacoby)}")
    length = tally.get("match_length", 0)
    if not isinstance(length, int) or isinstance(length, bool) or not 0 <= length <= 64:
        raise _bad("bad-tally", f"match_length must be an integer 0..64, got {_show(length)}")
    for key in ("points", "bar", "off"):
        if not isinstance(tally[key], list) or len(tally[key]) != 2:
            raise _bad("bad-tally", f"{key} holds one entry per seat (2), got {_show(tally[key])}")
    sides = []
    for seat in (0, 1):
        pts = tally["points"][seat]
        if not isinstance(pts, list) or len(pts) != 24:
            raise _bad("bad-tally", f"points[{seat}] must list 24 counts, got {_show(pts)}")
        side = (_int(tally["off"][seat], 0, CHECKERS, f"off[{seat}]", "bad-tally"),
                *(_int(n, 0, CHECKERS, f"points[{seat}][{i}]", "bad-tally") for i, n in enumerate(pts)),
                _int(tally["bar"][seat], 0, CHECKERS, f"bar[{seat}]", "bad-tally"))
        if sum(side) != CHECKERS:
            raise _bad("checker-count", f"seat {seat} has {sum(side)} checkers on the board, bar and off; "
                       f"must be {CHECKERS}", seat=seat, expected=CHECKERS, got=sum(side))
        sides.append(side)
    if overlap(sides[0], sides[1]):
        raise _bad("shared-point", "the tally puts checkers of both sides on one point", point=overlap(sides[0], sides[1]))
    if sides[winner][OFF] != CHECKERS:
        raise _bad("winner-not-off", f"seat {winner} is named the winner but has {sides[winner][OFF]} of 15 checkers off",
                   seat=winner, expected=CHECKERS, got=sides[winner][OFF])
    level = gammon_level(sides[1 - winner])
    k, points = game_points(level, cube, owner is not None, not length, jacoby)
    rnd = [0, 0]
    rnd[winner] = points
    breakdown = tuple(
        {"points": rnd[s], "result": LEVELS[level - 1] if s == winner else None, "cube": cube,
         "multiplier": k if s == winner else 0, "borne_off": sides[s][OFF], "pips": pips(sides[s])}
        for s in (0, 1)
    )
    return ScoreReport(tuple(rnd), tuple(rnd), breakdown, True, (winner,))
