"""Mak-yek ("May-Yek" in the seed): the Thai/Malay custodian-capture game on an 8x8 board.

The rules as applied here, each ruling with its source and option: ``docs/rules/mak-yek.md``
(section numbers below refer to it).

- §2: 8x8; seat 0 (White) fills ranks 1 and 3, seat 1 (Black) ranks 8 and 6 (16 men each).
- §3: a man slides like a rook over empty squares; no jumps, no passing, the target must be
  empty (no displacement captures, T8).
- §4: captures are made only by the mover, around the square moved to, and removed at once:
  custodian (an enemy man next to the landing square with a friendly man beyond it) and
  intervention (landing between two adjacent enemy men on a rank or file takes both). One move
  may combine them (T3, T4; option ``max_custodian_per_move``); ``line_custodian`` takes whole
  lines; the moving man is never captured (T7); men that already stood flanked stay (T6).
- §5: the player left with no men loses; a player who cannot move loses (or draws:
  ``no_legal_move``); draws by agreement, threefold repetition and a no-capture limit.
- §6: every option with its default and why; §9: ``may-yek`` is an alias.

Representation (§7): the declared :class:`State` below. Inside the engine the board is a
64-character string, index ``rank * 8 + file`` (rank 0 is rank 1); its JSON is 8 strings of
``W``, ``B`` and ``.``, rank 8 first (the :class:`Board` scalar). Sides are seats 0/1 (the
option ``first_player`` too); ``colors`` only labels them. ``turn`` is the seat to move (null
once the game is over: ``phase`` is then ``game-over`` and ``result`` says how it ended). For
repetition the state keeps ``positions``: the positions before each ply since the last capture,
each as 32 hex digits (White's then Black's 64-bit occupancy, bit ``rank * 8 + file``);
positions cannot repeat across a capture. Nothing is hidden and there is no chance.
``check_state`` refuses states play cannot reach (§7).

Square names come from ``rules/boards.py``, shared with Northcott.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Annotated, Any, ClassVar, Literal, cast, get_args

from rules.base import (
    SETUP_UNSUPPORTED,
    TALLY_UNSUPPORTED,
    BaseEngine,
    GameCodes,
    InvalidState,
    Label,
    Outcome,
    Rng,
    ScoreReport,
    excerpt,
    illegal,
    invalid,
    replace,
)
from rules.boards import COLORS, square_name
from rules.events import event
from rules.jsontypes import Json
from rules.shapes import Doc, Length, OneOf, Pattern, Range, Scalar, computed, declared, field, option, register_scalar
from rules.spec import GameSpec, Playout, phase_labels

_GAME = "mak-yek"
_SIZE = 8
_MEN = 16
_MAN = ("W", "B")
_COLOUR = ("White", "Black")
_EMPTY = "."
_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))
_AXES = (((1, 0), (-1, 0)), ((0, 1), (0, -1)))
_START = "W" * 8 + "." * 8 + "W" * 8 + "." * 16 + "B" * 8 + "." * 8 + "B" * 8
_UNLIMITED = "unlimited"
_MAX_PLIES = 1000


# --------------------------------------------------------------------------- shapes


class Board(str):
    """The board inside the engine: 64 cells ``W``, ``B`` or ``.``, index ``rank * 8 + file``.
    Its JSON is 8 strings, rank 8 first, file a first."""

    __slots__ = ()


_ROW = Pattern("^[WB.]{8}$")


def _board_rows(board: str) -> list[Json]:
    return [board[r * 8:(r + 1) * 8] for r in range(7, -1, -1)]


def _read_board(rows: Json) -> Board:
    if type(rows) is not list or len(rows) != _SIZE or not all(
            type(r) is str and len(r) == _SIZE and not r.strip("WB.") for r in rows):
        raise ValueError("not a board")
    return Board("".join(reversed(cast("list[str]", rows))))


register_scalar(Scalar(Board, {
    "type": "array", "minItems": 8, "maxItems": 8, "items": {"type": "string", "pattern": _ROW.regex},
    "description": "the board: 8 strings of 'W' (seat 0's men), 'B' (seat 1's) and '.', rank 8 first, file a first"},
    write=_board_rows, parse=_read_board))

Seat = Annotated[int, Range(0, 1)]
Square = Annotated[str, Pattern("^[a-h][1-8]$"), Doc("a square, a1..h8")]
PositionKey = Annotated[str, Pattern("^[0-9a-f]{32}$"),
                        Doc("a position: White's then Black's 64-bit occupancy (bit rank * 8 + file), 32 hex digits")]
Colors = Annotated[tuple[Annotated[str, OneOf(COLORS)], ...], Length(2, 2)]
Reason = Literal["agreement", "all-captured", "no-legal-move", "threefold-repetition", "no-capture-limit"]
REASONS: tuple[str, ...] = get_args(Reason)  # why a game ends (``result.reason``)


class Phase(Enum):
    PLAY = "play"
    GAME_OVER = "game-over"


@declared
class Options:
    first_player: Literal[0, 1] = option(
        default=0,
        description="The seat that moves first: no traditional rule exists; seat 0 (White) by default "
                    "(docs/rules/mak-yek.md §6).",
        label=Label("First player", "Kto zaczyna"),
        help=Label("The seat that makes the first move.", "Gracz, który wykonuje pierwszy ruch."),
        choices={0: Label("Seat 0 (White)", "Gracz 0 (białe)"), 1: Label("Seat 1 (Black)", "Gracz 1 (czarne)")})
    max_custodian_per_move: Literal["unlimited", 1] = option(
        default=_UNLIMITED,
        description="Custodian captures per move: 'unlimited' (Wikipedia) or 1 (Murray; the mover names the one he "
                    "makes in the move's 'custodian' field) (docs/rules/mak-yek.md §4.3).",
        label=Label("Custodian captures per move", "Bicia w kleszcze w jednym ruchu"),
        help=Label("How many enemy men one move may take by flanking them.",
                   "Ile pionków przeciwnika jeden ruch może zbić, biorąc je w kleszcze."),
        choices={_UNLIMITED: Label("As many as the move flanks", "Wszystkie wzięte w kleszcze"),
                 1: Label("One: the mover names it", "Jedno: wskazuje je grający")})
    line_custodian: bool = option(
        default=False,
        description="A whole line of enemy men closed by a friendly man is captured (Low 1839) "
                    "(docs/rules/mak-yek.md §4.4).",
        label=Label("Capture whole lines", "Bicie całych rzędów"),
        help=Label("A line of enemy men closed at both ends is captured whole.",
                   "Rząd pionków przeciwnika zamknięty z obu stron jest zbijany w całości."))
    no_legal_move: Literal["loses", "draw"] = option(
        default="loses",
        description="A player who cannot move loses, or the game is drawn (docs/rules/mak-yek.md §5.2).",
        label=Label("No legal move", "Brak ruchu"),
        help=Label("What happens to a player who cannot move on his turn.",
                   "Co się dzieje, gdy gracz nie może wykonać ruchu."),
        choices={"loses": Label("He loses", "Przegrywa"), "draw": Label("The game is drawn", "Remis")})
    repetition: Literal["threefold", "off"] = option(
        default="threefold",
        description="The third occurrence of a position, same player to move, is a draw (docs/rules/mak-yek.md §5.4).",
        label=Label("Repetition", "Powtórzenie pozycji"),
        help=Label("Whether the third repetition of a position draws the game.",
                   "Czy trzecie powtórzenie tej samej pozycji kończy grę remisem."),
        choices={"threefold": Label("Third repetition draws", "Trzecie powtórzenie to remis"),
                 "off": Label("No draw by repetition", "Bez remisu przez powtórzenie")})
    no_capture_limit_plies: Annotated[int, Range(1, _MAX_PLIES)] = option(
        default=100,
        description="Consecutive plies without a capture that draw the game (docs/rules/mak-yek.md §5.5).",
        label=Label("Moves without a capture", "Ruchy bez bicia"),
        help=Label("After this many moves in a row without a capture the game is drawn.",
                   "Po tylu ruchach z rzędu bez bicia gra kończy się remisem."))
    draw_by_agreement: bool = option(
        default=True,
        description="The player to move may offer a draw, which the opponent may accept on his turn "
                    "(docs/rules/mak-yek.md §5.3).",
        label=Label("Draw by agreement", "Remis za zgodą"),
        help=Label("Players may offer and accept a draw.", "Gracze mogą proponować i przyjmować remis."))


@declared
class Result:
    """How the game ended."""

    winner: Seat | None = field(doc="the winning seat; null on a draw")
    reason: Reason = field(doc="why the game ended")


@declared
class State:
    players: Annotated[int, Range(2, 2)]
    options: Options
    phase: Phase
    board: Board
    turn: Seat | None = field(doc="the seat to move; null once the game is over")
    plies_since_capture: Annotated[int, Range(0, _MAX_PLIES)] = field(
        doc="plies since the last capture (or the start)")
    positions: Annotated[tuple[PositionKey, ...], Length(0, _MAX_PLIES)] = field(
        doc="with repetition on, the positions before each ply since the last capture; empty otherwise")
    draw_offer: Seat | None = field(doc="the seat whose draw offer is open, or null")
    draw_agreed: bool = field(doc="a draw was agreed")
    result: Result | None = field(doc="null while the game runs, then how it ended")

    @computed(required=True)
    def colors(self) -> Colors:
        """the seats' colours, labels only: always ["white", "black"] (seat 0 is White)"""
        return COLORS


