"""The one place that pairs each engine with its marshmallow schemas."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType, ModuleType

from marshmallow import Schema

from rules.base import Engine
from rules.registry import ENGINES
from service.schemas import backgammon


@dataclass(frozen=True)
class GameBinding:
    engine: Engine
    state: Schema
    moves: Mapping[str, Schema]
    tally: Schema | None
    setup: Schema | None


def bind(module: ModuleType) -> GameBinding:
    """Binding for the engine of the same game id as the schema module's ``GAME_ID``."""
    tally, setup = getattr(module, "TALLY", None), getattr(module, "SETUP", None)
    return GameBinding(
        engine=ENGINES[module.GAME_ID],
        state=module.StateSchema(),
        moves=MappingProxyType({kind: cls() for kind, cls in module.MOVES.items()}),
        tally=tally() if tally else None,
        setup=setup() if setup else None,
    )


_SCHEMA_MODULES: tuple[ModuleType, ...] = (
    backgammon,
)

BINDINGS: Mapping[str, GameBinding] = MappingProxyType(
    {b.engine.game_id: b for b in map(bind, _SCHEMA_MODULES)}
)
