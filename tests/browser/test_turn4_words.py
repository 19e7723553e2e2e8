"""What just happened, in words (DESIGN 4.7 turn 4, 4.8 "Words"), for every game of the registry in
English and Polish, played by clicking in a real Chromium: the last move is marked on the board
(`last-move`) and told in the log (`move-log`, one `move-log-entry` per move, newest last) in the
page's language, with no JSON and no raw card codes; the Polish page shows none of the game's English
words (the catalogue's `terms`); seats are counted from 1; a refusal's code sits under "For
developers". The tenth game that docs/adding-a-game.md writes is played here too.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request

import pytest

from rules.registry import ENGINES
from tests.test_adding_a_game import tenth  # noqa: F401  (the fixture: a clone with the tenth game)

pytestmark = pytest.mark.browser

GAMES = sorted(ENGINES)
# moves that end a game early: the test plays others when it can
ENDING = {"offer-draw", "accept-draw", "resign", "accept-resignation", "double", "drop", "pass"}
MOVES = 5
RAW_CARD = re.compile(r"\b(?:10|[2-9JQKA])[CDHS]\b|\bJK\b")
JSON_LIKE = re.compile(r"[{}\[\]\"]|\b(?:true|false|null)\b|\bkind\b")


def catalogue(base_url: str, game: str) -> dict:
    with urllib.request.urlopen(f"{base_url}/v1/games/{game}") as r:
        return json.load(r)


def start(page, game: str, players: int, lang: str) -> None:
    page.get_by_test_id("language").select_option(lang)
    page.get_by_test_id("game-select").select_option(game)
    page.get_by_test_id("players").fill(str(players))
    page.get_by_test_id("players").dispatch_event("change")
    page.locator("#seed").fill("3")
    page.get_by_test_id("start").click()
    page.wait_for_function("() => document.querySelector('[data-testid=version]').textContent === '0'")


def version(page) -> int:
    return int(page.get_by_test_id("version").text_content())


def play_one(page) -> None:
    """Pass the hand-over screen if it is up, then click a legal move (not one that ends the game)."""
    page.wait_for_selector("[data-testid=legal-move], [data-testid=handover]:not([hidden])")
    if page.get_by_test_id("handover").is_visible():
        page.get_by_test_id("handover-ready").click()
        page.wait_for_selector("[data-testid=legal-move]")
    before = version(page)
    moves = [json.loads(x) for x in page.eval_on_selector_all("[data-testid=legal-move]", "els => els.map(e => e.dataset.move)")]
    index = next((i for i, m in enumerate(moves) if m["kind"] not in ENDING), 0)
    page.get_by_test_id("legal-move").nth(index).click()
    page.wait_for_function(f"() => Number(document.querySelector('[data-testid=version]').textContent) > {before}")
    page.wait_for_function(f"() => document.querySelectorAll('[data-testid=move-log-entry]').length === {before + 1}")


def players_text(page) -> str:
    """Every word a player reads at the table: the board, the log, the moves, the pad (not the
    developers' box, whose JSON is meant for developers)."""
    return page.evaluate("""() => {
        const parts = ['#status', '#board', '#move-log', '#moves', '#score-sheet', '#selection', '#winners'];
        return parts.map((s) => document.querySelector(s)?.innerText || '').join('\\n');
    }""")


@pytest.mark.parametrize("lang", ["en", "pl"])
@pytest.mark.parametrize("game", GAMES)
def test_last_move_and_log_in_the_page_language(open_page, base_url, game, lang):
    entry = catalogue(base_url, game)
    page = open_page("bot_delay=0")
    start(page, game, entry["players"]["min"], lang)
    assert page.get_by_test_id("move-log-entry").count() == 0
    for n in range(1, MOVES + 1):
        play_one(page)
        entries = page.get_by_test_id("move-log-entry")
        assert entries.count() == n == version(page), "one entry per move"
        newest = entries.nth(n - 1).inner_text()
        last = page.locator("[data-testid=board] [data-testid=last-move]")
        assert last.count() == 1
        assert newest in last.inner_text(), (newest, last.inner_text())
        seat = int(entries.nth(n - 1).get_attribute("data-seat"))
        person = {"en": "Seat", "pl": "Gracz"}[lang]
        assert f"{person} {seat + 1}" in newest, f"seats are counted from 1 for people: {newest!r} (seat {seat})"
    texts = [page.get_by_test_id("move-log-entry").nth(i).inner_text() for i in range(MOVES)]
    for text in texts:
        assert not JSON_LIKE.search(text), f"JSON in the log: {text!r}"
        assert not RAW_CARD.search(text), f"a raw card code in the log: {text!r}"
        assert "_" not in text and "move:" not in text and "event:" not in text, text
    shown = players_text(page)
    assert not RAW_CARD.search(shown), RAW_CARD.search(shown)
    seat_word = {"en": "Seat", "pl": "Gracz"}[lang]
    assert f"{seat_word} 0" not in shown, "seats are counted from 1 for people"
    if lang == "pl":
        english = {label["en"] for name, label in entry["terms"].items()
                   if ":" not in name and label["en"] != label["pl"] and len(label["en"]) > 3}
        told = shown.replace(entry["label"]["pl"], "")  # the game's own name may hold a word of its original
        found = sorted(w for w in english if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", told))
        assert not found, f"English game words on the Polish page: {found}"
        assert not re.search(r"\b(?:Seat|Stock|Round|Deal|Trick|Side|played|took|rolled)\b", shown), shown


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_refusal_code_is_for_developers_only(open_page, base_url, lang):
    page = open_page("bot_delay=0")
    game = GAMES[0]
    start(page, game, catalogue(base_url, game)["players"]["min"], lang)
    page.get_by_test_id("dev-toggle").click()
    page.get_by_test_id("move-input").fill(json.dumps({"kind": "no-such-move"}))
    page.get_by_test_id("submit-move").click()
    problem = page.get_by_test_id("problem")
    problem.wait_for(state="visible")
    code = page.get_by_test_id("problem-code")
    assert code.count() == 1 and code.text_content()
    assert not code.is_visible(), "the code is folded away from players"
    assert code.locator("xpath=ancestor::details[@data-testid='for-developers']").count() == 1
    assert code.text_content() not in problem.inner_text()
    page.get_by_test_id("for-developers").locator("summary").click()
    assert code.is_visible()
    assert page.get_by_test_id("for-developers").locator("summary").inner_text() == {"en": "For developers", "pl": "Dla programistów"}[lang]


def test_the_tenth_game_is_told_in_words_in_chromium(tenth):  # noqa: F811
    """The game docs/adding-a-game.md adds is played in Chromium with these very tests."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/browser/test_turn4_words.py",
                           "-k", "last_move and nim and not nimmt"], cwd=tenth, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "2 passed" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