@declared
class Slide:
    """A rook slide; ``custodian`` picks the one custodian capture under Murray's limit (§4.3)."""

    frm: Square = field(json_name="from", doc="the square of the man that moves")
    to: Square = field(doc="the empty square it moves to")
    custodian: Square | None = field(
        default=None, doc="under max_custodian_per_move=1, when the move could make several custodian captures: "
                          "the square of the first enemy man of the one it makes")
    kind: ClassVar[str] = "move"
    label: ClassVar[Label] = Label("Move a man", "Przesuń pionek")


@declared
class OfferDraw:
    """Offer a draw; the offerer then still moves (§5.3)."""

    kind: ClassVar[str] = "offer-draw"
    label: ClassVar[Label] = Label("Offer a draw", "Zaproponuj remis")


@declared
class AcceptDraw:
    """Accept the opponent's open draw offer instead of moving (§5.3)."""

    kind: ClassVar[str] = "accept-draw"
    label: ClassVar[Label] = Label("Accept the draw", "Przyjmij remis")


Move = Slide | OfferDraw | AcceptDraw


@declared
class Breakdown:
    """One seat's result: its men, the enemy men it captured, and the game's points."""

    men: Annotated[int, Range(0, _MEN)] = field(doc="the seat's men on the board")
    captured: Annotated[int, Range(0, _MEN)] = field(doc="enemy men the seat captured")
    result: Literal["win", "loss", "draw"] | None = field(doc="the seat's result; null while the game runs")
    points: Annotated[int, Range(0, 1)] = field(doc="1 for the winner, 0 otherwise")


