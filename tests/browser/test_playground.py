"""The playground in a real Chromium (issues 13 and 20, DESIGN 4.7): every game played by clicking,
select then act (a click on an own card never moves; a selection that can do nothing legal is
refused at once with a code; select + confirm plays), the hand-over screen, the whole page in
Polish, score pads filled during a game and equal to ``score``, refusals with their code in English
and Polish, another window following a move, a position checked from an XGID and a .mat record,
the score-pad calculator.

Screenshots land in tests/browser/artifacts/ (ignored by git): <game>.png per game, and
check-xgid.png, check-mat.png, tally-<game>.png, phone.png.
"""

from __future__ import annotations

import json
import statistics
import urllib.request

import pytest

pytestmark = pytest.mark.browser

GAMES = {  # game id -> players used in the test
    "11-nimmt": 3, "kniffel-cards": 2, "take-that": 3, "3-5-8": 3, "kierki": 4,
    "canasta": 4, "backgammon": 2, "mak-yek": 2, "northcott": 2,
}
# moves that end a game early: the test plays others when it can, to see ten real moves
ENDING = {"offer-draw", "accept-draw", "resign", "accept-resignation", "double", "drop", "pass"}

CARD_GAMES = ["11-nimmt", "kniffel-cards", "take-that", "3-5-8", "kierki", "canasta"]

ROUND_TRIPS: list[float] = []


def start(page, game: str, players: int, modes: dict[int, str] | None = None, seed: int = 7, options=None):
    page.get_by_test_id("game-select").select_option(game)
    page.get_by_test_id("players").fill(str(players))
    page.get_by_test_id("players").dispatch_event("change")
    for seat, mode in (modes or {}).items():
        page.locator(f"select[data-seat='{seat}']").select_option(mode)
    page.locator("#seed").fill(str(seed))
    page.get_by_test_id("start").click()
    if modes and all(m == "bot" for m in modes.values()) and len(modes) == players:  # the bots may be on already
        page.wait_for_function("() => document.querySelector('[data-testid=version]').textContent !== ''")
    else:
        page.wait_for_function("() => document.querySelector('[data-testid=version]').textContent === '0'")
    page.wait_for_selector("[data-testid=board] > *, [data-testid=handover]:not([hidden])")


def pass_handover(page) -> bool:
    """Hot seat: when the hand-over screen is up, the next player clicks that they are ready."""
    if page.get_by_test_id("handover").is_visible():
        page.get_by_test_id("handover-ready").click()
        page.wait_for_selector("[data-testid=board] > *")
        return True
    return False


def version(page) -> int:
    return int(page.get_by_test_id("version").text_content())


def wait_version(page, at_least: int) -> None:
    page.wait_for_function(f"() => Number(document.querySelector('[data-testid=version]').textContent) >= {at_least}")


def legal_moves(page) -> list[dict]:
    page.wait_for_selector("[data-testid=legal-move], [data-testid=handover]:not([hidden])")
    if pass_handover(page):
        page.wait_for_selector("[data-testid=legal-move]")
    return [json.loads(x) for x in page.eval_on_selector_all("[data-testid=legal-move]", "els => els.map(e => e.dataset.move)")]


def click_legal(page) -> None:
    """Click a legal-move element (the first that does not end the game early) and wait for it to land."""
    before = version(page)
    moves = legal_moves(page)
    index = next((i for i, m in enumerate(moves) if m["kind"] not in ENDING), 0)
    page.get_by_test_id("legal-move").nth(index).click()
    wait_version(page, before + 1)
    ROUND_TRIPS.append(float(page.evaluate("document.body.dataset.lastRoundTripMs || 'NaN'")))


def play_backgammon_by_board(page) -> None:
    """Roll by clicking the dice, then play the first legal turn by clicking checker, destination, ..."""
    moves = legal_moves(page)
    while not any(m["kind"] == "move" for m in moves):
        before = version(page)
        if any(m["kind"] == "roll" for m in moves):
            page.locator("[data-testid=dice]").click()
        else:
            click_legal(page)
        wait_version(page, before + 1)
        moves = legal_moves(page)
    turn = next(m for m in moves if m["kind"] == "move")
    before = version(page)
    for a, b in turn["steps"]:
        page.locator(f"[data-testid=board] g[data-point='{a}']").click()
        page.locator(f"[data-testid=board] g[data-point='{b}']").click()
    assert version(page) == before  # the turn waits for its confirmation (it can still be taken back)
    page.get_by_test_id("confirm-move").click()
    wait_version(page, before + 1)


