"""The engine protocol every game implements, the codes every game shares, and the seeded RNG.

An engine is a stateless object; the game lives in immutable state values. The service
calls, for every game alike::

    state = engine.new(players, seed, options)        # validated players and options
    engine.check(state, seat, move)                   # raises IllegalMove(code, message)
    state = engine.apply(state, seat, move)           # check() first, returns a NEW state
    engine.scores(state), engine.outcome(state), engine.view(state, seat)
    engine.to_json(state) / engine.from_json(data)    # from_json checks meaning (InvalidState)

States and moves are frozen dataclasses of tuples and enums. Moves are a tagged union,
one small class per kind; their JSON carries ``kind``.

Chance never comes from the module-level ``random``: deals, shuffles and dice are drawn
from :class:`Rng`, a counter-based generator carried in the state, so the same seed and
the same moves give the same state on any machine and Python version.

The core's modules import one another in one direction: :mod:`rules.shapes` (declared JSON
shapes) <- :mod:`rules.errors` (refusals and how a code is declared) <- :mod:`rules.spec` (a
game's declaration) <- this module (the engine derived from it). A game imports what it needs
from here: the names of the modules below are re-exported.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import (
    Annotated,
    Any,
    ClassVar,
    Generic,
    Literal,
    NoReturn,
    Protocol,
    TypeVar,
    runtime_checkable,
)

from rules import shapes
from rules.errors import (
    Code,
    Codes,
    ErrorCode,
    GameOver,
    IllegalMove,
    InvalidOption,
    InvalidState,
    Label,
    NotYourTurn,
    RulesError,
    UnknownGame,
    illegal,
    invalid,
)
from rules.events import SHARED_EVENTS, GameOverEvent, MoveEvent, RoundOverEvent
from rules.jsontypes import Json
from rules.shapes import (
    Doc,
    JsonObject,
    Pattern,
    Range,
    ShapeError,
    computed,
    declared,
    decode,
    decode_one_of,
    encode,
    excerpt,
    replace,
    view,
)
from rules.shapes import field as declared_field
from rules.spec import GameSpec, Option

__all__ = [
    "BAD_TALLY", "ROUND_NOT_OVER", "ROUND_OVER", "SEAT_COUNT", "SETUP_UNSUPPORTED", "TALLY_UNSUPPORTED",
    "BaseEngine", "Code", "Codes", "Engine", "ErrorCode", "GameCodes", "GameOver", "IllegalMove", "InvalidOption",
    "InvalidState", "Json", "Label", "NextRound", "NotYourTurn", "Option", "Outcome", "Rng", "RulesError",
    "ScoreReport", "UnknownGame", "excerpt", "illegal", "invalid", "replace",
]

S = TypeVar("S")
M = TypeVar("M")
T = TypeVar("T")


# --------------------------------------------------------------------------- shared codes


class GameCodes(Codes):
    """The ideas every game shares, one code each with one wording per language (DESIGN 4.4);
    every game's codes class inherits them."""

    not_your_turn = illegal(
        Label("Not your turn", "Nie twoja kolej"), "Teraz nie jest kolej gracza {seat}.",
        "The seat is at the table but may not act now (another seat is to act, or the seat already "
        "acted). Wait for the envelope's `to_act` to name it.",
        "Gracz siedzi przy stole, ale teraz nie może wykonać ruchu (kolej innego gracza albo ten gracz "
        "już się ruszył). Poczekaj, aż `to_act` go wskaże.", error=NotYourTurn)
    no_such_seat = invalid(
        Label("No such seat", "Nie ma takiego miejsca"), "Przy tym stole nie ma miejsca {seat}.",
        "The seat number is not one of this table's seats 0..players-1. Use a seat the state has.",
        "Numer miejsca nie należy do miejsc tego stołu (0..liczba graczy-1). Podaj miejsce, które jest "
        "w stanie gry.", error=InvalidOption)
    game_over = illegal(
        Label("The game is over", "Gra skończona"), "Gra dobiegła końca: nie ma już ruchów.",
        "The state is a finished game: no seat may move. Read the result from `score` or start a new game.",
        "Stan gry to gra zakończona: nikt nie może się ruszyć. Wynik podaje `score`; zacznij nową grę.", error=GameOver)
    malformed_move = illegal(
        Label("Malformed move", "Nieprawidłowy zapis ruchu"),
        "Ruch nie ma postaci ruchu w tej grze: {field}.",
        "The move is not one of the game's move kinds, or its fields have the wrong type or range "
        "(`field` names the first). `GET /v1/games/{game}` lists the move kinds; the OpenAPI "
        "contract gives each one's fields.",
        "Ruch nie jest żadnym z rodzajów ruchu tej gry albo jego pola mają zły typ lub zakres (`field` "
        "wskazuje pierwsze). Rodzaje ruchów podaje `GET /v1/games/{game}`, a ich pola kontrakt OpenAPI.")
    bad_state = invalid(
        Label("Malformed state", "Nieprawidłowy zapis stanu gry"),
        "Stan gry nie ma właściwej postaci: {field}.",
        "The state does not have the game's shape: a field is missing, unknown, of the wrong type or out "
        "of range (`field` names the first). Send a state as the service wrote it.",
        "Stan gry nie ma postaci stanu tej gry: brakuje pola, jest pole nieznane, ma zły typ albo wartość "
        "spoza zakresu (`field` wskazuje pierwsze). Wyślij stan w postaci, w jakiej zapisała go usługa.")


