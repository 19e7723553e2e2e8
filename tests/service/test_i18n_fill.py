"""One filling of Polish detail templates for refusals and record warnings (service.i18n.fill_pl)."""

from __future__ import annotations

from service.i18n import fill_pl


def test_a_field_the_values_lack_stays_named_instead_of_failing():
    assert fill_pl("Partia {game}: {seat} i {nope}", {"game": 2, "seat": 1}) == "Partia 2: 1 i {nope}"


def test_cards_are_drawn_as_on_the_table():
    assert fill_pl("nie {card}; {cards}", {"card": "3D", "cards": ["JS", "QH"]}) == "nie 3♦; W♠ D♥"
