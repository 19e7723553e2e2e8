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

Representation (§7): the board is a 64-character string, index ``rank * 8 + file`` (rank 0 is
rank 1); its JSON is 8 strings of ``W``, ``B`` and ``.``, rank 8 first. Sides are seats 0/1;
``colors`` labels them. ``turn`` is the seat to move (None once the game is over, when ``end``
says how it ended; JSON ``result``). For repetition the state keeps ``positions``: the
positions before each ply since the last capture, each as 32 hex digits (White's then Black's
64-bit occupancy, bit ``rank * 8 + file``); positions cannot repeat across a capture. Nothing
is hidden and there is no chance. ``from_json`` refuses states play cannot reach (§7).

Square names come from ``rules/boards.py``, shared with Northcott.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.base import (
    BaseEngine,
    Code,
    IllegalMove,
    InvalidOption,
    InvalidState,
    Json,
    Option,
    Outcome,
    Rng,
    ScoreReport,
    excerpt,
    malformed,
    replace,
    require,
)
from rules.boards import COLORS, parse_square, square_name

_SIZE = 8
_MEN = 16
_MAN = ("W", "B")
_COLOUR = ("White", "Black")
_EMPTY = "."
_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))
_AXES = (((1, 0), (-1, 0)), ((0, 1), (0, -1)))
REASONS = ("agreement", "all-captured", "no-legal-move", "threefold-repetition", "no-capture-limit")
_STATE_FIELDS = frozenset(("board", "colors", "turn", "plies_since_capture", "positions", "draw_offer", "draw_agreed",
                           "result", "options"))
_START = "W" * 8 + "." * 8 + "W" * 8 + "." * 16 + "B" * 8 + "." * 8 + "B" * 8
_UNLIMITED = "unlimited"


# --------------------------------------------------------------------------- options, state, moves

OPTIONS: Mapping[str, Option] = {
    "first_player": Option("white", "who moves first: no traditional rule exists (docs/rules/mak-yek.md §6)",
                           choices=("white", "black")),
    "max_custodian_per_move": Option(
        _UNLIMITED,
        "custodian captures per move: 'unlimited' (Wikipedia) or 1 (Murray; the mover names the one he makes "
        "in the move's 'custodian' field) (docs/rules/mak-yek.md §4.3)",
        choices=(_UNLIMITED, 1),
    ),
    "line_custodian": Option(
        False, "a whole line of enemy men closed by a friendly man is captured (Low 1839) (docs/rules/mak-yek.md §4.4)",
        type="boolean",
    ),
    "no_legal_move": Option("loses", "a player who cannot move loses, or the game is drawn (docs/rules/mak-yek.md §5.2)",
                            choices=("loses", "draw")),
    "repetition": Option(
        "threefold", "the third occurrence of a position, same player to move, is a draw (docs/rules/mak-yek.md §5.4)",
        choices=("threefold", "off"),
    ),
    "no_capture_limit_plies": Option(
        100, "consecutive plies without a capture that draw the game (docs/rules/mak-yek.md §5.5)", type="integer",
        minimum=1, maximum=1000,
    ),
    "draw_by_agreement": Option(
        True, "the player to move may offer a draw, which the opponent may accept on his turn "
        "(docs/rules/mak-yek.md §5.3)",
        type="boolean",
    ),
}


@dataclass(frozen=True, slots=True)
class Options:
    first_player: int
    custodian_limit: int | None
    line_custodian: bool
    no_move_draws: bool
    repetition: bool
    no_capture_limit: int
    draw_offers: bool

    @classmethod
    def from_mapping(cls, given: Mapping[str, Json]) -> Options:
        return cls(
            first_player=0 if given["first_player"] == "white" else 1,
            custodian_limit=None if given["max_custodian_per_move"] == _UNLIMITED else 1,
            line_custodian=given["line_custodian"],
            no_move_draws=given["no_legal_move"] == "draw",
            repetition=given["repetition"] == "threefold",
            no_capture_limit=given["no_capture_limit_plies"],
            draw_offers=given["draw_by_agreement"],
        )

    def to_json(self) -> Json:
        return {
            "first_player": ("white", "black")[self.first_player],
            "max_custodian_per_move": _UNLIMITED if self.custodian_limit is None else self.custodian_limit,
            "line_custodian": self.line_custodian,
            "no_legal_move": "draw" if self.no_move_draws else "loses",
            "repetition": "threefold" if self.repetition else "off",
            "no_capture_limit_plies": self.no_capture_limit,
            "draw_by_agreement": self.draw_offers,
        }


