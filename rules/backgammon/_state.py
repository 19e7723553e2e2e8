"""Backgammon's declarations (DESIGN 4.8): the phase, the options, the state, the moves, the tally
and the score breakdown, each a declared shape (``rules.shapes``) from which the JSON reader and
writer, the views and the contract's schemas are derived.

Kept apart from the engine so that the setup readers in ``_setup`` and the engine in ``_engine``
both import them, and neither imports the other at module level.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from operator import mul
from typing import Annotated, Any, ClassVar, Literal

from rules.base import Die, Label, NextRound, Rng
from rules.shapes import Doc, Length, OneOf, Range, Visibility, computed, declared, field, option

GAME_ID = "backgammon"
CHECKERS = 15
CUBE_LIMIT = 1 << 15  # the Match ID stores log2(cube) in 4 bits
MAX_MATCH = 64
MAX_SCORE = 9999
MAX_ROUND = 10**6
MAX_GAMES = 2 * MAX_MATCH  # a match to N ends within 2N - 1 games: each game scores a point at least
Level = Literal["single", "gammon", "backgammon"]
How = Literal["bear-off", "drop", "resign"]
Color = Literal["white", "black"]
LEVELS: tuple[Level, Level, Level] = ("single", "gammon", "backgammon")
HOWS: tuple[How, How, How] = ("bear-off", "drop", "resign")
COLORS: tuple[Color, Color] = ("white", "black")  # labels of seats 0 and 1 (the XGID's bottom and top player)

_POINT_NUMBERS = tuple(range(1, 25))

Seat = Annotated[int, Range(0, 1)]
Count = Annotated[int, Range(0, CHECKERS)]
Point = Annotated[int, Range(0, 25), Doc("a point in the mover's numbering: 1..24, the bar 25, off 0")]
CubeValue = Annotated[int, OneOf(tuple(1 << k for k in range(16))), Doc("a power of two, 1..32768")]
Score = Annotated[int, Range(0, MAX_SCORE)]
GamePoints = Annotated[int, Range(0, 3 * CUBE_LIMIT)]
Board = Annotated[tuple[Annotated[tuple[Count, ...], Length(24, 24)], ...], Length(2, 2)]
PerSeat = Annotated[tuple[Count, ...], Length(2, 2)]
PipCount = Annotated[int, Range(0, 375)]
Pips = tuple[PipCount, PipCount]
Colors = tuple[Color, Color]


class Phase(Enum):
    OPENING = "opening"  # each side rolls one die; both seats may send the roll
    ROLL = "roll"  # the player on turn may double, resign or roll
    MOVE = "move"  # dice are rolled; the player on turn plays them (or resigns)
    ROUND_OVER = "round-over"  # a game of a match is over, the match is not: next-round is due
    GAME_OVER = "game-over"  # the money game, or the match, is over


OVER = (Phase.ROUND_OVER, Phase.GAME_OVER)


# --------------------------------------------------------------------------- options


@declared
class Options:
    opening_roll: Literal["use", "reroll"] = option(
        default="use",
        description="docs/rules/backgammon.md §3: the higher opening roller plays both opening dice ('use'), or "
                    "rolls two dice afresh ('reroll')",
        label=Label("Opening roll", "Rzut rozpoczynający"),
        help=Label("What the higher roller of the opening roll plays.",
                   "Czym gra gracz, który wyrzucił więcej w rzucie rozpoczynającym."),
        choices={"use": Label("Plays the two numbers rolled", "Gra wyrzuconymi oczkami obu kostek"),
                 "reroll": Label("Rolls two dice afresh", "Rzuca od nowa dwiema kostkami")})
    match_length: Annotated[int, Range(0, MAX_MATCH)] = option(
        default=0,
        description="docs/rules/backgammon.md §7: match play to N points; 0 is a single (money) game",
        label=Label("Match length", "Długość meczu"),
        help=Label("Points needed to win the match; 0 plays a single game.",
                   "Liczba punktów potrzebna do wygrania meczu; 0 to jedna partia."))
    cube: Literal["auto", "on", "off"] = option(
        default="auto",
        description="docs/rules/backgammon.md §6.1: the doubling cube; 'auto' is off in a single game and on in "
                    "match play",
        label=Label("Doubling cube", "Kostka dublująca"),
        help=Label("Whether the doubling cube is used.", "Czy gra się z kostką dublującą."),
        choices={"auto": Label("In match play only", "Tylko w meczu"), "on": Label("On", "Tak"),
                 "off": Label("Off", "Nie")})
    crawford: bool = option(
        default=True,
        description="docs/rules/backgammon.md §7: the Crawford rule in match play (one Crawford game, no cube in it)",
        label=Label("Crawford rule", "Reguła Crawforda"),
        help=Label("In a match, no doubling in the game after a player first reaches one point short of winning.",
                   "W meczu nie wolno dublować w partii po tym, jak gracz pierwszy raz zabraknie jednego punktu "
                   "do wygranej."))
    jacoby: bool = option(
        default=False,
        description="docs/rules/backgammon.md §6.4: money play: gammons and backgammons count single unless the cube "
                    "was turned",
        label=Label("Jacoby rule", "Reguła Jacoby'ego"),
        help=Label("Gammons and backgammons count single until the cube has been turned.",
                   "Gammon i backgammon liczą się pojedynczo, dopóki nikt nie przyjął kostki."))
    beaver: bool = option(
        default=False,
        description="docs/rules/backgammon.md §6.2: money play: a player doubled may beaver (redouble at once, "
                    "keeping the cube)",
        label=Label("Beavers", "Bobry"),
        help=Label("A player doubled may redouble at once and keep the cube.",
                   "Gracz, któremu zaproponowano dublowanie, może od razu przedublować i zachować kostkę."))
    raccoon: bool = option(
        default=False,
        description="docs/rules/backgammon.md §6.3: money play with beavers: a player beavered may raccoon "
                    "(redouble the beaver at once)",
        label=Label("Raccoons", "Szopy"),
        help=Label("After a beaver the doubler may redouble once more.",
                   "Po bobrze dublujący może przedublować jeszcze raz."))
    automatic_doubles: bool = option(
        default=False,
        description="docs/rules/backgammon.md §6.5: money play with the cube: each tie of the opening roll doubles "
                    "the cube, which stays in the middle (up to max_cube)",
        label=Label("Automatic doubles", "Automatyczne dublowanie"),
        help=Label("Each tie of the opening roll doubles the cube.",
                   "Każdy remis w rzucie rozpoczynającym podwaja kostkę dublującą."))
    max_cube: Literal[0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768] = option(
        default=0,
        description="docs/rules/backgammon.md §6.6: the highest cube value allowed (a power of two); 0 is no limit "
                    "(2**15, the Match ID's limit)",
        label=Label("Maximum cube", "Największa wartość kostki"),
        help=Label("The highest value the doubling cube may reach; 0 is no limit.",
                   "Największa wartość kostki dublującej; 0 to bez ograniczenia."),
        choices={0: Label("No limit", "Bez ograniczenia"),
                 **{1 << k: Label(str(1 << k), str(1 << k)) for k in range(16)}})


# --------------------------------------------------------------------------- state


@declared
class Cube:
    """The doubling cube: its value, its owner (null: in the middle) and the answers that wait."""

    value: Annotated[int, Range(1, CUBE_LIMIT)] = field(
        doc="the cube's value, a power of two (1 while the cube is unused or off)")
    owner: Seat | None = field(doc="the seat that owns the cube; null while it is in the middle")
    offered: bool = field(doc="the player on turn offers a double; the other seat takes, drops or beavers")
    beaver: bool = field(default=False, doc=(
        "the player doubled beavered: the doubler (on turn) takes, drops or raccoons the redouble"))
    raccoon: bool = field(default=False, doc=(
        "the doubler raccooned the beaver: the beaverer (not on turn, owning the cube) takes or drops"))


@declared
class Match:
    """The match: its length (0: a money game), the score, the Crawford flags, and the points each
    earlier game of the match gave each seat."""

    length: Annotated[int, Range(0, MAX_MATCH)] = field(doc="the match length; 0 in money play (the option)")
    score: Annotated[tuple[Score, ...], Length(2, 2)] = field(
        doc="the match score per seat (the session score in money play)")
    crawford: bool = field(doc="this game is the Crawford game (no cube)")
    post_crawford: bool = field(doc="the Crawford game has been played")
    history: Annotated[tuple[Annotated[tuple[GamePoints, ...], Length(2, 2)], ...], Length(0, MAX_GAMES)] = field(
        default=(), doc="per earlier game of the match played here, the points it gave each seat ([0, 2]: a gammon "
                        "won by seat 1); empty in money play and where a match starts at a written score. Per seat "
                        "the rows add up to the score at most (with this game's points, exactly when the match "
                        "started at 0-0), docs/rules/backgammon.md §7")


@declared
class Result:
    """How a game ended: ``how`` is bear-off, drop or resign; ``level`` single, gammon or backgammon."""

    winner: Seat
    how: Literal["bear-off", "drop", "resign"]
    level: Level
    cube: Annotated[int, Range(1, CUBE_LIMIT)] = field(doc="the cube when the game ended, a power of two")
    multiplier: Annotated[int, Range(1, 3)] = field(doc="1..3, the level as scored (1 for a drop, or by Jacoby)")
    points: Annotated[int, Range(1, 3 * CUBE_LIMIT)] = field(doc="multiplier x cube")


def _cube_enabled(state: State) -> bool:
    o = state.options
    return (o.cube == "on" or (o.cube == "auto" and o.match_length > 0)) and not state.match.crawford


#: ``_setup.ids_of`` (set when ``_setup`` is imported: it needs the notations, which need the codes)
ids_of: Callable[[State], tuple[str, str, str]] = None  # type: ignore[assignment]


def _id(index: int) -> Callable[[State], str]:
    """The reader of one of the three IDs."""

    def read(state: State) -> str:
        return ids_of(state)[index]

    return read


@declared
class State:
    players: Annotated[int, Range(2, 2)] = field(doc="the number of players: 2")
    options: Options
    points: Board = field(doc="per seat, points 1..24 in that seat's own numbering (a seat's point p is the "
                              "other's 25 - p)")
    bar: PerSeat = field(doc="per seat, checkers on the bar")
    off: PerSeat = field(doc="per seat, checkers borne off")
    phase: Phase
    turn: Seat | None = field(doc="the seat on roll; null during the opening roll")
    dice: Annotated[tuple[Die, ...], Length(0, 2)] = field(doc="the dice rolled this turn; empty before the roll")
    cube: Cube
    resign: Level | None = field(doc="the level the player on turn offers to resign; null when none is offered")
    match: Match
    round: Annotated[int, Range(1, MAX_ROUND)] = field(doc="the game of the match, 1-based (1 in money play)")
    result: Result | None = field(doc="how the game ended; null while it is played")
    rng: Rng = field(visibility=Visibility.SECRET)

    # -- derived values, written with the state and checked when read back ----------

    @computed(doc="labels only: seat 0 plays white, seat 1 black")
    def colors(self) -> Colors:
        return COLORS

    @computed(doc="whether the doubling cube is in play in this game: the `cube` option "
                                      "(auto: match play only), and not the Crawford game; when false the cube "
                                      "stays at 1 in the middle")
    def cube_enabled(self) -> bool:  # noqa: D401
        return _cube_enabled(self)

    @computed(doc="the pip count per seat (the bar counts 25)")
    def pips(self) -> Pips:
        b, points = self.bar, self.points
        return 25 * b[0] + sum(map(mul, points[0], _POINT_NUMBERS)), 25 * b[1] + sum(map(mul, points[1], _POINT_NUMBERS))

    position_id = computed(_id(0), doc="GNU BG's Position ID (docs/rules/backgammon.md §9.1)")
    match_id = computed(_id(1), doc="GNU BG's Match ID (docs/rules/backgammon.md §9.2)")
    xgid = computed(_id(2), doc="eXtreme Gammon's XGID (docs/rules/backgammon.md §9.3)")

    # -- the engine's views of the fields ---------------------------------------------

    @property
    def sides(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Per seat, 26 counts in the seat's own numbering: 0 borne off, 1..24 the points, 25 the bar."""
        p, b, o = self.points, self.bar, self.off
        return (o[0], *p[0], b[0]), (o[1], *p[1], b[1])

    def side(self, seat: int) -> tuple[int, ...]:
        return (self.off[seat], *self.points[seat], self.bar[seat])

    def opt(self, name: str) -> Any:  # an option by its name
        return getattr(self.options, name)

    @property
    def on_turn(self) -> int:
        """The seat on turn, in every phase but the opening roll (where nobody is)."""
        turn = self.turn
        assert turn is not None, "only the opening roll has nobody on turn"
        return turn

    @property
    def owner(self) -> int | None:
        return self.cube.owner

    @property
    def offered(self) -> bool:
        return self.cube.offered

    @property
    def beavered(self) -> bool:
        return self.cube.beaver

    @property
    def raccooned(self) -> bool:
        return self.cube.raccoon

    @property
    def score(self) -> tuple[int, ...]:
        return self.match.score

    @property
    def crawford(self) -> bool:
        return self.match.crawford

    @property
    def post_crawford(self) -> bool:
        return self.match.post_crawford

    @property
    def resign_level(self) -> int:
        """0, or the level (1..3) the player on turn offers to resign."""
        r = self.resign
        return 0 if r is None else LEVELS.index(r) + 1