# --------------------------------------------------------------------------- codes (DESIGN 4.4)


class C(GameCodes, namespace=_GAME):
    """Every code Mak-yek answers (DESIGN 4.4); Polish in the seed's words ("pionek", "wzięcie
    w kleszcze")."""

    setup_unsupported = SETUP_UNSUPPORTED
    tally_unsupported = TALLY_UNSUPPORTED
    draw_offers_off = illegal(
        Label("Draws by agreement are off", "Remis za zgodą wyłączony"),
        "Przy tym stole nie proponuje się remisu (opcja draw_by_agreement).",
        "A draw was offered or accepted, but the option `draw_by_agreement` is off. Move a man instead.",
        "Zaproponowano lub przyjęto remis, a opcja `draw_by_agreement` jest wyłączona. Przesuń pionek.")
    draw_already_offered = illegal(
        Label("A draw is already offered", "Remis już zaproponowany"), "Gracz {seat} już zaproponował remis.",
        "A draw offer is already open: the offerer now moves, the opponent may accept it on his turn.",
        "Propozycja remisu jest już otwarta: proponujący teraz się rusza, przeciwnik może ją przyjąć w swojej "
        "kolejce.")
    no_draw_offer = illegal(
        Label("No draw offered", "Nikt nie proponował remisu"),
        "Gracz {seat} nie zaproponował remisu, więc nie ma czego przyjąć.",
        "`accept-draw` needs an open offer by the opponent. Move a man (or offer a draw) instead.",
        "`accept-draw` wymaga otwartej propozycji przeciwnika. Przesuń pionek albo sam zaproponuj remis.")
    no_own_man = illegal(
        Label("Not your man", "To nie twój pionek"), "Na polu {from} nie stoi twój pionek.",
        "The square the move starts from does not hold one of the mover's men.",
        "Na polu, z którego zaczyna się ruch, nie stoi pionek grającego.")
    not_rook_move = illegal(
        Label("Not along a rank or file", "Ruch nie w linii prostej"),
        "Ruch {from}-{to} nie biegnie wzdłuż jednego rzędu ani kolumny: pionek idzie tylko poziomo lub pionowo.",
        "A man moves along one rank or file, like a chess rook, and must leave its square.",
        "Pionek porusza się wzdłuż jednego rzędu lub kolumny, jak wieża w szachach, i musi opuścić swoje pole.")
    target_occupied = illegal(
        Label("Square occupied", "Pole zajęte"),
        "Pole {to} jest zajęte; pionek staje tylko na wolnym polu, a zajęcie pola niczego nie bije.",
        "The target square holds a man: a man moves only to an empty square (there is no capture by "
        "displacement).",
        "Na polu docelowym stoi pionek: pionek staje tylko na wolnym polu (nie bije się przez zajęcie pola).")
    path_blocked = illegal(
        Label("Path blocked", "Droga zagrodzona"),
        "Ruch {from}-{to} przeskakuje pionek; wszystkie pola po drodze muszą być wolne.",
        "A man never jumps: every square between the start and the target must be empty.",
        "Pionek nie przeskakuje: wszystkie pola między startem a celem muszą być wolne.")
    custodian_choice_required = illegal(
        Label("Name the capture", "Wskaż bicie"),
        "Ruch {from}-{to} może wziąć w kleszcze więcej niż jeden pionek ({expected}); przy jednym takim biciu "
        "na ruch wskaż w polu custodian, który.",
        "Under max_custodian_per_move=1 the move could make several custodian captures: name the one it makes "
        "in `custodian` (legal-moves lists one move per choice).",
        "Przy max_custodian_per_move=1 ruch mógłby wziąć w kleszcze kilka pionków: wskaż w `custodian`, które "
        "bicie wykonuje (legal-moves podaje osobny ruch dla każdego wyboru).")
    no_custodian_choice = illegal(
        Label("No capture to choose", "Nie ma czego wybierać"),
        "Wybór bicia ({got}) podaje się tylko wtedy, gdy ruch mógłby wziąć w kleszcze kilka pionków, "
        "a wolno zbić jeden.",
        "`custodian` is given only when the move could make several custodian captures and only one is allowed. "
        "Leave it out.",
        "`custodian` podaje się tylko wtedy, gdy ruch mógłby wziąć w kleszcze kilka pionków, a wolno zbić jeden. "
        "Pomiń to pole.")
    not_a_custodian_capture = illegal(
        Label("Not a capture of this move", "Ten ruch tak nie bije"),
        "Ruch {from}-{to} nie bierze w kleszcze pionka na polu {got}; może wziąć: {expected}.",
        "`custodian` names a square this move does not capture by custodian; `expected` lists those it may.",
        "`custodian` wskazuje pole, którego ten ruch nie bierze w kleszcze; `expected` podaje możliwe.")
    bad_board = invalid(
        Label("Impossible board", "Niemożliwa plansza"),
        "Plansza w stanie gry jest niemożliwa: przed pierwszym ruchem pionki stoją w pierwszym i trzecim rzędzie.",
        "With 16 men each and no ply played, the men must stand on their starting squares.",
        "Gdy każdy ma 16 pionków i nie wykonano ruchu, pionki muszą stać na polach początkowych.")
    too_many_men = invalid(
        Label("Too many men", "Za dużo pionków"),
        "Gracz {seat} ma na planszy {got} pionków, a każdy gracz ma ich tylko {expected}.",
        "A side has 16 men; the board holds more of one side.",
        "Każdy gracz ma 16 pionków; na planszy jest więcej pionków jednego z graczy.")
    bad_turn = invalid(
        Label("Impossible turn", "Niemożliwa kolej"),
        "W tej pozycji nie może być kolej tego gracza (turn): nie zgadza się z planszą albo liczbą ruchów.",
        "The seat to move does not follow from the board (the side that just moved has no men) or, with no "
        "capture yet, from the ply count and the first player.",
        "Gracz, na którego przypada ruch, nie wynika z planszy (strona, która się właśnie ruszyła, nie ma pionków) "
        "albo, gdy nie było jeszcze bicia, z liczby ruchów i tego, kto zaczynał.")
    bad_ply_count = invalid(
        Label("Impossible ply count", "Niemożliwy licznik ruchów"),
        "Licznik ruchów bez bicia musi mieścić się w granicach 0..{expected}.",
        "`plies_since_capture` is above the no-capture limit, which would have ended the game.",
        "`plies_since_capture` przekracza limit ruchów bez bicia, który zakończyłby grę.")
    bad_positions = invalid(
        Label("Positions disagree", "Poprzednie pozycje się nie zgadzają"),
        "Zapisane poprzednie pozycje nie prowadzą ruch po ruchu do tej planszy albo nie zgadzają się "
        "z licznikiem ruchów bez bicia.",
        "`positions` must hold one position per ply since the last capture, each one slide from the next, with "
        "the men now on the board, none a third repetition (empty with repetition off).",
        "`positions` ma jedną pozycję na każdy ruch od ostatniego bicia, każda o jedno przesunięcie od następnej, "
        "z pionkami z planszy, żadna nie jest trzecim powtórzeniem (przy wyłączonym powtórzeniu lista jest pusta).")
    bad_draw_offer = invalid(
        Label("Impossible draw offer", "Niemożliwa propozycja remisu"),
        "Propozycja remisu zapisana w stanie gry jest niemożliwa przy tych opcjach.",
        "A draw offer or agreement with draws by agreement off, or an open offer beside an agreed draw.",
        "Propozycja lub zgoda na remis przy wyłączonym remisie za zgodą albo otwarta propozycja obok przyjętego "
        "remisu.")
    bad_result = invalid(
        Label("Result disagrees", "Wynik się nie zgadza"),
        "Zapisany wynik nie wynika z pozycji: gra kończy się, gdy gracz straci wszystkie pionki, nie może się "
        "ruszyć, pozycja powtórzy się trzeci raz, minie limit ruchów bez bicia albo gracze zgodzą się na remis.",
        "`phase`, `turn` and `result` must agree with the position: the game is over (phase 'game-over', turn "
        "null, a result) exactly when the position ends it, and the result says how.",
        "`phase`, `turn` i `result` muszą zgadzać się z pozycją: gra jest skończona (faza 'game-over', turn null, "
        "wynik) dokładnie wtedy, gdy pozycja ją kończy, a wynik mówi, jak.")