def click_a_card(page) -> None:
    """Select a hand card that exactly one legal move plays, then confirm it: it is played."""
    before = version(page)
    moves = legal_moves(page)
    singles = [m["card"] for m in moves if set(m) == {"kind", "card"}]
    card = next(c for c in singles if singles.count(c) == 1)
    page.locator(f"[data-testid=hand-card][data-card='{card}']").first.click()
    assert version(page) == before
    page.get_by_test_id("confirm-move").click()
    wait_version(page, before + 1)


@pytest.mark.parametrize("game", list(GAMES))
def test_play_moves_by_clicking(open_page, artifacts, game):
    """Six moves of every game at one screen (hot seat), each by clicking a legal-move element (and
    passing the hand-over screen); backgammon also by clicking the board, Kierki by selecting a card
    and confirming."""
    page = open_page()
    start(page, game, GAMES[game])
    if game == "backgammon":
        play_backgammon_by_board(page)
    if game == "kierki":
        click_a_card(page)
    while version(page) < 6:
        click_legal(page)
    pass_handover(page)
    assert page.get_by_test_id("board").locator("svg, .card").count() > 0
    assert page.get_by_test_id("score-sheet").locator("[data-testid=pad]").is_visible()
    page.screenshot(path=str(artifacts / f"{game}.png"), full_page=True)


def test_round_trips_are_recorded(artifacts):
    """A move's round trip (POST the move, GET the view and the legal moves, draw) on this machine,
    written to the artifacts for the closing note; timings are reported, never asserted (DESIGN 2)."""
    times = sorted(t for t in ROUND_TRIPS if t == t)  # NaN: the page did not say a move's round trip
    if not ROUND_TRIPS:
        pytest.skip("run with the games' tests: they measure the round trips")
    assert len(times) == len(ROUND_TRIPS), "every move played gave its round trip (data-last-round-trip-ms)"
    summary = {"moves": len(times), "median_ms": statistics.median(times), "p90_ms": times[int(len(times) * 0.9)],
               "max_ms": times[-1]}
    (artifacts / "round-trips.json").write_text(json.dumps(summary, indent=1))


def _codes(base_url: str, lang: str) -> dict[str, str]:
    req = urllib.request.Request(f"{base_url}/v1/codes", headers={"Accept-Language": lang})
    with urllib.request.urlopen(req) as res:
        return {c["code"]: c["title"] for c in json.load(res)["codes"]}


def test_illegal_move_shows_its_code_in_english_and_polish(open_page, base_url):
    """A typed move that the rules refuse shows its code and reason; the language switch sends
    Accept-Language, so the same code comes with the catalogue's Polish title."""
    page = open_page()
    start(page, "mak-yek", 2)
    problem = page.get_by_test_id("problem")
    page.get_by_test_id("dev-toggle").click()
    for lang in ("en", "pl"):
        page.get_by_test_id("language").select_option(lang)
        page.get_by_test_id("move-input").fill('{"kind": "move", "from": "a1", "to": "a8"}')
        page.get_by_test_id("submit-move").click()
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}' && "
                               "document.querySelector('[data-testid=problem]').dataset.code")
        assert problem.get_attribute("data-code") == "mak-yek.target-occupied"
        assert "mak-yek.target-occupied" in problem.text_content()
        title = _codes(base_url, lang).get("mak-yek.target-occupied")
        if title:
            assert title in problem.text_content()
        page.evaluate("document.querySelector('[data-testid=problem]').dataset.code = ''")
    # a malformed move: the game's malformed-move (a declared game reads its moves), in Polish
    page.get_by_test_id("move-input").fill('{"kind": "fly"}')
    page.get_by_test_id("submit-move").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=problem]').dataset.code === 'mak-yek.malformed-move'")
    assert _codes(base_url, "pl")["mak-yek.malformed-move"] in problem.text_content()
    assert version(page) == 0
    page.get_by_test_id("language").select_option("en")


