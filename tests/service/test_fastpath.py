"""The fast path (service/fastpath.py) answers apply, validate, legal-moves and view exactly as
Flask does: the same status, headers and bytes, request by request, for every game, for
answers and for refusals; and it leaves everything it cannot answer completely to Flask."""

from __future__ import annotations

import json

import pytest
from werkzeug.test import EnvironBuilder

from service.app import create_app
from service.config import TestConfig
from service.games import BINDINGS

GAMES = sorted(BINDINGS)


class Fixed(TestConfig):
    STATE_SIGNING_KEY = "test-fast-path"  # both apps sign alike


@pytest.fixture(scope="module")
def apps():
    return create_app(Fixed).test_client(), create_app(Fixed, {"FAST_PATH": False}).test_client()


def _same(apps, path: str, data: bytes, headers: dict | None = None, content_type: str = "application/json"):
    """Send one request to both apps; they must answer alike. Returns the fast app's response."""
    fast, slow = apps
    headers = {"X-Request-ID": "same-id", **(headers or {})}
    a = fast.post(path, data=data, headers=headers, content_type=content_type)
    b = slow.post(path, data=data, headers=headers, content_type=content_type)
    assert (a.status, sorted(a.headers.items()), a.data) == (b.status, sorted(b.headers.items()), b.data)
    return a


def _requests(client, game: str) -> list[tuple[str, object]]:
    """Requests for one game, from a live mid-game state: answers and refusals of each endpoint."""
    engine = BINDINGS[game].engine
    made = client.post(f"/v1/games/{game}/new", json={"players": engine.players.start, "seed": 5}).json
    seat = made["to_act"][0]
    legal = client.post(f"/v1/games/{game}/legal-moves", json={"state": made["state"], "seat": seat}).json["moves"]
    state, signature = made["state"], made["signature"]
    other = (seat + 1) % engine.players.start
    return [
        ("legal-moves", {"state": state, "seat": seat}),
        ("legal-moves", {"state": state, "seat": other, "signature": signature}),
        ("legal-moves", {"state": state, "seat": 9}),  # no such seat
        ("view", {"state": state, "seat": seat}),
        ("view", {"state": state, "seat": None}),
        ("validate", {"state": state, "seat": seat, "move": legal[0]}),
        ("validate", {"state": state, "seat": other, "move": legal[0]}),  # not your turn, as a verdict
        ("apply", {"state": state, "seat": seat, "move": legal[0], "signature": signature}),
        ("apply", {"state": state, "seat": seat, "move": legal[0]}),
        ("apply", {"state": state, "seat": seat, "move": legal[0], "signature": "A" * 43}),  # forged
        ("apply", {"state": state, "seat": other, "move": legal[0]}),  # not your turn
        ("apply", {"state": state, "seat": seat, "move": {"kind": "no-such-kind"}}),
        ("apply", {"state": {**state, "players": 99}, "seat": seat, "move": legal[0]}),
        ("apply", {"state": state, "seat": seat}),  # no move
        ("apply", [state]),  # not an object
        ("apply", b'{"state": '),  # not JSON
        ("apply", b"[" * 70 + b"]" * 70),  # too deep
    ]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "pl"])
def test_every_answer_and_refusal_is_the_same_byte_for_byte(apps, game, lang):
    statuses = set()
    for action, body in _requests(apps[1], game):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        resp = _same(apps, f"/v1/games/{game}/{action}", data, {"Accept-Language": lang})
        statuses.add(resp.status_code)
        if resp.status_code >= 400:
            assert resp.headers["Content-Language"] == lang
    assert statuses == {200, 400, 422}  # answers and both kinds of refusal were compared


def test_an_unknown_game_and_the_other_routes_are_the_same(apps):
    made = apps[1].post("/v1/games/northcott/new", json={"players": 2, "seed": 1}).json
    body = json.dumps({"state": made["state"], "seat": 0}).encode()
    assert _same(apps, "/v1/games/chess/legal-moves", body).status_code == 404
    assert _same(apps, "/v1/games/northcott/legal-moves/", body).status_code == 404
    assert _same(apps, "/v1/games/northcott/replay", json.dumps({"state": made["state"], "moves": []}).encode()
                 ).status_code == 200