@event
class CaptureEvent:
    """The slide captured: the squares whose men were taken (custodian or intervention, §4)."""

    type: Literal["capture"] = "capture"
    seat: Seat = field(doc="the capturing seat")
    squares: Annotated[tuple[Square, ...], Length(1, 16)] = field(doc="the squares emptied by the capture")


SPEC = GameSpec(
    id=_GAME,
    name="Mak-yek (May-Yek)",
    label=Label("Mak-yek", "Mak-yek"),
    players=range(2, 3),
    options=Options,
    state=State,
    moves=(Slide, OfferDraw, AcceptDraw),
    phases=phase_labels(Phase),
    codes=C,
    breakdown=Breakdown,
    aliases=("may-yek",),
    terms={
        "white": Label("White", "Białe"), "black": Label("Black", "Czarne"),
        "men": Label("Men on the board", "Pionki na planszy"), "captured": Label("Men captured", "Zbite pionki"),
        "result": Label("Result", "Wynik"), "win": Label("Win", "Wygrana"), "loss": Label("Loss", "Przegrana"),
        "draw": Label("Draw", "Remis"), "points": Label("Points", "Punkty"),
        "plies_since_capture": Label("Moves without a capture", "Ruchy bez bicia"),
        "draw_offer": Label("Draw offered", "Propozycja remisu"), "round": Label("Game", "Partia"),
        # the log's sentences (service/static/play/log.js fills the {names})
        "move:move": Label("{seat} moved {from}–{to}", "{seat} przesuwa pionek {from}–{to}"),
        "move:offer-draw": Label("{seat} offered a draw", "{seat} proponuje remis"),
        "move:accept-draw": Label("{seat} accepted the draw", "{seat} przyjmuje remis"),
        "event:capture": Label("captured on {squares}", "zbite: {squares}"),
    },
    playout=Playout(long_players=2),
    events=(CaptureEvent,),
)


