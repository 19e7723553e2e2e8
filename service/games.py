"""The one place that pairs each engine with its HTTP shapes.

``GameBinding`` turns request JSON into engine values and engine results into response JSON,
the same way for every game, so the views in ``api.py`` stay a few lines each and never name a
game. A game declared with a ``GameSpec`` (DESIGN 4.8) is read and written by its engine from
its declaration (shape, then meaning); a game not yet declared still pairs with its marshmallow
schema module (``service/schemas/<module>.py``), checked before ``from_json``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from types import MappingProxyType, ModuleType
from typing import Any

from marshmallow import Schema, ValidationError

from rules.base import Engine, IllegalMove, InvalidOption, RulesError, UnknownGame
from rules.registry import ALIASES, ENGINES, canonical_id, get_engine
from service.errors import problem_for
from service.i18n import localize
from service.schemas.fast import compile_validator

Json = Any


def _validated(schema: Schema, data: Json, where: str) -> Json:
    errors = schema.validate(data) if isinstance(data, dict) else {"_schema": ["expected a JSON object"]}
    if errors:
        raise ValidationError({where: errors})
    return data


@dataclass(frozen=True)
class GameBinding:
    engine: Engine
    state: Schema | None = None
    moves: Mapping[str, Schema] = field(default_factory=dict)
    tally: Schema | None = None
    setup: Schema | None = None
    check_state: Callable[[Json], Json] | None = None  # ``state`` compiled (see service.schemas.fast)
    check_moves: Mapping[str, Callable[..., Json]] = field(default_factory=dict)  # ``moves`` compiled, by kind

    @property
    def spec(self) -> Any:
        """The game's declaration (``None`` for a game not yet declared)."""
        return getattr(self.engine, "spec", None)

    @property
    def has_tally(self) -> bool:
        return self.spec.tally is not None if self.spec is not None else self.tally is not None

    # -- catalogue -------------------------------------------------------------------

    def describe(self) -> Json:
        e = self.engine
        if self.spec is not None:
            return {**self.spec.describe(),
                    "aliases": sorted({*self.spec.aliases, *(a for a, gid in ALIASES.items() if gid == e.game_id)})}
        return {
            "id": e.game_id,
            "name": e.name,
            "players": {"min": e.players.start, "max": e.players.stop - 1},
            "options": {name: opt.to_json() for name, opt in e.options.items()},
            "move_kinds": list(e.move_kinds),
            "aliases": sorted(alias for alias, gid in ALIASES.items() if gid == e.game_id),
            "legal_moves_complete": e.legal_moves_complete,
            "tally": self.tally is not None,
        }

    # -- requests -> engine values ---------------------------------------------------

    def new(self, req: Json) -> Any:
        setup = req.get("setup")
        if setup is not None and self.setup is not None:
            setup = _validated(self.setup, setup, "setup")
        return self.engine.new(req["players"], req.get("seed"), req.get("options"), setup)

    def load_state(self, data: Json) -> Any:
        if self.check_state is None:  # a declared game reads its state by its declaration
            return self.engine.from_json(data)
        return self.engine.from_json(self.check_state(data))

    def load_move(self, data: Json, where: str = "move") -> Any:
        if self.spec is not None:
            return self.engine.move_from_json(data)
        kind = data.get("kind") if isinstance(data, dict) else None
        check = self.check_moves.get(kind) if isinstance(kind, str) else None
        if check is None:
            raise ValidationError(
                {where: {"kind": [f"must be one of {sorted(self.moves)} for {self.engine.game_id}, got {kind!r}"]}}
            )
        return self.engine.move_from_json(check(data, where))

    # -- engine values -> responses --------------------------------------------------

    def legal_moves(self, state: Any, seat: int | None) -> Json:
        self._require_seat(state, seat)
        acting = self.engine.to_act(state)
        if seat is None:
            seat = min(acting) if acting else None
        moves = self.engine.legal_moves(state, seat) if seat in acting else ()
        return {
            "seat": seat,
            "moves": [self.engine.move_to_json(m) for m in moves],
            "complete": self.engine.legal_moves_complete,
        }

    def result(self, state: Any, seat: int | None = None, events: Sequence[Json] = (), *, full: bool = True) -> Json:
        """The envelope of a state after a move: the state (or ``seat``'s view) and its status."""
        e = self.engine
        out = self.status(state)
        out["state"] = e.to_json(state) if full else e.view(state, seat)
        out["events"] = list(events)
        return out

    def status(self, state: Any) -> Json:
        e = self.engine
        outcome = e.outcome(state)
        out: dict[str, Json] = {
            "to_act": sorted(e.to_act(state)),
            "round_over": e.round_over(state),
            "game_over": outcome is not None,
            "options": dict(e.options_of(state)),
        }
        if outcome is not None or out["round_over"]:
            out["scores"] = e.scores(state).to_json()
        if outcome is not None:
            out["outcome"] = outcome.to_json()
        return out

    def view(self, state: Any, seat: int | None) -> Json:
        """The state as ``seat`` (``None``: a spectator) may see it; a seat the game lacks is refused."""
        self._require_seat(state, seat)
        return {"seat": seat, "state": self.engine.view(state, seat)}

    def _require_seat(self, state: Any, seat: int | None) -> None:
        """A seat the table lacks is refused (``<game>.no-such-seat``); ``None`` is always fine."""
        if self.spec is not None:
            self.engine.require_seat(state, seat)  # type: ignore[attr-defined]
            return
        if seat is None:
            return
        players = len(self.engine.scores(state).totals)
        if seat >= players:
            raise InvalidOption(f"{self.engine.game_id}.no-such-seat",
                                f"seat {seat} is not at this table of {players} (seats 0..{players - 1})", seat=seat)

    def apply(self, state: Any, seat: int, move: Any) -> tuple[Any, list[Json]]:
        new = self.engine.apply(state, seat, move)
        return new, self.engine.events(state, seat, move, new)

    def verdict(self, state: Any, seat: int, move: Any, lang: Callable[[], str] = lambda: "en") -> Json:
        """``{"legal": true}`` or ``{"legal": false, "problem": ...}`` (in ``lang()``, asked only
        for a refusal): "no" is an answer here."""
        try:
            self.engine.check(state, seat, move)
        except IllegalMove as exc:
            return {"legal": False, "problem": localize(problem_for(exc), lang())}
        return {"legal": True}

    def replay(self, start: Any, moves: Sequence[Json]) -> tuple[Any, int]:
        """Apply ``[{"seat", "move"}, ...]`` in order; a refusal names the index of the move."""
        state = start
        for index, item in enumerate(moves):
            try:
                move = self.load_move(item["move"], where=f"moves.{index}.move")
                state = self.engine.apply(state, item["seat"], move)
            except RulesError as exc:
                exc.context["index"] = index
                raise
        return state, len(moves)

    def score(self, req: Json) -> Json:
        if "tally" in req:
            if self.spec is not None or self.tally is None:
                return self.engine.score_tally(req["tally"]).to_json()
            return self.engine.score_tally(_validated(self.tally, req["tally"], "tally")).to_json()
        return self.engine.scores(self.load_state(req["state"])).to_json()


