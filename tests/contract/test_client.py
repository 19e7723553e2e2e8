"""A client generated from the served contract works as generated (DESIGN 4.4, issue 17 §6).

openapi-python-client writes a Python client package from ``GET /openapi.yaml`` of a live server
(werkzeug, a thread, the memory store) and must print no warning (a warning means a piece of
the contract was dropped). ``pip install`` installs the package as written (its metadata
included), and the installed client plays a session of one game through a few moves, typed all
the way (``ElevenNimmtSession``, ``ElevenNimmtMovePlay`` ...), and applies a move of every game
through the stateless endpoints. ``make client`` writes the same package.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from service.app import create_app
from service.config import TestConfig
from service.games import BINDINGS
from service.openapi import _prefix
from tests.live import served_in_thread

PACKAGE = "arbiter_client"
# no post-hooks (they would run ruff over the output); Literal types for enums such as `game`; the
# distribution and package names `pip install` and `import` use
CONFIG = "post_hooks: []\nliteral_enums: true\nproject_name_override: arbiter-client\npackage_name_override: arbiter_client\n"


def generate(spec_url: str, out: Path) -> str:
    """Write the client project (``setup.py`` and the package) to ``out``; return the generator's output."""
    import httpx

    spec = out.parent / "openapi.yaml"
    spec.write_bytes(httpx.get(spec_url, timeout=60).raise_for_status().content)
    config = out.parent / "openapi-python-client.yaml"
    config.write_text(CONFIG)
    done = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(spec), "--meta", "setup",
         "--output-path", str(out), "--overwrite", "--config", str(config)],
        capture_output=True, text=True, timeout=300, check=False)
    printed = done.stdout + done.stderr
    assert done.returncode == 0, printed
    return printed


@pytest.fixture(scope="module")
def server():
    with served_in_thread(create_app(TestConfig)) as url:
        yield url


@pytest.fixture(scope="module")
def client_package(server, tmp_path_factory):
    root = tmp_path_factory.mktemp("client")
    printed = generate(f"{server}/openapi.yaml", root / "arbiter-client")
    warnings = [line for line in printed.splitlines() if re.search(r"warn|error|unable|skipping", line, re.I)]
    assert not warnings, printed
    site = root / "site"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site),
                                str(root / "arbiter-client")], capture_output=True, text=True, timeout=600, check=False)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert any(site.glob("arbiter_client-*.dist-info")), "pip installed no package metadata"
    sys.path.insert(0, str(site))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(site))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _api(pkg, module: str):
    return importlib.import_module(f"{PACKAGE}.api.{module}")


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def test_a_generated_client_plays_a_session(client_package, server):
    """11 nimmt! for two: both seats choose a card at once; each move answers the acting
    seat's typed view with the next version."""
    models = importlib.import_module(f"{PACKAGE}.models")
    sessions = "sessions"
    create = _api(client_package, f"{sessions}.create_session")
    show = _api(client_package, f"{sessions}.get_session")
    legal = _api(client_package, f"{sessions}.session_legal_moves")
    move = _api(client_package, f"{sessions}.session_move")

    anonymous = client_package.Client(base_url=server)
    created = create.sync(client=anonymous, body=models.ElevenNimmtSessionCreate(game="11-nimmt", players=2))
    assert isinstance(created, models.SessionCreated), created
    seats = {s.seat: client_package.AuthenticatedClient(base_url=server, token=s.token) for s in created.seats}

    version = 0
    for _ in range(4):
        seen = show.sync(created.id, client=seats[0])
        assert isinstance(seen, models.ElevenNimmtSession), seen
        assert seen.version == version and seen.game == "11-nimmt"
        assert isinstance(seen.state, models.ElevenNimmtView)
        assert seen.state.hands[1] is None and len(seen.state.hand_sizes) == 2  # seat 1's hand is hidden
        seat = seen.to_act[0]
        moves = legal.sync(created.id, client=seats[seat])
        assert isinstance(moves, models.ElevenNimmtSessionLegalMoves), moves
        choice = moves.moves[0]
        assert type(choice).__name__.startswith("ElevenNimmtMove"), choice
        answer = move.sync(created.id, client=seats[seat], body=models.SessionMoveBody(move=choice, version=version))
        assert isinstance(answer, models.ElevenNimmtSession), answer
        assert answer.version == version + 1 and answer.seat == seat
        version = answer.version

    stale = move.sync(created.id, client=seats[0], body=models.SessionMoveBody(move=choice, version=0))
    assert isinstance(stale, models.Problem) and stale.code == "session.stale-version", stale


@pytest.mark.parametrize("game", list(BINDINGS))
def test_a_generated_client_applies_a_move_of_every_game(client_package, server, game):
    """new, legal-moves and apply, each answered with the game's own typed models."""
    b = BINDINGS[game]
    prefix, models = _prefix(b), importlib.import_module(f"{PACKAGE}.models")
    ops = {op: _api(client_package, f"{_snake(prefix)}.{_snake(prefix)}_{op}") for op in ("new", "legal_moves", "apply")}
    http = client_package.Client(base_url=server)

    def body(op: str, data: dict):
        return typing.get_type_hints(ops[op].sync)["body"].from_dict(data)

    players = b.engine.players.start
    started = ops["new"].sync(client=http, body=body("new", {"players": players, "seed": 1}))
    assert isinstance(started, getattr(models, f"{prefix}Envelope")), started
    state = started.state
    assert isinstance(state, getattr(models, f"{prefix}State"))
    seat = started.to_act[0]
    listed = ops["legal_moves"].sync(client=http, body=body("legal_moves", {"state": state.to_dict(), "seat": seat}))
    first = listed.moves[0]
    assert type(first).__name__.startswith(f"{prefix}Move"), first
    applied = ops["apply"].sync(client=http, body=body("apply", {"state": state.to_dict(), "seat": seat,
                                                                 "move": first.to_dict()}))
    assert isinstance(applied, getattr(models, f"{prefix}Envelope")), applied
    assert applied.state.to_dict() != state.to_dict()
