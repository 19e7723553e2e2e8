"""Karten-Kniffel (Michael Feldkötter; Schmidt Spiele 2014, Polish edition G3 2016), game id ``kniffel-cards``, 2-5 players.

The rules as Arbiter applies them, with every ruling, option and the rulebook passages they rest
on: ``docs/rules/kniffel-cards.md`` (cited below as §n). The game is declared once (DESIGN 4.8):
its options, state, moves, score breakdown, tally and codes below; reading, writing and views
come from those declarations, and the engine keeps the rules and the checks of meaning.

108 cards, 18 each of the values 1-6, no suits (§1). Each player has a sheet of 12 boxes (§1.2).
On a turn a player does exactly one action (§2): EXCHANGE (discard 0-5 cards, then draw as many
or one more, never holding more than 10) or SCORE (play a valid combination, §3, into an empty
box; never 0; 2 penalty points per card held above 5 before playing; refill to 5, §4).

Representation decisions:
- A card is its value, an int 1-6; hands are sorted tuples (cards have no other identity).
- An EXCHANGE is spelled as steps inside one turn (§2.1): ``{"kind": "discard", "card": v}``
  once per discarded card (phase ``exchange``; the turn can no longer score), closed by
  ``{"kind": "draw", "count": n}``. ``draw`` straight away is the exchange with nothing
  discarded (count 1, or 0 = a pass, §2.2). One card per step keeps the move lists short (a
  ten-card hand has hundreds of discard multisets), so random play reaches the end of a game.
- A SCORE is ``{"kind": "score", "box": "full-house", "cards": [1, 1, 3, 3, 3]}``, with
  ``"announce": true`` when the player announces the fill of the 11th box (§5); under
  ``auto_announce`` the flag is irrelevant and the move is listed without it (§5.2). With more
  than 5 cards left, the player then discards down to 5 with ``discard`` steps (phase ``trim``)
  before the turn passes (§4.3).
- The ``stock`` is drawn from its end; when a card must be drawn and the stock is empty, the
  ``discard`` pile is shuffled from the state's rng into a new stock (§6). Played cards go to
  the discard pile (§6.1). A view shows the stock as ``null`` with ``stock_size`` (DESIGN 4.5).
- End (§7.1): once a seat fills its 12th box, play goes on until the seat just before the start
  player has finished a turn; then ``turn`` is null and the phase ``game-over``. Scoring: §7.2-7.4.
  The game is one round: the score report's ``round`` is 1 and its ``points`` are the totals.
- ``from_json`` refuses states that conserve the cards but that play cannot reach (§8).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import Enum
from functools import cache
from itertools import chain, combinations_with_replacement
from operator import attrgetter
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from rules.base import (
    BAD_TALLY,
    SEAT_COUNT,
    SETUP_UNSUPPORTED,
    BaseEngine,
    ErrorCode,
    GameCodes,
    InvalidOption,
    Label,
    Outcome,
    Rng,
    ScoreReport,
    excerpt,
    illegal,
    invalid,
    replace,
)
from rules.events import event
from rules.jsontypes import Json
from rules.shapes import Doc, Length, Range, Visibility, declared, field, option
from rules.spec import GameSpec, phase_labels

_GAME = "kniffel-cards"
_VALUES = (1, 2, 3, 4, 5, 6)
_COPIES = 18
_DECK_SIZE = _COPIES * len(_VALUES)
_HAND = 5
_HAND_LIMIT = 10
_MAX_DISCARD = 5
_MAX_DRAW = _MAX_DISCARD + 1  # the most cards one turn draws (an exchange of 5 drawing 6)
_PENALTY_PER_CARD = 2
_MISSED_ANNOUNCEMENT = 10
_BONUS, _BONUS_AT = 35, 63
_MALUS, _MALUS_BELOW = -20, 43
_MAX_PLAYERS = 5
_MAX_TURNS = 1_000_000
_MAX_EXTRA_PENALTY = 10 * _MAX_TURNS


class Box(Enum):
    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    THREE_OF_A_KIND = "three-of-a-kind"
    FOUR_OF_A_KIND = "four-of-a-kind"
    FULL_HOUSE = "full-house"
    SMALL_STRAIGHT = "small-straight"
    LARGE_STRAIGHT = "large-straight"
    KNIFFEL = "kniffel"

    @property
    def face(self) -> int | None:
        """The face value of an upper box (Ones = 1 ...), None for the lower section."""
        return _FACE.get(self)


_BOXES: tuple[Box, ...] = tuple(Box)
_UPPER = _BOXES[:6]
_BOX_INDEX = {b: i for i, b in enumerate(_BOXES)}
_FACE = {b: i + 1 for i, b in enumerate(_UPPER)}


class Phase(Enum):
    ACTION = "action"      # the seat to act chooses its action (exchange or score)
    EXCHANGE = "exchange"  # the seat to act has discarded 1-5 cards and must draw
    TRIM = "trim"          # after scoring, the seat to act discards down to 5
    GAME_OVER = "game-over"


# --------------------------------------------------------------------------------- shapes

_DOC = "docs/rules/kniffel-cards.md"
Value = Annotated[int, Range(1, 6), Doc("a card: its value 1-6")]
Seat = Annotated[int, Range(0, _MAX_PLAYERS - 1)]
PerSeat = Length(2, _MAX_PLAYERS)
BoxValue = Annotated[int, Range(1, 50)] | None
Penalty = Annotated[int, Range(0, _PENALTY_PER_CARD * (_HAND_LIMIT - _HAND))]


@declared
class Options:
    allow_pass: bool = option(
        default=True,
        description=f"{_DOC} §2.2: discarding nothing and drawing nothing (a pass) is a legal exchange",
        label=Label("Pass allowed", "Wolno pasować"),
        help=Label("A player may exchange nothing: discard no card and draw none.",
                   "Gracz może nic nie wymieniać: nie odrzucić żadnej karty i żadnej nie dobrać."))
    excess_after_score: Literal["discard", "keep"] = option(
        default="discard",
        description=f"{_DOC} §4.3: more than 5 cards left after scoring: 'discard' the excess (the player chooses) "
                    "down to 5, or 'keep' them",
        label=Label("Cards above five after scoring", "Karty ponad pięć po zagraniu"),
        help=Label("What happens to cards above five left in the hand after a combination is played.",
                   "Co się dzieje z kartami ponad pięć, które zostały na ręce po zagraniu kombinacji."),
        choices={"discard": Label("Discard down to five", "Odrzuć do pięciu"),
                 "keep": Label("Keep them", "Zatrzymaj je")})
    second_kniffel_play: bool = option(
        default=False,
        description=f"{_DOC} §3.4: with the Kniffel box filled, five equal cards may still be played as a Kniffel "
                    "for 0 points",
        label=Label("Second Kniffel for 0 points", "Drugi knyf za 0 punktów"),
        help=Label("With the Kniffel box filled, five equal cards may still be played, for no points.",
                   "Gdy pole knyfa jest zapisane, pięć takich samych kart wolno jeszcze zagrać, bez punktów."))
    auto_announce: bool = option(
        default=False,
        description=f"{_DOC} §5.2: the penultimate (11th) fill counts as announced: the announce flag is never "
                    "required and never penalised",
        label=Label("Announce automatically", "Ogłaszanie samoczynne"),
        help=Label("The penultimate combination counts as announced: nobody loses points for forgetting.",
                   "Przedostatnią kombinację uznaje się za ogłoszoną: nikt nie traci punktów za zapomnienie."))
    upper_cards: Literal["any", "all"] = option(
        default="any",
        description=f"{_DOC} §3.3: an upper box takes 'any' 1-5 matching cards, or 'all' matching cards in hand "
                    "(up to 5)",
        label=Label("Cards for an upper box", "Karty do górnej części"),
        help=Label("Whether an upper box (Ones to Sixes) takes any matching cards or all of them in the hand.",
                   "Czy pole górnej części (jedynki do szóstek) przyjmuje dowolne pasujące karty, czy wszystkie "
                   "pasujące z ręki."),
        choices={"any": Label("Any 1-5 matching cards", "Od 1 do 5 pasujących kart"),
                 "all": Label("All matching cards in hand", "Wszystkie pasujące karty z ręki")})
    start_player: Seat = option(
        default=0,
        description=f"{_DOC} §1.4: the seat that starts (the youngest player)",
        label=Label("Starting player", "Gracz rozpoczynający"),
        help=Label("The seat that starts (the rules say: the youngest player).",
                   "Miejsce gracza, który zaczyna (według zasad: najmłodszy)."))


@declared
class Boxes:
    """A sheet's 12 boxes: each a value, or null while empty."""

    ones: BoxValue
    twos: BoxValue
    threes: BoxValue
    fours: BoxValue
    fives: BoxValue
    sixes: BoxValue
    three_of_a_kind: BoxValue = field(json_name="three-of-a-kind")
    four_of_a_kind: BoxValue = field(json_name="four-of-a-kind")
    full_house: BoxValue = field(json_name="full-house")
    small_straight: BoxValue = field(json_name="small-straight")
    large_straight: BoxValue = field(json_name="large-straight")
    kniffel: BoxValue


