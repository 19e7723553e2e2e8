"""Kierki, the Polish multi-deal Hearts: negative deals, trump deals and the loteryjka.

The rules as Arbiter applies them, every ruling (KI-1..KI-6) and option with its default and the
rulebook passage it rests on: ``docs/rules/kierki.md``; sections (§) below cite that page.
Following suit and the trick winner come from the shared core :mod:`rules.tricks`.

Deal lists (KI-1, KI-6: a fixed order):

- ``standard``: no tricks, no hearts, no queens, no kings and jacks, no K♥, no 7th and last
  trick, rozbójnik (every penalty at once); then one trump deal per player (+25 a trick) and
  the loteryjka (+800 and +500). A standard match sums to zero.
- ``book6``: the first five, then the book's 6th deal ("no last trick", see ``book6_sixth_deal``),
  optionally rozbójnik (``book6_robber``), then the positive part (``book6_positive``; with
  rozbójnik the book needs two positive rounds: the trump deals and the loteryjka).

Penalties (4 players / 3 players): 20/15 a trick, 20 a heart, 60 a queen, 30 a K or J,
150/140 for K♥, 150/140 for the penalised tricks of the 6th deal (split 75/70 each over two).
With three players the 2♣ is removed and each gets 17 cards (51 cards in play).

Options (name: default; §11):

- ``ruleset``: ``"standard"`` (KI-1; ``"book6"`` the book's six-deal game);
- ``trump_chooser``: ``"dealer-after-5"`` (KI-2 (a): the dealer deals 5 cards each, names trumps
  from his 5, then the rest is dealt; ``"left-of-dealer"`` is (b): that player names, then leads);
- ``no_trump_allowed``: false (naming "no trump" in a trump deal, one implementation's extra);
- ``lottery_start_rank``: 8 (KI-3; 7 as in Fan-tan/Sevens);
- ``lottery``: ``"one"`` (KI-5: one loteryjka at +800/+500, 3 players +790/+485;
  ``"one-per-player"``: one loteryjka per player at +200/+125, 3 players +250/+175);
- ``king_of_hearts_must_drop``: false (KI-4: in the K♥ deal its holder must play it the first
  time he cannot follow suit);
- ``early_end``: true (§4: a negative deal other than "no tricks" and rozbójnik stops once no
  penalty is left; the remaining cards stay in the hands);
- ``score_sign``: ``"penalties-negative"`` (the standard: highest total wins;
  ``"penalties-positive"`` is the book's sheet: all figures negated, lowest total wins);
- ``three_player_trump_trick``: 25 (§5: the book's +25 a trump trick with 3 players; 20 the
  summaries' figure, which does not balance);
- ``book6_sixth_deal``: ``"last"`` (book: 150 for the last trick; ``"last-two"``, ``"3rd-and-7th"``,
  ``"3rd-and-8th"``: 75 for each of two tricks);
- ``book6_robber``: false (book: rozbójnik is optional);
- ``book6_positive``: ``"loteryjka"`` (book6 without rozbójnik: one positive round, the
  loteryjka, or ``"trumps"`` the trump deals, or ``"none"``);
- ``deal_order``: ``"fixed"`` (KI-6: the only choice; players choosing the order is out of scope).

Representation: a move is ``{"kind": "play", "card": "QH"}`` (tricks and the loteryjka),
``{"kind": "name-trump", "suit": "H"}`` (``"NT"`` for no trump), ``{"kind": "pass"}`` (the
loteryjka only, and only with no card to lay), ``{"kind": "next-round"}`` (deals the next
deal from the state's rng). The state, moves, tally and breakdown are declared below
(DESIGN 4.8): reading, writing and views come from the declarations; the engine keeps the rules
and the checks of meaning. A deal's end is phase ``round-over`` (``game-over`` after the last
deal). Points are computed with penalties negative; the state's ``history`` (one row of
per-seat points per finished deal) and every score are kept and shown in the sign of
``score_sign``. Completed tricks are public (leader, cards in play order, winner); hands and the
undealt ``stock`` are hidden (a view gives ``stock: null`` with ``stock_size``).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from functools import cache
from typing import Annotated, Any, ClassVar, Literal

from rules.base import (
    BAD_TALLY,
    ROUND_NOT_OVER,
    ROUND_OVER,
    SEAT_COUNT,
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
from rules.cards import SUITS, Card, Rank, Suit, card_strs, deck, missing_and_extra
from rules.events import event
from rules.shapes import Length, Range, Visibility, computed, declared, field, option, partial
from rules.spec import GameSpec, phase_labels
from rules.tricks import PackCard, Play, TrickRules, check_play, next_seat, playable, trick_winner

GAME_ID = "kierki"

_KING_OF_HEARTS = Card(Rank.KING, Suit.HEARTS)
_TWO_OF_CLUBS = Card(Rank.TWO, Suit.CLUBS)
_FIRST_HAND = 5  # trump naming (a): cards dealt before the dealer names trumps
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_MAX_DEALS = 15  # 7 negative deals + 4 trump deals + 4 loteryjkas
_MAX_POINTS = 10_000


class Deal(Enum):
    NO_TRICKS = "no-tricks"
    NO_HEARTS = "no-hearts"
    NO_QUEENS = "no-queens"
    NO_KINGS_JACKS = "no-kings-jacks"
    NO_KING_OF_HEARTS = "no-king-of-hearts"
    NO_SEVENTH_AND_LAST = "no-seventh-and-last"
    NO_LAST = "no-last"
    ROBBER = "robber"
    TRUMPS = "trumps"
    LOTERYJKA = "loteryjka"


class Phase(Enum):
    NAME_TRUMP = "name-trump"
    PLAY = "play"
    LOTTERY = "lottery"
    ROUND_OVER = "round-over"
    GAME_OVER = "game-over"


class Trump(Enum):
    """What a trump deal is played in: a suit, or no trump (``"NT"``, option ``no_trump_allowed``)."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"
    NO_TRUMP = "NT"


_TRUMP_SUIT: dict[Trump | None, Suit | None] = {Trump.NO_TRUMP: None, None: None}
_TRUMP_SUIT.update({Trump(s.value): s for s in SUITS})
_OVER = (Phase.ROUND_OVER, Phase.GAME_OVER)

_NEGATIVE = (Deal.NO_TRICKS, Deal.NO_HEARTS, Deal.NO_QUEENS, Deal.NO_KINGS_JACKS, Deal.NO_KING_OF_HEARTS)
_PLAYED_OUT = (Deal.NO_TRICKS, Deal.ROBBER, Deal.TRUMPS)  # never stop early
_HEARTS_LEAD_FORBIDDEN = (Deal.NO_HEARTS, Deal.NO_KING_OF_HEARTS, Deal.ROBBER)


# --------------------------------------------------------------------------- shapes

Cards = tuple[PackCard, ...]
Seat = Annotated[int, Range(0, 3)]