@dataclass(frozen=True, slots=True)
class End:
    """Why the game ended; ``winner`` is None on a draw."""

    winner: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class State:
    options: Options
    board: str  # 64 cells, index rank * 8 + file
    turn: int | None  # seat to move: 0 White, 1 Black; None once the game is over
    quiet: int  # plies since the last capture (or the start)
    positions: tuple[str, ...]  # position keys before each quiet ply (empty without repetition)
    offer: int | None = None  # seat with an open draw offer
    agreed: bool = False  # a draw was agreed
    end: End | None = None  # derived from the fields above, never read from JSON


@dataclass(frozen=True, slots=True)
class Slide:
    """A rook slide; ``custodian`` picks the one custodian capture under Murray's limit."""

    frm: int
    to: int
    custodian: int | None = None


@dataclass(frozen=True, slots=True)
class OfferDraw:
    pass


@dataclass(frozen=True, slots=True)
class AcceptDraw:
    pass


Move = Slide | OfferDraw | AcceptDraw


# --------------------------------------------------------------------------- error codes (DESIGN 4.4)

CODES: Mapping[str, Code] = {
    "mak-yek.not-your-turn": Code(
        "Not your turn", "Nie twój ruch", "Gracz {seat} nie ma teraz ruchu: kolej na przeciwnika."),
    "mak-yek.game-over": Code(
        "The game is over", "Gra skończona", "Gra już się skończyła; gracz {seat} nie może wykonać ruchu."),
    "mak-yek.no-such-seat": Code(
        "No such seat", "Nie ma takiego gracza", "Przy tej planszy nie ma gracza {seat}: grają dwie osoby, 0 i 1."),
    "mak-yek.tally-unsupported": Code(
        "No score sheet", "Brak karty wyników",
        "W Mak-yek nie podlicza się punktów z karty: wynik wynika z pozycji na planszy."),
    "mak-yek.setup-unsupported": Code(
        "No setup notation", "Brak zapisu ustawienia",
        "Mak-yek zaczyna się zawsze od pionków w pierwszym i trzecim rzędzie; innego ustawienia gra nie przyjmuje."),
    "mak-yek.draw-offers-off": Code(
        "Draws by agreement are off", "Remis za zgodą wyłączony",
        "Przy tym stole nie proponuje się remisu (opcja draw_by_agreement)."),
    "mak-yek.draw-already-offered": Code(
        "A draw is already offered", "Remis już zaproponowany", "Gracz {seat} już zaproponował remis."),
    "mak-yek.no-draw-offer": Code(
        "No draw offered", "Nikt nie proponował remisu",
        "Gracz {seat} nie zaproponował remisu, więc nie ma czego przyjąć."),
    "mak-yek.no-own-man": Code("Not your man", "To nie twój pionek", "Na polu {from} nie stoi twój pionek."),
    "mak-yek.not-rook-move": Code(
        "Not along a rank or file", "Ruch nie w linii prostej",
        "Ruch {from}-{to} nie biegnie wzdłuż jednego rzędu ani kolumny: pionek idzie tylko poziomo lub pionowo."),
    "mak-yek.target-occupied": Code(
        "Square occupied", "Pole zajęte",
        "Pole {to} jest zajęte; pionek staje tylko na wolnym polu, a zajęcie pola niczego nie bije."),
    "mak-yek.path-blocked": Code(
        "Path blocked", "Droga zagrodzona",
        "Ruch {from}-{to} przeskakuje pionek; wszystkie pola po drodze muszą być wolne."),
    "mak-yek.custodian-choice-required": Code(
        "Name the capture", "Wskaż bicie",
        "Ruch {from}-{to} może wziąć w kleszcze więcej niż jeden pionek ({expected}); przy jednym takim biciu "
        "na ruch wskaż w polu custodian, który."),
    "mak-yek.no-custodian-choice": Code(
        "No capture to choose", "Nie ma czego wybierać",
        "Wybór bicia ({got}) podaje się tylko wtedy, gdy ruch mógłby wziąć w kleszcze kilka pionków, "
        "a wolno zbić jeden."),
    "mak-yek.not-a-custodian-capture": Code(
        "Not a capture of this move", "Ten ruch tak nie bije",
        "Ruch {from}-{to} nie bierze w kleszcze pionka na polu {got}; może wziąć: {expected}."),
    "mak-yek.bad-move": Code(
        "Malformed move", "Niezrozumiały ruch",
        "Nie rozumiem ruchu {got}: ruch to przesunięcie pionka (kind \"move\", from, to), "
        "\"offer-draw\" albo \"accept-draw\"."),
    "mak-yek.malformed-state": Code(
        "Malformed state", "Błędny zapis stanu", "Zapis stanu gry Mak-yek ma złą postać albo nieznane pola."),
    "mak-yek.bad-options": Code(
        "Bad options", "Błędne opcje", "Opcje zapisane w stanie gry są błędne albo niepełne."),
    "mak-yek.bad-board": Code(
        "Impossible board", "Niemożliwa plansza",
        "Plansza w stanie gry jest niemożliwa: 8 rzędów po 8 pól (W, B, .), a przed pierwszym ruchem "
        "pionki stoją w pierwszym i trzecim rzędzie."),
    "mak-yek.too-many-men": Code(
        "Too many men", "Za dużo pionków",
        "Gracz {seat} ma na planszy {got} pionków, a każdy gracz ma ich tylko {expected}."),
    "mak-yek.bad-turn": Code(
        "Impossible turn", "Niemożliwa kolej",
        "W tej pozycji nie może być kolej tego gracza (turn): nie zgadza się z planszą albo liczbą ruchów."),
    "mak-yek.bad-ply-count": Code(
        "Impossible ply count", "Niemożliwy licznik ruchów",
        "Licznik ruchów bez bicia musi mieścić się w granicach 0..{expected}."),
    "mak-yek.bad-positions": Code(
        "Positions disagree", "Poprzednie pozycje się nie zgadzają",
        "Zapisane poprzednie pozycje nie prowadzą ruch po ruchu do tej planszy albo nie zgadzają się "
        "z licznikiem ruchów bez bicia."),
    "mak-yek.bad-draw-offer": Code(
        "Impossible draw offer", "Niemożliwa propozycja remisu",
        "Propozycja remisu zapisana w stanie gry jest niemożliwa przy tych opcjach."),
    "mak-yek.bad-result": Code(
        "Result disagrees", "Wynik się nie zgadza",
        "Zapisany wynik nie wynika z pozycji: gra kończy się, gdy gracz straci wszystkie pionki, nie może się "
        "ruszyć, pozycja powtórzy się trzeci raz, minie limit ruchów bez bicia albo gracze zgodzą się na remis."),
}


