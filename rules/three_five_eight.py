"""3-5-8 (Polish *Trzy-pięć-osiem*, English *Sergeant Major*): the Polish tournament form.

The rules as Arbiter applies them, every ruling and option with its default and the rulebook
passage it rests on: ``docs/rules/3-5-8.md``. Sections (§) below cite that page.

Game: 3 players, 18 deals; the dealer moves one seat clockwise after each deal. In a deal with
dealer ``d`` the chooser is ``(d+1)%3`` (target 8, BL limit 3), the third ``(d+2)%3`` (5 / 5) and
the dealer ``d`` (3 / 8) (§2). Each deal (§3): 16 cards each and a 4-card musik; the chooser picks
a contract he has not used yet (♥ ♠ ♦ ♣ trump, NT no trump, BL no tricks; §4) seeing only his first
6 cards; the card exchange (trump contracts, from deal 2; §8); the musik is shown to all and goes to
the chooser, who discards 4; 16 tricks led first by the chooser (§5: follow suit, else trump when
``must_trump``, no duty to beat). Scores (§6): trump and NT ``tricks - target``, BL
``limit - tricks``; every deal sums to 0 (asserted). Highest total after 18 deals wins (§10).

Options (§11): ``must_trump`` (true), ``exchange`` (true), ``exchange_timing`` ("before-musik"),
``exchange_limit`` ("per-opponent"), ``discard_trumps`` (true), ``tie`` ("shared"),
``first_dealer`` ("random").

Representation decisions (§12):
- Hands are kept sorted (suit, then rank), except the chooser's during the choice: it stays
  in deal order, and its first 6 cards are the ones he has seen (§3.2).
- The discard is four ``discard`` moves of one card each (keeps ``legal_moves`` short:
  20 + 19 + 18 + 17 moves instead of C(20, 4) = 4845).
- One exchange step is one ``exchange`` move ``{to, card}`` by the exchanger; the receiver's
  answer is forced (§8), so the engine makes it. ``end-exchange`` stops the current exchanger
  early; an exchanger with nothing left to offer is skipped automatically.
- The state carries the score sheet: ``history`` (points per seat of every finished deal) and
  ``contracts`` (each deal's contract); the dealers follow from the rotation and the tricks from
  the points, so totals, contracts used and the previous deal's plus and minus players for the
  exchange all derive from it. ``turn`` (the one seat to act, or null) is kept by the engine and
  checked. A deal's end is phase ``round-over`` (``game-over`` after deal 18).
- The state, moves, tally and breakdown are declared below (DESIGN 4.8): reading, writing and views
  come from the declarations. Views show a seat its own hand (the chooser only his first 6 cards
  while choosing), the musik once revealed (``null`` with ``musik_size`` before), the current and
  last trick, trick counts (``tricks_won``); the discards only to the chooser who made them
  (``null`` with ``discards_size`` to the others); never the rng.
- ``from_json`` refuses states no play reaches (§9).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, ClassVar, Literal, cast

from rules.base import (
    BAD_TALLY,
    ROUND_NOT_OVER,
    ROUND_OVER,
    SETUP_UNSUPPORTED,
    BaseEngine,
    GameCodes,
    Label,
    NextRound,
    Outcome,
    Rng,
    ScoreReport,
    illegal,
    invalid,
    replace,
)
from rules.cards import Card, Suit, card_strs, deck, missing_and_extra
from rules.events import event
from rules.jsontypes import Json, as_object
from rules.shapes import Length, Range, Visibility, computed, declared, field, option
from rules.spec import GameSpec, phase_labels
from rules.tricks import PackCard, TrickRules, check_play, next_seat, playable, trick_winner

GAME_ID = "3-5-8"
_PLAYERS = 3
_DEALS = 18
_HAND = 16
_MUSIK = 4
_TRICKS = 16
_FIRST_SEEN = 6
_DECK = deck()
_DECK_SET = frozenset(_DECK)
_TARGETS = (8, 5, 3)  # chooser, third, dealer (§2)
_BL_LIMITS = (3, 5, 8)
_ROLES = ("chooser", "third", "dealer")


class Phase(Enum):
    CHOOSE = "choose"
    EXCHANGE = "exchange"
    DISCARD = "discard"
    PLAY = "play"
    ROUND_OVER = "round-over"
    GAME_OVER = "game-over"


_OVER = (Phase.ROUND_OVER, Phase.GAME_OVER)


class Contract(Enum):
    HEARTS = "H"
    SPADES = "S"
    DIAMONDS = "D"
    CLUBS = "C"
    NO_TRUMP = "NT"
    NO_TRICKS = "BL"

    @property
    def trump(self) -> Suit | None:
        return cast("Suit | None", self._trump)  # type: ignore[attr-defined]


for _contract in Contract:  # made once: read on every move of a deal
    _contract._trump = Suit(_contract.value) if len(_contract.value) == 1 else None  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- shapes

Seat = Annotated[int, Range(0, 2)]
Cards = tuple[PackCard, ...]
Trio = Annotated[tuple[Annotated[int, Range(0, _TRICKS)], ...], Length(3, 3)]


@declared
class Options:
    must_trump: bool = option(
        default=True,
        description="A player void in the led suit must play a trump if he holds one (docs/rules/3-5-8.md §5.2).",
        label=Label("Must trump", "Obowiązek przebicia"),
        help=Label("Without the led suit, a player holding trumps must play one.",
                   "Kto nie ma koloru wyjścia, a ma atuty, musi przebić atutem."))
    exchange: bool = option(
        default=True,
        description="Play the card exchange 'WYMIANA KART' in trump deals from the 2nd deal (docs/rules/3-5-8.md §8).",
        label=Label("Card exchange", "Wymiana kart"),
        help=Label("Plus players exchange cards with minus players in trump deals.",
                   "Gracze na plusie wymieniają karty z graczami na minusie w rozgrywkach atutowych."))
    exchange_timing: Literal["before-musik", "after-discard"] = option(
        default="before-musik",
        description="When the exchange happens: after the choice and before the musik, or after the chooser's "
                    "discard (docs/rules/3-5-8.md §3, ruling 3.1).",
        label=Label("When the exchange happens", "Kiedy jest wymiana"),
        help=Label("Whether cards are exchanged before the musik is taken or after the discard.",
                   "Czy wymiana jest przed wzięciem musika, czy po odrzuceniu kart."),
        choices={"before-musik": Label("Before the musik", "Przed musikiem"),
                 "after-discard": Label("After the discard", "Po odrzuceniu kart")})
    exchange_limit: Literal["per-opponent", "own-points"] = option(
        default="per-opponent",
        description="Cards a plus player may exchange: with each minus player at most min(his remaining plus points, "
                    "that player's minus points), or only his own plus points in total (docs/rules/3-5-8.md §8, "
                    "ruling 8.1).",
        label=Label("Exchange limit", "Limit wymiany"),
        help=Label("How many cards a plus player may exchange.", "Ile kart może wymienić gracz na plusie."),
        choices={"per-opponent": Label("Limited by each minus player's points",
                                       "Ograniczony punktami każdego gracza na minusie"),
                 "own-points": Label("Only by the player's own plus points", "Tylko własnymi punktami na plusie")})
    discard_trumps: bool = option(
        default=True, description="The chooser may discard any 4 cards, trumps included (docs/rules/3-5-8.md §3.4).",
        label=Label("Trumps may be discarded", "Można odrzucać atuty"),
        help=Label("The chooser may lay trumps aside after taking the musik.",
                   "Zagrywający może odrzucić atuty po wzięciu musika."))
    tie: Literal["shared", "draw"] = option(
        default="shared",
        description="Players tied for the highest total share the win, or it is a draw (docs/rules/3-5-8.md §10, "
                    "ruling 10.1).",
        label=Label("Equal totals", "Remis"), help=Label("What happens when the best totals are equal.",
                                                         "Co, gdy najlepsze sumy są równe."),
        choices={"shared": Label("Shared victory", "Wspólne zwycięstwo"), "draw": Label("A draw", "Remis")})
    first_dealer: Literal["random", 0, 1, 2] = option(
        default="random",
        description="The first dealer: drawn at random, or seat 0, 1 or 2 (docs/rules/3-5-8.md §10, ruling 10.2).",
        label=Label("First dealer", "Pierwszy rozdający"),
        help=Label("Who deals the first deal.", "Kto rozdaje w pierwszej rozgrywce."),
        choices={"random": Label("Drawn at random", "Losowo"), 0: Label("Seat 0", "Gracz 0"),
                 1: Label("Seat 1", "Gracz 1"), 2: Label("Seat 2", "Gracz 2")})


@declared
class Played:
    """A card played to a trick, and by whom."""

    seat: Seat
    card: PackCard


@declared
class Exchange:
    """The exchange in progress: exchangers still to go (current first), steps the current
    exchanger has made with each seat."""

    queue: Annotated[tuple[Seat, ...], Length(1, 2)]
    steps: Trio = field(default=(0, 0, 0), required=True, doc="cards the current exchanger has exchanged with each seat")


def _musik_shown(state: State, seat: int | None) -> Visibility:
    return Visibility.PUBLIC if _musik_revealed(state) else Visibility.HIDDEN


def _discards_shown(state: State, seat: int | None) -> Visibility:
    return Visibility.PUBLIC if seat == state.chooser else Visibility.HIDDEN  # §3.4: face down, the chooser's


@declared
class State:
    players: Annotated[int, Range(3, 3)]
    options: Options
    round: Annotated[int, Range(1, _DEALS)] = field(doc="the deal being played, 1..18")
    dealer: Seat = field(doc="the seat that dealt this deal; the chooser sits on its left")
    phase: Phase
    turn: Seat | None = field(doc="the one seat to act; null when all three (next-round) or none act")
    contract: Contract | None = field(doc="the contract chosen for this deal; null while it is chosen")
    hands: Annotated[tuple[Annotated[Cards, Length(0, _HAND + _MUSIK)], ...], Length(3, 3)] = field(
        doc="each seat's hand (the chooser's in deal order while he chooses: he has seen its first 6)",
        visibility=Visibility.OWN, sizes_name="hand_sizes")
    musik: Annotated[Cards, Length(0, _MUSIK)] = field(
        doc="the musik: face down until revealed to all", visibility=Visibility.HIDDEN, reveal=_musik_shown)
    discards: Annotated[Cards, Length(0, _MUSIK)] = field(
        doc="the chooser's discards, face down: only he sees them", visibility=Visibility.HIDDEN, reveal=_discards_shown)
    leader: Seat = field(doc="the seat that leads the current trick")
    trick: Annotated[tuple[Played, ...], Length(0, _PLAYERS - 1)] = field(doc="the current trick, in play order")
    last_trick: Annotated[tuple[Played, ...], Length(0, _PLAYERS)] = field(doc="the last completed trick")
    won: Annotated[tuple[Annotated[Cards, Length(0, 3 * _TRICKS)], ...], Length(3, 3)] = field(
        doc="each seat's taken cards, face down", visibility=Visibility.HIDDEN_EACH)
    exchange: Exchange | None = field(doc="the card exchange while it runs; null otherwise")
    history: Annotated[tuple[Annotated[tuple[Annotated[int, Range(-_TRICKS, _TRICKS)], ...], Length(3, 3)], ...],
                       Length(0, _DEALS)] = field(doc="the points of each finished deal (this one too once it is "
                                                      "over), one row per deal")
    contracts: Annotated[tuple[Contract, ...], Length(0, _DEALS)] = field(
        doc="the contract of each finished deal (as history)")
    rng: Rng = field(visibility=Visibility.SECRET)

    @property
    def chooser(self) -> int:
        return next_seat(self.dealer, _PLAYERS)  # §2: left of the dealer

    @computed(view_only=True)
    def tricks_won(self) -> tuple[int, ...]:
        """the number of tricks each seat has taken this deal"""
        return _trick_counts(self)


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One line of the score sheet: a finished deal (derived from ``history`` and ``contracts``)."""

    dealer: int
    contract: Contract
    tricks: tuple[int, int, int]
    scores: tuple[int, int, int]

    @property
    def chooser(self) -> int:
        return next_seat(self.dealer, _PLAYERS)