@declared
class Options:
    ruleset: Literal["standard", "book6"] = option(
        default="standard",
        description="'standard' (7 negative deals, one trump deal per player, the loteryjka) or 'book6' (the book's "
                    "six negative deals and one positive round) (docs/rules/kierki.md §6, KI-1)",
        label=Label("Deal list", "Lista rozdań"),
        help=Label("Which deals the match plays, in their fixed order.", "Jakie rozdania gra się w partii, w stałej kolejności."),
        choices={"standard": Label("Standard: seven negative deals, trumps, loteryjka",
                                   "Standard: siedem rozdań ujemnych, atuty, loteryjka"),
                 "book6": Label("The book's six negative deals", "Sześć rozdań ujemnych z książki")})
    trump_chooser: Literal["dealer-after-5", "left-of-dealer"] = option(
        default="dealer-after-5",
        description="who names trumps: the dealer after seeing his first 5 cards, or the player left of the dealer, "
                    "who then leads (docs/rules/kierki.md §5, KI-2)",
        label=Label("Who names trumps", "Kto wybiera atut"),
        help=Label("Who names the trump suit in a trump deal.", "Kto w rozdaniu atutowym wybiera kolor atutowy."),
        choices={"dealer-after-5": Label("The dealer, after his first 5 cards", "Rozdający, po pierwszych 5 kartach"),
                 "left-of-dealer": Label("The player left of the dealer", "Gracz po lewej rozdającego")})
    no_trump_allowed: bool = option(
        default=False, description="a trump deal may be played at no trump ('NT') (docs/rules/kierki.md §5)",
        label=Label("No trump allowed", "Dozwolona gra bez atu"),
        help=Label("A trump deal may be played without trumps.", "Rozdanie atutowe można grać bez atu."))
    lottery_start_rank: Literal[8, 7] = option(
        default=8, description="the rank that starts a loteryjka row (docs/rules/kierki.md §5, KI-3)",
        label=Label("Loteryjka start rank", "Karta startowa loteryjki"),
        help=Label("The rank that opens a suit's row in the loteryjka.", "Karta, od której zaczyna się rząd koloru w loteryjce."),
        choices={8: Label("Eight", "Ósemka"), 7: Label("Seven", "Siódemka")})
    lottery: Literal["one", "one-per-player"] = option(
        default="one",
        description="one loteryjka at +800/+500 (3 players +790/+485), or one per player at +200/+125 (3 players "
                    "+250/+175) (docs/rules/kierki.md §5, KI-5)",
        label=Label("Loteryjkas", "Loteryjki"),
        help=Label("How many loteryjkas end the match, and their prizes.", "Ile loteryjek kończy partię i jakie są nagrody."),
        choices={"one": Label("One (+800 / +500)", "Jedna (+800 / +500)"),
                 "one-per-player": Label("One per player (+200 / +125)", "Po jednej na gracza (+200 / +125)")})
    king_of_hearts_must_drop: bool = option(
        default=False, description="in the K♥ deal its holder must play it the first time he cannot follow suit "
                                   "(docs/rules/kierki.md §3.4, KI-4)",
        label=Label("King of hearts must drop", "Obowiązek zrzucenia króla kier"),
        help=Label("In the king-of-hearts deal, its holder must throw it at the first chance.",
                   "W rozdaniu bez króla kier jego posiadacz musi go zrzucić przy pierwszej okazji."))
    early_end: bool = option(
        default=True, description="a negative deal (not 'no tricks' nor rozbójnik) stops once no penalty is left to "
                                  "take (docs/rules/kierki.md §4)",
        label=Label("Early end", "Wcześniejszy koniec rozdania"),
        help=Label("A negative deal stops once no penalty is left to take.",
                   "Rozdanie ujemne kończy się, gdy nie ma już kar do wzięcia."))
    score_sign: Literal["penalties-negative", "penalties-positive"] = option(
        default="penalties-negative",
        description="penalties negative and the highest total wins (standard), or penalties positive and the lowest "
                    "total wins (book) (docs/rules/kierki.md §7)",
        label=Label("Score sign", "Znak punktów"),
        help=Label("How penalties are written on the sheet, and so who wins.", "Jak zapisuje się kary, a więc kto wygrywa."),
        choices={"penalties-negative": Label("Penalties negative: highest total wins",
                                             "Kary ujemne: wygrywa najwyższa suma"),
                 "penalties-positive": Label("Penalties positive: lowest total wins",
                                             "Kary dodatnie: wygrywa najniższa suma")})
    three_player_trump_trick: Literal[25, 20] = option(
        default=25, description="points a trump trick scores with 3 players (25 balances the book's values) "
                                "(docs/rules/kierki.md §5)",
        label=Label("Trump trick, 3 players", "Lewa atutowa, 3 graczy"),
        help=Label("Points for a trick in a trump deal with three players.", "Punkty za lewę w rozdaniu atutowym przy trzech graczach."),
        choices={25: Label("25 points", "25 punktów"), 20: Label("20 points", "20 punktów")})
    book6_sixth_deal: Literal["last", "last-two", "3rd-and-7th", "3rd-and-8th"] = option(
        default="last",
        description="book6: the 6th deal's penalised tricks: the last (150), the last two, the 3rd and 7th, or the "
                    "3rd and 8th (75 each) (docs/rules/kierki.md §6)",
        label=Label("Book: the sixth deal", "Książka: szóste rozdanie"),
        help=Label("Which tricks the book's sixth deal penalises.", "Które lewy karze szóste rozdanie z książki."),
        choices={"last": Label("The last trick", "Ostatnia lewa"), "last-two": Label("The last two tricks", "Dwie ostatnie lewy"),
                 "3rd-and-7th": Label("The 3rd and 7th tricks", "Trzecia i siódma lewa"),
                 "3rd-and-8th": Label("The 3rd and 8th tricks", "Trzecia i ósma lewa")})
    book6_robber: bool = option(
        default=False, description="book6: add rozbójnik as a 7th deal (then both positive rounds are played) "
                                   "(docs/rules/kierki.md §6)",
        label=Label("Book: rozbójnik", "Książka: rozbójnik"),
        help=Label("The book's game adds rozbójnik, then plays trumps and the loteryjka.",
                   "Gra z książki dodaje rozbójnika, a potem atuty i loteryjkę."))
    deal_order: Literal["fixed"] = option(
        default="fixed", description="the negative deals come in a fixed order; letting players choose is out of "
                                     "scope (docs/rules/kierki.md §6, KI-6)",
        label=Label("Deal order", "Kolejność rozdań"),
        help=Label("The deals come in a fixed order.", "Rozdania idą w stałej kolejności."),
        choices={"fixed": Label("Fixed", "Stała")})
    book6_positive: Literal["loteryjka", "trumps", "none"] = option(
        default="loteryjka",
        description="book6 without rozbójnik: the positive round: the loteryjka, the trump deals, or none "
                    "(docs/rules/kierki.md §6)",
        label=Label("Book: the positive round", "Książka: odgrywka"),
        help=Label("What the book's game plays after the negative deals.", "Co gra z książki gra po rozdaniach ujemnych."),
        choices={"loteryjka": Label("The loteryjka", "Loteryjka"), "trumps": Label("Trump deals", "Rozdania atutowe"),
                 "none": Label("None", "Bez odgrywki")})


@declared
class Trick:
    """A completed trick: who led, the cards in play order, who won it."""

    leader: Seat
    cards: Annotated[Cards, Length(3, 4)]
    winner: Seat


@declared
class Row:
    """A loteryjka row: the cards of ``suit`` from ``low`` to ``high`` (ranks, 11 J .. 14 A)."""

    suit: Suit
    low: Annotated[int, Range(2, 14)]
    high: Annotated[int, Range(2, 14)]


@declared
class State:
    players: Annotated[int, Range(3, 4)]
    options: Options
    round: Annotated[int, Range(1, _MAX_DEALS)] = field(doc="the deal being played, 1-based, in the match's deal list")
    contract: Deal = field(doc="this deal's contract (fixed by the deal list and `round`)")
    dealer: Seat = field(doc="the seat that dealt this deal")
    phase: Phase
    hands: Annotated[tuple[Annotated[Cards, Length(0, 17)], ...], Length(3, 4)] = field(
        doc="each seat's hand", visibility=Visibility.OWN, sizes_name="hand_sizes")
    stock: Annotated[Cards, Length(0, 36)] = field(
        doc="cards not yet dealt while the dealer names trumps", visibility=Visibility.HIDDEN)
    trump: Trump | None = field(doc="the trump suit once named ('NT': no trump); null otherwise")
    leader: Seat = field(doc="the seat that led the current trick")
    turn: Seat | None = field(doc="the one seat to act; null once the deal is over")
    trick: Annotated[Cards, Length(0, 3)] = field(doc="the current trick, in play order from `leader`")
    tricks: Annotated[tuple[Trick, ...], Length(0, 17)] = field(doc="the completed tricks of this deal")
    rows: Annotated[tuple[Row, ...], Length(0, 4)] = field(doc="the loteryjka rows, in suit order (C, D, H, S)")
    finished: Annotated[tuple[Seat, ...], Length(0, 2)] = field(doc="loteryjka: the seats out of cards, in order")
    history: Annotated[tuple[Annotated[tuple[Annotated[int, Range(-_MAX_POINTS, _MAX_POINTS)], ...], Length(3, 4)], ...],
                       Length(0, _MAX_DEALS)] = field(
        doc="the points of each finished deal (this one too once it is over), one row per deal, in the sign of "
            "`score_sign`")
    rng: Rng = field(visibility=Visibility.SECRET)

    @computed(view_only=True)
    def deals(self) -> tuple[Deal, ...]:
        """the match's deals in their fixed order (KI-6): a score pad lists them in advance, as a printed one does"""
        return deal_list(self.options, self.players)


@declared
class PlayCard:
    """Play a card to the trick, or lay it in the loteryjka."""

    card: PackCard
    kind: ClassVar[str] = "play"
    label: ClassVar[Label] = Label("Play a card", "Zagraj kartę")


@declared
class NameTrump:
    """Name the trump suit of a trump deal ('NT': no trump, with the option)."""

    suit: Trump
    kind: ClassVar[str] = "name-trump"
    label: ClassVar[Label] = Label("Name trumps", "Wybierz atut")


@declared
class Pass:
    """Pass in the loteryjka (only with no card to lay)."""

    kind: ClassVar[str] = "pass"
    label: ClassVar[Label] = Label("Pass", "Pas")


Move = PlayCard | NameTrump | Pass | NextRound

_Points = int | None


