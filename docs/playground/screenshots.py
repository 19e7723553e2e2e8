"""Screenshots of the playground for docs/playground/: each game of the registry, its table and its
score pad, in English and Polish, at a desktop's width and a phone's (DESIGN 4.7). One command, from
the repository root:

    .venv/bin/python docs/playground/screenshots.py            # every game
    .venv/bin/python docs/playground/screenshots.py kierki     # some

It serves the app from a thread (memory store), drives Debian's chromium (/usr/bin/chromium) with
Playwright, and writes docs/playground/<game>-table-<lang>.jpg and <game>-pad-<lang>.jpg (1180 px
wide) and the same with -phone (375 x 740). The table is a hot-seat game a few moves in (its last
move marked and the log in words beside it), with a card (or piece) selected so its targets show;
the pad is from a game the random bots played until a score report came (a round, or the game,
ended), or as it stands after PAD_WAIT seconds.
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from rules.registry import ENGINES  # noqa: E402
from service.app import create_app  # noqa: E402
from service.config import TestConfig  # noqa: E402
from tests.live import served_in_thread  # noqa: E402

OUT = Path(__file__).parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
WIDTHS = {"": {"width": 1180, "height": 860}, "-phone": {"width": 375, "height": 740}}
ENDING = {"resign", "offer-draw", "accept-draw", "double", "drop", "pass"}
PAD_WAIT = 40  # seconds the bots may play before the pad is taken as it stands


def players(game: str) -> int:
    """A full table, as the game is usually played: the most seats, at most four."""
    return min(ENGINES[game].players.stop - 1, 4)


def start(page, game, mode="hot", seed=11):
    page.get_by_test_id("game-select").select_option(game)
    page.get_by_test_id("players").fill(str(players(game)))
    page.get_by_test_id("players").dispatch_event("change")
    for seat in range(players(game)):
        page.locator(f"select[data-seat='{seat}']").select_option(mode)
    page.locator("#seed").fill(str(seed))
    page.get_by_test_id("start").click()
    page.wait_for_selector("[data-testid=version]:not(:empty)")


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
        i = next((k for k, m in enumerate(moves) if m["kind"] not in ENDING), 0)
        page.get_by_test_id("legal-move").nth(i).click()
        page.wait_for_function(f"() => Number(document.querySelector('[data-testid=version]').textContent) > {before}")
    ready(page)


def select_something(page):
    cards = page.locator("[data-testid=hand-card].playable")
    if cards.count():
        cards.first.click()
        return
    piece = page.locator("[data-testid=board] g.hit")
    if piece.count():
        piece.first.click()


def both_widths(page, element: str, name: str, quality: int) -> None:
    """The element at each width (the same page, resized), full height."""
    for suffix, size in WIDTHS.items():
        page.set_viewport_size(size)
        page.wait_for_timeout(150)
        el = page.locator(element)
        if not suffix:
            el.screenshot(path=str(OUT / f"{name}{suffix}.jpg"), type="jpeg", quality=quality)
            continue
        # on the phone the board runs to the screen's edges (past the element's box): the shot is the
        # screen's whole width, so nothing at its left edge is cut off
        el.scroll_into_view_if_needed()
        box = el.bounding_box()
        assert box, element
        top = box["y"] + page.evaluate("() => window.scrollY")
        page.screenshot(path=str(OUT / f"{name}{suffix}.jpg"), type="jpeg", quality=quality, full_page=True,
                        clip={"x": 0, "y": top, "width": size["width"], "height": box["height"]})


def shoot(base, browser, game, lang):
    ctx = browser.new_context(viewport=WIDTHS[""])
    page = ctx.new_page()
    page.goto(f"{base}/play#bot_delay=0")
    page.wait_for_selector("body[data-ready='1']")
    page.get_by_test_id("language").select_option(lang)
    start(page, game)
    play_some(page, 4)
    select_something(page)
    both_widths(page, "#table", f"{game}-table-{lang}", 72)
    page.set_viewport_size(WIDTHS[""])
    page.goto("about:blank")
    page.goto(f"{base}/play#bot_delay=0")
    page.wait_for_selector("body[data-ready='1']")
    start(page, game, mode="bot", seed=5)
    with contextlib.suppress(Exception):  # a board game the bots have not finished: its pad as it stands
        page.wait_for_function("() => document.body.dataset.scoreTotals", timeout=PAD_WAIT * 1000)
    both_widths(page, "[data-testid=score-sheet]", f"{game}-pad-{lang}", 80)
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
    main(sys.argv[1:] or sorted(ENGINES))
