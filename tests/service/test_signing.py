"""Signed states (service/signing.py): a state the service returned skips the re-check, and
nothing else does."""

from __future__ import annotations

import pytest

from service.app import create_app
from service.config import TestConfig
from service.games import BINDINGS

GAMES = sorted(BINDINGS)


def _players(game: str) -> int:
    return BINDINGS[game].engine.players.start


@pytest.mark.parametrize("game", GAMES)
def test_a_signed_state_plays_on_exactly_as_the_unsigned_one(client, game):
    made = client.post(f"/v1/games/{game}/new", json={"players": _players(game), "seed": 11}).json
    seat = made["to_act"][0]
    move = client.post(f"/v1/games/{game}/legal-moves", json={"state": made["state"], "seat": seat}).json["moves"][0]
    body = {"state": made["state"], "seat": seat, "move": move}
    signed = client.post(f"/v1/games/{game}/apply", json={**body, "signature": made["signature"]})
    unsigned = client.post(f"/v1/games/{game}/apply", json=body)
    assert signed.status_code == unsigned.status_code == 200
    assert signed.json == unsigned.json


def test_an_altered_state_with_a_valid_signature_gets_the_full_check(client):
    """Take That with a card taken out of a hand: the signature no longer matches, so the
    engine's conservation check refuses it (it is not read from the cache)."""
    made = client.post("/v1/games/take-that/new", json={"players": 2, "seed": 5}).json
    state = made["state"]
    altered = {**state, "hands": [state["hands"][0][1:], state["hands"][1]]}
    seat = made["to_act"][0]
    resp = client.post("/v1/games/take-that/apply", json={
        "state": altered, "signature": made["signature"], "seat": seat,
        "move": {"kind": "lay", "card": state["hands"][0][1]}})
    assert resp.status_code == 422
    assert resp.json["code"].startswith("take-that.")


def test_a_signature_from_another_key_is_not_trusted():
    a = create_app(TestConfig, {"STATE_SIGNING_KEY": "a" * 64}).test_client()
    b = create_app(TestConfig, {"STATE_SIGNING_KEY": "b" * 64}).test_client()
    made = a.post("/v1/games/take-that/new", json={"players": 2, "seed": 5}).json
    with b.application.app_context():
        signer = b.application.extensions["arbiter.signer"]
        assert signer.trusted("take-that", made["state"], made["signature"]) is None
    with a.application.app_context():
        signer = a.application.extensions["arbiter.signer"]
        assert signer.trusted("take-that", made["state"], made["signature"]) is not None
        assert signer.trusted("11-nimmt", made["state"], made["signature"]) is None  # bound to its game


def test_a_bad_signature_is_refused_by_the_schema_or_ignored(client):
    made = client.post("/v1/games/take-that/new", json={"players": 2, "seed": 5}).json
    long = client.post("/v1/games/take-that/view", json={"state": made["state"], "seat": 0, "signature": "x" * 65})
    assert long.status_code == 422 and long.json["code"] == "request.invalid"
    wrong = client.post("/v1/games/take-that/view", json={"state": made["state"], "seat": 0, "signature": "x" * 43})
    assert wrong.status_code == 200