@declared
class Breakdown:
    """One seat's points in one deal, item by item (in the sign of `score_sign`); the items that are
    not part of this deal's contract are left out."""

    contract: Deal = field(doc="the deal's contract")
    tricks: _Points = field(default=None, doc="no tricks / rozbójnik: the penalty for the tricks taken")
    hearts: _Points = field(default=None, doc="the penalty for the hearts taken")
    queens: _Points = field(default=None, doc="the penalty for the queens taken")
    kings_jacks: _Points = field(default=None, doc="the penalty for the kings and jacks taken")
    king_of_hearts: _Points = field(default=None, doc="the penalty for the king of hearts")
    trick_3: _Points = field(default=None, doc="the penalty for the 3rd trick (book6 option)")
    trick_7: _Points = field(default=None, doc="the penalty for the 7th trick")
    trick_8: _Points = field(default=None, doc="the penalty for the 8th trick (book6 option)")
    trick_12: _Points = field(default=None, doc="the penalty for the 12th trick (4 players, book6 'last-two')")
    trick_13: _Points = field(default=None, doc="the penalty for the 13th trick (the last with 4 players)")
    trick_16: _Points = field(default=None, doc="the penalty for the 16th trick (3 players, book6 'last-two')")
    trick_17: _Points = field(default=None, doc="the penalty for the 17th trick (the last with 3 players)")
    tricks_won: _Points = field(default=None, doc="trump deal: the points for the tricks won")
    prize: _Points = field(default=None, doc="loteryjka: the prize")
    points: int = field(default=0, required=True, doc="the deal's points")


@declared
class TallySeat:
    cards: Annotated[Cards, Length(0, 52)] = field(doc="the cards the seat took")
    tricks: Annotated[tuple[Annotated[int, Range(1, 17)], ...], Length(0, 17)] = field(
        doc="the numbers (1-based) of the tricks the seat took")


TallyOptions = partial(Options, "TallyOptions", "The match's options as a score sheet gives them: any of them, "
                                                "each left out taking its default.")


@declared
class TrickTally:
    """A trick deal's score sheet: the cards and trick numbers each seat took."""

    contract: Literal["no-tricks", "no-hearts", "no-queens", "no-kings-jacks", "no-king-of-hearts",
                      "no-seventh-and-last", "no-last", "robber", "trumps"]
    players: Annotated[int, Range(3, 4)]
    seats: Annotated[tuple[TallySeat, ...], Length(3, 4)] = field(doc="per seat, what it took")
    options: TallyOptions | None = field(default=None, doc="the match's options (defaults where left out)")  # type: ignore[valid-type]


@declared
class LotteryTally:
    """A loteryjka's score sheet: the first two seats out."""

    contract: Literal["loteryjka"]
    players: Annotated[int, Range(3, 4)]
    finish_order: Annotated[tuple[Seat, ...], Length(2, 2)] = field(doc="the first and the second seat out of cards")
    options: TallyOptions | None = field(default=None, doc="the match's options (defaults where left out)")  # type: ignore[valid-type]


# --------------------------------------------------------------------------- codes


class C(GameCodes, namespace=GAME_ID):
    """Every code Kierki answers (DESIGN 4.4), in the Polish of Kierki: lewa, rozdanie, kolor
    wyjściowy, dokładanie do koloru, atut, kiery, loteryjka, odgrywka, rozbójnik, zapis."""

    round_not_over = ROUND_NOT_OVER
    round_over = ROUND_OVER
    setup_unsupported = SETUP_UNSUPPORTED
    bad_tally = BAD_TALLY
    seat_count = SEAT_COUNT
    not_naming_trump = illegal(
        Label("Trumps are not named now", "Teraz nie wybiera się atutu"),
        "Atut wybiera się tylko na początku rozdania atutowego w odgrywce.",
        "`name-trump` is sent only at the start of a trump deal, before any card is played.",
        "`name-trump` wysyła się tylko na początku rozdania atutowego, zanim padnie pierwsza karta.")
    no_trump_not_allowed = illegal(
        Label("No trump not allowed", "Gra bez atu niedozwolona"),
        "W rozdaniu atutowym trzeba wybrać kolor atutowy; gra bez atu wymaga opcji.",
        "'NT' was named, but the match does not allow no trump (option `no_trump_allowed`). Name a suit.",
        "Wybrano 'NT', a partia nie dopuszcza gry bez atu (opcja `no_trump_allowed`). Wybierz kolor.")
    must_name_trump = illegal(
        Label("Name trumps first", "Najpierw wybierz atut"), "Gracz {seat} musi najpierw wybrać kolor atutowy.",
        "The trump deal waits for its trump suit: send `name-trump` first.",
        "Rozdanie atutowe czeka na wybór atutu: najpierw wyślij `name-trump`.")
    pass_not_allowed = illegal(
        Label("Passing not allowed", "Nie można pasować"),
        "Pasować można tylko w loteryjce, gdy nie ma się karty do dołożenia.",
        "`pass` is a loteryjka move only. In a trick deal play a card.",
        "`pass` to ruch tylko w loteryjce. W rozdaniu z lewami zagraj kartę.")
    must_play = illegal(
        Label("Must lay a card", "Musisz dołożyć kartę"),
        "W loteryjce gracz, który może dołożyć kartę, musi ją dołożyć (np. {card}).",
        "In the loteryjka a player who can lay a card must; passing is only for one who cannot.",
        "W loteryjce gracz, który może dołożyć kartę, musi to zrobić; pasuje tylko ten, kto nie może.")
    card_not_in_hand = illegal(
        Label("Card not in hand", "Nie masz tej karty"), "Karty {card} nie ma w twoim ręku.",
        "The card played is not in the seat's hand. Play one of the hand's cards.",
        "Zagranej karty nie ma w ręku gracza. Zagraj jedną z kart z ręki.")
    does_not_fit = illegal(
        Label("Card fits no row", "Karta nie pasuje"),
        "Karty {card} nie można dołożyć: pasuje tylko ósemka (lub wybrana karta startowa) albo karta sąsiednia do "
        "końca rzędu w swoim kolorze.",
        "In the loteryjka a card opens its suit's row (the start rank) or lies next to an end of that row.",
        "W loteryjce karta otwiera rząd swojego koloru (karta startowa) albo leży obok końca tego rzędu.")
    lead_forbidden = illegal(
        Label("Hearts may not be led", "Nie wolno wychodzić w kiery"),
        "Nie możesz wyjść kartą {card}: w tym rozdaniu nie wolno wychodzić w kiery, dopóki masz karty innego koloru.",
        "In the no-hearts, no-king-of-hearts and rozbójnik deals a heart may not be led while the leader holds "
        "another suit.",
        "W rozdaniach bez kierów, bez króla kier i w rozbójniku nie wolno wyjść w kiery, dopóki ma się inny kolor.")
    must_follow_suit = illegal(
        Label("Must follow suit", "Obowiązek dokładania do koloru"),
        "Masz karty w kolorze wyjściowym: musisz dołożyć do koloru, nie {card}.",
        "A player holding the led suit must play a card of it.",
        "Gracz, który ma karty w kolorze wyjściowym, musi dołożyć kartę w tym kolorze.")
    must_drop_king_of_hearts = illegal(
        Label("Must drop the king of hearts", "Musisz zrzucić króla kier"),
        "Nie masz koloru wyjściowego, a masz króla kier: przy tej opcji musisz go zrzucić, nie {card}.",
        "With `king_of_hearts_must_drop`, the holder of K♥ who cannot follow suit must throw it.",
        "Przy opcji `king_of_hearts_must_drop` gracz z królem kier, który nie ma koloru wyjściowego, musi go zrzucić.")
    cards_per_trick = invalid(
        Label("Cards do not fit the tricks", "Karty nie pasują do lew"),
        "Każda lewa to tyle kart, ilu jest graczy; liczba kart gracza się nie zgadza.",
        "A seat's taken cards are a whole number of tricks: players x its tricks.",
        "Karty wzięte przez gracza to całe lewy: liczba graczy razy liczba jego lew.")
    trick_numbers = invalid(
        Label("Impossible trick numbers", "Niemożliwe numery lew"), "Lewy są numerowane od 1, każda raz.",
        "The trick numbers over all seats are 1..k, each once, k at most the tricks of a deal.",
        "Numery lew wszystkich graczy to 1..k, każdy raz, k najwyżej tyle, ile lew ma rozdanie.")
    deal_unfinished = invalid(
        Label("Deal not finished", "Rozdanie niedokończone"),
        "Rozdanie kończy się przed ostatnią lewą tylko wtedy, gdy nie ma już kar do wzięcia.",
        "A deal of fewer tricks than the full deal is scored only where it may end early (no penalty left).",
        "Rozdanie krótsze niż pełne liczy się tylko wtedy, gdy mogło skończyć się wcześniej (brak kar do wzięcia).")
    card_conservation = invalid(
        Label("Cards not conserved", "Karty się nie zgadzają"),
        "Talia to 52 karty (przy trzech graczach bez dwójki trefl), każda raz; tu jakichś brakuje lub się powtarzają.",
        "The pack (52 cards; without 2♣ for three players) is each card once over hands, stock, tricks and rows.",
        "Talia (52 karty; przy trzech graczach bez 2♣) to każda karta raz w rękach, kupce, lewach i rzędach.")
    bad_row = invalid(
        Label("Impossible loteryjka row", "Niemożliwy rząd loteryjki"),
        "Rząd loteryjki to ciąg kart jednego koloru zawierający kartę startową.",
        "A loteryjka row is one per suit, low <= high, holding the start rank.",
        "Rząd loteryjki jest jeden na kolor, od niższej do wyższej karty, i zawiera kartę startową.")
    bad_trump = invalid(
        Label("Trump does not fit", "Atut się nie zgadza"), "Atut jest tylko w rozdaniu atutowym, po jego wybraniu.",
        "`trump` is set exactly in a trump deal once named; 'NT' only with `no_trump_allowed`.",
        "`trump` jest ustawiony dokładnie w rozdaniu atutowym po wyborze; 'NT' tylko z opcją `no_trump_allowed`.")
    bad_contract = invalid(
        Label("Contract does not fit", "Rozdanie się nie zgadza"),
        "Kolejność rozdań jest stała; to rozdanie nazywa się {expected}.",
        "The deals come in a fixed order: `contract` must be the deal list's entry for `round`.",
        "Rozdania idą w stałej kolejności: `contract` musi być pozycją listy rozdań dla `round`.")
    bad_turn = invalid(
        Label("Wrong turn", "Zła kolejność"),
        "Kolejność gry się nie zgadza: pierwszą lewę zaczyna gracz po lewej rozdającego, następne ten, kto wziął "
        "poprzednią.",
        "The seat to lead or to act is not the one play gives; `turn` is null exactly when the deal is over.",
        "Gracz wychodzący lub na ruchu nie wynika z gry; `turn` jest null dokładnie po końcu rozdania.")
    bad_history = invalid(
        Label("Score sheet does not fit", "Zapis się nie zgadza"),
        "Zapis punktów nie pasuje do numeru rozdania albo do kar i nagród tych rozdań.",
        "`history` has one row per finished deal, each a sum the deal's penalties or prizes can make.",
        "`history` ma wiersz na każde skończone rozdanie, a w nim sumy, jakie dają kary lub nagrody rozdania.")
    bad_phase = invalid(
        Label("Impossible phase", "Niemożliwa faza"), "Faza gry nie pasuje do rozdania i lew.",
        "The phase does not fit the deal and the tricks played (a deal is over exactly when play ends it).",
        "Faza nie pasuje do rozdania i rozegranych lew (rozdanie kończy się dokładnie wtedy, gdy kończy je gra).")
    bad_hand_size = invalid(
        Label("Impossible hand sizes", "Niemożliwa liczba kart w ręku"),
        "Liczba kart w rękach nie pasuje do rozegranych lew.",
        "Each hand holds the cards dealt less those it has played.",
        "Każda ręka ma rozdane karty bez tych, które już zagrała.")
    bad_trick = invalid(
        Label("Impossible trick", "Niemożliwa lewa"),
        "Lewa nie mogła tak przebiec: zły gracz zaczyna, wygrywa albo dołożył kartę, której nie mógł.",
        "A trick is led by the previous winner, won by the right card, and played following suit.",
        "Lewę zaczyna zwycięzca poprzedniej, wygrywa właściwa karta, a karty dokłada się do koloru.")
    bad_finished = invalid(
        Label("Impossible finish order", "Niemożliwa kolejność wyjścia"),
        "W loteryjce wyszli z gry dokładnie ci gracze, którzy nie mają już kart.",
        "In the loteryjka `finished` lists exactly the seats out of cards, each once.",
        "W loteryjce `finished` to dokładnie gracze bez kart, każdy raz.")


