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
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, FloatRect, Locator, Page, ViewportSize

from tests.browser.test_playground import GAMES, legal_moves, pass_handover, start, version, wait_version

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 375, "height": 740}

# Kanasta, four people at one screen, seed 13: seat 0 (first to act) draws and then holds three nines and
# three jacks; 9♦ 9♥ 9♠ is 30 points (short of the opening's 50), with J♣ J♦ J♥ the opening makes 60.
KANASTA_SEED = 13
NINES, JACKS = ["9D", "9H", "9S"], ["JC", "JD", "JH"]


def phone_page(browser: Browser, base_url: str, errors: Any, fragment: str = "") -> tuple[BrowserContext, Page]:
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True)
    ctx.set_default_timeout(10_000)
    page = errors.watch(ctx.new_page())
    page.goto(f"{base_url}/play{('#' + fragment) if fragment else ''}")
    page.wait_for_selector("body[data-ready='1']")
    return ctx, page


def rect(el: Locator) -> FloatRect:
    box = el.bounding_box()
    assert box, "not shown"
    return box


def text(el: Locator) -> str:
    return el.text_content() or ""


def pick(page: Page, card: str) -> None:
    page.locator(f"[data-testid=hand-card][data-card='{card}'][aria-pressed='false']:not([disabled])").first.click()


def kanasta_to_melding(page: Page) -> None:
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
    page.keyboard.press("Escape")
    before = version(page)
    page.get_by_test_id("stock").click()  # a tap on the stock selects the draw; confirm-move makes it
    assert version(page) == before
    page.get_by_test_id("confirm-move").click()
    wait_version(page, before + 1)
    assert page.locator("#phase").text_content()


def build_opening(page: Page, artifacts: Path, lang: str, shot: str) -> None:
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


def test_kanasta_opening_of_two_melds_built_and_confirmed(open_page: Callable[..., Page], artifacts: Path) -> None:
    """DESIGN 4.7: melds are built group by group (`add-meld`), each group's points and the opening's
    total shown against its minimum; the two melds of different ranks are laid in one move."""
    page = open_page()
    kanasta_to_melding(page)
    build_opening(page, artifacts, "en", "kanasta-opening")


def test_kanasta_opening_on_a_phone_in_polish(browser: Browser, base_url: str, errors: Any, artifacts: Path) -> None:
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


def test_kanasta_selection_short_of_a_meld_says_why(open_page: Callable[..., Page]) -> None:
    """Two nines cannot be a new meld: the reason is said (both languages), add-meld and confirm stay off."""
    page = open_page()
    kanasta_to_melding(page)
    pick(page, NINES[0])
    pick(page, NINES[1])
    assert page.get_by_test_id("meld-reason").text_content() == "A new meld needs at least 3 cards (2 so far)."
    assert page.get_by_test_id("add-meld").is_disabled()
    assert page.get_by_test_id("confirm-move").is_disabled()
    page.get_by_test_id("language").select_option("pl")
    page.wait_for_function("() => document.documentElement.lang === 'pl'")
    assert page.get_by_test_id("meld-reason").text_content() == "Nowy układ wymaga co najmniej 3 kart (na razie 2)."
    page.get_by_test_id("language").select_option("en")
    # a closed group taken back: its cards are in the hand again, free to be selected
    pick(page, NINES[2])
    page.get_by_test_id("add-meld").click()
    assert page.locator("[data-testid=hand-card].grouped").count() == 3
    page.get_by_test_id("drop-meld").click()
    assert page.locator("[data-testid=hand-card].grouped").count() == 0
    assert page.get_by_test_id("meld-group").count() == 0
    pick(page, NINES[0])
    assert page.locator("[data-testid=hand-card][aria-pressed='true']").count() == 1


