"""The engine protocol every game implements, its error hierarchy, and the seeded RNG.

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
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType, MemberDescriptorType
from typing import (
    TYPE_CHECKING,
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
from rules.events import SHARED_EVENTS, GameOverEvent, MoveEvent, RoundOverEvent
from rules.shapes import Doc, Pattern, Range, ShapeError, computed, decode, decode_one_of, encode, view
from rules.shapes import field as declared_field

if TYPE_CHECKING:
    from rules.spec import GameSpec

Json = Any
S = TypeVar("S")
M = TypeVar("M")
T = TypeVar("T")


# --------------------------------------------------------------------------- errors


class RulesError(Exception):
    """A rules-level refusal: a stable namespaced ``code`` and a message for people.

    ``code`` never changes once published (``11-nimmt.not-in-range``); ``message``
    quotes the offending input. ``context`` holds extra JSON members for the problem.
    """

    kind: ClassVar[str] = "rules-error"

    def __init__(self, code: str, message: str, **context: Json) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.context = context

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class InvalidState(RulesError):
    """A state (or tally) that is well formed but impossible: lost cards, bad turn."""

    kind = "invalid-state"


class InvalidOption(RulesError):
    """An unknown option, or a value outside its choices, or a bad player count."""

    kind = "invalid-option"


class IllegalMove(RulesError):
    """A well-formed move that the rules do not allow in this state."""

    kind = "illegal-move"


class NotYourTurn(IllegalMove):
    kind = "not-your-turn"


class GameOver(IllegalMove):
    kind = "game-over"


class UnknownGame(RulesError):
    kind = "unknown-game"


#: What parsing untrusted JSON throws when the data has the wrong shape (a missing key, a
#: string where a list belongs, an unknown enum value ...), as opposed to a RulesError.
MALFORMED_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


_NOTHING = object()


class malformed:  # noqa: N801  # used as a function: ``with malformed(...):``
    """Turn a stray KeyError/TypeError/ValueError/IndexError/AttributeError raised while reading
    untrusted JSON into ``error(code, f"malformed {what} {excerpt(quoting)}")``: no Python
    internals in the message, and the input quoted only when it is refused (moves are read on
    every request and every replayed move)::

        with malformed(f"{GAME}.bad-move", f"{GAME} move", IllegalMove, quoting=data):
            return _move_from_json(data)

    A RulesError raised inside passes through unchanged (it already carries its own code).
    A small class rather than a ``@contextmanager`` generator: entering and leaving cost a
    fraction of a generator's, and every move read passes through here.
    """

    __slots__ = ("code", "what", "error", "quoting")

    def __init__(self, code: str, what: str, error: type[RulesError] = InvalidState, *, quoting: Any = _NOTHING
                 ) -> None:
        self.code = code
        self.what = what
        self.error = error
        self.quoting = quoting

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        # returns None: any other exception passes through unchanged
        if exc_type is not None and issubclass(exc_type, MALFORMED_ERRORS):
            quoted = "" if self.quoting is _NOTHING else f" {excerpt(self.quoting)}"
            raise self.error(self.code, f"malformed {self.what}{quoted}") from exc


_ENCODER = json.JSONEncoder(ensure_ascii=False)  # made once: json.dumps(..., ensure_ascii=False) makes one a call
_JSON_STRING = json.encoder.encode_basestring  # type: ignore[attr-defined]  # C-fast, as json.dumps writes a str


def excerpt(value: Any, limit: int = 60) -> str:
    """``value`` as JSON (``repr`` for what JSON cannot write) cut to ``limit`` characters: messages quote a short excerpt of the
    input, never a whole hostile state (DESIGN 4.4)."""
    if value is None or isinstance(value, bool):
        text = "null" if value is None else "true" if value else "false"  # the client's notation, not None
    elif isinstance(value, int | float):
        text = repr(value)
    elif isinstance(value, str):
        text = _JSON_STRING(value)
    else:
        try:
            text = _ENCODER.encode(value)
        except (TypeError, ValueError):
            text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Code:
    """What a client may rely on for one stable error ``code`` (DESIGN 4.4): its English
    ``title``, and the Polish ``title_pl`` and ``detail_pl``. ``detail_pl`` is a
    ``str.format`` template over the context members the error is raised with (``{card}``,
    ``{seat}``, ``{expected}`` ...); the English detail is the message given at the raise.
    Each engine lists the codes it raises in its ``codes`` mapping."""

    title: str
    title_pl: str
    detail_pl: str


@dataclass(frozen=True, slots=True)
class Label:
    """A text in both languages the service speaks (English, Polish)."""

    en: str
    pl: str

    def to_json(self) -> Json:
        return {"en": self.en, "pl": self.pl}

    def __call__(self, lang: str) -> str:
        return self.pl if lang == "pl" else self.en


def _template_fields(template: str) -> frozenset[str]:
    import string

    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


@dataclass(frozen=True, eq=False)
class ErrorCode:
    """One stable error ``code`` a client may rely on (DESIGN 4.4), declared once with its texts.

    ``title`` names it in both languages; ``detail_pl`` is the Polish detail, a ``str.format``
    template over the context members the error is raised with (the English detail is the
    message written where it is raised, quoting the input); ``description`` says when it
    happens and what to do, in both languages. ``error`` is the exception class it is raised
    as; ``status`` the HTTP status where it is not the class's. Calling it makes the error::

        raise C.card_not_in_hand(f"seat {seat} does not hold {card}", seat=seat, card=card)

    A code is declared in a :class:`Codes` class, which gives it its name (the attribute's, in
    kebab case) and namespace (the game id): ``take-that.card-not-in-hand``."""

    error: type[RulesError]
    title: Label
    detail_pl: str
    description: Label
    status: int | None = None
    namespace: str = ""
    name: str = ""

    @property
    def id(self) -> str:
        return f"{self.namespace}.{self.name}"

    @property
    def fields(self) -> frozenset[str]:
        """The context members the Polish detail needs (each raise must give them)."""
        return _template_fields(self.detail_pl)

    def __call__(self, message: str, **context: Json) -> RulesError:
        return self.error(self.id, message, **context)

    def bound(self, namespace: str, name: str) -> ErrorCode:
        return ErrorCode(self.error, self.title, self.detail_pl, self.description, self.status, namespace, name)


def illegal(title: Label, detail_pl: str, en: str, pl: str) -> ErrorCode:
    """An illegal-move code (422): its title, Polish detail template, and when it happens and what
    to do, in English and Polish. The name and namespace come from the :class:`Codes` class."""
    return ErrorCode(IllegalMove, title, detail_pl, Label(en, pl))


def invalid(title: Label, detail_pl: str, en: str, pl: str) -> ErrorCode:
    """An invalid-state code (422), declared as :func:`illegal` declares a move's."""
    return ErrorCode(InvalidState, title, detail_pl, Label(en, pl))


