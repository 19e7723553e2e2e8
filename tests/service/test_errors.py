"""Bad input of every kind gets a clear 4xx problem+json, never a 500: for every game of the registry."""

from __future__ import annotations

import json

import pytest

from service.games import BINDINGS

GAMES = list(BINDINGS)


def problem(r, status: int, code: str | None = None) -> dict:
    assert r.status_code == status, r.get_data(as_text=True)
    assert r.mimetype == "application/problem+json"
    body = r.json
    assert {"type", "title", "status", "detail"} <= set(body) and body["status"] == status
    if code is not None:
        assert body["code"] == code, body
    return body


@pytest.fixture(params=GAMES)
def game(request):
    return request.param


@pytest.fixture
def players(game):
    return BINDINGS[game].engine.players.start


@pytest.fixture
def new_state(client, game, players):
    return client.post(f"/v1/games/{game}/new", json={"players": players, "seed": 1}).json["state"]


def test_malformed_json_is_400(client, game):
    problem(client.post(f"/v1/games/{game}/apply", data="{nope", content_type="application/json"), 400)


@pytest.mark.parametrize("text", ["NaN", '{"players": Infinity}', "[" * 100_000 + "]" * 100_000])
def test_non_json_constants_and_deep_nesting_are_400(app, text, game):
    app.config["MAX_CONTENT_LENGTH"] = 1 << 20
    r = app.test_client().post(f"/v1/games/{game}/new", data=text, content_type="application/json")
    problem(r, 400)


def test_wrong_content_type_is_415(client, game):
    problem(client.post(f"/v1/games/{game}/new", data="players=2", content_type="text/plain"), 415)


def test_body_over_the_limit_is_413(client, game):
    big = json.dumps({"players": 2, "seed": "x" * (300 * 1024)})
    problem(client.post(f"/v1/games/{game}/new", data=big, content_type="application/json"), 413)


def test_wrong_method_is_405_with_allow(client, game):
    r = client.get(f"/v1/games/{game}/apply")
    problem(r, 405)
    assert "POST" in r.headers["Allow"]


def test_unknown_path_is_404_problem(client):
    problem(client.get("/v2/nothing"), 404)


def test_body_that_is_not_an_object_is_422(client, game):
    problem(client.post(f"/v1/games/{game}/new", json=[1, 2]), 422, "request.invalid")


def test_unknown_fields_are_rejected_not_ignored(client, game, players):
    body = problem(client.post(f"/v1/games/{game}/new", json={"players": players, "colour": "red"}), 422,
                   "request.invalid")
    assert "colour" in body["errors"]


@pytest.mark.parametrize("value", [True, "2", 2.5, 2.0, None])
def test_wrong_types_are_422(client, game, value):
    problem(client.post(f"/v1/games/{game}/new", json={"players": value}), 422, "request.invalid")


def test_player_count_outside_the_game_is_422(client, game):
    problem(client.post(f"/v1/games/{game}/new", json={"players": 15}), 422, "options.players")


def test_unknown_option_is_422(client, game, players):
    problem(client.post(f"/v1/games/{game}/new", json={"players": players, "options": {"nope": 1}}), 422,
            "options.unknown")


def with_first_int_as_float(value):
    """A copy of ``value`` whose first integer (depth first) is a float: 2 -> 2.0."""
    done = False

    def walk(v):
        nonlocal done
        if done:
            return v
        if isinstance(v, int) and not isinstance(v, bool):
            done = True
            return float(v)
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v

    return walk(value)


def test_a_float_is_never_taken_for_an_integer(client, game, new_state):
    """2.0 is a number but not the seat 2, nor a card, nor an option's integer choice."""
    floated = with_first_int_as_float(new_state)
    assert json.dumps(floated) != json.dumps(new_state), f"{game} has an integer in its state"
    r = client.post(f"/v1/games/{game}/legal-moves", json={"state": floated})
    declared = BINDINGS[game].spec is not None  # read by its declaration (issue 17 moves every game)
    body = problem(r, 422, f"{game}.bad-state" if declared else "request.invalid")
    if declared:
        assert body["field"] and "2.0" not in body["field"] and "integer" in body["detail"], body
    r = client.post(f"/v1/games/{game}/apply", json={"state": new_state, "seat": 0.0, "move": {"kind": "x"}})
    problem(r, 422, "request.invalid")


def test_move_kind_of_another_game_is_422(client, game, new_state):
    body = problem(client.post(f"/v1/games/{game}/apply",
                               json={"state": new_state, "seat": 0, "move": {"kind": "castle"}}), 422)
    if BINDINGS[game].spec is not None:  # a declared game reads moves by its declaration
        assert body["code"] == f"{game}.malformed-move" and body["field"] == "kind" and "castle" in body["detail"]
    else:
        assert "castle" in json.dumps(body["errors"])