# --------------------------------------------------------------------------- moves


@declared
class Choose:
    """The chooser names a contract he has not played yet (§3.2)."""

    contract: Contract
    kind: ClassVar[str] = "choose"
    label: ClassVar[Label] = Label("Choose the contract", "Wybierz rozgrywkę")


@declared
class ExchangeCard:
    """A plus player offers a card to a minus player, who returns his highest of that suit (§8)."""

    to: Seat = field(doc="the minus player receiving the card")
    card: PackCard
    kind: ClassVar[str] = "exchange"
    label: ClassVar[Label] = Label("Exchange a card", "Wymień kartę")


@declared
class EndExchange:
    """The current exchanger stops exchanging (§8)."""

    kind: ClassVar[str] = "end-exchange"
    label: ClassVar[Label] = Label("End the exchange", "Zakończ wymianę")


@declared
class Discard:
    """The chooser lays one card aside face down after taking the musik (§3.4); four in all."""

    card: PackCard
    kind: ClassVar[str] = "discard"
    label: ClassVar[Label] = Label("Discard a card", "Odrzuć kartę")


@declared
class PlayCard:
    """Play a card to the trick (§5)."""

    card: PackCard
    kind: ClassVar[str] = "play"
    label: ClassVar[Label] = Label("Play a card", "Zagraj kartę")


Move = Choose | ExchangeCard | EndExchange | Discard | PlayCard | NextRound


@declared
class Breakdown:
    """One seat's points of a deal: its role, the contract, its tricks against its target (or its
    limit in BL), the contracts it has chosen so far."""

    role: Literal["chooser", "third", "dealer"] = field(doc="the seat's role in this deal (§2)")
    contract: Contract | None = field(doc="the deal's contract; null while it is chosen")
    tricks: Annotated[int, Range(0, _TRICKS)] = field(doc="tricks taken")
    contracts_used: Annotated[tuple[Contract, ...], Length(0, 6)] = field(
        doc="the contracts the seat has chosen in this game (this deal's too once it is over)")
    target: int | None = field(default=None, doc="trump and NT: the tricks the role must take")
    limit: int | None = field(default=None, doc="BL: the tricks the role may take at most")
    points: int = field(default=0, required=True, doc="the deal's points: tricks - target, or limit - tricks")


@declared
class Tally:
    """One deal of the score sheet: the contract, who dealt (the chooser sits on his left), the
    tricks each seat took (16 in all)."""

    contract: Contract
    dealer: Seat
    tricks: Trio = field(doc="the tricks each seat took, 16 in all")


# --------------------------------------------------------------------------- codes