@declared
class Penalties:
    """The penalty points written beside each box (2 per card held above 5 when it was filled)."""

    ones: Penalty
    twos: Penalty
    threes: Penalty
    fours: Penalty
    fives: Penalty
    sixes: Penalty
    three_of_a_kind: Penalty = field(json_name="three-of-a-kind")
    four_of_a_kind: Penalty = field(json_name="four-of-a-kind")
    full_house: Penalty = field(json_name="full-house")
    small_straight: Penalty = field(json_name="small-straight")
    large_straight: Penalty = field(json_name="large-straight")
    kniffel: Penalty


_NAMES = tuple(b.value.replace("-", "_") for b in _BOXES)
_values = attrgetter(*_NAMES)  # a Boxes or Penalties as a tuple in sheet order


@declared
class Sheet:
    """One seat's score sheet."""

    boxes: Boxes
    penalties: Penalties
    extra_penalties: Annotated[int, Range(0, _MAX_EXTRA_PENALTY)] = field(
        doc="the excess-card penalties of zero-point second Kniffels (§3.4)")
    missed_announcement: bool = field(doc="whether the seat failed to announce its 11th fill (-10, §5.1)")


_EMPTY_SHEET = Sheet(Boxes(*(None,) * 12), Penalties(*(0,) * 12), 0, False)


@declared
class State:
    players: Annotated[int, Range(2, _MAX_PLAYERS)]
    options: Options
    turn: Seat | None = field(doc="the seat to act; null once the game is over")
    phase: Phase
    discarded: Annotated[int, Range(0, _MAX_DISCARD)] = field(doc="cards discarded in this turn's exchange")
    end_triggered_by: Seat | None = field(doc="the seat that filled its sheet first, or null")
    turns: Annotated[tuple[Annotated[int, Range(0, _MAX_TURNS)], ...], PerSeat] = field(
        doc="finished turns per seat")
    hands: Annotated[tuple[Annotated[tuple[Value, ...], Length(0, _HAND_LIMIT)], ...], PerSeat] = field(
        doc="each seat's hand, sorted", visibility=Visibility.OWN, sizes_name="hand_sizes")
    stock: Annotated[tuple[Value, ...], Length(0, _DECK_SIZE)] = field(
        doc="the face-down draw pile, top card last", visibility=Visibility.HIDDEN)
    discard: Annotated[tuple[Value, ...], Length(0, _DECK_SIZE)] = field(doc="the discard pile, face up, top card last")
    sheets: Annotated[tuple[Sheet, ...], PerSeat] = field(doc="each seat's score sheet")
    rng: Rng = field(visibility=Visibility.SECRET)


# ---------------------------------------------------------------------------------- moves


@declared
class Score:
    """Play ``cards`` into the empty ``box``; ``announce`` the penultimate (11th) fill (§2.3, §5)."""

    box: Box
    cards: Annotated[tuple[Value, ...], Length(1, 5)]
    announce: bool | None = field(default=None, doc="true to announce the fill of the 11th box; left out otherwise")
    kind: ClassVar[str] = "score"
    label: ClassVar[Label] = Label("Score a combination", "Zagraj kombinację")


@declared
class Discard:
    """Discard one card of value ``card`` (an exchange step, or down to 5 after scoring)."""

    card: Value
    kind: ClassVar[str] = "discard"
    label: ClassVar[Label] = Label("Discard a card", "Odrzuć kartę")


@declared
class Draw:
    """End the exchange: draw ``count`` cards (as many as discarded, or one more)."""

    count: Annotated[int, Range(0, _MAX_DRAW)]
    kind: ClassVar[str] = "draw"
    label: ClassVar[Label] = Label("Draw cards", "Dobierz karty")


Move = Score | Discard | Draw


# --------------------------------------------------------------------------------- scores


@declared
class Breakdown:
    """One seat's sheet as it scores (§7.2): its boxes and penalties, the sums and the points."""

    boxes: Boxes
    penalties: Penalties
    extra_penalties: int = field(doc="penalties of zero-point second Kniffels")
    upper: int = field(doc="the sum of the upper boxes")
    upper_bonus: int = field(doc="+35 for an upper sum of 63 or more, -20 below 43, else 0")
    lower: int = field(doc="the sum of the lower boxes")
    card_penalties: int = field(doc="every penalty point (beside the boxes and extra)")
    announcement_penalty: int = field(doc="10 for a missed announcement")
    points: int = field(doc="the sheet's total")


@declared
class TallyBoxes:
    """The boxes of a sheet to score; a box left out is empty."""

    ones: BoxValue = None
    twos: BoxValue = None
    threes: BoxValue = None
    fours: BoxValue = None
    fives: BoxValue = None
    sixes: BoxValue = None
    three_of_a_kind: BoxValue = field(json_name="three-of-a-kind", default=None)
    four_of_a_kind: BoxValue = field(json_name="four-of-a-kind", default=None)
    full_house: BoxValue = field(json_name="full-house", default=None)
    small_straight: BoxValue = field(json_name="small-straight", default=None)
    large_straight: BoxValue = field(json_name="large-straight", default=None)
    kniffel: BoxValue = None


@declared
class TallyPenalties:
    """The penalty points beside the boxes of a sheet to score; a box left out has none."""

    ones: Penalty = 0
    twos: Penalty = 0
    threes: Penalty = 0
    fours: Penalty = 0
    fives: Penalty = 0
    sixes: Penalty = 0
    three_of_a_kind: Penalty = field(json_name="three-of-a-kind", default=0)
    four_of_a_kind: Penalty = field(json_name="four-of-a-kind", default=0)
    full_house: Penalty = field(json_name="full-house", default=0)
    small_straight: Penalty = field(json_name="small-straight", default=0)
    large_straight: Penalty = field(json_name="large-straight", default=0)
    kniffel: Penalty = 0


@declared
class TallySheet:
    boxes: TallyBoxes
    penalties: TallyPenalties = field(default=TallyPenalties())
    extra_penalties: Annotated[int, Range(0, _MAX_EXTRA_PENALTY)] = 0
    missed_announcement: bool = False