# --------------------------------------------------------------------------- engine


class MakYek(BaseEngine[State, Move]):
    game_id = "mak-yek"
    name = "Mak-yek (May-Yek)"
    players = range(2, 3)
    options = OPTIONS
    move_kinds = ("move", "offer-draw", "accept-draw")
    codes = CODES

    def new_game(self, players: int, rng: Rng, options: Mapping[str, Json], setup: Json = None) -> State:
        if setup is not None:
            raise InvalidOption("mak-yek.setup-unsupported", f"mak-yek has no setup notation, got {excerpt(setup)}")
        opts = Options.from_mapping(options)
        return _settle(State(opts, _START, opts.first_player, 0, ()))

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state.end is not None or state.turn is None else frozenset((state.turn,))

    def options_of(self, state: State) -> Mapping[str, Json]:
        resolved: Mapping[str, Json] = state.options.to_json()
        return resolved

    # -- legality ------------------------------------------------------------------

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state.end is not None or seat != state.turn:
            return []
        board, man = state.board, _MAN[seat]
        out: list[Move] = []
        if state.options.draw_offers:
            if state.offer is None:
                out.append(OfferDraw())
            elif state.offer != seat:
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
            require(state.options.draw_offers, IllegalMove, "mak-yek.draw-offers-off",
                    "draws by agreement are off (option draw_by_agreement)")
            if isinstance(move, OfferDraw):
                if state.offer is not None:
                    raise IllegalMove("mak-yek.draw-already-offered",
                                      f"{_COLOUR[state.offer]} has already offered a draw"
                                      + (": accept it or move" if state.offer != seat else "; now move"),
                                      seat=state.offer)
            else:
                require(state.offer == 1 - seat, IllegalMove, "mak-yek.no-draw-offer",
                        f"{_COLOUR[1 - seat]} has not offered a draw", seat=1 - seat)
            return
        board, man = state.board, _MAN[seat]
        # checked on every move: the squares' names and the messages are made only for a refusal
        if not (
            board[move.frm] == man  # "Każdy z pionków może poruszać się ... poziomo lub pionowo": one's own man
            and move.frm != move.to and (move.frm % 8 == move.to % 8 or move.frm // 8 == move.to // 8)
            # "the target must be empty: there are no displacement captures" (T8)
            and board[move.to] == _EMPTY
            and _between_empty(board, move.frm, move.to)  # "any number of empty squares ... no jumping"
        ):
            _refuse_slide(board, man, move)
        spellings = _spellings(state, move.frm, move.to)
        if move not in spellings:
            frm, to = _name(move.frm), _name(move.to)
            where = {"from": frm, "to": to}
            choices = [_name(m.custodian) for m in spellings if m.custodian is not None]
            if move.custodian is None:
                raise IllegalMove("mak-yek.custodian-choice-required",
                                  f"{frm}-{to} could make custodian captures at {choices}; with at most one per "
                                  f"move, name it in 'custodian'", **where, expected=choices)
            got = _name(move.custodian)
            if len(spellings) == 1:
                raise IllegalMove("mak-yek.no-custodian-choice",
                                  f"'custodian': {got!r} is only allowed when the move could make "
                                  f"several custodian captures under max_custodian_per_move=1", **where, got=got)
            raise IllegalMove("mak-yek.not-a-custodian-capture",
                              f"{frm}-{to} makes no custodian capture starting at {got}", **where, got=got,
                              expected=choices)

    def _apply(self, state: State, seat: int, move: Move) -> State:
        if isinstance(move, OfferDraw):
            return replace(state, offer=seat)
        if isinstance(move, AcceptDraw):
            return _settle(replace(state, offer=None, agreed=True))
        board = list(state.board)
        board[move.frm], board[move.to] = _EMPTY, _MAN[seat]
        taken = _captured(state, board, move)
        for square in taken:
            board[square] = _EMPTY
        positions: tuple[str, ...]
        if taken:
            quiet, positions = 0, ()
        else:
            quiet = state.quiet + 1
            positions = (*state.positions, position_key(state.board)) if state.options.repetition else ()
        offer = state.offer if state.offer == seat else None  # a move declines the opponent's offer
        # as _settle(replace(state, ..., end=None)) would, with one copy instead of two
        after = "".join(board)
        end = _end(state.options, after, 1 - seat, quiet, positions, state.agreed)
        return replace(state, board=after, turn=1 - seat if end is None else None, quiet=quiet,
                       positions=positions, offer=offer, end=end)

    def events(self, before: State, seat: int, move: Move, after: State) -> list[Json]:
        out = super().events(before, seat, move, after)
        if not isinstance(move, Slide):
            return out
        taken = [square_name(i % 8, i // 8) for i in range(64)
                 if before.board[i] != after.board[i] and i not in (move.frm, move.to)]
        if taken:
            out.insert(1, {"type": "capture", "seat": seat, "squares": taken})
        return out

    # -- results -------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        end = state.end
        if end is None:
            return None
        if end.winner is None:
            return Outcome((), end.reason, draw=True, points=(0, 0))
        return Outcome((end.winner,), end.reason, points=_points(end))

    def scores(self, state: State) -> ScoreReport:
        end = state.end
        counts = (state.board.count("W"), state.board.count("B"))
        points = _points(end) if end is not None else (0, 0)
        results: list[str | None] = [None, None]
        if end is not None:
            results = ["draw", "draw"] if end.winner is None else [
                "win" if seat == end.winner else "loss" for seat in (0, 1)]
        breakdown = tuple(
            {"men": counts[seat], "captured": _MEN - counts[1 - seat], "result": results[seat],
             "points": points[seat]}
            for seat in (0, 1)
        )
        winners = (end.winner,) if end is not None and end.winner is not None else ()
        return ScoreReport(points, points, breakdown, end is not None, winners)

    def round_over(self, state: State) -> bool:
        return state.end is not None

    def view(self, state: State, seat: int | None) -> Json:
        return self.to_json(state)  # perfect information

    # -- JSON ----------------------------------------------------------------------

    def to_json(self, state: State) -> Json:
        end = state.end
        return {
            "board": [state.board[r * 8:(r + 1) * 8] for r in range(7, -1, -1)],
            "colors": list(COLORS),
            "turn": state.turn,
            "plies_since_capture": state.quiet,
            "positions": list(state.positions),
            "draw_offer": state.offer,
            "draw_agreed": state.agreed,
            "result": None if end is None else {"winner": end.winner, "reason": end.reason},
            "options": state.options.to_json(),
        }

    def from_json(self, data: Json) -> State:
        try:
            with malformed("mak-yek.malformed-state", f"mak-yek state {excerpt(data)}"):
                return self._from_json(data)
        except InvalidOption as exc:
            raise InvalidState("mak-yek.bad-options", exc.message) from exc

    def _from_json(self, data: Json) -> State:
        require(isinstance(data, dict), InvalidState, "mak-yek.malformed-state",
                f"a state is an object, got {excerpt(data)}")
        unknown = set(data) - _STATE_FIELDS
        require(not unknown, InvalidState, "mak-yek.malformed-state", f"unknown state fields {sorted(unknown)}")
        require(data["colors"] == list(COLORS), InvalidState, "mak-yek.malformed-state",
                f"colors must be {list(COLORS)} (seat 0 is White), got {excerpt(data['colors'])}")
        raw_options = data["options"]
        require(isinstance(raw_options, dict), InvalidState, "mak-yek.bad-options",
                f"options must be an object, got {excerpt(raw_options)}")
        missing = set(OPTIONS) - set(raw_options)
        require(not missing, InvalidState, "mak-yek.bad-options", f"state options lack {sorted(missing)}")
        opts = Options.from_mapping(self.resolve_options(raw_options))
        rows = data["board"]
        require(isinstance(rows, list) and len(rows) == 8
                and all(isinstance(r, str) and len(r) == 8 and set(r) <= {"W", "B", "."} for r in rows),
                InvalidState, "mak-yek.bad-board",
                f"board must be 8 strings of 8 'W', 'B' or '.', rank 8 first; got {excerpt(rows)}")
        board = "".join(reversed(rows))
        for seat, man in enumerate(_MAN):
            require(board.count(man) <= _MEN, InvalidState, "mak-yek.too-many-men",
                    f"{man} has {board.count(man)} men on the board; a side has only {_MEN}",
                    seat=seat, got=board.count(man), expected=_MEN)
        turn = data["turn"]
        require(turn is None or (_is_int(turn) and turn in (0, 1)), InvalidState, "mak-yek.bad-turn",
                f"turn must be seat 0 (White), 1 (Black) or null once the game is over, got {excerpt(turn)}")
        quiet = data["plies_since_capture"]
        require(_is_int(quiet) and 0 <= quiet <= opts.no_capture_limit,
                InvalidState, "mak-yek.bad-ply-count",
                f"plies_since_capture must be 0..{opts.no_capture_limit}, got {excerpt(quiet)}",
                expected=opts.no_capture_limit)
        positions = data["positions"]
        require(isinstance(positions, list) and all(isinstance(h, str) for h in positions),
                InvalidState, "mak-yek.bad-positions",
                f"positions must be a list of position keys, got {excerpt(positions)}")
        positions = tuple(positions)
        offer, agreed = data["draw_offer"], data["draw_agreed"]
        require(offer is None or (opts.draw_offers and _is_int(offer) and offer in (0, 1) and not agreed),
                InvalidState, "mak-yek.bad-draw-offer",
                f"draw_offer must be null{' or seat 0/1 (with no draw agreed)' if opts.draw_offers else ''}, "
                f"got {excerpt(offer)}")
        require(agreed is False or (agreed is True and opts.draw_offers), InvalidState, "mak-yek.bad-draw-offer",
                f"draw_agreed must be {'a boolean' if opts.draw_offers else 'false'}, got {excerpt(agreed)}")
        result = data["result"]
        given = None if result is None else End(result["winner"], result["reason"])
        require(given is None or ((given.winner is None or (_is_int(given.winner) and given.winner in (0, 1)))
                                  and set(result) == {"winner", "reason"} and given.reason in REASONS),
                InvalidState, "mak-yek.bad-result",
                f"result is null or {{winner: 0, 1 or null, reason: one of {list(REASONS)}}}, got {excerpt(result)}")
        if turn is not None:
            require(given is None, InvalidState, "mak-yek.bad-result",
                    f"result must be null while seat {turn} is to move")
            state = self._checked(opts, board, turn, quiet, positions, offer, agreed)
            require(state.end is None, InvalidState, "mak-yek.bad-result",
                    f"the game is over ({state.end.reason if state.end else ''}): turn must be null and result set")
            return state
        require(given is not None, InvalidState, "mak-yek.bad-result",
                "turn is null only once the game is over, and then result says how it ended")
        for mover in (0, 1):  # the seat that was to move when the game ended
            try:
                state = self._checked(opts, board, mover, quiet, positions, offer, agreed)
            except InvalidState:
                continue
            if state.end == given:
                return state
        raise InvalidState("mak-yek.bad-result", f"result {excerpt(result)} does not follow from the position")

    def _checked(self, opts: Options, board: str, turn: int, quiet: int, positions: tuple[str, ...],
                 offer: int | None, agreed: bool) -> State:
        """The state with ``turn`` to move, once its counters agree with the board and each other."""
        require(board.count(_MAN[1 - turn]) > 0, InvalidState, "mak-yek.bad-turn",
                f"{_MAN[1 - turn]} has no men yet made the last move; it cannot be {_MAN[turn]}'s turn")
        if board.count("W") == board.count("B") == _MEN:
            # no capture yet: every ply since the start counts, the first player's first
            require((opts.first_player + quiet) % 2 == turn, InvalidState, "mak-yek.bad-turn",
                    f"no man has been captured and {quiet} plies were played since {_COLOUR[opts.first_player]} "
                    f"began: it is {_COLOUR[(opts.first_player + quiet) % 2]}'s turn")
            first = positions[0] if positions else position_key(board)
            require(quiet > 0 or board == _START, InvalidState, "mak-yek.bad-board",
                    "no man has been captured and no ply played, yet the men are not on their starting squares")
            require(not opts.repetition or first == position_key(_START), InvalidState, "mak-yek.bad-positions",
                    "no man has been captured, so the first position since the start must be the starting one")
        _check_positions(positions, board, turn, quiet, opts.repetition)
        return _settle(State(opts, board, turn, quiet, positions, offer, agreed))

    def move_to_json(self, move: Move) -> Json:
        if isinstance(move, OfferDraw):
            return {"kind": "offer-draw"}
        if isinstance(move, AcceptDraw):
            return {"kind": "accept-draw"}
        out = {"kind": "move", "from": _name(move.frm), "to": _name(move.to)}
        if move.custodian is not None:
            out["custodian"] = _name(move.custodian)
        return out

    def move_from_json(self, data: Json) -> Move:
        if isinstance(data, dict) and data.get("kind") in ("offer-draw", "accept-draw"):
            if set(data) != {"kind"}:
                raise IllegalMove("mak-yek.bad-move", f"{data['kind']!r} takes no fields, got {excerpt(data)}",
                                  got=excerpt(data))
            return OfferDraw() if data["kind"] == "offer-draw" else AcceptDraw()
        if not isinstance(data, dict) or data.get("kind") != "move":
            raise IllegalMove("mak-yek.bad-move",
                              f"a mak-yek move is {{'kind': 'move', 'from', 'to'}}, 'offer-draw' or 'accept-draw'; "
                              f"got {excerpt(data)}", got=excerpt(data))
        unknown = set(data) - {"kind", "from", "to", "custodian"}
        if unknown:
            raise IllegalMove("mak-yek.bad-move", f"unknown move fields {sorted(unknown)} in {excerpt(data)}",
                              got=excerpt(data))
        squares: list[int] = []
        for key in ("from", "to", "custodian"):
            if key == "custodian" and key not in data:
                continue
            value = data.get(key)
            index = _SQUARE_INDEX.get(value) if type(value) is str else None  # the 64 names: one look-up
            if index is not None:
                squares.append(index)
                continue
            parsed = parse_square(value)
            if parsed is None:
                raise IllegalMove("mak-yek.bad-move", f"{key!r} must be a square a1..h8, got {excerpt(data.get(key))}",
                                  got=excerpt(data))
            squares.append(parsed[1] * 8 + parsed[0])
        return Slide(*squares)  # no custodian: None, the default


# --------------------------------------------------------------------------- helpers


def _name(index: int) -> str:
    return square_name(index % 8, index // 8)


#: "a1" -> 0 ... "h8" -> 63: what parse_square reads from each of the 64 names, as an index
_SQUARE_INDEX = {square_name(i % 8, i // 8): i for i in range(64)}


def _refuse_slide(board: str, man: str, move: Slide) -> None:
    """Raise why the slide is refused: not one's own man, not a rook move, an occupied target, a
    blocked path (the first that applies)."""
    frm, to = _name(move.frm), _name(move.to)
    where = {"from": frm, "to": to}
    # "Każdy z pionków może poruszać się ... poziomo lub pionowo": one's own man
    require(board[move.frm] == man, IllegalMove, "mak-yek.no-own-man",
            f"{frm} holds {_describe(board[move.frm])}, not one of your men ({man})", **where)
    require(move.frm != move.to and (move.frm % 8 == move.to % 8 or move.frm // 8 == move.to // 8),
            IllegalMove, "mak-yek.not-rook-move",
            f"{frm}-{to} is not a move along one rank or file", **where)
    # "the target must be empty: there are no displacement captures" (T8)
    require(board[move.to] == _EMPTY, IllegalMove, "mak-yek.target-occupied",
            f"{to} is occupied by {_describe(board[move.to])}; a man moves only to an empty square", **where)
    # "any number of empty squares ... no jumping"
    require(move.to in _slides(board, move.frm), IllegalMove, "mak-yek.path-blocked",
            f"{frm}-{to} jumps over a man; the squares between must be empty", **where)


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
    if state.options.custodian_limit is None:
        return [Slide(frm, to)]
    custodian, _ = _capture_groups(_after(state.board, frm, to), to, state.board[frm], state.options.line_custodian)
    if len(custodian) < 2:
        return [Slide(frm, to)]
    return [Slide(frm, to, group[0]) for group in custodian]


def _captured(state: State, board_after: list[str], move: Slide) -> set[int]:
    man = board_after[move.to]
    custodian, intervention = _capture_groups(board_after, move.to, man, state.options.line_custodian)
    if move.custodian is not None:
        custodian = [g for g in custodian if g[0] == move.custodian]
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


def _repetitions(state: State) -> int:
    """How often the current position (same player to move) has occurred since the last capture."""
    return _repeated(state.board, state.positions)


def _repeated(board: str, positions: tuple[str, ...]) -> int:
    key = position_key(board)
    n = len(positions)
    return 1 + sum(1 for i in range(n - 2, -1, -2) if positions[i] == key)


def _settle(state: State) -> State:
    """Set ``end`` (how the game ended, if it has) for the position with ``turn`` to move;
    once it has ended nobody is to move (``turn`` None)."""
    mover = state.turn
    if mover is None:  # settled before: the game is over
        return state
    end = _end(state.options, state.board, mover, state.quiet, state.positions, state.agreed)
    return replace(state, end=end, turn=state.turn if end is None else None)


def _end(opts: Options, board: str, mover: int, quiet: int, positions: tuple[str, ...], agreed: bool) -> End | None:
    """How the game has ended in this position with ``mover`` to move, or None."""
    man = _MAN[mover]
    end = None
    if agreed:
        end = End(None, "agreement")
    elif man not in board:
        end = End(1 - mover, "all-captured")
    elif not _can_move(board, man):
        end = End(None, "no-legal-move") if opts.no_move_draws else End(1 - mover, "no-legal-move")
    elif opts.repetition and _repeated(board, positions) >= 3:
        end = End(None, "threefold-repetition")
    elif quiet >= opts.no_capture_limit:
        end = End(None, "no-capture-limit")
    return end


def _points(end: End) -> tuple[int, int]:
    if end.winner is None:
        return (0, 0)
    return (1, 0) if end.winner == 0 else (0, 1)


def _check_positions(positions: tuple[str, ...], board: str, turn: int, quiet: int, repetition: bool) -> None:
    """Each key is a position with the current material, consecutive positions differ by one
    quiet slide of the side then to move (the sides alternating back from ``turn``), and no
    earlier position was the third occurrence of one (the game would have ended there)."""
    if not repetition:
        require(not positions, InvalidState, "mak-yek.bad-positions",
                "positions must be empty when repetition is off")
        return
    require(len(positions) == quiet, InvalidState, "mak-yek.bad-positions",
            f"positions holds {len(positions)} entries but plies_since_capture is {quiet}")
    keys = [*positions, position_key(board)]
    counts = (board.count("W"), board.count("B"))
    decoded = []
    for key in keys:
        require(len(key) == 32 and all(c in "0123456789abcdef" for c in key), InvalidState,
                "mak-yek.bad-positions", f"a position key is 32 lowercase hex digits, got {excerpt(key)}")
        white, black = int(key[:16], 16), int(key[16:], 16)
        require(white & black == 0 and (white.bit_count(), black.bit_count()) == counts, InvalidState,
                "mak-yek.bad-positions", f"position {key!r} does not hold the men now on the board")
        decoded.append((white, black))
    for i in range(len(decoded) - 1):
        mover = (turn - (len(decoded) - 1 - i)) % 2
        before, after = decoded[i], decoded[i + 1]
        moved = before[mover] ^ after[mover]
        require(before[1 - mover] == after[1 - mover] and moved.bit_count() == 2, InvalidState,
                "mak-yek.bad-positions",
                f"positions {keys[i]!r} -> {keys[i + 1]!r} are not one move by {_MAN[mover]}")
        require(sum(1 for j in range(i, -1, -2) if keys[j] == keys[i]) < 3, InvalidState, "mak-yek.bad-positions",
                f"position {keys[i]!r} occurred a third time, which ended the game in a draw")


def _is_int(x: Json) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


ENGINE = MakYek()