class C(GameCodes, namespace=GAME_ID):
    """Every code 3-5-8 answers (DESIGN 4.4), in the rulebook's Polish: lewa, atut, kolor wyjścia,
    musik, zagrywający (the chooser), rozdający (the dealer), rozgrywka, wymiana kart."""

    round_not_over = ROUND_NOT_OVER
    round_over = ROUND_OVER
    setup_unsupported = SETUP_UNSUPPORTED
    bad_tally = BAD_TALLY
    wrong_phase = illegal(
        Label("Move not allowed in this phase", "Ruch nie w tej fazie"),
        "Ten ruch wykonuje się w fazie „{expected}”, a trwa faza „{got}”.",
        "Each move kind belongs to one phase (choose, exchange, discard, play). Send a move of the current phase.",
        "Każdy rodzaj ruchu należy do jednej fazy (wybór, wymiana, odrzucanie, rozgrywka). Wyślij ruch bieżącej fazy.")
    card_not_in_hand = illegal(
        Label("Card not in hand", "Nie masz tej karty"), "Karty {card} nie ma w twoim ręku.",
        "The card named is not in the seat's hand. Name one of the hand's cards.",
        "Wskazanej karty nie ma w ręku gracza. Wskaż jedną z kart z ręki.")
    must_follow_suit = illegal(
        Label("Must follow suit", "Obowiązek dorzucania do koloru"),
        "Masz karty w kolorze wyjścia: musisz dorzucić w tym kolorze, nie {card}.",
        "A player holding the led suit must play a card of it.",
        "Gracz, który ma karty w kolorze wyjścia, musi dorzucić kartę w tym kolorze.")
    must_trump = illegal(
        Label("Must trump", "Obowiązek przebicia atutem"),
        "Nie masz koloru wyjścia, ale masz atuty: musisz przebić atutem, nie {card}.",
        "With `must_trump`, a player without the led suit who holds trumps must play one.",
        "Przy opcji `must_trump` gracz bez koloru wyjścia, który ma atuty, musi zagrać atut.")
    contract_used = illegal(
        Label("Contract already played", "Ta rozgrywka już była"),
        "Zagrywający {seat} grał już rozgrywkę {got}; każdą wybiera się raz w grze.",
        "Each player chooses each of the six contracts once in the game. Choose one not played yet.",
        "Każdy gracz wybiera każdą z sześciu rozgrywek raz w grze. Wybierz taką, której jeszcze nie grał.")
    discard_trump = illegal(
        Label("Trumps may not be discarded", "Nie wolno odrzucać atutów"),
        "Karta {card} to atut; przy tej opcji zagrywający nie odrzuca atutów.",
        "With `discard_trumps` off, the chooser may not lay a trump aside. Discard another card.",
        "Przy wyłączonej opcji `discard_trumps` zagrywający nie odrzuca atutów. Odrzuć inną kartę.")
    not_a_minus_player = illegal(
        Label("Not a minus player", "Gracz nie jest na minusie"),
        "Gracz {seat} nie miał punktów ujemnych w poprzedniej rozgrywce: wymienia się karty tylko z graczami na "
        "minusie.",
        "Cards are exchanged only with players who scored minus points in the previous deal.",
        "Karty wymienia się tylko z graczami, którzy mieli punkty ujemne w poprzedniej rozgrywce.")
    exchange_limit = illegal(
        Label("No exchange left", "Wyczerpany limit wymiany"),
        "Z graczem {seat} nie możesz już wymienić karty (1 punkt = 1 karta).",
        "One card is exchanged per point (option `exchange_limit`); this exchange is used up.",
        "Wymienia się jedną kartę za punkt (opcja `exchange_limit`); ta wymiana jest wyczerpana.")
    trump_offered = illegal(
        Label("Trumps may not be exchanged", "Nie wymienia się atutów"),
        "Karta {card} to atut: nie można wymieniać kart w kolorze atutowym.",
        "Trump cards may not be offered in the exchange. Offer a card of another suit.",
        "W wymianie nie oferuje się atutów. Zaproponuj kartę innego koloru.")
    tricks_sum = invalid(
        Label("Tricks do not add up", "Lewy się nie sumują"), "W rozgrywce jest {expected} lew, a zapis podaje {got}.",
        "A deal has 16 tricks: the tally's three counts must add up to 16.",
        "Rozgrywka ma 16 lew: trzy liczby w zapisie muszą dać razem 16.")
    card_conservation = invalid(
        Label("Cards not conserved", "Karty się nie zgadzają"),
        "W rozdaniu są 52 karty, każda raz; w tym stanie jakichś brakuje lub się powtarzają.",
        "The 52 cards are each once over hands, musik, discards, the trick and the won piles.",
        "52 karty są każda raz w rękach, musiku, kartach odrzuconych, lewie i wziętych lewach.")
    bad_history = invalid(
        Label("Score sheet does not fit", "Tabela wyników się nie zgadza"),
        "Tabela wyników nie pasuje do numeru rozgrywki albo do lew (suma punktów w rozgrywce to 0).",
        "`history` has one row per finished deal, each what 16 tricks can score in its contract (summing to 0).",
        "`history` ma wiersz na każdą skończoną rozgrywkę, a w nim to, co daje 16 lew w jej rozgrywce (suma 0).")
    bad_phase = invalid(
        Label("Impossible phase", "Niemożliwa faza"), "Faza gry nie pasuje do numeru rozgrywki.",
        "The phase does not fit the deal: `game-over` ends deal 18 only, `round-over` the others.",
        "Faza nie pasuje do rozgrywki: `game-over` kończy tylko rozgrywkę 18, `round-over` pozostałe.")
    bad_dealer = invalid(
        Label("Wrong dealer", "Zły rozdający"),
        "Rozdający zmienia się co rundę zgodnie z ruchem wskazówek zegara; ten się nie zgadza.",
        "The dealer moves one seat clockwise each deal from the first dealer.",
        "Rozdający przesuwa się co rozgrywkę o jedno miejsce zgodnie z ruchem wskazówek zegara.")
    bad_contract = invalid(
        Label("Contract does not fit", "Rozgrywka się nie zgadza"),
        "Rozgrywka nie pasuje do fazy gry albo do tabeli wyników.",
        "`contract` is null exactly while it is chosen, and a finished deal's is the last of `contracts`.",
        "`contract` jest null dokładnie podczas wyboru, a w skończonej rozgrywce to ostatnia z `contracts`.")
    contract_reused = invalid(
        Label("Contract played twice", "Rozgrywka powtórzona"), "Zagrywający wybrał tę samą rozgrywkę drugi raz.",
        "A chooser chooses each contract once in the game; the state repeats one.",
        "Zagrywający wybiera każdą rozgrywkę raz w grze; stan gry jedną powtarza.")
    bad_musik = invalid(
        Label("Impossible musik", "Niemożliwy musik"),
        "Musik to 4 różne karty, które po odkryciu trafiają do zagrywającego.",
        "The musik is 4 different cards, which go to the chooser once revealed.",
        "Musik to 4 różne karty, które po odkryciu trafiają do zagrywającego.")
    bad_discards = invalid(
        Label("Impossible discards", "Niemożliwe karty odrzucone"),
        "Zagrywający odrzuca 4 karty po wzięciu musika; tu liczba odrzuconych się nie zgadza.",
        "The chooser discards 4 cards after taking the musik, before play.",
        "Zagrywający odrzuca 4 karty po wzięciu musika, przed rozgrywką.")
    bad_hand_size = invalid(
        Label("Impossible hand sizes", "Niemożliwa liczba kart w ręku"),
        "Liczba kart w rękach nie pasuje do fazy gry i rozegranych lew.",
        "Each hand holds 16 cards (the chooser 20 less his discards) less the tricks played.",
        "Każda ręka ma 16 kart (zagrywający 20 bez odrzuconych) mniej rozegrane lewy.")
    bad_tricks = invalid(
        Label("Impossible tricks", "Niemożliwe lewy"), "Lewa to 3 karty; wzięte lewy się nie zgadzają.",
        "Won piles hold whole tricks of 3 cards; a finished deal has 16 tricks.",
        "Wzięte lewy to całe lewy po 3 karty; skończona rozgrywka ma 16 lew.")
    bad_trick = invalid(
        Label("Card could not have been played", "Karta nie mogła zostać zagrana"),
        "Gracz {seat} nie mógł dorzucić {card} do tej lewy, mając karty, które ma.",
        "A card of the current or last trick breaks the duty to follow suit (or to trump) given the hand held.",
        "Karta bieżącej lub ostatniej lewy łamie obowiązek dorzucania do koloru (lub przebicia) przy tej ręce.")
    bad_turn = invalid(
        Label("Wrong turn", "Zła kolejność"),
        "Kolejność gry się nie zgadza: lewę zaczyna zagrywający, a potem ten, kto wziął poprzednią.",
        "The leader or the seat to act is not the one play gives (`turn` is derived and checked).",
        "Wychodzący lub gracz na ruchu nie wynika z gry (`turn` wynika ze stanu i jest sprawdzany).")
    bad_exchange = invalid(
        Label("Impossible exchange", "Niemożliwa wymiana kart"),
        "Wymiana kart nie pasuje do punktów z poprzedniej rozgrywki.",
        "The exchange runs only in trump deals from deal 2, between the previous deal's plus and minus players.",
        "Wymiana jest tylko w rozgrywkach atutowych od drugiej, między graczami na plusie i na minusie.")