@declared
class Tally:
    """Score sheets without a state, one per seat (§7)."""

    sheets: Annotated[tuple[TallySheet, ...], Length(1, _MAX_PLAYERS)]


# ---------------------------------------------------------------------------------- codes


class C(GameCodes, namespace=_GAME):
    """Every code Karten-Kniffel answers (DESIGN 4.4), the Polish in the rulebook's words
    ("karta punktów", "pole", "stos do dobierania", "stos kart odrzuconych", "knyf")."""

    setup_unsupported = SETUP_UNSUPPORTED
    bad_tally = BAD_TALLY
    seat_count = SEAT_COUNT
    card_not_in_hand = illegal(
        Label("Card not in hand", "Nie ma tej karty na ręce"),
        "Gracz {seat} nie ma na ręce karty {card}, więc nie może jej odrzucić.",
        "A discard names a value the seat does not hold. Discard one of the hand's cards.",
        "Odrzucenie wskazuje wartość, której gracz nie ma na ręce. Odrzuć kartę z ręki.")
    discard_limit = illegal(
        Label("Discard limit reached", "Limit odrzuconych kart"),
        "W jednej turze można odrzucić najwyżej {expected} kart.",
        "An exchange discards at most 5 cards; after the fifth, close it with a `draw`.",
        "Wymiana odrzuca najwyżej 5 kart; po piątej zakończ ją dobraniem (`draw`).")
    must_discard_excess = illegal(
        Label("Discard down to five first", "Najpierw odrzuć nadmiarowe karty"),
        "Po zagraniu kombinacji gracz {seat} ma {got} kart; najpierw odrzuca nadmiarowe, aż zostanie mu {expected}.",
        "After scoring with more than 5 cards left (option `excess_after_score`: discard), the seat discards down "
        "to 5 before anything else.",
        "Gdy po zagraniu kombinacji zostało więcej niż 5 kart (opcja `excess_after_score`: discard), gracz najpierw "
        "odrzuca karty do pięciu.")
    draw_too_few = illegal(
        Label("Draw too few", "Za mało dobranych kart"),
        "Nie można dobrać mniej kart, niż się odrzuciło: trzeba dobrać co najmniej {expected}.",
        "An exchange draws at least as many cards as it discarded.",
        "Wymiana dobiera co najmniej tyle kart, ile odrzuciła.")
    draw_too_many = illegal(
        Label("Draw too many", "Za dużo dobranych kart"),
        "Można dobrać tyle kart, ile się odrzuciło, albo o jedną więcej: najwyżej {expected}.",
        "An exchange draws as many cards as it discarded, or one more.",
        "Wymiana dobiera tyle kart, ile odrzuciła, albo o jedną więcej.")
    hand_limit = illegal(
        Label("More than ten cards", "Więcej niż dziesięć kart"),
        "Nie można mieć na ręce więcej niż {expected} kart; po dobraniu byłoby ich {got}.",
        "A hand never holds more than 10 cards: draw fewer.",
        "Na ręce nie może być więcej niż 10 kart: dobierz mniej.")
    pass_not_allowed = illegal(
        Label("Pass not allowed", "Pas niedozwolony"),
        "Przy tym stole nie wolno odrzucić zera kart i nic nie dobrać.",
        "The option `allow_pass` is off: drawing nothing after discarding nothing is refused.",
        "Opcja `allow_pass` jest wyłączona: nie wolno nic nie dobrać, gdy nic się nie odrzuciło.")
    exchange_in_progress = illegal(
        Label("Exchange in progress", "Trwa wymiana kart"),
        "Gracz {seat} odrzucił już karty w tej turze; musi teraz dobrać, a kombinacji zagrać już nie może.",
        "The seat has discarded this turn, so the turn is an exchange: close it with a `draw`.",
        "Gracz odrzucił już karty w tej turze, więc tura jest wymianą: zakończ ją dobraniem (`draw`).")
    cards_not_in_hand = illegal(
        Label("Cards not in hand", "Nie ma tych kart na ręce"),
        "Gracz {seat} nie ma na ręce wszystkich kart {cards}.",
        "A score plays cards the seat does not all hold. Play cards from the hand.",
        "Zagranie kombinacji wskazuje karty, których gracz nie ma (wszystkich) na ręce. Zagraj karty z ręki.")
    box_filled = illegal(
        Label("Box already filled", "Pole już zapisane"),
        "Pole „{box}” na karcie punktów gracza {seat} jest już zapisane; każde pole zapisuje się raz.",
        "Each box is filled once. Choose an empty box.",
        "Każde pole zapisuje się raz. Wybierz puste pole.")
    wrong_card_count = illegal(
        Label("Wrong number of cards", "Zła liczba kart"),
        "Liczba zagranych kart ({got}) nie pasuje do pola „{box}”, które wymaga: {expected}.",
        "An upper box takes 1 to 5 cards, the lower boxes 5 (the Small Straight 4).",
        "Pole górnej części przyjmuje od 1 do 5 kart, pola dolnej 5 (mały strit 4).")
    card_does_not_match = illegal(
        Label("Card does not match the box", "Karta nie pasuje do pola"),
        "W górnej części zagrywa się tylko pasujące karty: do pola „{box}” same {expected}.",
        "An upper box takes only cards of its face (Ones: only 1s).",
        "Pole górnej części przyjmuje tylko karty swojej wartości (jedynki: same 1).")
    invalid_combination = illegal(
        Label("Not that combination", "To nie ta kombinacja"),
        "Karty {cards} nie tworzą kombinacji „{box}”.",
        "The cards do not form the box's combination (the rules page lists them).",
        "Karty nie tworzą kombinacji tego pola (opisuje je strona z zasadami).")
    must_play_all_matching = illegal(
        Label("Play every matching card", "Zagraj wszystkie pasujące karty"),
        "Przy tym stole do pola „{box}” zagrywa się wszystkie pasujące karty z ręki: {expected}.",
        "With the option `upper_cards`: all, an upper box takes every matching card in hand (up to 5).",
        "Przy opcji `upper_cards`: all pole górnej części przyjmuje wszystkie pasujące karty z ręki (do 5).")
    nothing_to_announce = illegal(
        Label("Nothing to announce", "Nie ma czego ogłaszać"),
        "Ogłasza się tylko zdobycie przedostatniej kombinacji (jedenastego pola).",
        "`announce` is only for the fill of the 11th box. Leave it out.",
        "`announce` dotyczy tylko zapisania jedenastego pola. Pomiń je.")
    start_player = invalid(
        Label("No such start player", "Nie ma takiego gracza rozpoczynającego"),
        "Liczba graczy przy stole: {players}; nie ma wśród nich gracza {seat}, który miałby rozpoczynać.",
        "The option `start_player` names a seat the new table lacks. Choose a seat below the player count.",
        "Opcja `start_player` wskazuje miejsce, którego przy nowym stole nie ma. Wybierz miejsce mniejsze od "
        "liczby graczy.", error=InvalidOption)
    duplicate_card = invalid(
        Label("Card too many times", "Za dużo kart jednej wartości"),
        "Kart o wartości {card} jest więcej niż 18: talia ma po 18 kart każdej wartości.",
        "The deck has 18 cards of each value; the state holds more of this one.",
        "Talia ma po 18 kart każdej wartości; w stanie gry jest ich więcej.")
    missing_card = invalid(
        Label("Missing card", "Brak karty"),
        "Brakuje kart o wartości {card}: wszystkie 108 kart, po 18 każdej wartości, musi być w grze.",
        "All 108 cards (18 of each value) must be in hands, the stock or the discard pile.",
        "Wszystkie 108 kart (po 18 każdej wartości) musi być na rękach, w stosie do dobierania albo odrzuconych.")
    bad_hand_size = invalid(
        Label("Impossible hand size", "Niemożliwa liczba kart na ręce"),
        "Gracz {seat} nie mógł mieć teraz tylu kart na ręce ({got}): każdy dostaje pięć, a każda wymiana dokłada "
        "najwyżej jedną kartę.",
        "Hands start with 5 cards and only an exchange grows one, by one card at most.",
        "Ręce zaczynają od 5 kart i rosną tylko przy wymianie, najwyżej o jedną kartę.")
    bad_stock = invalid(
        Label("Impossible piles", "Niemożliwe stosy"),
        "Stos do dobierania jest za mały ({got}): przy tej liczbie tur musi w nim być co najmniej {expected}.",
        "The stock is smaller than the finished turns can have drawn while it cannot have run out yet.",
        "Stos do dobierania jest mniejszy, niż mogły go uszczuplić dotychczasowe tury, a nie mógł się jeszcze "
        "skończyć.")
    impossible_box = invalid(
        Label("Impossible box value", "Niemożliwa wartość pola"),
        "Na karcie punktów gracza {seat} w polu „{box}” nie może stać {got}.",
        "No combination gives that value in that box.",
        "Żadna kombinacja nie daje takiej wartości w tym polu.")
    bad_penalties = invalid(
        Label("Impossible penalty points", "Niemożliwe punkty karne"),
        "Punkty karne gracza {seat} nie mogły powstać w tej grze.",
        "Penalty points are even, beside filled boxes, and need the exchanges that grew the hand.",
        "Punkty karne są parzyste, stoją przy zapisanych polach i wymagają wymian, które powiększyły rękę.")
    bad_announcement = invalid(
        Label("Impossible missed announcement", "Niemożliwe nieogłoszenie"),
        "Gracz {seat} nie mógł zapomnieć ogłosić przedostatniej kombinacji.",
        "A missed announcement needs 11 filled boxes and cannot happen under `auto_announce`.",
        "Nieogłoszenie wymaga 11 zapisanych pól i nie zdarza się przy `auto_announce`.")
    bad_turn = invalid(
        Label("Turns out of order", "Tury nie po kolei"),
        "Liczby tur i gracz, który ma ruch, nie zgadzają się z kolejnością gry.",
        "The turn counters are not a round from the start player, the seat to act is not the next one, or a "
        "sheet has more boxes filled than turns.",
        "Liczby tur nie tworzą kolejki od gracza rozpoczynającego, ruch nie ma następny gracz albo na karcie jest "
        "więcej zapisanych pól niż tur.")
    bad_phase = invalid(
        Label("Impossible phase", "Niemożliwa faza tury"), "Tura nie mogła dojść do tego miejsca.",
        "The phase does not fit the cards discarded this turn or the hand left after a score.",
        "Faza tury nie pasuje do kart odrzuconych w tej turze albo do ręki po zagraniu kombinacji.")
    bad_end = invalid(
        Label("Impossible end", "Niemożliwy koniec gry"),
        "Gra kończy się w rundzie, w której ktoś pierwszy zdobył wszystkie kombinacje, gdy każdy wykonał tyle "
        "samo tur.",
        "The end must be the round of the first full sheet (`end_triggered_by`), finished with equal turns.",
        "Koniec gry to runda pierwszej pełnej karty punktów (`end_triggered_by`), dokończona tak, by każdy miał "
        "tyle samo tur.")
    bad_rng = invalid(
        Label("Bad random generator", "Niepoprawny generator losowy"),
        "Generator losowy w stanie gry nie mógł potasować tej talii.",
        "The deal alone draws 107 numbers from the rng; its counter is lower.",
        "Samo rozdanie pobiera z generatora 107 liczb; jego licznik jest mniejszy.")


