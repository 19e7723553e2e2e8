"""Northcott's game ("Gra Northcotta"): the seed's dice game, with the classic game as an option.

The rules as applied here, each ruling with its source and option: ``docs/rules/northcott.md``
(section numbers below refer to it).

- §2: 8 files, one pawn of seat 0 (White) and one of seat 1 (Black) per file; ``board``
  ``"8x8"`` (default), ``"8x10"``, ``"8x12"``.
- §3: the setup: file by file from a to h, seat 0 rolls for its pawn in that file, then seat 1;
  1 or 5 places it on the 1st rank from the player's own edge, 2 or 6 on the 2nd, 3 or 4 on
  the 3rd (``placement = "choose-file"``: the roller names the file). Seat 0 moves first
  (``first_player = "higher-roll"``: both roll one die, the higher starts).
- §4: dice game (default): a pawn goes forward 1, 2 or 3 squares; every square passed over and
  the target must be empty (no jumping, no captures). ``variant = "classic"``: any distance,
  towards or away from the enemy pawn, never past it or off the board.
- §5: a player with no legal move on his turn loses (``misere``: wins). The classic game may
  never end under random play (moves away are reversible); no move limit is imposed.

Moves (JSON ``kind``):
- ``roll``: ``{"kind": "roll"}`` draws the die (or the two first-player dice) from the
  state's rng; ``{"kind": "roll", "dice": [4]}`` (or ``[5, 2]``: seat 0's, seat 1's) carries
  physical dice.
- ``place``: ``{"kind": "place", "file": "c"}`` (choose-file placement only).
- ``move``: ``{"kind": "move", "from": "c2", "to": "c4"}``.

State (§7, the declared :class:`State`): ``pawns`` lists, for seat 0 then seat 1, the absolute
rank (1-based, from seat 0's edge) of each file's pawn, or null before it is placed; ``colors``
is the label ``["white", "black"]``; ``phase`` is ``setup``, ``first-roll``, ``play`` or, once
the game has ended, ``game-over``; ``turn`` is the seat to act (null in the first-player roll,
where both act, and once the game is over); ``result`` is null until the game ends, then
``{"winner", "reason"}``; ``die`` is a rolled die awaiting its ``place`` move. Nothing is
hidden; views only drop the rng. ``check_state`` refuses states play cannot reach (§7).
Scores: 1 for the winner, 0 for the loser.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any, ClassVar, Literal, get_args

from rules.base import (
    SETUP_UNSUPPORTED,
    TALLY_UNSUPPORTED,
    BaseEngine,
    Die,
    GameCodes,
    Label,
    Outcome,
    Rng,
    ScoreReport,
    excerpt,
    illegal,
    invalid,
    replace,
)
from rules.boards import COLORS, FILES, square_name
from rules.events import event
from rules.jsontypes import Json
from rules.shapes import Doc, Length, OneOf, Pattern, Range, Visibility, computed, declared, field, option
from rules.spec import GameSpec, Playout, phase_labels

_GAME = "northcott"
_FILES = 8
_DIE_RANK = {1: 1, 5: 1, 2: 2, 6: 2, 3: 3, 4: 3}  # die -> rank from the player's own edge (§3.2)
_COLOUR = ("White", "Black")
_BOARDS = {"8x8": 8, "8x10": 10, "8x12": 12}
_MAX_RANKS = 12


# --------------------------------------------------------------------------- shapes

Seat = Annotated[int, Range(0, 1)]
Rank = Annotated[int, Range(1, _MAX_RANKS), Doc("an absolute rank, 1-based from seat 0's edge")]
Row = Annotated[tuple[Rank | None, ...], Length(_FILES, _FILES)]
Square = Annotated[str, Pattern("^[a-h]([1-9]|1[0-2])$"), Doc("a square, a1..h12")]
Colors = Annotated[tuple[Annotated[str, OneOf(COLORS)], ...], Length(2, 2)]
Reason = Literal["cannot-move", "cannot-move-misere"]
REASONS: tuple[str, ...] = get_args(Reason)  # why a game ends (``result.reason``): normal play, misère


class Phase(Enum):
    SETUP = "setup"
    FIRST_ROLL = "first-roll"
    PLAY = "play"
    GAME_OVER = "game-over"


@declared
class Options:
    variant: Literal["dice", "classic"] = option(
        default="dice",
        description="'dice': the seed's game (forward 1-3 squares); 'classic': any distance, towards or away "
                    "(docs/rules/northcott.md §4).",
        label=Label("Variant", "Wariant"),
        help=Label("The dice game moves pawns forward 1-3 squares; the classic game any distance, either way.",
                   "W grze z kostką pionek idzie o 1-3 pola do przodu; w klasycznej o dowolną liczbę pól w obie "
                   "strony."),
        choices={"dice": Label("Dice game", "Gra z kostką"), "classic": Label("Classic game", "Gra klasyczna")})
    board: Literal["8x8", "8x10", "8x12"] = option(
        default="8x8",
        description="Board size, files x ranks (docs/rules/northcott.md §2).",
        label=Label("Board", "Plansza"),
        help=Label("The board's size: 8 files and 8, 10 or 12 ranks.", "Rozmiar planszy: 8 kolumn i 8, 10 lub 12 "
                   "rzędów."),
        choices={"8x8": Label("8 × 8", "8 × 8"), "8x10": Label("8 × 10", "8 × 10"),
                 "8x12": Label("8 × 12", "8 × 12")})
    placement: Literal["in-order", "choose-file"] = option(
        default="in-order",
        description="'in-order': files a..h, seat 0 then seat 1; 'choose-file': the roller picks the file "
                    "(docs/rules/northcott.md §3.2).",
        label=Label("Placement", "Ustawianie pionków"),
        help=Label("Which file each rolled pawn goes to.", "Do której kolumny trafia pionek po rzucie."),
        choices={"in-order": Label("File by file, a to h", "Kolumna po kolumnie, od a do h"),
                 "choose-file": Label("The roller chooses the file", "Rzucający wybiera kolumnę")})
    first_player: Literal[0, "higher-roll"] = option(
        default=0,
        description="Who moves first after the setup: seat 0 (White), or the higher roll of one die each "
                    "(docs/rules/northcott.md §3.4).",
        label=Label("First player", "Kto zaczyna"),
        help=Label("Who makes the first move once all pawns stand.",
                   "Kto wykonuje pierwszy ruch, gdy wszystkie pionki już stoją."),
        choices={0: Label("Seat 0 (White)", "Gracz 0 (białe)"),
                 "higher-roll": Label("The higher roll of one die each", "Wyższy rzut jedną kostką")})
    misere: bool = option(
        default=False,
        description="Misère: the player who cannot move wins (docs/rules/northcott.md §5.2).",
        label=Label("Misère", "Misère (odwrotna)"),
        help=Label("The player who cannot move wins instead of losing.",
                   "Gracz, który nie może się ruszyć, wygrywa zamiast przegrać."))

    @property
    def ranks(self) -> int:
        return _BOARDS[self.board]

    @property
    def classic(self) -> bool:
        return self.variant == "classic"

    @property
    def choose_file(self) -> bool:
        return self.placement == "choose-file"

    @property
    def roll_first(self) -> bool:
        return self.first_player == "higher-roll"


@declared
class Result:
    """How the game ended."""

    winner: Seat = field(doc="the winning seat")
    reason: Reason = field(
        doc="'cannot-move': the player to move could not and lost; 'cannot-move-misere': ... and won (misère)")


@declared
class State:
    players: Annotated[int, Range(2, 2)]
    options: Options
    phase: Phase
    turn: Seat | None = field(doc="the seat to act; null in the first-player roll (both act) and once the game is over")
    pawns: Annotated[tuple[Row, ...], Length(2, 2)] = field(
        doc="for seat 0, then seat 1: the rank of its pawn in files a..h, or null before that pawn is placed")
    die: Die | None = field(
        doc="a die rolled and awaiting its place move (choose-file placement), or null")
    result: Result | None = field(doc="null while the game runs, then how it ended")
    rng: Rng = field(visibility=Visibility.SECRET, doc="the seeded generator of the rolls")

    @computed(required=True)
    def colors(self) -> Colors:
        """the seats' colours, labels only: always ["white", "black"] (seat 0 is White)"""
        return COLORS