# --------------------------------------------------------------------------- moves


@declared
class Roll:
    """Roll the dice (two, or one each in the opening); ``dice`` records physical dice."""

    dice: tuple[int, int] | None = field(default=None, doc=(
        "physical dice (stateless play only; a session rolls them): two numbers 1..6, in the opening "
        "seat 0's die then seat 1's"))
    kind: ClassVar[str] = "roll"
    label: ClassVar[Label] = Label("Roll the dice", "Rzuć kostkami")


Step = Annotated[tuple[Point, Point], Doc("[from, to]: bar 25, off 0")]


@declared
class Play:
    """A whole turn: checker ``steps`` ``[[13, 7], [7, 3]]`` (bar 25, off 0) and/or its ``notation``
    (``"13/7/3"``); ``steps: []`` is the forfeited turn when nothing can be played."""

    steps: Annotated[tuple[Step, ...], Length(0, 4)] | None = field(
        default=None, doc="the checker steps [from, to] (bar 25, off 0); optional when `notation` is given")
    notation: Annotated[str, Length(0, 200)] | None = field(
        default=None, doc="the play in standard notation (\"13/7 8/5\", \"bar/20*\", \"6/off\", \"8/5(2)\")")
    kind: ClassVar[str] = "move"
    label: ClassVar[Label] = Label("Move checkers", "Przesuń pionki")