@event
class ReshuffleEvent:
    """The draw pile ran out: the discard pile was shuffled into a new one."""

    type: Literal["reshuffle"] = "reshuffle"
    stock: Annotated[int, Range(0, _DECK_SIZE)] = field(doc="the cards in the draw pile after the turn's draws")


@event
class MissedAnnouncementEvent:
    """A seat scored a Kniffel it had not announced: the penalty goes on its sheet."""

    type: Literal["missed-announcement"] = "missed-announcement"
    seat: Seat
    penalty: Annotated[int, Range(_MISSED_ANNOUNCEMENT, _MISSED_ANNOUNCEMENT)] = field(doc="the penalty points")


@event
class SheetCompleteEvent:
    """A seat filled its sheet: the game ends once the round is played out."""

    type: Literal["sheet-complete"] = "sheet-complete"
    seat: Seat


SPEC = GameSpec(
    id=_GAME,
    name="Karten-Kniffel (Feldkötter)",
    label=Label("Karten-Kniffel", "Karciany Kniffel"),
    players=range(2, _MAX_PLAYERS + 1),
    options=Options,
    state=State,
    moves=(Score, Discard, Draw),
    phases=phase_labels(Phase, ACTION=Label("Choose an action", "Wybór akcji"),
                        EXCHANGE=Label("Exchange", "Wymiana kart"),
                        TRIM=Label("Discard down to five", "Odrzucanie do pięciu")),
    codes=C,
    breakdown=Breakdown,
    tally=Tally,
    # the score pad's rows follow this order: the upper boxes, their sum and bonus, the lower boxes, their
    # sum, the penalties (service/static/play/pads.js walks the terms)
    terms={
        "stock": Label("Stock", "Stos do dobierania"), "discard": Label("Discard pile", "Stos kart odrzuconych"),
        "sheets": Label("Score sheets", "Karty punktów"), "boxes": Label("Boxes", "Pola"), "box": Label("Box", "Pole"),
        "turns": Label("Turns", "Tury"), "cards": Label("Cards", "Karty"), "announced": Label("announced", "zapowiedziane"),
        "penalties": Label("Penalty points", "Punkty karne"),
        **{b.value: Label(en, pl) for b, (en, pl) in zip(_BOXES[:6], (
            ("Ones", "Jedynki"), ("Twos", "Dwójki"), ("Threes", "Trójki"), ("Fours", "Czwórki"),
            ("Fives", "Piątki"), ("Sixes", "Szóstki")), strict=True)},
        "upper": Label("Upper section", "Górna część"), "upper_bonus": Label("Upper bonus", "Premia za górną część"),
        **{b.value: Label(en, pl) for b, (en, pl) in zip(_BOXES[6:], (
            ("Three of a kind", "Trzy jednakowe"), ("Four of a kind", "Cztery jednakowe"), ("Full House", "Full"),
            ("Small Straight", "Mały strit"), ("Large Straight", "Duży strit"), ("Kniffel", "Knyf")), strict=True)},
        "lower": Label("Lower section", "Dolna część"), "card_penalties": Label("Card penalties", "Karne za karty"),
        "announcement_penalty": Label("Missed announcement", "Brak zapowiedzi"),
        "extra_penalties": Label("Second-Kniffel penalties", "Karne za drugi knyf"),
        "points": Label("Points", "Punkty"),
        # the log's sentences (service/static/play/log.js fills the {names})
        "move:score": Label("{seat} scored {cards} in {box}", "{seat} zapisuje {cards} w polu {box}"),
        "move:discard": Label("{seat} discarded {card}", "{seat} odrzuca {card}"),
        "move:draw": Label("{seat} drew {count}", "{seat} dobiera kart: {count}"),
        "event:reshuffle": Label("The discard pile was shuffled into the stock", "Odrzucone karty przetasowano na nowy stos"),
        "event:missed-announcement": Label("{seat} did not announce: {penalty} penalty points",
                                           "{seat} bez zapowiedzi: {penalty} punktów karnych"),
        "event:sheet-complete": Label("{seat} filled the sheet", "{seat} ma pełną kartę punktów"),
    },
    tally_example={"sheets": [
        {"boxes": {"ones": 2, "twos": 4, "full-house": 25, "kniffel": 50}, "penalties": {"ones": 4}},
        {"boxes": {"kniffel": 50}}]},
    events=(ReshuffleEvent, MissedAnnouncementEvent, SheetCompleteEvent),
)