@declared
class Roll:
    """Roll the die for a pawn (or both first-player dice); ``dice`` carries physical dice."""

    dice: Annotated[tuple[int, ...], Length(1, 2)] | None = field(
        default=None, doc="physical dice: one die, or seat 0's and seat 1's for the first player; absent: the "
                          "state's rng rolls")
    kind: ClassVar[str] = "roll"
    label: ClassVar[Label] = Label("Roll the die", "Rzuć kostką")


@declared
class Place:
    """Place the rolled pawn in a file where the roller has none yet (choose-file, §3.2)."""

    file: Annotated[str, OneOf(tuple(FILES)), Doc("a file, a..h")]
    kind: ClassVar[str] = "place"
    label: ClassVar[Label] = Label("Place the pawn", "Postaw pionek")


@declared
class Step:
    """Move one's pawn along its file (§4)."""

    frm: Square = field(json_name="from", doc="the square of the pawn that moves")
    to: Square = field(doc="the square it moves to, in the same file")
    kind: ClassVar[str] = "move"
    label: ClassVar[Label] = Label("Move a pawn", "Przesuń pionek")


Move = Roll | Place | Step


@declared
class Breakdown:
    """One seat's result and points."""

    result: Literal["win", "loss"] | None = field(doc="the seat's result; null while the game runs")
    points: Annotated[int, Range(0, 1)] = field(doc="1 for the winner, 0 otherwise")


