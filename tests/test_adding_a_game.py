"""docs/adding-a-game.md works as written (DESIGN 4.8): its blocks, applied to a clean copy of
the repository and nothing else, give a tenth game that the catalogue lists, that plays to its
end over HTTP, that `make openapi` adds to the contract (which then passes the contract tests:
current, Redocly, TypeScript under --strict, the event unions and the views and events of played
games against it) and that passes the conformance suite.

The copy's whole ``make test`` is not run here (it is the whole suite again), nor its schemathesis
run and generated Python client (minutes each, and they iterate the same registry). It has been run
by hand (a copy with the blocks applied, `make openapi`, then `make test`); in such a copy these tests
run too: they take the page's blocks out of it and put them back."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "adding-a-game.md"
BLOCK = re.compile(r"^```[a-z]*\n# (file|diff): (\S+)\n(.*?)^```$", re.M | re.S)


def blocks() -> list[tuple[str, str, str]]:
    return [(m.group(1), m.group(2), m.group(3)) for m in BLOCK.finditer(DOC.read_text())]


def applied() -> bool:
    """Whether this repository already holds the page's game: a copy with the page applied, whose
    whole ``make test`` runs these tests too."""
    return any((ROOT / path).exists() for kind, path, _ in blocks() if kind == "file")


def copy_tracked(where: Path) -> dict[str, bytes]:
    """Copies the repository's files as they are now into `where` (tracked ones, and new ones git does
    not ignore: a reader runs `make test` before committing the page's files); returns them by name."""
    tracked = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    files = {}
    for name in filter(None, tracked.decode().split("\0")):
        if (ROOT / name).is_file():
            (where / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, where / name)
            files[name] = (ROOT / name).read_bytes()
    return files


def put_in(where: Path) -> None:
    """The page's blocks applied to `where`, as a reader applies them."""
    for kind, path, text in blocks():
        if kind == "file":
            assert not (where / path).exists(), f"{path}: a `# file:` block makes a new file"
            (where / path).parent.mkdir(parents=True, exist_ok=True)
            (where / path).write_text(text)
        else:
            subprocess.run(["git", "apply", "--verbose", "-"], cwd=where, input=text.encode(), check=True,
                           capture_output=True)


def take_out(where: Path) -> None:
    """The page's blocks taken out of a copy that holds exactly them (its new files gone, its diffs reversed)."""
    for kind, path, text in reversed(blocks()):
        if kind == "file":
            assert (where / path).read_text() == text, f"{path} is not the page's block"
            (where / path).unlink()
        else:
            subprocess.run(["git", "apply", "-R", "-"], cwd=where, input=text.encode(), check=True,
                           capture_output=True)


@pytest.fixture(scope="module")
def tenth(tmp_path_factory) -> Path:
    """A copy of the repository's files as they are now, with the page's blocks applied."""
    where = tmp_path_factory.mktemp("tenth")
    copy_tracked(where)
    if applied():  # this repository is itself such a copy (its whole `make test`): take the page out first
        take_out(where)
    put_in(where)
    return where


@pytest.fixture(scope="module")
def contract(tenth) -> str:
    """The tenth copy after the page's `make openapi`: its openapi.yaml, regenerated."""
    recipe = re.search(r"^openapi:.*\n\t(.*)$", (tenth / "Makefile").read_text(), re.M)
    assert recipe and recipe.group(1) == "$(BIN)/python -m service.openapi > openapi.yaml", recipe
    (tenth / "openapi.yaml").write_text(run(tenth, "-m", "service.openapi"))
    node_modules = ROOT / "node_modules"
    if node_modules.exists() and not (tenth / "node_modules").exists():  # the tools the contract tests run
        (tenth / "node_modules").symlink_to(node_modules.resolve())
    return (tenth / "openapi.yaml").read_text()