# --------------------------------------------------------------------------------- engine


class KniffelCards(BaseEngine[State, Move]):
    spec = SPEC

    # -- creation ----------------------------------------------------------------------

    def new_game(self, players: int, rng: Rng, options: Options, setup: None = None) -> State:
        if options.start_player >= players:
            raise C.start_player(f"start_player {options.start_player} is not a seat of {players} players",
                                 seat=options.start_player, players=players)
        deck, rng = rng.shuffle(tuple(v for v in _VALUES for _ in range(_COPIES)))
        hands = tuple(tuple(sorted(deck[len(deck) - _HAND * (p + 1): len(deck) - _HAND * p])) for p in range(players))
        return State(
            players=players,
            options=options,
            turn=options.start_player,
            phase=Phase.ACTION,
            discarded=0,
            end_triggered_by=None,
            turns=(0,) * players,
            hands=hands,
            stock=deck[: len(deck) - _HAND * players],
            discard=(),
            sheets=(_EMPTY_SHEET,) * players,
            rng=rng,
        )

    # -- turn --------------------------------------------------------------------------

    def legal_moves(self, state: State, seat: int) -> Sequence[Move]:
        if state.phase is Phase.GAME_OVER or seat != state.turn:
            return []
        hand = state.hands[seat]
        values = sorted(set(hand))
        if state.phase is Phase.TRIM:
            return [Discard(v) for v in values]
        moves: list[Move] = []
        if state.phase is Phase.ACTION:
            for box, cards in _score_plays(state, seat):
                for announce in _announce_choices(state, seat, box):
                    moves.append(Score(box, cards, announce))
        if state.discarded < _MAX_DISCARD:
            moves.extend(Discard(v) for v in values)
        moves.extend(Draw(n) for n in _draw_counts(state, seat))
        return moves

    def check(self, state: State, seat: int, move: Move) -> None:
        # checks run on every move: each refusal's message is built only when refusing
        self.check_turn(state, seat)
        hand = state.hands[seat]
        if isinstance(move, Score):
            self._check_score(state, seat, move)
        elif isinstance(move, Discard):
            if move.card not in hand:
                raise C.card_not_in_hand(f"cannot discard a {move.card}: hand is {list(hand)}", card=move.card,
                                         seat=seat)
            if not (state.phase is Phase.TRIM or state.discarded < _MAX_DISCARD):
                raise C.discard_limit(f"at most {_MAX_DISCARD} cards may be discarded in an exchange; "
                                      f"{state.discarded} already discarded",
                                      expected=_MAX_DISCARD, got=state.discarded + 1)
        else:
            if state.phase is Phase.TRIM:
                raise C.must_discard_excess(f"draw {move.count}: after scoring, first discard down to {_HAND} "
                                            f"(hand has {len(hand)})", seat=seat, expected=_HAND, got=len(hand))
            d = state.discarded
            if move.count < d:
                raise C.draw_too_few(f"draw {move.count}: must draw at least as many as discarded ({d})",
                                     expected=d, got=move.count)
            if move.count > d + 1:
                raise C.draw_too_many(f"draw {move.count}: may draw at most one more than discarded ({d} + 1)",
                                      expected=d + 1, got=move.count)
            if len(hand) + move.count > _HAND_LIMIT:
                raise C.hand_limit(f"draw {move.count}: hand of {len(hand)} would exceed {_HAND_LIMIT} cards",
                                   expected=_HAND_LIMIT, got=len(hand) + move.count)
            if not (move.count > 0 or state.options.allow_pass):
                raise C.pass_not_allowed("draw 0 after discarding nothing is a pass, which the allow_pass option "
                                         "forbids", seat=seat)

    def _check_score(self, state: State, seat: int, move: Score) -> None:
        if state.phase is Phase.TRIM:
            raise C.must_discard_excess(f"score {move.box.value}: this turn has scored already; discard down to "
                                        f"{_HAND}", seat=seat, expected=_HAND, got=len(state.hands[seat]))
        if state.phase is Phase.EXCHANGE:
            raise C.exchange_in_progress(f"score {move.box.value}: this turn is an exchange ({state.discarded} "
                                         "discarded); finish it with a draw", seat=seat, got=state.discarded)
        hand = state.hands[seat]
        if any(move.cards.count(c) > hand.count(c) for c in set(move.cards)):
            raise C.cards_not_in_hand(f"cards {list(move.cards)} are not all in hand {list(hand)}",
                                      cards=list(move.cards), seat=seat)
        boxes = _boxes(state, seat)
        filled = boxes[_BOX_INDEX[move.box]] is not None
        zero_kniffel = filled and move.box is Box.KNIFFEL and state.options.second_kniffel_play
        if filled and not zero_kniffel:
            raise C.box_filled(f"box {move.box.value} already holds {boxes[_BOX_INDEX[move.box]]}; a box is filled "
                               "once", box=move.box.value, seat=seat)
        problem = _combination_problem(move.box, move.cards)
        if problem:
            code, message, context = problem
            raise code(message, **{k: list(v) if isinstance(v, list) else v for k, v in context})
        if state.options.upper_cards == "all" and move.box.face is not None:
            need = min(hand.count(move.box.face), 5)
            if len(move.cards) != need:
                raise C.must_play_all_matching(f"score {move.box.value} with {list(move.cards)}: the upper_cards "
                                               f"option asks for all {need} matching cards",
                                               box=move.box.value, expected=need, got=len(move.cards))
        if state.options.auto_announce:  # the flag is irrelevant: never required, never penalised
            return
        fill = None if zero_kniffel else _filled(state, seat) + 1
        if move.announce and fill != len(_BOXES) - 1:
            raise C.nothing_to_announce("announce is only for the fill of the penultimate (11th) box; this play "
                                        + ("fills no box" if fill is None else f"is fill {fill}"), seat=seat)

    def _apply(self, state: State, seat: int, move: Move) -> State:
        if isinstance(move, Score):
            return self._apply_score(state, seat, move)
        hand = state.hands[seat]
        if isinstance(move, Discard):
            new = _set(state.hands, seat, _remove(hand, (move.card,)))
            state = replace(state, hands=new, discard=(*state.discard, move.card))
            if state.phase is Phase.TRIM:
                return _end_turn(state) if len(new[seat]) == _HAND else state
            return replace(state, phase=Phase.EXCHANGE, discarded=state.discarded + 1)
        drawn, stock, discard, rng = _draw_cards(state.stock, state.discard, state.rng, move.count)
        hands = _set(state.hands, seat, tuple(sorted(hand + drawn)))
        return _end_turn(replace(state, hands=hands, stock=stock, discard=discard, rng=rng))

    def _apply_score(self, state: State, seat: int, move: Score) -> State:
        hand = state.hands[seat]
        i = _BOX_INDEX[move.box]
        penalty = _PENALTY_PER_CARD * max(0, len(hand) - _HAND)
        left = _remove(hand, move.cards)
        discard = state.discard + move.cards
        sheet = state.sheets[seat]
        boxes = _values(sheet.boxes)
        ended_by = state.end_triggered_by
        if boxes[i] is not None:  # a zero-point second Kniffel (option)
            sheet = replace(sheet, extra_penalties=sheet.extra_penalties + penalty)
        else:
            fills = len(boxes) - boxes.count(None) + 1
            name = _NAMES[i]  # the box's field in Boxes and Penalties: one field of each changes
            filled = {"boxes": replace(sheet.boxes, **{name: _combination_value(move.box, move.cards)}),
                      "penalties": replace(sheet.penalties, **{name: penalty})}
            if fills == len(_BOXES) - 1 and not move.announce and not state.options.auto_announce:
                filled["missed_announcement"] = True
            sheet = replace(sheet, **filled)
            if fills == len(_BOXES) and ended_by is None:
                ended_by = seat
        stock, rng = state.stock, state.rng
        if len(left) < _HAND:
            drawn, stock, discard, rng = _draw_cards(stock, discard, rng, _HAND - len(left))
            left = tuple(sorted(left + drawn))
        state = replace(state, sheets=_set(state.sheets, seat, sheet), hands=_set(state.hands, seat, left),
                        stock=stock, discard=discard, rng=rng, end_triggered_by=ended_by)
        if len(left) > _HAND and state.options.excess_after_score == "discard":
            return replace(state, phase=Phase.TRIM)
        return _end_turn(state)

    def emit(self, before: State, seat: int, move: Move, after: State) -> list[Any]:
        out = super().emit(before, seat, move, after)
        if after.rng != before.rng:  # only a reshuffle draws from the rng
            out.insert(1, ReshuffleEvent(stock=len(after.stock)))
        if after.sheets[seat].missed_announcement and not before.sheets[seat].missed_announcement:
            out.insert(1, MissedAnnouncementEvent(seat=seat, penalty=_MISSED_ANNOUNCEMENT))
        if after.end_triggered_by is not None and before.end_triggered_by is None:
            out.insert(1, SheetCompleteEvent(seat=seat))
        return out

    def move_from_json(self, data: Json) -> Move:
        """The declared reading, then a move's canonical form: a score's cards ascending, its
        ``announce`` only when true (as the legal moves list it)."""
        move = super().move_from_json(data)
        if isinstance(move, Score):
            return Score(move.box, tuple(sorted(move.cards)), True if move.announce else None)
        return move

    # -- results -----------------------------------------------------------------------

    def scores(self, state: State) -> ScoreReport:
        sheets = tuple(_breakdown(_values(s.boxes), _values(s.penalties), s.extra_penalties, s.missed_announcement)
                       for s in state.sheets)
        totals = tuple(s.points for s in sheets)
        over = state.phase is Phase.GAME_OVER
        return ScoreReport(totals, totals, sheets, over, _best(totals) if over else (), round=1)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase is not Phase.GAME_OVER:
            return None
        totals = self.scores(state).totals
        winners = _best(totals)
        reason = f"seat {state.end_triggered_by} filled the sheet; the round was completed; highest total wins"
        return Outcome(winners, reason, draw=False, points=totals)

    def tally_scores(self, tally: Tally) -> ScoreReport:
        """Score sheets without a state (§7): each sheet's boxes, penalties, extra penalties and
        missed announcement, checked as a state's sheets are."""
        out = []
        for n, sheet in enumerate(tally.sheets):
            boxes, pens = _values(sheet.boxes), _values(sheet.penalties)
            _check_sheet(boxes, pens, sheet.extra_penalties, sheet.missed_announcement, f"sheet {n}", seat=n)
            out.append(_breakdown(boxes, pens, sheet.extra_penalties, sheet.missed_announcement))
        totals = tuple(s.points for s in out)
        return ScoreReport(totals, totals, tuple(out), True, _best(totals), round=1)

    # -- meaning -----------------------------------------------------------------------

    def check_state(self, state: State) -> State:
        """What play can reach, beyond the shape (§8): one entry per seat, the 108 cards, the
        sheets, then ``_check_reachable``; returns the state with its hands sorted."""
        players, opts = state.players, state.options
        for name in ("turns", "hands", "sheets"):
            count = len(getattr(state, name))
            if count != players:
                raise C.seat_count(f"{name} must have one entry per seat ({players}), got {count}",
                                   field=name, expected=players, got=count)
        if opts.start_player >= players:
            raise C.bad_state(f"start_player {opts.start_player} is not a seat of {players}",
                              field="options.start_player")
        hands = tuple([tuple(sorted(h)) for h in state.hands])
        # the values are 1-6 (the shape's), so the cards fit in bytes, which count in C
        cards = bytes(state.stock) + bytes(state.discard) + bytes(chain.from_iterable(hands))
        wrong = {v: count for v in _VALUES if (count := cards.count(v)) != _COPIES}
        if wrong:
            card = max(wrong, key=lambda v: (wrong[v] > _COPIES, v))
            code = C.duplicate_card if wrong[card] > _COPIES else C.missing_card
            raise code(f"each value 1-6 must appear {_COPIES} times over hands and piles ({_DECK_SIZE} cards); "
                       f"wrong: {wrong}", card=card, expected=_COPIES, got=wrong[card])
        boxes = [_values(sheet.boxes) for sheet in state.sheets]
        pens = [_values(sheet.penalties) for sheet in state.sheets]
        for p, sheet in enumerate(state.sheets):
            _check_sheet(boxes[p], pens[p], sheet.extra_penalties, sheet.missed_announcement, f"sheets[{p}]", seat=p)
            if sheet.missed_announcement and opts.auto_announce:
                raise C.bad_announcement(f"sheets[{p}] records a missed announcement under auto_announce", seat=p)
            if sheet.extra_penalties and not (opts.second_kniffel_play and boxes[p][_BOX_INDEX[Box.KNIFFEL]] is not None):
                raise C.bad_penalties(f"sheets[{p}] has extra penalties {sheet.extra_penalties}: they come only from "
                                      "a second Kniffel (second_kniffel_play)", seat=p)
        state = state if hands == state.hands else replace(state, hands=hands)
        _check_reachable(state, boxes, pens)
        return state


