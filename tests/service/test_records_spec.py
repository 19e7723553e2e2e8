"""Records read through the spec (DESIGN 4.8, issue 25): a game's record formats are declared in
its ``GameSpec.records`` (reader, writer, replayer, warning codes, summary shapes), the catalogue
lists them, ``/v1/codes`` lists their warnings, and the service's record glue names no game."""

from __future__ import annotations

import ast
from pathlib import Path

from rules.backgammon import SPEC, _records
from rules.registry import ENGINES

ROOT = Path(__file__).resolve().parents[2]
GAME_FREE = ("service/records.py", "service/openapi.py", "service/schemas/common.py")
MAT = (ROOT / "tests" / "rules" / "data" / "backgammon" / "records" / "gnubg-charlot-7p.mat").read_text()


def test_backgammon_declares_its_formats_reader_writer_replayer_warnings_and_summary() -> None:
    mat, sgf = SPEC.records["mat"], SPEC.records["sgf"]
    assert (mat.read, mat.write, mat.replay) == (_records.parse_mat, _records.write_mat, _records.replay_record)
    assert (sgf.read, sgf.write, sgf.replay) == (_records.parse_sgf, None, _records.replay_record)
    for record in (mat, sgf):
        assert dict(record.warnings) == _records.RECORD_WARNINGS and len(record.warnings) >= 10
        assert set(record.summary) == {"games", "match"}
        assert record.max_chars == _records.MAX_RECORD_CHARS


def test_the_catalogue_lists_each_games_record_formats(client) -> None:
    listed = {}
    for gid, engine in ENGINES.items():
        r = client.get(f"/v1/games/{gid}")
        assert r.status_code == 200
        assert r.json["records"] == sorted(engine.spec.records), gid
        listed[gid] = r.json["records"]
    assert listed["backgammon"] == ["mat", "sgf"]
    assert [gid for gid, formats in listed.items() if formats] == ["backgammon"]


def test_every_listed_format_is_read_by_replay_and_the_answer_has_the_declared_summary(client) -> None:
    sgf = (ROOT / "tests" / "rules" / "data" / "backgammon" / "records").glob("*.sgf")
    texts = {"mat": MAT, "sgf": next(iter(sgf)).read_text()}
    for fmt in SPEC.records:
        r = client.post("/v1/games/backgammon/replay", json={"record": {"format": fmt, "text": texts[fmt]}})
        assert r.status_code == 200, (fmt, r.json)
        assert set(SPEC.records[fmt].summary) <= set(r.json), fmt
    refused = client.post("/v1/games/backgammon/replay", json={"record": {"format": "pgn", "text": MAT}})
    assert refused.status_code == 422 and refused.json["code"] == "request.invalid"


def test_v1_codes_lists_the_record_warnings(client) -> None:
    body = client.get("/v1/codes").json
    warnings = {w["code"]: w for w in body["warnings"]}
    assert set(_records.RECORD_WARNINGS) <= set(warnings)
    for code, declared in _records.RECORD_WARNINGS.items():
        assert warnings[code] == {"code": code, "title": declared.title.en, "games": ["backgammon"]}
    polish = {w["code"]: w["title"] for w in client.get("/v1/codes", headers={"Accept-Language": "pl"}).json["warnings"]}
    assert polish["backgammon.record-crlf"] == _records.W.crlf.title.pl
    assert not set(warnings) & {c["code"] for c in body["codes"]}  # a warning is not an error code


def test_the_service_record_glue_imports_no_game_module_and_names_no_game() -> None:
    for path in GAME_FREE:
        source = (ROOT / path).read_text()
        imported = set()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
                imported.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                imported.update(a.name for a in node.names)
        assert not {m for m in imported if m.startswith("rules.backgammon")}, (path, imported)
        assert "backgammon" not in source.lower(), path
