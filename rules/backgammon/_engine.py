"""The backgammon engine: the rules, the cube and the match, over the declared shapes of
``_state``. See the package docstring."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from typing import Annotated, Any, Literal, cast

from rules.base import (
    BaseEngine,
    Die,
    ErrorCode,
    IllegalMove,
    Label,
    NextRound,
    Outcome,
    Rng,
    ScoreReport,
    replace,
)
from rules.events import event
from rules.jsontypes import Json, JsonObject, as_object
from rules.shapes import Length, Range, ShapeError, encode, field, shape_of
from rules.spec import GameSpec, Playout, RecordFormat, phase_labels

from . import _notation as nt
from ._board import BAR, CHECKERS, OFF, START, gammon_level, mover_lists, pips
from ._codes import C
from ._cube import effective_max, game_points, next_crawford
from ._moves import Play as Steps
from ._moves import every_die, generate, result_of
from ._records import MAX_RECORD_CHARS, RECORD_WARNINGS, MatchRecord, parse_mat, parse_sgf, replay_record, write_mat
from ._setup import DERIVED, apply_setup, check_derived, check_state, play_of, tally_report
from ._state import (
    COLORS,
    CUBE_LIMIT,
    GAME_ID,
    LEVELS,
    MAX_SCORE,
    MOVES,
    OVER,
    AcceptResignation,
    Beaver,
    Breakdown,
    Cube,
    Double,
    Drop,
    How,
    Match,
    Move,
    Options,
    Phase,
    Play,
    Raccoon,
    RejectResignation,
    Resign,
    Result,
    Roll,
    Seat,
    Setup,
    State,
    Take,
    Tally,
)

_START_POINTS = tuple(START[1:25])


# --------------------------------------------------------------------------- events


@event
class OpeningRollEvent:
    """The opening roll: one die each; the higher roller starts (with both dice, or rolling afresh)."""

    type: Literal["opening-roll"] = "opening-roll"
    dice: Annotated[tuple[Die, ...], Length(2, 2)] | None = field(
        doc="the starter's dice to play: both opening dice, or null when he rolls afresh (option `opening`)")
    starter: Seat | None = field(doc="the seat that plays first; null on a tie (both roll again)")


@event
class DiceEvent:
    """A seat rolled its dice for the turn."""

    type: Literal["dice"] = "dice"
    seat: Seat
    dice: Annotated[tuple[Die, ...], Length(2, 2)]


@event
class TurnForfeitedEvent:
    """The roll could not be played at all: the turn passes."""

    type: Literal["turn-forfeited"] = "turn-forfeited"
    seat: Seat


@event
class GameResultEvent:
    """The game ended: who won, how, and the points it scores."""

    type: Literal["game-result"] = "game-result"
    winner: Seat
    result: Literal["single", "gammon", "backgammon", "drop"] = field(doc="the level won, or `drop` (a refused double)")
    how: How
    points: Annotated[int, Range(1, 3 * CUBE_LIMIT)] = field(doc="the game's points: the level's multiplier x cube")


EVENTS = (OpeningRollEvent, DiceEvent, TurnForfeitedEvent, GameResultEvent)


@lru_cache(maxsize=256)
def _options_json(options: Options) -> Mapping[str, Json]:
    """The options as JSON, read-only (a table plays many moves with one set of options)."""
    return MappingProxyType(as_object(encode(options)))


def _cube_on(state: State) -> bool:
    """The cube option is on for this game (``cube_enabled`` also excludes the Crawford game)."""
    o = state.options
    return o.cube == "on" or (o.cube == "auto" and o.match_length > 0)


def _money(state: State) -> bool:
    return state.options.match_length == 0


@lru_cache(maxsize=4096)
def _plays(me: tuple[int, ...], other: tuple[int, ...], d1: int, d2: int) -> tuple[int, list[Steps]]:
    """Cached full-turn generation for the mover ``me`` against ``other`` (own numberings)."""
    m, o = mover_lists(me, other)
    return generate(m, o, d1, d2)


@lru_cache(maxsize=1024)
def _results(me: tuple[int, ...], other: tuple[int, ...], d1: int, d2: int) -> frozenset[tuple[tuple[int, ...], int]]:
    """The resulting positions (mover's counts, points hit) of every legal play, for ``check``."""
    m, o = mover_lists(me, other)
    return frozenset(result_of(m, o, steps) for steps in _plays(me, other, d1, d2)[1])


_last_mover: tuple[object, tuple[tuple[int, ...], tuple[int, ...]]] = (None, ((), ()))


def _mover(state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The mover's and the opponent's 26 counts (own numberings); the last state's are kept by
    identity, as ``check`` and the move after it ask for the same state's."""
    global _last_mover
    last = _last_mover
    if last[0] is state:
        return last[1]
    t = state.on_turn
    p, b, o = state.points, state.bar, state.off
    sides = (o[t], *p[t], b[t]), (o[1 - t], *p[1 - t], b[1 - t])
    _last_mover = (state, sides)
    return sides


def _text(move: Play) -> str:
    """How a play was written, for messages: its notation, or its steps."""
    if move.notation is not None:
        return move.notation
    assert move.steps is not None, "play_of gives a play written without notation its steps"
    return str([list(h) for h in move.steps])


def _replay(me: tuple[int, ...], other: tuple[int, ...], hops: Sequence[tuple[int, int]], move: Play) -> tuple[list[int], int]:
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
            raise C.bad_step(f"step {_hop(src, dst)} in {nt.show(_text(move))} does not move "
                              "forward (bar is 25, off is 0)", got=[src, dst])
        if not m[src]:
            raise C.no_checker(f"no checker of yours on {nt._name(src)} for step "
                              f"{_hop(src, dst)} in {nt.show(_text(move))}", point=nt._name(src))
        if m[BAR] and src != BAR:
            raise C.must_enter_from_bar(f"step {_hop(src, dst)} in {nt.show(_text(move))}: "
                              "a checker on the bar must enter first")
        if dst:
            if o[dst] > 1:
                raise C.blocked_point(f"step {_hop(src, dst)} in {nt.show(_text(move))}: "
                                  f"point {dst} holds {o[dst]} opposing checkers", point=dst)
            if o[dst] == 1:
                o[dst] = 0
                hits |= 1 << dst
        elif bear_off is None:
            bear_off = (src, dst)
        m[src] -= 1
        m[dst] += 1
    if bear_off is not None and any(m[p] for p in range(7, 26)):
        raise C.cannot_bear_off(f"step {_hop(*bear_off)} in {nt.show(_text(move))}: "
                          "not all your checkers are home", point=bear_off[0])
    return m, hits


def _uses_every_die(me: tuple[int, ...], other: tuple[int, ...], d1: int, d2: int, move: Play) -> bool:
    """True when ``move`` is a legal play that uses every die, so that ``check`` need not list
    every play: single-die sub-moves, each legal in turn, make its hops with every die
    (:func:`every_die`), hitting what ``_replay`` would hit (the blots on the hops' landing
    points), and its hit marks are such hits. Then ``_replay`` takes the hops (the sub-moves show
    each hop's checker there, the bar emptied first, no landing blocked and every checker home
    before one bears off), and the play's result is one of the listed results. False (a
    refusal, or a play that leaves dice unused) leaves the verdict, and its code, to the list."""
    m, o = mover_lists(me, other)
    return _every_die_on(m, o, d1, d2, move)


def _every_die_on(m: list[int], o: list[int], d1: int, d2: int, move: Play) -> bool:
    """:func:`_uses_every_die` on the scratch lists of :func:`mover_lists` (restored)."""
    hops = move.steps
    assert hops is not None, "play_of gives a play its steps"
    hits = 0
    for src, dst in hops:
        if not (0 <= dst < src <= 25):
            return False
        if o[dst] == 1:
            hits |= 1 << dst
    if move.notation is not None and not all(hits >> p & 1 for p in nt.parse_play(move.notation)[1]):
        return False
    return every_die(m, o, hops if len(hops) == 1 else sorted(hops, reverse=True),
                     (d1,) * 4 if d1 == d2 else (d1, d2), hits)


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


#: the die values a roll plays, in order: ``_DICE[d1][d2]`` (four of a double)
_DICE = [[tuple(sorted((a,) * 4 if a == b else (a, b))) for b in range(7)] for a in range(7)]
#: each play's form (:func:`_form`) by its notation, for the process: at most _FORMS_KEPT
_FORMS: dict[str, tuple[tuple[tuple[int, int], ...], tuple[int, ...], int, int]] = {}
_FORMS_KEPT = 1 << 14


def _form(move: Play) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...], int, int]:
    """What ``play_run`` reads of a play, the same for every position: its hops, the highest
    source first; their distances in order when none bears off (else ``()``); the bitmask of the
    points marked hit; the checkers borne off. Kept by the notation (which gives the hops)."""
    text = move.notation
    if text is not None:
        known = _FORMS.get(text)
        if known is not None:
            return known
    hops = move.steps
    assert hops is not None, "play_of gives a play its steps"
    order = tuple(sorted(hops, reverse=True))
    marks = 0
    for point in nt.parse_play(text)[1] if text is not None else ():
        marks |= 1 << point
    offs = sum(1 for _, dst in order if not dst)
    form = order, (() if offs else tuple(sorted(src - dst for src, dst in order))), marks, offs
    if text is not None and len(_FORMS) < _FORMS_KEPT:
        _FORMS[text] = form
    return form