_DEAL_LABELS = {
    Deal.NO_TRICKS: Label("No tricks", "Bez lew"), Deal.NO_HEARTS: Label("No hearts", "Bez kierów"),
    Deal.NO_QUEENS: Label("No queens", "Bez dam"), Deal.NO_KINGS_JACKS: Label("No kings or jacks", "Bez panów"),
    Deal.NO_KING_OF_HEARTS: Label("No king of hearts", "Bez króla kier"),
    Deal.NO_SEVENTH_AND_LAST: Label("No 7th and last trick", "Bez siódmej i ostatniej lewy"),
    Deal.NO_LAST: Label("No last trick", "Bez ostatniej lewy"), Deal.ROBBER: Label("Robber", "Rozbójnik"),
    Deal.TRUMPS: Label("Trumps", "Atuty"), Deal.LOTERYJKA: Label("Loteryjka", "Loteryjka"),
}

@event
class TrickEvent:
    """A trick was completed: its number in the deal and the seat that took it."""

    type: Literal["trick"] = "trick"
    number: Annotated[int, Range(1, 17)] = field(doc="the trick's number in the deal, 1-based")
    winner: Seat = field(doc="the seat that took the trick (and leads the next)")


@event
class OutEvent:
    """Loteryjka: a seat played its last card and is out, in that place."""

    type: Literal["out"] = "out"
    seat: Seat
    place: Annotated[int, Range(1, 2)] = field(doc="1 for the first seat out, 2 for the second")


SPEC = GameSpec(
    id=GAME_ID,
    name="Kierki (Polish multi-deal Hearts)",
    label=Label("Kierki", "Kierki"),
    players=range(3, 5),
    options=Options,
    state=State,
    moves=(PlayCard, NameTrump, Pass, NextRound),
    phases=phase_labels(Phase, NAME_TRUMP=Label("Naming trumps", "Wybór atutu"), LOTTERY=Label("Loteryjka", "Loteryjka"),
                        ROUND_OVER=Label("Deal over", "Koniec rozdania")),
    codes=C,
    breakdown=Breakdown,
    tally=(TrickTally, LotteryTally),
    terms={
        **{d.value: label for d, label in _DEAL_LABELS.items()},
        "contract": Label("Deal type", "Rodzaj rozdania"), "trump": Label("Trumps", "Atut"), "trick": Label("Trick", "Lewa"),
        "tricks": Label("Tricks", "Lewy"), "hearts": Label("Hearts", "Kiery"), "queens": Label("Queens", "Damy"),
        "kings_jacks": Label("Kings and jacks", "Panowie"), "king_of_hearts": Label("King of hearts", "Król kier"),
        **{f"trick_{n}": Label(f"Trick {n}", f"Lewa {n}") for n in (3, 7, 8, 12, 13, 16, 17)},
        "tricks_won": Label("Tricks won", "Wzięte lewy"), "prize": Label("Prize", "Nagroda"),
        "rows": Label("Rows", "Rzędy"), "stock": Label("Undealt cards", "Karty nierozdane"),
        "points": Label("Points", "Punkty"), "NT": Label("no trumps", "bez atu"),
        "round": Label("Deal", "Rozdanie"), "last_trick": Label("Last trick", "Ostatnia lewa"),
        "dealer": Label("Dealer", "Rozdający"), "took_it": Label("took it", "bierze lewę"),
        "cards": Label("Cards", "Karty"),
        # the log's sentences (service/static/play/log.js fills the {names})
        "move:play": Label("{seat} played {card}", "{seat} zagrywa {card}"),
        "move:name-trump": Label("{seat} named trumps: {suit}", "{seat} wybiera atut: {suit}"),
        "move:pass": Label("{seat} passed", "{seat} pasuje"),
        "move:next-round": Label("{seat} dealt the next deal", "{seat} rozdaje następne rozdanie"),
        "next-round": Label("Next deal", "Następne rozdanie"),
        "event:trick": Label("{winner} took trick {number}", "{winner} bierze lewę {number}"),
        "event:out": Label("{seat} is out of cards (place {place})", "{seat} wykłada ostatnią kartę (miejsce {place})"),
    },
    tally_example={"contract": "no-tricks", "players": 3, "seats": [
        {"cards": ["3C", "4C", "5C", "QC", "KC", "AC", "8D", "9D", "10D", "4H", "5H", "6H", "KH", "AH", "2S", "9S",
                   "10S", "JS"], "tricks": [1, 4, 7, 10, 13, 16]},
        {"cards": ["6C", "7C", "8C", "2D", "3D", "4D", "JD", "QD", "KD", "7H", "8H", "9H", "3S", "4S", "5S", "QS",
                   "KS", "AS"], "tricks": [2, 5, 8, 11, 14, 17]},
        {"cards": ["9C", "10C", "JC", "5D", "6D", "7D", "AD", "2H", "3H", "10H", "JH", "QH", "6S", "7S", "8S"],
         "tricks": [3, 6, 9, 12, 15]}]},
    events=(TrickEvent, OutEvent),
)


# --------------------------------------------------------------------------- engine


