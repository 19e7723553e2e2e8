"""Recorded matches over HTTP (DESIGN 4.3): ``/replay`` with a ``record``, its 422 shapes, the
``MAX_REPLAY_MOVES`` limit, and ``POST /v1/games/backgammon/record`` (``.mat`` export)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from service.app import create_app
from service.config import TestConfig
from service.games import BINDINGS
from service.records import session_log_mat
from tests.playout import choose

RECORDS = Path(__file__).parent.parent / "rules" / "data" / "backgammon" / "records"
MAT = (RECORDS / "gnubg-charlot-7p.mat").read_text()


def replay_record(client, text: str, fmt: str = "mat"):
    return client.post("/v1/games/backgammon/replay", json={"record": {"format": fmt, "text": text}})


def test_a_real_match_answers_the_final_envelope_games_and_match(client):
    r = replay_record(client, MAT)
    assert r.status_code == 200, r.json
    body = r.json
    assert body["game_over"] is True and body["outcome"]["winners"] == [0]
    assert body["match"] == {"length": 7, "players": ["charlot1", "charlot2"], "score": [9, 2]}
    assert body["games"][0] == {"number": 1, "winner": 1, "points": 2, "resigned": True, "score_after": [0, 2]}
    assert body["games"][2] == {"number": 3, "winner": 0, "points": 4, "score_after": [6, 2]}
    assert body["state"]["match"]["score"] == [9, 2]
    assert body["applied"] > 300


def test_an_illegal_move_answers_code_index_game_and_row(client):
    text = MAT.replace("  3) 32: 6/4* 4/1                42: 25/23 14/10 ",
                       "  3) 32: 6/4* 4/2                42: 25/23 14/10 ")
    r = replay_record(client, text)
    assert r.status_code == 422
    problem = r.json
    assert problem["code"].startswith("backgammon.")
    assert (problem["game"], problem["move"]) == (3, 3)
    assert isinstance(problem["index"], int) and problem["index"] > 100


def test_unreadable_text_answers_bad_record_with_the_line(client):
    r = replay_record(client, " 7 point match\n\n Game 1\n A : 0     B : 0\n  1) 31: 8/5 6/5 ???\n")
    assert r.status_code == 422
    assert r.json["code"] == "backgammon.bad-record" and r.json["line"] == 5


def test_a_game_without_records_answers_404(client):
    r = client.post("/v1/games/kierki/replay", json={"record": {"format": "mat", "text": MAT}})
    assert r.status_code == 404 and r.json["code"] == "game.no-records"


@pytest.mark.parametrize("body", [
    {"record": {"format": "mat", "text": "x"}, "new": {"players": 2}},
    {"record": {"format": "mat", "text": "x"}, "moves": []},
    {"record": {"format": "pgn", "text": "x"}},
    {"new": {"players": 2}},
])
def test_replay_takes_exactly_one_start(client, body):
    r = client.post("/v1/games/backgammon/replay", json=body)
    assert r.status_code == 422 and r.json["code"] == "request.invalid"


def test_max_replay_moves_is_read_from_the_configuration():
    """The limit is the configured ``MAX_REPLAY_MOVES``, for JSON moves and for a record's moves."""
    client = create_app(TestConfig, {"MAX_REPLAY_MOVES": 20}).test_client()
    moves = [{"seat": 0, "move": {"kind": "roll"}}] * 21
    r = client.post("/v1/games/backgammon/replay", json={"new": {"players": 2}, "moves": moves})
    assert r.status_code == 422 and "MAX_REPLAY_MOVES" in str(r.json["errors"])
    r = client.post("/v1/games/backgammon/replay", json={"new": {"players": 2}, "moves": moves[:20]})
    assert r.status_code != 422 or r.json["code"] != "request.invalid"
    r = replay_record(client, MAT)
    assert r.status_code == 422 and r.json["code"] == "backgammon.bad-record"


def _moves(seed: int, length: int = 3):
    engine = BINDINGS["backgammon"].engine
    rnd = random.Random(seed)
    state = engine.new(2, seed, {"match_length": length, "cube": "off" if seed % 2 else "auto"})
    out = []
    while engine.to_act(state) and len(out) < 3000:
        seat = min(engine.to_act(state))
        move = choose(rnd, "backgammon", list(engine.legal_moves(state, seat)), lambda m: m.kind)
        out.append({"seat": seat, "move": engine.move_to_json(move)})
        state = engine.apply(state, seat, move)
    return out, state


@pytest.mark.parametrize("seed", range(4))
def test_record_export_reads_back_through_replay(client, seed):
    moves, final = _moves(seed)
    new = {"players": 2, "seed": seed, "options": {"match_length": 3, "cube": "off" if seed % 2 else "auto"}}
    r = client.post("/v1/games/backgammon/record", json={"new": new, "moves": moves, "players": ["Ann", "Bob"]})
    assert r.status_code == 200 and r.mimetype == "text/plain"
    back = replay_record(client, r.get_data(as_text=True))
    assert back.status_code == 200, back.json
    engine = BINDINGS["backgammon"].engine
    assert back.json["match"]["score"] == list(engine.scores(final).totals)
    assert back.json["match"]["players"] == ["Ann", "Bob"]
    assert back.json["state"]["points"] == engine.to_json(final)["points"]