# ------------------------------------------------------------------------------- helpers


T = TypeVar("T")


def _set(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    return items[:i] + (value,) + items[i + 1:]


def _remove(hand: tuple[int, ...], cards: Sequence[int]) -> tuple[int, ...]:
    left = list(hand)
    for c in cards:
        left.remove(c)
    return tuple(left)


def _end_turn(state: State) -> State:
    """Close the acting seat's turn (§7.1: after a full sheet, finish the round, then stop)."""
    seat: int = state.turn  # type: ignore[assignment]  # a turn is being played
    turns = _set(state.turns, seat, state.turns[seat] + 1)
    last = (state.options.start_player - 1) % state.players
    if state.end_triggered_by is not None and seat == last:
        return replace(state, turns=turns, phase=Phase.GAME_OVER, discarded=0, turn=None)
    return replace(state, turns=turns, phase=Phase.ACTION, discarded=0, turn=(seat + 1) % state.players)


def _check_reachable(s: State, boxes: Sequence[tuple[int | None, ...]], pens: Sequence[tuple[int, ...]]) -> None:
    """Refuse a state that conserves its 108 cards but that no sequence of moves reaches
    (docs/rules/kniffel-cards.md §8): turns out of order, a seat to act that is not next, hand
    sizes, penalties or fills that the seat's turns cannot explain, an end that is not the
    round of the first full sheet. ``boxes`` and ``pens`` are each seat's sheet as tuples in
    sheet order, the penalties already checked even (``_check_sheet``)."""
    n, start, total = s.players, s.options.start_player, sum(s.turns)
    if s.rng.counter < _DECK_SIZE - 1:
        raise C.bad_rng(
            f"the deal alone draws {_DECK_SIZE - 1} numbers from the rng; its counter is {s.rng.counter}",
            got=s.rng.counter,
        )
    # the first total % n seats from the start seat have had one turn more than the others
    rounds, extra = divmod(total, n)
    from_start = (rounds + 1,) * extra + (rounds,) * (n - extra)
    expected = from_start[n - start:] + from_start[:n - start]
    if s.turns != expected:
        raise C.bad_turn(
            f"turns {list(s.turns)} are not a consistent round from start seat {start} (expected {list(expected)})",
            expected=list(expected), got=list(s.turns),
        )
    over = s.phase is Phase.GAME_OVER
    acting = None if over else (start + total) % n
    if s.turn != acting:
        raise C.bad_turn(
            f"turn {excerpt(s.turn)} is not the seat to act after turns {list(s.turns)} from start seat {start} "
            f"({excerpt(acting)})",
            expected=acting, got=s.turn,
        )
    in_trim = s.phase is Phase.TRIM
    held = len(s.hands[acting]) if acting is not None else 0
    if s.phase is Phase.EXCHANGE:
        if not (1 <= s.discarded <= _MAX_DISCARD and len(s.discard) >= s.discarded):
            raise C.bad_phase(
                f"an exchange has 1-5 cards discarded, all still on the discard pile; got {s.discarded}",
                got=s.discarded,
            )
    elif s.discarded != 0:
        raise C.bad_phase(f"{s.discarded} cards counted as discarded outside an exchange", got=s.discarded)
    if in_trim:
        sheet = s.sheets[acting]  # type: ignore[index]  # a seat is acting in a trim
        played = max(max(pens[acting]), sheet.extra_penalties) // _PENALTY_PER_CARD + _HAND  # type: ignore[index]
        if not (s.options.excess_after_score == "discard" and _HAND < held < played and bool(s.discard)):
            raise C.bad_phase(
                f"discarding down to {_HAND} after a score needs the 'discard' excess ruling and fewer cards than the "
                f"scoring hand ({held} left, excess ruling {s.options.excess_after_score!r})",
                got=held,
            )
    complete = [p for p in range(n) if None not in boxes[p]]
    discard_excess = s.options.excess_after_score == "discard"
    for p in range(n):
        trimming = in_trim and p == acting
        fills = len(_BOXES) - boxes[p].count(None)
        if fills > s.turns[p] + trimming:
            raise C.bad_turn(
                f"seat {p} has {fills} boxes filled in {s.turns[p]} turns",
                seat=p, got=fills,
            )
        # a turn that fills a box is no exchange; only an exchange grows the hand, by one card
        exchanges = s.turns[p] - fills + trimming
        size = len(s.hands[p]) + (s.discarded if p == acting else 0)
        if not trimming and not (_HAND <= size <= _HAND + exchanges and size <= _HAND_LIMIT):
            raise C.bad_hand_size(
                f"seat {p} holds {size} cards after {exchanges} exchange turns at most "
                f"(5 dealt, at most one more per exchange, never above {_HAND_LIMIT})",
                seat=p, got=size,
            )
        excess = 0 if trimming else size - _HAND
        # cards paid for: penalty points over 2 per card, box by box (each even), and extra
        extra_paid = s.sheets[p].extra_penalties
        grown = (excess + (sum(pens[p]) + extra_paid) // _PENALTY_PER_CARD if discard_excess
                 else max(excess, max(pens[p]) // _PENALTY_PER_CARD, extra_paid // _PENALTY_PER_CARD))
        if grown > exchanges:
            raise C.bad_penalties(
                f"seat {p}'s penalty points and hand need {grown} exchange turns that drew one more card; "
                f"it has had {exchanges} at most",
                seat=p, got=grown, expected=exchanges,
            )
    dealt_stock = _DECK_SIZE - _HAND * n
    # while the stock cannot have run out (nothing was reshuffled), it holds what the turns left
    if _MAX_DRAW * total < dealt_stock and len(s.stock) < dealt_stock - _MAX_DRAW * total:
        raise C.bad_stock(
            f"{total} finished turns draw at most {_MAX_DRAW * total} of the {dealt_stock} cards left after the "
            f"deal; the stock holds only {len(s.stock)}",
            expected=dealt_stock - _MAX_DRAW * total, got=len(s.stock),
        )
    e = s.end_triggered_by
    if e is None:
        if complete or over:
            raise C.bad_end(
                f"seats {complete} filled every box but no end is recorded",
                got=complete,
            )
        return
    pos = [(p - start) % n for p in range(n)]
    if not (e in complete and all(pos[c] > pos[e] for c in complete if c != e)):
        raise C.bad_end(
            f"end_triggered_by {e} must be the first seat of the last round to fill its sheet; full sheets: {complete}",
            seat=e, got=complete,
        )
    if over:
        if total % n != 0:
            raise C.bad_end(
                "a finished game has equal turns for every seat",
                got=list(s.turns),
            )
    else:
        assert acting is not None  # not over: a seat acts
        if not (pos[acting] > pos[e] or (acting == e and in_trim)):
            raise C.bad_end(
                f"seat {e} filled its sheet; only the seats after it in the round still play, not seat {acting}",
                seat=acting,
            )
        done = [c for c in complete if c != e and not (pos[c] < pos[acting] or (c == acting and in_trim))]
        if done:
            raise C.bad_end(
                f"seats {done} filled their sheets in turns of the last round not yet played",
                got=done,
            )


def _boxes(state: State, seat: int) -> tuple[int | None, ...]:
    """A seat's 12 box values in sheet order (``None``: empty)."""
    return _values(state.sheets[seat].boxes)


def _filled(state: State, seat: int) -> int:
    boxes = _boxes(state, seat)
    return len(boxes) - boxes.count(None)


def _best(totals: Sequence[int]) -> tuple[int, ...]:
    top = max(totals)
    return tuple(p for p, t in enumerate(totals) if t == top)


def _announce_choices(state: State, seat: int, box: Box) -> tuple[bool | None, ...]:
    """``announce`` values listed for a fill: both on the 11th fill, else none (not sent). Under
    auto_announce the flag is irrelevant (either value is accepted), so the plain move is listed."""
    if (
        state.options.auto_announce
        or _boxes(state, seat)[_BOX_INDEX[box]] is not None
        or _filled(state, seat) != len(_BOXES) - 2
    ):
        return (None,)
    return (True, None)


def _draw_counts(state: State, seat: int) -> list[int]:
    if state.phase is Phase.TRIM:
        return []
    d, size = state.discarded, len(state.hands[seat])
    return [n for n in (d, d + 1) if size + n <= _HAND_LIMIT and (n > 0 or state.options.allow_pass)]


def _draw_cards(stock: tuple[int, ...], discard: tuple[int, ...], rng: Rng, count: int
                ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], Rng]:
    """Draw ``count`` cards from the end of the stock, reshuffling the discard pile when it is empty."""
    drawn: list[int] = []
    while len(drawn) < count:
        if not stock:
            if not discard:  # docs §6.3: draw as many as there are
                break
            stock, rng = rng.shuffle(discard)
            discard = ()
        take = min(count - len(drawn), len(stock))
        drawn.extend(stock[len(stock) - take:])
        stock = stock[: len(stock) - take]
    return tuple(drawn), stock, discard, rng


def _score_plays(state: State, seat: int) -> list[tuple[Box, tuple[int, ...]]]:
    sheet = _boxes(state, seat)
    plays = _plays_for_hand(state.hands[seat], state.options.upper_cards == "all")
    out = [(box, cards) for box, cards in plays if sheet[_BOX_INDEX[box]] is None]
    if state.options.second_kniffel_play and sheet[_BOX_INDEX[Box.KNIFFEL]] is not None:
        out.extend((box, cards) for box, cards in plays if box is Box.KNIFFEL)
    return out


@cache
def _plays_for_hand(hand: tuple[int, ...], all_matching: bool) -> tuple[tuple[Box, tuple[int, ...]], ...]:
    """Every (box, cards) combination a sorted hand can play, boxes in sheet order."""
    have = Counter(hand)
    out: list[tuple[Box, tuple[int, ...]]] = []
    for box, face in _FACE.items():
        n = min(have[face], 5)
        out.extend((box, (face,) * k) for k in ((n,) if all_matching and n else range(1, n + 1)))
    fives = [c for c in combinations_with_replacement(_VALUES, 5) if not Counter(c) - have]
    fours = [c for c in combinations_with_replacement(_VALUES, 4) if not Counter(c) - have]
    for box in _BOXES[6:]:
        for cards in fours if box is Box.SMALL_STRAIGHT else fives:
            if _combination_problem(box, cards) is None:
                out.append((box, cards))
    return tuple(out)


@cache
def _combination_problem(box: Box, cards: tuple[int, ...]) -> tuple[ErrorCode, str, tuple[tuple[str, Json], ...]] | None:
    """None when sorted ``cards`` validly fill ``box`` (docs §3); else (code, message, context items)."""
    shown: list[Json] = list(cards)
    if box.face is not None:
        if not 1 <= len(cards) <= 5:
            return (C.wrong_card_count, f"{box.value} takes 1-5 cards, got {shown}",
                    (("box", box.value), ("expected", "1-5"), ("got", len(cards))))
        if any(c != box.face for c in cards):
            return (C.card_does_not_match, f"{box.value} takes only {box.face}s, got {shown}",
                    (("box", box.value), ("expected", box.face), ("cards", shown)))
        return None
    size = 4 if box is Box.SMALL_STRAIGHT else 5
    if len(cards) != size:
        return (C.wrong_card_count, f"{box.value} takes exactly {size} cards, got {shown}",
                (("box", box.value), ("expected", size), ("got", len(cards))))
    counts = sorted(Counter(cards).values(), reverse=True)
    ok = {
        Box.THREE_OF_A_KIND: counts[0] >= 3,
        Box.FOUR_OF_A_KIND: counts[0] >= 4,
        Box.FULL_HOUSE: counts == [3, 2],
        Box.SMALL_STRAIGHT: cards in ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)),
        Box.LARGE_STRAIGHT: cards in ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6)),
        Box.KNIFFEL: counts == [5],
    }[box]
    if ok:
        return None
    why = {
        Box.THREE_OF_A_KIND: "needs at least 3 cards of one value",
        Box.FOUR_OF_A_KIND: "needs at least 4 cards of one value",
        Box.FULL_HOUSE: "needs 3 of one value and 2 of another (five equal cards are not a Full House)",
        Box.SMALL_STRAIGHT: "needs 4 consecutive values: 1-4, 2-5 or 3-6",
        Box.LARGE_STRAIGHT: "needs 1-5 or 2-6",
        Box.KNIFFEL: "needs 5 equal cards",
    }[box]
    return (C.invalid_combination, f"{shown} is not a {box.value}: {why}",
            (("box", box.value), ("cards", shown)))