def _kebab(name: str) -> str:
    return name.strip("_").replace("_", "-")


class Codes:
    """The error codes of one namespace, as class attributes (typed: a misspelt code is an
    AttributeError and a mypy error, never a new string). A subclass names its namespace::

        class C(GameCodes, namespace="take-that"):
            card_not_in_hand = ErrorCode(IllegalMove, Label(...), "...", Label(...))

    Every ErrorCode attribute, its own or inherited (the shared ones of :class:`GameCodes`),
    is bound to the namespace; ``all()`` lists them by code."""

    namespace: ClassVar[str] = ""
    _all: ClassVar[Mapping[str, ErrorCode]] = MappingProxyType({})

    def __init_subclass__(cls, namespace: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not namespace:
            return
        cls.namespace = namespace
        found: dict[str, ErrorCode] = {}
        for klass in reversed(cls.__mro__):
            for attr, value in vars(klass).items():
                if isinstance(value, ErrorCode):
                    found[attr] = value
        bound = {}
        for attr, value in found.items():
            code = value.bound(namespace, _kebab(attr))
            setattr(cls, attr, code)
            bound[code.id] = code
        cls._all = MappingProxyType(bound)

    @classmethod
    def all(cls) -> Mapping[str, ErrorCode]:
        return cls._all


class GameCodes(Codes):
    """The ideas every game shares, one code each with one wording per language (DESIGN 4.4);
    every game's codes class inherits them."""

    not_your_turn = ErrorCode(
        NotYourTurn, Label("Not your turn", "Nie twoja kolej"), "Teraz nie jest kolej gracza {seat}.",
        Label("The seat is at the table but may not act now (another seat is to act, or the seat already "
              "acted). Wait for the envelope's `to_act` to name it.",
              "Gracz siedzi przy stole, ale teraz nie może wykonać ruchu (kolej innego gracza albo ten gracz "
              "już się ruszył). Poczekaj, aż `to_act` go wskaże."))
    no_such_seat = ErrorCode(
        InvalidOption, Label("No such seat", "Nie ma takiego miejsca"), "Przy tym stole nie ma miejsca {seat}.",
        Label("The seat number is not one of this table's seats 0..players-1. Use a seat the state has.",
              "Numer miejsca nie należy do miejsc tego stołu (0..liczba graczy-1). Podaj miejsce, które jest "
              "w stanie gry."))
    game_over = ErrorCode(
        GameOver, Label("The game is over", "Gra skończona"), "Gra dobiegła końca: nie ma już ruchów.",
        Label("The state is a finished game: no seat may move. Read the result from `score` or start a new game.",
              "Stan gry to gra zakończona: nikt nie może się ruszyć. Wynik podaje `score`; zacznij nową grę."))
    malformed_move = ErrorCode(
        IllegalMove, Label("Malformed move", "Nieprawidłowy zapis ruchu"),
        "Ruch nie ma postaci ruchu w tej grze: {field}.",
        Label("The move is not one of the game's move kinds, or its fields have the wrong type or range "
              "(`field` names the first). `GET /v1/games/{game}` lists the move kinds; the OpenAPI "
              "contract gives each one's fields.",
              "Ruch nie jest żadnym z rodzajów ruchu tej gry albo jego pola mają zły typ lub zakres (`field` "
              "wskazuje pierwsze). Rodzaje ruchów podaje `GET /v1/games/{game}`, a ich pola kontrakt OpenAPI."))
    bad_state = ErrorCode(
        InvalidState, Label("Malformed state", "Nieprawidłowy zapis stanu gry"),
        "Stan gry nie ma właściwej postaci: {field}.",
        Label("The state does not have the game's shape: a field is missing, unknown, of the wrong type or out "
              "of range (`field` names the first). Send a state as the service wrote it.",
              "Stan gry nie ma postaci stanu tej gry: brakuje pola, jest pole nieznane, ma zły typ albo wartość "
              "spoza zakresu (`field` wskazuje pierwsze). Wyślij stan w postaci, w jakiej zapisała go usługa."))


# Codes a game opts into (``round_over = ROUND_OVER`` in its codes class): shared ideas with one
# wording, but not every game has them.
ROUND_OVER = ErrorCode(
    IllegalMove, Label("The round is over", "Runda skończona"),
    "Runda {round} się skończyła: teraz można tylko rozpocząć następną.",
    Label("The round has ended and its scores are final: the only move is `next-round`.",
          "Runda się skończyła i jej wynik jest ostateczny: jedyny ruch to `next-round`."))
ROUND_NOT_OVER = ErrorCode(
    IllegalMove, Label("The round is not over", "Runda trwa"),
    "Runda {round} jeszcze trwa: następną zaczyna się dopiero po jej końcu.",
    Label("`next-round` was sent while the round is still being played. Play the round to its end first.",
          "Wysłano `next-round`, choć runda jeszcze trwa. Najpierw trzeba ją rozegrać do końca."))
SETUP_UNSUPPORTED = ErrorCode(
    InvalidOption, Label("No setup positions", "Brak ustawień początkowych"),
    "Ta gra zawsze zaczyna się tak, jak każą jej reguły (od rozdania kart albo od ustawienia pionków): "
    "nie przyjmuje ustawienia początkowego.",
    Label("`setup` was given for a game that always starts as its rules say (from the deal, or with the men on "
          "their starting squares). Leave `setup` out.",
          "Podano `setup` dla gry, która zawsze zaczyna się tak, jak każą jej reguły (od rozdania kart albo od "
          "ustawienia pionków). Pomiń `setup`."))
BAD_TALLY = ErrorCode(
    InvalidState, Label("Invalid score sheet", "Nieprawidłowe podliczenie"),
    "Podliczenie nie ma właściwej postaci: {field}.",
    Label("The `tally` does not have the game's score-sheet shape (`field` names the first problem). The "
          "OpenAPI contract gives the game's tally.",
          "Podliczenie (`tally`) nie ma postaci arkusza tej gry (`field` wskazuje pierwszy błąd). Postać "
          "podliczenia podaje kontrakt OpenAPI."))
SEAT_COUNT = ErrorCode(
    InvalidState, Label("Wrong number of entries", "Zła liczba wpisów"),
    "Pole {field} ma {got} wpisów, a przy stole jest {expected} graczy.",
    Label("A field with one entry per seat has more or fewer entries than the table has players.",
          "Pole z jednym wpisem na gracza ma więcej lub mniej wpisów, niż jest graczy przy stole."))
TALLY_UNSUPPORTED = ErrorCode(
    InvalidState, Label("No score sheet", "Brak arkusza wyników"),
    "Ta gra nie ma arkusza wyników do podliczenia.",
    Label("`score` was sent a `tally` for a game without a score sheet. Send its `state` instead.",
          "Wysłano `tally` do gry bez arkusza wyników. Wyślij zamiast tego `state`."))


# --------------------------------------------------------------------------- rng


_U64 = 1 << 64
_HEX = frozenset("0123456789abcdef")


def _check_below(n: int) -> None:
    if not 0 < n < _U64:
        raise ValueError(f"randbelow needs 0 < n < 2**64, got {n}")


_RNG_MAX = 2**48  # Rng.MAX_COUNTER: the most draws a state may have made (JSON integers stay exact)


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


@dataclass(frozen=True, slots=True)
class Rng:
    """Counter-based generator; its output is specified, not left to ``random``.

    Version 1: the ``i``-th 64-bit draw is the first 8 bytes (big-endian) of
    ``SHA-256(bytes.fromhex(key) + i.to_bytes(8, "big"))``; ``counter`` is the number of
    draws made so far. ``randbelow(n)`` rejects draws ``>= 2**64 - 2**64 % n`` and returns
    ``draw % n``; ``shuffle`` is Fisher-Yates from the last index down, ``j = randbelow(i + 1)``.
    A seed (int or string) becomes the key ``SHA-256("arbiter-rng-v1:int:<seed>")`` (or
    ``:str:``); no seed draws a key from ``secrets``.
    """

    key: Annotated[str, Pattern("^[0-9a-f]{64}$"), Doc("the key: 64 lowercase hex digits")]
    counter: Annotated[int, Range(0, _RNG_MAX), Doc("draws made so far")] = declared_field(default=0, required=True)
    VERSION: ClassVar[int] = 1
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

    def to_json(self) -> Json:
        return {"v": self.VERSION, "key": self.key, "counter": self.counter}

    @classmethod
    def from_json(cls, data: Json) -> Rng:
        try:
            version, key, counter = data["v"], data["key"], data["counter"]
        except (TypeError, KeyError) as exc:
            raise InvalidState("state.rng", f"rng must be {{v, key, counter}}, got {data!r}") from exc
        if version != cls.VERSION:
            raise InvalidState("state.rng-version", f"rng version {version!r} is not {cls.VERSION}")
        if (
            not isinstance(key, str)
            or len(key) != 64
            or not _HEX.issuperset(key)
        ):
            raise InvalidState("state.rng", f"rng key must be 64 lowercase hex digits, got {key!r}")
        if not isinstance(counter, int) or isinstance(counter, bool) or not 0 <= counter <= cls.MAX_COUNTER:
            raise InvalidState(
                "state.rng", f"rng counter must be an integer in 0..{cls.MAX_COUNTER}, got {counter!r}"
            )
        return cls(key, counter)


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """One named rule option (a ruling the rulebook leaves open, or a variant; docs/rules/ says which).

    Exactly one of ``choices`` (an enumeration) or ``type`` ("boolean", "integer",
    "string", "object") describes its values; integers may carry bounds.
    """

    default: Json
    description: str
    choices: tuple[Json, ...] | None = None
    type: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    label: Label | None = None  # for players, in both languages (declared games)
    help: Label | None = None  # noqa: A003  # one sentence for players, no references
    choice_labels: tuple[Label, ...] | None = None  # one per choice

    def validate(self, name: str, value: Json) -> Json:
        if self.choices is not None:
            if not any(value == c and type(value) is type(c) for c in self.choices):
                raise InvalidOption(
                    "options.bad-value", f"option {name!r} must be one of {list(self.choices)}, got {excerpt(value)}",
                    option=name, expected=list(self.choices),
                )
            return value
        expected = {"boolean": bool, "integer": int, "string": str, "object": dict}[self.type or "string"]
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise InvalidOption("options.bad-type", f"option {name!r} must be a {self.type}, got {excerpt(value)}",
                                option=name, expected=self.type)
        if isinstance(value, int) and (
            (self.minimum is not None and value < self.minimum)
            or (self.maximum is not None and value > self.maximum)
        ):
            raise InvalidOption(
                "options.out-of-range",
                f"option {name!r} must be between {self.minimum} and {self.maximum}, got {excerpt(value)}",
                option=name, expected=[self.minimum, self.maximum],
            )
        return value

    def to_json(self) -> Json:
        out: dict[str, Json] = {"default": self.default, "description": self.description}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        else:
            out["type"] = self.type
            if self.minimum is not None:
                out["minimum"] = self.minimum
            if self.maximum is not None:
                out["maximum"] = self.maximum
        if self.label is not None:
            out["label"] = self.label.to_json()
        if self.help is not None:
            out["help"] = self.help.to_json()
        if self.choice_labels is not None:
            out["choice_labels"] = [label.to_json() for label in self.choice_labels]
        return out


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
    breakdown: tuple[Json, ...]
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
    def spec(self) -> GameSpec | None:
        """The game's declaration (None for a game not yet declared)."""
    @property
    def codes(self) -> Mapping[str, Any]: ...

    def new(self, players: int, seed: int | str | None = None, options: Mapping[str, Json] | None = None,
            setup: Json = None) -> S: ...
    def new_game(self, players: int, rng: Rng, options: Any, setup: Json = None) -> S: ...
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

    A game declared with a :class:`~rules.spec.GameSpec` (``spec = SPEC`` on its class) gets the
    rest from its declaration: its id, name, players, options, move kinds and codes; reading and
    writing states and moves (``from_json`` reads the declared shape, then calls
    ``check_state`` for the checks of meaning), views by visibility, options as its options
    dataclass (``new_game`` receives an instance), tallies read by shape before ``tally_scores``,
    and ``no-such-seat`` for a seat the table lacks. Games not yet declared provide all of it
    themselves.
    """

    game_id: ClassVar[str]
    name: ClassVar[str]
    players: ClassVar[range]
    options: ClassVar[Mapping[str, Option]] = {}
    move_kinds: ClassVar[tuple[str, ...]] = ()
    legal_moves_complete: ClassVar[bool] = True
    #: every error code this engine raises, with its titles and Polish detail (DESIGN 4.4)
    codes: ClassVar[Mapping[str, Any]] = {}
    #: the game's declaration; None for a game not yet declared
    spec: ClassVar[GameSpec | None] = None
    # made from the declaration by __init_subclass__
    _C: ClassVar[Any]
    _encode_state: ClassVar[Any]
    _decode_state: ClassVar[Any]
    _move_decoders: ClassVar[dict[str, Any]]
    _move_encoders: ClassVar[dict[type, Any]]
    _encode_options: ClassVar[Any]
    _event_writers: ClassVar[dict[type, Any]] = {c: shapes.shape_of(c).encode for c in SHARED_EVENTS}
    _round_over_phase: ClassVar[Any] = None  # the game's phase members named "round-over" and "game-over"
    _game_over_phase: ClassVar[Any] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        spec = cls.__dict__.get("spec")
        if spec is None:
            return
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
        assert self.spec is not None
        resolved = self.spec.options(**self.resolve_options(options))
        if setup is not None:
            setup = self._read_setup(setup)
        return self.new_game(players, Rng.from_seed(seed), resolved, setup)

    def new_game(self, players: int, rng: Rng, options: Any, setup: Json = None) -> S:
        """A new game. A declared game receives its options dataclass and its setup read by shape."""
        raise NotImplementedError

    def _read_setup(self, setup: Json) -> Any:
        assert self.spec is not None
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
        assert self.spec is not None
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
        return self._encode_options(state.options)  # type: ignore[attr-defined,no-any-return]


def fields_json(obj: Any) -> dict[str, Json]:
    """A flat dataclass of JSON values as a dict (``dataclasses.asdict`` deep-copies: slow)."""
    return {f.name: getattr(obj, f.name) for f in fields(obj)}


def require(condition: bool, exc_type: type[RulesError], code: str, message: str, **context: Json) -> None:
    """Raise ``exc_type(code, message)`` unless ``condition``; keeps checks one line each."""
    if not condition:
        raise exc_type(code, message, **context)


# --------------------------------------------------------------------------- fast copies


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)`` at a fraction of its cost: every engine makes a
    new state this way on every move, and the generic version walks ``fields()`` and calls
    ``__init__`` with keywords each time. A plain frozen dataclass (no ``__post_init__``, no
    ``init=False`` field, no ``InitVar``) is copied field by field into a fresh instance, as
    ``__init__`` would store it; any other class, or an unknown field name, goes to
    ``dataclasses.replace`` itself (the same result, the same errors)."""
    cls = obj.__class__
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _copier(cls)
    return copier(obj, changes)


_COPIERS: dict[type, Any] = {}


def _slow_replace(obj: Any, changes: dict[str, Any]) -> Any:
    return dataclasses.replace(obj, **changes)


def _copier(cls: type) -> Any:
    """The copy function of one dataclass (see :func:`replace`): ``_slow_replace`` unless the
    class is a plain dataclass whose fields live all in slots or all in the instance ``__dict__``."""
    every = getattr(cls, "__dataclass_fields__", None)
    if (
        every is None
        or hasattr(cls, "__post_init__")
        or cls.__new__ is not object.__new__
        or any(f._field_type is dataclasses._FIELD_INITVAR for f in every.values())  # type: ignore[attr-defined]
        or not all(f.init for f in fields(cls))
    ):
        return _slow_replace
    names = [f.name for f in fields(cls)]
    known = frozenset(names)
    mro = cls.__mro__[:-1]  # without object
    slotted = any(base.__dict__.get("__slots__") for base in mro)
    has_dict = any("__dict__" in base.__dict__ for base in mro)
    new_ = object.__new__
    if has_dict and not slotted:
        count = len(names)

        def copy_dict(obj: Any, changes: dict[str, Any]) -> Any:
            values = obj.__dict__
            if len(values) != count or not known.issuperset(changes):  # anything but exactly the fields
                return _slow_replace(obj, changes)
            new: Any = new_(cls)
            copied = new.__dict__
            copied.update(values)
            copied.update(changes)
            return new

        return copy_dict
    setters = {}
    for name in names:
        where: Any = next((base.__dict__[name] for base in mro if name in base.__dict__), None)
        if has_dict or type(where) is not MemberDescriptorType:  # each field a slot of its own
            return _slow_replace
        setters[name] = where.__set__
    # slots: one generated function storing every field through its slot descriptor, then the changes
    scope: dict[str, Any] = {"_new": new_, "_cls": cls, "_slow": _slow_replace, "_setters": setters}
    lines = ["def copy(obj, changes):", "    new = _new(_cls)"]
    for i, name in enumerate(names):
        scope[f"_set{i}"] = setters[name]
        lines.append(f"    _set{i}(new, obj.{name})")
    lines += [
        "    for name, value in changes.items():",
        "        setter = _setters.get(name)",
        "        if setter is None:",
        "            return _slow(obj, changes)",
        "        setter(new, value)",
        "    return new",
    ]
    exec("\n".join(lines), scope)  # noqa: S102  # field names are identifiers from the class itself
    return scope["copy"]