# --------------------------------------------------------------------------- codes (DESIGN 4.4)


class C(GameCodes, namespace=_GAME):
    """Every code Northcott's game answers (DESIGN 4.4); Polish in the seed's words ("pionek",
    "rząd", "rzut kostką")."""

    setup_unsupported = SETUP_UNSUPPORTED
    tally_unsupported = TALLY_UNSUPPORTED
    wrong_phase = illegal(
        Label("Not in this phase", "Nie w tej fazie gry"),
        "Teraz trwa faza {got}: kostką rzuca się tylko przy ustawianiu pionków i o pierwszy ruch, "
        "a pionki przesuwa się dopiero po ustawieniu wszystkich.",
        "Dice are rolled only in the setup and the first-player roll; pawns move only once all 16 stand.",
        "Kostką rzuca się tylko przy ustawianiu i w rzucie o pierwszy ruch; pionki rusza się dopiero, gdy "
        "stoi wszystkie 16.")
    place_first = illegal(
        Label("Place the pawn first", "Najpierw postaw pionek"),
        "Na kostce wypadło już {die}: wybierz kolumnę dla pionka ruchem place.",
        "The die is rolled and its pawn waits to be placed: send `place` with a file.",
        "Kostka jest rzucona, a pionek czeka na postawienie: wyślij `place` z kolumną.")
    bad_dice = illegal(
        Label("Impossible roll", "Niemożliwy rzut"),
        "W tym rzucie liczba kostek to {expected}, a każda pokazuje od 1 do 6 oczek; podano {got}.",
        "Physical dice: one die for a pawn, two (seat 0's, seat 1's) for the first player, each 1..6.",
        "Kostki z rzutu przy stole: jedna dla pionka, dwie (gracza 0 i gracza 1) o pierwszy ruch, każda 1..6.")
    tied_roll = illegal(
        Label("Tied roll", "Remis w rzucie"),
        "W rzucie o pierwszy ruch wypadło {got}, czyli po równo: rzućcie jeszcze raz.",
        "The first-player dice are equal: roll again.", "W rzucie o pierwszy ruch wypadło po równo: rzućcie znowu.")
    roll_first = illegal(
        Label("Roll first", "Najpierw rzut kostką"),
        "Pionek stawia się dopiero po rzucie kostką, który wyznacza jego rząd.",
        "A pawn is placed only after its die is rolled (choose-file placement): send `roll` first.",
        "Pionek stawia się dopiero po rzucie kostką (wybór kolumny): najpierw wyślij `roll`.")
    file_taken = illegal(
        Label("File taken", "Kolumna zajęta"),
        "Masz już pionek w kolumnie {file}: każdy pionek stoi w innej kolumnie.",
        "The roller already has a pawn in that file; choose a file without one.",
        "Rzucający ma już pionek w tej kolumnie; wybierz kolumnę bez jego pionka.")
    no_own_pawn = illegal(
        Label("Not your pawn", "To nie twój pionek"),
        "Na polu {from} nie stoi twój pionek; twój pionek w tej kolumnie stoi na {expected}.",
        "The move starts from a square without the mover's pawn; `expected` names where it stands.",
        "Ruch zaczyna się z pola bez pionka grającego; `expected` podaje, gdzie on stoi.")
    no_move = illegal(
        Label("No move", "Brak ruchu"), "Ruch {from}-{to} nie przesuwa pionka.",
        "`from` and `to` are the same square: a move must move the pawn.",
        "`from` i `to` to to samo pole: ruch musi przesunąć pionek.")
    not_forward = illegal(
        Label("Not forward", "Ruch do tyłu"),
        "Ruch {from}-{to} nie idzie do przodu, a każdy pionek może się poruszać wyłącznie do przodu.",
        "In the dice game a pawn moves only forward, towards the enemy edge.",
        "W grze z kostką pionek porusza się tylko do przodu, w stronę brzegu przeciwnika.")
    too_far = illegal(
        Label("Too far", "Za daleko"),
        "Ruch {from}-{to} jest za długi: pionek przesuwa się o jedno, dwa lub trzy pola.",
        "In the dice game a pawn moves 1, 2 or 3 squares.", "W grze z kostką pionek przesuwa się o 1, 2 lub 3 pola.")
    blocked = illegal(
        Label("Blocked", "Droga zablokowana"),
        "Ruch {from}-{to} przeskakuje pionek przeciwnika na {square} albo na nim staje; nie wolno przeskakiwać "
        "pionków.",
        "A pawn never reaches or passes the enemy pawn of its file.",
        "Pionek nigdy nie staje na pionku przeciwnika w swojej kolumnie ani go nie przeskakuje.")
    off_board = illegal(
        Label("Off the board", "Poza planszą"), "Ruch {from}-{to} wychodzi poza planszę.",
        "The target square is beyond the board's last rank (the option `board` sets the ranks).",
        "Pole docelowe leży poza ostatnim rzędem planszy (liczbę rzędów ustala opcja `board`).")
    not_same_file = illegal(
        Label("Not along the file", "Zmiana kolumny"),
        "Ruch {from}-{to} zmienia kolumnę; pionek porusza się tylko wzdłuż swojej kolumny.",
        "A pawn moves along its own file: `from` and `to` must share the file letter.",
        "Pionek porusza się wzdłuż swojej kolumny: `from` i `to` muszą mieć tę samą literę kolumny.")
    bad_turn = invalid(
        Label("Impossible turn", "Niemożliwa kolej"),
        "W tej pozycji nie może być kolej tego gracza (turn): nie zgadza się z fazą gry albo z liczbą ruchów, "
        "które pionki musiały wykonać.",
        "The seat to act does not follow from the phase (both roll for the first move: turn null) or, in the "
        "dice game, from the moves the pawns' advances require.",
        "Gracz, na którego przypada kolej, nie wynika z fazy gry (o pierwszy ruch rzucają obaj: turn null) albo, "
        "w grze z kostką, z liczby ruchów, których wymagają pozycje pionków.")
    bad_rank = invalid(
        Label("Impossible rank", "Niemożliwy rząd"),
        "Pionki to dwie listy po 8 kolumn, a każdy pionek stoi w rzędzie planszy (albo jeszcze nie stoi).",
        "A pawn stands beyond the board's last rank (the option `board` sets the ranks).",
        "Pionek stoi poza ostatnim rzędem planszy (liczbę rzędów ustala opcja `board`).")
    pawns_crossed = invalid(
        Label("Pawns crossed", "Pionki się minęły"),
        "W kolumnie {file} pionki stoją na jednym polu albo się minęły, a nie wolno przeskakiwać pionków.",
        "In every file seat 0's pawn stands below seat 1's: pawns never meet or pass.",
        "W każdej kolumnie pionek gracza 0 stoi niżej niż pionek gracza 1: pionki nigdy się nie spotykają "
        "ani nie mijają.")
    bad_setup = invalid(
        Label("Impossible setup", "Niemożliwe ustawienie"),
        "Ustawienie pionków jest niemożliwe: rzut kostką stawia pionek w jednym z trzech pierwszych rzędów "
        "od brzegu gracza, gracze ustawiają na zmianę, a gra zaczyna się po ustawieniu wszystkich 16 pionków.",
        "In the setup pawns stand on their three home ranks, placed in turn (in file order unless choose-file); "
        "after it all 16 stand.",
        "Przy ustawianiu pionki stoją w trzech rzędach przy brzegu gracza, stawiane na zmianę (kolumnami po kolei, "
        "chyba że wybiera się kolumnę); potem stoi wszystkie 16.")
    bad_phase = invalid(
        Label("Impossible phase", "Niemożliwa faza gry"),
        "Rzut o pierwszy ruch odbywa się tylko przy opcji higher-roll, zanim jakikolwiek pionek się ruszy.",
        "A first-player roll happens only with first_player 'higher-roll', before any pawn has moved.",
        "Rzut o pierwszy ruch jest tylko przy first_player 'higher-roll', zanim ruszy się jakikolwiek pionek.")
    bad_die = invalid(
        Label("Impossible die", "Niemożliwa kostka"),
        "Kostka czeka na postawienie pionka tylko przy wyborze kolumny (choose-file) w czasie ustawiania.",
        "`die` is set only in the setup with choose-file placement, between a roll and its place move.",
        "`die` jest ustawione tylko przy ustawianiu z wyborem kolumny, między rzutem a postawieniem pionka.")
    bad_result = invalid(
        Label("Result disagrees", "Wynik się nie zgadza"),
        "Zapisany wynik nie wynika z pozycji: gra kończy się, gdy gracz, na którego kolej, nie może ruszyć "
        "żadnym pionkiem.",
        "`phase`, `turn` and `result` must agree with the position: the game is over (phase 'game-over', turn "
        "null, a result) exactly when the player to move cannot move, and the result names the right winner and "
        "reason.",
        "`phase`, `turn` i `result` muszą zgadzać się z pozycją: gra jest skończona (faza 'game-over', turn null, "
        "wynik) dokładnie wtedy, gdy gracz na ruchu nie może się ruszyć, a wynik podaje właściwego zwycięzcę i "
        "powód.")