def _boom(**_):
    raise AssertionError("the Flask view ran")


@pytest.fixture
def traced():
    """An app whose Flask apply view fails: a 200 proves the fast path answered."""
    app = create_app(TestConfig, {"CORS_ORIGINS": "https://table.example"})
    app.view_functions["api.apply"] = _boom
    client = app.test_client()
    made = client.post("/v1/games/take-that/new", json={"players": 2, "seed": 3}).json
    seat = made["to_act"][0]
    move = client.post("/v1/games/take-that/legal-moves", json={"state": made["state"], "seat": seat}).json["moves"][0]
    return app, client, {"state": made["state"], "seat": seat, "move": move, "signature": made["signature"]}


def test_the_fast_path_answers_a_plain_json_apply(traced):
    _, client, body = traced
    resp = client.post("/v1/games/take-that/apply", json=body, headers={"X-Request-ID": "abc-1"})
    assert resp.status_code == 200
    assert resp.headers["X-Request-ID"] == "abc-1"
    assert resp.json["signature"]


@pytest.mark.parametrize("case", ["cross-origin", "text/plain", "too large", "fast path off"])
def test_what_it_cannot_answer_completely_goes_to_flask(traced, case):
    app, client, body = traced
    data, headers, content_type = json.dumps(body), {}, "application/json"
    if case == "cross-origin":
        headers["Origin"] = "https://table.example"  # flask-cors must add its headers
    elif case == "text/plain":
        content_type = "text/plain"
    elif case == "too large":
        app.config["MAX_CONTENT_LENGTH"] = len(data) - 1
    else:
        app.config["FAST_PATH"] = False
    resp = client.post("/v1/games/take-that/apply", data=data, headers=headers, content_type=content_type)
    assert (resp.status_code, resp.json["code"]) == (500, "server.internal")  # the failing Flask view ran
    if case == "cross-origin":
        assert resp.headers["Access-Control-Allow-Origin"] == "https://table.example"


def _environ(data: bytes, **extra) -> dict:
    """A WSGI environ of a JSON POST to take-that's apply (werkzeug's EnvironBuilder), with
    ``extra`` keys set, or removed where ``None``: for what the test client cannot send."""
    environ = EnvironBuilder(path="/v1/games/take-that/apply", method="POST", data=data,
                             content_type="application/json", headers={"X-Request-ID": "raw"}).get_environ()
    for key, value in extra.items():
        if value is None:
            environ.pop(key, None)
        else:
            environ[key] = value
    return environ


def _call(wsgi_app, environ: dict) -> tuple[str, list, bytes]:
    seen: list = []
    data = b"".join(wsgi_app(environ, lambda status, headers, exc_info=None: seen.append((status, sorted(headers)))))
    return seen[0][0], seen[0][1], data


@pytest.mark.parametrize("extra", [
    {"CONTENT_LENGTH": None, "wsgi.input_terminated": True, "HTTP_TRANSFER_ENCODING": "chunked"},
    {"CONTENT_LENGTH": "\u00b2"},  # "²" is a digit to str.isdigit, not to int()
], ids=["chunked", "length-not-ascii-digits"])
def test_a_body_of_unknown_length_goes_to_flask(traced, extra):
    app, _, body = traced
    status, _, _ = _call(app, _environ(json.dumps(body).encode(), **extra))
    assert status == "500 INTERNAL SERVER ERROR"  # Flask's (failing) view ran; the fast path did not


def test_a_body_cut_short_is_the_same_400(apps):
    """A client that promises more bytes than it sends: werkzeug's 400 either way."""
    answers = [_call(client.application, _environ(b'{"state": 1}', CONTENT_LENGTH="100")) for client in apps]
    assert answers[0] == answers[1]
    assert answers[0][0].startswith("400")


def test_the_fast_path_counts_in_the_metrics(traced):
    _, client, body = traced
    for _ in range(3):
        assert client.post("/v1/games/take-that/apply", json=body).status_code == 200
    text = client.get("/metrics").get_data(as_text=True)
    line = next(x for x in text.splitlines() if x.startswith("arbiter_requests_total{")
                and 'route="/v1/games/<game>/apply"' in x and 'status="200"' in x)
    assert 'game="take-that"' in line and line.endswith(" 3.0")