# Codes a game opts into (``round_over = ROUND_OVER`` in its codes class): shared ideas with one
# wording, but not every game has them.
ROUND_OVER = illegal(
    Label("The round is over", "Runda skończona"),
    "Runda {round} się skończyła: teraz można tylko rozpocząć następną.",
    "The round has ended and its scores are final: the only move is `next-round`.",
    "Runda się skończyła i jej wynik jest ostateczny: jedyny ruch to `next-round`.")
ROUND_NOT_OVER = illegal(
    Label("The round is not over", "Runda trwa"),
    "Runda {round} jeszcze trwa: następną zaczyna się dopiero po jej końcu.",
    "`next-round` was sent while the round is still being played. Play the round to its end first.",
    "Wysłano `next-round`, choć runda jeszcze trwa. Najpierw trzeba ją rozegrać do końca.")
SETUP_UNSUPPORTED = invalid(
    Label("No setup positions", "Brak ustawień początkowych"),
    "Ta gra zawsze zaczyna się tak, jak każą jej reguły (od rozdania kart albo od ustawienia pionków): "
    "nie przyjmuje ustawienia początkowego.",
    "`setup` was given for a game that always starts as its rules say (from the deal, or with the men on "
    "their starting squares). Leave `setup` out.",
    "Podano `setup` dla gry, która zawsze zaczyna się tak, jak każą jej reguły (od rozdania kart albo od "
    "ustawienia pionków). Pomiń `setup`.", error=InvalidOption)
BAD_TALLY = invalid(
    Label("Invalid score sheet", "Nieprawidłowe podliczenie"),
    "Podliczenie nie ma właściwej postaci: {field}.",
    "The `tally` does not have the game's score-sheet shape (`field` names the first problem). The "
    "OpenAPI contract gives the game's tally.",
    "Podliczenie (`tally`) nie ma postaci arkusza tej gry (`field` wskazuje pierwszy błąd). Postać "
    "podliczenia podaje kontrakt OpenAPI.")
SEAT_COUNT = invalid(
    Label("Wrong number of entries", "Zła liczba wpisów"),
    "Pole {field} ma {got} wpisów, a przy stole jest {expected} graczy.",
    "A field with one entry per seat has more or fewer entries than the table has players.",
    "Pole z jednym wpisem na gracza ma więcej lub mniej wpisów, niż jest graczy przy stole.")
TALLY_UNSUPPORTED = invalid(
    Label("No score sheet", "Brak arkusza wyników"),
    "Ta gra nie ma arkusza wyników do podliczenia.",
    "`score` was sent a `tally` for a game without a score sheet. Send its `state` instead.",
    "Wysłano `tally` do gry bez arkusza wyników. Wyślij zamiast tego `state`.")


# --------------------------------------------------------------------------- rng