@event
class RngRollEvent:
    """The server rolled the die from the state's rng: what it showed, so a log can say it (a pawn's
    rank does not: 1 and 5 both give rank 1, §3.2)."""

    type: Literal["rng-roll"] = "rng-roll"
    seat: Seat
    dice: Annotated[tuple[Die, ...], Length(1, 2)] = field(
        doc="the die for a pawn; in the first-player roll seat 0's and seat 1's, the pair that decided (ties are "
            "rolled again)")
    draws: int = field(doc="how many draws the roll took from the rng (its counter's advance)")


SPEC = GameSpec(
    id=_GAME,
    name="Northcott's game (dice variant; classic as an option)",
    label=Label("Northcott's game", "Gra Northcotta"),
    players=range(2, 3),
    options=Options,
    state=State,
    moves=(Roll, Place, Step),
    phases=phase_labels(Phase, SETUP=Label("Setup", "Ustawianie pionków"),
                        FIRST_ROLL=Label("Roll for the first move", "Rzut o pierwszy ruch")),
    codes=C,
    breakdown=Breakdown,
    terms={
        "white": Label("White", "Białe"), "black": Label("Black", "Czarne"), "pawn": Label("Pawn", "Pionek"),
        "die": Label("Die", "Kostka"), "result": Label("Result", "Wynik"), "win": Label("Win", "Wygrana"),
        "loss": Label("Loss", "Przegrana"), "points": Label("Points", "Punkty"), "file": Label("File", "Kolumna"),
        "round": Label("Game", "Partia"),
        # the log's sentences (service/static/play/log.js fills the {names})
        "move:roll": Label("{seat} rolled the die", "{seat} rzuca kostką"),
        "move:place": Label("{seat} placed a pawn on file {file}", "{seat} stawia pionek w kolumnie {file}"),
        "move:move": Label("{seat} moved {from}–{to}", "{seat} przesuwa pionek {from}–{to}"),
        "event:rng-roll": Label("Rolled: {dice}", "Wypadło: {dice}"),
    },
    # classic Northcott (pawns may retreat) never ends under random play: the playouts use the
    # dice game, and its classic game is what plays long (the benchmarks' 1,000-move replay)
    playout=Playout(options={"variant": "dice"}, endless={"variant": "classic"}, long_players=2,
                    long_options={"variant": "classic"}),
    events=(RngRollEvent,),
)