def test_another_window_follows_the_move(open_page, context):
    """Seat 1 plays in its own window through its seat link; each window sees the other's move."""
    page = open_page()
    start(page, "take-that", 2, modes={1: "window"})
    link = page.get_by_test_id("seat-link")
    assert link.text_content() == "Seat 2"  # seat 1, counted from 1 as everywhere on the page
    href = link.get_attribute("href")
    other = open_page(href.split("#", 1)[1])
    other.wait_for_function("() => document.querySelector('[data-testid=version]').textContent === '0'")
    assert "Seat 2 (you)" in other.get_by_test_id("board").text_content()
    assert other.get_by_test_id("legal-move").count() == 0  # seat 0 acts first
    click_legal(page)
    wait_version(other, 1)
    assert other.evaluate("document.body.dataset.follow") == "events"  # the stream brought it, not polling
    row = page.locator("[data-testid=board] .row-cards").first.text_content()
    assert other.locator("[data-testid=board] .row-cards").first.text_content() == row
    click_legal(other)
    wait_version(page, 2)


def test_bot_answers(open_page):
    """A random bot holds seat 1: after seat 0's move, the bot's move follows by itself."""
    page = open_page("bot_delay=0")
    start(page, "northcott", 2, modes={1: "bot"})
    click_legal(page)
    wait_version(page, 2)


def test_keyboard_plays_a_move(open_page):
    """Keyboard alone: Tab to a card, Enter selects it, Escape drops it, Enter again and confirm plays."""
    page = open_page()
    start(page, "kierki", 4)
    moves = legal_moves(page)
    card = next(m["card"] for m in moves if m["kind"] == "play")
    el = page.locator(f"[data-testid=hand-card][data-card='{card}']").first
    el.focus()
    page.keyboard.press("Enter")
    assert el.get_attribute("aria-pressed") == "true"
    page.keyboard.press("Escape")
    assert page.locator(f"[data-testid=hand-card][data-card='{card}']").first.get_attribute("aria-pressed") == "false"
    page.locator(f"[data-testid=hand-card][data-card='{card}']").first.focus()
    page.keyboard.press("Enter")
    page.get_by_test_id("confirm-move").focus()
    page.keyboard.press("Enter")
    wait_version(page, 1)


XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"

MAT = """ 1 point match

 Game 1
 Alice : 0                             Bob : 0
  1) 31: 8/5 6/5                       52: 13/11 13/8
  2) 64: 24/18 13/9                    Doubles => 2
  3)  Drops                            Wins 1 point
"""


def test_check_an_xgid(open_page, artifacts):
    """Paste an XGID: the board is drawn with its legal plays and its score; a play steps on."""
    page = open_page()
    page.locator("[data-tab=check]").click()
    page.get_by_test_id("check-input").fill(XGID)
    page.get_by_test_id("check-xgid").click()
    page.wait_for_selector("[data-testid=board] svg")
    moves = legal_moves(page)
    assert any(m["kind"] == "move" for m in moves)
    assert page.get_by_test_id("score-sheet").locator("[data-testid=pad]").count() == 1
    page.screenshot(path=str(artifacts / "check-xgid.png"), full_page=True)
    click_legal(page)
    assert version(page) == 1


def test_check_a_mat_record(open_page, artifacts):
    """Load a .mat record: the match summary, the final position, and (when the replay answer
    lists the moves) a step back through the record."""
    page = open_page()
    page.locator("[data-tab=check]").click()
    page.get_by_test_id("check-input").fill(MAT)
    page.get_by_test_id("check-mat").click()
    page.wait_for_selector("[data-testid=board] svg")
    summary = page.locator("#record-summary").text_content()
    assert "Alice" in summary and "Bob" in summary
    if page.get_by_test_id("step-prev").is_visible():
        at = page.get_by_test_id("step-at").text_content()
        page.get_by_test_id("step-first").click()
        page.wait_for_function("() => document.querySelector('[data-testid=step-at]').textContent.startsWith('0 /')")
        page.get_by_test_id("step-next").click()
        page.wait_for_function("() => document.querySelector('[data-testid=step-at]').textContent.startsWith('1 /')")
        assert at.split("/")[0].strip() == at.split("/")[1].strip()
    page.screenshot(path=str(artifacts / "check-mat.png"), full_page=True)