_U64 = 1 << 64


def _check_below(n: int) -> None:
    if not 0 < n < _U64:
        raise ValueError(f"randbelow needs 0 < n < 2**64, got {n}")


#: the most draws a state's generator may have made (``Rng.MAX_COUNTER``): far beyond any game, and an
#: integer every JSON reader holds exactly (IEEE doubles are exact to 2**53)
_RNG_MAX = 2**48


def _used_up(counter: int) -> NoReturn:
    """A draw past the generator's last: refused, so no state ever carries a counter beyond what
    a state may be read with (a client could send a counter at the maximum)."""
    raise InvalidState("state.rng", f"the state's random generator has made its last draw ({counter}); "
                       "start a new game", field="rng.counter")


def _below(key: bytes, counter: int, n: int) -> tuple[int, int]:
    """``Rng.randbelow(n)`` on a decoded key: the value and the counter after it (rejection
    sampling as specified in :class:`Rng`); shuffles and dice call it once per draw."""
    limit = _U64 - _U64 % n
    while True:
        if counter >= _RNG_MAX:
            _used_up(counter)
        x = int.from_bytes(hashlib.sha256(key + counter.to_bytes(8, "big")).digest()[:8], "big")
        counter += 1
        if x < limit:
            return x % n, counter


#: a die's face, as :meth:`Rng.dice` rolls it (declared once for every game with dice)
Die = Annotated[int, Range(1, 6)]