# --------------------------------------------------------------------------- engine


def _rolled(state: State, roll: Roll) -> tuple[tuple[int, ...], Rng]:
    """The dice a roll shows and the rng after it: the physical dice sent, else drawn from the state's
    rng (the first-player pair drawn again while tied). The same draws every time, so ``emit`` can
    say what ``_apply`` rolled."""
    if state.phase is Phase.FIRST_ROLL:
        dice, rng = roll.dice, state.rng
        while dice is None or dice[0] == dice[1]:
            dice, rng = rng.dice(2)
        return dice, rng
    if roll.dice is not None:
        return roll.dice[:1], state.rng
    return state.rng.dice(1)


class Northcott(BaseEngine[State, Move]):
    spec = SPEC

    def new_game(self, players: int, rng: Rng, options: Options, setup: None = None) -> State:
        empty = (None,) * _FILES
        return State(players, options, Phase.SETUP, 0, (empty, empty), None, None, rng)

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase is Phase.GAME_OVER:
            return frozenset()
        if state.phase is Phase.FIRST_ROLL:
            return frozenset((0, 1))
        return frozenset((state.turn,))  # type: ignore[arg-type]  # a setup or play state has a turn

    # -- legality ------------------------------------------------------------------

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        if state.phase is not Phase.PLAY:
            if state.die is not None:
                return [Place(FILES[f]) for f in _open_files(state, seat)]
            return [Roll()]
        own = state.pawns[seat]
        return [Step(_SQUARE_NAME[f, own[f]], _SQUARE_NAME[f, to])  # type: ignore[index]
                for f in range(_FILES) for to in _targets(state, seat, f)]

    def move_from_json(self, data: Json) -> Move:
        """The declared reader, and a step along one file (what ``from`` and ``to`` say together)."""
        move = super().move_from_json(data)
        if isinstance(move, Step):
            _same_file(move)
        return move

    def check(self, state: State, seat: int, move: Move) -> None:
        self.check_turn(state, seat)
        if move.__class__ is Step and state.phase is Phase.PLAY:
            file, frm = _SQUARES[move.frm]
            to_file, to = _SQUARES[move.to]
            if file == to_file and state.pawns[seat][file] == frm and to in _targets(state, seat, file):
                return  # a legal step (a target passes every check below): no refusal messages made
        if isinstance(move, Roll):
            if state.phase is Phase.PLAY:
                raise C.wrong_phase("dice are rolled only during the setup and for the first player; now pawns move",
                                    got=state.phase.value)
            if state.die is not None:
                raise C.place_first(f"the die already shows {state.die}: choose the file for your pawn with a "
                                    "'place' move", die=state.die)
            if move.dice is not None:
                count = 2 if state.phase is Phase.FIRST_ROLL else 1
                dice = list(move.dice)
                if len(move.dice) != count or not all(1 <= d <= 6 for d in move.dice):
                    raise C.bad_dice(f"this roll is {count} die/dice showing 1..6, got {dice}", expected=count,
                                     got=dice)
                if count == 2 and move.dice[0] == move.dice[1]:
                    raise C.tied_roll(f"the first-player roll {dice} is a tie: roll again", got=dice)
        elif isinstance(move, Place):
            if state.phase is not Phase.SETUP or state.die is None:
                raise C.roll_first("a pawn is placed only after its die is rolled (placement 'choose-file')")
            if _FILE_INDEX[move.file] not in _open_files(state, seat):
                raise C.file_taken(f"you already have a pawn in file {move.file!r}", file=move.file)
        else:
            file, frm, to = _same_file(move)
            if state.phase is not Phase.PLAY:
                raise C.wrong_phase(f"pawns move only after the setup; now is the {state.phase.value} phase",
                                    got=state.phase.value)
            where = {"from": move.frm, "to": move.to}
            own, enemy = state.pawns[seat][file], state.pawns[1 - seat][file]
            assert own is not None and enemy is not None  # every pawn stands in play
            if own != frm:
                raise C.no_own_pawn(f"your pawn in file {FILES[file]} is on {_name(file, own)}, not {move.frm}",
                                    **where, expected=_name(file, own))
            forward = 1 if seat == 0 else -1
            step = (to - frm) * forward
            if step == 0:
                raise C.no_move(f"{move.frm}-{move.to} does not move the pawn", **where)
            if not state.options.classic:
                # "Każdy pionek może się poruszać wyłącznie do przodu" (forward only) ...
                if step < 0:
                    raise C.not_forward(f"{move.frm}-{move.to} is not a forward move", **where)
                # ... "przesuwając pionek o jedno, dwa lub trzy pola" (1, 2 or 3 squares)
                if step > 3:
                    raise C.too_far(f"{move.frm}-{move.to} moves {step} squares; at most 3", **where, got=step)
            # "Nie wolno przeskakiwać pionków": the squares passed and the target must be empty
            if step > 0 and (enemy - to) * forward <= 0:
                raise C.blocked(f"{move.frm}-{move.to} would {'land on' if enemy == to else 'jump'} the enemy pawn "
                                f"on {_name(file, enemy)}", **where, square=_name(file, enemy))
            if to not in _targets(state, seat, file):
                raise C.off_board(f"{move.frm}-{move.to} leaves the board", **where)

    def _apply(self, state: State, seat: int, move: Move) -> State:
        if isinstance(move, Roll):
            dice, rng = _rolled(state, move)
            if state.phase is Phase.FIRST_ROLL:
                return _finish(replace(state, rng=rng, phase=Phase.PLAY, turn=0 if dice[0] > dice[1] else 1))
            die = dice[0]
            state = replace(state, rng=rng)
            if state.options.choose_file:
                return replace(state, die=die)
            return _place(state, seat, _open_files(state, seat)[0], die)
        if isinstance(move, Place):
            assert state.die is not None  # checked: a place follows its roll
            return _place(state, seat, _FILE_INDEX[move.file], state.die)
        file, _, to = _same_file(move)
        return _finish(replace(state, pawns=_moved(state.pawns, seat, file, to), turn=1 - seat))

    def emit(self, before: State, seat: int, move: Move, after: State) -> list[Any]:
        out = super().emit(before, seat, move, after)
        if isinstance(move, Roll) and move.dice is None:
            drawn = after.rng.counter - before.rng.counter
            out.insert(1, RngRollEvent(seat=seat, dice=_rolled(before, move)[0], draws=drawn))
        return out

    # -- results -------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        result = state.result
        if result is None:
            return None
        winner = result.winner
        return Outcome((winner,), result.reason, points=(1 - winner, winner))

    def scores(self, state: State) -> ScoreReport:
        result = state.result
        if result is None:
            points = (0, 0)
            breakdown = tuple(Breakdown(result=None, points=0) for _ in range(2))
            return ScoreReport(points, points, breakdown, False, round=1)
        winner = result.winner
        points = (1 - winner, winner)
        breakdown = tuple(Breakdown(result="win" if seat == winner else "loss", points=points[seat]) for seat in (0, 1))
        return ScoreReport(points, points, breakdown, True, (winner,), round=1)

    def round_over(self, state: State) -> bool:
        return state.result is not None

    # -- meaning -------------------------------------------------------------------

    def check_state(self, state: State) -> State:
        """What play can reach, beyond the shape (§7): pawns on the board and never crossed, a
        setup placed in turn on the home ranks, a first-player roll only where it happens, a die
        only where a place move is due, and a phase, turn and result the position gives."""
        opts, phase, turn, die = state.options, state.phase, state.turn, state.die
        white, black = state.pawns
        for seat, ranks in enumerate(state.pawns):
            if any(r is not None and r > opts.ranks for r in ranks):
                raise C.bad_rank(f"pawns[{seat}] must list ranks 1..{opts.ranks} (or null) on a {opts.board} board, "
                                 f"got {excerpt(list(ranks))}")
        placed = (sum(r is not None for r in white), sum(r is not None for r in black))
        for f in range(_FILES):
            w, b = white[f], black[f]
            if w is not None and b is not None and w >= b:
                raise C.pawns_crossed(f"file {FILES[f]}: White's pawn on rank {w} is not below Black's on {b}; "
                                      "pawns never pass each other", file=FILES[f])
        if phase is Phase.SETUP:
            if not (placed[0] - placed[1] in (0, 1) and turn == placed[0] - placed[1] and placed[1] < _FILES):
                raise C.bad_setup(f"White has placed {placed[0]} and Black {placed[1]} pawns: turn {excerpt(turn)} is "
                                  "not the seat to place")
            for seat, ranks in enumerate(state.pawns):
                for f, r in enumerate(ranks):
                    if r is not None and _home(opts, seat, r) >= 3:
                        raise C.bad_setup(f"{_COLOUR[seat]}'s pawn in file {FILES[f]} is not on the 3 ranks nearest "
                                          "its edge")
                    if not opts.choose_file and (r is not None) != (f < placed[seat]):
                        raise C.bad_setup(f"placement is in file order, but {_COLOUR[seat]}'s files are "
                                          f"{''.join(FILES[g] for g in range(_FILES) if ranks[g] is not None)!r}")
        elif placed != (_FILES, _FILES):
            raise C.bad_setup(f"the {phase.value} phase needs all 16 pawns placed, got {placed[0]} + {placed[1]}")
        if phase is Phase.FIRST_ROLL:
            if not opts.roll_first:
                raise C.bad_phase("a first-player roll only happens with first_player 'higher-roll'")
            if turn is not None:
                raise C.bad_turn(f"both seats roll for the first move: turn must be null, got {turn}")
            if not all(_home(opts, seat, r) < 3 for seat in (0, 1) for r in state.pawns[seat]):  # type: ignore[arg-type]
                raise C.bad_phase("before the first move every pawn stands where the dice placed it")
        needs_die = opts.choose_file and phase is Phase.SETUP
        if die is not None and not needs_die:
            raise C.bad_die(f"die must be null here, got {die}")
        result = state.result
        if phase is Phase.GAME_OVER:
            if turn is not None or result is None:
                raise C.bad_result("once the game is over (phase 'game-over') turn is null and result says who won")
            if result.reason != _reason(opts):
                raise C.bad_result(f"the game ends with reason {_reason(opts)!r} under these options, got "
                                   f"{result.reason!r}")
            mover = result.winner if opts.misere else 1 - result.winner
            _check_moves_made(state, mover)
            if _can_move(state, mover):
                raise C.bad_result(f"seat {mover} can still move, so "
                                   f"{excerpt({'winner': result.winner, 'reason': result.reason})} has not happened")
            return state
        if result is not None:
            raise C.bad_result(f"the game ends only in the play phase, with phase 'game-over'; result must be null in "
                               f"the {phase.value} phase")
        if phase is not Phase.PLAY:
            return state
        if turn is None:
            raise C.bad_result("turn is null only once the game is over (phase 'game-over', with a result)")
        _check_moves_made(state, turn)
        if not _can_move(state, turn):
            raise C.bad_result(f"seat {turn} cannot move: the game is over, so the phase must be 'game-over', turn "
                               "null and result set")
        return state