@event
class MusikRevealedEvent:
    """The musik was shown to all (§3.3): its cards, and the chooser who takes them."""

    type: Literal["musik-revealed"] = "musik-revealed"
    cards: Annotated[Cards, Length(_MUSIK, _MUSIK)] = field(doc="the musik's cards")
    to: Seat = field(doc="the chooser, who takes the musik")


@event
class TrickWonEvent:
    """A trick was completed: the seat that took it and its cards in the order played."""

    type: Literal["trick-won"] = "trick-won"
    seat: Seat = field(doc="the seat that took the trick")
    cards: Annotated[Cards, Length(_PLAYERS, _PLAYERS)] = field(doc="the trick's cards, in the order played")


@event
class DealScoredEvent:
    """The deal ended: each seat's points for it (they sum to 0, §6)."""

    type: Literal["deal-scored"] = "deal-scored"
    scores: Annotated[tuple[Annotated[int, Range(-_TRICKS, _TRICKS)], ...], Length(_PLAYERS, _PLAYERS)] = field(
        doc="per seat, the deal's points")


SPEC = GameSpec(
    id=GAME_ID,
    name="3-5-8 (Trzy-pięć-osiem, Sergeant Major)",
    label=Label("3-5-8", "Trzy-pięć-osiem"),
    players=range(3, 4),
    options=Options,
    state=State,
    moves=(Choose, ExchangeCard, EndExchange, Discard, PlayCard, NextRound),
    phases=phase_labels(Phase, CHOOSE=Label("Choosing the contract", "Wybór rozgrywki"),
                        EXCHANGE=Label("Card exchange", "Wymiana kart"), DISCARD=Label("Discarding", "Odrzucanie kart"),
                        ROUND_OVER=Label("Deal over", "Koniec rozdania")),
    codes=C,
    breakdown=Breakdown,
    tally=Tally,
    terms={
        "H": Label("Hearts", "Kier"), "S": Label("Spades", "Pik"), "D": Label("Diamonds", "Karo"),
        "C": Label("Clubs", "Trefl"), "NT": Label("No trump", "Bez atu"), "BL": Label("No tricks", "Bez lew"),
        "chooser": Label("Chooser", "Zagrywający"), "third": Label("Third", "Trzeci"),
        "dealer": Label("Dealer", "Rozdający"), "musik": Label("Musik", "Musik"),
        "discards": Label("Discards", "Karty odrzucone"), "role": Label("Role", "Rola"),
        "contract": Label("Contract", "Rozgrywka"), "tricks": Label("Tricks", "Lewy"),
        "target": Label("Target", "Cel"), "limit": Label("Limit", "Limit"),
        "contracts_used": Label("Contracts played", "Rozegrane rozgrywki"), "points": Label("Points", "Punkty"),
        "round": Label("Deal", "Rozdanie"), "trick": Label("Trick", "Lewa"), "last_trick": Label("Last trick", "Ostatnia lewa"),
        "won": Label("Tricks taken", "Wzięte lewy"), "took_it": Label("took it", "bierze lewę"),
        "cards": Label("Cards", "Karty"),
        # the log's sentences (service/static/play/log.js fills the {names})
        "move:choose": Label("{seat} chose {contract}", "{seat} wybiera: {contract}"),
        "move:exchange": Label("{seat} gave a card to {to}", "{seat} oddaje kartę: {to}"),
        "move:end-exchange": Label("{seat} ended the exchange", "{seat} kończy wymianę"),
        "move:discard": Label("{seat} discarded a card", "{seat} odrzuca kartę"),
        "move:play": Label("{seat} played {card}", "{seat} zagrywa {card}"),
        "move:next-round": Label("{seat} dealt the next deal", "{seat} rozdaje następne rozdanie"),
        "next-round": Label("Next deal", "Następne rozdanie"),
        "event:musik-revealed": Label("{to} takes the musik", "{to} bierze musik"),
        "event:trick-won": Label("{seat} took the trick", "{seat} bierze lewę"),
        "event:deal-scored": Label("The deal scored {scores}", "Wynik rozdania: {scores}"),
    },
    tally_example={"contract": "BL", "dealer": 0, "tricks": [8, 5, 3]},
    events=(MusikRevealedEvent, TrickWonEvent, DealScoredEvent),
)


# --------------------------------------------------------------------------- engine


