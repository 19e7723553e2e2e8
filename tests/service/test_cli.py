"""``arbiter check`` (DESIGN 4.3): in process, one line per file, ``--json``, ``-j``, and the exit
statuses 0 (all legal), 1 (a move refused), 2 (a file unreadable)."""

from __future__ import annotations

import codecs
import json
import os
import subprocess
import sys
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


# --------------------------------------------------------------------------- what a path may name (issue 25)


def test_a_fifo_a_device_and_a_link_to_dev_zero_are_refused_never_waited_on(tmp_path, capsys):
    fifo = tmp_path / "pipe.mat"
    os.mkfifo(fifo)
    link = tmp_path / "zero.mat"
    link.symlink_to("/dev/zero")
    status, lines = run(capsys, "--json", str(fifo), str(link), "/dev/null", str(tmp_path))
    verdicts = [json.loads(line) for line in lines]
    assert status == 2
    assert [(v["status"], v["code"]) for v in verdicts[:3]] == [("unreadable", "file.not-regular")] * 3
    assert "FIFO" in verdicts[0]["detail"] and "device" in verdicts[1]["detail"]


def test_a_fifo_through_the_console_script_exits_2_at_once(tmp_path):
    fifo = tmp_path / "pipe.mat"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "service.cli", "check", str(fifo)], capture_output=True,
                          text=True, timeout=60, cwd=Path(__file__).parents[2])
    assert done.returncode == 2 and "file.not-regular" in done.stdout


def test_an_empty_folder_or_a_folder_without_records_exits_2(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("not a record")
    assert main(["check", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "no record file" in captured.err


def test_no_file_given_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["check"])
    assert info.value.code == 2


def test_at_most_max_record_bytes_are_read(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("service.cli.max_record_bytes", lambda: GOOD.stat().st_size - 1)
    status, lines = run(capsys, "--json", str(GOOD))
    assert status == 2 and json.loads(lines[0])["code"] == "file.too-large"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16"])
@pytest.mark.parametrize("endian", ["le", "be"])
def test_utf8_with_or_without_its_mark_and_utf16_with_its_mark_are_read(tmp_path, capsys, encoding, endian):
    text = GOOD.read_text().replace("charlot1", "Kévin")
    raw = text.encode(encoding) if encoding != "utf-16" else \
        codecs.BOM_UTF16_LE + text.encode("utf-16-le") if endian == "le" else codecs.BOM_UTF16_BE + text.encode("utf-16-be")
    path = tmp_path / "m.mat"
    path.write_bytes(raw)
    status, lines = run(capsys, "--json", str(path))
    verdict = json.loads(lines[0])
    assert status == 0 and verdict["match"]["players"] == ["Kévin", "charlot2"]


def test_utf16_without_its_mark_and_binary_are_refused_clearly(tmp_path, capsys):
    (tmp_path / "a.mat").write_bytes(GOOD.read_text().encode("utf-16-le"))
    (tmp_path / "b.sgf").write_bytes(bytes(range(256)) * 4)
    status, lines = run(capsys, "--json", str(tmp_path / "a.mat"), str(tmp_path / "b.sgf"))
    verdicts = [json.loads(line) for line in lines]
    assert status == 2 and [v["code"] for v in verdicts] == ["file.encoding", "file.encoding"]
    assert "byte-order mark" in verdicts[0]["detail"]