# --------------------------------------------------------------------------- helpers


def _name(file: int, rank: int) -> str:
    """The square of ``file`` (0-based) and ``rank`` (1-based): (2, 4) -> "c4"."""
    return square_name(file, rank - 1)


#: "a1" -> (0, 1) ... "h12" -> (7, 12): file 0-based, rank 1-based; and back
_SQUARES = {_name(f, r): (f, r) for f in range(_FILES) for r in range(1, _MAX_RANKS + 1)}
_SQUARE_NAME = {square: name for name, square in _SQUARES.items()}
_FILE_INDEX = {name: f for f, name in enumerate(FILES)}


def _same_file(move: Step) -> tuple[int, int, int]:
    """(file, from rank, to rank) of a step; ``not-same-file`` when its squares are in two files."""
    (file, frm), (to_file, to) = _SQUARES[move.frm], _SQUARES[move.to]
    if file != to_file:
        raise C.not_same_file(f"{move.frm}-{move.to}: a pawn moves along its own file",
                              **{"from": move.frm, "to": move.to})
    return file, frm, to


def _moved(pawns: tuple[tuple[int | None, ...], ...], seat: int, file: int, rank: int
           ) -> tuple[tuple[int | None, ...], ...]:
    """``pawns`` with the pawn of ``seat`` in ``file`` on ``rank``."""
    own = list(pawns[seat])
    own[file] = rank
    return (tuple(own), pawns[1]) if seat == 0 else (pawns[0], tuple(own))


