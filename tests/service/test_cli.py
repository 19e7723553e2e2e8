"""``arbiter check`` (DESIGN 4.3): in process, one line per file, ``--json``, ``-j``, and the exit
statuses 0 (all legal), 1 (a move refused), 2 (a file unreadable)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cli import main
from service.games import BINDINGS

RECORDS = Path(__file__).parent.parent / "rules" / "data" / "backgammon" / "records"
GOOD = RECORDS / "gnubg-charlot-7p.mat"
ILLEGAL = (" 3 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"
           "  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2) 64: 13/8\n")


def run(capsys, *argv: str) -> tuple[int, list[str]]:
    status = main(["check", *argv])
    return status, capsys.readouterr().out.splitlines()


def test_a_legal_record_is_ok_with_its_result(capsys):
    status, lines = run(capsys, str(GOOD))
    assert status == 0
    assert lines == [f"OK          {GOOD}: 7 point match charlot1 9 - 2 charlot2 (4 games)"]


def test_a_refused_move_exits_1_and_names_its_line_and_code(tmp_path, capsys):
    bad = tmp_path / "bad.mat"
    bad.write_text(ILLEGAL)
    status, lines = run(capsys, "--json", str(GOOD), str(bad))
    assert status == 1
    verdicts = [json.loads(line) for line in lines]
    assert [v["status"] for v in verdicts] == ["ok", "refused"]
    assert verdicts[1]["line"] == 6 and verdicts[1]["game"] == 1 and verdicts[1]["move"] == 2
    assert verdicts[1]["code"].startswith("backgammon.")


def test_an_unreadable_file_exits_2_even_beside_a_refusal(tmp_path, capsys):
    (tmp_path / "bad.mat").write_text(ILLEGAL)
    (tmp_path / "junk.mat").write_text("hello\n")
    status, lines = run(capsys, str(tmp_path / "bad.mat"), str(tmp_path / "junk.mat"), str(tmp_path / "missing.sgf"))
    assert status == 2
    assert lines[0].startswith("REFUSED") and f"{tmp_path / 'bad.mat'}:6:" in lines[0]
    assert lines[1].startswith(f"UNREADABLE  {tmp_path / 'junk.mat'}:1: backgammon.bad-record")
    assert lines[2].startswith("UNREADABLE") and "file.unreadable" in lines[2]


def test_parallel_checks_answer_the_same_lines_in_the_same_order(tmp_path, capsys):
    (tmp_path / "bad.mat").write_text(ILLEGAL)
    files = [*sorted(str(p) for p in RECORDS.glob("*.mat")), str(tmp_path / "bad.mat")]
    one = run(capsys, "--json", "-j", "1", *files)
    two = run(capsys, "--json", "-j", "2", *files)
    assert one == two and one[0] == 1 and len(one[1]) == len(files)


def _replay_file(gid: str) -> dict:
    """A JSON replay file for ``gid``: a new game and its first listed legal move."""
    b = BINDINGS[gid]
    new = {"players": b.engine.players.start, "seed": 7}
    state = b.new(new)
    seat = min(b.engine.to_act(state))
    move = b.engine.move_to_json(b.engine.legal_moves(state, seat)[0])
    return {"game": gid, "new": new, "moves": [{"seat": seat, "move": move}]}


@pytest.mark.parametrize("gid", sorted(BINDINGS))
def test_json_replay_files_of_every_game_are_checked(gid, tmp_path, capsys):
    path = tmp_path / f"{gid}.json"
    path.write_text(json.dumps(_replay_file(gid)))
    status, lines = run(capsys, "--json", str(path))
    verdict = json.loads(lines[0])
    assert status == 0 and verdict["status"] == "ok" and verdict["game"] == gid and verdict["applied"] == 1


def test_a_json_replay_file_with_an_illegal_move_is_refused_with_its_index(tmp_path, capsys):
    data = _replay_file("backgammon")
    data["moves"].append(data["moves"][0])
    data["moves"].append({"seat": 0, "move": {"kind": "double"}})
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    status, lines = run(capsys, "--json", str(path))
    verdict = json.loads(lines[0])
    assert status == 1 and verdict["status"] == "refused" and verdict["index"] in (1, 2)