@declared
class Double:
    """Offer a double before rolling (§6.1)."""

    kind: ClassVar[str] = "double"
    label: ClassVar[Label] = Label("Double", "Dubluj")


@declared
class Take:
    """Take the double (or the beaver, or the raccoon) and own the cube."""

    kind: ClassVar[str] = "take"
    label: ClassVar[Label] = Label("Take", "Przyjmij")


@declared
class Drop:
    """Drop the double: the game ends, the doubler scores the cube as it stood."""

    kind: ClassVar[str] = "drop"
    label: ClassVar[Label] = Label("Drop", "Odrzuć")


@declared
class Beaver:
    """Take and redouble at once, keeping the cube (§6.2)."""

    kind: ClassVar[str] = "beaver"
    label: ClassVar[Label] = Label("Beaver", "Bóbr")


@declared
class Raccoon:
    """Take the beaver and redouble once more (§6.3)."""

    kind: ClassVar[str] = "raccoon"
    label: ClassVar[Label] = Label("Raccoon", "Szop")


@declared
class Resign:
    """Offer to resign the game at a level (§8)."""

    level: Level = field(default="single", doc="single, gammon or backgammon")
    kind: ClassVar[str] = "resign"
    label: ClassVar[Label] = Label("Resign", "Poddaj partię")


