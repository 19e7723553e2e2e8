"""The one list of games. Adding a game is one line in ``_ENGINES``; nothing registers itself."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from rules import (
    backgammon,
    canasta,
    eleven_nimmt,
    kierki,
    kniffel_cards,
    mak_yek,
    northcott,
    take_that,
    three_five_eight,
)
from rules.base import Engine, UnknownGame

_ENGINES: tuple[Engine[Any, Any], ...] = (
    eleven_nimmt.ENGINE,
    kniffel_cards.ENGINE,
    take_that.ENGINE,
    three_five_eight.ENGINE,
    kierki.ENGINE,
    canasta.ENGINE,
    backgammon.ENGINE,
    mak_yek.ENGINE,
    northcott.ENGINE,
)

ENGINES: Mapping[str, Engine[Any, Any]] = MappingProxyType({e.game_id: e for e in _ENGINES})

# Other names a game is known by: each game's ``aliases`` (its GameSpec says them).
ALIASES: Mapping[str, str] = MappingProxyType(
    {alias: e.game_id for e in _ENGINES for alias in e.spec.aliases})


def canonical_id(game_id: str) -> str:
    return ALIASES.get(game_id, game_id)


def get_engine(game_id: str) -> Engine[Any, Any]:
    try:
        return ENGINES[canonical_id(game_id)]
    except KeyError:
        raise UnknownGame(
            "game.unknown", f"no game {game_id!r}; known games: {', '.join(ENGINES)}", game=game_id
        ) from None
