"""One filling of Polish detail templates for refusals and record warnings (service.i18n.fill_pl), and
cards drawn as on the table (rules.cards.drawn) in what a player reads, in both languages."""

from __future__ import annotations

import random
import re

import pytest

from rules.cards import CARDS_BY_NAME, drawn, drawn_in
from rules.registry import ENGINES
from service.i18n import fill_pl


def test_a_field_the_values_lack_stays_named_instead_of_failing():
    assert fill_pl("Partia {game}: {seat} i {nope}", {"game": 2, "seat": 1}) == "Partia 2: 1 i {nope}"


def test_cards_are_drawn_as_on_the_table():
    assert fill_pl("nie {card}; {cards}", {"card": "3D", "cards": ["JS", "QH"]}) == "nie 3♦; W♠ D♥"


def test_a_card_is_drawn_by_one_declaration_in_both_languages():
    assert [drawn(CARDS_BY_NAME[c], lang) for c in ("3D", "JS", "QH", "10C", "JK") for lang in ("en", "pl")] == [
        "3♦", "3♦", "J♠", "W♠", "Q♥", "D♥", "10♣", "10♣", "joker", "dżoker"]
    # a card's name only where it stands alone: not inside a word, a number or an identifier
    assert drawn_in("J: JD JS JS is 30; not 10H, AS or JK; JSON 2DS x3D 3D_ A2S") == (
        "J: J♦ J♠ J♠ is 30; not 10♥, A♠ or joker; JSON 2DS x3D 3D_ A2S")


# --------------------------------------------------------------------------- refusals played over HTTP

#: a card's code standing alone in a text, written independently of rules.cards
RAW_CARD = re.compile(r"(?<![\w])(?:10|[2-9TJQKA])[CDHS](?!\w)|(?<!\w)JK(?!\w)")
SIGNS = "♣♦♥♠"


def _names_cards(value: object) -> bool:
    return (isinstance(value, str) and value in CARDS_BY_NAME) or (
        isinstance(value, list) and bool(value) and all(isinstance(v, str) and v in CARDS_BY_NAME for v in value))


def _moves_name_cards(moves: list[dict]) -> bool:
    return any(_names_cards(v) or (isinstance(v, list) and any(isinstance(m, dict) and _names_cards(m.get("cards"))
                                                                for m in v))
               for move in moves for v in move.values())


def _refusals(client, game: str) -> tuple[bool, list[tuple[dict, dict]]]:
    """Seeded random playouts of ``game`` over HTTP, each position tried with moves of other seats
    and of earlier positions: (whether its moves name cards, its refusals in English and Polish)."""
    rnd, post = random.Random(27), client.post
    cards, out, seen = False, [], []
    engine = ENGINES[game]
    for players in sorted({engine.players.start, engine.players.stop - 1}):
        result = post(f"/v1/games/{game}/new", json={"players": players, "seed": rnd.randrange(10**6)}).get_json()
        for _ in range(40):
            if result["game_over"] or not result["to_act"]:
                break
            state, seat = result["state"], rnd.choice(result["to_act"])
            moves = post(f"/v1/games/{game}/legal-moves", json={"state": state, "seat": seat}).get_json()["moves"]
            cards = cards or _moves_name_cards(moves)
            others = [m for s in range(players) if s != seat for m in post(
                f"/v1/games/{game}/legal-moves", json={"state": state, "seat": s}).get_json()["moves"][:3]]
            for move in [*rnd.sample(seen, min(3, len(seen))), *others[:3]]:
                body = {"state": state, "seat": seat, "move": move}
                en = post(f"/v1/games/{game}/validate", json=body).get_json()
                if not en.get("legal", True):
                    pl = post(f"/v1/games/{game}/validate", json=body, headers={"Accept-Language": "pl"}).get_json()
                    out.append((en["problem"], pl["problem"]))
            seen.extend(moves[:5])
            result = post(f"/v1/games/{game}/apply", json={"state": state, "seat": seat,
                                                           "move": rnd.choice(moves)}).get_json()
    return cards, out


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_refusals_draw_their_cards_in_english_and_polish(client, game):
    """Issue 27 §8: a refusal names its cards as drawn on the table (3♦, J♠; Polish W♠), never as the
    API's codes ("not 3D"), in both languages; a game whose moves name cards is played until its
    refusals have named some."""
    cards, refusals = _refusals(client, game)
    assert refusals, game
    for en, pl in refusals:
        for problem in (en, pl):
            assert not RAW_CARD.search(problem["detail"]), problem
    if cards:
        drawn_en = [en["detail"] for en, _ in refusals if any(s in en["detail"] for s in SIGNS)]
        drawn_pl = [pl["detail"] for _, pl in refusals if any(s in pl["detail"] for s in SIGNS)]
        assert drawn_en and drawn_pl, (game, [en["detail"] for en, _ in refusals][:10])
