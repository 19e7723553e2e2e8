"""Hot seat (issue 27, DESIGN 4.7): at a real table nobody looks at another's hand, so on the page
switching the shown seat ("showing: Seat N") goes through the hand-over screen in every game whose
hands are hidden; behind that screen the log reads as a spectator's. Games with nothing hidden
switch at once."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from rules.registry import ENGINES
from service.games import BINDINGS
from tests.browser.test_playground import GAMES, pass_handover, start

pytestmark = pytest.mark.browser


def hides_hands(game: str) -> bool:
    """Seat 0's view of a new game holds its own hand and only the size of the others' (the registry says)."""
    engine = ENGINES[game]
    view = BINDINGS[game].view(engine.new(GAMES[game], 1), 0)
    hands = view.get("state", view).get("hands")
    return isinstance(hands, list) and isinstance(hands[0], list) and any(not isinstance(h, list) for h in hands[1:])


HIDDEN = [g for g in sorted(ENGINES) if hides_hands(g)]
OPEN = [g for g in sorted(ENGINES) if not hides_hands(g)]


def shown(page: Page) -> int:
    """The seat the screen shows (0-based): the pressed `view-seat` button."""
    pressed = page.eval_on_selector_all("[data-testid=view-seat]", "els => els.map(e => e.getAttribute('aria-pressed'))")
    return pressed.index("true")


def hand(page: Page) -> list[str]:
    return page.eval_on_selector_all("[data-testid=hand-card]", "els => els.map(e => e.dataset.card)")


def test_the_registry_has_games_of_both_kinds() -> None:
    assert {"kierki", "canasta", "11-nimmt"} <= set(HIDDEN) and {"backgammon", "mak-yek"} <= set(OPEN)


@pytest.mark.parametrize("game", HIDDEN)
def test_showing_another_seat_goes_through_the_handover(open_page: Callable[..., Page], game: str) -> None:
    page = open_page()
    start(page, game, GAMES[game])
    assert pass_handover(page)
    page.wait_for_selector("[data-testid=hand-card]")
    first, cards = shown(page), hand(page)
    other = (first + 1) % GAMES[game]
    page.get_by_test_id("view-seat").nth(other).click()
    # the other seat's hand is not drawn until its player says they are ready
    page.wait_for_function("() => !document.querySelector('[data-testid=handover]').hidden")
    assert page.get_by_test_id("hand-card").count() == 0
    assert f" {other + 1}" in (page.locator(".handover-to").text_content() or "")
    page.get_by_test_id("handover-ready").click()
    page.wait_for_selector("[data-testid=hand-card]")
    assert shown(page) == other and hand(page) != cards
    # while that seat waits it has no moves; going back to the seat to act is a hand-over too
    if first != other:
        page.get_by_test_id("view-seat").nth(first).click()
        page.wait_for_function("() => !document.querySelector('[data-testid=handover]').hidden")
        assert page.get_by_test_id("hand-card").count() == 0
        page.get_by_test_id("handover-ready").click()
        page.wait_for_selector("[data-testid=legal-move]")
        assert shown(page) == first and hand(page) == cards


@pytest.mark.parametrize("game", OPEN)
def test_a_game_without_hidden_hands_switches_at_once(open_page: Callable[..., Page], game: str) -> None:
    page = open_page()
    start(page, game, GAMES[game])
    first = shown(page)
    other = (first + 1) % GAMES[game]
    page.get_by_test_id("view-seat").nth(other).click()
    page.wait_for_function(f"() => document.querySelectorAll('[data-testid=view-seat]')[{other}]"
                           ".getAttribute('aria-pressed') === 'true'")
    assert page.get_by_test_id("handover").is_hidden()