_FIXED_VALUE = {Box.FULL_HOUSE: 25, Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 40, Box.KNIFFEL: 50}


def _combination_value(box: Box, cards: tuple[int, ...]) -> int:
    return _FIXED_VALUE.get(box, sum(cards))


@cache
def _possible_values(box: Box) -> frozenset[int]:
    sizes = (4,) if box is Box.SMALL_STRAIGHT else (1, 2, 3, 4, 5) if box.face else (5,)
    return frozenset(
        _combination_value(box, c)
        for n in sizes
        for c in combinations_with_replacement(_VALUES, n)
        if _combination_problem(box, c) is None
    )


@cache
def _possible_all() -> tuple[frozenset[int], ...]:
    """``_possible_values`` of every box, in sheet order."""
    return tuple(_possible_values(box) for box in _BOXES)


@cache
def _possible_or_empty() -> tuple[frozenset[int | None], ...]:
    """``_possible_all`` with ``None`` (an empty box) added to each: a sheet without penalties
    whose every box is in these is one ``_check_sheet`` accepts without a loop."""
    return tuple(possible | {None} for possible in _possible_all())


def _check_sheet(boxes: Sequence[int | None], pens: Sequence[int], extra: int, missed: bool, where: str,
                 seat: int) -> None:
    """A sheet's meaning (its shape is declared): possible box values, even penalties beside
    filled boxes, even extra penalties, a missed announcement only after 11 fills."""
    if any(pens) or not all(map(frozenset.__contains__, _possible_or_empty(), boxes)):
        _check_boxes(boxes, pens, where, seat)
    if extra % 2:
        raise C.bad_penalties(f"{where}: extra_penalties {extra} must be an even number >= 0", seat=seat, got=extra)
    if missed and sum(v is not None for v in boxes) < len(_BOXES) - 1:
        raise C.bad_announcement(f"{where}: a missed announcement needs at least 11 filled boxes", seat=seat)