@declared
class AcceptResignation:
    kind: ClassVar[str] = "accept-resignation"
    label: ClassVar[Label] = Label("Accept the resignation", "Przyjmij poddanie")


@declared
class RejectResignation:
    kind: ClassVar[str] = "reject-resignation"
    label: ClassVar[Label] = Label("Reject the resignation", "Odrzuć poddanie")


Move = Roll | Play | Double | Take | Drop | Beaver | Raccoon | Resign | AcceptResignation | RejectResignation | NextRound
MOVES = (Roll, Play, Double, Take, Drop, Beaver, Raccoon, Resign, AcceptResignation, RejectResignation, NextRound)
MOVE_KINDS = tuple(m.kind for m in MOVES)


# --------------------------------------------------------------------------- setup, tally, breakdown


@declared
class Setup:
    """A position to start from: ``{"position_id", "match_id"?}`` or ``{"xgid"}`` (§9.4)."""

    # the IDs' own readers check them (bad-position-id, bad-match-id, bad-xgid), not a pattern
    position_id: Annotated[str, Length(0, 100)] | None = field(
        default=None, doc="GNU BG's Position ID: 14 Base64 characters")
    match_id: Annotated[str, Length(0, 100)] | None = field(
        default=None, doc="GNU BG's Match ID: 12 Base64 characters (with position_id)")
    xgid: Annotated[str, Length(0, 200)] | None = field(default=None, doc="eXtreme Gammon's XGID (XGID=...)")