@lru_cache(maxsize=1 << 16)
def _play_of(steps: tuple[tuple[int, int, bool], ...]) -> Play:
    """The listed move of a generated play (frozen, so shared safely)."""
    return Play(tuple([(s, t) for s, t, _ in steps]), nt.format_play(steps))


# --------------------------------------------------------------------------- engine


_DECODERS = {m.kind: shape_of(m).decode for m in MOVES}
#: the moves that are their kind alone (a roll without dice too): one shared instance each
_PLAIN = {m.kind: m() for m in MOVES if m is not Play}
_BOTH = frozenset((0, 1))
_ONE = (frozenset((0,)), frozenset((1,)))
_CENTRED = Cube(1, None, False, False, False)


_SEAT_OR_NONE: JsonObject = {"type": ["integer", "null"], "minimum": 0, "maximum": 1}
#: what a record's replay adds to the answer (DESIGN 4.3), beside the final state
_RECORD_SUMMARY: Mapping[str, Json] = MappingProxyType({
    "games": {"type": "array", "description": "record replay: each game of the match", "items": {
        "type": "object", "required": ["number", "winner", "points", "score_after"], "properties": {
            "number": {"type": "integer"}, "winner": _SEAT_OR_NONE, "points": {"type": "integer"},
            "resigned": {"type": "boolean"}, "score_after": {"type": "array", "items": {"type": "integer"}}}}},
    "match": {"type": "object", "description": "record replay: the match", "properties": {
        "length": {"type": "integer"}, "players": {"type": "array", "items": {"type": "string"}},
        "score": {"type": "array", "items": {"type": "integer"}}}},
})