# --------------------------------------------------------------------------- engine


class MakYek(BaseEngine[State, Move]):
    spec = SPEC

    def new_game(self, players: int, rng: Rng, options: Options, setup: None = None) -> State:
        return _settle(State(players, options, Phase.PLAY, Board(_START), options.first_player, 0, (), None, False,
                             None))

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state.turn is None else frozenset((state.turn,))

    # -- legality ------------------------------------------------------------------

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat != state.turn:
            return []
        board, man = state.board, _MAN[seat]
        out: list[Move] = []
        if state.options.draw_by_agreement:
            if state.draw_offer is None:
                out.append(OfferDraw())
            elif state.draw_offer != seat:
                out.append(AcceptDraw())
        for frm in range(64):
            if board[frm] != man:
                continue
            for to in _slides(board, frm):
                out.extend(_spellings(state, frm, to))
        return out

    def check(self, state: State, seat: int, move: Move) -> None:
        self.check_turn(state, seat)
        if not isinstance(move, Slide):
            if not state.options.draw_by_agreement:
                raise C.draw_offers_off("draws by agreement are off (option draw_by_agreement)")
            if isinstance(move, OfferDraw):
                if state.draw_offer is not None:
                    raise C.draw_already_offered(
                        f"{_COLOUR[state.draw_offer]} has already offered a draw"
                        + (": accept it or move" if state.draw_offer != seat else "; now move"), seat=state.draw_offer)
            elif state.draw_offer != 1 - seat:
                raise C.no_draw_offer(f"{_COLOUR[1 - seat]} has not offered a draw", seat=1 - seat)
            return
        board, man = state.board, _MAN[seat]
        frm, to = _SQUARE_INDEX[move.frm], _SQUARE_INDEX[move.to]
        # checked on every move: the squares' names and the messages are made only for a refusal
        if not (
            board[frm] == man  # "Każdy z pionków może poruszać się ... poziomo lub pionowo": one's own man
            and frm != to and (frm % 8 == to % 8 or frm // 8 == to // 8)
            # "the target must be empty: there are no displacement captures" (T8)
            and board[to] == _EMPTY
            and _between_empty(board, frm, to)  # "any number of empty squares ... no jumping"
        ):
            _refuse_slide(board, man, frm, to)
        spellings = _spellings(state, frm, to)
        if move not in spellings:
            where = {"from": move.frm, "to": move.to}
            choices = [m.custodian for m in spellings if m.custodian is not None]
            if move.custodian is None:
                raise C.custodian_choice_required(
                    f"{move.frm}-{move.to} could make custodian captures at {choices}; with at most one per move, "
                    f"name it in 'custodian'", **where, expected=choices)
            got = move.custodian
            if len(spellings) == 1:
                raise C.no_custodian_choice(
                    f"'custodian': {got!r} is only allowed when the move could make several custodian captures "
                    f"under max_custodian_per_move=1", **where, got=got)
            raise C.not_a_custodian_capture(f"{move.frm}-{move.to} makes no custodian capture starting at {got}",
                                            **where, got=got, expected=choices)

    def _apply(self, state: State, seat: int, move: Move) -> State:
        if isinstance(move, OfferDraw):
            return replace(state, draw_offer=seat)
        if isinstance(move, AcceptDraw):
            return _settle(replace(state, draw_offer=None, draw_agreed=True))
        frm, to = _SQUARE_INDEX[move.frm], _SQUARE_INDEX[move.to]
        board = list(state.board)
        board[frm], board[to] = _EMPTY, _MAN[seat]
        taken = _captured(state, board, to, move.custodian)
        for square in taken:
            board[square] = _EMPTY
        positions: tuple[str, ...]
        if taken:
            quiet, positions = 0, ()
        else:
            quiet = state.plies_since_capture + 1
            positions = (*state.positions, position_key(state.board)) if state.options.repetition == "threefold" else ()
        offer = state.draw_offer if state.draw_offer == seat else None  # a move declines the opponent's offer
        # as _settle(replace(state, ...)) would, with one copy instead of two
        after = Board("".join(board))
        result = _end(state.options, after, 1 - seat, quiet, positions, state.draw_agreed)
        return replace(state, phase=Phase.PLAY if result is None else Phase.GAME_OVER, board=after,
                       turn=1 - seat if result is None else None, plies_since_capture=quiet, positions=positions,
                       draw_offer=offer, result=result)

    def emit(self, before: State, seat: int, move: Move, after: State) -> list[Any]:
        out = super().emit(before, seat, move, after)
        if not isinstance(move, Slide):
            return out
        opponent = _MAN[1 - seat]
        if after.board.count(opponent) == before.board.count(opponent):
            return out  # no man taken: the slide changed its two squares only (most moves; counted in C)
        frm, to = _SQUARE_INDEX[move.frm], _SQUARE_INDEX[move.to]
        taken = tuple(square_name(i % 8, i // 8) for i in range(64)
                      if before.board[i] != after.board[i] and i not in (frm, to))
        out.insert(1, CaptureEvent(seat=seat, squares=taken))
        return out

    # -- results -------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        end = state.result
        if end is None:
            return None
        if end.winner is None:
            return Outcome((), end.reason, draw=True, points=(0, 0))
        return Outcome((end.winner,), end.reason, points=_points(end))

    def scores(self, state: State) -> ScoreReport:
        end = state.result
        counts = (state.board.count("W"), state.board.count("B"))
        points = _points(end) if end is not None else (0, 0)
        results: list[Literal["win", "loss", "draw"] | None] = [None, None]
        if end is not None:
            results = ["draw", "draw"] if end.winner is None else [
                "win" if seat == end.winner else "loss" for seat in (0, 1)]
        breakdown = tuple(
            Breakdown(men=counts[seat], captured=_MEN - counts[1 - seat], result=results[seat], points=points[seat])
            for seat in (0, 1))
        winners = (end.winner,) if end is not None and end.winner is not None else ()
        return ScoreReport(points, points, breakdown, end is not None, winners, round=1)

    def round_over(self, state: State) -> bool:
        return state.result is not None

    # -- meaning -------------------------------------------------------------------

    def check_state(self, state: State) -> State:
        """What play can reach, beyond the shape (§7): the men, the counters, the draw offer,
        and a phase, turn and result that follow from the position."""
        opts, board = state.options, state.board
        for seat, man in enumerate(_MAN):
            if board.count(man) > _MEN:
                raise C.too_many_men(f"{man} has {board.count(man)} men on the board; a side has only {_MEN}",
                                     seat=seat, got=board.count(man), expected=_MEN)
        quiet = state.plies_since_capture
        if quiet > opts.no_capture_limit_plies:
            raise C.bad_ply_count(f"plies_since_capture must be 0..{opts.no_capture_limit_plies}, got {quiet}",
                                  expected=opts.no_capture_limit_plies)
        offer, agreed = state.draw_offer, state.draw_agreed
        if offer is not None and (not opts.draw_by_agreement or agreed):
            raise C.bad_draw_offer(f"draw_offer must be null{' or seat 0/1 (with no draw agreed)' if opts.draw_by_agreement else ''}"
                                   f", got {excerpt(offer)}")
        if agreed and not opts.draw_by_agreement:
            raise C.bad_draw_offer("draw_agreed must be false: draws by agreement are off")
        given, turn = state.result, state.turn
        if (state.phase is Phase.GAME_OVER) != (turn is None):
            raise C.bad_result(f"the phase is 'game-over' exactly when nobody is to move; phase "
                               f"{state.phase.value!r}, turn {excerpt(turn)}")
        if turn is not None:
            if given is not None:
                raise C.bad_result(f"result must be null while seat {turn} is to move")
            end = _checked(state, turn)
            if end is not None:
                raise C.bad_result(f"the game is over ({end.reason}): turn must be null and result set")
            return state
        if given is None:
            raise C.bad_result("turn is null only once the game is over, and then result says how it ended")
        for mover in (0, 1):  # the seat that was to move when the game ended
            try:
                end = _checked(state, mover)
            except InvalidState:
                continue
            if end == given:
                return state
        raise C.bad_result(f"result {excerpt({'winner': given.winner, 'reason': given.reason})} does not follow "
                           "from the position")


# --------------------------------------------------------------------------- helpers


def _name(index: int) -> str:
    return square_name(index % 8, index // 8)


#: "a1" -> 0 ... "h8" -> 63, and back
_SQUARE_INDEX = {square_name(i % 8, i // 8): i for i in range(64)}
_SQUARE_NAME = tuple(_name(i) for i in range(64))


def _refuse_slide(board: str, man: str, frm: int, to: int) -> None:
    """Raise why the slide is refused: not one's own man, not a rook move, an occupied target, a
    blocked path (the first that applies)."""
    a, b = _name(frm), _name(to)
    where = {"from": a, "to": b}
    # "Każdy z pionków może poruszać się ... poziomo lub pionowo": one's own man
    if board[frm] != man:
        raise C.no_own_man(f"{a} holds {_describe(board[frm])}, not one of your men ({man})", **where)
    if not (frm != to and (frm % 8 == to % 8 or frm // 8 == to // 8)):
        raise C.not_rook_move(f"{a}-{b} is not a move along one rank or file", **where)
    # "the target must be empty: there are no displacement captures" (T8)
    if board[to] != _EMPTY:
        raise C.target_occupied(f"{b} is occupied by {_describe(board[to])}; a man moves only to an empty square",
                                **where)
    # "any number of empty squares ... no jumping"
    if to not in _slides(board, frm):
        raise C.path_blocked(f"{a}-{b} jumps over a man; the squares between must be empty", **where)


def _describe(cell: str) -> str:
    return {"W": "a White man", "B": "a Black man"}.get(cell, "nothing")


def _slides(board: str, frm: int) -> list[int]:
    """Empty squares a rook move from ``frm`` reaches."""
    out = []
    f0, r0 = frm % 8, frm // 8
    for df, dr in _DIRECTIONS:
        f, r = f0 + df, r0 + dr
        while 0 <= f < 8 and 0 <= r < 8 and board[r * 8 + f] == _EMPTY:
            out.append(r * 8 + f)
            f, r = f + df, r + dr
    return out


def _between_empty(board: str, frm: int, to: int) -> bool:
    """For a rook move to an empty square: the squares between are empty, so ``to`` is one of
    ``_slides(board, frm)`` (without listing them)."""
    lo, hi = (frm, to) if frm < to else (to, frm)
    between = board[lo + 1:hi] if frm // 8 == to // 8 else board[lo + 8:hi:8]
    return not between.strip(_EMPTY)


def _capture_groups(board: Sequence[str], to: int, man: str, line: bool) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
    """(custodian captures, one tuple of men per direction; intervention capture) around ``to``.

    ``board`` is the position after the man has moved (its old square empty).
    """
    enemy = "B" if man == "W" else "W"
    f0, r0 = to % 8, to // 8
    custodian: list[tuple[int, ...]] = []
    for df, dr in _DIRECTIONS:
        run: list[int] = []
        f, r = f0 + df, r0 + dr
        while 0 <= f < 8 and 0 <= r < 8 and board[r * 8 + f] == enemy:
            run.append(r * 8 + f)
            f, r = f + df, r + dr
            if not line:
                break
        # (f, r) is now the square beyond the enemy man (or line): it must hold a friendly man
        if run and 0 <= f < 8 and 0 <= r < 8 and board[r * 8 + f] == man:
            custodian.append(tuple(run))
    intervention: tuple[int, ...] = ()
    for axis in _AXES:
        pair = []
        for df, dr in axis:
            f, r = f0 + df, r0 + dr
            if 0 <= f < 8 and 0 <= r < 8 and board[r * 8 + f] == enemy:
                pair.append(r * 8 + f)
        if len(pair) == 2:
            intervention += tuple(pair)
    return custodian, intervention


def _after(board: str, frm: int, to: int) -> list[str]:
    cells = list(board)
    cells[to], cells[frm] = board[frm], _EMPTY
    return cells


def _spellings(state: State, frm: int, to: int) -> list[Slide]:
    """The legal move(s) for the slide ``frm``-``to``: one, or one per custodian choice."""
    a, b = _SQUARE_NAME[frm], _SQUARE_NAME[to]
    if state.options.max_custodian_per_move == _UNLIMITED:
        return [Slide(a, b)]
    custodian, _ = _capture_groups(_after(state.board, frm, to), to, state.board[frm], state.options.line_custodian)
    if len(custodian) < 2:
        return [Slide(a, b)]
    return [Slide(a, b, _SQUARE_NAME[group[0]]) for group in custodian]


def _captured(state: State, board_after: list[str], to: int, choice: str | None) -> set[int]:
    man = board_after[to]
    custodian, intervention = _capture_groups(board_after, to, man, state.options.line_custodian)
    if choice is not None:
        first = _SQUARE_INDEX[choice]
        custodian = [g for g in custodian if g[0] == first]
    taken = set(intervention)
    for group in custodian:
        taken.update(group)
    return taken


def _can_move(board: str, man: str) -> bool:
    i = board.find(man)  # the men in board order, found in C
    while i >= 0:
        f, r = i % 8, i // 8
        if ((f > 0 and board[i - 1] == _EMPTY) or (f < 7 and board[i + 1] == _EMPTY)
                or (r > 0 and board[i - 8] == _EMPTY) or (r < 7 and board[i + 8] == _EMPTY)):
            return True
        i = board.find(man, i + 1)
    return False


def position_key(board: str) -> str:
    """32 hex digits: White's then Black's occupancy as 64-bit numbers (bit rank * 8 + file)."""
    global _last_key
    last_board, key = _last_key  # a move's new position is the next move's old one: made once for both
    if board != last_board:
        white = int(board[::-1].translate(_WHITE_BITS), 2)
        black = int(board[::-1].translate(_BLACK_BITS), 2)
        key = f"{white:016x}{black:016x}"
        _last_key = (board, key)
    return key


_last_key = ("", "")


_WHITE_BITS = str.maketrans("WB.", "100")
_BLACK_BITS = str.maketrans("WB.", "010")


def _repeated(board: str, positions: tuple[str, ...]) -> int:
    """How often the position (same player to move) has occurred since the last capture."""
    key = position_key(board)
    n = len(positions)
    return 1 + sum(1 for i in range(n - 2, -1, -2) if positions[i] == key)


def _settle(state: State) -> State:
    """Set ``result`` (how the game ended, if it has) for the position with ``turn`` to move;
    once it has ended nobody is to move (``turn`` null, phase ``game-over``)."""
    mover = state.turn
    if mover is None:  # settled before: the game is over
        return state
    end = _end(state.options, state.board, mover, state.plies_since_capture, state.positions, state.draw_agreed)
    if end is None:
        return state
    return replace(state, result=end, turn=None, phase=Phase.GAME_OVER)


def _end(opts: Options, board: str, mover: int, quiet: int, positions: tuple[str, ...], agreed: bool
         ) -> Result | None:
    """How the game has ended in this position with ``mover`` to move, or None."""
    man = _MAN[mover]
    end = None
    if agreed:
        end = Result(None, "agreement")
    elif man not in board:
        end = Result(1 - mover, "all-captured")
    elif not _can_move(board, man):
        end = Result(None, "no-legal-move") if opts.no_legal_move == "draw" else Result(1 - mover, "no-legal-move")
    elif opts.repetition == "threefold" and _repeated(board, positions) >= 3:
        end = Result(None, "threefold-repetition")
    elif quiet >= opts.no_capture_limit_plies:
        end = Result(None, "no-capture-limit")
    return end


def _points(end: Result) -> tuple[int, int]:
    if end.winner is None:
        return (0, 0)
    return (1, 0) if end.winner == 0 else (0, 1)


def _checked(state: State, turn: int) -> Result | None:
    """How the game has ended with ``turn`` to move (None: it runs), once the board, the ply
    count and the kept positions agree with that turn and with each other (§7)."""
    opts, board, quiet, positions = state.options, state.board, state.plies_since_capture, state.positions
    if board.count(_MAN[1 - turn]) == 0:
        raise C.bad_turn(f"{_MAN[1 - turn]} has no men yet made the last move; it cannot be {_MAN[turn]}'s turn")
    if board.count("W") == board.count("B") == _MEN:
        # no capture yet: every ply since the start counts, the first player's first
        if (opts.first_player + quiet) % 2 != turn:
            raise C.bad_turn(f"no man has been captured and {quiet} plies were played since "
                             f"{_COLOUR[opts.first_player]} began: it is {_COLOUR[(opts.first_player + quiet) % 2]}'s "
                             "turn")
        first = positions[0] if positions else position_key(board)
        if quiet == 0 and board != _START:
            raise C.bad_board("no man has been captured and no ply played, yet the men are not on their starting "
                              "squares")
        if opts.repetition == "threefold" and first != position_key(_START):
            raise C.bad_positions("no man has been captured, so the first position since the start must be the "
                                  "starting one")
    _check_positions(positions, board, turn, quiet, opts.repetition == "threefold")
    return _end(opts, board, turn, quiet, positions, state.draw_agreed)


def _check_positions(positions: tuple[str, ...], board: str, turn: int, quiet: int, repetition: bool) -> None:
    """Each key is a position with the current material, consecutive positions differ by one
    quiet slide of the side then to move (the sides alternating back from ``turn``), and no
    earlier position was the third occurrence of one (the game would have ended there)."""
    if not repetition:
        if positions:
            raise C.bad_positions("positions must be empty when repetition is off")
        return
    if len(positions) != quiet:
        raise C.bad_positions(f"positions holds {len(positions)} entries but plies_since_capture is {quiet}")
    keys = [*positions, position_key(board)]
    counts = (board.count("W"), board.count("B"))
    decoded = []
    for key in keys:
        white, black = int(key[:16], 16), int(key[16:], 16)
        if white & black or (white.bit_count(), black.bit_count()) != counts:
            raise C.bad_positions(f"position {key!r} does not hold the men now on the board")
        decoded.append((white, black))
    for i in range(len(decoded) - 1):
        mover = (turn - (len(decoded) - 1 - i)) % 2
        before, after = decoded[i], decoded[i + 1]
        moved = before[mover] ^ after[mover]
        if before[1 - mover] != after[1 - mover] or moved.bit_count() != 2:
            raise C.bad_positions(f"positions {keys[i]!r} -> {keys[i + 1]!r} are not one move by {_MAN[mover]}")
        if sum(1 for j in range(i, -1, -2) if keys[j] == keys[i]) >= 3:
            raise C.bad_positions(f"position {keys[i]!r} occurred a third time, which ended the game in a draw")


ENGINE = MakYek()