def _open_files(state: State, seat: int) -> list[int]:
    return [f for f, r in enumerate(state.pawns[seat]) if r is None]


def _targets(state: State, seat: int, file: int) -> list[int]:
    """Ranks the pawn of ``seat`` in ``file`` may move to (the one source of movement legality)."""
    own, enemy = state.pawns[seat][file], state.pawns[1 - seat][file]
    assert own is not None and enemy is not None  # every pawn stands in play
    forward = 1 if seat == 0 else -1
    gap = (enemy - own) * forward - 1
    if not state.options.classic:
        return [own + forward * k for k in range(1, min(gap, 3) + 1)]
    back = _home(state.options, seat, own)
    return [own + forward * k for k in range(1, gap + 1)] + [own - forward * k for k in range(1, back + 1)]


def _home(opts: Options, seat: int, rank: int) -> int:
    """How far ``rank`` (1-based, absolute) is from the edge of ``seat``: 0 on its first rank."""
    return rank - 1 if seat == 0 else opts.ranks - rank


def _check_moves_made(state: State, turn: int) -> None:
    """In the dice game every move takes a pawn 1-3 squares forward from the rank its die
    gave it (its first 3 ranks), and the players alternate from the first player: the moves each
    side must have made (between the fewest and the most its pawns' advances allow) must agree
    with ``turn``. Classic pawns may also retreat, so any count is possible there."""
    opts = state.options
    if opts.classic:
        return
    spans = []
    for seat in (0, 1):
        homes = [_home(opts, seat, r) for r in state.pawns[seat]]  # type: ignore[arg-type]  # all placed
        spans.append((sum(-(-max(0, h - 2) // 3) for h in homes), sum(homes)))
    firsts = (0, 1) if opts.roll_first else (0,)
    for first in firsts:
        other = 1 - first
        extra = 0 if turn == first else 1  # the first player has made one move more when it is not his turn
        lo = max(spans[first][0], spans[other][0] + extra)
        hi = min(spans[first][1], spans[other][1] + extra)
        if lo <= hi:
            return
    raise C.bad_turn(f"pawns that advanced {spans[0][0]}..{spans[0][1]} moves (White) and {spans[1][0]}..{spans[1][1]} "
                     f"(Black) cannot have left seat {turn} to move")


def _can_move(state: State, seat: int) -> bool:
    """Whether any file's ``_targets`` is non-empty, without listing them: a free square ahead
    (``gap`` >= 1), or in the classic game one behind (``back`` >= 1)."""
    forward = 1 if seat == 0 else -1
    classic, last = state.options.classic, state.options.ranks
    mine, theirs = state.pawns[seat], state.pawns[1 - seat]
    for f in range(_FILES):
        own, enemy = mine[f], theirs[f]
        assert own is not None and enemy is not None  # every pawn stands in play
        if (enemy - own) * forward - 1 >= 1:
            return True
        if classic and (own - 1 if seat == 0 else last - own) >= 1:
            return True
    return False


def _place(state: State, seat: int, file: int, die: int) -> State:
    home = _DIE_RANK[die]
    rank = home if seat == 0 else state.options.ranks + 1 - home
    state = replace(state, pawns=_moved(state.pawns, seat, file, rank), die=None, turn=1 - seat)
    if seat == 1 and None not in state.pawns[1]:
        if state.options.roll_first:
            return replace(state, phase=Phase.FIRST_ROLL, turn=None)
        return _finish(replace(state, phase=Phase.PLAY, turn=0))
    return state


def _finish(state: State) -> State:
    """In play, with ``turn`` to move: when he cannot move the game is over; he loses (wins under
    misere), nobody is to move any more (``turn`` null) and the phase is ``game-over``."""
    turn = state.turn
    if state.phase is not Phase.PLAY or turn is None or _can_move(state, turn):
        return state
    winner = turn if state.options.misere else 1 - turn
    return replace(state, phase=Phase.GAME_OVER, turn=None, result=Result(winner, _reason(state.options)))


def _reason(options: Options) -> Reason:
    return "cannot-move-misere" if options.misere else "cannot-move"


ENGINE = Northcott()