def _record_format(read: Callable[[str], MatchRecord], write: Callable[..., str] | None = None) -> RecordFormat:
    return RecordFormat(read=read, replay=replay_record, write=write, warnings=RECORD_WARNINGS,
                        summary=_RECORD_SUMMARY, max_chars=MAX_RECORD_CHARS)


#: Jellyfish ``.mat`` (read and written: what GNU BG, eXtreme Gammon, BGBlitz... exchange) and GNU BG's ``.sgf`` (read)
RECORDS = {"mat": _record_format(parse_mat, write_mat), "sgf": _record_format(parse_sgf)}


SPEC = GameSpec(
    id=GAME_ID,
    name="Backgammon",
    label=Label("Backgammon", "Tryktrak"),
    players=range(2, 3),
    options=Options,
    state=State,
    moves=MOVES,
    phases=phase_labels(
        Phase,
        OPENING=Label("Opening roll", "Rzut rozpoczynający"),
        ROLL=Label("Roll or double", "Rzut lub dublowanie"),
        MOVE=Label("Move", "Ruch pionkami"),
        ROUND_OVER=Label("Game over, match goes on", "Koniec partii, mecz trwa"),
    ),
    codes=C,
    breakdown=Breakdown,
    tally=Tally,
    setup=Setup,
    legal_moves_complete=True,
    records=RECORDS,
    terms={
        "points": Label("Points", "Punkty"), "bar": Label("Bar", "Banda"), "off": Label("Borne off", "Zdjęte"),
        "cube": Label("Doubling cube", "Kostka dublująca"), "pips": Label("Pip count", "Liczba oczek"),
        "result": Label("Result", "Wynik"), "how": Label("How the game was won", "Sposób wygranej"),
        "multiplier": Label("Multiplier", "Mnożnik"), "borne_off": Label("Checkers borne off", "Zdjęte pionki"),
        "match_score": Label("Match score", "Wynik meczu"), "single": Label("Single game", "Pojedyncza partia"),
        "gammon": Label("Gammon", "Gammon"), "backgammon": Label("Backgammon", "Backgammon"),
        "drop": Label("Double dropped", "Odrzucone dublowanie"), "bear-off": Label("Bore off", "Zdjęcie pionków"),
        "resign": Label("Resignation", "Poddanie"), "double": Label("Double offered", "Propozycja dublowania"),
        "position_id": Label("Position ID", "ID pozycji"), "round": Label("Game", "Partia"),
        # the log's sentences (service/static/play/log.js fills the {names})
        "move:roll": Label("{seat} rolled {dice_dice}{opening_roll_dice}", "{seat} rzuca: {dice_dice}{opening_roll_dice}"),
        "move:move": Label("{seat} played {steps}", "{seat} gra {steps}"),
        "move:double": Label("{seat} doubled", "{seat} dubluje"), "move:take": Label("{seat} took", "{seat} przyjmuje"),
        "move:drop": Label("{seat} dropped", "{seat} odrzuca dublowanie"),
        "move:resign": Label("{seat} offered to resign: {level}", "{seat} proponuje poddanie: {level}"),
        "event:opening-roll": Label("{starter} starts", "Zaczyna: {starter}"),
        "event:turn-forfeited": Label("{seat} cannot move", "{seat} nie ma ruchu"),
        "event:game-result": Label("{winner} won: {result} ({points})", "Wygrywa {winner}: {result} ({points})"),
        **{c: Label(c.title(), {"white": "Białe", "black": "Czarne"}[c]) for c in COLORS},
    },
    # resigning is always legal: a uniform random player would end most games in a few moves
    playout=Playout(weights={"resign": 0.02}, long_players=2, long_options={"match_length": 64}),
    tally_example={"winner": 0, "cube": 2, "owner": 1, "points": cast("Json", [[0] * 24, [0] * 11 + [14] + [0] * 12]),
                   "bar": [0, 1], "off": [15, 0]},
    events=EVENTS,
)