@declared
class Rng:
    """Counter-based generator; its output is specified, not left to ``random``.

    Version 1: the ``i``-th 64-bit draw is the first 8 bytes (big-endian) of
    ``SHA-256(bytes.fromhex(key) + i.to_bytes(8, "big"))``; ``counter`` is the number of
    draws made so far. ``randbelow(n)`` rejects draws ``>= 2**64 - 2**64 % n`` and returns
    ``draw % n``; ``shuffle`` is Fisher-Yates from the last index down, ``j = randbelow(i + 1)``.
    A seed (int or string) becomes the key ``SHA-256("arbiter-rng-v1:int:<seed>")`` (or
    ``:str:``); no seed draws a key from ``secrets``.

    Its JSON (``{"v": 1, "key", "counter"}``), JSON Schema and reader come from this declaration
    (:mod:`rules.shapes`), as every state's do.
    """

    key: Annotated[str, Pattern("^[0-9a-f]{64}$"), Doc("the key: 64 lowercase hex digits")]
    counter: Annotated[int, Range(0, _RNG_MAX), Doc("draws made so far")] = declared_field(default=0, required=True)
    MAX_COUNTER: ClassVar[int] = _RNG_MAX  # accepted in a state; a draw beyond it is refused (state.rng)

    @computed(required=True)
    def v(self) -> Literal[1]:
        """the generator's version (always 1)"""
        return 1

    @classmethod
    def from_seed(cls, seed: int | str | None = None) -> Rng:
        if seed is None:
            return cls(secrets.token_hex(32))
        tag = "int" if isinstance(seed, int) else "str"
        return cls(hashlib.sha256(f"arbiter-rng-v1:{tag}:{seed}".encode()).hexdigest())

    def next_u64(self) -> tuple[int, Rng]:
        if self.counter >= _RNG_MAX:
            _used_up(self.counter)
        digest = hashlib.sha256(bytes.fromhex(self.key) + self.counter.to_bytes(8, "big")).digest()
        return int.from_bytes(digest[:8], "big"), Rng(self.key, self.counter + 1)

    def randbelow(self, n: int) -> tuple[int, Rng]:
        _check_below(n)
        x, counter = _below(bytes.fromhex(self.key), self.counter, n)
        return x, Rng(self.key, counter)

    def shuffle(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        out = list(items)
        # randbelow(i + 1) for i from the last index down, with the key decoded once and one new
        # Rng for the whole shuffle instead of one of each per draw (the same draws, in order)
        key, counter = bytes.fromhex(self.key), self.counter
        for i in range(len(out) - 1, 0, -1):
            j, counter = _below(key, counter, i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), (self if counter == self.counter else Rng(self.key, counter))

    def dice(self, count: int = 2, sides: int = 6) -> tuple[tuple[int, ...], Rng]:
        if count <= 0:
            return (), self
        _check_below(sides)
        key, counter, rolls = bytes.fromhex(self.key), self.counter, []
        for _ in range(count):  # randbelow(sides) ``count`` times, as in shuffle
            x, counter = _below(key, counter, sides)
            rolls.append(x + 1)
        return tuple(rolls), Rng(self.key, counter)


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class ScoreReport:
    """A score report (DESIGN 4.5): the round it scores, this round's ``points`` and the running
    ``totals`` per seat (partners repeat their side's figure), a ``breakdown`` per seat naming every
    item that scored, with its ``points`` (a declared dataclass of the game's). ``final`` is true
    once the round's points can no longer change; ``winners`` is non-empty only when the game is
    over.

    A game gives ``history`` as the finished rounds *before* this one (one row of per-seat points
    each); the report's JSON ``history`` has one row per finished round, so once ``final`` the
    round just scored is its last row (:attr:`finished`): the one place that says so.
    """

    points: tuple[int, ...]
    totals: tuple[int, ...]
    breakdown: tuple[object, ...]  # one declared dataclass of the game's per seat
    final: bool
    winners: tuple[int, ...] = ()
    round: int | None = None
    history: tuple[tuple[int, ...], ...] = ()

    @property
    def finished(self) -> tuple[tuple[int, ...], ...]:
        """One row per finished round: the earlier rounds, and this one once it is final."""
        return (*self.history, self.points) if self.final else self.history

    def to_json(self) -> Json:
        return {
            "round": self.round,
            "points": list(self.points),
            "totals": list(self.totals),
            "history": [list(row) for row in self.finished],
            "breakdown": [encode(b) for b in self.breakdown],
            "final": self.final,
            "winners": list(self.winners),
        }


@dataclass(frozen=True)
class Outcome:
    """The end of a game: who won (several on a shared win, none on a draw) and why."""

    winners: tuple[int, ...]
    reason: str
    draw: bool = False
    points: tuple[int, ...] = field(default=())

    def to_json(self) -> Json:
        out: dict[str, Json] = {"winners": list(self.winners), "reason": self.reason, "draw": self.draw}
        if self.points:
            out["points"] = list(self.points)
        return out


# --------------------------------------------------------------------------- shared moves


@dataclass(frozen=True, slots=True)
class NextRound:
    """``{"kind": "next-round"}``: the chance step that starts the next round or game once a
    round is over (DESIGN §3, Rounds). Every game with rounds uses this one move."""

    kind: ClassVar[str] = "next-round"
    label: ClassVar[Label] = Label("Next round", "Następna runda")
    #: a shared move: the catalogue names it with the game's own term of the same name where the
    #: game declares one (``GameSpec.describe``); a game's own moves keep their labels
    shared: ClassVar[bool] = True


# --------------------------------------------------------------------------- protocol


@runtime_checkable
class Engine(Protocol[S, M]):
    """What the service calls on a game (DESIGN 3); :class:`BaseEngine` provides most of it.
    The facts are read-only properties, so a class attribute of a narrower type satisfies them."""

    @property
    def game_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def players(self) -> range: ...
    @property
    def options(self) -> Mapping[str, Option]: ...
    @property
    def move_kinds(self) -> tuple[str, ...]: ...
    @property
    def legal_moves_complete(self) -> bool: ...
    @property
    def spec(self) -> GameSpec:
        """The game's declaration (DESIGN 4.8)."""
    @property
    def codes(self) -> Mapping[str, Any]: ...

    def new(self, players: int, seed: int | str | None = None, options: Mapping[str, Json] | None = None,
            setup: Json = None) -> S: ...
    def new_game(self, players: int, rng: Rng, options: Any, setup: Any = None) -> S: ...
    def require_seat(self, state: S, seat: int | None) -> None: ...
    def to_act(self, state: S) -> frozenset[int]: ...
    def legal_moves(self, state: S, seat: int) -> Sequence[M]: ...
    def check(self, state: S, seat: int, move: M) -> None: ...
    def apply(self, state: S, seat: int, move: M) -> S: ...
    def scores(self, state: S) -> ScoreReport: ...
    def outcome(self, state: S) -> Outcome | None: ...
    def round_over(self, state: S) -> bool: ...
    def view(self, state: S, seat: int | None) -> Json: ...
    def to_json(self, state: S) -> Json: ...
    def from_json(self, data: Json) -> S: ...
    def move_to_json(self, move: M) -> Json: ...
    def move_from_json(self, data: Json) -> M: ...
    def options_of(self, state: S) -> Mapping[str, Json]: ...
    def score_tally(self, tally: Json) -> ScoreReport: ...
    def events(self, before: S, seat: int, move: M, after: S) -> list[Json]: ...
    def move_view(self, move: M, actor: int, viewer: int | None) -> Json | None: ...
    def carries_chance(self, move: M) -> bool: ...


class BaseEngine(Generic[S, M]):
    """Shared plumbing for engines: option resolution, turn checks, ``apply`` via ``check``.

    A game subclasses this and provides ``new_game``, ``legal_moves``, ``check``, ``_apply``
    (the transition, called only after ``check`` passed), ``scores`` and ``outcome``; ``to_act``
    and ``round_over`` follow from the phase vocabulary of DESIGN 4.5 unless the game says
    otherwise.

    A game is declared with a :class:`~rules.spec.GameSpec` (``spec = SPEC`` on its class) and gets
    the rest from its declaration: its id, name, players, options, move kinds and codes; reading and
    writing states and moves (``from_json`` reads the declared shape, then calls
    ``check_state`` for the checks of meaning), views by visibility, options as its options
    dataclass (``new_game`` receives an instance), tallies read by shape before ``tally_scores``,
    and ``no-such-seat`` for a seat the table lacks.
    """

    game_id: ClassVar[str]
    name: ClassVar[str]
    players: ClassVar[range]
    options: ClassVar[Mapping[str, Option]]
    move_kinds: ClassVar[tuple[str, ...]]
    legal_moves_complete: ClassVar[bool]
    #: every error code this engine raises, with its titles and Polish detail (DESIGN 4.4)
    codes: ClassVar[Mapping[str, ErrorCode]]
    #: the game's declaration
    spec: ClassVar[GameSpec]
    # made from the declaration by __init_subclass__
    _C: ClassVar[Any]  # the game's Codes class: Any, as each game's own codes are its attributes
    _encode_state: ClassVar[staticmethod[[Any], JsonObject]]
    _decode_state: ClassVar[staticmethod[[Json, str], Any]]
    _move_decoders: ClassVar[dict[str, Callable[[Json, str], Any]]]
    _move_encoders: ClassVar[dict[type, Callable[[Any], JsonObject]]]
    _encode_options: ClassVar[staticmethod[[Any], JsonObject]]
    _event_writers: ClassVar[dict[type, Callable[[Any], JsonObject]]] = {c: shapes.shape_of(c).encode for c in SHARED_EVENTS}
    _round_over_phase: ClassVar[object] = None  # the game's phase members named "round-over" and "game-over"
    _game_over_phase: ClassVar[object] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        spec = getattr(cls, "spec", None)
        if not isinstance(spec, GameSpec):
            raise TypeError(f"{cls.__name__} needs its declaration: spec = GameSpec(...) (rules.spec)")
        cls.game_id, cls.name, cls.players = spec.id, spec.name, spec.players
        cls.options = spec.option_map
        cls.move_kinds = spec.move_kinds
        cls.legal_moves_complete = spec.legal_moves_complete
        cls.codes = spec.codes.all()
        cls._C = spec.codes
        cls._encode_state = staticmethod(shapes.shape_of(spec.state).encode)
        cls._decode_state = staticmethod(shapes.shape_of(spec.state).decode)
        cls._move_decoders = {m.__dict__["kind"]: shapes.shape_of(m).decode for m in spec.moves}
        cls._move_encoders = {m: shapes.shape_of(m).encode for m in spec.moves}
        cls._encode_options = staticmethod(shapes.shape_of(spec.options).encode)
        cls._event_writers = {c: shapes.shape_of(c).encode for c in spec.event_classes}
        phases = {p.value: p for p in spec.phases}
        cls._round_over_phase, cls._game_over_phase = phases.get("round-over"), phases.get("game-over")

    # -- creation ------------------------------------------------------------------

    def resolve_options(self, given: Mapping[str, Json] | None) -> dict[str, Json]:
        given = dict(given or {})
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            raise InvalidOption(
                "options.unknown", f"unknown option(s) {unknown} for {self.game_id}; known: {sorted(self.options)}"
            )
        return {name: opt.validate(name, given[name]) if name in given else opt.default
                for name, opt in self.options.items()}

    def new(
        self,
        players: int,
        seed: int | str | None = None,
        options: Mapping[str, Json] | None = None,
        setup: Json = None,
    ) -> S:
        """A new game with validated players and options; ``seed`` feeds the state's rng."""
        if not isinstance(players, int) or isinstance(players, bool) or players not in self.players:
            raise InvalidOption(
                "options.players",
                f"{self.game_id} is for {self.players.start}-{self.players.stop - 1} players, got {players!r}",
            )
        resolved = self.spec.options(**self.resolve_options(options))
        if setup is not None:
            setup = self._read_setup(setup)
        return self.new_game(players, Rng.from_seed(seed), resolved, setup)

    def new_game(self, players: int, rng: Rng, options: Any, setup: Any = None) -> S:
        """A new game. A declared game receives its options dataclass and its setup read by shape."""
        raise NotImplementedError

    def _read_setup(self, setup: Json) -> Any:
        if self.spec.setup is None:
            raise self._C.setup_unsupported(f"{self.game_id} has no setup positions, got {excerpt(setup)}")
        try:
            return decode(self.spec.setup, setup, "setup")
        except ShapeError as exc:
            raise self._C.bad_setup(f"malformed {self.game_id} setup: {exc.message}", field=exc.path) from None

    # -- moves ---------------------------------------------------------------------

    def check_turn(self, state: S, seat: int) -> None:
        """GameOver when the game has ended; NotYourTurn when ``seat`` may not act now; for a
        declared game, ``no-such-seat`` first when the table has no such seat."""
        if not 0 <= seat < state.players:  # type: ignore[attr-defined]
            self.require_seat(state, seat)
        acting = self.to_act(state)
        if not acting:
            raise self._C.game_over("the game is over: no more moves", seat=seat)
        if seat not in acting:
            raise self._C.not_your_turn(f"seat {seat} may not act now; to act: {sorted(acting)}", seat=seat)

    def to_act(self, state: S) -> frozenset[int]:
        """The seats that may act (DESIGN 4.5): in phase ``round-over`` every seat (any may deal the
        next round), in ``game-over`` none, otherwise the one seat ``turn`` names. A game whose
        seats act otherwise (several at once, or a seat other than ``turn``) overrides it."""
        phase = state.phase  # type: ignore[attr-defined]  # every declared state has phase, turn, players
        if phase is self._game_over_phase:
            return frozenset()
        if phase is self._round_over_phase:
            return frozenset(range(state.players))  # type: ignore[attr-defined]
        return frozenset((state.turn,))  # type: ignore[attr-defined]

    def legal_moves(self, state: S, seat: int) -> Sequence[M]:
        raise NotImplementedError

    def check(self, state: S, seat: int, move: M) -> None:
        raise NotImplementedError

    def scores(self, state: S) -> ScoreReport:
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome | None:
        raise NotImplementedError

    def apply(self, state: S, seat: int, move: M) -> S:
        self.check(state, seat, move)
        return self._apply(state, seat, move)

    def _apply(self, state: S, seat: int, move: M) -> S:
        raise NotImplementedError

    def is_legal(self, state: S, seat: int, move: M) -> bool:
        try:
            self.check(state, seat, move)
        except IllegalMove:
            return False
        return True

    def events(self, before: S, seat: int, move: M, after: S) -> list[Json]:
        """What the move did, as JSON: the events :meth:`emit` gives, each written by its declared
        writer (an event class the game's ``GameSpec.events`` does not list raises KeyError)."""
        writers = self._event_writers
        return [writers[type(e)](e) for e in self.emit(before, seat, move, after)]

    def emit(self, before: S, seat: int, move: M, after: S) -> list[Any]:
        """What the move did (declared events, :mod:`rules.events`): the move, then the end of the
        round and of the game. A game adds its own (``GameSpec.events`` lists their classes)."""
        out: list[Any] = [MoveEvent(seat=seat, move=self.move_to_json(move))]
        if self.round_over(after) and not self.round_over(before):
            out.append(RoundOverEvent())
        if self.outcome(after) is not None:
            out.append(GameOverEvent())
        return out

    def carries_chance(self, move: M) -> bool:
        """Whether ``move`` names a chance outcome (physical dice) instead of leaving the draw to
        the state's rng. Sessions refuse such moves: there chance is the server's (DESIGN 4.1).
        Default: the move has a ``dice`` field that is set (``Roll(dice=(6, 5))``); a game with
        other chance-carrying moves overrides this."""
        return getattr(move, "dice", None) is not None

    def move_view(self, move: M, actor: int, viewer: int | None) -> Json | None:
        """The move as ``viewer`` may see it in a log; ``None`` hides it entirely."""
        return self.move_to_json(move)

    def round_over(self, state: S) -> bool:
        """Whether the round (or the game) is over: phase ``round-over`` or ``game-over``."""
        phase = state.phase  # type: ignore[attr-defined]
        return phase is self._round_over_phase or phase is self._game_over_phase

    def score_tally(self, tally: Json) -> ScoreReport:
        if self.spec.tally is None:
            raise self._C.tally_unsupported(f"{self.game_id} has no score-sheet tally: send its state")
        try:
            shape = self.spec.tally
            sheet = decode_one_of(shape, tally, "tally") if isinstance(shape, tuple) else decode(shape, tally, "tally")
        except ShapeError as exc:
            raise self._C.bad_tally(f"malformed {self.game_id} tally: {exc.message}", field=exc.path) from None
        return self.tally_scores(sheet)

    def tally_scores(self, tally: Any) -> ScoreReport:
        """The scores of a score sheet read by its declared shape (declared games)."""
        raise NotImplementedError

    # -- the declared game's reading, writing and views ------------------------------

    def require_seat(self, state: S, seat: int | None) -> None:
        """``no-such-seat`` unless ``seat`` is ``None`` (a spectator) or one of the table's."""
        players = state.players  # type: ignore[attr-defined]
        if seat is not None and not 0 <= seat < players:
            raise self._C.no_such_seat(f"seat {seat} is not at this table of {players} (seats 0..{players - 1})",
                                       seat=seat)

    def to_json(self, state: S) -> Json:
        return self._encode_state(state)

    def from_json(self, data: Json) -> S:
        try:
            state = self._decode_state(data, "")
        except ShapeError as exc:
            raise self._C.bad_state(f"malformed {self.game_id} state: {exc.message}", field=exc.path or "state") from None
        return self.check_state(state)

    def check_state(self, state: S) -> S:
        """The checks of meaning of a state read by its shape (conservation, a turn play can
        reach ...); returns the state, perhaps normalised (hands sorted)."""
        return state

    def move_to_json(self, move: M) -> Json:
        return self._move_encoders[type(move)](move)

    def move_from_json(self, data: Json) -> M:
        kind = data.get("kind") if type(data) is dict else None
        decode = self._move_decoders.get(kind) if type(kind) is str else None
        if decode is None:
            what = f"unknown move kind {excerpt(kind)}" if type(data) is dict else f"a move is an object, got {excerpt(data)}"
            raise self._C.malformed_move(f"{what}; {self.game_id} moves are {list(self.move_kinds)}", field="kind")
        try:
            return decode(data, "")  # type: ignore[no-any-return]
        except ShapeError as exc:
            raise self._C.malformed_move(f"malformed {kind!r} move: {exc.message}", field=exc.path) from None

    def view(self, state: S, seat: int | None) -> Json:
        return view(state, seat)

    def options_of(self, state: S) -> Mapping[str, Json]:
        return self._encode_options(state.options)  # type: ignore[attr-defined]