def assert_in_reach(page: Page, testid: str) -> None:
    """On screen without scrolling, and at least 44x44 px."""
    el = page.get_by_test_id(testid)
    box = rect(el)
    view = page.viewport_size or PHONE
    assert box["width"] >= 44 and box["height"] >= 44, (testid, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"], (testid, box, "off screen")
    assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"], (testid, box, "off screen")
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid]')?.dataset.testid",
                        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert hit == testid, (testid, hit, "covered")


# --------------------------------------------------------------------------- game-ending moves, undo

ENDING = {"resign", "accept-resignation", "drop", "offer-draw", "accept-draw"}


@pytest.mark.parametrize("game", list(GAMES))
def test_game_ending_moves_stand_apart(open_page: Callable[..., Page], game: str) -> None:
    """In every game, for a few moves: no game-ending move is among the ordinary moves (nor is it the
    first button); each sits under "Ending the game"."""
    page = open_page()
    start(page, game, GAMES[game])
    for _ in range(4):
        moves = legal_moves(page)
        ordinary = [json.loads(x) for x in page.locator("#moves [data-testid=legal-move]").evaluate_all("els => els.map(e => e.dataset.move)")]
        apart = [json.loads(x) for x in page.locator("#ending-moves [data-testid=legal-move]").evaluate_all("els => els.map(e => e.dataset.move)")]
        assert not [m for m in ordinary if m["kind"] in ENDING], ordinary
        assert sorted(map(json.dumps, ordinary + apart)) == sorted(map(json.dumps, moves))
        assert all(m["kind"] in ENDING for m in apart), apart
        if not ordinary:
            break
        before = version(page)
        page.locator("#moves [data-testid=legal-move]").first.click()
        wait_version(page, before + 1)


def test_offer_a_draw_asks_first(open_page: Callable[..., Page], artifacts: Path) -> None:
    """Mak-yek: the first move button is a move, not "Offer a draw"; the offer asks for a confirmation:
    "No" (or Escape) leaves the game as it was, "Yes" makes the offer."""
    page = open_page()
    start(page, "mak-yek", 2)
    first = json.loads(page.locator("[data-testid=legal-move]").first.get_attribute("data-move") or "null")
    assert first["kind"] == "move"
    offer = page.locator("#ending-moves [data-testid=legal-move][data-move*='offer-draw']")
    offer.click()
    dialog = page.get_by_test_id("confirm-dialog")
    assert dialog.is_visible()
    page.screenshot(path=str(artifacts / "turn4-confirm-dialog.png"))
    page.get_by_test_id("confirm-dialog-no").click()
    assert dialog.is_hidden() and version(page) == 0
    offer.click()
    page.keyboard.press("Escape")
    assert dialog.is_hidden() and version(page) == 0
    offer.click()
    page.get_by_test_id("confirm-dialog-yes").click()
    wait_version(page, 1)
    assert dialog.is_hidden()


def backgammon_to_a_turn(page: Page) -> dict[str, Any]:
    """Roll (clicking the dice) until a turn of checker steps is to be played; that turn."""
    for _ in range(6):
        moves = legal_moves(page)
        turn = next((m for m in moves if m["kind"] == "move"), None)
        if turn:
            return turn
        before = version(page)
        page.locator("[data-testid=dice]").click() if any(m["kind"] == "roll" for m in moves) else \
            page.locator("#moves [data-testid=legal-move]").first.click()
        wait_version(page, before + 1)
    raise AssertionError("no turn to play in six moves")


def checkers(page: Page) -> str:
    return str(page.locator("[data-testid=board] svg").evaluate(
        "svg => [...svg.querySelectorAll('g[data-point]')].map(g => g.dataset.point + ':' + g.querySelectorAll('circle.chk').length).join(' ')"))