def test_tampered_states_are_422_invalid_state(client, game):
    """Drop, duplicate or retype parts of a real state: a 422 problem every time, never a 500."""
    engine = BINDINGS[game].engine
    state = client.post(f"/v1/games/{game}/new", json={"players": engine.players.start, "seed": 4}).json["state"]
    variants = []
    for key, value in state.items():
        variants.append({k: v for k, v in state.items() if k != key})  # a field missing
        variants.append({**state, key: None})  # a null
        if isinstance(value, list) and value:
            variants.append({**state, key: value[:-1]})  # one element lost
            variants.append({**state, key: value + value[-1:]})  # one element duplicated
        if isinstance(value, int) and not isinstance(value, bool):
            variants.append({**state, key: value + 1000})
    for bad in variants:
        r = client.post(f"/v1/games/{game}/legal-moves", json={"state": bad})
        assert r.status_code in (200, 422), (bad, r.json)
        if r.status_code == 422:
            assert r.mimetype == "application/problem+json" and r.json["code"]


def test_scores_of_tally_without_either_input_is_422(client, game):
    problem(client.post(f"/v1/games/{game}/score", json={}), 422, "request.invalid")


def test_the_replay_move_limit_is_reachable_within_the_body_limit():
    """MAX_REPLAY_MOVES (default 5,000) is refused as such (422 on `moves`), not cut off first by
    MAX_BODY_BYTES (413): 5,001 of the shortest moves fit in a body under the limit."""
    from service.app import create_app
    from service.config import Config, TestConfig

    app = create_app(TestConfig)
    limit = app.config["MAX_REPLAY_MOVES"]
    assert limit == Config.MAX_REPLAY_MOVES == 5_000
    body = json.dumps({"new": {"players": 2}, "moves": [{"seat": 0, "move": {"kind": "roll"}}] * (limit + 1)})
    assert len(body) < app.config["MAX_CONTENT_LENGTH"]
    resp = app.test_client().post("/v1/games/northcott/replay", data=body, content_type="application/json")
    assert resp.status_code == 422 and resp.json["code"] == "request.invalid"
    assert "moves" in resp.json["errors"]


# --------------------------------------------------------------------------- problem pages (DESIGN 4.4)


def _refusals(client, game, new_state):
    """Problems of several kinds for one game: a rules refusal, a schema refusal, an unknown path."""
    seat = next(iter(BINDINGS[game].engine.to_act(BINDINGS[game].load_state(new_state))))
    return [client.post(f"/v1/games/{game}/apply", json={"state": new_state, "seat": seat,
                                                          "move": {"kind": "no-such-kind"}}).json,
            client.post(f"/v1/games/{game}/new", json={"players": "two"}).json,
            client.get("/v1/no-such-path").json]


def test_every_problem_type_is_a_page_the_service_answers(client, game, new_state):
    """A problem's ``type`` is ``/problems/<code>``; that URL answers the code's catalogue entry
    as JSON for a client and as an HTML page for a browser, in the asked language."""
    refusals = _refusals(client, game, new_state)
    assert len(refusals) == 3
    for body in refusals:
        assert body["type"] == f"/problems/{body['code']}", body
        as_json = client.get(body["type"], headers={"Accept": "application/json"})
        assert as_json.status_code == 200 and as_json.json["code"] == body["code"], as_json.json
        assert as_json.json["status"] == body["status"] and as_json.json["description"]
        page = client.get(body["type"], headers={"Accept": "text/html", "Accept-Language": "pl"})
        assert page.status_code == 200 and page.mimetype == "text/html"
        assert body["code"] in page.get_data(as_text=True) and page.headers["Content-Language"] == "pl"


def test_a_problem_page_for_an_unknown_code_is_a_404_problem(client):
    r = client.get("/problems/no.such-code<script>", headers={"Accept": "text/html"})
    body = problem(r, 404, "problem.unknown")
    assert body["type"] == "/problems/problem.unknown" and "<script>" not in r.get_data(as_text=True).split('"detail"')[0]


def test_validation_details_are_polish_with_pl(client, game):
    """``errors`` under request.invalid speak the asked language too (issue 17 §3)."""
    english = client.post(f"/v1/games/{game}/new", json={"players": "two", "colour": 1}).json
    polish = client.post(f"/v1/games/{game}/new", json={"players": "two", "colour": 1},
                         headers={"Accept-Language": "pl"}).json
    assert english["code"] == polish["code"] == "request.invalid"
    assert set(english["errors"]) == set(polish["errors"]) == {"players", "colour"}
    assert english["errors"]["colour"] == ["Unknown field."] and polish["errors"]["colour"] == ["Nieznane pole."]
    assert polish["errors"]["players"] == ["To nie jest poprawna liczba całkowita."]


@pytest.mark.parametrize("message, polish", [
    ("'contract' is a required property", "brak wymaganego pola 'contract'"),
    ('[] is not of type "object"', "[] nie jest obiektem"),
    ("7 is greater than the maximum of 3", "7 przekracza maksimum 3"),
    ("Additional properties are not allowed ('x' was unexpected)", "niedozwolone pola: 'x'"),
    ("Length must be between 2 and 4.", "Długość musi być między 2 a 4."),
    ("something no pattern knows", "nieprawidłowa wartość (something no pattern knows)"),
])
def test_each_kind_of_validation_message_has_its_polish(message, polish):
    from service.i18n import error_message_pl

    assert error_message_pl(message) == polish