class ThreeFiveEight(BaseEngine[State, Move]):
    spec = SPEC

    # -- creation ------------------------------------------------------------------

    def new_game(self, players: int, rng: Rng, options: Options, setup: None = None) -> State:
        if options.first_dealer == "random":
            dealer, rng = rng.randbelow(_PLAYERS)
        else:
            dealer = int(options.first_dealer)
        empty = ((), (), ())
        blank = State(_PLAYERS, options, 1, dealer, Phase.CHOOSE, None, None, empty, (), (), 0, (), (), empty, None,
                      (), (), rng)
        return self._with_turn(_deal(blank, 1, dealer))

    # -- turn ----------------------------------------------------------------------

    def to_act(self, state: State) -> frozenset[int]:
        phase = state.phase
        if phase is Phase.PLAY:
            return frozenset(((state.leader + len(state.trick)) % _PLAYERS,))
        if phase is Phase.CHOOSE or phase is Phase.DISCARD:
            return frozenset((state.chooser,))
        if phase is Phase.EXCHANGE:
            return frozenset((state.exchange.queue[0],))  # type: ignore[union-attr]
        if phase is Phase.ROUND_OVER:
            return frozenset(range(_PLAYERS))
        return frozenset()

    def _with_turn(self, state: State) -> State:
        """DESIGN 4.5: ``turn`` is the one seat to act, or null when all three (next-round) or none act."""
        turn = _turn(self, state)
        return state if turn == state.turn else replace(state, turn=turn)

    # -- legality --------------------------------------------------------------------

    def legal_moves(self, state: State, seat: int) -> Sequence[Move]:
        if seat not in self.to_act(state):
            return ()
        phase = state.phase
        if phase is Phase.PLAY:
            return tuple(PlayCard(c) for c in playable(state.hands[seat], state.trick, _trick_rules(state)))
        if phase is Phase.CHOOSE:
            return tuple(Choose(c) for c in _free_contracts(state, seat))
        if phase is Phase.DISCARD:
            return tuple(Discard(c) for c in _discardable(state))
        if phase is Phase.EXCHANGE:
            offers = _offerable(state)
            return (*(ExchangeCard(to, c) for to in _exchange_partners(state) for c in offers), EndExchange())
        return (NextRound(),)

    def check(self, state: State, seat: int, move: Move) -> None:
        self.check_turn(state, seat)
        phase = state.phase
        if (
            move.__class__ is PlayCard and phase is Phase.PLAY
            and move.card in playable(state.hands[seat], state.trick, _trick_rules(state))
        ):
            return  # a playable card passes every check below (it is in the hand): no messages made
        if isinstance(move, NextRound):
            if phase is not Phase.ROUND_OVER:
                raise C.round_not_over(f"'next-round' is allowed only when a deal is over; the phase is "
                                       f"{phase.value!r}", round=state.round)
            return
        if phase is Phase.ROUND_OVER:
            raise C.round_over(f"deal {state.round} is over: the only move is next-round, got {move.kind!r}",
                               round=state.round)
        if isinstance(move, PlayCard):
            _require_phase(state, Phase.PLAY, move)
            check_play(C, state.hands[seat], state.trick, move.card, _trick_rules(state))
        elif isinstance(move, Choose):
            _require_phase(state, Phase.CHOOSE, move)
            # §3.2: "from the contracts they have not yet chosen in this game"
            if move.contract not in _free_contracts(state, seat):
                raise C.contract_used(f"seat {seat} has already played contract {move.contract.value!r}; still free: "
                                      f"{[c.value for c in _free_contracts(state, seat)]}", seat=seat,
                                      got=move.contract.value)
        elif isinstance(move, Discard):
            _require_phase(state, Phase.DISCARD, move)
            _require_in_hand(state, seat, move.card)
            # §3.4 (option): trumps may be discarded unless discard_trumps is off
            if move.card not in _discardable(state):
                raise C.discard_trump(f"{move.card} is a trump: with discard_trumps off, trumps may not be discarded",
                                      card=str(move.card))
        elif isinstance(move, ExchangeCard):
            _require_phase(state, Phase.EXCHANGE, move)
            _check_exchange(state, seat, move)
        else:  # EndExchange
            _require_phase(state, Phase.EXCHANGE, move)

    # -- transitions -----------------------------------------------------------------

    def _apply(self, state: State, seat: int, move: Move) -> State:
        return self._with_turn(self._next(state, seat, move))

    def _next(self, state: State, seat: int, move: Move) -> State:
        if isinstance(move, PlayCard):
            return _play(state, seat, move.card)
        if isinstance(move, Choose):
            chosen = replace(state, contract=move.contract,
                             hands=_set_hand(state.hands, seat, _sorted(state.hands[seat])))
            if state.options.exchange_timing == "before-musik":
                return _start_exchange(chosen, then=_reveal_musik)
            return _reveal_musik(chosen)
        if isinstance(move, Discard):
            hand = tuple(c for c in state.hands[seat] if c != move.card)
            out = replace(state, hands=_set_hand(state.hands, seat, hand), discards=(*state.discards, move.card))
            if len(out.discards) < _MUSIK:
                return out
            if state.options.exchange_timing == "after-discard":
                return _start_exchange(out, then=_start_play)
            return _start_play(out)
        if isinstance(move, ExchangeCard):
            return _exchange_step(state, seat, move)
        if isinstance(move, EndExchange):
            return _next_exchanger(state)
        # NextRound: §1 "the dealer moves one seat clockwise after each deal"
        return _deal(state, state.round + 1, next_seat(state.dealer, _PLAYERS))

    # -- scores ------------------------------------------------------------------------

    def scores(self, state: State) -> ScoreReport:
        over = self.round_over(state)
        done = _records(state)
        contract: Contract | None
        if over:
            rec = done[-1]
            rnd, tricks, contract = rec.scores, rec.tricks, rec.contract
        else:
            tricks = _trick_counts(state)
            contract = state.contract
            rnd = _deal_scores(contract, state.dealer, tricks) if contract else (0, 0, 0)
        totals = tuple(sum(r.scores[s] for r in done) for s in range(_PLAYERS))  # finished deals only
        breakdown = tuple(_seat_breakdown(state.dealer, contract, s, tricks[s], rnd[s], done) for s in range(_PLAYERS))
        out = self.outcome(state)
        earlier = state.history[:-1] if over else state.history
        return ScoreReport(rnd, totals, breakdown, over, out.winners if out else (), round=state.round,
                           history=earlier)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase is not Phase.GAME_OVER:
            return None
        totals = tuple(sum(r[s] for r in state.history) for s in range(_PLAYERS))
        best = max(totals)
        top = tuple(s for s in range(_PLAYERS) if totals[s] == best)
        if len(top) > 1 and state.options.tie == "draw":
            return Outcome((), f"{len(top)} players tied on {best} after {_DEALS} deals", draw=True, points=totals)
        reason = f"highest total after {_DEALS} deals: {best}" + (" (shared)" if len(top) > 1 else "")
        return Outcome(top, reason, points=totals)

    def tally_scores(self, tally: Tally) -> ScoreReport:
        """Scores of one deal from its sheet: ``{"contract", "dealer", "tricks": [3 counts]}``
        (docs/rules/3-5-8.md §7), read by its declared shape."""
        tricks = tally.tricks
        if sum(tricks) != _TRICKS:
            raise C.tricks_sum(f"a deal has 16 tricks; the tally's tricks {list(tricks)} sum to {sum(tricks)}",
                               expected=_TRICKS, got=sum(tricks))
        rnd = _deal_scores(tally.contract, tally.dealer, tricks)
        assert sum(rnd) == 0, f"3-5-8 deal scores must sum to 0, got {rnd}"  # §6 invariant
        record = DealRecord(tally.dealer, tally.contract, tricks, rnd)  # type: ignore[arg-type]
        breakdown = tuple(_seat_breakdown(tally.dealer, tally.contract, s, tricks[s], rnd[s], (record,))
                          for s in range(_PLAYERS))
        return ScoreReport(rnd, rnd, breakdown, True, round=1)

    # -- views and events -----------------------------------------------------------

    def view(self, state: State, seat: int | None) -> Json:
        """The declared view (hands: own, hand_sizes; musik null until revealed, with musik_size;
        discards null but for the chooser; won piles null with won_sizes and tricks_won), and the
        chooser, while he chooses, sees only his first 6 cards (§3.2)."""
        data = as_object(super().view(state, seat))
        if seat == state.chooser and state.phase is Phase.CHOOSE:
            cast("list[Json]", data["hands"])[seat] = cast("Json", card_strs(state.hands[seat][:_FIRST_SEEN]))
        return data

    def move_view(self, move: Move, actor: int, viewer: int | None) -> Json | None:
        if isinstance(move, Discard) and viewer != actor:
            return {"kind": "discard"}
        if isinstance(move, ExchangeCard) and viewer not in (actor, move.to):
            return {"kind": "exchange", "to": move.to}
        shown: Json = self.move_to_json(move)
        return shown

    def emit(self, before: State, seat: int, move: Move, after: State) -> list[Any]:
        out = super().emit(before, seat, move, after)
        if _musik_revealed(after) and not _musik_revealed(before) and after.round == before.round:
            out.append(MusikRevealedEvent(cards=after.musik, to=after.chooser))
        if isinstance(move, PlayCard) and len(before.trick) == _PLAYERS - 1:
            plays = after.last_trick
            out.append(TrickWonEvent(seat=trick_winner(plays, before.contract.trump),  # type: ignore[union-attr]
                                     cards=tuple(p.card for p in plays)))
        if self.round_over(after) and not self.round_over(before):
            out.append(DealScoredEvent(scores=after.history[-1]))
        return out

    # -- meaning ---------------------------------------------------------------------

    def check_state(self, state: State) -> State:
        """States no play reaches are refused (§9); ``turn`` must be the one play gives."""
        _check_state(state)
        derived = _turn(self, state)
        if state.turn != derived:
            def who(seat: int | None) -> str:
                return "null (no single seat)" if seat is None else f"seat {seat}"
            raise C.bad_turn(f"turn is {who(state.turn)}, but in this position {who(derived)} is to act",
                             got=who(state.turn), expected=who(derived))
        return state


