"""Events are declared (DESIGN 4.8): every event an engine emits is an instance of a class its
``GameSpec.events`` lists, and its JSON is exactly what that class reads and writes."""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections import Counter
from pathlib import Path
from typing import Literal

import pytest

from rules import shapes
from rules.events import SHARED_EVENTS, event, event_type
from rules.registry import ENGINES
from tests.playout import random_steps

SEEDS = (1, 2)


@pytest.mark.parametrize("engine", ENGINES.values(), ids=list(ENGINES))
def test_every_emitted_event_is_a_declared_class_written_by_its_writer(engine) -> None:
    declared = engine.spec.event_classes
    seen: Counter[str] = Counter()
    for players in (engine.players.start, engine.players.stop - 1):
        for seed in SEEDS:
            for before, seat, move, after in random_steps(engine, players, seed, max_moves=1500):
                emitted = engine.emit(before, seat, move, after)
                assert all(type(e) in declared for e in emitted), [type(e) for e in emitted]
                written = engine.events(before, seat, move, after)
                assert written[0] == {"type": "move", "seat": seat, "move": engine.move_to_json(move)}
                for data in written:
                    read = shapes.decode_one_of(declared, data, "event")  # bounds and closed shapes checked
                    assert shapes.encode(read) == data and list(data)[0] == "type"
                    seen[data["type"]] += 1
    assert seen["move"] and seen["game-over"], seen
    own = {event_type(c) for c in engine.spec.events}
    assert own & set(seen), f"{engine.game_id} emitted none of its own events {own} in its playouts"


@pytest.mark.parametrize("engine", ENGINES.values(), ids=list(ENGINES))
def test_every_game_declares_the_shared_events_first_and_its_own_types_once(engine) -> None:
    classes = engine.spec.event_classes
    assert classes[:len(SHARED_EVENTS)] == SHARED_EVENTS
    types = [event_type(c) for c in classes]
    assert len(types) == len(set(types))
    for cls in classes:
        assert dataclasses.fields(cls)[0].name == "type" and cls.__doc__


def test_an_event_the_game_does_not_declare_is_refused_by_its_writer(monkeypatch) -> None:
    """The writers hold the game's declared classes only: an undeclared event cannot slip out."""

    @event
    class StrayEvent:
        """Declared by no game."""

        type: Literal["stray"] = "stray"

    engine = ENGINES["take-that"]
    monkeypatch.setattr(engine, "emit", lambda *args: [StrayEvent()])
    state = engine.new(2, 1)
    with pytest.raises(KeyError):
        engine.events(state, 0, engine.legal_moves(state, 0)[0], state)


def test_an_event_class_must_declare_its_type_as_the_literal_it_defaults_to() -> None:
    with pytest.raises(TypeError, match="Literal"):
        @event
        class Wrong:
            type: str = "wrong"

    with pytest.raises(TypeError, match="first"):
        @event
        class NoType:
            seat: int


def test_an_event_is_made_by_a_generated_keyword_only_init_and_stays_frozen() -> None:
    """An event stores its fields through its slots as a declared shape does (one is made on every
    move): the generated ``__init__`` is readable, keyword-only and refuses what the dataclass's did."""
    @event
    class Took:
        type: Literal["took"] = "took"
        seat: int
        cards: tuple[int, ...]

    assert inspect.getsource(Took.__init__).startswith("def __init__(self, *, type=_default0, seat, cards):")
    took = Took(seat=1, cards=(2, 3))
    assert (took.type, took.seat, took.cards) == ("took", 1, (2, 3)) and took == Took(seat=1, cards=(2, 3))
    with pytest.raises(TypeError, match="positional"):
        Took(1, (2, 3))  # type: ignore[misc]
    with pytest.raises(TypeError, match="cards"):
        Took(seat=1)  # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        took.seat = 2  # type: ignore[misc]


@pytest.mark.parametrize("engine", ENGINES.values(), ids=list(ENGINES))
def test_the_rules_page_names_each_event_and_its_fields(engine) -> None:
    """docs/rules/<game>.md has an Events section with a row per own event: its `type` and each
    field, in backticks."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "rules" / f"{engine.game_id}.md").read_text()
    section = re.search(r"^## \d+\. Events\n(.*?)(?=^## |\Z)", page, re.M | re.S)
    assert section, f"docs/rules/{engine.game_id}.md has no Events section"
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `([a-z-]+)` \|.*$", section.group(1), re.M)}
    rows.pop("type")  # the header
    assert set(rows) == {event_type(cls) for cls in engine.spec.events}
    for cls in engine.spec.events:
        for f in dataclasses.fields(cls)[1:]:
            assert f"`{f.name}`" in rows[event_type(cls)], (event_type(cls), f.name)