class Kierki(BaseEngine[State, Move]):
    spec = SPEC

    # -- creation ------------------------------------------------------------------

    def new_game(self, players: int, rng: Rng, options: Options, setup: None = None) -> State:
        dealer, rng = rng.randbelow(players)  # "the first dealer is random" (§2)
        return _start_deal(players, options, 1, dealer, (), rng)

    # -- turn and moves ------------------------------------------------------------

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        if state.phase is Phase.ROUND_OVER:
            return [NextRound()]
        if state.phase is Phase.NAME_TRUMP:
            names: list[Move] = [NameTrump(Trump(s.value)) for s in SUITS]
            return [*names, NameTrump(Trump.NO_TRUMP)] if state.options.no_trump_allowed else names
        if state.phase is Phase.LOTTERY:
            cards = _lottery_playable(state, seat)
            return [PlayCard(c) for c in cards] if cards else [Pass()]
        return [PlayCard(c) for c in _trick_playable(state, seat)]

    def check(self, state: State, seat: int, move: Move) -> None:
        # every refusal's message is built only when refusing: check runs on every move
        self.check_turn(state, seat)
        phase = state.phase
        if move.__class__ is PlayCard and phase is Phase.PLAY:  # the common case first, same checks
            card = move.card
            if card in _trick_playable(state, seat):
                return
            self._refuse_trick_card(state, seat, card)
        if isinstance(move, NextRound):
            if phase is not Phase.ROUND_OVER:
                raise C.round_not_over(f"next-round only after the deal; the deal is in phase {phase.value!r}",
                                       round=state.round)
            return
        if phase is Phase.ROUND_OVER:
            raise C.round_over(f"the deal is over: send next-round, not {move.kind!r}", round=state.round)
        if isinstance(move, NameTrump):
            if phase is not Phase.NAME_TRUMP:
                raise C.not_naming_trump(f"trumps are named only at the start of a trump deal, not in phase "
                                         f"{phase.value!r}")
            if move.suit is Trump.NO_TRUMP and not state.options.no_trump_allowed:
                raise C.no_trump_not_allowed("'NT' may not be named: only a suit (option no_trump_allowed)")
            return
        if phase is Phase.NAME_TRUMP:
            raise C.must_name_trump(f"seat {seat} must first name trumps, not send {move.kind!r}", seat=seat)
        if isinstance(move, Pass):
            if phase is not Phase.LOTTERY:
                raise C.pass_not_allowed("passing is allowed only in the loteryjka")
            can = _lottery_playable(state, seat)
            if can:
                raise C.must_play(f"you may not pass while you can lay a card: {', '.join(card_strs(can))}",
                                  card=str(can[0]))
            return
        card = move.card
        hand = state.hands[seat]
        if phase is Phase.LOTTERY:
            if card not in hand:
                raise C.card_not_in_hand(f"{card} is not in your hand", card=str(card))
            if not _fits_row(state, card):
                raise C.does_not_fit(f"{card} fits no row: lay a {state.options.lottery_start_rank} to open a suit or "
                                     f"a card next to an end of its suit's row", card=str(card))
            return
        if card in _trick_playable(state, seat):
            return
        self._refuse_trick_card(state, seat, card)

    def _refuse_trick_card(self, state: State, seat: int, card: Card) -> None:
        """Raise why ``card``, not among the seat's playable cards, may not be played to the trick:
        "Follow suit if able. Otherwise play any card." (§3); the hearts lead restriction; KI-4.
        (A card is playable exactly when the shared core's check passes and KI-4 allows it.)"""
        check_play(C, state.hands[seat], _plays(state), card, _trick_rules(state))
        raise C.must_drop_king_of_hearts(f"you cannot follow suit and hold KH: you must play it, not {card} "
                                         "(king_of_hearts_must_drop)", card=str(card))

    def _apply(self, state: State, seat: int, move: Move) -> State:
        n = state.players
        if isinstance(move, NextRound):
            return _start_deal(n, state.options, state.round + 1, next_seat(state.dealer, n), state.history, state.rng)
        if isinstance(move, NameTrump):
            hands = state.hands
            if state.stock:  # (a): the rest of the pack is dealt after trumps are named
                hands = _dealt(hands, state.stock, state.dealer)
            leader = next_seat(state.dealer, n)
            return replace(state, hands=hands, stock=(), trump=move.suit, phase=Phase.PLAY, leader=leader, turn=leader)
        if isinstance(move, Pass):
            return replace(state, turn=_next_active(state, seat))
        card = move.card
        hands = _without(state.hands, seat, card)
        if state.phase is Phase.LOTTERY:
            rows = _laid(state.rows, card)
            finished = state.finished + ((seat,) if not hands[seat] else ())
            new = replace(state, hands=hands, rows=rows, finished=finished)
            if len(finished) >= 2:
                return _deal_over(new)
            return replace(new, turn=_next_active(new, seat))
        trick = (*state.trick, card)
        if len(trick) < n:
            return replace(state, hands=hands, trick=trick, turn=next_seat(seat, n))
        winner = trick_winner(tuple(map(Play, _SEATS_FROM[n][state.leader], trick)), _TRUMP_SUIT[state.trump])
        tricks = (*state.tricks, Trick(state.leader, trick, winner))
        new = replace(state, hands=hands, trick=(), tricks=tricks, leader=winner, turn=winner)
        if len(tricks) == _tricks_per_deal(n) or _no_penalty_left(new):
            return _deal_over(new)
        return new

    def emit(self, before: State, seat: int, move: Move, after: State) -> list[Any]:
        out = super().emit(before, seat, move, after)
        if len(after.tricks) > len(before.tricks):
            out.insert(1, TrickEvent(number=len(after.tricks), winner=after.tricks[-1].winner))
        if len(after.finished) > len(before.finished):
            out.insert(1, OutEvent(seat=after.finished[-1], place=len(after.finished)))
        return out

    # -- results -------------------------------------------------------------------

    def scores(self, state: State) -> ScoreReport:
        sign = _sign(state.options)
        points, items = _deal_points(state)
        shown = tuple(sign * p for p in points)
        over = state.phase in _OVER  # then the deal's row is already in history
        earlier = state.history[:-1] if over else state.history
        totals = tuple(sum(row[s] for row in earlier) + shown[s] for s in range(state.players))
        breakdown = tuple(_breakdown(state.contract, items[s], sign) for s in range(state.players))
        return ScoreReport(shown, totals, breakdown, over, _best(totals, sign) if state.phase is Phase.GAME_OVER else (),
                           round=state.round, history=earlier)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase is not Phase.GAME_OVER:
            return None
        totals = self.scores(state).totals
        return Outcome(winners=_best(totals, _sign(state.options)), reason="the last deal of the match is over",
                       points=totals)

    def tally_scores(self, tally: TrickTally | LotteryTally) -> ScoreReport:
        """Score one deal from a score sheet (docs/rules/kierki.md §8), read by its shape: the
        cards and trick numbers each seat took, or the loteryjka's first two seats out."""
        return _score_tally(tally)

    # -- meaning -------------------------------------------------------------------

    def check_state(self, state: State) -> State:
        """What play can reach, beyond the shape (§9)."""
        state = _check_meaning(state)
        if state.phase in _OVER:
            sign = _sign(state.options)
            scored = tuple(sign * p for p in _deal_points(state)[0])
            if state.history[-1] != scored:
                raise C.bad_history(f"the finished deal scores {list(scored)}, not {list(state.history[-1])} as "
                                    "history says")
        return state


# --------------------------------------------------------------------------- the match


@cache
def deal_list(options: Options, players: int) -> tuple[Deal, ...]:
    """The deals of a match, in their fixed order (KI-6)."""
    trumps = (Deal.TRUMPS,) * players
    lotteries = (Deal.LOTERYJKA,) * (players if options.lottery == "one-per-player" else 1)
    if options.ruleset == "standard":
        return (*_NEGATIVE, Deal.NO_SEVENTH_AND_LAST, Deal.ROBBER, *trumps, *lotteries)
    negative = (*_NEGATIVE, Deal.NO_LAST)
    if options.book6_robber:
        return (*negative, Deal.ROBBER, *trumps, *lotteries)
    positive = {"loteryjka": lotteries, "trumps": trumps, "none": ()}[options.book6_positive]
    return (*negative, *positive)


@cache
def full_deck(players: int) -> tuple[Card, ...]:
    """52 cards; with three players the 2♣ is removed (§2)."""
    cards = deck()
    return tuple(c for c in cards if c != _TWO_OF_CLUBS) if players == 3 else cards


@cache
def _pack_set(players: int) -> frozenset[Card]:
    return frozenset(full_deck(players))


@cache
def _lottery_line(options: Options, players: int) -> list[int]:
    """A loteryjka line of history, sorted: the two prizes and nothing for the rest (not to be changed)."""
    return sorted(_lottery_points((0, 1), lottery_prizes(options, players), players))


def _tricks_per_deal(players: int) -> int:
    return 52 // players  # 13 with four players, 17 with three


def _start_deal(
    players: int, options: Options, number: int, dealer: int, history: tuple[tuple[int, ...], ...], rng: Rng
) -> State:
    """Shuffle and deal one card at a time from the dealer's left (§2)."""
    cards, rng = rng.shuffle(full_deck(players))
    kind = deal_list(options, players)[number - 1]
    left = next_seat(dealer, players)
    empty: tuple[tuple[Card, ...], ...] = ((),) * players
    stock: tuple[Card, ...] = ()
    if kind is Deal.TRUMPS and options.trump_chooser == "dealer-after-5":
        first = _FIRST_HAND * players
        cards, stock = cards[:first], cards[first:]
    hands = _dealt(empty, cards, dealer)
    if kind is Deal.TRUMPS:
        phase, turn = Phase.NAME_TRUMP, dealer if stock else left
    else:
        phase, turn = (Phase.LOTTERY if kind is Deal.LOTERYJKA else Phase.PLAY), left
    return State(
        players=players, options=options, round=number, contract=kind, dealer=dealer, phase=phase, hands=hands,
        stock=stock, trump=None, leader=left, turn=turn, trick=(), tricks=(), rows=(), finished=(), history=history,
        rng=rng,
    )