# --------------------------------------------------------------------------- helpers: rules


def _sorted(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_CARD_KEYS.__getitem__))


class _CardKeys(dict[Card, tuple[str, int]]):
    """card -> ``_card_key(card)``, each made once."""

    def __missing__(self, card: Card) -> tuple[str, int]:
        key = self[card] = _card_key(card)
        return key


_CARD_KEYS = _CardKeys()


def _card_key(card: Card) -> tuple[str, int]:
    return (card.suit.value, card.rank)  # type: ignore[union-attr]


def _set_hand(hands: tuple[tuple[Card, ...], ...], seat: int, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    if 0 <= seat < len(hands):
        return hands[:seat] + (hand,) + hands[seat + 1:]
    return tuple(hand if s == seat else h for s, h in enumerate(hands))


def _role(dealer: int, seat: int) -> int:
    """0 chooser, 1 third, 2 dealer (§2)."""
    return (seat - dealer - 1) % _PLAYERS


def _deal_scores(contract: Contract, dealer: int, tricks: Sequence[int]) -> tuple[int, int, int]:
    """§6: trump and NT ``tricks - target``; BL ``limit - tricks``. A whole deal sums to 0."""
    if contract is Contract.NO_TRICKS:
        return tuple(_BL_LIMITS[_role(dealer, s)] - tricks[s] for s in range(_PLAYERS))  # type: ignore[return-value]
    return tuple(tricks[s] - _TARGETS[_role(dealer, s)] for s in range(_PLAYERS))  # type: ignore[return-value]


def _trick_counts(state: State) -> tuple[int, int, int]:
    return tuple(len(w) // _PLAYERS for w in state.won)  # type: ignore[return-value]


def _records(state: State) -> tuple[DealRecord, ...]:
    """The score sheet from ``history`` (points per seat of each finished deal) and ``contracts``:
    the dealers rotate back from this deal's, and the tricks follow from the points (§6:
    ``tricks - target`` or ``limit - tricks``)."""
    out = []
    for i, (scores, contract) in enumerate(zip(state.history, state.contracts, strict=False)):
        dealer = (state.dealer - (state.round - 1 - i)) % _PLAYERS
        roles = [_role(dealer, s) for s in range(_PLAYERS)]
        if contract is Contract.NO_TRICKS:
            tricks = tuple(_BL_LIMITS[roles[s]] - scores[s] for s in range(_PLAYERS))
        else:
            tricks = tuple(scores[s] + _TARGETS[roles[s]] for s in range(_PLAYERS))
        out.append(DealRecord(dealer, contract, tricks, scores))  # type: ignore[arg-type]
    return tuple(out)


def _used_contracts(state: State, seat: int) -> set[Contract]:
    used = {contract for i, contract in enumerate(state.contracts)
            if (state.dealer - (state.round - 1 - i) + 1) % _PLAYERS == seat}  # the chooser of deal i + 1
    if state.contract is not None and state.chooser == seat and state.phase not in _OVER:
        used.add(state.contract)
    return used


def _free_contracts(state: State, seat: int) -> tuple[Contract, ...]:
    used = _used_contracts(state, seat)
    return tuple(c for c in Contract if c not in used)


def _trick_rules(state: State) -> TrickRules:
    key = (state.contract.trump, state.options.must_trump)  # type: ignore[union-attr]
    rules = _TRICK_RULES.get(key)
    if rules is None:
        rules = _TRICK_RULES[key] = TrickRules(trump=key[0], must_trump=key[1])
    return rules


_TRICK_RULES: dict[tuple[Suit | None, bool], TrickRules] = {}  # made once per trump and duty to trump


def _musik_revealed(state: State) -> bool:
    if state.phase is Phase.CHOOSE:
        return False
    return not (state.phase is Phase.EXCHANGE and state.options.exchange_timing == "before-musik")


def _discardable(state: State) -> tuple[Card, ...]:
    hand = state.hands[state.chooser]
    trump = state.contract.trump  # type: ignore[union-attr]
    if state.options.discard_trumps or trump is None:
        return hand
    return tuple(c for c in hand if c.suit is not trump)


def _require_phase(state: State, phase: Phase, move: Move) -> None:
    if state.phase is not phase:
        raise C.wrong_phase(f"{move.kind!r} is played in the {phase.value!r} phase; the phase is "
                            f"{state.phase.value!r}", expected=phase.value, got=state.phase.value)


def _require_in_hand(state: State, seat: int, card: Card) -> None:
    if card not in state.hands[seat]:
        raise C.card_not_in_hand(f"{card} is not in seat {seat}'s hand", card=str(card))


# -- the exchange (§8)


def _previous_scores(state: State) -> tuple[int, int, int]:
    return state.history[-1] if state.history else (0, 0, 0)  # type: ignore[return-value]


def _exchange_partners(state: State) -> tuple[int, ...]:
    """Minus players the current exchanger may still exchange with (§8, ruling 8.1)."""
    ex = state.exchange
    seat = ex.queue[0]  # type: ignore[union-attr]
    prev = _previous_scores(state)
    if sum(ex.steps) >= prev[seat]:  # type: ignore[union-attr]
        return ()
    per_opponent = state.options.exchange_limit == "per-opponent"
    return tuple(m for m in range(_PLAYERS)
                 if prev[m] < 0 and (not per_opponent or ex.steps[m] < -prev[m]))  # type: ignore[union-attr]


def _offerable(state: State) -> tuple[Card, ...]:
    """§8: "trump cards may not be offered"."""
    trump = state.contract.trump  # type: ignore[union-attr]
    return tuple(c for c in state.hands[state.exchange.queue[0]] if c.suit is not trump)  # type: ignore[union-attr]


def _check_exchange(state: State, seat: int, move: ExchangeCard) -> None:
    prev = _previous_scores(state)
    if prev[move.to] >= 0:
        raise C.not_a_minus_player(f"seat {move.to} scored {prev[move.to]:+d} in the previous deal: only minus players "
                                   "receive exchanges", seat=move.to)
    if move.to not in _exchange_partners(state):
        raise C.exchange_limit(f"seat {seat} has no exchange left with seat {move.to} (plus {prev[seat]}, minus "
                               f"{prev[move.to]}, steps made {list(state.exchange.steps)})",  # type: ignore[union-attr]
                               seat=move.to)
    _require_in_hand(state, seat, move.card)
    if move.card not in _offerable(state):
        raise C.trump_offered(f"{move.card} is a trump ({state.contract.trump.sign}): trump cards may not be offered",  # type: ignore[union-attr]
                              card=str(move.card))


def _start_exchange(state: State, then: Callable[[State], State]) -> State:
    """§8: trump contracts only, from deal 2; plus players in order of current target."""
    prev = _previous_scores(state)
    if not (state.options.exchange and state.contract.trump is not None and state.history  # type: ignore[union-attr]
            and any(p < 0 for p in prev)):
        return then(state)
    order = sorted((s for s in range(_PLAYERS) if prev[s] > 0), key=lambda s: _role(state.dealer, s))
    return _advance_exchange(replace(state, phase=Phase.EXCHANGE, exchange=Exchange(tuple(order))))


def _advance_exchange(state: State) -> State:
    """Skip exchangers with nothing left to offer; leave the phase when none is left."""
    while state.exchange.queue and not (_exchange_partners(state) and _offerable(state)):  # type: ignore[union-attr]
        state = replace(state, exchange=Exchange(state.exchange.queue[1:]))  # type: ignore[union-attr]
    if state.exchange.queue:  # type: ignore[union-attr]
        return state
    done = replace(state, exchange=None)
    return _reveal_musik(done) if state.options.exchange_timing == "before-musik" else _start_play(done)


def _next_exchanger(state: State) -> State:
    return _advance_exchange(replace(state, exchange=Exchange(state.exchange.queue[1:])))  # type: ignore[union-attr]


def _exchange_step(state: State, seat: int, move: ExchangeCard) -> State:
    """The receiver returns the highest card of the suit he now holds, counting the one received."""
    given, to = move.card, move.to
    receiver = (*state.hands[to], given)
    back = max((c for c in receiver if c.suit is given.suit), key=lambda c: c.rank)
    hands = state.hands
    if back != given:
        hands = _set_hand(hands, seat, _sorted([back, *(c for c in hands[seat] if c != given)]))
        hands = _set_hand(hands, to, _sorted([given, *(c for c in hands[to] if c != back)]))
    steps = tuple(n + (s == to) for s, n in enumerate(state.exchange.steps))  # type: ignore[union-attr]
    return _advance_exchange(replace(state, hands=hands,
                                     exchange=Exchange(state.exchange.queue, steps)))  # type: ignore[union-attr]


# -- the deal


def _deal(state: State, number: int, dealer: int) -> State:
    """§3.1: 16 cards each, 4 to the musik. The chooser's hand stays in deal order."""
    cards, rng = state.rng.shuffle(_DECK)
    hands = tuple(cards[i * _HAND:(i + 1) * _HAND] for i in range(_PLAYERS))
    chooser = (dealer + 1) % _PLAYERS
    hands = tuple(h if s == chooser else _sorted(h) for s, h in enumerate(hands))
    return replace(
        state, round=number, dealer=dealer, phase=Phase.CHOOSE, contract=None, hands=hands,
        musik=_sorted(cards[_PLAYERS * _HAND:]), discards=(), leader=chooser, trick=(), last_trick=(),
        won=((), (), ()), exchange=None, rng=rng,
    )


def _reveal_musik(state: State) -> State:
    """§3.4: the musik is shown to all and goes to the chooser."""
    c = state.chooser
    return replace(state, phase=Phase.DISCARD, hands=_set_hand(state.hands, c, _sorted((*state.hands[c], *state.musik))))


def _start_play(state: State) -> State:
    """§3.5: the chooser leads the first trick."""
    return replace(state, phase=Phase.PLAY, leader=state.chooser, trick=())


def _play(state: State, seat: int, card: Card) -> State:
    held = state.hands[seat]
    i = held.index(card)
    hand = held[:i] + held[i + 1:]
    if card in hand:  # never in a legal state (one pack): every copy goes, as always
        hand = tuple(c for c in held if c != card)
    hands = _set_hand(state.hands, seat, hand)
    trick = (*state.trick, Played(seat, card))
    if len(trick) < _PLAYERS:
        return replace(state, hands=hands, trick=trick)
    winner = trick_winner(trick, state.contract.trump)  # type: ignore[union-attr]
    won = tuple((*w, *(p.card for p in trick)) if s == winner else w for s, w in enumerate(state.won))
    out = replace(state, hands=hands, trick=(), last_trick=trick, leader=winner, won=won)
    if hands[0]:
        return out
    tricks = _trick_counts(out)
    scores = _deal_scores(state.contract, state.dealer, tricks)  # type: ignore[arg-type]
    assert sum(scores) == 0, f"3-5-8 deal scores must sum to 0, got {scores}"  # §6 invariant
    phase = Phase.GAME_OVER if state.round == _DEALS else Phase.ROUND_OVER
    return replace(out, phase=phase, history=(*state.history, scores), contracts=(*state.contracts, state.contract))


def _seat_breakdown(dealer: int, contract: Contract | None, seat: int, tricks: int, score: int,
                    done: Sequence[DealRecord]) -> Breakdown:
    role = _role(dealer, seat)
    bl = contract is Contract.NO_TRICKS
    return Breakdown(role=_ROLES[role], contract=contract, tricks=tricks,  # type: ignore[arg-type]
                     contracts_used=tuple(sorted((r.contract for r in done if r.chooser == seat), key=_BY_VALUE)),
                     target=None if bl else _TARGETS[role], limit=_BL_LIMITS[role] if bl else None, points=score)


def _BY_VALUE(contract: Contract) -> str:  # noqa: N802  # a sort key
    return contract.value


# --------------------------------------------------------------------------- meaning


def _turn(engine: ThreeFiveEight, state: State) -> int | None:
    """DESIGN 4.5: the one seat to act, or ``None`` when all three (next-round) or none act."""
    acting = engine.to_act(state)
    return next(iter(acting)) if len(acting) == 1 else None


def _check_shown_plays(s: State) -> None:
    """The tricks on the table (the current one and the last) were played legally from the hands
    the seats held then: the hand now plus the cards each seat has played since (§5). A seat
    that showed a void cannot hold that suit now."""
    rules = _trick_rules(s)
    hands = [list(h) for h in s.hands]
    shown = []
    for trick in (s.trick, s.last_trick):
        for p in trick:
            hands[p.seat].append(p.card)
        shown.append((trick, [tuple(h) for h in hands]))
    for trick, held in shown:
        for i, p in enumerate(trick):
            if p.card not in playable(held[p.seat], trick[:i], rules):
                raise C.bad_trick(f"seat {p.seat} could not play {p.card} to the trick {[str(q.card) for q in trick]} "
                                  "holding the cards it holds", seat=p.seat, card=str(p.card))


def _check_state(s: State) -> None:
    """Meaning: 52 cards once each, sizes that fit the phase, a consistent turn and score sheet."""
    phase = s.phase
    over = phase in _OVER
    if len(s.history) != len(s.contracts):
        raise C.bad_state(f"history and contracts have one entry per finished deal, got {len(s.history)} and "
                          f"{len(s.contracts)}", field="contracts")
    records = _records(s)
    for i, r in enumerate(records):
        if any(not 0 <= t <= _TRICKS for t in r.tricks):
            raise C.bad_history(f"deal {i + 1} ({r.contract.value}): points {list(r.scores)} need tricks "
                                f"{list(r.tricks)}, outside 0..16")
    # -- the score sheet (§6): dealers rotate, contracts once per chooser, scores follow from tricks
    finished = s.round if over else s.round - 1
    if len(s.history) != finished:
        raise C.bad_history(f"deal {s.round} in phase {phase.value!r} needs {finished} finished deal(s) "
                                  f"in history, got {len(s.history)}")
    if phase is Phase.GAME_OVER and s.round != _DEALS:
        raise C.bad_phase(f"the game ends after deal {_DEALS}, not deal {s.round}")
    if phase is Phase.ROUND_OVER and s.round == _DEALS:
        raise C.bad_phase(f"deal {_DEALS} is the last: its end is 'game-over', not 'round-over'")
    if s.options.first_dealer != "random" and (s.dealer - s.round + 1) % 3 != s.options.first_dealer:
        raise C.bad_dealer(f"first_dealer {s.options.first_dealer} makes the dealer of deal {s.round} "
                                 f"seat {(s.options.first_dealer + s.round - 1) % 3}, not {s.dealer}")
    used: list[set[Contract]] = [set(), set(), set()]
    for i, r in enumerate(records):
        dealer = (s.dealer - (s.round - 1 - i)) % _PLAYERS
        if r.dealer != dealer:
            raise C.bad_history(f"deal {i + 1} was dealt by seat {dealer} (the dealer rotates), not {r.dealer}")
        if r.contract in used[r.chooser]:
            raise C.contract_reused(f"seat {r.chooser} chose {r.contract.value!r} twice (deal {i + 1})")
        used[r.chooser].add(r.contract)
        if sum(r.tricks) != _TRICKS or r.scores != _deal_scores(r.contract, r.dealer, r.tricks):
            raise C.bad_history(f"deal {i + 1}: tricks {list(r.tricks)} in {r.contract.value} give "
                                      f"{list(_deal_scores(r.contract, r.dealer, r.tricks))}, not {list(r.scores)}")
    # -- the contract
    if (phase is Phase.CHOOSE) != (s.contract is None):
        named = f"contract {s.contract.value!r}" if s.contract else "no contract"
        raise C.bad_contract(f"phase {phase.value!r} with {named}")
    if s.contract is not None and not over and s.contract in used[s.chooser]:
        raise C.contract_reused(f"seat {s.chooser} has already played {s.contract.value!r}")
    if over and s.contract is not records[-1].contract:
        raise C.bad_contract("the finished deal's contract differs from the state's")
    if over and records[-1].tricks != _trick_counts(s):
        raise C.bad_history(f"the finished deal's tricks {list(records[-1].tricks)} differ from the "
                                  f"won piles ({list(_trick_counts(s))} tricks)")
    # -- conservation: 52 cards, each once (§9)
    revealed = _musik_revealed(s)
    cards = [c for h in s.hands for c in h] + list(s.discards) + [p.card for p in s.trick] + [c for w in s.won for c in w]
    if not revealed:
        cards += s.musik
    if len(cards) != len(_DECK) or set(cards) != _DECK_SET:
        missing, extra = missing_and_extra(cards, _DECK)
        raise C.card_conservation(f"a 3-5-8 deal holds the 52 cards once each; missing {card_strs(missing)}, "
                                          f"extra or repeated {card_strs(extra)}")
    if len(s.musik) != _MUSIK or len(set(s.musik)) != _MUSIK:
        raise C.bad_musik(f"the musik has 4 different cards, got {card_strs(s.musik)}")
    if revealed and s.options.exchange_timing == "before-musik" and any(
            set(s.musik) & set(h) for x, h in enumerate(s.hands) if x != s.chooser):
        raise C.bad_musik("the musik went to the chooser: no other hand holds a musik card")
    # -- sizes that fit the phase
    sizes = [len(h) for h in s.hands]
    c = s.chooser
    if phase in (Phase.CHOOSE, Phase.EXCHANGE, Phase.DISCARD):
        if s.trick or s.last_trick or any(s.won):
            raise C.bad_phase(f"no trick is played before the 'play' phase (phase {phase.value!r})")
        if s.leader != c:
            raise C.bad_turn(f"the chooser (seat {c}) leads the first trick, not seat {s.leader}")
        want = [_HAND] * 3
        if phase is Phase.DISCARD:
            want[c] = _HAND + _MUSIK - len(s.discards)
            if len(s.discards) >= _MUSIK or not set(s.musik) <= set(s.hands[c]) | set(s.discards):
                raise C.bad_discards("during the discard the musik is in the chooser's hand or discards "
                                           "and fewer than 4 cards are discarded")
        elif revealed != bool(s.discards) or (revealed and len(s.discards) != _MUSIK):
            raise C.bad_discards(f"phase {phase.value!r} with {len(s.discards)} discard(s)")
        if sizes != want:
            raise C.bad_hand_size(f"in phase {phase.value!r} the hands hold {want} cards, got {sizes}")
    else:
        if len(s.discards) != _MUSIK:
            raise C.bad_discards(f"the chooser discards 4 cards before play, got {len(s.discards)}")
        if any(len(w) % _PLAYERS for w in s.won):
            raise C.bad_tricks("won piles hold whole tricks of 3 cards")
        done = sum(len(w) for w in s.won) // _PLAYERS
        if over and (done != _TRICKS or s.trick):
            raise C.bad_tricks(f"a finished deal has 16 tricks, got {done}")
        if len(s.trick) >= _PLAYERS or any(p.seat != (s.leader + i) % 3 for i, p in enumerate(s.trick)):
            raise C.bad_turn(f"the trick {[(p.seat, str(p.card)) for p in s.trick]} is not played clockwise "
                                   f"from the leader {s.leader}")
        played = {p.seat for p in s.trick}
        want = [_HAND - done - (seat in played) for seat in range(_PLAYERS)]
        if sizes != want:
            raise C.bad_hand_size(f"after {done} trick(s) the hands hold {want} cards, got {sizes}")
        if s.last_trick:
            lt = s.last_trick
            if len(lt) != _PLAYERS or len({p.seat for p in lt}) != _PLAYERS or done == 0 or \
                    trick_winner(lt, s.contract.trump) != s.leader:  # type: ignore[union-attr]
                raise C.bad_turn("the last trick's winner leads the next trick")
        elif done:
            raise C.bad_turn("a trick has been played but last_trick is empty")
        elif s.leader != c:
            raise C.bad_turn(f"the chooser (seat {c}) leads the first trick, not seat {s.leader}")
        if s.last_trick and not {p.card for p in s.last_trick} <= {x for w in s.won for x in w}:
            raise C.bad_turn("the last trick's cards are in a won pile")
        _check_shown_plays(s)
    # -- the exchange (§8)
    if (phase is Phase.EXCHANGE) != (s.exchange is not None):
        how = "with an exchange in progress" if s.exchange else "without the exchange"
        raise C.bad_exchange(f"phase {phase.value!r} {how}")
    if s.exchange is not None:
        prev = _previous_scores(s)
        order = [x for x in sorted(range(3), key=lambda x: _role(s.dealer, x)) if prev[x] > 0]
        q = list(s.exchange.queue)
        if (not q or q != order[len(order) - len(q):] or not s.options.exchange
                or s.contract.trump is None or not s.history):  # type: ignore[union-attr]
            raise C.bad_exchange(f"exchangers {q} do not fit the previous deal's scores {list(prev)} "
                                       f"(plus players by current target: {order})")
        if s.exchange.steps[q[0]] or sum(s.exchange.steps) > prev[q[0]] or \
                any(n and prev[m] >= 0 for m, n in enumerate(s.exchange.steps)) or \
                (s.options.exchange_limit == "per-opponent"
                 and any(n > -prev[m] for m, n in enumerate(s.exchange.steps) if prev[m] < 0)):
            raise C.bad_exchange(f"exchange steps {list(s.exchange.steps)} exceed the allowances")
        if not (_exchange_partners(s) and _offerable(s)):
            raise C.bad_exchange(f"seat {q[0]} has nothing left to exchange yet is to act")


ENGINE = ThreeFiveEight()
