"""What a 240 KB hostile state costs to refuse, per game (the figures test_hostile once asserted).

For every game and every hostile state of ``tests/service/test_hostile.py`` (bad strings, bad
objects, nested lists, unknown keys, a wide unknown value): ``POST /legal-moves`` through the
app in process, best of 3, in ms. Printed, never asserted. Usage: ``python bench/hostile.py``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.app import create_app  # noqa: E402
from service.config import TestConfig  # noqa: E402
from service.games import BINDINGS  # noqa: E402
from tests.service.test_hostile import hostile_states, new_state  # noqa: E402


def main() -> None:
    client = create_app(TestConfig).test_client()
    names: list[str] = []
    rows = []
    for game in BINDINGS:
        cells = []
        for name, state in hostile_states(new_state(client, game)).items():
            raw = json.dumps({"state": state})
            best = 1e9
            for _ in range(3):
                t = time.perf_counter()
                r = client.post(f"/v1/games/{game}/legal-moves", data=raw, content_type="application/json")
                best = min(best, time.perf_counter() - t)
            assert r.status_code == 422, (game, name, r.status_code)
            if name not in names:
                names.append(name)
            cells.append(best * 1000)
        rows.append((game, cells))
    print("| game | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for game, cells in rows:
        print(f"| {game} | " + " | ".join(f"{c:.1f}" for c in cells) + " |")


if __name__ == "__main__":
    main()