def run(where: Path, *args: str, timeout: int = 900) -> str:
    env = {**os.environ, "PYTHONPATH": str(where)}  # the copy's modules, in subprocesses too
    done = subprocess.run([sys.executable, *args], cwd=where, capture_output=True, text=True, timeout=timeout,
                          env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def test_the_page_has_new_files_and_diffs_and_the_game_is_in_the_registry_only_where_the_page_is_applied():
    found = blocks()
    assert {kind for kind, _, _ in found} == {"file", "diff"} and len(found) >= 4
    assert "rules/registry.py" in {path for kind, path, _ in found if kind == "diff"}
    from rules.registry import ENGINES

    assert ("nim" in ENGINES) == applied()  # Nim lives only on the page and in copies made from it
    assert re.search(r"^```sh\nmake openapi\n", DOC.read_text(), re.M), "the page's steps include `make openapi`"


def test_taking_the_page_out_and_putting_it_back_gives_the_same_files(tmp_path):
    """What lets these tests (and test_turn4_words' tenth game) run in a copy with the page applied,
    whose whole `make test` runs them too: taking the blocks out of such a copy gives the clean
    repository, to which the page applies again."""
    files = copy_tracked(tmp_path)
    first, then = (take_out, put_in) if applied() else (put_in, take_out)
    first(tmp_path)
    then(tmp_path)
    now = {str(p.relative_to(tmp_path)): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert now.keys() == files.keys(), sorted(now.keys() ^ files.keys())
    assert [name for name in files if now[name] != files[name]] == []


def test_the_tenth_game_is_listed_and_plays_to_its_end_over_http(tenth):
    out = run(tenth, "-c", textwrap.dedent("""
        from service.app import create_app
        from service.config import TestConfig

        client = create_app(TestConfig).test_client()
        games = [g["id"] for g in client.get("/v1/games").json["games"]]
        assert len(games) == 10 and "nim" in games, games
        entry = client.get("/v1/games/nim", headers={"Accept-Language": "pl"}).json
        assert entry["move_kinds"] == [{"kind": "take", "label": {"en": "Take stones", "pl": "Weź kamienie"}}], entry
        made = client.post("/v1/sessions", json={"game": "nim", "players": 2, "options": {"stones": 7}}).json
        tokens = [seat["token"] for seat in made["seats"]]
        status, moves = made, 0
        while status["to_act"]:
            seat = status["to_act"][0]
            auth = {"Authorization": "Bearer " + tokens[seat]}
            legal = client.get(f"/v1/sessions/{made['id']}/legal-moves", headers=auth).json["moves"]
            reply = client.post(f"/v1/sessions/{made['id']}/moves", headers=auth,
                                json={"version": status["version"], "move": legal[-1]})
            assert reply.status_code == 200, reply.json
            status, moves = reply.json, moves + 1
        assert [e["type"] for e in status["events"]] == ["move", "last-stone", "round-over", "game-over"], status
        start = client.post("/v1/games/nim/new", json={"players": 2}).json["state"]
        refused = client.post("/v1/games/nim/apply", json={"state": start, "seat": 0,
                                                          "move": {"kind": "take", "count": 9}})
        assert refused.status_code == 422 and refused.json["code"] == "nim.too-many", refused.json
        print(moves, status["scores"]["winners"])
    """))
    moves, winners = out.split(maxsplit=1)
    assert int(moves) == 3 and winners.strip() == "[0]"  # 3 + 3 + 1: seat 0 takes the last stone


def test_make_openapi_adds_the_tenth_game_and_its_events_to_the_contract(contract):
    for component in ("NimState:", "NimView:", "NimOptions:", "NimScores:", "NimEvent:", "NimLastStoneEvent:"):
        assert re.search(rf"^    {component}", contract, re.M), component


def test_the_tenth_games_contract_passes_the_contract_tests(tenth, contract):
    out = run(tenth, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/contract/test_openapi.py",
              "tests/contract/test_generated_types.py", "-k", "not honours")
    assert re.search(r"(\d+) passed", out) and " failed" not in out and " skipped" not in out, out
    assert int(re.search(r"(\d+) passed", out).group(1)) >= 9, out


def test_the_tenth_game_passes_the_conformance_suite_and_its_own_tests(tenth):
    out = run(tenth, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/rules/test_nim.py",
              "tests/rules/test_conformance.py", "tests/rules/test_hidden_information.py", "tests/rules/test_events.py",
              "tests/rules/test_score_history.py", "-k", "nim and not nimmt")
    assert re.search(r"(\d+) passed", out) and " failed" not in out, out
    assert int(re.search(r"(\d+) passed", out).group(1)) >= 10, out


def test_the_tenth_games_module_passes_mypy_strict(tenth, tmp_path):
    """The copy's whole `make test` holds rules/ to `mypy --strict` (tests/test_typing.py, an empty
    baseline); the page's module is checked alone here, with the copy's pyproject settings."""
    out = run(tenth, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy-cache"), "--no-color-output", "rules/nim.py")
    assert out.startswith("Success"), out
