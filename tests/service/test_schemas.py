"""The three places that name a state's fields agree: ``engine.to_json``, the marshmallow
schema, and the compiled validator on the hot path (built from that schema)."""

from __future__ import annotations

import copy
import json
import random

import pytest
from marshmallow import ValidationError

from service.games import BINDINGS


def playout(engine, players: int, seed: int, steps: int = 150) -> tuple[list, list]:
    """States and move JSON of a seeded random game (at most ``steps`` moves)."""
    rnd = random.Random(seed)
    states, moves = [engine.new(players, seed)], []
    while len(moves) < steps and engine.to_act(states[-1]):
        seat = rnd.choice(sorted(engine.to_act(states[-1])))
        move = rnd.choice(engine.legal_moves(states[-1], seat))
        moves.append(engine.move_to_json(move))
        states.append(engine.apply(states[-1], seat, move))
    return states, moves


@pytest.mark.parametrize("game", list(BINDINGS))
def test_schemas_accept_every_reached_state_and_move(game):
    b = BINDINGS[game]
    for players in b.engine.players:
        states, moves = playout(b.engine, players, seed=players)
        for state in states:
            data = json.loads(json.dumps(b.engine.to_json(state)))
            assert b.state.validate(data) == {}
            assert b.check_state(data) is data
        for move in moves:
            assert b.moves[move["kind"]].validate(move) == {}, move
            assert b.check_moves[move["kind"]](move) is move


def _agree(schema, check, data: dict) -> None:
    """Retype each top-level field of ``data``: marshmallow and the compiled check agree."""
    for key in data:
        for wrong in ("x", 1.5, [{"a": 1}], {"a": 1}, True, None, -1):
            bad = {**copy.deepcopy(data), key: wrong}
            marsh = schema.validate(bad) != {}
            try:
                check(bad)
                fast = False
            except ValidationError:
                fast = True
            assert marsh == fast, (key, wrong, schema.validate(bad))


@pytest.mark.parametrize("game", list(BINDINGS))
def test_compiled_validators_reject_what_marshmallow_rejects(game):
    b = BINDINGS[game]
    states, moves = playout(b.engine, b.engine.players.start, seed=5, steps=40)
    _agree(b.state, b.check_state, b.engine.to_json(states[-1]))
    for move in moves:
        _agree(b.moves[move["kind"]], b.check_moves[move["kind"]], move)
