"""A game's declaration (DESIGN 4.8): everything a game is, said once, in its own module.

In the manner of OpenSpiel's ``GameType``, a :class:`GameSpec` holds a game's facts: its id and
names, player counts, the options dataclass (the catalogue, the JSON schema and the defaults come
from it), its phases and move kinds, the state, move, tally and score-breakdown shapes (declared
dataclasses, :mod:`rules.shapes`), its error codes, whether ``legal-moves`` is complete, setup
positions and match-record formats, and what bots and tests need to play it. The engine
(:class:`rules.base.BaseEngine`) derives its reading, writing, views and option handling from it, and
the service, the catalogue, the tests and the benchmarks iterate the registry's specs: nothing
outside a game's own module, tests, docs page and playground renderer names the game.

Options are one frozen dataclass per game, each field declared with :func:`option`::

    @declared
    class Options:
        rounds: Annotated[int, Range(1, 20)] = option(
            default=2, description="Rounds to play; the highest total wins (docs/rules/take-that.md §7.2).",
            label=Label("Rounds", "Liczba rund"))
        next_dealer: Literal["clockwise", "same"] = option(
            default="clockwise", description="...", label=Label("Next dealer", "Kolejny rozdający"),
            choices={"clockwise": Label("Clockwise", "Zgodnie z ruchem wskazówek zegara"),
                     "same": Label("The same dealer", "Ten sam rozdający")})
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from rules import shapes
from rules.errors import Codes, InvalidOption, Label
from rules.events import SHARED_EVENTS, event_type
from rules.jsontypes import Json
from rules.shapes import excerpt, option

__all__ = ["SHARED_PHASES", "GameSpec", "Option", "Playout", "RecordFormat", "option", "options_of", "phase_labels"]


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




def options_of(cls: type) -> Mapping[str, Option]:
    """The catalogue's ``Option`` of each field of an options dataclass (type, choices, bounds
    from the annotation; texts from :func:`option`)."""
    shape = shapes.shape_of(cls)
    out: dict[str, Option] = {}
    for f, dc_field in zip(shape.fields, dataclasses.fields(cls), strict=True):
        meta = dc_field.metadata
        if not meta.get("option"):
            raise TypeError(f"{cls.__name__}.{f.name} is not declared with option()")
        t = f.type
        choice_labels = meta.get("choice_labels")
        if t.kind in ("literal", "enum", "oneof"):
            values = tuple(t.values)
            labels = None
            if choice_labels is not None:
                missing = [v for v in values if v not in choice_labels]
                if missing:
                    raise TypeError(f"{cls.__name__}.{f.name}: no label for the choice(s) {missing}")
                labels = tuple(choice_labels[v] for v in values)
            out[f.key] = Option(f.default, meta["description"], choices=values, label=meta["label"],
                                help=meta.get("help"), choice_labels=labels)
        else:
            kind = {"int": "integer", "bool": "boolean", "str": "string", "mapping": "object"}.get(t.kind)
            if kind is None:
                raise TypeError(f"{cls.__name__}.{f.name}: an option is a Literal, an enum, an int, a bool or a str")
            out[f.key] = Option(f.default, meta["description"], type=kind, minimum=t.lo if kind == "integer" else None,
                                maximum=t.hi if kind == "integer" else None, label=meta["label"],
                                help=meta.get("help"))
    return MappingProxyType(out)


#: the words of the phases games share (DESIGN 4.5), said once; a game may give its own
SHARED_PHASES: Mapping[str, Label] = {
    "play": Label("Play", "Rozgrywka"),
    "round-over": Label("Round over", "Koniec rundy"),
    "game-over": Label("Game over", "Koniec gry"),
}


def phase_labels(phases: type[enum.Enum], **own: Label) -> dict[enum.Enum, Label]:
    """A game's phases in their declared order with their words (``GameSpec.phases``): the label
    given for a member by its name, else the shared words of its value (:data:`SHARED_PHASES`)::

        phases=phase_labels(Phase, NAME_TRUMP=Label("Naming trumps", "Wybór atutu"))
    """
    unknown = sorted(set(own) - set(phases.__members__))
    if unknown:
        raise TypeError(f"{phases.__name__} has no phase {unknown}")
    labels = {}
    for member in phases:
        label = own.get(member.name) or SHARED_PHASES.get(member.value)
        if label is None:
            raise TypeError(f"phase {member.value!r} needs its words: phase_labels({phases.__name__}, "
                            f"{member.name}=Label(...))")
        labels[member] = label
    return labels


@dataclass(frozen=True)
class Playout:
    """What a random bot and the tests need to play the game to its end.

    ``weights``: move kinds a uniform random player would choose so often that the game never
    ends (11 nimmt!'s take), weighted down; ``options``: options the random playouts use (a
    variant that ends); ``endless``: options under which random play may never end (checked for
    a bounded number of moves only); ``long_players``: the player count whose games are longest
    (the benchmarks replay one); ``long_options``: options that make a game long enough for the
    benchmarks' 1,000-move replay (more rounds, a longer match)."""

    weights: Mapping[str, float] = field(default_factory=dict)
    options: Mapping[str, Json] = field(default_factory=dict)
    endless: Mapping[str, Json] | None = None
    long_players: int | None = None
    long_options: Mapping[str, Json] = field(default_factory=dict)