def test_backgammon_turn_taken_back_until_confirmed(open_page: Callable[..., Page]) -> None:
    """The steps of a whole turn are shown on the board but wait for confirm-move; undo-turn (and
    cancel-move) put every checker back; clicked again and confirmed, the turn is played."""
    page = open_page()
    start(page, "backgammon", 2)
    turn = backgammon_to_a_turn(page)
    before, board = version(page), checkers(page)
    for attempt in ("undo-turn", "cancel-move", "confirm-move"):
        for a, b in turn["steps"]:
            page.locator(f"[data-testid=board] g[data-point='{a}']").click()
            page.locator(f"[data-testid=board] g[data-point='{b}']").click()
        assert version(page) == before
        assert checkers(page) != board or all(a == b for a, b in turn["steps"])
        assert page.get_by_test_id("confirm-move").is_enabled()
        page.get_by_test_id(attempt).click()
        if attempt != "confirm-move":
            assert checkers(page) == board and version(page) == before
    wait_version(page, before + 1)


def test_backgammon_double_says_who_answers(open_page: Callable[..., Page], base_url: str) -> None:
    """While a double waits for its answer, the board names the seat that must take or pass it."""
    page = open_page()
    page.get_by_test_id("game-select").select_option("backgammon")
    page.locator("#options-box summary").click()
    page.locator("[data-option=cube]").select_option(label="On")
    start(page, "backgammon", 2)
    for _ in range(12):
        moves = legal_moves(page)
        double = next((m for m in moves if m["kind"] == "double"), None)
        if double:
            break
        before = version(page)
        if any(m["kind"] == "move" for m in moves):
            page.locator("#moves [data-testid=legal-move][data-move*='\"move\"']").first.click()
        else:
            page.locator("#moves [data-testid=legal-move]").first.click()
        wait_version(page, before + 1)
    assert double, "no double offered in twelve moves"
    doubler = page.evaluate("JSON.parse(document.getElementById('raw').textContent).turn")
    before = version(page)
    page.locator("#moves [data-testid=legal-move][data-move*='\"double\"']").click()
    wait_version(page, before + 1)
    said = page.get_by_test_id("bg-to-act")
    assert said.get_attribute("data-seats") == str(1 - doubler)
    assert text(said).endswith(" must take or pass the double"), text(said)
    assert "Roll" not in text(said)


# --------------------------------------------------------------------------- the result only when it is one

def test_game_result_only_when_the_game_is_over(open_page: Callable[..., Page]) -> None:
    """Kierki: past its first deal (bots play), the pad shows the standing after that deal and no result;
    Northcott played to its end shows game-result, and no "No finished rounds yet" beside it."""
    page = open_page("bot_delay=0")
    start(page, "kierki", 4, modes={i: "bot" for i in range(4)}, seed=5)
    page.wait_for_selector("[data-testid=pad-standing]", timeout=60_000)
    assert page.get_by_test_id("game-result").is_hidden()
    assert "Final result" not in text(page.get_by_test_id("score-sheet"))
    assert re.match(r"Standing after round \d+: ", text(page.get_by_test_id("pad-standing")))
    page = open_page("bot_delay=0")
    start(page, "northcott", 2, modes={0: "bot", 1: "bot"}, seed=5)
    page.get_by_test_id("game-result").wait_for(state="visible", timeout=60_000)
    assert "Winners: Seat" in text(page.get_by_test_id("game-result"))
    assert "No finished rounds yet" not in text(page.get_by_test_id("score-sheet"))


@pytest.mark.parametrize("game", list(GAMES))
def test_no_result_at_the_start(open_page: Callable[..., Page], game: str) -> None:
    """Every game at its start: no game-result, no "Final result" on the pad."""
    page = open_page()
    start(page, game, GAMES[game])
    pass_handover(page)
    assert page.get_by_test_id("game-result").is_hidden()
    assert "Final result" not in text(page.get_by_test_id("score-sheet"))


# --------------------------------------------------------------------------- a phone in hand, the keyboard