def bind(engine: Engine) -> GameBinding:
    """The binding of an engine: from its declaration, or (a game not yet declared) from its
    schema module."""
    if getattr(engine, "spec", None) is not None:
        return GameBinding(engine=engine)
    return bind_schemas(schema_module(engine))


def bind_schemas(module: ModuleType) -> GameBinding:
    """Binding for the engine whose game id is the schema module's ``GAME_ID``."""
    tally, setup = getattr(module, "TALLY", None), getattr(module, "SETUP", None)
    state = module.StateSchema()
    moves = {kind: cls() for kind, cls in module.MOVES.items()}
    return GameBinding(
        engine=ENGINES[module.GAME_ID],
        state=state,
        moves=MappingProxyType(moves),
        tally=tally() if tally else None,
        setup=setup() if setup else None,
        check_state=compile_validator(state, "state"),
        check_moves=MappingProxyType({kind: compile_validator(m, "move") for kind, m in moves.items()}),
    )


def schema_module(engine: Engine) -> ModuleType:
    """The schema module of an engine, by the one naming rule: ``rules/<name>.py`` (or the
    package ``rules/<name>/``) pairs with ``service/schemas/<name>.py``. So adding a game is its
    engine module, its schema module and one line in ``rules/registry.py``; an engine without
    schemas stops the service at import, naming the module it looked for."""
    name = type(engine).__module__.split(".")[1]
    try:
        return import_module(f"service.schemas.{name}")
    except ModuleNotFoundError as exc:
        raise ImportError(f"{engine.game_id} has no HTTP binding: write service/schemas/{name}.py") from exc


BINDINGS: Mapping[str, GameBinding] = MappingProxyType({gid: bind(engine) for gid, engine in ENGINES.items()})


def get_binding(game_id: str) -> GameBinding:
    try:
        return BINDINGS[canonical_id(game_id)]
    except KeyError:
        get_engine(game_id)  # raises UnknownGame with the list of games
        raise UnknownGame("game.unknown", f"no HTTP binding for game {game_id!r}") from None