def _check_boxes(boxes: Sequence[int | None], pens: Sequence[int], where: str, seat: int) -> None:
    """``_check_sheet``'s box by box part, for a sheet with penalties or a box no combination makes."""
    for box, value, pen, possible in zip(_BOXES, boxes, pens, _possible_all(), strict=True):
        if not pen and (value is None or value in possible):
            continue  # the usual box: nothing to refuse
        if value is not None and value not in _possible_values(box):
            raise C.impossible_box(f"{where}: {box.value} = {value} is impossible; possible: "
                                   f"{sorted(_possible_values(box))}", seat=seat, box=box.value, got=value)
        if pen % 2:
            raise C.bad_penalties(f"{where}: penalty {pen} beside {box.value} must be an even 0-10",
                                  seat=seat, box=box.value, got=pen)
        if value is None and pen:
            raise C.bad_penalties(f"{where}: penalty {pen} beside the empty box {box.value}", seat=seat,
                                  box=box.value, got=pen)


def _breakdown(boxes: Sequence[int | None], pens: Sequence[int], extra: int, missed: bool) -> Breakdown:
    upper = sum(v for v in boxes[:6] if v is not None)
    lower = sum(v for v in boxes[6:] if v is not None)
    bonus = _BONUS if upper >= _BONUS_AT else _MALUS if upper < _MALUS_BELOW else 0
    card_penalties = sum(pens) + extra
    announcement = _MISSED_ANNOUNCEMENT * missed
    return Breakdown(boxes=Boxes(*boxes), penalties=Penalties(*pens), extra_penalties=extra, upper=upper,
                     upper_bonus=bonus, lower=lower, card_penalties=card_penalties,
                     announcement_penalty=announcement, points=upper + bonus + lower - card_penalties - announcement)


ENGINE = KniffelCards()
