"""A game's shapes are written down once (DESIGN 4.8): its codec's writer, its checking reader and
its JSON Schema (the contract's) are made from that declaration, so the tests here check what is
made (every reached state and move fits the JSON Schema, and the reader refuses exactly what the
JSON Schema refuses)."""

from __future__ import annotations

import copy
import json
import random

import pytest

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


def declared_validators(game: str) -> tuple[object, object, object]:
    """jsonschema-rs validators of a declared game's state, view and move, from the contract."""
    import jsonschema_rs

    from service.openapi import build_spec

    components = build_spec()["components"]
    prefix = next(t["name"] for t in build_spec()["tags"] if f"`{game}`" in t.get("description", ""))

    def validator(name: str):
        return jsonschema_rs.Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": components})

    return validator(f"{prefix}State"), validator(f"{prefix}View"), validator(f"{prefix}Move")


@pytest.mark.parametrize("game", list(BINDINGS))
def test_declared_shapes_fit_every_reached_state_view_and_move(game):
    """The contract's schemas (made from the declarations) accept what the engine writes."""
    b = BINDINGS[game]
    state_schema, view_schema, move_schema = declared_validators(game)
    for players in b.engine.players:
        states, moves = playout(b.engine, players, seed=players)
        for state in states:
            data = json.loads(json.dumps(b.engine.to_json(state)))
            assert state_schema.is_valid(data), next(state_schema.iter_errors(data))
            for seat in (None, *range(players)):
                view = json.loads(json.dumps(b.engine.view(state, seat)))
                assert view_schema.is_valid(view), next(view_schema.iter_errors(view))
        for move in moves:
            assert move_schema.is_valid(move), move


@pytest.mark.parametrize("game", list(BINDINGS))
def test_the_declared_reader_refuses_what_the_contract_refuses(game):
    """Retype each field, at the top and one level down, of a late state and of every move:
    the engine's reader refuses it (with the game's code) exactly when the JSON Schema does."""
    from rules.base import RulesError

    b = BINDINGS[game]
    state_schema, _, move_schema = declared_validators(game)
    states, moves = playout(b.engine, b.engine.players.start, seed=5, steps=40)

    def agree(schema, read, data: dict, code: str) -> None:
        paths = [(k,) for k in data] + [(k, i) for k, v in data.items() if isinstance(v, list) for i in range(len(v))]
        for path in paths:
            for wrong in ("x", 1.5, [{"a": 1}], {"a": 1}, True, None, -1, 10**6):
                bad = copy.deepcopy(data)
                target = bad
                for step in path[:-1]:
                    target = target[step]
                target[path[-1]] = wrong
                try:
                    read(bad)
                    got = None
                except RulesError as exc:
                    got = exc.code
                if not schema.is_valid(bad):
                    assert got == code, (path, wrong, got)
                else:  # a well-shaped value: the reader takes it, or refuses it for what it means
                    assert got != code, (path, wrong, got)

    agree(state_schema, b.engine.from_json, b.engine.to_json(states[-1]), f"{game}.bad-state")
    for move in moves:
        agree(move_schema, b.engine.move_from_json, move, f"{game}.malformed-move")


