"""What a move did, declared (DESIGN 4.8): one frozen dataclass per event ``type``.

A game's events are declared like its moves: one class per event, its fields typed with their
bounds (the declared shapes of :mod:`rules.shapes`), and a ``type`` field whose one ``Literal``
value is the discriminator a client switches on::

    @event
    class TrickEvent:
        \"\"\"A trick was completed.\"\"\"

        type: Literal["trick"] = "trick"
        number: Annotated[int, Range(1, 13)] = field(doc="the trick's number in the deal, 1-based")
        winner: Seat

Fields are keyword-only (``TrickEvent(number=3, winner=1)``), every one is written (``type``
first) and required in the contract. A game's ``GameSpec.events`` lists its classes after the
shared ones (:data:`SHARED_EVENTS`); its engine returns instances from ``emit`` and the JSON
comes from the declared writer (``BaseEngine.events``). The contract types each game's
``events`` as the ``oneOf`` of its classes, discriminated by ``type``.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Literal, TypeVar, dataclass_transform, get_args, get_origin, get_type_hints

from rules.shapes import Doc, Range, field, slot_init

__all__ = ["SHARED_EVENTS", "GameOverEvent", "MoveEvent", "RoundOverEvent", "event", "event_type"]

T = TypeVar("T")


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field, dataclasses.field))
def event(cls: type[T]) -> type[T]:
    """A declared event: a frozen, slotted, keyword-only dataclass whose ``type`` field holds its
    one ``Literal`` value (the discriminator), written first and required like every field."""
    tag = cls.__dict__.get("type")
    hint = cls.__dict__.get("__annotations__", {}).get("type")
    if not isinstance(tag, str) or hint is None:
        raise TypeError(f"{cls.__name__}: an event declares `type: Literal[{tag!r}] = {tag!r}` first")
    setattr(cls, "type", field(default=tag, required=True, doc="what happened (the discriminator)"))  # noqa: B010
    out = slot_init(dataclasses.dataclass(frozen=True, slots=True, kw_only=True)(cls))
    values = get_args(get_type_hints(out, include_extras=True)["type"])
    if get_origin(get_type_hints(out)["type"]) is not Literal or values != (tag,):
        raise TypeError(f"{cls.__name__}.type must be Literal[{tag!r}], the value it defaults to")
    declared: Any = out
    if dataclasses.fields(declared)[0].name != "type":
        raise TypeError(f"{cls.__name__}: `type` is its first field (written first)")
    for f in dataclasses.fields(declared):
        if f.default is not dataclasses.MISSING and f.name != "type" or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: an event's fields are all given (no defaults)")
    return out


def event_type(cls: type) -> str:
    """The ``type`` an event class writes."""
    value = dataclasses.fields(cls)[0].default
    assert isinstance(value, str), cls
    return value


Seat = Annotated[int, Range(0, 9), Doc("a seat")]


# --------------------------------------------------------------------------- every game's events


@event
class MoveEvent:
    """A seat's move, as sent (first in every move's events)."""

    type: Literal["move"] = "move"
    seat: Seat
    move: Any = field(doc="the move (the game's Move)")


@event
class RoundOverEvent:
    """The move ended the round (or deal, or hand): phase `round-over`, the round's scores final."""

    type: Literal["round-over"] = "round-over"


@event
class GameOverEvent:
    """The move ended the game: the outcome is in the answer."""

    type: Literal["game-over"] = "game-over"


#: the events every game emits (``BaseEngine.emit``): every ``GameSpec.events`` begins with them
SHARED_EVENTS: tuple[type, ...] = (MoveEvent, RoundOverEvent, GameOverEvent)
