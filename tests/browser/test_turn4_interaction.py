"""The playground's interaction, turn 4 (issue 27, DESIGN 4.7 "A table players keep coming back to"):
Kanasta's melds built group by group against the opening minimum, game-ending moves apart and
confirmed, a backgammon turn taken back, `game-result` only when the game is over, a phone's reach
(375x740: confirm-move and cancel-move on screen and 44x44 px), the keyboard in the hand, who answers
a double, and the smaller items (a hand-over screen before the first hand, unplayable cards dimmed,
a failed .mat check clearing the old position).

Screenshots land in tests/browser/artifacts/turn4-*.png (ignored by git).
"""

from __future__ import annotations

import json

import pytest

from tests.browser.test_playground import GAMES, legal_moves, pass_handover, start, version, wait_version

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 740}

# Kanasta, four people at one screen, seed 13: seat 0 (first to act) draws and then holds three nines and
# three jacks; 9♦ 9♥ 9♠ is 30 points (short of the opening's 50), with J♣ J♦ J♥ the opening makes 60.
KANASTA_SEED = 13
NINES, JACKS = ["9D", "9H", "9S"], ["JC", "JD", "JH"]


def phone_page(browser, base_url, errors, fragment: str = ""):
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True)
    ctx.set_default_timeout(10_000)
    page = errors.watch(ctx.new_page())
    page.goto(f"{base_url}/play{('#' + fragment) if fragment else ''}")
    page.wait_for_selector("body[data-ready='1']")
    return ctx, page


def pick(page, card: str) -> None:
    page.locator(f"[data-testid=hand-card][data-card='{card}'][aria-pressed='false']:not([disabled])").first.click()


def kanasta_to_melding(page) -> None:
    """Seed 13, four hot seats: past the first hand-over, seat 0 draws from the stock (the play phase)."""
    start(page, "canasta", 4, seed=KANASTA_SEED)
    moves = legal_moves(page)
    assert not [m for m in moves if m["kind"] == "meld"], moves
    # the draw phase (the pile cannot be taken here) offers no meld: a selected nine is refused at once,
    # with no "Meld" target to be refused later with canasta.wrong-phase
    pick(page, NINES[1])  # 9♦ is the card seat 0 is about to draw
    page.wait_for_selector("[data-testid=problem]:not([hidden])")
    assert page.locator("[data-testid=hand-card][aria-pressed='true']").count() == 0
    assert not page.get_by_test_id("legal-target").count()
    assert not page.get_by_test_id("add-meld").count()
    before = version(page)
    page.locator("[data-testid=legal-move][data-move='{\"kind\":\"draw\"}']").click()
    wait_version(page, before + 1)
    assert page.locator("#phase").text_content()


def build_opening(page, artifacts, lang: str, shot: str) -> None:
    """Nines, add-meld, jacks: the first group's 30 falls short with its reason, the two make 60 and are laid."""
    for card in NINES:
        pick(page, card)
    total = page.get_by_test_id("opening-total")
    assert total.get_attribute("data-points") == "30" and total.get_attribute("data-need") == "50"
    reason = page.get_by_test_id("meld-reason").text_content()
    assert reason == {"en": "30 of the 50 the opening needs", "pl": "30 z 50 punktów potrzebnych do otwarcia"}[lang]
    assert page.get_by_test_id("confirm-move").is_disabled()
    assert page.get_by_test_id("add-meld").is_enabled()
    page.get_by_test_id("add-meld").click()
    assert page.locator("[data-testid=hand-card].grouped").count() == 3
    for card in JACKS:
        pick(page, card)
    groups = page.get_by_test_id("meld-group")
    assert groups.count() == 2
    assert [groups.nth(i).get_attribute("data-points") for i in range(2)] == ["30", "30"]
    assert total.get_attribute("data-points") == "60"
    assert not page.get_by_test_id("meld-reason").count()
    confirm = page.get_by_test_id("confirm-move")
    assert confirm.is_enabled()
    page.screenshot(path=str(artifacts / f"turn4-{shot}.png"))
    before = version(page)
    confirm.click()
    wait_version(page, before + 1)
    melds = page.locator("[data-testid=board] .side-zone.mine .meld")
    assert melds.count() == 2
    laid = sorted(c for i in range(2) for c in melds.nth(i).locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert laid == sorted(NINES + JACKS)


def test_kanasta_opening_of_two_melds_built_and_confirmed(open_page, artifacts):
    """DESIGN 4.7: melds are built group by group (`add-meld`), each group's points and the opening's
    total shown against its minimum; the two melds of different ranks are laid in one move."""
    page = open_page()
    kanasta_to_melding(page)
    build_opening(page, artifacts, "en", "kanasta-opening")


def test_kanasta_opening_on_a_phone_in_polish(browser, base_url, errors, artifacts):
    """The same opening on a 375x740 phone in Polish: the reason in Polish, and confirm-move, cancel-move
    and add-meld in reach (inside the screen, at least 44x44 px) while cards are selected."""
    ctx, page = phone_page(browser, base_url, errors)
    try:
        page.get_by_test_id("language").select_option("pl")
        kanasta_to_melding(page)
        pick(page, NINES[0])
        for testid in ("confirm-move", "cancel-move", "add-meld"):
            assert_in_reach(page, testid)
        page.get_by_test_id("cancel-move").click()
        build_opening(page, artifacts, "pl", "phone-kanasta-opening-pl")
    finally:
        ctx.close()
    assert not errors, errors


def test_kanasta_selection_short_of_a_meld_says_why(open_page):
    """Two nines cannot be a new meld: the reason is said (both languages), add-meld and confirm stay off."""
    page = open_page()
    kanasta_to_melding(page)
    pick(page, NINES[0])
    pick(page, NINES[1])
    assert page.get_by_test_id("meld-reason").text_content() == "A new meld needs at least 3 cards (2 so far)."
    assert page.get_by_test_id("add-meld").is_disabled()
    assert page.get_by_test_id("confirm-move").is_disabled()
    page.get_by_test_id("language").select_option("pl")
    page.wait_for_function("document.documentElement.lang === 'pl'")
    assert page.get_by_test_id("meld-reason").text_content() == "Nowy układ wymaga co najmniej 3 kart (na razie 2)."
    page.get_by_test_id("language").select_option("en")


def assert_in_reach(page, testid: str) -> None:
    """On screen without scrolling, and at least 44x44 px."""
    el = page.get_by_test_id(testid)
    box = el.bounding_box()
    assert box, f"{testid} is not shown"
    view = page.viewport_size
    assert box["width"] >= 44 and box["height"] >= 44, (testid, box)
    assert 0 <= box["y"] and box["y"] + box["height"] <= view["height"], (testid, box, "off screen")
    assert 0 <= box["x"] and box["x"] + box["width"] <= view["width"], (testid, box, "off screen")
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid]')?.dataset.testid",
                        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert hit == testid, (testid, hit, "covered")
