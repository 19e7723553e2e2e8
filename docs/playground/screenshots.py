"""Screenshots of the playground for docs/playground/: each game's table and its score pad, in
English and Polish (DESIGN 4.7). Run from the repository root:

    python docs/playground/screenshots.py            # all games
    python docs/playground/screenshots.py kierki     # some

It serves the app from a thread (memory store), drives Debian's chromium (/usr/bin/chromium) with
Playwright, and writes docs/playground/<game>-table-<lang>.jpg and <game>-pad-<lang>.jpg. The table
is a hot-seat game a few moves in, with a card (or piece) selected so its targets show; the pad is
from a game the random bots played until a score report came (a round, or the game, ended).
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from service.app import create_app  # noqa: E402
from service.config import TestConfig  # noqa: E402
from tests.live import served_in_thread  # noqa: E402

OUT = Path(__file__).parent
GAMES = {"11-nimmt": 3, "kniffel-cards": 2, "take-that": 3, "3-5-8": 3, "kierki": 4, "canasta": 4,
         "backgammon": 2, "mak-yek": 2, "northcott": 2}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def start(page, game, players, mode="hot", seed=11):
    page.get_by_test_id("game-select").select_option(game)
    page.get_by_test_id("players").fill(str(players))
    page.get_by_test_id("players").dispatch_event("change")
    for seat in range(players):
        page.locator(f"select[data-seat='{seat}']").select_option(mode)
    page.locator("#seed").fill(str(seed))
    page.get_by_test_id("start").click()
    page.wait_for_function("document.querySelector('[data-testid=version]').textContent === '0'")


def ready(page):
    if page.get_by_test_id("handover").is_visible():
        page.get_by_test_id("handover-ready").click()
    page.wait_for_selector("[data-testid=board] > *")


def play_some(page, n):
    for _ in range(n):
        ready(page)
        page.wait_for_selector("[data-testid=legal-move]")
        before = int(page.get_by_test_id("version").text_content())
        moves = [json.loads(x) for x in page.eval_on_selector_all("[data-testid=legal-move]", "els => els.map(e => e.dataset.move)")]
        i = next((k for k, m in enumerate(moves) if m["kind"] not in {"resign", "offer-draw", "double", "drop"}), 0)
        page.get_by_test_id("legal-move").nth(i).click()
        page.wait_for_function(f"Number(document.querySelector('[data-testid=version]').textContent) > {before}")
    ready(page)


def select_something(page):
    cards = page.locator("[data-testid=hand-card].playable")
    if cards.count():
        cards.first.click()
        return
    piece = page.locator("[data-testid=board] g.hit")
    if piece.count():
        piece.first.click()


def shoot(base, browser, game, lang):
    ctx = browser.new_context(viewport={"width": 1180, "height": 860})
    page = ctx.new_page()
    page.goto(f"{base}/play#bot_delay=0")
    page.wait_for_selector("body[data-ready='1']")
    page.get_by_test_id("language").select_option(lang)
    start(page, game, GAMES[game])
    play_some(page, 4)
    select_something(page)
    page.locator("#table").screenshot(path=str(OUT / f"{game}-table-{lang}.jpg"), type="jpeg", quality=72)
    page.goto("about:blank")
    page.goto(f"{base}/play#bot_delay=0")
    page.wait_for_selector("body[data-ready='1']")
    start(page, game, GAMES[game], mode="bot", seed=5)
    with contextlib.suppress(Exception):  # a board game the bots have not finished: its pad as it stands
        page.wait_for_function("document.body.dataset.scoreTotals", timeout=60_000)
    page.get_by_test_id("score-sheet").screenshot(path=str(OUT / f"{game}-pad-{lang}.jpg"), type="jpeg", quality=80)
    ctx.close()


def main(games):
    with served_in_thread(create_app(TestConfig)) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for game in games:
            for lang in ("en", "pl"):
                shoot(base, browser, game, lang)
                print(game, lang, "ok", flush=True)
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1:] or list(GAMES))