def _deal_over(state: State) -> State:
    """The deal ends: nobody single is to act, and its points (in the sign of ``score_sign``) join
    the history (§7); after the last deal of the list the game is over."""
    last = state.round == len(deal_list(state.options, state.players))
    over = replace(state, phase=Phase.GAME_OVER if last else Phase.ROUND_OVER, turn=None)
    sign = _sign(state.options)
    return replace(over, history=(*state.history, tuple(sign * p for p in _deal_points(over)[0])))


def _dealt(hands: tuple[tuple[Card, ...], ...], cards: Sequence[Card], dealer: int) -> tuple[tuple[Card, ...], ...]:
    n = len(hands)
    out = [list(h) for h in hands]
    for i, card in enumerate(cards):
        out[(dealer + 1 + i) % n].append(card)
    return tuple(tuple(sorted(h, key=_hand_order)) for h in out)


def _hand_order(card: Card) -> tuple[int, int]:
    return _SUIT_INDEX[card.suit], card.rank  # type: ignore[index]  # no jokers in Kierki


def _without(hands: tuple[tuple[Card, ...], ...], seat: int, card: Card) -> tuple[tuple[Card, ...], ...]:
    hand = list(hands[seat])
    hand.remove(card)
    return (*hands[:seat], tuple(hand), *hands[seat + 1:])


def _seats_from(leader: int, players: int) -> tuple[int, ...]:
    return tuple((leader + i) % players for i in range(players))


#: players -> leader -> the seats in play order from the leader, made once (a state's leader is a seat)
_SEATS_FROM = {n: tuple(_seats_from(leader, n) for leader in range(n)) for n in (3, 4)}


def _plays(state: State) -> tuple[Play, ...]:
    return tuple(map(Play, _SEATS_FROM[state.players][state.leader], state.trick))


def _kind(state: State) -> Deal:
    return state.contract


def _trick_rules(state: State) -> TrickRules:
    """No trump in the negative deals; the hearts lead restriction in deals 2, 5 and 7 (§3);
    the named trump in a trump deal, where trumping is not compulsory (§5)."""
    return _TRICK_RULES[state.contract in _HEARTS_LEAD_FORBIDDEN, _TRUMP_SUIT[state.trump]]


#: (hearts may not be led, trump) -> the deal's trick rules, made once
_TRICK_RULES = {
    (hearts_forbidden, trump): TrickRules(
        trump=trump, must_trump=False, lead_forbidden=frozenset((Suit.HEARTS,)) if hearts_forbidden else frozenset()
    )
    for hearts_forbidden in (False, True) for trump in (None, *SUITS)
}


def _trick_playable(state: State, seat: int) -> tuple[Card, ...]:
    return _allowed(state, state.hands[seat], _plays(state))


def _allowed(state: State, hand: Sequence[Card], plays: Sequence[Play]) -> tuple[Card, ...]:
    """The one source of legality for trick play: the shared core plus KI-4."""
    cards = playable(hand, plays, _trick_rules(state))
    if (
        state.options.king_of_hearts_must_drop
        and plays
        and _KING_OF_HEARTS in cards
        and plays[0].card.suit is not Suit.HEARTS
        and _kind(state) is Deal.NO_KING_OF_HEARTS
    ):
        return (_KING_OF_HEARTS,)  # he cannot follow (KH is playable to a non-heart lead): drop it
    return cards


def _row_of(rows: Sequence[Row], suit: Suit | None) -> Row | None:
    for row in rows:
        if row.suit is suit:
            return row
    return None


def _fits_row(state: State, card: Card) -> bool:
    """Loteryjka: a start-rank card opens its suit's row; else one above or below a row's end."""
    row = _row_of(state.rows, card.suit)
    if row is None:
        return card.rank == state.options.lottery_start_rank
    return card.rank == row.low - 1 or card.rank == row.high + 1


def _laid(rows: tuple[Row, ...], card: Card) -> tuple[Row, ...]:
    """The rows once ``card`` is laid (it fits): its suit's row grows, or opens in suit order."""
    rank, suit = int(card.rank), card.suit
    assert suit is not None
    row = _row_of(rows, suit)
    grown = Row(suit, rank, rank) if row is None else Row(suit, min(row.low, rank), max(row.high, rank))
    return tuple(sorted((*(r for r in rows if r.suit is not suit), grown), key=lambda r: _SUIT_INDEX[r.suit]))


def _lottery_playable(state: State, seat: int) -> tuple[Card, ...]:
    return tuple(c for c in state.hands[seat] if _fits_row(state, c))


def _next_active(state: State, seat: int) -> int:
    """The next seat clockwise that still holds cards (finished players are skipped)."""
    n = state.players
    nxt = next_seat(seat, n)
    while nxt in state.finished:
        nxt = next_seat(nxt, n)
    return nxt


# --------------------------------------------------------------------------- scoring


def _values(players: int) -> dict[str, int]:
    """Penalty values (§4)."""
    if players == 3:
        return {"trick": 15, "heart": 20, "queen": 60, "king-jack": 30, "king-of-hearts": 140, "tricks-6": 140}
    return {"trick": 20, "heart": 20, "queen": 60, "king-jack": 30, "king-of-hearts": 150, "tricks-6": 150}