def test_record_export_refuses_an_illegal_move_with_its_index(client):
    r = client.post("/v1/games/backgammon/record",
                    json={"new": {"players": 2}, "moves": [{"seat": 0, "move": {"kind": "double"}}]})
    assert r.status_code == 422 and r.json["code"] == "backgammon.opening-roll" and r.json["index"] == 0


def test_the_session_log_hook_writes_mat(client, app):
    """``session_log_mat`` (for ``GET /v1/sessions/{id}/log?format=mat``) from a stored session."""
    r = client.post("/v1/sessions", json={"game": "backgammon", "players": 2, "options": {"match_length": 1}})
    sid, tokens = r.json["id"], [s["token"] for s in r.json["seats"]]
    for _ in range(6):
        version = client.get(f"/v1/sessions/{sid}", headers={"Authorization": f"Bearer {tokens[0]}"}).json["version"]
        acting = client.get(f"/v1/sessions/{sid}", headers={"Authorization": f"Bearer {tokens[0]}"}).json["to_act"]
        seat = acting[0]
        lm = client.get(f"/v1/sessions/{sid}/legal-moves", headers={"Authorization": f"Bearer {tokens[seat]}"}).json
        move = [m for m in lm["moves"] if m["kind"] in ("roll", "move")][0]
        client.post(f"/v1/sessions/{sid}/moves", json={"move": move, "version": version},
                    headers={"Authorization": f"Bearer {tokens[seat]}"})
    stored = {**app.extensions["arbiter.store"].get(sid), "log": app.extensions["arbiter.store"].log(sid)}
    text = session_log_mat(BINDINGS["backgammon"], stored)
    assert " 1 point match" in text and "Seat 0 : 0" in text
    back = replay_record(client, text)
    assert back.status_code == 200, back.json
    assert back.json["state"]["points"] == stored["state"]["points"]


def test_a_gnubg_sgf_record_replays(client):
    r = replay_record(client, (RECORDS / "gnubg-charlot-7p-excerpt.sgf").read_text(), "sgf")
    assert r.status_code == 200, r.json
    assert r.json["applied"] == 20 and r.json["games"][0]["winner"] is None


def test_a_backgammon_session_log_exports_as_mat_and_reads_back(client):
    """`GET /v1/sessions/{id}/log?format=mat` (DESIGN 4.3): the moves so far as a record that
    `/replay` reads back to the same position, even mid-turn (rolled, not yet played)."""
    import random

    created = client.post("/v1/sessions", json={"game": "backgammon", "players": 2, "seed": 12}).json
    sid, tokens = created["id"], [s["token"] for s in created["seats"]]
    rnd = random.Random(5)
    for _ in range(15):
        info = client.get(f"/v1/sessions/{sid}", headers={"Authorization": f"Bearer {tokens[0]}"}).json
        seat = rnd.choice(info["to_act"])
        moves = client.get(f"/v1/sessions/{sid}/legal-moves", headers={"Authorization": f"Bearer {tokens[seat]}"}).json
        plain = [m for m in moves["moves"] if m["kind"] in ("roll", "move")] or moves["moves"]
        resp = client.post(f"/v1/sessions/{sid}/moves", headers={"Authorization": f"Bearer {tokens[seat]}"},
                           json={"move": rnd.choice(plain), "version": info["version"]})
        assert resp.status_code == 200
    mat = client.get(f"/v1/sessions/{sid}/log?format=mat", headers={"Authorization": f"Bearer {tokens[1]}"})
    assert mat.status_code == 200 and mat.mimetype == "text/plain"
    assert " Game 1" in mat.get_data(as_text=True)
    back = client.post("/v1/games/backgammon/replay", json={"record": {"format": "mat", "text": mat.get_data(as_text=True)}})
    assert back.status_code == 200, back.json
    now = client.get(f"/v1/sessions/{sid}", headers={"Authorization": f"Bearer {tokens[1]}"}).json
    assert back.json["state"]["points"] == now["state"]["points"]
    assert back.json["state"]["position_id"] == now["state"]["position_id"]
    assert sorted(back.json["state"]["dice"]) == sorted(now["state"]["dice"])  # a record writes dice in its own order


def test_a_session_log_in_an_unknown_format_or_of_a_game_without_records_is_refused(client):
    created = client.post("/v1/sessions", json={"game": "take-that", "players": 2}).json
    auth = {"Authorization": f"Bearer {created['owner_token']}"}
    xml = client.get(f"/v1/sessions/{created['id']}/log?format=xml", headers=auth)
    assert xml.status_code == 422 and xml.json["code"] == "request.invalid"
    mat = client.get(f"/v1/sessions/{created['id']}/log?format=mat", headers=auth)
    assert mat.status_code == 404 and mat.json["code"] == "game.no-records"