def select_something(page: Page, game: str) -> bool:
    """Make a selection the selection bar stands for: a playable hand card, or (backgammon) a whole turn
    clicked on the board. False when the game has none within a few moves."""
    if game == "backgammon":
        turn = backgammon_to_a_turn(page)
        for a, b in turn["steps"]:
            page.locator(f"[data-testid=board] g[data-point='{a}']").click()
            page.locator(f"[data-testid=board] g[data-point='{b}']").click()
        return True
    for _ in range(8):
        legal_moves(page)
        card = page.locator("[data-testid=hand-card].playable")
        if card.count():
            card.first.click()
            if page.get_by_test_id("cancel-move").is_visible():
                return True
        before = version(page)
        page.locator("#moves [data-testid=legal-move]").first.click()
        wait_version(page, before + 1)
    return False


SELECTING = [g for g in GAMES if g not in ("mak-yek", "northcott")]  # board games move by two taps, no selection bar


@pytest.mark.parametrize("game", SELECTING)
def test_phone_keeps_the_selection_actions_in_reach(browser: Browser, base_url: str, errors: Any, artifacts: Path, game: str) -> None:
    """375x740: after selecting, the picked card is in sight above the selection bar; confirm-move and
    cancel-move are on screen without scrolling, 44x44 px at least, and not covered; the page does not scroll sideways; the buttons, selects and hand cards are
    tappable (44 px high; cards 44 px wide); backgammon's board fills the width with points 25 px wide."""
    ctx, page = phone_page(browser, base_url, errors)
    try:
        for el in page.locator("select:visible").all():
            assert rect(el)["height"] >= 44
        start(page, game, GAMES[game])
        pass_handover(page)
        assert select_something(page, game), f"{game}: nothing to select"
        if game != "backgammon":  # the card just picked is in sight, clear of the bar fixed over the screen's bottom
            picked = rect(page.locator("[data-testid=hand-card][aria-pressed=true]").first)
            bar = rect(page.locator("#selection"))
            assert picked["y"] >= 0 and picked["y"] + picked["height"] <= bar["y"], (picked, bar)
        page.evaluate("window.scrollTo(0, 0)")
        for testid in ("confirm-move", "cancel-move"):
            assert_in_reach(page, testid)
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        for testid in ("confirm-move", "cancel-move"):
            assert_in_reach(page, testid)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        for el in page.locator("[data-testid=legal-move]:visible, [data-testid=view-seat]:visible").all():
            assert rect(el)["height"] >= 44, el.text_content()
        for el in page.locator("[data-testid=hand-card]").all():
            box = rect(el)
            assert box["width"] >= 44 and box["height"] >= 44, box
        if game == "backgammon":
            svg = rect(page.locator("[data-testid=board] svg"))
            assert svg["width"] >= 0.9 * PHONE["width"], svg
            point = rect(page.locator("[data-testid=board] g[data-point='13'] polygon"))
            assert point["width"] >= 25, point
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(artifacts / f"turn4-phone-{game}.png"))
    finally:
        ctx.close()
    assert not errors, errors


def test_keyboard_arrows_through_the_hand(open_page: Callable[..., Page]) -> None:
    """Kierki: the arrow keys move the focus through the hand; Enter selects a playable card and the focus
    moves to confirm-move (the move is settled), where Enter plays it; Escape cancels a selection."""
    page = open_page()
    start(page, "kierki", 4)
    legal_moves(page)
    cards = page.get_by_test_id("hand-card")
    cards.first.focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == cards.nth(1).get_attribute("data-card")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # wraps round to the last card
    assert page.evaluate("document.activeElement.dataset.card") == cards.last.get_attribute("data-card")
    playable = page.evaluate("[...document.querySelectorAll('[data-testid=hand-card]')].findIndex(e => e.classList.contains('playable'))")
    assert playable >= 0
    page.keyboard.press("Home")
    for _ in range(playable):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.testid") == "confirm-move"
    page.keyboard.press("Escape")
    assert page.locator("[data-testid=hand-card][aria-pressed='true']").count() == 0
    cards.nth(playable).focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    wait_version(page, 1)