def _sixth_deal_tricks(kind: Deal, options: Options, players: int) -> dict[int, int]:
    """Trick number -> penalty for the 6th deal (standard: 7th and last; book: option)."""
    last = _tricks_per_deal(players)
    total = _values(players)["tricks-6"]
    if kind is Deal.NO_SEVENTH_AND_LAST:
        return {7: total // 2, last: total // 2}
    choice = options.book6_sixth_deal
    if choice == "last":
        return {last: total}
    numbers = {"last-two": (last - 1, last), "3rd-and-7th": (3, 7), "3rd-and-8th": (3, 8)}[choice]
    return {k: total // 2 for k in numbers}


_PARTS = {
    Deal.NO_TRICKS: ("tricks",),
    Deal.NO_HEARTS: ("hearts",),
    Deal.NO_QUEENS: ("queens",),
    Deal.NO_KINGS_JACKS: ("kings-jacks",),
    Deal.NO_KING_OF_HEARTS: ("king-of-hearts",),
    Deal.NO_SEVENTH_AND_LAST: ("numbered",),
    Deal.NO_LAST: ("numbered",),
    Deal.ROBBER: ("tricks", "hearts", "queens", "kings-jacks", "king-of-hearts", "numbered"),
    Deal.TRUMPS: ("tricks-won",),
}


@cache
def _numbered(kind: Deal, options: Options, players: int) -> dict[int, int]:
    if kind is Deal.ROBBER:
        kind = Deal.NO_SEVENTH_AND_LAST if options.ruleset == "standard" else Deal.NO_LAST
    return _sixth_deal_tricks(kind, options, players)


def trick_deal_items(
    kind: Deal, options: Options, players: int, cards: Sequence[Card], numbers: Sequence[int]
) -> dict[str, int]:
    """One seat's points in a trick deal (penalties negative), item by item.

    ``cards`` are the cards the seat took, ``numbers`` the (1-based) numbers of its tricks.
    """
    v = _values(players)
    items: dict[str, int] = {}
    for part in _PARTS[kind]:
        if part == "tricks":
            items["tricks"] = -v["trick"] * len(numbers)
        elif part == "hearts":
            items["hearts"] = -v["heart"] * sum(c.suit is Suit.HEARTS for c in cards)
        elif part == "queens":
            items["queens"] = -v["queen"] * sum(c.rank is Rank.QUEEN for c in cards)
        elif part == "kings-jacks":
            items["kings-jacks"] = -v["king-jack"] * sum(c.rank in (Rank.KING, Rank.JACK) for c in cards)
        elif part == "king-of-hearts":
            items["king-of-hearts"] = -v["king-of-hearts"] * (_KING_OF_HEARTS in cards)
        elif part == "numbered":
            for number, value in sorted(_numbered(kind, options, players).items()):
                items[f"trick-{number}"] = -value * (number in numbers)
        else:  # trumps: +25 a trick (+20 with 3 players as an option)
            per = options.three_player_trump_trick if players == 3 else 25
            items["tricks-won"] = per * len(numbers)
    return items


def lottery_prizes(options: Options, players: int) -> tuple[int, int]:
    """Loteryjka prizes for the first and second player out (§5, KI-5)."""
    single = options.lottery == "one"
    if players == 3:
        return (790, 485) if single else (250, 175)
    return (800, 500) if single else (200, 125)


@cache
def _possible_points(kind: Deal, options: Options, players: int) -> frozenset[int]:
    """Every figure one seat can score in a deal of ``kind`` (penalties negative): the sums of
    any set of its penalties (a trick, a heart, a queen, ...), or a loteryjka prize or nothing."""
    if kind is Deal.LOTERYJKA:
        return frozenset((0, *lottery_prizes(options, players)))
    atoms: list[int] = []
    pack = full_deck(players)
    for number in range(1, _tricks_per_deal(players) + 1):
        trick_items = trick_deal_items(kind, options, players, (), (number,))
        atoms.append(sum(trick_items.values()))
    for card in pack:
        atoms.append(sum(trick_deal_items(kind, options, players, (card,), ()).values()))
    sums = {0}
    for atom in atoms:
        if atom:
            sums |= {x + atom for x in sums}
    return frozenset(sums)


@cache
def deal_total(kind: Deal, options: Options, players: int) -> int:
    """The sum of one deal's points over the seats (every penalty or prize taken)."""
    if kind is Deal.LOTERYJKA:
        return sum(lottery_prizes(options, players))
    items = trick_deal_items(kind, options, players, full_deck(players), range(1, _tricks_per_deal(players) + 1))
    return sum(items.values())


def _deal_points(state: State) -> tuple[tuple[int, ...], tuple[dict[str, int], ...]]:
    """This deal's points per seat (penalties negative) and the items of each."""
    n = state.players
    kind = _kind(state)
    if kind is Deal.LOTERYJKA:
        points = _lottery_points(state.finished, lottery_prizes(state.options, n), n)
        return points, tuple({"prize": p} for p in points)
    cards: list[list[Card]] = [[] for _ in range(n)]
    numbers: list[list[int]] = [[] for _ in range(n)]
    for number, trick in enumerate(state.tricks, 1):
        cards[trick.winner].extend(trick.cards)
        numbers[trick.winner].append(number)
    items = tuple(trick_deal_items(kind, state.options, n, cards[s], numbers[s]) for s in range(n))
    return tuple(sum(i.values()) for i in items), items


def _lottery_points(finished: Sequence[int], prizes: tuple[int, int], players: int) -> tuple[int, ...]:
    """The first player out gets the first prize, the second the second, the rest nothing."""
    return tuple(prizes[finished.index(s)] if s in finished else 0 for s in range(players))


def _no_penalty_left(state: State) -> bool:
    """§4: a negative deal may stop once every penalty has been taken (option early_end)."""
    kind = _kind(state)
    if not state.options.early_end or kind in _PLAYED_OUT:
        return False
    return _points_taken(state, kind) == deal_total(kind, state.options, state.players)


def _points_taken(state: State, kind: Deal) -> int:
    """``sum(_deal_points(state)[0])``, the points taken so far over all seats, from per-card and
    per-trick-number figures made once: every item of a trick deal is a sum over the cards a seat
    took or the numbers of its tricks (as ``_possible_points`` uses), and the seats' tricks split
    the deal's, so the seats' total is that sum over every trick played (checked after each trick)."""
    if kind is Deal.LOTERYJKA:
        return sum(_deal_points(state)[0])
    per_card, per_number = _point_atoms(kind, state.options, state.players)
    return sum(per_card[c] for t in state.tricks for c in t.cards) + sum(per_number[:len(state.tricks)])


@cache
def _point_atoms(kind: Deal, options: Options, players: int) -> tuple[dict[Card, int], tuple[int, ...]]:
    """The points (over all items) of taking each card, and of winning trick 1, 2, ... of a trick deal."""
    per_card = {card: sum(trick_deal_items(kind, options, players, (card,), ()).values()) for card in deck()}
    per_number = tuple(sum(trick_deal_items(kind, options, players, (), (number,)).values())
                       for number in range(1, _tricks_per_deal(players) + 1))
    return per_card, per_number


def _sign(options: Options) -> int:
    return 1 if options.score_sign == "penalties-negative" else -1


def _best(totals: Sequence[int], sign: int) -> tuple[int, ...]:
    """Highest total wins (standard sign); with penalties positive, the lowest (same seats)."""
    top = max(sign * t for t in totals)
    return tuple(s for s, t in enumerate(totals) if sign * t == top)


def _breakdown(kind: Deal, items: dict[str, int], sign: int) -> Breakdown:
    """One seat's items as the declared breakdown (``kings-jacks`` -> ``kings_jacks`` ...)."""
    shown = {name.replace("-", "_"): sign * value for name, value in items.items()}
    return Breakdown(contract=kind, points=sum(shown.values()), **shown)


# --------------------------------------------------------------------------- tally


def _score_tally(tally: TrickTally | LotteryTally) -> ScoreReport:
    """Score one deal from a score sheet (docs/rules/kierki.md §8): ``contract`` and ``players``
    always, ``options`` optionally; ``seats`` (the cards and trick numbers each seat took) for a
    trick contract, ``finish_order`` (the first two seats out) for the loteryjka."""
    players = tally.players
    options = Options() if tally.options is None else Options(**{
        name: getattr(tally.options, name) for name in SPEC.option_map})
    sign = _sign(options)
    kind = Deal(tally.contract)
    if isinstance(tally, LotteryTally):
        order = tally.finish_order
        if len(set(order)) != 2 or any(s >= players for s in order):
            raise C.bad_tally(f"finish_order must be two different seats below {players}, got {list(order)}",
                              field="finish_order")
        points = list(_lottery_points(order, lottery_prizes(options, players), players))
        items: list[dict[str, int]] = [{"prize": p} for p in points]
    else:
        seats = tally.seats
        if len(seats) != players:
            raise C.bad_tally(f"'seats' must list {players} seats' cards and tricks, got {len(seats)}", field="seats")
        for s, entry in enumerate(seats):
            if len(entry.cards) != players * len(entry.tricks):
                raise C.cards_per_trick(f"seat {s} took {len(entry.tricks)} tricks, so {players * len(entry.tricks)} "
                                        f"cards, not {len(entry.cards)}")
        everything = [c for entry in seats for c in entry.cards]
        _missing, extra = missing_and_extra(everything, full_deck(players))
        if extra:
            raise C.card_conservation(f"cards not in the pack or taken twice: {card_strs(extra)}")
        all_numbers = sorted(k for entry in seats for k in entry.tricks)
        played = len(all_numbers)
        if all_numbers != list(range(1, played + 1)) or played > _tricks_per_deal(players):
            raise C.trick_numbers(f"trick numbers must be 1..k, each once, got {all_numbers}")
        items = [trick_deal_items(kind, options, players, entry.cards, entry.tricks) for entry in seats]
        points = [sum(i.values()) for i in items]
        if played < _tricks_per_deal(players) and (
            kind in _PLAYED_OUT or sum(points) != deal_total(kind, options, players)
        ):
            raise C.deal_unfinished(f"only {played} tricks: a {kind.value} deal ends early only when no penalty is left")
    shown = tuple(sign * p for p in points)
    return ScoreReport(points=shown, totals=shown, breakdown=tuple(_breakdown(kind, i, sign) for i in items),
                       final=True, round=1)


# --------------------------------------------------------------------------- meaning


def _check_plays(state: State) -> None:
    """The current trick and the last completed one were played legally from the hands the seats
    held then: the hand now plus the cards each played since (§3: follow suit; the hearts lead;
    KI-4). A seat that showed a void there holds none of that suit now. (Earlier tricks are
    checked for their leader and winner only.)"""
    n = state.players
    tricks = [(t.leader, t.cards) for t in state.tricks[-1:]] + [(state.leader, state.trick)]
    if _plainly_allowed(tricks, _trick_rules(state).lead_forbidden):
        return
    hands = [list(h) for h in state.hands]
    held: list[list[tuple[Card, ...]]] = []
    for leader, cards in reversed(tricks):
        for i, card in enumerate(cards):
            hands[(leader + i) % n].append(card)
        held.append([tuple(h) for h in hands])
    held.reverse()
    first = len(state.tricks) - len(tricks) + 2  # the number of the first trick checked
    for number, ((leader, cards), before) in enumerate(zip(tricks, held, strict=True), first):
        plays: list[Play] = []
        for i, card in enumerate(cards):
            seat = (leader + i) % n
            # following the led suit is always allowed (the cards of the led suit are what may be
            # played, and KI-4's king drop applies only to another suit's lead): the rule is asked
            # only for a lead or a card off the led suit
            if not (plays and card.suit is plays[0].card.suit) and card not in _allowed(state, before[seat], plays):
                raise C.bad_trick(f"seat {seat} could not play {card} in trick {number} holding the cards it holds",
                                  seat=seat, card=str(card))
            plays.append(Play(seat, card))


def _plainly_allowed(tricks: list[tuple[int, tuple[Card, ...]]], forbidden: frozenset[Suit]) -> bool:
    """Every trick is led by a suit that may be led and followed in that suit: such plays are
    allowed whatever the hands held (``_allowed`` lists a lead's permitted suits and the led
    suit's cards; KI-4's king drop concerns another suit's lead), so no hand need be rebuilt."""
    for _leader, cards in tricks:
        if cards and (cards[0].suit in forbidden or any(c.suit is not cards[0].suit for c in cards[1:])):
            return False
    return True


def _check_seats(state: State) -> None:
    """Every seat named in the state is one of the table's (the shape allows 0..3)."""
    n = state.players
    seats = [state.dealer, state.leader, state.turn, *state.finished]
    for t in state.tricks:
        seats += (t.leader, t.winner)
    bad = next((i for i, seat in enumerate(seats) if seat is not None and seat >= n), None)
    if bad is None:
        return
    # the field's name, in the order of ``seats``, written only for a refusal
    names = ["dealer", "leader", "turn", *(f"finished.{i}" for i in range(len(state.finished))),
             *(f"tricks.{i}.{part}" for i in range(len(state.tricks)) for part in ("leader", "winner"))]
    raise C.bad_state(f"{names[bad]} must be a seat 0..{n - 1}, got {seats[bad]}", field=names[bad])


def _check_meaning(state: State) -> State:
    """Conservation, a consistent turn and phase, tricks won by the right seat (§9); returns the
    state with its loteryjka rows in suit order."""
    n = state.players
    deals = deal_list(state.options, n)
    if state.round > len(deals):
        raise C.bad_state(f"round must be a deal of the match's list 1..{len(deals)}, got {state.round}", field="round")
    if len(state.hands) != n:
        raise C.seat_count(f"{n} players need {n} hands, got {len(state.hands)}", field="hands", expected=n,
                           got=len(state.hands))
    _check_seats(state)
    suits = [r.suit for r in state.rows]
    for row in state.rows:
        if suits.count(row.suit) > 1 or row.low > row.high:
            raise C.bad_row(f"a bad or repeated loteryjka row: {row.suit.value} {row.low}..{row.high}")
    rows = tuple(sorted(state.rows, key=lambda r: _SUIT_INDEX[r.suit]))
    if rows != state.rows:  # a state this service wrote has them in order: no copy of the state
        state = replace(state, rows=rows)
    kind = deals[state.round - 1]
    phase = state.phase
    named = kind is Deal.TRUMPS and phase is not Phase.NAME_TRUMP
    if (state.trump is None and named) or (state.trump is Trump.NO_TRUMP and not named):
        given = "no trump named" if state.trump is None else f"trump {state.trump.value!r}"
        raise C.bad_trump(f"{given} does not fit phase {phase.value!r} of the {kind.value} deal")
    if state.contract is not kind:
        raise C.bad_contract(f"deal {state.round} is {kind.value!r}, not {state.contract.value!r}", expected=kind.value)
    over = phase in _OVER
    if over != (state.turn is None):
        raise C.bad_turn("turn is null exactly when the deal is over")
    if (phase is Phase.GAME_OVER) != (over and state.round == len(deals)):
        raise C.bad_phase(f"the game is over exactly when the last deal ({len(deals)}) is over; deal {state.round} "
                          f"is {phase.value!r}")
    # history: one line per finished deal, each summing to that deal's total
    finished = state.round - (not over)
    if len(state.history) != finished:
        raise C.bad_history(f"deal {state.round} in phase {phase.value!r} needs {finished} finished deals in history, "
                            f"got {len(state.history)}", expected=finished)
    sign = _sign(state.options)
    for k, shown in enumerate(state.history):
        line = [sign * p for p in shown]  # penalties negative
        total = deal_total(deals[k], state.options, n)
        possible = _possible_points(deals[k], state.options, n)
        if len(line) != n or sum(line) != total or any(p not in possible for p in line) or (
                deals[k] is Deal.LOTERYJKA and sorted(line) != _lottery_line(state.options, n)):
            raise C.bad_history(f"deal {k + 1} ({deals[k].value}) must total {sign * total} over {n} seats, each a "
                                f"sum its penalties or prizes can make, got {list(shown)}")
    # conservation: hands + stock + trick + tricks + loteryjka rows == the pack
    laid = [Card(Rank(r), row.suit) for row in state.rows for r in range(row.low, row.high + 1)]
    everything = [*state.stock, *state.trick, *laid]
    for h in state.hands:
        everything.extend(h)
    for t in state.tricks:
        everything.extend(t.cards)
    pack = full_deck(n)
    # one instance per card (rules/cards.py): the cards are the pack exactly when they are as many
    # as its distinct cards and make its set; only a refusal counts what is missing and extra
    if len(everything) != len(pack) or set(everything) != _pack_set(n):
        missing, extra = missing_and_extra(everything, pack)
        raise C.card_conservation(f"the {len(full_deck(n))} cards do not add up: missing {card_strs(missing)}, "
                                  f"extra or duplicated {card_strs(extra)}")
    per_deal = _tricks_per_deal(n)
    left = next_seat(state.dealer, n)
    if kind is Deal.LOTERYJKA:
        if state.tricks or state.trick or state.stock or state.trump is not None:
            raise C.bad_phase("the loteryjka has no tricks, stock or trumps")
        if phase is not Phase.LOTTERY and not over:
            raise C.bad_phase(f"the loteryjka is never in phase {phase.value!r}")
        for row in state.rows:
            if not row.low <= state.options.lottery_start_rank <= row.high:
                raise C.bad_row(f"every loteryjka row holds the start rank {state.options.lottery_start_rank}")
        if any(len(h) > per_deal for h in state.hands):
            raise C.bad_hand_size(f"a loteryjka hand holds at most the {per_deal} cards dealt")
        empty = {s for s in range(n) if not state.hands[s]}
        if len(set(state.finished)) != len(state.finished) or set(state.finished) != empty:
            raise C.bad_finished(f"the finished seats {list(state.finished)} must be those with no cards "
                                 f"{sorted(empty)}")
        if (len(state.finished) >= 2) != over or len(state.finished) > 2:
            raise C.bad_phase("the loteryjka is over exactly when two players are out")
        if state.leader != left:
            raise C.bad_turn(f"the loteryjka starts left of the dealer, at seat {left}, not {state.leader}")
        if phase is Phase.LOTTERY and state.turn in state.finished:
            raise C.bad_turn(f"seat {state.turn} is out and cannot be to play")
        return state
    if state.rows or state.finished:
        raise C.bad_phase("only the loteryjka has rows and finished players")
    if kind is not Deal.TRUMPS and state.trump is not None:
        raise C.bad_phase(f"the {kind.value} deal has no trumps")
    if state.trump is Trump.NO_TRUMP and not state.options.no_trump_allowed:
        raise C.bad_trump("no trump ('NT') is played only with the option no_trump_allowed")
    if phase is Phase.NAME_TRUMP:
        naming_a = state.options.trump_chooser == "dealer-after-5"
        size = _FIRST_HAND if naming_a else per_deal
        if kind is not Deal.TRUMPS or state.tricks or state.trick or state.trump is not None:
            raise C.bad_phase("trumps are named before any card is played in a trump deal")
        if any(len(h) != size for h in state.hands) or bool(state.stock) != naming_a:
            raise C.bad_hand_size(f"while trumps are named each hand holds {size} cards")
        if state.turn != (state.dealer if naming_a else left) or state.leader != left:
            raise C.bad_turn(f"seat {state.turn} does not name trumps (or {state.leader} does not lead next)")
        return state
    if state.stock:
        raise C.bad_phase("the stock is dealt once trumps are named")
    if phase is not Phase.PLAY and not over:
        raise C.bad_phase(f"a {kind.value} deal is never in phase {phase.value!r}")
    # tricks: each led by the previous winner, won by the right card
    leader = left
    trump = _TRUMP_SUIT[state.trump]
    for number, t in enumerate(state.tricks, 1):
        if len(t.cards) != n or t.leader != leader:
            raise C.bad_trick(f"trick {number} must have {n} cards and be led by seat {leader}")
        won = trick_winner(tuple(map(Play, _SEATS_FROM[n][t.leader], t.cards)), trump)
        if won != t.winner:
            raise C.bad_trick(f"trick {number} is won by seat {won}, not {t.winner}")
        leader = t.winner
    if state.leader != leader:
        raise C.bad_turn(f"seat {leader} leads the current trick, not {state.leader}")
    _check_plays(state)
    if len(state.trick) >= n or len(state.tricks) > per_deal:
        raise C.bad_trick("too many cards in the trick or too many tricks")
    if phase is Phase.PLAY and state.turn != (leader + len(state.trick)) % n:
        raise C.bad_turn(f"seat {(leader + len(state.trick)) % n} is to play, not {state.turn}")
    played = set(_SEATS_FROM[n][leader][: len(state.trick)])
    for s, h in enumerate(state.hands):
        if len(h) != per_deal - len(state.tricks) - (s in played):
            raise C.bad_hand_size(f"seat {s} holds {len(h)} cards after {len(state.tricks)} tricks")
    done = len(state.tricks) == per_deal or _no_penalty_left(state)
    if done != over or (over and state.trick):
        raise C.bad_phase(f"the deal is {'over' if done else 'not over'} after {len(state.tricks)} tricks")
    return state


ENGINE = Kierki()