@declared
class Tally:
    """A finished game's score sheet: who won, the cube, and the final board (the winner has all 15
    checkers off), docs/rules/backgammon.md §10."""

    winner: Seat
    points: Board = field(doc="per seat, points 1..24 in that seat's own numbering")
    bar: PerSeat
    off: PerSeat
    cube: CubeValue = field(default=1, doc="the cube value, a power of two")
    owner: Seat | None = field(default=None, doc="the cube's owner; null when centred")
    jacoby: bool = field(default=False, doc="the Jacoby rule (money play only)")
    match_length: Annotated[int, Range(0, MAX_MATCH)] = field(default=0, doc="0 for money play")


@declared
class Breakdown:
    """One seat's points of a game: how it ended, the cube, the multiplier, and the board."""

    result: Literal["single", "gammon", "backgammon", "drop"] | None = field(doc="the winner's result: single, gammon, backgammon or drop; "
                                                       "null for the loser and while the game is played")
    how: Literal["bear-off", "drop", "resign"] | None = field(doc="how the winner won; null for the loser")
    cube: CubeValue = field(doc="the cube")
    multiplier: Annotated[int, Range(0, 3)] = field(doc="the winner's multiplier (1..3); 0 for the loser")
    pips: Annotated[int, Range(0, 375)] = field(doc="the seat's pip count")
    borne_off: Count = field(doc="the seat's checkers borne off")
    match_score: Annotated[int, Range(0, 3 * CUBE_LIMIT)] = field(
        doc="the seat's match score after the game (a tally: this game's points)")
    points: Annotated[int, Range(0, 3 * CUBE_LIMIT)] = field(doc="the game's points")
