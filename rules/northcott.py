"""Northcott's game ("Gra Northcotta"): the seed's dice game, with the classic game as an option.

The rules as applied here, each ruling with its source and option: ``docs/rules/northcott.md``
(section numbers below refer to it).

- §2: 8 files, one pawn of seat 0 (White) and one of seat 1 (Black) per file; ``board``
  ``"8x8"`` (default), ``"8x10"``, ``"8x12"``.
- §3: the setup: file by file from a to h, White rolls for his pawn in that file, then Black;
  1 or 5 places it on the 1st rank from the player's own edge, 2 or 6 on the 2nd, 3 or 4 on
  the 3rd (``placement = "choose-file"``: the roller names the file). White moves first
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

State JSON (§7): ``pawns`` lists, for seat 0 (White) then seat 1 (Black), the absolute rank
(1-based, from seat 0's edge) of each file's pawn, or null before it is placed; ``colors`` is
the label ``["white", "black"]``; ``phase`` is ``setup``, ``first-roll`` or ``play``; ``turn``
is the seat to act (null in the first-player roll, where both act, and once the game is over);
``result`` is null until the game ends, then ``{"winner", "reason"}``; ``die`` is a rolled die
awaiting its ``place`` move. Nothing is hidden; views only drop the rng. ``from_json`` refuses
states play cannot reach (§7). Scores: 1 for the winner, 0 for the loser.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

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
from rules.boards import COLORS, FILES, parse_square, square_name

_FILES = 8
_DIE_RANK = {1: 1, 5: 1, 2: 2, 6: 2, 3: 3, 4: 3}  # die -> rank from the player's own edge (§3.2)
_COLOUR = ("White", "Black")
_BOARDS = {"8x8": 8, "8x10": 10, "8x12": 12}
_STATE_FIELDS = frozenset(("phase", "colors", "turn", "pawns", "die", "result", "rng", "options"))

OPTIONS: Mapping[str, Option] = {
    "variant": Option(
        "dice", "'dice': the seed's game (forward 1-3 squares); 'classic': any distance, towards or away "
        "(docs/rules/northcott.md §4)",
        choices=("dice", "classic"),
    ),
    "board": Option("8x8", "board size, files x ranks (docs/rules/northcott.md §2)", choices=tuple(_BOARDS)),
    "placement": Option(
        "in-order", "'in-order': files a..h, White then Black; 'choose-file': the roller picks the file "
        "(docs/rules/northcott.md §3.2)",
        choices=("in-order", "choose-file"),
    ),
    "first_player": Option(
        "white", "who moves first after the setup: White, or the higher roll of one die each "
        "(docs/rules/northcott.md §3.4)",
        choices=("white", "higher-roll"),
    ),
    "misere": Option(False, "misere: the player who cannot move wins (docs/rules/northcott.md §5.2)", type="boolean"),
}


class Phase(Enum):
    SETUP = "setup"
    FIRST_ROLL = "first-roll"
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class Options:
    classic: bool
    ranks: int
    choose_file: bool
    roll_first: bool
    misere: bool

    @classmethod
    def from_mapping(cls, given: Mapping[str, Json]) -> Options:
        return cls(
            classic=given["variant"] == "classic",
            ranks=_BOARDS[given["board"]],
            choose_file=given["placement"] == "choose-file",
            roll_first=given["first_player"] == "higher-roll",
            misere=given["misere"],
        )

    def to_json(self) -> Json:
        return {
            "variant": "classic" if self.classic else "dice",
            "board": f"8x{self.ranks}",
            "placement": "choose-file" if self.choose_file else "in-order",
            "first_player": "higher-roll" if self.roll_first else "white",
            "misere": self.misere,
        }


@dataclass(frozen=True, slots=True)
class State:
    options: Options
    rng: Rng
    phase: Phase
    pawns: tuple[tuple[int | None, ...], tuple[int | None, ...]]  # per seat: 0-based absolute rank per file, or None
    turn: int | None  # the seat to act; None in the first-player roll (both act) and once the game is over
    die: int | None = None  # a rolled die awaiting its place move (choose-file)
    winner: int | None = None  # derived: set once the player to move in play cannot move


@dataclass(frozen=True, slots=True)
class Roll:
    dice: tuple[int, ...] | None = None  # physical dice; None draws from the rng


@dataclass(frozen=True, slots=True)
class Place:
    file: int


@dataclass(frozen=True, slots=True)
class Step:
    file: int
    frm: int  # 0-based ranks
    to: int


Move = Roll | Place | Step


# --------------------------------------------------------------------------- error codes (DESIGN 4.4)

CODES: Mapping[str, Code] = {
    "northcott.not-your-turn": Code(
        "Not your turn", "Nie twój ruch", "Gracz {seat} nie ma teraz ruchu: kolej na przeciwnika."),
    "northcott.game-over": Code(
        "The game is over", "Gra skończona", "Gra już się skończyła; gracz {seat} nie może wykonać ruchu."),
    "northcott.no-such-seat": Code(
        "No such seat", "Nie ma takiego gracza", "Przy tej planszy nie ma gracza {seat}: grają dwie osoby, 0 i 1."),
    "northcott.tally-unsupported": Code(
        "No score sheet", "Brak karty wyników",
        "W grze Northcotta nie podlicza się punktów z karty: wygrywa ten, kto zablokuje pionki przeciwnika."),
    "northcott.setup-unsupported": Code(
        "No setup notation", "Brak zapisu ustawienia",
        "Pionki ustawia się rzutami kostką; gra nie przyjmuje gotowego ustawienia."),
    "northcott.wrong-phase": Code(
        "Not in this phase", "Nie w tej fazie gry",
        "Teraz trwa faza {got}: kostką rzuca się tylko przy ustawianiu pionków i o pierwszy ruch, "
        "a pionki przesuwa się dopiero po ustawieniu wszystkich."),
    "northcott.place-first": Code(
        "Place the pawn first", "Najpierw postaw pionek",
        "Na kostce wypadło już {die}: wybierz kolumnę dla pionka ruchem place."),
    "northcott.bad-dice": Code(
        "Impossible roll", "Niemożliwy rzut",
        "W tym rzucie liczba kostek to {expected}, a każda pokazuje od 1 do 6 oczek; podano {got}."),
    "northcott.tied-roll": Code(
        "Tied roll", "Remis w rzucie", "W rzucie o pierwszy ruch wypadło {got}, czyli po równo: rzućcie jeszcze raz."),
    "northcott.roll-first": Code(
        "Roll first", "Najpierw rzut kostką",
        "Pionek stawia się dopiero po rzucie kostką, który wyznacza jego rząd."),
    "northcott.file-taken": Code(
        "File taken", "Kolumna zajęta", "Masz już pionek w kolumnie {file}: każdy pionek stoi w innej kolumnie."),
    "northcott.no-own-pawn": Code(
        "Not your pawn", "To nie twój pionek",
        "Na polu {from} nie stoi twój pionek; twój pionek w tej kolumnie stoi na {expected}."),
    "northcott.no-move": Code("No move", "Brak ruchu", "Ruch {from}-{to} nie przesuwa pionka."),
    "northcott.not-forward": Code(
        "Not forward", "Ruch do tyłu",
        "Ruch {from}-{to} nie idzie do przodu, a każdy pionek może się poruszać wyłącznie do przodu."),
    "northcott.too-far": Code(
        "Too far", "Za daleko",
        "Ruch {from}-{to} jest za długi: pionek przesuwa się o jedno, dwa lub trzy pola."),
    "northcott.blocked": Code(
        "Blocked", "Droga zablokowana",
        "Ruch {from}-{to} przeskakuje pionek przeciwnika na {square} albo na nim staje; nie wolno przeskakiwać "
        "pionków."),
    "northcott.off-board": Code("Off the board", "Poza planszą", "Ruch {from}-{to} wychodzi poza planszę."),
    "northcott.not-same-file": Code(
        "Not along the file", "Zmiana kolumny",
        "Ruch {from}-{to} zmienia kolumnę; pionek porusza się tylko wzdłuż swojej kolumny."),
    "northcott.bad-move": Code(
        "Malformed move", "Niezrozumiały ruch",
        "Nie rozumiem ruchu {got}: ruch to rzut kostką (roll), postawienie pionka (place) albo przesunięcie "
        "(move, from, to)."),
    "northcott.malformed-state": Code(
        "Malformed state", "Błędny zapis stanu", "Zapis stanu gry Northcotta ma złą postać albo nieznane pola."),
    "northcott.bad-options": Code(
        "Bad options", "Błędne opcje", "Opcje zapisane w stanie gry są błędne albo niepełne."),
    "northcott.bad-rng": Code(
        "Bad random generator", "Błędny generator losowy",
        "Zapis generatora rzutów kostką (rng) jest błędny."),
    "northcott.bad-turn": Code(
        "Impossible turn", "Niemożliwa kolej",
        "W tej pozycji nie może być kolej tego gracza (turn): nie zgadza się z fazą gry albo z liczbą ruchów, "
        "które pionki musiały wykonać."),
    "northcott.bad-rank": Code(
        "Impossible rank", "Niemożliwy rząd",
        "Pionki to dwie listy po 8 kolumn, a każdy pionek stoi w rzędzie planszy (albo jeszcze nie stoi)."),
    "northcott.pawns-crossed": Code(
        "Pawns crossed", "Pionki się minęły",
        "W kolumnie {file} pionki stoją na jednym polu albo się minęły, a nie wolno przeskakiwać pionków."),
    "northcott.bad-setup": Code(
        "Impossible setup", "Niemożliwe ustawienie",
        "Ustawienie pionków jest niemożliwe: rzut kostką stawia pionek w jednym z trzech pierwszych rzędów "
        "od brzegu gracza, gracze ustawiają na zmianę, a gra zaczyna się po ustawieniu wszystkich 16 pionków."),
    "northcott.bad-phase": Code(
        "Impossible phase", "Niemożliwa faza gry",
        "Rzut o pierwszy ruch odbywa się tylko przy opcji higher-roll, zanim jakikolwiek pionek się ruszy."),
    "northcott.bad-die": Code(
        "Impossible die", "Niemożliwa kostka",
        "Kostka czeka na postawienie pionka tylko przy wyborze kolumny (choose-file) w czasie ustawiania."),
    "northcott.bad-result": Code(
        "Result disagrees", "Wynik się nie zgadza",
        "Zapisany wynik nie wynika z pozycji: gra kończy się, gdy gracz, na którego kolej, nie może ruszyć "
        "żadnym pionkiem."),
}


class Northcott(BaseEngine[State, Move]):
    game_id = "northcott"
    name = "Northcott's game (dice variant; classic as an option)"
    players = range(2, 3)
    options = OPTIONS
    move_kinds = ("roll", "place", "move")
    codes = CODES

    def new_game(self, players: int, rng: Rng, options: Mapping[str, Json], setup: Json = None) -> State:
        if setup is not None:
            raise InvalidOption("northcott.setup-unsupported", f"northcott has no setup notation, got {excerpt(setup)}")
        empty = (None,) * _FILES
        return State(Options.from_mapping(options), rng, Phase.SETUP, (empty, empty), 0)

    def to_act(self, state: State) -> frozenset[int]:
        if state.winner is not None:
            return frozenset()
        if state.phase is Phase.FIRST_ROLL:
            return frozenset((0, 1))
        return frozenset((state.turn,))

    def options_of(self, state: State) -> Mapping[str, Json]:
        return state.options.to_json()

    # -- legality ------------------------------------------------------------------

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        if state.phase is not Phase.PLAY:
            if state.die is not None:
                return [Place(f) for f in _open_files(state, seat)]
            return [Roll()]
        own = _pawns(state, seat)
        return [Step(f, own[f], to) for f in range(_FILES) for to in _targets(state, seat, f)]

    def check(self, state: State, seat: int, move: Move) -> None:
        self.check_turn(state, seat)
        if (
            move.__class__ is Step and state.phase is Phase.PLAY and state.pawns[seat][move.file] == move.frm
            and move.to in _targets(state, seat, move.file)
        ):
            return  # a legal step (a target passes every check below): no refusal messages made
        if isinstance(move, Roll):
            require(state.phase is not Phase.PLAY, IllegalMove, "northcott.wrong-phase",
                    "dice are rolled only during the setup and for the first player; now pawns move",
                    got=state.phase.value)
            require(state.die is None, IllegalMove, "northcott.place-first",
                    f"the die already shows {state.die}: choose the file for your pawn with a 'place' move",
                    die=state.die)
            if move.dice is not None:
                count = 2 if state.phase is Phase.FIRST_ROLL else 1
                dice = list(move.dice)
                require(len(move.dice) == count and all(1 <= d <= 6 for d in move.dice), IllegalMove,
                        "northcott.bad-dice", f"this roll is {count} die/dice showing 1..6, got {dice}",
                        expected=count, got=dice)
                require(count == 1 or move.dice[0] != move.dice[1], IllegalMove, "northcott.tied-roll",
                        f"the first-player roll {dice} is a tie: roll again", got=dice)
        elif isinstance(move, Place):
            require(state.phase is Phase.SETUP and state.die is not None, IllegalMove, "northcott.roll-first",
                    "a pawn is placed only after its die is rolled (placement 'choose-file')")
            require(move.file in _open_files(state, seat), IllegalMove, "northcott.file-taken",
                    f"you already have a pawn in file {FILES[move.file]!r}", file=FILES[move.file])
        else:
            require(state.phase is Phase.PLAY, IllegalMove, "northcott.wrong-phase",
                    f"pawns move only after the setup; now is the {state.phase.value} phase", got=state.phase.value)
            frm, to = _name(move.file, move.frm), _name(move.file, move.to)
            where = {"from": frm, "to": to}
            own, enemy = _pawns(state, seat)[move.file], _pawns(state, 1 - seat)[move.file]
            require(own == move.frm, IllegalMove, "northcott.no-own-pawn",
                    f"your pawn in file {FILES[move.file]} is on {_name(move.file, own)}, not {frm}",
                    **where, expected=_name(move.file, own))
            forward = 1 if seat == 0 else -1
            step = (move.to - move.frm) * forward
            require(step != 0, IllegalMove, "northcott.no-move", f"{frm}-{to} does not move the pawn", **where)
            if not state.options.classic:
                # "Każdy pionek może się poruszać wyłącznie do przodu" (forward only) ...
                require(step > 0, IllegalMove, "northcott.not-forward", f"{frm}-{to} is not a forward move", **where)
                # ... "przesuwając pionek o jedno, dwa lub trzy pola" (1, 2 or 3 squares)
                require(step <= 3, IllegalMove, "northcott.too-far", f"{frm}-{to} moves {step} squares; at most 3",
                        **where, got=step)
            if step > 0:
                # "Nie wolno przeskakiwać pionków": the squares passed and the target must be empty
                require((enemy - move.to) * forward > 0, IllegalMove, "northcott.blocked",
                        f"{frm}-{to} would {'land on' if enemy == move.to else 'jump'} the enemy pawn "
                        f"on {_name(move.file, enemy)}", **where, square=_name(move.file, enemy))
            require(move.to in _targets(state, seat, move.file), IllegalMove, "northcott.off-board",
                    f"{frm}-{to} leaves the board", **where)

    def _apply(self, state: State, seat: int, move: Move) -> State:
        if isinstance(move, Roll):
            if state.phase is Phase.FIRST_ROLL:
                dice, rng = move.dice, state.rng
                while dice is None or dice[0] == dice[1]:
                    dice, rng = rng.dice(2)
                return _finish(replace(state, rng=rng, phase=Phase.PLAY, turn=0 if dice[0] > dice[1] else 1))
            if move.dice is not None:
                die, rng = move.dice[0], state.rng
            else:
                (die,), rng = state.rng.dice(1)
            state = replace(state, rng=rng)
            if state.options.choose_file:
                return replace(state, die=die)
            return _place(state, seat, _open_files(state, seat)[0], die)
        if isinstance(move, Place):
            return _place(state, seat, move.file, state.die)
        return _finish(replace(state, pawns=_moved(state.pawns, seat, move.file, move.to), turn=1 - seat))

    def events(self, before: State, seat: int, move: Move, after: State) -> list[Json]:
        out = super().events(before, seat, move, after)
        if isinstance(move, Roll) and move.dice is None:
            drawn = after.rng.counter - before.rng.counter
            out.insert(1, {"type": "rng-roll", "seat": seat, "draws": drawn})
        return out

    # -- results -------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        winner = state.winner
        if winner is None:
            return None
        return Outcome((winner,), _reason(state.options), points=(1 - winner, winner))

    def scores(self, state: State) -> ScoreReport:
        winner = state.winner
        if winner is None:
            points = (0, 0)
            breakdown = tuple({"result": None, "points": 0} for _ in range(2))
            return ScoreReport(points, points, breakdown, False)
        points = (1 - winner, winner)
        breakdown = tuple({"result": "win" if seat == winner else "loss", "points": points[seat]} for seat in (0, 1))
        return ScoreReport(points, points, breakdown, True, (winner,))

    def round_over(self, state: State) -> bool:
        return state.winner is not None

    def view(self, state: State, seat: int | None) -> Json:
        out = self.to_json(state)
        del out["rng"]
        return out

    # -- JSON ----------------------------------------------------------------------

    def to_json(self, state: State) -> Json:
        return {
            "phase": state.phase.value,
            "colors": list(COLORS),
            "turn": state.turn,
            "pawns": [[None if r is None else r + 1 for r in own] for own in state.pawns],
            "die": state.die,
            "result": None if state.winner is None else {"winner": state.winner, "reason": _reason(state.options)},
            "rng": state.rng.to_json(),
            "options": state.options.to_json(),
        }

    def from_json(self, data: Json) -> State:
        try:
            with malformed("northcott.malformed-state", f"northcott state {excerpt(data)}"):
                return self._from_json(data)
        except InvalidOption as exc:
            raise InvalidState("northcott.bad-options", exc.message) from exc

    def _from_json(self, data: Json) -> State:
        require(isinstance(data, dict), InvalidState, "northcott.malformed-state",
                f"a state is an object, got {excerpt(data)}")
        unknown = set(data) - _STATE_FIELDS
        require(not unknown, InvalidState, "northcott.malformed-state", f"unknown state fields {sorted(unknown)}")
        require(data["colors"] == list(COLORS), InvalidState, "northcott.malformed-state",
                f"colors must be {list(COLORS)} (seat 0 is White), got {excerpt(data['colors'])}")
        raw_options = data["options"]
        require(isinstance(raw_options, dict) and not set(OPTIONS) - set(raw_options), InvalidState,
                "northcott.bad-options", f"options must name every option {sorted(OPTIONS)}, got {excerpt(raw_options)}")
        opts = Options.from_mapping(self.resolve_options(raw_options))
        try:
            rng = Rng.from_json(data["rng"])
        except InvalidState as exc:
            raise InvalidState("northcott.bad-rng", exc.message) from exc
        phase = Phase(data["phase"])
        turn, die = data["turn"], data["die"]
        require(turn is None or (_is_int(turn) and turn in (0, 1)), InvalidState, "northcott.bad-turn",
                f"turn must be seat 0 (White), 1 (Black) or null, got {excerpt(turn)}")
        raw = data["pawns"]
        require(isinstance(raw, list) and len(raw) == 2, InvalidState, "northcott.bad-rank",
                f"pawns must list seat 0's and seat 1's pawns, got {excerpt(raw)}")
        pawns = []
        for seat, ranks in enumerate(raw):
            require(isinstance(ranks, list) and len(ranks) == _FILES
                    and all(r is None or (_is_int(r) and 1 <= r <= opts.ranks) for r in ranks),
                    InvalidState, "northcott.bad-rank",
                    f"pawns[{seat}] must list 8 ranks 1..{opts.ranks} (or null), got {excerpt(ranks)}")
            pawns.append(tuple(None if r is None else r - 1 for r in ranks))
        white, black = pawns
        placed = (sum(r is not None for r in white), sum(r is not None for r in black))
        for f in range(_FILES):
            w, b = white[f], black[f]
            require(w is None or b is None or w < b, InvalidState, "northcott.pawns-crossed",
                    f"file {FILES[f]}: White's pawn on rank {w and w + 1} is not below Black's on {b and b + 1}; "
                    "pawns never pass each other", file=FILES[f])
        if phase is Phase.SETUP:
            require(placed[0] - placed[1] in (0, 1) and turn == placed[0] - placed[1] and placed[1] < _FILES,
                    InvalidState, "northcott.bad-setup",
                    f"White has placed {placed[0]} and Black {placed[1]} pawns: turn {turn} is not the seat to place")
            for seat, ranks in enumerate(pawns):
                for f, r in enumerate(ranks):
                    home = r if seat == 0 or r is None else opts.ranks - 1 - r
                    require(home is None or home < 3, InvalidState, "northcott.bad-setup",
                            f"{_COLOUR[seat]}'s pawn in file {FILES[f]} is not on the 3 ranks nearest its edge")
                    require(opts.choose_file or (r is not None) == (f < placed[seat]), InvalidState,
                            "northcott.bad-setup", f"placement is in file order, but {_COLOUR[seat]}'s files "
                            f"are {''.join(FILES[g] for g in range(_FILES) if ranks[g] is not None)!r}")
        else:
            require(placed == (_FILES, _FILES), InvalidState, "northcott.bad-setup",
                    f"the {phase.value} phase needs all 16 pawns placed, got {placed[0]} + {placed[1]}")
        if phase is Phase.FIRST_ROLL:
            require(opts.roll_first, InvalidState, "northcott.bad-phase",
                    "a first-player roll only happens with first_player 'higher-roll'")
            require(turn is None, InvalidState, "northcott.bad-turn",
                    f"both seats roll for the first move: turn must be null, got {excerpt(turn)}")
            require(all(_home(opts, seat, r) < 3 for seat in (0, 1) for r in pawns[seat]), InvalidState,
                    "northcott.bad-phase", "before the first move every pawn stands where the dice placed it")
        needs_die = opts.choose_file and phase is Phase.SETUP
        require(die is None or (needs_die and _is_int(die) and 1 <= die <= 6), InvalidState, "northcott.bad-die",
                f"die must be null{' or 1..6' if needs_die else ''} here, got {excerpt(die)}")
        result = data["result"]
        require(result is None or phase is Phase.PLAY, InvalidState, "northcott.bad-result",
                f"the game ends only in the play phase; result must be null, got {excerpt(result)}")
        state = State(opts, rng, phase, (white, black), turn, die)
        if phase is not Phase.PLAY:
            return state
        if turn is not None:
            require(result is None, InvalidState, "northcott.bad-result",
                    f"result must be null while seat {turn} is to move")
            _check_moves_made(state, turn)
            finished = _finish(state)
            require(finished.winner is None, InvalidState, "northcott.bad-result",
                    f"seat {turn} cannot move: the game is over, so turn must be null and result set")
            return finished
        require(isinstance(result, dict) and set(result) == {"winner", "reason"} and result["winner"] in (0, 1)
                and _is_int(result["winner"]) and result["reason"] == _reason(opts), InvalidState,
                "northcott.bad-result",
                f"turn is null only once the game is over, and then result is {{winner: 0 or 1, reason: "
                f"{_reason(opts)!r}}}; got {excerpt(result)}")
        mover = result["winner"] if opts.misere else 1 - result["winner"]
        _check_moves_made(state, mover)
        finished = _finish(replace(state, turn=mover))
        require(finished.winner == result["winner"], InvalidState, "northcott.bad-result",
                f"seat {mover} can still move, so {excerpt(result)} has not happened")
        return finished

    def move_to_json(self, move: Move) -> Json:
        if isinstance(move, Roll):
            return {"kind": "roll"} if move.dice is None else {"kind": "roll", "dice": list(move.dice)}
        if isinstance(move, Place):
            return {"kind": "place", "file": FILES[move.file]}
        return {"kind": "move", "from": _name(move.file, move.frm), "to": _name(move.file, move.to)}

    def move_from_json(self, data: Json) -> Move:
        def bad(why: str) -> IllegalMove:
            return IllegalMove("northcott.bad-move", f"{why}; got {excerpt(data)}", got=excerpt(data))

        if not isinstance(data, dict) or data.get("kind") not in self.move_kinds:
            raise bad("a northcott move is an object with kind 'roll', 'place' or 'move'")
        kind = data["kind"]
        allowed = {"roll": {"kind", "dice"}, "place": {"kind", "file"}, "move": {"kind", "from", "to"}}[kind]
        if set(data) - allowed:
            raise bad(f"unknown fields {sorted(set(data) - allowed)} for a {kind!r} move")
        if kind == "roll":
            dice = data.get("dice")
            if dice is None and "dice" not in data:
                return Roll()
            if not isinstance(dice, list) or not 1 <= len(dice) <= 2 or not all(_is_int(d) for d in dice):
                raise bad("'dice' must be a list of one or two integers")
            return Roll(tuple(dice))
        if kind == "place":
            file = data.get("file")
            if not isinstance(file, str) or len(file) != 1 or file not in FILES:
                raise bad("'file' must be one of 'a'..'h'")
            return Place(FILES.index(file))
        squares = [_square(data.get(key)) for key in ("from", "to")]
        if None in squares:
            raise bad("'from' and 'to' must be squares like 'c2'")
        (f1, r1), (f2, r2) = squares
        if f1 != f2:
            raise IllegalMove("northcott.not-same-file", f"{data['from']}-{data['to']}: a pawn moves along its own file",
                              **{"from": data["from"], "to": data["to"]})
        return Step(f1, r1, r2)


# --------------------------------------------------------------------------- helpers


def _is_int(x: Json) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _name(file: int, rank: int) -> str:
    return square_name(file, rank)


#: "a1" -> (0, 0) ... "h12" -> (7, 11): what parse_square(..., ranks=12) reads from each name
_SQUARES = {square_name(f, r): (f, r) for f in range(_FILES) for r in range(12)}


def _square(value: Json) -> tuple[int, int] | None:
    """``parse_square(value, ranks=12)``, a name looked up in one step."""
    square = _SQUARES.get(value) if type(value) is str else None
    return square if square is not None else parse_square(value, ranks=12)


def _pawns(state: State, seat: int) -> tuple[int | None, ...]:
    return state.pawns[seat]


def _moved(pawns: tuple, seat: int, file: int, rank: int) -> tuple:
    """``pawns`` with the pawn of ``seat`` in ``file`` on ``rank``."""
    own = list(pawns[seat])
    own[file] = rank
    return (tuple(own), pawns[1]) if seat == 0 else (pawns[0], tuple(own))


def _open_files(state: State, seat: int) -> list[int]:
    return [f for f, r in enumerate(_pawns(state, seat)) if r is None]


def _targets(state: State, seat: int, file: int) -> list[int]:
    """Ranks the pawn of ``seat`` in ``file`` may move to (the one source of movement legality)."""
    own, enemy = _pawns(state, seat)[file], _pawns(state, 1 - seat)[file]
    forward = 1 if seat == 0 else -1
    gap = (enemy - own) * forward - 1
    if not state.options.classic:
        return [own + forward * k for k in range(1, min(gap, 3) + 1)]
    back = own if seat == 0 else state.options.ranks - 1 - own
    return [own + forward * k for k in range(1, gap + 1)] + [own - forward * k for k in range(1, back + 1)]


def _home(opts: Options, seat: int, rank: int) -> int:
    """How far ``rank`` (0-based, absolute) is from the edge of ``seat``: 0 on its first rank."""
    return rank if seat == 0 else opts.ranks - 1 - rank


def _check_moves_made(state: State, turn: int) -> None:
    """In the dice variant every move takes a pawn 1-3 squares forward from the rank its die
    gave it (its first 3 ranks), and the players alternate from the first player: the moves each
    side must have made (between the fewest and the most its pawns' advances allow) must agree
    with ``turn``. Classic pawns may also retreat, so any count is possible there."""
    opts = state.options
    if opts.classic:
        return
    spans = []
    for seat in (0, 1):
        homes = [_home(opts, seat, r) for r in state.pawns[seat]]
        spans.append((sum(-(-max(0, h - 2) // 3) for h in homes), sum(homes)))
    firsts = (0, 1) if opts.roll_first else (0,)
    for first in firsts:
        other = 1 - first
        extra = 0 if turn == first else 1  # the first player has made one move more when it is not his turn
        lo = max(spans[first][0], spans[other][0] + extra)
        hi = min(spans[first][1], spans[other][1] + extra)
        if lo <= hi:
            return
    raise InvalidState("northcott.bad-turn",
                       f"pawns that advanced {spans[0][0]}..{spans[0][1]} moves (White) and {spans[1][0]}..{spans[1][1]} "
                       f"(Black) cannot have left seat {turn} to move")


def _can_move(state: State, seat: int) -> bool:
    """Whether any file's ``_targets`` is non-empty, without listing them: a free square ahead
    (``gap`` >= 1), or in the classic game one behind (``back`` >= 1)."""
    forward = 1 if seat == 0 else -1
    classic, last = state.options.classic, state.options.ranks - 1
    mine, theirs = state.pawns[seat], state.pawns[1 - seat]
    for f in range(_FILES):
        own, enemy = mine[f], theirs[f]
        if (enemy - own) * forward - 1 >= 1:
            return True
        if classic and (own if seat == 0 else last - own) >= 1:
            return True
    return False


def _place(state: State, seat: int, file: int, die: int) -> State:
    home = _DIE_RANK[die] - 1
    rank = home if seat == 0 else state.options.ranks - 1 - home
    state = replace(state, pawns=_moved(state.pawns, seat, file, rank), die=None, turn=1 - seat)
    if seat == 1 and None not in state.pawns[1]:
        if state.options.roll_first:
            return replace(state, phase=Phase.FIRST_ROLL, turn=None)
        return _finish(replace(state, phase=Phase.PLAY, turn=0))
    return state


def _finish(state: State) -> State:
    """In play, with ``turn`` to move: when he cannot move the game is over; he loses (wins under
    misere), and nobody is to move any more (``turn`` None)."""
    if state.phase is not Phase.PLAY or _can_move(state, state.turn):
        return state
    winner = state.turn if state.options.misere else 1 - state.turn
    return replace(state, winner=winner, turn=None)


REASONS = ("cannot-move", "cannot-move-misere")


def _reason(options: Options) -> str:
    return REASONS[options.misere]


ENGINE = Northcott()
