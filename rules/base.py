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
from types import MemberDescriptorType
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

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


# --------------------------------------------------------------------------- rng


_U64 = 1 << 64
_HEX = frozenset("0123456789abcdef")


def _check_below(n: int) -> None:
    if not 0 < n < _U64:
        raise ValueError(f"randbelow needs 0 < n < 2**64, got {n}")


def _below(key: bytes, counter: int, n: int) -> tuple[int, int]:
    """``Rng.randbelow(n)`` on a decoded key: the value and the counter after it (rejection
    sampling as specified in :class:`Rng`); shuffles and dice call it once per draw."""
    limit = _U64 - _U64 % n
    while True:
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

    key: str
    counter: int = 0
    VERSION: ClassVar[int] = 1
    MAX_COUNTER: ClassVar[int] = 2**48  # accepted in a state; JSON integers stay exact up to 2**53

    @classmethod
    def from_seed(cls, seed: int | str | None = None) -> Rng:
        if seed is None:
            return cls(secrets.token_hex(32))
        tag = "int" if isinstance(seed, int) else "str"
        return cls(hashlib.sha256(f"arbiter-rng-v1:{tag}:{seed}".encode()).hexdigest())

    def next_u64(self) -> tuple[int, Rng]:
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
        if expected is int and (
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
        return out


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class ScoreReport:
    """Scores of the current (or just finished) round and the running totals.

    ``round`` and ``totals`` have one entry per seat (partners repeat their side's
    figure). ``breakdown`` is one JSON object per seat naming every item that scored.
    ``final`` is true once the round's scores can no longer change; ``winners`` is
    non-empty only when the game is over.
    """

    round: tuple[int, ...]
    totals: tuple[int, ...]
    breakdown: tuple[Json, ...]
    final: bool
    winners: tuple[int, ...] = ()

    def to_json(self) -> Json:
        return {
            "round": list(self.round),
            "totals": list(self.totals),
            "breakdown": list(self.breakdown),
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


# --------------------------------------------------------------------------- protocol


@runtime_checkable
class Engine(Protocol[S, M]):
    game_id: str
    name: str
    players: range
    options: Mapping[str, Option]
    move_kinds: tuple[str, ...]
    legal_moves_complete: bool

    def new_game(self, players: int, rng: Rng, options: Mapping[str, Json], setup: Json = None) -> S: ...
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


class BaseEngine(Generic[S, M]):
    """Shared plumbing for engines: option resolution, turn checks, ``apply`` via ``check``.

    A game subclasses this and provides ``new_game``, ``to_act``, ``legal_moves``,
    ``check``, ``_apply`` (the transition, called only after ``check`` passed), ``scores``,
    ``outcome``, ``round_over``, ``view``, ``to_json``/``from_json``,
    ``move_to_json``/``move_from_json`` and ``options_of``.
    """

    game_id: ClassVar[str]
    name: ClassVar[str]
    players: ClassVar[range]
    options: ClassVar[Mapping[str, Option]] = {}
    move_kinds: ClassVar[tuple[str, ...]] = ()
    legal_moves_complete: ClassVar[bool] = True
    #: every error code this engine raises, with its titles and Polish detail (DESIGN 4.4)
    codes: ClassVar[Mapping[str, Code]] = {}

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
        return self.new_game(players, Rng.from_seed(seed), self.resolve_options(options), setup)

    def new_game(self, players: int, rng: Rng, options: Mapping[str, Json], setup: Json = None) -> S:
        raise NotImplementedError

    # -- moves ---------------------------------------------------------------------

    def check_turn(self, state: S, seat: int) -> None:
        """GameOver when the game has ended; NotYourTurn when ``seat`` may not act now."""
        acting = self.to_act(state)
        if not acting:
            raise GameOver(f"{self.game_id}.game-over", "the game is over: no more moves", seat=seat)
        if seat not in acting:
            raise NotYourTurn(
                f"{self.game_id}.not-your-turn",
                f"seat {seat} may not act now; to act: {sorted(acting)}",
                seat=seat,
            )

    def to_act(self, state: S) -> frozenset[int]:
        raise NotImplementedError

    def check(self, state: S, seat: int, move: M) -> None:
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
        """What happened, for clients' logs. Engines may add game-specific events."""
        out: list[Json] = [{"type": "move", "seat": seat, "move": self.move_to_json(move)}]
        if self.round_over(after) and not self.round_over(before):
            out.append({"type": "round-over"})
        if self.outcome(after) is not None:
            out.append({"type": "game-over"})
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
        return False

    def score_tally(self, tally: Json) -> ScoreReport:
        raise InvalidState(f"{self.game_id}.tally-unsupported", f"{self.game_id} has no score-sheet tally")


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
