"""Refusals: the errors every rule check raises, and how a game declares its codes.

A refusal is a :class:`RulesError` (or a subclass: :class:`IllegalMove`, :class:`InvalidState`,
:class:`InvalidOption` ...) carrying a stable ``code`` and a message for people. A game declares
each code it raises once, with its texts in both languages, in a :class:`Codes` class, by one
idiom: :func:`illegal` for a move the rules refuse, :func:`invalid` for input that cannot be::

    class C(GameCodes, namespace="nim"):
        too_many = illegal(
            Label("Too many stones", "Za dużo kamieni"),             # the title, English and Polish
            "Można wziąć od 1 do {most} kamieni.",                    # the Polish detail template
            "A turn takes 1 to max_take stones. Take fewer.",         # when, and what to do: English
            "W turze bierze się od 1 do max_take kamieni. Weź mniej.")  # ... and Polish

    raise C.too_many(f"seat {seat} took {n}", most=most)              # nim.too-many

The shared codes every game has (``GameCodes``) and those a game opts into (``ROUND_OVER`` ...)
live in :mod:`rules.base`, which also re-exports everything here. This module imports nothing
of Arbiter's but the JSON type.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from rules.jsontypes import Json

__all__ = [
    "Code", "Codes", "ErrorCode", "GameOver", "IllegalMove", "InvalidOption", "InvalidState", "Label",
    "NotYourTurn", "RulesError", "UnknownGame", "illegal", "invalid",
]


class RulesError(Exception):
    """A rules-level refusal: a stable namespaced ``code`` and a message for people.

    ``code`` never changes once published (``11-nimmt.not-in-range``); ``message``
    quotes the offending input. ``context`` holds extra JSON members for the problem.
    """

    kind: ClassVar[str] = "rules-error"

    def __init__(self, code: str, message: str, **context: object) -> None:
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

    def __call__(self, message: str, **context: object) -> RulesError:
        return self.error(self.id, message, **context)

    def bound(self, namespace: str, name: str) -> ErrorCode:
        return ErrorCode(self.error, self.title, self.detail_pl, self.description, self.status, namespace, name)


def illegal(title: Label, detail_pl: str, en: str, pl: str, *,
            error: type[IllegalMove] = IllegalMove) -> ErrorCode:
    """A code for a move the rules refuse (422): its ``title`` in both languages, the Polish
    detail template ``detail_pl``, and when it happens and what to do, in English (``en``) and
    Polish (``pl``). ``error`` narrows the class (``NotYourTurn``, ``GameOver``). The code's name
    and namespace come from the :class:`Codes` class it is declared in."""
    return ErrorCode(error, title, detail_pl, Label(en, pl))


def invalid(title: Label, detail_pl: str, en: str, pl: str, *,
            error: type[RulesError] = InvalidState) -> ErrorCode:
    """A code for input that cannot be (422): an impossible state, tally or setup, declared as
    :func:`illegal` declares a move's; ``error=InvalidOption`` for an option or a table that
    cannot be."""
    return ErrorCode(error, title, detail_pl, Label(en, pl))


def _kebab(name: str) -> str:
    return name.strip("_").replace("_", "-")


class Codes:
    """The error codes of one namespace, as class attributes (typed: a misspelt code is an
    AttributeError and a mypy error, never a new string). A subclass names its namespace::

        class C(GameCodes, namespace="take-that"):
            card_not_in_hand = illegal(Label("Card not in hand", "..."), "...", "When ...", "Gdy ...")

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


