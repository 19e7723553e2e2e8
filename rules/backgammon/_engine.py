"""The backgammon engine: state, moves, cube, match, JSON. See the package docstring."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from rules.base import (
    BaseEngine,
    IllegalMove,
    Json,
    NextRound,
    Option,
    Outcome,
    Rng,
    ScoreReport,
    replace,
)

from . import _notation as nt
from ._board import BAR, CHECKERS, OFF, START, gammon_level, mover_lists, pips
from ._codes import CODES
from ._cube import LEVELS, effective_max, game_points, next_crawford
from ._moves import generate, result_of
from ._records import RECORD_CODES
from ._setup import apply_setup, move_from_json, state_from_json, state_to_json, tally_report
from ._state import (
    GAME_ID,
    MOVE_KINDS,
    AcceptResignation,
    Beaver,
    Double,
    Drop,
    Move,
    Phase,
    Play,
    Raccoon,
    RejectResignation,
    Resign,
    Result,
    Roll,
    State,
    Take,
)

_MAX_MATCH = 64
_MAX_SCORE = 9999

OPTIONS: Mapping[str, Option] = {
    "opening_roll": Option(
        "use", "docs/rules/backgammon.md §3: the higher opening roller plays both opening dice ('use'), or rolls "
        "two dice afresh ('reroll')",
        choices=("use", "reroll"),
    ),
    "match_length": Option(
        0, "docs/rules/backgammon.md §7: match play to N points; 0 is a single (money) game", type="integer", minimum=0, maximum=_MAX_MATCH,
    ),
    "cube": Option(
        "auto", "docs/rules/backgammon.md §6.1: the doubling cube; 'auto' is off in a single game and on in match play",
        choices=("auto", "on", "off"),
    ),
    "crawford": Option(True, "docs/rules/backgammon.md §7: the Crawford rule in match play (one Crawford game, no cube "
                       "in it)", type="boolean"),
    "jacoby": Option(False, "docs/rules/backgammon.md §6.4: money play: gammons and backgammons count single unless "
                     "the cube was turned", type="boolean"),
    "beaver": Option(False, "docs/rules/backgammon.md §6.2: money play: a player doubled may beaver (redouble at once, "
                     "keeping the cube)", type="boolean"),
    "raccoon": Option(False, "docs/rules/backgammon.md §6.3: money play with beavers: a player beavered may raccoon "
                      "(redouble the beaver at once)",
                      type="boolean"),
    "automatic_doubles": Option(
        False, "docs/rules/backgammon.md §6.5: money play with the cube: each tie of the opening roll doubles the "
        "cube, which stays in the middle (up to max_cube)", type="boolean",
    ),
    "max_cube": Option(
        0, "docs/rules/backgammon.md §6.6: the highest cube value allowed (a power of two); 0 is no limit (2**15, "
        "the Match ID's limit)",
        choices=(0, *(1 << k for k in range(16))),
    ),
}




def _cube_enabled(state: State) -> bool:
    mode = state.opt("cube")
    return mode == "on" or (mode == "auto" and state.opt("match_length") > 0)


def _money(state: State) -> bool:
    return state.opt("match_length") == 0


@lru_cache(maxsize=4096)
def _plays(me: tuple[int, ...], other: tuple[int, ...], d1: int, d2: int) -> tuple[int, list]:
    """Cached full-turn generation for the mover ``me`` against ``other`` (own numberings)."""
    m, o = mover_lists(me, other)
    return generate(m, o, d1, d2)


@lru_cache(maxsize=1024)
def _results(me: tuple[int, ...], other: tuple[int, ...], d1: int, d2: int) -> frozenset:
    """The resulting positions (mover's counts, points hit) of every legal play, for ``check``."""
    m, o = mover_lists(me, other)
    return frozenset(result_of(m, o, steps) for steps in _plays(me, other, d1, d2)[1])


def _mover(state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    t = state.turn
    return state.sides[t], state.sides[1 - t]


def _text(move: Play) -> str:
    """How a play was written, for messages: its notation, or its steps."""
    return move.notation if move.notation is not None else str([list(h) for h in move.steps])


def _replay(me: tuple[int, ...], other: tuple[int, ...], hops: tuple[tuple[int, int], ...], move: Play) -> tuple[list[int], int]:
    """Apply submitted hops, highest source first: (mover's 26 counts, bitmask of points hit).

    The order a play is written in does not matter (``13/10 bar/20`` is ``bar/20 13/10``):
    taking the hops from the highest source down (the bar first) is the order that works
    whenever any order works (a checker reaches a point before it leaves it, the bar is
    emptied first, checkers come home before others bear off), so a failure here is a
    failure in every order. Raises for a hop that moves no checker, lands on a blocked
    point, leaves a checker on the bar or bears off too early; the dice are checked
    afterwards by comparing the result with the legal results.

    A hop may span several dice (``13/3`` with 6-4, ``8/off`` with 6-2): it is legal exactly
    when some stepwise form of it is (docs/rules/backgammon.md §4.6), which the comparison of
    results decides. So "bears off too early" is judged on the end position: a bear-off is
    refused here only when a checker is still outside the home board after the whole play
    (checkers only move forward, so it was outside all along). A hit on a point the hop only
    passes over is not made: it is written as a landing (``5/4*/off``), as GNU BG writes it.
    """
    hops = sorted(hops, key=lambda hop: -hop[0])
    m, o = mover_lists(me, other)
    hits = 0
    bear_off = None
    for src, dst in hops:
        if not 1 <= src <= 25 or not 0 <= dst <= 24 or dst >= src:
            raise IllegalMove(f"{GAME_ID}.bad-step", f"step {_hop(src, dst)} in {nt.show(_text(move))} does not move "
                              "forward (bar is 25, off is 0)", got=[src, dst])
        if not m[src]:
            raise IllegalMove(f"{GAME_ID}.no-checker", f"no checker of yours on {nt._name(src)} for step "
                              f"{_hop(src, dst)} in {nt.show(_text(move))}", point=nt._name(src))
        if m[BAR] and src != BAR:
            raise IllegalMove(f"{GAME_ID}.must-enter-from-bar", f"step {_hop(src, dst)} in {nt.show(_text(move))}: "
                              "a checker on the bar must enter first")
        if dst:
            if o[dst] > 1:
                raise IllegalMove(f"{GAME_ID}.blocked-point", f"step {_hop(src, dst)} in {nt.show(_text(move))}: "
                                  f"point {dst} holds {o[dst]} opposing checkers", point=dst)
            if o[dst] == 1:
                o[dst] = 0
                hits |= 1 << dst
        elif bear_off is None:
            bear_off = (src, dst)
        m[src] -= 1
        m[dst] += 1
    if bear_off is not None and any(m[p] for p in range(7, 26)):
        raise IllegalMove(f"{GAME_ID}.cannot-bear-off", f"step {_hop(*bear_off)} in {nt.show(_text(move))}: "
                          "not all your checkers are home", point=bear_off[0])
    return m, hits


def _dice_fit(hops: tuple[tuple[int, int], ...], dice: tuple[int, ...]) -> tuple[int, ...] | None:
    """The dice a play's hops would use, fewest first, or None when the rolled dice cannot make them.

    Each hop takes one or more dice of its own: their sum is its distance, or for a bear-off
    at least the distance with every die but the last falling short of it (the last die
    bears off from a lower point, docs/rules/backgammon.md §4.3). ``24/19`` with 6-4 cannot be made (dice-mismatch);
    ``24/18`` can, with one die of two (must-use-all-dice).
    """
    if not hops:
        return ()
    (src, dst), rest = hops[0], hops[1:]
    need = src - dst
    best: tuple[int, ...] | None = None
    seen = set()
    for mask in range(1, 1 << len(dice)):
        part = tuple(d for i, d in enumerate(dice) if mask >> i & 1)
        left = tuple(d for i, d in enumerate(dice) if not mask >> i & 1)
        if (part, left) in seen:
            continue
        seen.add((part, left))
        total = sum(part)
        if total != need and not (dst == 0 and total > need and total - max(part) < need):
            continue
        tail = _dice_fit(rest, left)
        if tail is not None and (best is None or len(part) + len(tail) < len(best)):
            best = (*part, *tail)
    return best


def _hop(src: int, dst: int) -> str:
    return f"{nt._name(src)}/{nt._name(dst)}"


@lru_cache(maxsize=1 << 16)
def _play_of(steps: tuple[tuple[int, int, bool], ...]) -> Play:
    """The listed move of a generated play (frozen, so shared safely)."""
    return Play(tuple([(s, t) for s, t, _ in steps]), nt.format_play(steps))


def _level_name(level: int) -> str:
    return LEVELS[level - 1]


# --------------------------------------------------------------------------- engine


class Backgammon(BaseEngine[State, Move]):
    game_id = GAME_ID
    name = "Backgammon"
    players = range(2, 3)
    options = OPTIONS
    move_kinds = MOVE_KINDS
    legal_moves_complete = True
    codes = {**CODES, **RECORD_CODES}

    # -- creation ------------------------------------------------------------------

    def new_game(self, players: int, rng: Rng, options: Mapping[str, Json], setup: Json = None) -> State:
        opts = dict(options)
        state = State(
            options=tuple(sorted(opts.items())), sides=(START, START), phase=Phase.OPENING, turn=None, dice=(),
            cube=1, owner=None, offered=False, resign=0, score=(0, 0), crawford=False, post_crawford=False,
            round=1, result=None, rng=rng,
        )
        if setup is None:
            return state

        return apply_setup(self, state, setup)

    # -- turn --------------------------------------------------------------------------

    def _match_over(self, state: State) -> bool:
        if state.phase is not Phase.OVER:
            return False
        length = state.opt("match_length")
        return length == 0 or max(state.score) >= length

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase is Phase.OVER:
            return frozenset() if self._match_over(state) else frozenset((0, 1))
        if state.phase is Phase.OPENING:
            return frozenset((0, 1))
        if state.beavered:
            return frozenset((state.turn,))
        if state.offered or state.resign or state.raccooned:
            return frozenset((1 - state.turn,))
        return frozenset((state.turn,))

    def round_over(self, state: State) -> bool:
        return state.phase is Phase.OVER

    def may_double(self, state: State, seat: int) -> str | None:
        """None when ``seat`` may offer a double now, else the refusal code suffix."""
        if not _cube_enabled(state):
            return "cube-disabled"
        if state.crawford:
            return "crawford-game"
        if state.owner is not None and state.owner != seat:
            return "not-cube-owner"
        if state.cube * 2 > effective_max(state.opt("max_cube")):
            return "max-cube"
        return None

    def _automatic_double(self, state: State) -> bool:
        return (_money(state) and state.opt("automatic_doubles") and _cube_enabled(state)
                and state.cube * 2 <= effective_max(state.opt("max_cube")))

    def _may_beaver(self, state: State) -> bool:
        return _money(state) and state.opt("beaver") and state.cube * 4 <= effective_max(state.opt("max_cube"))

    def _may_raccoon(self, state: State) -> bool:
        return (_money(state) and state.opt("beaver") and state.opt("raccoon")
                and state.cube * 4 <= effective_max(state.opt("max_cube")))

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        phase = state.phase
        if phase is Phase.OVER:
            return [NextRound()]
        if phase is Phase.OPENING:
            return [Roll()]
        if state.beavered:
            return [Take(), Drop(), *([Raccoon()] if self._may_raccoon(state) else [])]
        if state.raccooned:
            return [Take(), Drop()]
        if state.offered:
            return [Take(), Drop(), *([Beaver()] if self._may_beaver(state) else [])]
        if state.resign:
            return [AcceptResignation(), RejectResignation()]
        resigns: list[Move] = [Resign(level) for level in LEVELS]
        if phase is Phase.ROLL:
            return [Roll(), *([Double()] if self.may_double(state, seat) is None else []), *resigns]
        me, other = _mover(state)
        _, plays = _plays(me, other, state.dice[0], state.dice[1])
        moves: list[Move] = [_play_of(steps) for steps in plays] or [Play((), "")]
        return moves + resigns

    def check(self, state: State, seat: int, move: Move) -> None:
        self.check_turn(state, seat)
        kind = move.kind
        phase = state.phase
        if phase is Phase.MOVE and kind == "move" and not state.resign:  # the hot path first
            self._check_play(state, move)
            return
        if phase is Phase.OVER:
            if kind != "next-round":
                raise IllegalMove(f"{GAME_ID}.round-over",
                                  f"the game is over; only 'next-round' is possible, got {nt.show(kind)}", got=kind)
            return
        if state.beavered:
            if kind not in ("take", "drop", "raccoon"):
                raise IllegalMove(f"{GAME_ID}.beaver-pending",
                                  f"seat {1 - state.turn} beavered: take the cube at {state.cube * 2}, drop "
                                  f"({state.cube} points) or raccoon, got {nt.show(kind)}", seat=1 - state.turn, got=kind)
            if kind == "raccoon":
                if not state.opt("raccoon"):
                    raise IllegalMove(f"{GAME_ID}.raccoon-not-allowed", "raccoons are a money-play option and are not enabled")
                if not self._may_raccoon(state):
                    raise IllegalMove(f"{GAME_ID}.max-cube", f"a raccoon would put the cube at {state.cube * 4}, "
                                      "above the maximum", got=state.cube * 4)
            return
        if state.raccooned:
            if kind not in ("take", "drop"):
                raise IllegalMove(f"{GAME_ID}.raccoon-pending",
                                  f"seat {state.turn} raccooned: take the cube at {state.cube * 2} or drop "
                                  f"({state.cube} points), got {nt.show(kind)}", seat=state.turn, got=kind)
            return
        if state.offered:
            if kind not in ("take", "drop", "beaver"):
                raise IllegalMove(f"{GAME_ID}.double-pending", f"a double to {state.cube * 2} is offered: take, drop "
                                  f"or beaver, got {nt.show(kind)}", expected=state.cube * 2, got=kind)
            if kind == "beaver":
                if not (_money(state) and state.opt("beaver")):
                    raise IllegalMove(f"{GAME_ID}.beaver-not-allowed", "beavers are a money-play option and are not enabled")
                if not self._may_beaver(state):
                    raise IllegalMove(f"{GAME_ID}.max-cube", f"a beaver would put the cube at {state.cube * 4}, "
                                      "above the maximum", got=state.cube * 4)
            return
        if state.resign:
            if kind not in ("accept-resignation", "reject-resignation"):
                raise IllegalMove(f"{GAME_ID}.resignation-pending", f"a resignation ({_level_name(state.resign)}) is "
                                  f"offered: accept or reject it, got {nt.show(kind)}", seat=state.turn, got=kind)
            return
        if kind == "next-round":
            raise IllegalMove(f"{GAME_ID}.round-not-over", "the game is not over: 'next-round' is not possible")
        if kind in ("take", "drop", "beaver", "raccoon"):
            raise IllegalMove(f"{GAME_ID}.no-double-offered", f"no double is offered: {nt.show(kind)} is not possible",
                              got=kind)
        if kind in ("accept-resignation", "reject-resignation"):
            raise IllegalMove(f"{GAME_ID}.no-resignation-offered",
                              f"no resignation is offered: {nt.show(kind)} is not possible", got=kind)
        if phase is Phase.OPENING:
            if kind != "roll":
                raise IllegalMove(f"{GAME_ID}.opening-roll",
                                  f"the game starts with the opening roll (one die each), got {nt.show(kind)}", got=kind)
            self._check_dice(move)
            return
        if kind == "resign":
            if move.level not in LEVELS:
                raise IllegalMove(f"{GAME_ID}.bad-resign-level",
                                  f"resign level must be one of {list(LEVELS)}, got {nt.show(move.level)}", got=move.level)
            return
        if phase is Phase.ROLL:
            if kind == "double":
                refusal = self.may_double(state, seat)
                if refusal is not None:
                    raise IllegalMove(f"{GAME_ID}.{refusal}",
                                      _DOUBLE_REFUSALS[refusal].format(cube=state.cube, owner=state.owner),
                                      **({"seat": state.owner} if refusal == "not-cube-owner" else {}),
                                      **({"got": state.cube * 2} if refusal == "max-cube" else {}))
                return
            if kind != "roll":
                raise IllegalMove(f"{GAME_ID}.must-roll",
                                  f"roll the dice (or double, or resign) before moving, got {nt.show(kind)}", got=kind)
            self._check_dice(move)
            return
        # phase MOVE
        if kind == "double":
            raise IllegalMove(f"{GAME_ID}.double-after-roll", "a double is offered before rolling, not after")
        if kind != "move":
            raise IllegalMove(f"{GAME_ID}.must-move", f"the dice {list(state.dice)} are rolled: play them, "
                              f"got {nt.show(kind)}", got=kind)
        self._check_play(state, move)

    @staticmethod
    def _check_dice(move: Roll) -> None:
        if move.dice is not None and not (
                len(move.dice) == 2 and all(isinstance(d, int) and 1 <= d <= 6 for d in move.dice)):
            raise IllegalMove(f"{GAME_ID}.bad-dice", f"dice must be two numbers 1-6, got {nt.show(list(move.dice))}",
                              got=list(move.dice))

    def _check_play(self, state: State, move: Play) -> None:
        me, other = _mover(state)
        d1, d2 = state.dice
        used, plays = _plays(me, other, d1, d2)
        if not plays:
            if move.steps:
                raise IllegalMove(f"{GAME_ID}.no-legal-play", f"nothing can be played with {d1}-{d2}: the turn is "
                                  f"forfeited (send an empty move), got {nt.show(_text(move))}", expected=[d1, d2])
            return
        if not move.steps:
            raise IllegalMove(f"{GAME_ID}.must-move", f"{d1}-{d2} can be played: an empty move is not allowed")
        try:
            m, hits = _replay(me, other, move.steps, move)
        except IllegalMove as err:
            # the dice come first: a hop no rolled die makes is a dice mismatch wherever it lands
            dice = (d1,) * 4 if d1 == d2 else (d1, d2)
            if err.code != f"{GAME_ID}.bad-step" and _dice_fit(tuple(sorted(move.steps)), dice) is None:
                raise IllegalMove(f"{GAME_ID}.dice-mismatch", f"{nt.show(_text(move))} cannot be made with the dice "
                                  f"{d1}-{d2}", expected=[d1, d2]) from None
            raise
        if move.notation is not None:
            marks = nt.parse_play(move.notation)[1]
            if marks:
                wrong = sorted(p for p in marks if not hits >> p & 1)
                if wrong:
                    raise IllegalMove(f"{GAME_ID}.no-hit-there",
                                      f"{nt.show(_text(move))} marks a hit on {wrong} but no blot is hit there", got=wrong)
        if (tuple(m), hits) in _results(me, other, d1, d2):
            return
        code, message, context = self._diagnose(state, move.steps, used, plays, _text(move), m)
        raise IllegalMove(code, message, **context)

    def _diagnose(self, state: State, hops, used: int, plays: list, text: str, end: list[int]) -> tuple[str, str, dict]:
        """The code of a refused play: dice it cannot be made of, the larger die, too few dice, or other."""
        d1, d2 = state.dice
        dice = [d1] * 4 if d1 == d2 else [d1, d2]
        legal = sorted(nt.format_play(v) for v in plays)
        shown = ", ".join(legal[:6]) + (" ..." if len(legal) > 6 else "")
        fit = _dice_fit(tuple(sorted(hops)), tuple(dice))
        if fit is None:
            return f"{GAME_ID}.dice-mismatch", f"{nt.show(text)} cannot be made with the dice {d1}-{d2}", {
                "expected": [d1, d2]}
        if d1 != d2 and used == 1 and fit == (min(d1, d2),) and any(
            s - t >= max(d1, d2) or t == 0 for steps in plays for s, t, _ in steps
        ):
            return f"{GAME_ID}.must-use-larger-die", (f"{nt.show(text)}: only one die can be played, and it must be "
                                                      f"the larger ({max(d1, d2)}); legal: {shown}"), {"expected": max(d1, d2)}
        # a bear-off past a checker still standing higher is wrong in itself, not a die short
        overshot = any(t == 0 and any(end[p] for p in range(s + 1, 7)) for s, t in hops)
        if len(fit) < used and not overshot:
            word = "both dice" if used == 2 else f"{used} dice"
            return f"{GAME_ID}.must-use-all-dice", f"{nt.show(text)} does not use {word}, which can be played; legal: {shown}", {
                "expected": used, "got": len(fit)}
        return f"{GAME_ID}.illegal-play", f"{nt.show(text)} is not a legal play of {d1}-{d2}; legal: {shown}", {
            "expected": [d1, d2]}

    # -- transitions ---------------------------------------------------------------

    def _apply(self, state: State, seat: int, move: Move) -> State:
        kind = move.kind
        if kind == "roll":
            return self._roll(state, move)
        if kind == "move":
            return self._play(state, move)
        if kind == "double":
            return replace(state, offered=True)
        if kind == "take":
            if state.beavered or state.raccooned:  # a beaver or raccoon taken: the beaverer keeps the cube
                return replace(state, beavered=False, raccooned=False, cube=state.cube * 2)
            return replace(state, offered=False, cube=state.cube * 2, owner=1 - state.turn)
        if kind == "beaver":
            # take and redouble at once, keeping the cube; the doubler takes or drops the redouble
            return replace(state, offered=False, beavered=True, cube=state.cube * 2, owner=1 - state.turn)
        if kind == "raccoon":
            # the doubler takes the beaver and redoubles at once; as in GNU BG the beaverer keeps the
            # cube (it is owned by the player not on roll), and takes or drops the raccoon
            return replace(state, beavered=False, raccooned=True, cube=state.cube * 2)
        if kind == "drop":
            if state.beavered:  # a dropped beaver: the beaverer wins the cube as it stood before the beaver
                return self._finish(state, 1 - state.turn, "drop", 1, state.cube)
            if state.raccooned:  # a dropped raccoon: the raccooner wins the cube as it stood before it
                return self._finish(state, state.turn, "drop", 1, state.cube)
            return self._finish(state, state.turn, "drop", 1, state.cube)
        if kind == "resign":
            return replace(state, resign=LEVELS.index(move.level) + 1)
        if kind == "reject-resignation":
            return replace(state, resign=0)
        if kind == "accept-resignation":
            k, points = game_points(state.resign, state.cube, state.owner is not None, _money(state), state.opt("jacoby"))
            return self._finish(state, 1 - state.turn, "resign", state.resign, points, k)
        return self._next_round(state)

    def _roll(self, state: State, move: Roll) -> State:
        rng = state.rng
        if move.dice is None:
            dice, rng = rng.dice(2)
        else:
            dice = tuple(move.dice)
        if state.phase is Phase.OPENING:
            if dice[0] == dice[1]:  # a tie is rolled again
                if self._automatic_double(state):
                    return replace(state, rng=rng, cube=state.cube * 2)
                return replace(state, rng=rng)
            starter = 0 if dice[0] > dice[1] else 1
            if state.opt("opening_roll") == "reroll":
                return replace(state, rng=rng, turn=starter, phase=Phase.ROLL)
            return replace(state, rng=rng, turn=starter, phase=Phase.MOVE, dice=dice)
        return replace(state, rng=rng, phase=Phase.MOVE, dice=dice)

    def _play(self, state: State, move: Play) -> State:
        t = state.turn
        me, other = list(state.sides[t]), list(state.sides[1 - t])
        for src, dst in move.steps:
            me[src] -= 1
            me[dst] += 1
            if dst and other[25 - dst] == 1:
                other[25 - dst] = 0
                other[BAR] += 1
        sides = [None, None]
        sides[t], sides[1 - t] = tuple(me), tuple(other)
        new = replace(state, sides=tuple(sides), dice=(), phase=Phase.ROLL, turn=1 - t)
        if me[OFF] == CHECKERS:
            level = gammon_level(tuple(other))
            k, points = game_points(level, state.cube, state.owner is not None, _money(state), state.opt("jacoby"))
            return self._finish(replace(new, turn=t), t, "bear-off", level, points, k)
        return new

    def _finish(self, state: State, winner: int, how: str, level: int, points: int, k: int = 1) -> State:
        score = list(state.score)
        score[winner] = min(_MAX_SCORE, score[winner] + points)
        return replace(
            state, phase=Phase.OVER, dice=(), offered=False, beavered=False, raccooned=False, resign=0,
            score=tuple(score),
            result=Result(winner, how, level, state.cube, k, points),
        )

    def _next_round(self, state: State) -> State:
        crawford, post = next_crawford(state.opt("match_length"), state.opt("crawford"), state.score,
                                       state.crawford, state.post_crawford)
        return replace(
            state, sides=(START, START), phase=Phase.OPENING, turn=None, dice=(), cube=1, owner=None,
            offered=False, resign=0, crawford=crawford, post_crawford=post, round=state.round + 1, result=None,
        )

    # -- results -------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        if not self._match_over(state):
            return None
        length = state.opt("match_length")
        if length:
            winner = 0 if state.score[0] >= length else 1
            reason = "match"
        else:
            winner = state.result.winner
            reason = _reason(state.result)
        return Outcome((winner,), reason, points=state.score)

    def scores(self, state: State) -> ScoreReport:
        res = state.result
        rnd = [0, 0]
        if res is not None:
            rnd[res.winner] = res.points
        breakdown = []
        for seat in (0, 1):
            won = res is not None and res.winner == seat
            breakdown.append({
                "points": rnd[seat],
                "result": _reason(res) if won else None,
                "how": res.how if won else None,
                "cube": state.cube,
                "multiplier": res.multiplier if won else 0,
                "pips": pips(state.sides[seat]),
                "borne_off": state.sides[seat][OFF],
                "match_score": state.score[seat],
            })
        out = self.outcome(state)
        return ScoreReport(tuple(rnd), state.score, tuple(breakdown), res is not None, out.winners if out else ())

    def score_tally(self, tally: Json) -> ScoreReport:

        return tally_report(tally)

    def options_of(self, state: State) -> Mapping[str, Json]:
        return dict(state.options)

    # -- JSON ----------------------------------------------------------------------

    def to_json(self, state: State) -> Json:

        return state_to_json(state)

    def from_json(self, data: Json) -> State:

        return state_from_json(self, data)

    def view(self, state: State, seat: int | None) -> Json:
        out = self.to_json(state)
        del out["rng"]
        return out

    def move_to_json(self, move: Move) -> Json:
        out: dict[str, Json] = {"kind": move.kind}
        if isinstance(move, Roll):
            if move.dice is not None:
                out["dice"] = list(move.dice)
        elif isinstance(move, Play):
            out["steps"] = [list(h) for h in move.steps]
            if move.notation is not None:
                out["notation"] = move.notation
        elif isinstance(move, Resign):
            out["level"] = move.level
        return out

    def move_from_json(self, data: Json) -> Move:

        return move_from_json(data)

    def events(self, before: State, seat: int, move: Move, after: State) -> list[Json]:
        out = super().events(before, seat, move, after)
        if move.kind == "roll":
            if before.phase is Phase.OPENING:
                out.append({"type": "opening-roll", "dice": list(after.dice) if after.dice else None,
                            "starter": after.turn})
            else:
                out.append({"type": "dice", "seat": seat, "dice": list(after.dice)})
        if move.kind == "move" and not move.steps:
            out.append({"type": "turn-forfeited", "seat": seat})
        if after.result is not None and before.result is None:
            r = after.result
            out.append({"type": "game-result", "winner": r.winner, "result": _reason(r), "how": r.how,
                        "points": r.points})
        return out


_DOUBLE_REFUSALS = {
    "cube-disabled": "the doubling cube is not in use in this game",
    "crawford-game": "no doubling in the Crawford game",
    "not-cube-owner": "the cube ({cube}) is owned by seat {owner}: only its owner may redouble",
    "max-cube": "the cube is at {cube}: doubling would pass the maximum cube",
}


def _reason(res: Result) -> str:
    if res.how == "drop":
        return "drop"
    return _level_name(res.level)