@dataclass(frozen=True)
class RecordFormat:
    """A match-record format a game reads (and perhaps writes), DESIGN 4.3: the service reads
    records only through these (``GameSpec.records``, by the format's name: ``mat``, ``sgf``).

    ``read(text)`` gives the record's parts (or raises the game's unreadable-record code with a
    ``line``); ``replay(engine, parsed, max_moves)`` checks every move of them through the engine
    and gives the outcome: ``state`` (the final state), ``applied``, ``moves``, ``warnings`` and
    the members ``summary`` declares; ``write(engine, start, moves, players)`` writes a game in
    the format (None: read only). ``warnings``: the codes of the writers' conventions a replay
    may note, by code, each with its ``title`` (a Label) and ``detail_pl`` (the Polish detail,
    a template over the warning's ``context``). ``summary``: the JSON Schema of each member a
    replay adds to the answer (``games``, ``match``...). ``max_chars``: the longest text read."""

    read: Callable[[str], Any]
    replay: Callable[..., Any]
    write: Callable[..., str] | None = None
    media_type: str = "text/plain"
    warnings: Mapping[str, Any] = field(default_factory=dict)
    summary: Mapping[str, Json] = field(default_factory=dict)
    max_chars: int = 4 * 1024 * 1024


@dataclass(frozen=True)
class GameSpec:
    """Everything a game is (DESIGN 4.8). ``engine`` is made from it in the game's module."""

    id: str
    name: str
    label: Label
    players: range
    options: type
    state: type
    moves: tuple[type, ...]
    phases: Mapping[enum.Enum, Label]
    codes: type[Codes]
    breakdown: type
    tally: type | tuple[type, ...] | None = None  # several: one shape each, told apart by a Literal field
    setup: type | None = None
    legal_moves_complete: bool = True
    records: Mapping[str, RecordFormat] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    terms: Mapping[str, Label] = field(default_factory=dict)
    playout: Playout = field(default_factory=Playout)
    tally_example: Json = None
    events: tuple[type, ...] = ()  # the game's own event classes (rules.events), after the shared ones

    def __post_init__(self) -> None:
        kinds = [m.__dict__.get("kind") for m in self.moves]
        if not all(isinstance(k, str) for k in kinds) or len(set(kinds)) != len(kinds):
            raise TypeError(f"{self.id}: every move class needs its own `kind`")
        for m in self.moves:
            if not isinstance(m.__dict__.get("label"), Label):
                raise TypeError(f"{self.id}: move class {m.__name__} needs a `label` (a Label)")
        types = [event_type(e) for e in self.event_classes]
        if len(set(types)) != len(types):
            raise TypeError(f"{self.id}: every event class needs its own `type`, got {types}")
        # a service refusal needs its code: a game without a tally or setup positions says so
        for absent, code in ((self.tally is None, "tally_unsupported"), (self.setup is None, "setup_unsupported")):
            if absent and not hasattr(self.codes, code):
                raise TypeError(f"{self.id}: {self.codes.__name__} needs `{code} = {code.upper()}` (rules.base)")

    @property
    def move_kinds(self) -> tuple[str, ...]:
        return tuple(m.__dict__["kind"] for m in self.moves)

    @property
    def event_classes(self) -> tuple[type, ...]:
        """Every event the game emits: the shared ones (the move, the round's and the game's end),
        then its own."""
        return (*SHARED_EVENTS, *self.events)

    @property
    def option_map(self) -> Mapping[str, Option]:
        return options_of(self.options)

    def describe(self) -> Json:
        """The game's catalogue entry (``GET /v1/games/{game}``)."""
        return {
            "id": self.id,
            "name": self.name,
            "label": self.label.to_json(),
            "players": {"min": self.players.start, "max": self.players.stop - 1},
            "options": {name: opt.to_json() for name, opt in self.option_map.items()},
            # a shared move (``next-round``: ``shared`` in rules.base) takes the game's own words for it where its
            # terms have them; a game's own move keeps its label (a term of the same name is a thing: Kanasta's
            # "discard" is the pile, backgammon's "resign" the resignation on the board)
            "move_kinds": [{"kind": m.__dict__["kind"], "label": (self.terms.get(m.__dict__["kind"], m.__dict__["label"])
                                                                  if getattr(m, "shared", False) else m.__dict__["label"]).to_json()}
                           for m in self.moves],
            "phases": [{"phase": p.value, "label": label.to_json()} for p, label in self.phases.items()],
            "terms": {term: label.to_json() for term, label in self.terms.items()},
            "aliases": list[Json](sorted(self.aliases)),
            "legal_moves_complete": self.legal_moves_complete,
            "tally": self.tally is not None,
            "setup": self.setup is not None,
            "records": list[Json](sorted(self.records)),
        }
