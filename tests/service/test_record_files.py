"""Record files over HTTP (DESIGN 4.3): ``POST /v1/games/backgammon/records`` with the file itself
as the body, the writers' conventions in ``warnings``, and ``MAX_RECORD_BYTES`` on the record
endpoints only."""

from __future__ import annotations

from pathlib import Path

from service.app import create_app
from service.config import TestConfig

RECORDS = Path(__file__).parent.parent / "rules" / "data" / "backgammon" / "records"
MAT = (RECORDS / "gnubg-charlot-7p.mat").read_bytes()
SGF_HEAD = b"(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]RE[B+1];B[41lpab];W[31fehe];B[double];W[drop])"
CONCEDED = (b"\xef\xbb\xbf 3 point match\r\n\r\n Game 1\r\n Ann : 0                        Bob : 0\r\n"
            b"  1) 31: 8/5 6/5                 42: 8/4 6/4\r\n  2) 64: 24/18 13/9\r\n"
            b"                                 Wins 1 point\r\n")


def post_file(client, data: bytes, query: str = "", content_type: str = "text/plain"):
    return client.post(f"/v1/games/backgammon/records{query}", data=data, content_type=content_type)


def test_a_mat_file_as_the_body_answers_as_replay_with_a_record(client):
    r = post_file(client, MAT)
    assert r.status_code == 200, r.json
    same = client.post("/v1/games/backgammon/replay", json={"record": {"format": "mat", "text": MAT.decode()}})
    assert r.json == same.json
    assert r.json["match"] == {"length": 7, "players": ["charlot1", "charlot2"], "score": [9, 2]}
    assert r.json["warnings"] == []


def test_the_format_is_sniffed_or_named(client):
    sniffed = post_file(client, SGF_HEAD)
    named = post_file(client, SGF_HEAD, "?format=sgf")
    assert sniffed.status_code == named.status_code == 200
    assert sniffed.json["games"] == named.json["games"] == [{"number": 1, "winner": 1, "points": 1, "score_after": [0, 1]}]
    wrong = post_file(client, SGF_HEAD, "?format=mat")  # named .mat: read as .mat, and refused by its line
    assert wrong.status_code == 422 and wrong.json["code"] == "backgammon.bad-record" and wrong.json["line"] == 1
    bad = post_file(client, SGF_HEAD, "?format=pgn")
    assert bad.status_code == 422 and bad.json["code"] == "request.invalid"


def test_curl_data_binary_without_a_content_type_is_read_too(client):
    r = post_file(client, MAT, content_type="application/x-www-form-urlencoded")
    assert r.status_code == 200 and r.json["match"]["score"] == [9, 2]


def test_a_json_body_or_an_empty_file_is_refused(client):
    assert post_file(client, b'{"record": {}}', content_type="application/json").status_code == 415
    empty = post_file(client, b"  \n")
    assert empty.status_code == 422 and empty.json["code"] == "request.invalid"


def test_conventions_answer_warnings_with_their_lines(client):
    r = post_file(client, CONCEDED)
    assert r.status_code == 200, r.json
    assert [(w["line"], w["code"]) for w in r.json["warnings"]] == [
        (1, "backgammon.record-byte-order-mark"), (1, "backgammon.record-crlf"),
        (7, "backgammon.record-conceded-out-of-turn")]
    assert r.json["games"] == [{"number": 1, "winner": 1, "points": 1, "resigned": True, "score_after": [0, 1]}]


def test_a_real_illegal_move_is_named_by_its_line(client):
    r = post_file(client, CONCEDED.replace(b"24/18 13/9", b"13/8"))
    assert r.status_code == 422
    assert r.json["code"].startswith("backgammon.") and (r.json["line"], r.json["game"], r.json["move"]) == (6, 1, 2)


def _padded(size: int) -> bytes:
    """The charlot record with comment lines: ``.mat`` skips them, so the size is all that changes."""
    pad = b"; " + b"x" * 98 + b"\n"
    return pad * (size // len(pad)) + MAT


def test_records_may_be_larger_than_the_body_limit_up_to_max_record_bytes():
    class Small(TestConfig):
        MAX_CONTENT_LENGTH = 64 * 1024
        MAX_RECORD_BYTES = 512 * 1024

    client = create_app(Small).test_client()
    big = _padded(300 * 1024)
    assert post_file(client, big).status_code == 200
    as_json = client.post("/v1/games/backgammon/replay", json={"record": {"format": "mat", "text": big.decode()}})
    assert as_json.status_code == 200
    assert post_file(client, _padded(600 * 1024)).status_code == 413
    # every other body keeps MAX_BODY_BYTES, /replay without a record included
    moves = [{"seat": 0, "move": {"kind": "roll", "dice": [3, 1]}}] * 3000
    r = client.post("/v1/games/backgammon/replay", json={"new": {"players": 2}, "moves": moves})
    assert r.status_code == 413
    r = client.post("/v1/games/backgammon/new", json={"players": 2, "options": {}, "seed": "x" * (70 * 1024)})
    assert r.status_code == 413


def test_warnings_speak_polish_when_asked(client):
    r = client.post("/v1/games/backgammon/records", data=CONCEDED, content_type="text/plain",
                    headers={"Accept-Language": "pl"})
    assert r.status_code == 200
    conceded = r.json["warnings"][2]
    assert conceded["code"] == "backgammon.record-conceded-out-of-turn"
    assert conceded["detail"] == "Partia 1: gracz 0 poddał partię zaraz po swoim ruchu, przed rzutem przeciwnika."


def test_a_utf16_file_reads_as_its_utf8_twin_and_bytes_that_are_no_text_are_refused(client):
    """One decoder for the endpoints and ``arbiter check``: UTF-16 by its byte-order mark (either
    order) is the same record as UTF-8; NUL bytes without the mark are refused, saying why."""
    utf8 = post_file(client, MAT)
    for bom, encoding in ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        r = post_file(client, bom + MAT.decode().encode(encoding))
        assert r.status_code == 200, r.json
        assert r.json == utf8.json
    unmarked = post_file(client, MAT.decode().encode("utf-16-le"))
    assert unmarked.status_code == 422 and unmarked.json["code"] == "request.invalid"
    assert "byte-order mark" in unmarked.json["errors"]["_schema"][0]