class Backgammon(BaseEngine[State, Move]):
    spec = SPEC

    # -- creation ------------------------------------------------------------------

    def new_game(self, players: int, rng: Rng, options: Options, setup: Setup | None = None) -> State:
        state = State(
            players=2, options=options, points=(_START_POINTS, _START_POINTS), bar=(0, 0), off=(0, 0),
            phase=Phase.OPENING, turn=None, dice=(), cube=_CENTRED, resign=None,
            match=Match(options.match_length, (0, 0), False, False), round=1, result=None, rng=rng,
        )
        if setup is None:
            return state
        return apply_setup(self, state, setup)

    # -- turn --------------------------------------------------------------------------

    def _match_over(self, state: State) -> bool:
        return state.phase is Phase.GAME_OVER

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase is Phase.GAME_OVER:
            return frozenset()
        if state.phase is Phase.ROUND_OVER:
            return _BOTH
        if state.phase is Phase.OPENING:
            return _BOTH
        cube = state.cube
        if cube.beaver:
            return _ONE[state.on_turn]
        if cube.offered or state.resign or cube.raccoon:
            return _ONE[1 - state.on_turn]
        return _ONE[state.on_turn]

    def may_double(self, state: State, seat: int) -> str | None:
        """None when ``seat`` may offer a double now, else the refusal code suffix."""
        if not _cube_on(state):
            return "cube-disabled"
        if state.crawford:
            return "crawford-game"
        if state.owner is not None and state.owner != seat:
            return "not-cube-owner"
        if state.cube.value * 2 > effective_max(state.options.max_cube):
            return "max-cube"
        return None

    def _automatic_double(self, state: State) -> bool:
        return (_money(state) and state.options.automatic_doubles and _cube_on(state)
                and state.cube.value * 2 <= effective_max(state.options.max_cube))

    def _may_beaver(self, state: State) -> bool:
        return _money(state) and state.options.beaver and state.cube.value * 4 <= effective_max(state.options.max_cube)

    def _may_raccoon(self, state: State) -> bool:
        return (_money(state) and state.options.beaver and state.options.raccoon
                and state.cube.value * 4 <= effective_max(state.options.max_cube))

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        phase = state.phase
        if phase in OVER:
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
        if phase is Phase.MOVE and isinstance(move, Play) and not state.resign:  # the hot paths first
            self._check_play(state, move)
            return
        if phase is Phase.ROLL and type(move) is Roll:  # nothing pending: the chain below comes to the dice
            cube = state.cube
            if not (cube.offered or cube.beaver or cube.raccoon or state.resign):
                self._check_dice(move)
                return
        if phase in OVER:
            if kind != "next-round":
                raise C.round_over(f"game {state.round} of the match is over; only 'next-round' is possible, got "
                                   f"{nt.show(kind)}", round=state.round, got=kind)
            return
        if state.beavered:
            if kind not in ("take", "drop", "raccoon"):
                raise C.beaver_pending(f"seat {1 - state.on_turn} beavered: take the cube at {state.cube.value * 2}, drop "
                                  f"({state.cube.value} points) or raccoon, got {nt.show(kind)}", seat=1 - state.on_turn, got=kind)
            if kind == "raccoon":
                if not state.options.raccoon:
                    raise C.raccoon_not_allowed("raccoons are a money-play option and are not enabled")
                if not self._may_raccoon(state):
                    raise C.max_cube(f"a raccoon would put the cube at {state.cube.value * 4}, "
                                      "above the maximum", got=state.cube.value * 4)
            return
        if state.raccooned:
            if kind not in ("take", "drop"):
                raise C.raccoon_pending(f"seat {state.turn} raccooned: take the cube at {state.cube.value * 2} or drop "
                                  f"({state.cube.value} points), got {nt.show(kind)}", seat=state.turn, got=kind)
            return
        if state.offered:
            if kind not in ("take", "drop", "beaver"):
                raise C.double_pending(f"a double to {state.cube.value * 2} is offered: take, drop "
                                  f"or beaver, got {nt.show(kind)}", expected=state.cube.value * 2, got=kind)
            if kind == "beaver":
                if not (_money(state) and state.options.beaver):
                    raise C.beaver_not_allowed("beavers are a money-play option and are not enabled")
                if not self._may_beaver(state):
                    raise C.max_cube(f"a beaver would put the cube at {state.cube.value * 4}, "
                                      "above the maximum", got=state.cube.value * 4)
            return
        if state.resign:
            if kind not in ("accept-resignation", "reject-resignation"):
                raise C.resignation_pending(f"a resignation ({state.resign}) is "
                                  f"offered: accept or reject it, got {nt.show(kind)}", seat=state.turn, got=kind)
            return
        if kind == "next-round":
            raise C.round_not_over(f"game {state.round} is not over: 'next-round' is not possible", round=state.round)
        if kind in ("take", "drop", "beaver", "raccoon"):
            raise C.no_double_offered(f"no double is offered: {nt.show(kind)} is not possible",
                              got=kind)
        if kind in ("accept-resignation", "reject-resignation"):
            raise C.no_resignation_offered(f"no resignation is offered: {nt.show(kind)} is not possible", got=kind)
        if phase is Phase.OPENING:
            if not isinstance(move, Roll):
                raise C.opening_roll(f"the game starts with the opening roll (one die each), got {nt.show(kind)}", got=kind)
            self._check_dice(move)
            return
        if isinstance(move, Resign):
            if move.level not in LEVELS:
                raise C.bad_resign_level(f"resign level must be one of {list(LEVELS)}, got {nt.show(move.level)}", got=move.level)
            return
        if phase is Phase.ROLL:
            if kind == "double":
                refusal = self.may_double(state, seat)
                if refusal is not None:
                    raise _DOUBLE_CODES[refusal](_DOUBLE_REFUSALS[refusal].format(cube=state.cube.value, owner=state.owner),
                                                 **({"seat": state.owner} if refusal == "not-cube-owner" else {}),
                                                 **({"got": state.cube.value * 2} if refusal == "max-cube" else {}))
                return
            if not isinstance(move, Roll):
                raise C.must_roll(f"roll the dice (or double, or resign) before moving, got {nt.show(kind)}", got=kind)
            self._check_dice(move)
            return
        # phase MOVE
        if kind == "double":
            raise C.double_after_roll("a double is offered before rolling, not after")
        if not isinstance(move, Play):
            raise C.must_move(f"the dice {list(state.dice)} are rolled: play them, "
                              f"got {nt.show(kind)}", got=kind)
        self._check_play(state, move)

    def play_run(self, state: State, plays: Sequence[tuple[int, int, int, Play]]) -> tuple[State, int]:
        """``apply`` of a roll of ``d1``-``d2`` (physical dice) and then of ``play`` by ``seat``, for
        each ``(seat, d1, d2, play)`` in turn while both are legal: the state after the first ``n``
        and ``n`` (0: ``state`` itself). So a record is replayed. A roll is legal here in the roll
        phase with nothing pending, by the seat on roll; a play as ``check`` judges it (an empty
        play too: a forced pass). The run stops at anything else (the opening roll, an illegal
        play...) and before a play that bears off the last checker (the game's end is
        ``_play``'s to score): the caller applies that one as two moves, which judge it and give
        any refusal its code.

        One state is made for the whole run: in between, the two sides are count lists (what
        ``_roll`` changes, the phase and the dice, the play changes back; physical dice leave the
        rng as it is). A play of one die a hop is played hop by hop; any other is judged by
        ``_judge`` (:func:`_uses_every_die`, else the list of plays)."""
        cube = state.cube
        if state.phase is not Phase.ROLL or state.resign or cube.offered or cube.beaver or cube.raccoon:
            return state, 0
        t = state.turn
        p, b, o = state.points, state.bar, state.off
        sides = [o[0], *p[0], b[0]], [o[1], *p[1], b[1]]
        done = 0
        for seat, d1, d2, play in plays:
            if seat != t or not (0 < d1 < 7 and 0 < d2 < 7):
                break
            order, distances, marks, offs = _form(play)
            me, him = sides[t], sides[1 - t]
            if distances == _DICE[d1][d2]:
                # a die a hop, none bearing off: played in this order (the highest source first, as
                # every_die would try it, the only way these hops use these dice), each legal in turn
                mine, theirs = me[:], him[:]
                hits = 0
                for src, dst in order:
                    if not mine[src] or (mine[BAR] and src != BAR) or theirs[25 - dst] > 1:
                        break
                    mine[src] -= 1
                    mine[dst] += 1
                    if theirs[25 - dst]:
                        theirs[25 - dst] = 0
                        theirs[BAR] += 1
                        hits |= 1 << dst
                else:
                    if not marks & ~hits:  # every hit marked is made
                        sides = (mine, theirs) if t == 0 else (theirs, mine)
                        t = 1 - t
                        done += 1
                        continue
                break
            try:
                self._judge(tuple(me), tuple(him), d1, d2, play)
            except IllegalMove:
                break
            if me[OFF] + offs >= CHECKERS:
                break
            for src, dst in order:
                me[src] -= 1
                me[dst] += 1
                if dst and him[25 - dst] == 1:
                    him[25 - dst] = 0
                    him[BAR] += 1
            t = 1 - t
            done += 1
        if not done:
            return state, 0
        a, z = sides
        return replace(state, points=(tuple(a[1:25]), tuple(z[1:25])), bar=(a[BAR], z[BAR]), off=(a[OFF], z[OFF]),
                       dice=(), phase=Phase.ROLL, turn=t), done

    @staticmethod
    def _check_dice(move: Roll) -> None:
        dice = move.dice
        if dice is not None and not (len(dice) == 2 and isinstance(dice[0], int) and isinstance(dice[1], int)
                                     and 1 <= dice[0] <= 6 and 1 <= dice[1] <= 6):
            raise C.bad_dice(f"dice must be two numbers 1-6, got {nt.show(list(dice))}",
                              got=list(dice))

    def _check_play(self, state: State, move: Play) -> None:
        me, other = _mover(state)
        d1, d2 = state.dice
        self._judge(me, other, d1, d2, move)

    def _judge(self, me: tuple[int, ...], other: tuple[int, ...], d1: int, d2: int, move: Play) -> None:
        """Raises the refusal of ``move`` by the mover ``me`` against ``other`` (each side's 26
        counts in its own numbering) with the dice ``d1``-``d2``."""
        if move.steps and _uses_every_die(me, other, d1, d2, move):
            return  # legal without listing every play; anything else is judged against the list
        used, plays = _plays(me, other, d1, d2)
        if not plays:
            if move.steps:
                raise C.no_legal_play(f"nothing can be played with {d1}-{d2}: the turn is "
                                  f"forfeited (send an empty move), got {nt.show(_text(move))}", expected=[d1, d2])
            return
        if not move.steps:
            raise C.must_move(f"{d1}-{d2} can be played: an empty move is not allowed")
        try:
            m, hits = _replay(me, other, move.steps, move)
        except IllegalMove as err:
            # the dice come first: a hop no rolled die makes is a dice mismatch wherever it lands
            dice = (d1,) * 4 if d1 == d2 else (d1, d2)
            if err.code != C.bad_step.id and _dice_fit(tuple(sorted(move.steps)), dice) is None:
                raise C.dice_mismatch(f"{nt.show(_text(move))} cannot be made with the dice "
                                  f"{d1}-{d2}", expected=[d1, d2]) from None
            raise
        if move.notation is not None:
            marks = nt.parse_play(move.notation)[1]
            if marks:
                wrong = sorted(p for p in marks if not hits >> p & 1)
                if wrong:
                    raise C.no_hit_there(f"{nt.show(_text(move))} marks a hit on {wrong} but no blot is hit there", got=wrong)
        if (tuple(m), hits) in _results(me, other, d1, d2):
            return
        code, message, context = self._diagnose(d1, d2, move.steps, used, plays, _text(move), m)
        raise code(message, **context)

    def _diagnose(self, d1: int, d2: int, hops: tuple[tuple[int, int], ...], used: int, plays: list[Steps], text: str,
                  end: list[int]) -> tuple[ErrorCode, str, JsonObject]:
        """The code of a refused play: dice it cannot be made of, the larger die, too few dice, or other."""
        dice = [d1] * 4 if d1 == d2 else [d1, d2]
        legal = sorted(nt.format_play(v) for v in plays)
        shown = ", ".join(legal[:6]) + (" ..." if len(legal) > 6 else "")
        fit = _dice_fit(tuple(sorted(hops)), tuple(dice))
        if fit is None:
            return C.dice_mismatch, f"{nt.show(text)} cannot be made with the dice {d1}-{d2}", {
                "expected": [d1, d2]}
        if d1 != d2 and used == 1 and fit == (min(d1, d2),) and any(
            s - t >= max(d1, d2) or t == 0 for steps in plays for s, t, _ in steps
        ):
            return C.must_use_larger_die, (f"{nt.show(text)}: only one die can be played, and it must be "
                                                      f"the larger ({max(d1, d2)}); legal: {shown}"), {"expected": max(d1, d2)}
        # a bear-off past a checker still standing higher is wrong in itself, not a die short
        overshot = any(t == 0 and any(end[p] for p in range(s + 1, 7)) for s, t in hops)
        if len(fit) < used and not overshot:
            word = "both dice" if used == 2 else f"{used} dice"
            return C.must_use_all_dice, f"{nt.show(text)} does not use {word}, which can be played; legal: {shown}", {
                "expected": used, "got": len(fit)}
        return C.illegal_play, f"{nt.show(text)} is not a legal play of {d1}-{d2}; legal: {shown}", {
            "expected": [d1, d2]}

    # -- transitions ---------------------------------------------------------------

    def _apply(self, state: State, seat: int, move: Move) -> State:
        if isinstance(move, Roll):
            return self._roll(state, move)
        if isinstance(move, Play):
            return self._play(state, move)
        kind = move.kind
        cube = state.cube
        if kind == "double":
            return replace(state, cube=replace(cube, offered=True))
        if kind == "take":
            if cube.beaver or cube.raccoon:  # a beaver or raccoon taken: the beaverer keeps the cube
                return replace(state, cube=Cube(cube.value * 2, cube.owner, False, False, False))
            return replace(state, cube=Cube(cube.value * 2, 1 - state.on_turn, False, False, False))
        if kind == "beaver":
            # take and redouble at once, keeping the cube; the doubler takes or drops the redouble
            return replace(state, cube=Cube(cube.value * 2, 1 - state.on_turn, False, True, False))
        if kind == "raccoon":
            # the doubler takes the beaver and redoubles at once; as in GNU BG the beaverer keeps the
            # cube (it is owned by the player not on roll), and takes or drops the raccoon
            return replace(state, cube=Cube(cube.value * 2, cube.owner, False, False, True))
        if kind == "drop":
            if state.beavered:  # a dropped beaver: the beaverer wins the cube as it stood before the beaver
                return self._finish(state, 1 - state.on_turn, "drop", 1, state.cube.value)
            if state.raccooned:  # a dropped raccoon: the raccooner wins the cube as it stood before it
                return self._finish(state, state.on_turn, "drop", 1, state.cube.value)
            return self._finish(state, state.on_turn, "drop", 1, state.cube.value)
        if isinstance(move, Resign):
            return replace(state, resign=move.level)
        if kind == "reject-resignation":
            return replace(state, resign=None)
        if kind == "accept-resignation":
            level = state.resign_level
            k, points = game_points(level, cube.value, cube.owner is not None, _money(state), state.options.jacoby)
            return self._finish(state, 1 - state.on_turn, "resign", level, points, k)
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
                    return replace(state, rng=rng, cube=replace(state.cube, value=state.cube.value * 2))
                return replace(state, rng=rng)
            starter = 0 if dice[0] > dice[1] else 1
            if state.options.opening_roll == "reroll":
                return replace(state, rng=rng, turn=starter, phase=Phase.ROLL)
            return replace(state, rng=rng, turn=starter, phase=Phase.MOVE, dice=dice)
        return replace(state, rng=rng, phase=Phase.MOVE, dice=dice)

    def _play(self, state: State, move: Play) -> State:
        t = state.on_turn
        assert move.steps is not None, "check reads a play (play_of) before it is applied"
        mine, theirs = _mover(state)
        me, other = list(mine), list(theirs)
        for src, dst in move.steps:
            me[src] -= 1
            me[dst] += 1
            if dst and other[25 - dst] == 1:
                other[25 - dst] = 0
                other[BAR] += 1
        mine, theirs = tuple(me[1:25]), tuple(other[1:25])
        if t == 0:
            new = replace(state, points=(mine, theirs), bar=(me[BAR], other[BAR]), off=(me[OFF], other[OFF]),
                          dice=(), phase=Phase.ROLL, turn=1)
        else:
            new = replace(state, points=(theirs, mine), bar=(other[BAR], me[BAR]), off=(other[OFF], me[OFF]),
                          dice=(), phase=Phase.ROLL, turn=0)
        if me[OFF] == CHECKERS:
            level = gammon_level(tuple(other))
            k, points = game_points(level, state.cube.value, state.owner is not None, _money(state), state.options.jacoby)
            return self._finish(replace(new, turn=t), t, "bear-off", level, points, k)
        return new

    def _finish(self, state: State, winner: int, how: How, level: int, points: int, k: int = 1) -> State:
        score = list(state.score)
        score[winner] = min(MAX_SCORE, score[winner] + points)
        length = state.options.match_length
        cube = state.cube
        return replace(
            state, phase=Phase.GAME_OVER if not length or max(score) >= length else Phase.ROUND_OVER, dice=(),
            cube=Cube(cube.value, cube.owner, False, False, False), resign=None,
            match=replace(state.match, score=tuple(score)),
            result=Result(winner, how, LEVELS[level - 1], cube.value, k, points),
        )

    def _next_round(self, state: State) -> State:
        m = state.match
        crawford, post = next_crawford(state.options.match_length, state.options.crawford, m.score,
                                       m.crawford, m.post_crawford)
        return replace(
            state, points=(_START_POINTS, _START_POINTS), bar=(0, 0), off=(0, 0), phase=Phase.OPENING, turn=None,
            dice=(), cube=_CENTRED, resign=None,
            match=Match(m.length, m.score, crawford, post, (*m.history, _game_points(state.result))),
            round=state.round + 1, result=None,
        )

    # -- results -------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        if not self._match_over(state):
            return None
        length = state.options.match_length
        if length:
            winner = 0 if state.score[0] >= length else 1
            reason = "match"
        else:
            res = state.result
            assert res is not None, "a money game is over with its result"
            winner = res.winner
            reason = _reason(res)
        return Outcome((winner,), reason, points=state.score)

    def scores(self, state: State) -> ScoreReport:
        """This game's points, the match score as the totals, the earlier games' points as the
        history (``match.history``; DESIGN 4.5)."""
        res = state.result
        rnd = _game_points(res)
        sides, score, cube = state.sides, state.score, state.cube.value
        breakdown = tuple(
            Breakdown(result=_reason(res) if res is not None and res.winner == seat else None,
                      how=res.how if res is not None and res.winner == seat else None, cube=cube,
                      multiplier=res.multiplier if res is not None and res.winner == seat else 0,
                      pips=pips(sides[seat]), borne_off=sides[seat][OFF], match_score=score[seat], points=rnd[seat])
            for seat in (0, 1))
        out = self.outcome(state)
        return ScoreReport(rnd, score, breakdown, res is not None, out.winners if out else (),
                           round=state.round, history=state.match.history)

    def options_of(self, state: State) -> Mapping[str, Json]:
        return _options_json(state.options)

    def tally_scores(self, tally: Tally) -> ScoreReport:
        return tally_report(tally)

    # -- reading: the shapes are declared; here the derived values and the play's notation ---

    def check_state(self, state: State) -> State:
        return check_state(state)

    def from_json(self, data: Json) -> State:
        """The declared reader, the checks of meaning, then the derived values sent with the state
        (IDs, pips, colors, cube_enabled), which must be what the state gives."""
        if type(data) is dict and not DERIVED.isdisjoint(data):
            given = {k: data[k] for k in DERIVED if k in data}
            state = super().from_json({k: v for k, v in data.items() if k not in DERIVED})
            check_derived(state, given)
            return state
        return super().from_json(data)

    def move_from_json(self, data: Json) -> Move:
        """The declared reader of the move's kind (as ``BaseEngine``'s, inlined: every request reads
        a move); a play gets its steps from its notation (``play_of``)."""
        kind = data.get("kind") if type(data) is dict else None
        if type(kind) is not str or kind not in _DECODERS:
            return super().move_from_json(data)  # the shared refusal (malformed-move)
        if len(cast(JsonObject, data)) == 1 and kind in _PLAIN:
            return _PLAIN[kind]
        try:
            move = _DECODERS[kind](data, "")
        except ShapeError as exc:
            raise C.malformed_move(f"malformed {kind!r} move: {exc.message}", field=exc.path) from None
        return play_of(move) if kind == "move" else move

    def emit(self, before: State, seat: int, move: Move, after: State) -> list[Any]:
        out = super().emit(before, seat, move, after)
        if move.kind == "roll":
            if before.phase is Phase.OPENING:
                out.append(OpeningRollEvent(dice=after.dice or None, starter=after.turn))
            else:
                out.append(DiceEvent(seat=seat, dice=after.dice))
        if isinstance(move, Play) and not move.steps:
            out.append(TurnForfeitedEvent(seat=seat))
        if after.result is not None and before.result is None:
            r = after.result
            out.append(GameResultEvent(winner=r.winner, result=_reason(r), how=r.how, points=r.points))
        return out


_DOUBLE_CODES = {"cube-disabled": C.cube_disabled, "crawford-game": C.crawford_game,
                 "not-cube-owner": C.not_cube_owner, "max-cube": C.max_cube}
_DOUBLE_REFUSALS = {
    "cube-disabled": "the doubling cube is not in use in this game",
    "crawford-game": "no doubling in the Crawford game",
    "not-cube-owner": "the cube ({cube}) is owned by seat {owner}: only its owner may redouble",
    "max-cube": "the cube is at {cube}: doubling would pass the maximum cube",
}


def _game_points(res: Result | None) -> tuple[int, int]:
    """The points a game gave each seat: the winner's, 0 for the loser (0, 0 while it is played)."""
    if res is None:
        return 0, 0
    return (res.points, 0) if res.winner == 0 else (0, res.points)


def _reason(res: Result) -> Literal["single", "gammon", "backgammon", "drop"]:
    if res.how == "drop":
        return "drop"
    return res.level