def test_focus_stays_on_a_card_of_a_move_being_built(open_page: Callable[..., Page]) -> None:
    """Kanasta: selecting a card of a meld keeps the focus on that card (more may be selected)."""
    page = open_page()
    kanasta_to_melding(page)
    card = page.locator(f"[data-testid=hand-card][data-card='{NINES[0]}']").first
    card.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.card") == NINES[0]
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"


# --------------------------------------------------------------------------- the smaller items

HIDDEN_HANDS = ["11-nimmt", "kniffel-cards", "take-that", "3-5-8", "kierki", "canasta"]


@pytest.mark.parametrize("game", HIDDEN_HANDS)
def test_hot_seat_starts_behind_the_handover_screen(open_page: Callable[..., Page], game: str) -> None:
    """Two or more people at one screen: the first hand is shown only after its player says they are ready."""
    page = open_page()
    start(page, game, GAMES[game])
    assert page.get_by_test_id("handover").is_visible()
    assert page.get_by_test_id("hand-card").count() == 0
    page.get_by_test_id("handover-ready").click()
    page.wait_for_selector("[data-testid=hand-card]")


def test_unplayable_cards_are_dimmed(open_page: Callable[..., Page]) -> None:
    """Kierki, on a turn where some card cannot be played: it is dimmed, the playable ones are not."""
    page = open_page()
    start(page, "kierki", 4)
    for _ in range(8):
        legal_moves(page)
        dim = page.locator("[data-testid=hand-card]:not(.playable)")
        if dim.count():
            break
        before = version(page)
        page.locator("#moves [data-testid=legal-move]").first.click()
        wait_version(page, before + 1)
    assert dim.count(), "every card was playable for eight moves"
    assert float(dim.first.evaluate("e => getComputedStyle(e).opacity")) < 0.6
    assert float(page.locator("[data-testid=hand-card].playable").first.evaluate("e => getComputedStyle(e).opacity")) == 1


def test_take_that_pile_labels_clear_of_the_cards(open_page: Callable[..., Page]) -> None:
    """Take That: each seat's pile label lies under its pile, over no card and no other label."""
    page = open_page()
    start(page, "take-that", 3)
    pass_handover(page)
    labels = [rect(el) for el in page.locator("[data-testid=board] .pile-label").all()]
    cards = [rect(el) for el in page.locator("[data-testid=board] .card").all()]
    assert labels
    def overlap(a: FloatRect, b: FloatRect) -> bool:
        return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]

    for k, lab in enumerate(labels):
        assert not [c for c in cards if overlap(lab, c)], lab
        assert not [o for o in labels[k + 1:] if overlap(lab, o)], lab


def test_mak_yek_seat_badges_are_told_apart(open_page: Callable[..., Page]) -> None:
    page = open_page()
    start(page, "mak-yek", 2)
    colours = page.locator("[data-testid=board] .man-badge").evaluate_all("els => els.map(e => getComputedStyle(e).backgroundColor)")
    assert len(colours) == 2 and colours[0] != colours[1], colours


def test_a_failed_mat_check_clears_the_previous_position(open_page: Callable[..., Page]) -> None:
    """An XGID checked, then a .mat record that cannot be read: its refusal, and no board of the XGID left."""
    from tests.browser.test_playground import XGID
    page = open_page()
    page.locator("[data-tab=check]").click()
    page.get_by_test_id("check-input").fill(XGID)
    page.get_by_test_id("check-xgid").click()
    page.wait_for_selector("[data-testid=board] svg")
    page.get_by_test_id("check-input").fill(" 1 point match\n\n Game 1\n Alice : 0   Bob : 0\n  1) 99: 8/5 6/5\n")
    page.get_by_test_id("check-mat").click()
    page.wait_for_selector("[data-testid=problem]:not([hidden])")
    assert page.locator("[data-testid=board] svg").count() == 0
    assert page.get_by_test_id("legal-move").count() == 0