def test_check_a_pasted_state(open_page, base_url):
    """Paste a whole state (here the answer of /new): it is drawn with the moves of the seat to act."""
    req = urllib.request.Request(f"{base_url}/v1/games/3-5-8/new", data=json.dumps({"players": 3, "seed": 4}).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as res:
        body = res.read().decode()
    page = open_page()
    page.locator("[data-tab=check]").click()
    page.get_by_test_id("check-game").select_option("3-5-8")
    page.get_by_test_id("check-input").fill(body)
    page.get_by_test_id("check-state").click()
    assert legal_moves(page)
    assert page.locator("[data-testid=board] .card").count() >= 16


_BG_POINTS = [[2] + [0] * 23, [0] * 24]

TALLIES = {  # game -> (field path -> value typed or index chosen), and what the form must send
    "11-nimmt": ({"hands": "55 10 |"}, {"hands": [[55, 10], []]}),
    "kniffel-cards": ({"sheets.0.boxes.ones": "3", "sheets.0.boxes.kniffel": "50"},
                      {"sheets": [{"boxes": {"ones": 3, "kniffel": 50}}]}),
    "take-that": ({"seats.0.face_up": "21 12", "seats.0.face_down": "55", "seats.1.face_down": "13"},
                  {"seats": [{"face_up": [21, 12], "face_down": [55]}, {"face_up": [], "face_down": [13]}]}),
    "3-5-8": ({"contract": "1", "tricks": "8 5 3", "dealer": "0"}, {"contract": "S", "tricks": [8, 5, 3], "dealer": 0}),
    "kierki": ({"contract": "4", "players": "3", "seats.0.cards": "KH 3C 4C", "seats.0.tricks": "1"},
               {"contract": "no-king-of-hearts", "players": 3, "seats": [{"cards": ["KH", "3C", "4C"], "tricks": [1]},
                                                                     {"cards": [], "tricks": []}, {"cards": [], "tricks": []}]}),
    "canasta": ({"ended": "1", "sides.0.red_threes": "1", "sides.1.red_threes": "0"},
                {"ended": "stock", "sides": [{"red_threes": 1}, {"red_threes": 0}]}),
    "backgammon": ({"winner": "1", "cube": "1", "points": json.dumps(_BG_POINTS), "bar": "0 0", "off": "13 15"},
                   {"winner": 1, "cube": 2, "points": _BG_POINTS, "off": [13, 15]}),
}


def _subset(expected, got) -> bool:
    """``got`` holds ``expected``: the same values, objects possibly with more (empty) fields."""
    if isinstance(expected, dict):
        return isinstance(got, dict) and all(k in got and _subset(v, got[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(got, list) and len(got) == len(expected) and all(map(_subset, expected, got))
    return expected == got


@pytest.mark.parametrize("game", list(TALLIES))
def test_score_sheet_form(open_page, base_url, artifacts, game):
    """The tally form (generated from the OpenAPI Tally schema) computes through /score: the page
    shows the same totals the API gives for the same tally."""
    fill, _ = TALLIES[game]
    page = open_page()
    page.locator("[data-tab=sheets]").click()
    page.get_by_test_id("tally-game").select_option(game)
    page.wait_for_selector("[data-testid=tally-compute]")
    for path, value in fill.items():
        field = page.locator(f"#tally-form [data-path='{path}']")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(index=int(value) + (1 if field.locator("option[value='']").count() else 0))
        else:
            field.fill(value)
    page.get_by_test_id("tally-compute").click()
    result = page.get_by_test_id("tally-result")
    page.wait_for_function("() => document.querySelector('[data-testid=tally-result]').children.length > 0")
    assert not result.locator(".problem").count(), result.text_content()
    totals = result.locator("[data-testid=pad-total]").all_text_contents()
    sent = page.evaluate("window.__lastTally")
    req = urllib.request.Request(f"{base_url}/v1/games/{game}/score", data=json.dumps({"tally": sent}).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as res:
        expected = json.load(res)
    if game == "canasta":  # one column per side
        assert totals == [str(t) for t in expected["totals"][:len(totals)]]
    else:
        assert totals == [str(t) for t in expected["totals"]]
    assert _subset(TALLIES[game][1], sent), sent
    page.screenshot(path=str(artifacts / f"tally-{game}.png"), full_page=True)


@pytest.mark.parametrize("game", ["backgammon", "canasta"])
def test_phone_width(browser, base_url, errors, artifacts, game):
    """At 375 px the page does not scroll sideways and the board and moves stay usable."""
    ctx = browser.new_context(viewport={"width": 375, "height": 812}, device_scale_factor=1)
    try:
        page = errors.watch(ctx.new_page())
        page.goto(f"{base_url}/play")
        page.wait_for_selector("body[data-ready='1']")
        start(page, game, GAMES[game])
        click_legal(page)
        pass_handover(page)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        page.screenshot(path=str(artifacts / f"phone-{game}.png"), full_page=True)
    finally:
        ctx.close()
    assert not errors, errors


def test_cards_selected_for_a_multi_card_move(open_page):
    """Karten-Kniffel: select the cards of a several-card score in the hand, then click the box on
    the sheet; the move is played."""
    page = open_page()
    start(page, "kniffel-cards", 2, seed=3)
    for _ in range(6):
        move = next((m for m in legal_moves(page) if m["kind"] == "score" and len(m["cards"]) >= 2), None)
        if move:
            break
        click_legal(page)
    assert move, "no several-card score came up in six moves"
    before = version(page)
    for card in move["cards"]:
        page.locator(f"[data-testid=hand-card][data-card='{card}'][aria-pressed='false']").first.click()
    assert page.locator("[data-testid=hand-card][aria-pressed='true']").count() == len(move["cards"])
    assert version(page) == before
    box = page.locator(f"[data-testid=score-sheet] button.box-btn[data-box='{move['box']}']")
    assert box.get_attribute("data-testid") == "legal-target"
    box.click()
    wait_version(page, before + 1)
    pass_handover(page)
    # one pad: the boxes are on the score sheet only (the board draws none), the box just filled marked there
    assert page.locator("[data-testid=pad]").count() == 1
    assert page.locator("[data-testid=board] table").count() == 0
    marked = page.locator("[data-testid=score-sheet] [data-last=box]")
    assert marked.count() == 1
    assert marked.locator("xpath=ancestor::tr").get_attribute("data-row") == move["box"]


# --------------------------------------------------------------------------- select then act (issue 20)

def hand_cards(page) -> list[str]:
    return page.eval_on_selector_all("[data-testid=hand-card]", "els => els.map(e => e.dataset.card)")


def cards_used(move: dict) -> list[str]:
    out = [move["card"]] if move.get("card") is not None else []
    for key in ("cards", "using"):
        out += move.get(key) or []
    for key in ("plays", "melds"):
        for part in move.get(key) or []:
            out += part.get("cards") or []
    return [str(c) for c in out]


def to_a_card_turn(page, game: str, limit: int = 12) -> list[dict]:
    """Play on (by the list) until the seat shown has a move that takes hand cards; its legal moves."""
    for _ in range(limit):
        moves = legal_moves(page)
        if any(cards_used(m) for m in moves) and hand_cards(page):
            return moves
        click_legal(page)
    raise AssertionError(f"{game}: no move with hand cards in {limit} moves")


INCOMPLETE = {"11-nimmt", "canasta"}  # legal-moves lists that are samples: only what they settle is refused


def useless_selection(game: str, moves: list[dict], cards: list[str]):
    """A card no legal move uses, else (complete lists only) two cards no move uses together."""
    used = [cards_used(m) for m in moves]
    lone = next((c for c in cards if not any(c in u for u in used)), None)
    if lone is not None or game in INCOMPLETE:
        return (lone,) if lone is not None else None
    return next(((a, b) for i, a in enumerate(cards) for b in cards[i + 1:]
                 if not any(a in u and b in u and (a != b or u.count(a) > 1) for u in used)), None)


@pytest.mark.parametrize("game", CARD_GAMES)
def test_card_clicks_never_move_a_useless_selection_is_refused_and_confirm_plays(open_page, game):
    """Every own card clicked (selected, then dropped) leaves `version` as it was; a selection no legal
    move uses is refused at once in `problem` with a code, and the selection stays as it was; then a
    move made by selecting its cards and confirming lands."""
    page = open_page()
    start(page, game, GAMES[game])
    useless = None
    for _ in range(12):
        moves = legal_moves(page)
        cards = hand_cards(page)
        useless = useless_selection(game, moves, cards) if cards else None
        if useless:
            break
        click_legal(page)
    assert useless, f"{game}: every selection was legal in 12 moves"
    before = version(page)
    for i in range(len(cards)):
        card = page.get_by_test_id("hand-card").nth(i)
        card.click()
        if page.get_by_test_id("cancel-move").is_visible():
            page.get_by_test_id("cancel-move").click()
    assert version(page) == before
    page.evaluate("document.querySelector('[data-testid=problem]').dataset.code = ''")
    page.locator(f"[data-testid=hand-card][data-card='{useless[0]}']").first.click()
    if len(useless) == 2:
        assert page.locator("[data-testid=hand-card][aria-pressed='true']").count() == 1
        page.locator(f"[data-testid=hand-card][data-card='{useless[1]}'][aria-pressed='false']").first.click()
        assert page.locator("[data-testid=hand-card][aria-pressed='true']").count() == 1
    else:
        assert page.locator("[data-testid=hand-card][aria-pressed='true']").count() == 0
    problem = page.get_by_test_id("problem")
    assert problem.is_visible()
    assert problem.get_attribute("data-code")
    assert version(page) == before
    if page.get_by_test_id("cancel-move").is_visible():
        page.get_by_test_id("cancel-move").click()
    select_then_confirm(page, game)


def select_then_confirm(page, game: str) -> None:
    """A move made by selecting its cards, then confirm-move (or the one legal-target it names) lands."""
    moves = to_a_card_turn(page, game)
    before = version(page)
    hand = hand_cards(page)
    move = next(m for m in moves if cards_used(m) and all(cards_used(m).count(c) <= hand.count(c) for c in cards_used(m)))
    for card in cards_used(move):
        page.locator(f"[data-testid=hand-card][data-card='{card}'][aria-pressed='false']").first.click()
    assert version(page) == before
    confirm = page.get_by_test_id("confirm-move")
    if confirm.is_enabled():
        confirm.click()
    else:
        page.locator(f"#selection [data-testid=legal-target][data-move='{json.dumps(move, separators=(',', ':'))}']").click()
    wait_version(page, before + 1)


def test_hot_seat_hands_over_between_seats(open_page, artifacts):
    """Two people at one screen: after seat 0's move the hands are hidden behind `handover` until
    seat 1 says it is ready; then seat 1's own hand is shown."""
    page = open_page()
    start(page, "take-that", 2)
    assert pass_handover(page), "the first hand is shown behind the hand-over screen too"
    seat0 = hand_cards(page)
    click_legal(page)
    handover = page.get_by_test_id("handover")
    handover.wait_for(state="visible")
    assert page.get_by_test_id("hand-card").count() == 0
    assert page.get_by_test_id("legal-move").count() == 0
    assert "Seat 2" in handover.text_content()  # seat 1, counted from 1 for people
    page.screenshot(path=str(artifacts / "handover.png"))
    page.get_by_test_id("handover-ready").click()
    page.wait_for_selector("[data-testid=hand-card]")
    assert hand_cards(page) != seat0
    assert "Seat 2 (you)" in page.get_by_test_id("board").text_content()


def page_words(page) -> dict:
    """The page's own strings and the catalogue's labels, in both languages (words.js, GET /v1/games/{game})."""
    return page.evaluate("""async () => {
      const w = await import('/play/static/words.js');
      const pairs = Object.keys(w.PAGE.en).map((k) => [w.PAGE.en[k], w.PAGE.pl[k]]);
      for (const e of Object.values(window.__words.entries)) {
        if (e.label) pairs.push([e.label.en, e.label.pl]);
        for (const m of e.move_kinds || []) pairs.push([w.kindLabel(e, m.kind ?? m, 'en'), w.kindLabel(e, m.kind ?? m, 'pl')]);
        for (const p of e.phases || []) pairs.push([p.label.en, p.label.pl]);
        for (const t of Object.values(e.terms || {})) pairs.push([t.en, t.pl]);
      }
      return pairs;
    }""")


def foreign_words(text: str, pairs, lang: str) -> list[str]:
    """The strings of the other language found in `text` (whole words; strings both languages share skipped)."""
    import re
    other = 0 if lang == "pl" else 1
    shared = {p[1 - other] for p in pairs}
    # a name both languages write alike ("Take That") is no foreign word, nor are the words inside it
    for same in sorted({p[0] for p in pairs if p[0] == p[1] and len(p[0]) >= 4}, key=len, reverse=True):
        text = re.sub(r"(?<![\w])" + re.escape(same) + r"(?![\w])", " ", text)
    found = []
    for pair in pairs:
        s = pair[other]
        if not s or s == pair[1 - other] or s in shared or len(s) < 4 or not re.search(r"[^\W\d_]{3}", s):
            continue
        if re.search(r"(?<![\w])" + re.escape(s) + r"(?![\w])", text):
            found.append(s)
    return found


@pytest.mark.parametrize("game", ["take-that", "kierki", "backgammon"])
def test_the_whole_page_follows_the_language(open_page, artifacts, game):
    """With `pl` chosen no English string of the page's own words is left on the table, its moves, its
    pad and its refusals; with `en`, no Polish one (the same list of strings, checked both ways)."""
    page = open_page()
    page.get_by_test_id("language").select_option("pl")
    start(page, game, GAMES[game])
    lone = None
    if game in CARD_GAMES:
        for _ in range(8):  # on to a turn where some card cannot be played (Kierki: following suit)
            moves = to_a_card_turn(page, game)
            hand = hand_cards(page)
            used = [cards_used(m) for m in moves]
            lone = next((c for c in hand if not any(c in u for u in used)), None)
            if lone or game != "kierki":
                break
            click_legal(page)
        assert lone or game != "kierki", "Kierki: no card refused in 8 moves"
    else:
        click_legal(page)
    if lone:
        page.locator(f"[data-testid=hand-card][data-card='{lone}']").first.click()
        page.wait_for_selector("[data-testid=problem]:not([hidden])")
    pairs = page_words(page)
    for lang in ("pl", "en"):
        page.get_by_test_id("language").select_option(lang)
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        if lone:
            page.wait_for_function("() => !document.querySelector('[data-testid=problem]').hidden")
        text = page.evaluate("document.body.innerText")
        assert not foreign_words(text, pairs, lang), (lang, foreign_words(text, pairs, lang))
        page.screenshot(path=str(artifacts / f"lang-{game}-{lang}.png"), full_page=True)


PAD_GAMES = {"11-nimmt": 2, "take-that": 2, "3-5-8": 3, "kierki": 3, "canasta": 2, "kniffel-cards": 2, "backgammon": 2}


@pytest.mark.parametrize("game", list(PAD_GAMES))
def test_score_pad_fills_during_the_game_and_matches_score(open_page, artifacts, game):
    """Bots play every seat; the pad fills as rounds end (Kniffel: as boxes fill) and its totals are the
    totals of the last `score` report the service gave."""
    page = open_page("bot_delay=0")
    n = PAD_GAMES[game]
    start(page, game, n, modes={i: "bot" for i in range(n)}, seed=5)
    page.wait_for_function("() => document.body.dataset.scoreTotals", timeout=90_000)
    pad = page.get_by_test_id("score-sheet").locator("[data-testid=pad]")
    filled = pad.locator("tbody td").all_text_contents()
    assert any(x.strip() for x in filled), filled
    # the pad's totals equal the report's (taken when both are from the same moment)
    for _ in range(20):
        totals = json.loads(page.evaluate("document.body.dataset.scoreTotals"))
        shown = pad.locator("[data-testid=pad-total]").all_text_contents()
        again = json.loads(page.evaluate("document.body.dataset.scoreTotals"))
        if totals == again:
            break
    expected = totals[:len(shown)] if game == "canasta" else totals
    assert shown == [str(t) for t in expected], (shown, totals)
    page.screenshot(path=str(artifacts / f"pad-{game}.png"), full_page=True)
