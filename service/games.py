"""The one place that pairs each engine with its HTTP shapes.

``GameBinding`` turns request JSON into engine values and engine results into response JSON,
the same way for every game, so the views in ``api.py`` stay a few lines each and never name a
game. Every game is declared with a ``GameSpec`` (DESIGN 4.8): its engine reads and writes its
states, moves, setups and tallies from the declaration (shape, then meaning).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from rules import deadline
from rules.base import Engine, IllegalMove, RulesError, UnknownGame
from rules.jsontypes import Json, JsonObject, as_object
from rules.registry import ENGINES, canonical_id, get_engine
from rules.spec import GameSpec
from service.errors import problem_for
from service.i18n import localize

if TYPE_CHECKING:
    from service.sessions import LogEntry


@dataclass(frozen=True)
class GameBinding:
    engine: Engine[Any, Any]  # the registry's engines: each game's own state and move types

    @property
    def spec(self) -> GameSpec:
        """The game's declaration."""
        return self.engine.spec

    @property
    def has_tally(self) -> bool:
        return self.spec.tally is not None

    # -- catalogue -------------------------------------------------------------------

    def describe(self) -> JsonObject:
        return as_object(self.spec.describe())  # the registry's ALIASES are made from the specs' aliases

    # -- requests -> engine values ---------------------------------------------------

    def new(self, req: Mapping[str, Any]) -> Any:
        return self.engine.new(req["players"], req.get("seed"), req.get("options"), req.get("setup"))

    def load_state(self, data: Json) -> Any:
        return self.engine.from_json(data)

    def load_move(self, data: Json, where: str = "move") -> Any:
        return self.engine.move_from_json(data)

    # -- engine values -> responses --------------------------------------------------

    def legal_moves(self, state: Any, seat: int | None) -> JsonObject:
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

    def result(self, state: Any, seat: int | None = None, events: Sequence[Json] = (), *, full: bool = True) -> JsonObject:
        """The envelope of a state after a move: the state (or ``seat``'s view) and its status."""
        e = self.engine
        out = self.status(state)
        out["state"] = e.to_json(state) if full else e.view(state, seat)
        out["events"] = list(events)
        return out

    def logged(self, item: LogEntry, seat: int | None, over: bool) -> tuple[Json, list[JsonObject]]:
        """A logged move ``{"seat", "move", "events"}`` as ``seat`` (``None``: a spectator) may see
        it, all of it once the game is ``over``: the move (``None`` when hidden) and what it did,
        whose ``move`` event shows the move as shown (and is left out when it is hidden)."""
        e = self.engine
        shown = item["move"] if over else e.move_view(e.move_from_json(item["move"]), item["seat"], seat)
        events: list[JsonObject] = []
        for logged in item.get("events", ()):  # a move logged before events were: none
            event = as_object(logged)
            if event["type"] == "move":
                if shown is None:
                    continue
                event = {**event, "move": shown}
            events.append(event)
        return shown, events

    def status(self, state: Any) -> JsonObject:
        e = self.engine
        outcome = e.outcome(state)
        out: dict[str, Json] = {
            "to_act": cast("list[Json]", sorted(e.to_act(state))),
            "round_over": e.round_over(state),
            "game_over": outcome is not None,
            "options": dict(e.options_of(state)),
        }
        if outcome is not None or out["round_over"]:
            out["scores"] = e.scores(state).to_json()
        if outcome is not None:
            out["outcome"] = outcome.to_json()
        return out

    def view(self, state: Any, seat: int | None) -> JsonObject:
        """The state as ``seat`` (``None``: a spectator) may see it; a seat the game lacks is refused."""
        self._require_seat(state, seat)
        return {"seat": seat, "state": self.engine.view(state, seat)}

    def _require_seat(self, state: Any, seat: int | None) -> None:
        """A seat the table lacks is refused (``<game>.no-such-seat``); ``None`` is always fine."""
        self.engine.require_seat(state, seat)

    def apply(self, state: Any, seat: int, move: Any) -> tuple[Any, list[Json]]:
        new = self.engine.apply(state, seat, move)
        return new, self.engine.events(state, seat, move, new)

    def verdict(self, state: Any, seat: int, move: Any, lang: Callable[[], str] = lambda: "en") -> JsonObject:
        """``{"legal": true}`` or ``{"legal": false, "problem": ...}`` (in ``lang()``, asked only
        for a refusal): "no" is an answer here."""
        try:
            self.engine.check(state, seat, move)
        except IllegalMove as exc:
            return {"legal": False, "problem": localize(problem_for(exc), lang())}
        return {"legal": True}

    def replay(self, start: Any, moves: Sequence[Mapping[str, Any]]) -> tuple[Any, int]:
        """Apply ``[{"seat", "move"}, ...]`` in order; a refusal names the index of the move."""
        state = start
        for index, item in enumerate(moves):
            deadline.check()  # a long replay stops at the request's CPU budget (DESIGN 4.9)
            try:
                move = self.load_move(item["move"], where=f"moves.{index}.move")
                state = self.engine.apply(state, item["seat"], move)
            except RulesError as exc:
                exc.context["index"] = index
                raise
        return state, len(moves)

    def score(self, req: Mapping[str, Any]) -> JsonObject:
        if "tally" in req:
            return as_object(self.engine.score_tally(req["tally"]).to_json())
        return as_object(self.engine.scores(self.load_state(req["state"])).to_json())


BINDINGS: Mapping[str, GameBinding] = MappingProxyType({gid: GameBinding(engine) for gid, engine in ENGINES.items()})


def get_binding(game_id: str) -> GameBinding:
    try:
        return BINDINGS[canonical_id(game_id)]
    except KeyError:
        get_engine(game_id)  # raises UnknownGame with the list of games
        raise UnknownGame("game.unknown", f"no HTTP binding for game {game_id!r}") from None
