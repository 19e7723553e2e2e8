"""The playground's Kanasta meld builder says early what the rules would say (card values §4, the
opening minimum §6): its tables in service/static/play/games/canasta-melds.js are the rules' own,
checked here against rules/canasta for every card and each table's score bounds."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from rules.canasta._melds import card_value
from rules.canasta._scoring import CANASTA_MINIMUM, opening_minimum
from rules.cards import deck

ROOT = Path(__file__).resolve().parents[2]
TOTALS = [-500, -1, 0, 999, 1000, 1499, 1500, 1999, 2000, 2999, 3000, 4999, 5000, 6999, 7000, 9000]
TABLES = ["5000", "7500", "10000"]


def test_card_values_and_opening_minimum_are_the_rules() -> None:
    node = shutil.which("node")
    assert node, "node is missing: apt-get install -y nodejs"
    cards = sorted({str(c) for c in deck(jokers=1)})
    script = ("const m = await import('./service/static/play/games/canasta-melds.js');"
              f"const cards = {json.dumps(cards)}, totals = {json.dumps(TOTALS)}, tables = {json.dumps(TABLES)};"
              "console.log(JSON.stringify({values: Object.fromEntries(cards.map((c) => [c, m.cardValue(c)])),"
              " minimum: tables.map((t) => totals.map((n) => m.openingMinimum(n, t)))}));")
    run = subprocess.run([node, "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got["values"] == {str(c): card_value(c) for c in deck(jokers=1)}
    expected = [[("canasta" if opening_minimum(n, t) == CANASTA_MINIMUM else opening_minimum(n, t)) for n in TOTALS] for t in TABLES]
    assert got["minimum"] == expected
