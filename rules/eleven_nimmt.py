"""11 nimmt! (Wolfgang Kramer, Amigo 2010; Polish edition "11. bierze!", G3), game id ``11-nimmt``, 2-7 players.

The rules as Arbiter applies them, each ruling and option with its default and the rulebook
passage it rests on, are in ``docs/rules/11-nimmt.md``; section numbers below (§5.2 ...) refer to
that page. The game is declared once (DESIGN 4.8): its options, state, moves, score breakdown,
tally and codes below; reading, writing and views come from those declarations, and the engine
keeps the rules and the checks of meaning.

Cards are the integers 1..100. Card ``c`` may go on a stack whose top is ``t`` iff
``1 <= (c - t) % 100 <= 10`` (higher by at most 10, counting on from 100 to 1; §5.1).

Options (``Options`` below, defaults first; §2.2, §3, §4, §5.3, §5.4, §6.2-§6.4): ``heads`` (the
bull-head table, kept in ``_HEAD_TABLES`` so another named table can be added without touching
the rules), ``empty_pile``, ``empty_supply``, ``next_starter``, ``bulls_between_rounds``,
``rounds`` (0: one round per player), ``final_ties``, ``open_information``, ``start_player``.

Representation decisions:

- A turn is one move. ``play`` carries the whole plan, ``{"stack": i, "cards": [...]}`` per
  stack; every card is checked against the top its stack had before the turn and placed in
  order of distance from it (§5.2). Cards and stacks are stored sorted in the move.
- ``take`` names the stack and, when the supply is empty and several seats could give the bull
  card, the ``source`` seat. Whether a source is needed depends only on public facts (supply and
  bull counts), never on the hidden stack size, so a validation request cannot reveal how many
  cards a stack holds (§5.4).
- ``new-stack`` is the §5.3 move; ``next-round`` deals the next round from the state's rng.
- Stack indices are positions in ``stacks``; a take removes its stack and appends the new ones.
- The stock's next card is its last element. ``turn`` is the seat to act, ``null`` once the
  round is over; ``history`` holds the minus points of every finished round (DESIGN 4.5).
- Scores are minus points (bull heads), so lower is better; the score report's ``points`` are
  the heads in each hand (final once the round is over, since the seat that went out holds
  nothing).
- Hidden information (§4): views show the seat's own hand, ``null`` for the others with
  ``hand_sizes``, the stock as ``null`` with ``stock_size``, and each stack as ``null`` with its
  top card in ``stacks_tops`` (never its size: "Gracz nie może sprawdzać, ile kart jest w
  poszczególnych stosach"). Once a round is over its hands are shown, as they are counted
  openly at the table.
- ``from_json`` refuses states play cannot reach, beyond card conservation (§8).
- ``legal_moves`` is not always complete: a player holding bull cards may play any subset of
  the fitting cards onto each of up to that many stacks, which can be exponentially many
  plans. Up to ``_PLAN_CAP`` plans are listed in full (the usual case); beyond that the list
  holds every take, the first ``_PLAN_CAP`` plans, every single-card play, each stack's whole
  fitting set and one maximal plan over several stacks, and ``check`` judges any other plan.
  (Listing many plays keeps uniformly random playouts from being dominated by takes.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from enum import Enum
from types import MappingProxyType
from typing import Annotated, Any, ClassVar, Literal, TypeVar

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
    excerpt,
    illegal,
    invalid,
    replace,
)
from rules.events import event
from rules.jsontypes import Json
from rules.shapes import Doc, Length, Range, Visibility, declared, field, option
from rules.spec import GameSpec, Playout, phase_labels

# --------------------------------------------------------------------------- constants

_GAME = "11-nimmt"
_CARDS = tuple(range(1, 101))
_ALL_CARDS = frozenset(_CARDS)
_HAND_SIZE = 10
_CARDS_AFTER_DEAL = 99  # the first stack's card is turned up from the rest
_BULL_CARDS = 10
_MAX_DISTANCE = 10
_BULL_STACK_SIZE = 3  # taking a stack of at least this many cards earns a bull card
_NEW_STACKS = 2
_PLAN_CAP = 256  # list every play plan up to this many; beyond, the first ones and representatives
_MAX_PLAYERS = 7
_MAX_ROUNDS = 20
_MAX_HEADS = 167  # all 100 cards under the 6 nimmt! table


def _six_nimmt_heads() -> tuple[int, ...]:
    """The 6 nimmt! bull-head formula on 1..100 (docs/rules/11-nimmt.md §2.2), indexed by card (index 0 unused)."""
    heads = [0] + [1] * 100
    for card in range(5, 101, 10):
        heads[card] = 2
    for card in range(10, 101, 10):
        heads[card] = 3
    for card in range(11, 100, 11):
        heads[card] = 5
    heads[55] = 7
    return tuple(heads)


# The one replaceable data table: option value -> heads per card (index = card).
_HEAD_TABLES: Mapping[str, tuple[int, ...]] = MappingProxyType({"6-nimmt": _six_nimmt_heads()})


class Phase(Enum):
    PLAY = "play"
    ROUND_OVER = "round-over"
    GAME_OVER = "game-over"


# --------------------------------------------------------------------------- shapes

Card = Annotated[int, Range(1, 100), Doc("an 11 nimmt! card: 1..100")]
Cards = Annotated[tuple[Card, ...], Length(0, 100)]
Seat = Annotated[int, Range(0, _MAX_PLAYERS - 1)]
PerSeat = Length(2, _MAX_PLAYERS)
Heads = Annotated[int, Range(0, _MAX_HEADS)]
HeadTable = Literal["6-nimmt"]
_DOC = "docs/rules/11-nimmt.md"


@declared
class Options:
    heads: HeadTable = option(
        default="6-nimmt",
        description=f"Bull-head table ({_DOC} §2.2): '6-nimmt' is the 6 nimmt! formula on 1..100 (55: 7, multiples "
                    "of 11: 5, of 10: 3, ending in 5: 2, others 1; 167 heads).",
        label=Label("Bull heads", "Bycze głowy"),
        help=Label("How many bull heads each card carries.", "Ile byczych głów ma każda karta."),
        choices={"6-nimmt": Label("As in 6 nimmt! (167 in all)", "Jak w 6 nimmt! (razem 167)")})
    empty_pile: Literal["new-stack"] = option(
        default="new-stack",
        description=f"Empty stock ({_DOC} §5.3): a take reveals as many stacks as cards are left; with no stacks on "
                    "the table the player places any one card as a new stack.",
        label=Label("Stock used up", "Koniec stosu do dobierania"),
        help=Label("With no stacks on the table, the player to act lays one card as a new stack.",
                   "Gdy na stole nie ma stosów, gracz wykłada jedną kartę jako nowy stos."),
        choices={"new-stack": Label("Lay a card as a new stack", "Nowy stos z karty z ręki")})
    next_starter: Literal["cumulative", "round"] = option(
        default="cumulative",
        description=f"Who starts the next round ({_DOC} §6.2): 'cumulative' = most cumulative minus points (ties: "
                    "more in the last round, then clockwise after the seat that went out); 'round' = most in the "
                    "last round (ties: cumulative, then clockwise).",
        label=Label("Next round's starter", "Kto zaczyna następną rundę"),
        help=Label("The player with the most minus points starts the next round: counted over the game or over "
                   "the last round.",
                   "Następną rundę zaczyna gracz z największą liczbą punktów ujemnych: liczonych z całej gry albo "
                   "z ostatniej rundy."),
        choices={"cumulative": Label("Most minus points in all", "Najwięcej punktów ujemnych w sumie"),
                 "round": Label("Most minus points last round", "Najwięcej punktów ujemnych w ostatniej rundzie")})
    bulls_between_rounds: Literal["return", "keep"] = option(
        default="return",
        description=f"Bull cards at the end of a round ({_DOC} §6.3): 'return' to the supply, or 'keep'.",
        label=Label("Bull cards after a round", "Karty byków po rundzie"),
        help=Label("Whether the bull cards go back to the supply when a round ends.",
                   "Czy po rundzie karty byków wracają do zapasu."),
        choices={"return": Label("Back to the supply", "Wracają do zapasu"),
                 "keep": Label("Players keep them", "Gracze je zatrzymują")})
    empty_supply: Literal["opponents", "all-players"] = option(
        default="opponents",
        description=f"Bull card when the supply is empty ({_DOC} §5.4): 'opponents' = from the opponent with the "
                    "most (taker's choice among ties; none if no opponent has one); 'all-players' = from the player "
                    "with the most, nothing if that is the taker.",
        label=Label("Bull supply used up", "Brak kart byków w zapasie"),
        help=Label("Whom a bull card is taken from once the supply is empty.",
                   "Od kogo bierze się kartę byka, gdy zapas się skończył."),
        choices={"opponents": Label("The opponent with the most", "Przeciwnik, który ma ich najwięcej"),
                 "all-players": Label("The player with the most", "Gracz, który ma ich najwięcej")})
    open_information: bool = option(
        default=False,
        description=f"Views show whole stacks instead of top cards only ({_DOC} §4; for debugging).",
        label=Label("Open stacks", "Odkryte stosy"),
        help=Label("Everyone may look through the stacks (not a rule of the game: for teaching).",
                   "Każdy może przeglądać stosy (to nie zasada gry: do nauki)."))
    final_ties: Literal["shared"] = option(
        default="shared",
        description=f"Final ties on the fewest minus points ({_DOC} §6.4): 'shared' win.",
        label=Label("Equal totals", "Remis"),
        help=Label("Players tied on the fewest minus points share the win.",
                   "Gracze z równą, najmniejszą liczbą punktów ujemnych dzielą zwycięstwo."),
        choices={"shared": Label("Shared victory", "Wspólne zwycięstwo")})
    rounds: Annotated[int, Range(0, _MAX_ROUNDS)] = option(
        default=0,
        description=f"Number of rounds ({_DOC} §6.4); 0 = one round per player.",
        label=Label("Rounds", "Liczba rund"),
        help=Label("How many rounds are played; 0 plays one round per player.",
                   "Ile rund się rozgrywa; 0 to tyle rund, ilu graczy."))
    start_player: Seat = option(
        default=0,
        description=f"Seat that starts the first round ({_DOC} §3: the youngest player).",
        label=Label("Starting player", "Gracz rozpoczynający"),
        help=Label("The seat that starts the first round (the rules say: the youngest player).",
                   "Miejsce gracza, który zaczyna pierwszą rundę (według zasad: najmłodszy)."))


def _hands_shown(state: State, seat: int | None) -> Visibility:
    """Hands are private while a round is played and counted openly once it is over (§4)."""
    return Visibility.OWN if state.phase is Phase.PLAY else Visibility.PUBLIC


def _stacks_shown(state: State, seat: int | None) -> Visibility:
    """Stacks show their tops alone, unless the option ``open_information`` opens them (§4)."""
    return Visibility.PUBLIC if state.options.open_information else Visibility.TOP_EACH


@declared
class State:
    players: Annotated[int, Range(2, _MAX_PLAYERS)]
    options: Options
    phase: Phase
    round: Annotated[int, Range(1, _MAX_ROUNDS)] = field(doc="the round being played (1-based)")
    starter: Seat = field(doc="the seat that started this round")
    turn: Seat | None = field(doc="the seat to act; null once the round is over")
    went_out: Seat | None = field(doc="the seat whose hand emptied; null while the round runs")
    hands: Annotated[tuple[Cards, ...], PerSeat] = field(
        doc="each seat's hand, ascending", visibility=Visibility.OWN, sizes_name="hand_sizes", reveal=_hands_shown)
    stacks: Annotated[tuple[Annotated[tuple[Card, ...], Length(1, 100)], ...], Length(0, 100)] = field(
        doc="the stacks on the table, each bottom to top", visibility=Visibility.TOP_EACH, sized=False,
        reveal=_stacks_shown)
    stock: Cards = field(doc="the face-down draw pile, next card last", visibility=Visibility.HIDDEN)
    bulls: Annotated[tuple[Annotated[int, Range(0, _BULL_CARDS)], ...], PerSeat] = field(
        doc="bull cards held per seat")
    supply: Annotated[int, Range(0, _BULL_CARDS)] = field(doc="bull cards left in the supply")
    history: Annotated[tuple[Annotated[tuple[Heads, ...], PerSeat], ...], Length(0, _MAX_ROUNDS)] = field(
        doc="minus points per seat of every finished round (this one too once it is over)")
    rng: Rng = field(visibility=Visibility.SECRET)


# --------------------------------------------------------------------------- moves


@declared
class StackPlay:
    """Cards onto one stack, each within 10 above the top it had before the turn."""

    stack: Annotated[int, Range(0, 99)] = field(doc="the stack's position in `stacks`")
    cards: Annotated[tuple[Card, ...], Length(1, 100)]


@declared
class Play:
    """Cards onto stacks: one entry per stack, stacks and cards ascending (§5.2)."""

    plays: Annotated[tuple[StackPlay, ...], Length(1, 100)]
    kind: ClassVar[str] = "play"
    label: ClassVar[Label] = Label("Play cards", "Dołóż karty")


@declared
class Take:
    """Take a whole stack into the hand; ``source`` names the seat a bull card comes from when
    there is a choice (§5.4)."""

    stack: Annotated[int, Range(0, 99)] = field(doc="the stack's position in `stacks`")
    source: Seat | None = field(default=None, doc="the seat the bull card comes from, where there is a choice")
    kind: ClassVar[str] = "take"
    label: ClassVar[Label] = Label("Take a stack", "Zbierz stos")


@declared
class NewStack:
    """With no stacks on the table, place one card from the hand as a new stack (§5.3)."""

    card: Card
    kind: ClassVar[str] = "new-stack"
    label: ClassVar[Label] = Label("Start a new stack", "Zacznij nowy stos")


Move = Play | Take | NewStack | NextRound


# --------------------------------------------------------------------------- scores


@declared
class CardHeads:
    card: Card
    heads: Annotated[int, Range(1, 7)] = field(doc="the card's bull heads")


@declared
class Breakdown:
    """One seat's minus points of a round: the cards left in its hand with their bull heads."""

    cards: Annotated[tuple[CardHeads, ...], Length(0, 100)] = field(doc="the cards in hand, each with its heads")
    went_out: bool = field(doc="whether this seat's hand emptied (it scores 0)")
    bulls: Annotated[int, Range(0, _BULL_CARDS)] = field(doc="bull cards held (they score nothing)")
    points: Heads = field(doc="the round's minus points: the heads in hand")


@declared
class Tally:
    """A finished round's score sheet: the cards left in each hand (exactly one empty), and
    perhaps the totals before the round and the bull cards held."""

    hands: Annotated[tuple[Cards, ...], PerSeat]
    heads: HeadTable = field(default="6-nimmt", doc="as the option `heads`")
    previous: Annotated[tuple[Annotated[int, Range(0, _MAX_HEADS * _MAX_ROUNDS)], ...], PerSeat] | None = field(
        default=None, doc="each seat's total before this round")
    bulls: Annotated[tuple[Annotated[int, Range(0, _BULL_CARDS)], ...], PerSeat] | None = field(
        default=None, doc="bull cards held per seat (they score nothing)")


# --------------------------------------------------------------------------- codes


class C(GameCodes, namespace=_GAME):
    """Every code 11 nimmt! answers (DESIGN 4.4). Polish in the rulebook's words: "stos
    zagranych", "stos do dobierania", "karta byka", "bycze głowy", "punkty ujemne"."""

    round_not_over = ROUND_NOT_OVER
    round_over = ROUND_OVER
    setup_unsupported = SETUP_UNSUPPORTED
    bad_tally = BAD_TALLY
    seat_count = SEAT_COUNT
    no_stacks = illegal(
        Label("No stacks on the table", "Brak stosów zagranych"),
        "Na stole nie ma żadnego stosu zagranych: gracz {seat} wykłada jedną kartę z ręki jako nowy stos.",
        "There are no stacks to play onto or take: lay one hand card as a new stack (`new-stack`).",
        "Nie ma stosów, na które można dokładać albo które można zebrać: wyłóż kartę z ręki jako nowy stos "
        "(`new-stack`).")
    empty_play = illegal(
        Label("Empty play", "Puste zagranie"), "Zagranie musi zawierać co najmniej jedną kartę.",
        "A play names at least one stack and at least one card for each stack it names.",
        "Zagranie wskazuje co najmniej jeden stos i co najmniej jedną kartę na każdy wskazany stos.")
    no_such_stack = illegal(
        Label("No such stack", "Nie ma takiego stosu"),
        "Nie ma stosu zagranych o numerze {stack}: na stole leży ich {expected}.",
        "Stacks are numbered by their position in `stacks`, from 0. Name a stack that is on the table.",
        "Stosy numeruje się według miejsca w `stacks`, od 0. Wskaż stos, który leży na stole.")
    duplicate_stack = illegal(
        Label("Stack named twice", "Stos podany dwa razy"),
        "Stos {stack} występuje w zagraniu dwa razy: wszystkie jego karty podaje się razem.",
        "A play names each stack once, with all the cards going onto it.",
        "Zagranie wymienia każdy stos raz, ze wszystkimi kartami, które się na niego dokłada.")
    card_played_twice = illegal(
        Label("Card played twice", "Karta zagrana dwa razy"), "Karta {card} występuje w zagraniu więcej niż raz.",
        "A play names the same card twice (on one stack or on two). Each card is played once.",
        "Zagranie wymienia tę samą kartę dwa razy (na jednym stosie albo na dwóch). Każdą kartę zagrywa się raz.")
    needs_bull_card = illegal(
        Label("A bull card is needed", "Potrzebna karta byka"),
        "Bez karty byka gracz {seat} dokłada dokładnie jedną kartę, a nie {got}.",
        "Without a bull card a player plays exactly one card onto one stack.",
        "Bez karty byka gracz dokłada dokładnie jedną kartę na jeden stos.")
    too_many_stacks = illegal(
        Label("Too many stacks", "Za dużo stosów"),
        "Karty byka gracza {seat} pozwalają dokładać karty na najwyżej tyle stosów: {expected}; zagranie obejmuje "
        "ich {got}.",
        "With k bull cards a player plays onto at most k stacks (one stack without any).",
        "Mając k kart byka, gracz dokłada karty na najwyżej k stosów (bez karty byka na jeden).")
    card_not_in_hand = illegal(
        Label("Card not in hand", "Karty nie ma na ręce"), "Gracz {seat} nie ma na ręce karty {card}.",
        "The move names a card the seat does not hold. Choose cards from the seat's hand.",
        "Ruch wskazuje kartę, której gracz nie ma na ręce. Wybierz karty z ręki.")
    not_in_range = illegal(
        Label("Card out of range", "Karta poza zasięgiem"),
        "Karty {card} nie można dołożyć na stos {stack}: musi być wyższa od wierzchniej karty {top} najwyżej o 10 "
        "(po 100 liczy się dalej od 1).",
        "A card goes on a stack only if it is 1 to 10 above the stack's top before the turn (after 100 counting "
        "goes on from 1).",
        "Kartę można dołożyć tylko wtedy, gdy jest od 1 do 10 wyższa od wierzchniej karty stosu sprzed tury (po "
        "100 liczy się dalej od 1).")
    source_required = illegal(
        Label("Name the bull card's source", "Wskaż, od kogo karta byka"),
        "Karty byków w zapasie się skończyły, a najwięcej ich mają gracze {expected}: wskaż, od którego z nich "
        "bierzesz kartę byka.",
        "The supply is empty and several seats tie for the most bull cards: the take names one in `source`.",
        "Zapas kart byków się skończył, a najwięcej mają ich ex aequo różni gracze: wskaż jednego w polu "
        "`source`.")
    source_not_needed = illegal(
        Label("No source needed", "Karta byka jest w zapasie"),
        "Karty byków są jeszcze w zapasie: nie bierze się ich od gracza {seat}.",
        "Bull cards still lie in the supply, so a take names no `source`. Leave it out.",
        "Karty byków są jeszcze w zapasie, więc zebranie stosu nie wskazuje `source`. Pomiń to pole.")
    bad_source = illegal(
        Label("Wrong bull card source", "Nie od tego gracza"),
        "Od gracza {seat} nie można wziąć karty byka; można od: {expected}.",
        "The `source` is not a seat a bull card may come from (`expected` lists those; empty when none would "
        "move).",
        "Od wskazanego w `source` gracza nie można wziąć karty byka (`expected` wymienia, od kogo można; pusta "
        "lista, gdy żadna karta nie przechodzi).")
    stacks_on_table = illegal(
        Label("Stacks on the table", "Na stole są stosy"),
        "Nowy stos zaczyna się tylko wtedy, gdy na stole nie ma żadnego; leży ich {got}.",
        "A new stack is started only when no stack lies on the table. Play onto a stack or take one.",
        "Nowy stos zaczyna się tylko wtedy, gdy na stole nie ma żadnego. Dołóż karty albo zbierz stos.")
    bad_phase = invalid(
        Label("Wrong phase", "Zła faza gry"), "Faza gry nie zgadza się z rundą i rękami graczy.",
        "The game is over exactly when the last round is over; a round is over exactly when a hand is empty.",
        "Gra kończy się dokładnie wtedy, gdy kończy się ostatnia runda; runda kończy się dokładnie wtedy, gdy "
        "czyjaś ręka jest pusta.")
    bad_round = invalid(
        Label("Wrong round", "Zły numer rundy"),
        "Runda {got} nie mieści się w grze: rund jest tyle, ilu graczy (albo ile ustalono).",
        "The state's round is beyond the rounds the options give (one per player unless `rounds` says).",
        "Numer rundy przekracza liczbę rund z opcji (tyle, ilu graczy, chyba że `rounds` mówi inaczej).")
    bad_turn = invalid(
        Label("Wrong turn", "Nie ta kolej"),
        "Kolej gracza nie zgadza się ze stanem gry: tego układu nie da się osiągnąć.",
        "The seat to act (or the seat that went out) is not what the phase and the cards played so far give.",
        "Gracz, na którego przypada kolej (albo który skończył karty), nie wynika z fazy i z dotychczasowej gry.")
    bad_hands = invalid(
        Label("Impossible hands", "Niemożliwe karty na ręce"),
        "Karty na rękach graczy nie zgadzają się z przebiegiem rundy.",
        "A hand is empty while the round runs, the empty hand is not the seat that went out, or the hand sizes "
        "do not fit the turns played.",
        "Ręka jest pusta w trakcie rundy, pusta ręka nie należy do gracza, który skończył, albo liczby kart nie "
        "pasują do rozegranych tur.")
    bad_stack = invalid(
        Label("Impossible stack", "Niemożliwy stos"),
        "Stos zagranych łamie zasadę maksymalnej różnicy 10.",
        "Every card of a stack lies 1 to 10 above the card below it (after 100 counting goes on from 1).",
        "Każda karta stosu jest od 1 do 10 wyższa od karty pod nią (po 100 liczy się dalej od 1).")
    bad_stock = invalid(
        Label("Stock and stacks disagree", "Stos do dobierania nie zgadza się"),
        "Liczba kart w stosie do dobierania nie zgadza się z liczbą stosów zagranych: każde zebranie stosu "
        "odkrywa dwie karty.",
        "While the stock lasts each take reveals two cards, so the stock's size gives the number of stacks.",
        "Póki jest stos do dobierania, każde zebranie stosu odkrywa dwie karty, więc jego wielkość wyznacza "
        "liczbę stosów zagranych.")
    duplicate_card = invalid(
        Label("Card twice", "Karta dwa razy"), "Karta {card} występuje więcej niż raz.",
        "Each of the 100 cards is in exactly one place (a hand, a stack, the stock); this one is in two.",
        "Każda ze 100 kart leży w dokładnie jednym miejscu (ręka, stos zagranych, stos do dobierania); ta jest w "
        "dwóch.")
    missing_card = invalid(
        Label("Missing card", "Brak karty"), "Brakuje karty {card}: wszystkie 100 kart musi być w grze.",
        "Every card 1..100 must be somewhere in the state (hands, stacks, stock).",
        "Każda karta od 1 do 100 musi gdzieś być w stanie gry (ręce, stosy, stos do dobierania).")
    bad_bulls = invalid(
        Label("Impossible bull cards", "Niemożliwe karty byków"),
        "Karty byków graczy i zapas nie dają razem 10 albo nie mogły zostać zdobyte.",
        "The bull cards held and the supply total 10, and no more can have left the supply this round than "
        "stacks were taken.",
        "Karty byków graczy i zapas dają razem 10, a w tej rundzie z zapasu nie mogło ubyć więcej kart, niż "
        "zebrano stosów.")
    bad_history = invalid(
        Label("Wrong history", "Zły zapis rund"), "Punkty ujemne zapisanych rund nie zgadzają się ze stanem gry.",
        "`history` holds one row per finished round, each with exactly one 0, the last one what the hands score.",
        "`history` ma jeden wiersz na każdą skończoną rundę, w każdym dokładnie jedno 0, a ostatni to wynik z "
        "kart na rękach.")
    bad_starter = invalid(
        Label("Wrong starting player", "Zły gracz rozpoczynający"),
        "Rundę rozpoczyna gracz {expected} (najwięcej punktów ujemnych), a nie gracz {seat}.",
        "Round 1 is started by `start_player`, every later one by the seat with the most minus points (§6.2).",
        "Pierwszą rundę zaczyna `start_player`, każdą następną gracz z największą liczbą punktów ujemnych.")


@event
class BullCardEvent:
    """A seat that took a stack got a bull card: from the supply, or from another seat."""

    type: Literal["bull-card"] = "bull-card"
    seat: Seat
    source: Seat | None = field(doc="the seat the bull card came from; null for the supply")


@event
class NewStacksEvent:
    """Stacks were opened from the draw pile after a take: their first cards."""

    type: Literal["new-stacks"] = "new-stacks"
    cards: Annotated[tuple[Card, ...], Length(1, 100)] = field(doc="the first card of each new stack")


@event
class RoundScoresEvent:
    """The round ended: each seat's minus points (heads) of the round."""

    type: Literal["round-scores"] = "round-scores"
    round: Annotated[int, Range(1, _MAX_ROUNDS)] = field(doc="the round scored")
    points: Annotated[tuple[Heads, ...], PerSeat] = field(doc="per seat, the round's minus points")


EVENTS = (BullCardEvent, NewStacksEvent, RoundScoresEvent)


SPEC = GameSpec(
    id=_GAME,
    name="11 nimmt!",
    label=Label("11 nimmt!", "11. bierze!"),
    players=range(2, _MAX_PLAYERS + 1),
    options=Options,
    state=State,
    moves=(Play, Take, NewStack, NextRound),
    phases=phase_labels(Phase),
    codes=C,
    breakdown=Breakdown,
    tally=Tally,
    legal_moves_complete=False,
    terms={
        "stacks": Label("Stacks", "Stosy"), "stock": Label("Stock", "Stos do dobierania"),
        "bulls": Label("Bull cards", "Karty byków"), "supply": Label("Bull supply", "Zapas kart byków"),
        "heads": Label("Bull heads", "Bycze głowy"), "cards": Label("Cards", "Karty"),
        "went_out": Label("Went out", "Bez kart na ręce"), "points": Label("Minus points", "Punkty ujemne"),
        "stack": Label("Stack", "Stos"), "round": Label("Round", "Runda"),
        # the log's sentences (service/static/play/log.js fills the {names})
        "move:play": Label("{seat} played {plays}", "{seat} dokłada {plays}"),
        "move:take": Label("{seat} took stack {stack}", "{seat} zbiera stos {stack}"),
        "move:new-stack": Label("{seat} started a new stack with {card}", "{seat} zaczyna nowy stos kartą {card}"),
        "move:next-round": Label("{seat} dealt the next round", "{seat} rozdaje następną rundę"),
        "event:bull-card": Label("{seat} took a bull card", "{seat} bierze kartę byka"),
        "event:new-stacks": Label("New stacks: {cards}", "Nowe stosy: {cards}"),
        "event:round-scores": Label("Round {round}: {points}", "Runda {round}: {points}"),
    },
    playout=Playout(weights={"take": 0.02}, long_options={"rounds": 20}),
    tally_example={"hands": [[55, 10, 3, 100], [], [11, 12]], "previous": [5, 0, 1], "bulls": [2, 0, 3]},
    events=EVENTS,
)


# --------------------------------------------------------------------------- engine


class ElevenNimmt(BaseEngine[State, Move]):
    spec = SPEC

    # -- creation ------------------------------------------------------------------

    def new_game(self, players: int, rng: Rng, options: Options, setup: None = None) -> State:
        # a seat of this table: the option's bounds narrowed to the player count (options.out-of-range)
        replace(self.options["start_player"], maximum=players - 1).validate("start_player", options.start_player)
        hands, stacks, stock, rng = _deal(players, rng)
        return State(
            players=players,
            options=options,
            phase=Phase.PLAY,
            round=1,
            starter=options.start_player,
            turn=options.start_player,
            went_out=None,
            hands=hands,
            stacks=stacks,
            stock=stock,
            bulls=(0,) * players,
            supply=_BULL_CARDS,
            history=(),
            rng=rng,
        )

    # -- turn ----------------------------------------------------------------------

    def legal_moves(self, state: State, seat: int) -> Sequence[Move]:
        if seat not in self.to_act(state):
            return []
        if state.phase is Phase.ROUND_OVER:
            return [NextRound()]
        hand = state.hands[seat]
        if not state.stacks:
            return [NewStack(card) for card in hand]
        moves: list[Move] = []
        sources = _bull_sources(state, seat)
        for index in range(len(state.stacks)):
            if len(sources) >= 2:
                moves.extend(Take(index, source) for source in sources)
            else:
                moves.append(Take(index))
        moves.extend(_play_moves(state, seat))
        return moves

    def check(self, state: State, seat: int, move: Move) -> None:
        # checks run on every move: each refusal's message is built only when refusing
        self.check_turn(state, seat)
        if isinstance(move, NextRound):
            if state.phase is not Phase.ROUND_OVER:
                raise C.round_not_over(f"next-round is only possible once a round is over; round {state.round} "
                                       "is still being played", round=state.round)
            return
        if state.phase is not Phase.PLAY:
            raise C.round_over(f"round {state.round} is over: send next-round, not {self.move_to_json(move)}",
                               round=state.round)
        if isinstance(move, Play):
            _check_play(state, seat, move)
        elif isinstance(move, Take):
            _check_take(state, seat, move)
        else:
            _check_new_stack(state, seat, move)

    def _apply(self, state: State, seat: int, move: Move) -> State:
        if isinstance(move, Play):
            return _apply_play(state, seat, move)
        if isinstance(move, Take):
            return _apply_take(state, seat, move)
        if isinstance(move, NewStack):
            return _apply_new_stack(state, seat, move)
        return _apply_next_round(state)

    def emit(self, before: State, seat: int, move: Move, after: State) -> list[Any]:
        out = super().emit(before, seat, move, after)
        if isinstance(move, Take):
            gained = after.bulls[seat] - before.bulls[seat]
            if gained:
                # source: the seat the bull card came from, null for the supply
                source = None if after.supply < before.supply else next(
                    s for s in range(before.players) if after.bulls[s] < before.bulls[s]
                )
                out.append(BullCardEvent(seat=seat, source=source))
            revealed = after.stacks[len(before.stacks) - 1:]
            if revealed:
                out.append(NewStacksEvent(cards=tuple(stack[0] for stack in revealed)))
        if after.phase is not Phase.PLAY and before.phase is Phase.PLAY:
            out.append(RoundScoresEvent(round=after.round, points=after.history[-1]))
        return out

    def move_from_json(self, data: Json) -> Move:
        """The declared reading, then a play's canonical form: stacks and cards ascending."""
        move = super().move_from_json(data)
        if isinstance(move, Play):
            return _canonical(move)
        return move

    # -- scoring -------------------------------------------------------------------

    def scores(self, state: State) -> ScoreReport:
        table = _HEAD_TABLES[state.options.heads]
        current = tuple(_heads(hand, table) for hand in state.hands)
        previous = state.history if state.phase is Phase.PLAY else state.history[:-1]
        totals = tuple(sum(r[s] for r in previous) + current[s] for s in range(state.players))
        breakdown = tuple(_breakdown(state.hands[s], table, went_out=state.went_out == s, bulls=state.bulls[s])
                          for s in range(state.players))
        winners = _winners(totals) if state.phase is Phase.GAME_OVER else ()
        return ScoreReport(current, totals, breakdown, state.phase is not Phase.PLAY, winners,
                           round=state.round, history=previous)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase is not Phase.GAME_OVER:
            return None
        totals = tuple(sum(r[s] for r in state.history) for s in range(state.players))
        return Outcome(_winners(totals), "fewest minus points after the last round", points=totals)

    def tally_scores(self, tally: Tally) -> ScoreReport:
        """Heads of the cards left in each hand at the end of a round (docs/rules/11-nimmt.md §7):
        exactly one hand is empty (the seat that went out), no card twice, and at least one card
        is on the table. Bull cards score nothing."""
        table = _HEAD_TABLES[tally.heads]
        hands = tuple(tuple(sorted(h)) for h in tally.hands)
        players = len(hands)
        for name in ("previous", "bulls"):
            given = getattr(tally, name)
            if given is not None and len(given) != players:
                raise C.bad_tally(f"'{name}' has {len(given)} entries for {players} hands", field=name)
        everything = [c for h in hands for c in h]
        dupes = sorted(c for c, n in Counter(everything).items() if n > 1)
        if dupes:
            raise C.duplicate_card(f"card(s) {dupes} appear in more than one place", card=dupes[0])
        empty = [s for s, h in enumerate(hands) if not h]
        if len(empty) != 1:
            raise C.bad_tally(f"a round ends when exactly one seat has played out its hand; empty hands: {empty}",
                              field="hands")
        if len(everything) >= len(_CARDS):
            raise C.bad_tally("all 100 cards in hands is impossible: the last card played lies on a stack",
                              field="hands")
        bull_cards = tally.bulls or (0,) * players
        if sum(bull_cards) > _BULL_CARDS:
            raise C.bad_tally(f"'bulls' total at most {_BULL_CARDS}, got {list(bull_cards)}", field="bulls")
        previous = tally.previous or (0,) * players
        current = tuple(_heads(h, table) for h in hands)
        totals = tuple(p + r for p, r in zip(previous, current, strict=True))
        breakdown = tuple(_breakdown(hands[s], table, went_out=s == empty[0], bulls=bull_cards[s])
                          for s in range(players))
        history = (tuple(previous),) if tally.previous is not None else ()
        return ScoreReport(current, totals, breakdown, True, (), round=len(history) + 1, history=history)

    # -- meaning -------------------------------------------------------------------

    def check_state(self, state: State) -> State:
        """What play can reach, beyond the shape (§8); returns the state with its hands sorted."""
        return _check_state(state)


# --------------------------------------------------------------------------- helpers: rules


def distance(card: int, top: int) -> int:
    """How far ``card`` is above ``top``, counting on from 100 to 1 (0..99)."""
    return (card - top) % 100


def fits(card: int, top: int) -> bool:
    """docs/rules/11-nimmt.md §5.1, distance rule: "1 <= (c - t) mod 100 <= 10"."""
    return 1 <= (card - top) % 100 <= _MAX_DISTANCE


def _deal(players: int, rng: Rng) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, ...],
                                           Rng]:
    """docs/rules/11-nimmt.md §3: shuffle 100, deal 10 each, turn one card up as the first stack."""
    deck, rng = rng.shuffle(_CARDS)
    dealt = players * _HAND_SIZE
    hands = tuple(tuple(sorted(deck[s * _HAND_SIZE:(s + 1) * _HAND_SIZE])) for s in range(players))
    return hands, ((deck[dealt],),), deck[dealt + 1:], rng


def _max_stacks(state: State, seat: int) -> int:
    """docs/rules/11-nimmt.md §5.2: one stack without bull cards, up to k stacks with k bull cards."""
    return max(1, state.bulls[seat])


def _fitting(hand: Sequence[int], top: int) -> tuple[int, ...]:
    return tuple(c for c in hand if fits(c, top))


def _play_moves(state: State, seat: int) -> list[Play]:
    """Every play plan when there are at most ``_PLAN_CAP``; else the first ``_PLAN_CAP`` of
    them plus the representative plans of ``_representative_plays``."""
    hand = state.hands[seat]
    fitting = [_fitting(hand, stack[-1]) for stack in state.stacks]
    if state.bulls[seat] == 0:
        return [Play((StackPlay(s, (c,)),)) for s, cards in enumerate(fitting) for c in cards]
    max_stacks = _max_stacks(state, seat)
    plans: list[Plan] = []
    for plan in _plans(fitting, max_stacks):
        if len(plans) == _PLAN_CAP:
            listed = set(plans)
            plans.extend(p for p in _representative_plans(fitting, max_stacks) if p not in listed)
            break
        plans.append(plan)
    return [Play(tuple(StackPlay(s, cards) for s, cards in plan)) for plan in plans]


def _canonical(move: Play) -> Play:
    """A play as it is stored: stacks ascending, each stack's cards ascending."""
    plays = sorted((p.stack, tuple(sorted(p.cards))) for p in move.plays)
    return Play(tuple(StackPlay(s, cards) for s, cards in plays))


def _subsets(cards: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Non-empty subsets in ascending order of a sorted tuple, by bit mask."""
    n = len(cards)
    for mask in range(1, 1 << n):
        yield tuple(cards[i] for i in range(n) if mask >> i & 1)


Plan = tuple[tuple[int, tuple[int, ...]], ...]  # (stack, cards) per stack played on


def _plans(fitting: list[tuple[int, ...]], max_stacks: int) -> Iterator[Plan]:
    """Every plan: up to ``max_stacks`` stacks, a non-empty subset of fitting cards on each,
    no card on two stacks. Stacks ascending; ``used`` is a bit set of cards already placed."""

    def extend(start: int, used: int, chosen: Plan, room: int) -> Iterator[Plan]:
        if chosen:
            yield chosen
        if room == 0:
            return
        for s in range(start, len(fitting)):
            free = tuple(c for c in fitting[s] if not used >> c & 1)
            for subset in _subsets(free):
                bits = used
                for c in subset:
                    bits |= 1 << c
                yield from extend(s + 1, bits, (*chosen, (s, subset)), room - 1)

    yield from extend(0, 0, (), max_stacks)


def _representative_plans(fitting: list[tuple[int, ...]], max_stacks: int) -> Iterator[Plan]:
    """Single cards everywhere, each stack's whole fitting set, and one greedy maximal plan."""
    for s, cards in enumerate(fitting):
        for c in cards:
            yield ((s, (c,)),)
    for s, cards in enumerate(fitting):
        if len(cards) > 1:
            yield ((s, cards),)
    best = sorted((s for s in range(len(fitting)) if fitting[s]), key=lambda s: (-len(fitting[s]), s))[:max_stacks]
    used: set[int] = set()
    greedy = []
    for s in sorted(best):
        cards = tuple(c for c in fitting[s] if c not in used)
        if cards:
            used.update(cards)
            greedy.append((s, cards))
    if len(greedy) > 1:
        yield tuple(greedy)


def _check_play(state: State, seat: int, move: Play) -> None:
    if not state.stacks:
        raise C.no_stacks("there are no stacks on the table: place one card as a new stack (docs/rules/11-nimmt.md "
                          "§5.3)", seat=seat)
    plays = move.plays
    if not plays:
        raise C.empty_play("a play needs at least one card on one stack")
    seen_stacks: set[int] = set()
    seen_cards: set[int] = set()
    total = 0
    # the hot path of every play: messages are built only for a refusal (a require() would build each one)
    for entry in plays:
        index, cards = entry.stack, entry.cards
        if not 0 <= index < len(state.stacks):
            raise C.no_such_stack(f"there is no stack {index}: the stacks are 0..{len(state.stacks) - 1}",
                                  stack=index, expected=len(state.stacks))
        if index in seen_stacks:
            raise C.duplicate_stack(f"stack {index} appears twice in the play; list all its cards once", stack=index)
        seen_stacks.add(index)
        if not cards:
            raise C.empty_play(f"no cards given for stack {index}")
        for card in cards:
            if card in seen_cards:
                raise C.card_played_twice(f"card {card} is played twice", card=card)
            seen_cards.add(card)
        total += len(cards)
    bulls = state.bulls[seat]
    if not (bulls > 0 or total == 1):
        raise C.needs_bull_card(f"without a bull card a player plays exactly one card, not {total} "
                                f"({sorted(seen_cards)})", seat=seat, expected=1, got=total)
    most = _max_stacks(state, seat)
    if len(plays) > most:
        raise C.too_many_stacks(f"with {bulls} bull card(s) a player plays onto at most {most} stack(s), not "
                                f"{len(plays)} (stacks {[p.stack for p in plays]})",
                                seat=seat, expected=most, got=len(plays))
    hand = set(state.hands[seat])
    for entry in plays:
        index = entry.stack
        top = state.stacks[index][-1]
        for card in entry.cards:
            if card not in hand:
                raise C.card_not_in_hand(f"card {card} is not in seat {seat}'s hand", card=card, seat=seat)
            if not fits(card, top):
                raise C.not_in_range(f"card {card} cannot go on stack {index} (top {top}): distance "
                                     f"{distance(card, top)}, must be 1..{_MAX_DISTANCE} above the top",
                                     card=card, stack=index, top=top)


def _bull_sources(state: State, seat: int) -> tuple[int, ...]:
    """Seats the taker may take a bull card from when the supply is empty (docs/rules/11-nimmt.md §5.4).

    Depends only on public facts. Empty when the supply has cards or nothing would move.
    """
    if state.supply > 0:
        return ()
    if state.options.empty_supply == "all-players":
        most = max(state.bulls)
        if state.bulls[seat] == most:
            return ()
        return tuple(s for s in range(state.players) if state.bulls[s] == most)
    most = max((state.bulls[s] for s in range(state.players) if s != seat), default=0)
    if most == 0:
        return ()
    return tuple(s for s in range(state.players) if s != seat and state.bulls[s] == most)


def _check_take(state: State, seat: int, move: Take) -> None:
    if not state.stacks:
        raise C.no_stacks("there are no stacks to take: place one card as a new stack (docs/rules/11-nimmt.md §5.3)",
                          seat=seat)
    if not 0 <= move.stack < len(state.stacks):
        raise C.no_such_stack(f"there is no stack {move.stack}: the stacks are 0..{len(state.stacks) - 1}",
                              stack=move.stack, expected=len(state.stacks))
    sources = _bull_sources(state, seat)
    if move.source is None:
        if len(sources) >= 2:
            raise C.source_required(f"the bull supply is empty and seats {list(sources)} tie for the most bull "
                                    "cards: name the source seat of the bull card", expected=list(sources))
        return
    if state.supply > 0:
        raise C.source_not_needed(f"source {move.source} given, but bull cards come from the supply "
                                  f"({state.supply} left)", seat=move.source)
    if move.source not in sources:
        raise C.bad_source(f"source {move.source} is not a seat to take a bull card from; choices: {list(sources)}"
                           if sources else f"source {move.source} given, but no bull card would change hands",
                           seat=move.source, expected=list(sources))


def _check_new_stack(state: State, seat: int, move: NewStack) -> None:
    if state.stacks:
        raise C.stacks_on_table(f"a new stack may be started only when no stacks are on the table; there are "
                                f"{len(state.stacks)}", got=len(state.stacks))
    if move.card not in state.hands[seat]:
        raise C.card_not_in_hand(f"card {move.card} is not in seat {seat}'s hand", card=move.card, seat=seat)


T = TypeVar("T")


def _replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1:])


def _after_turn(state: State, seat: int, hand: tuple[int, ...], **changes: object) -> State:
    """Finish a turn: the next seat plays, or the round ends when ``hand`` is empty (docs/rules/11-nimmt.md §6.1)."""
    hands = _replace_at(state.hands, seat, hand)
    if hand:
        return replace(state, hands=hands, turn=(seat + 1) % state.players, **changes)
    table = _HEAD_TABLES[state.options.heads]
    round_heads = tuple(_heads(h, table) for h in hands)
    last = state.round >= _rounds(state.options, state.players)
    return replace(
        state,
        hands=hands,
        phase=Phase.GAME_OVER if last else Phase.ROUND_OVER,
        turn=None,
        went_out=seat,
        history=(*state.history, round_heads),
        **changes,
    )


def _apply_play(state: State, seat: int, move: Play) -> State:
    """docs/rules/11-nimmt.md §5.2: cards go on in order of distance from the old top."""
    stacks = list(state.stacks)
    played: set[int] = set()
    for entry in move.plays:
        index = entry.stack
        top = stacks[index][-1]
        stacks[index] = stacks[index] + tuple(sorted(entry.cards, key=lambda c: distance(c, top)))
        played.update(entry.cards)
    hand = tuple(c for c in state.hands[seat] if c not in played)
    return _after_turn(state, seat, hand, stacks=tuple(stacks))


def _apply_take(state: State, seat: int, move: Take) -> State:
    """docs/rules/11-nimmt.md §5.4, with the bull-card rule and §5.3's short stock."""
    taken = state.stacks[move.stack]
    hand = tuple(sorted(state.hands[seat] + taken))
    bulls, supply = state.bulls, state.supply
    if len(taken) >= _BULL_STACK_SIZE:
        if supply > 0:
            supply -= 1
            bulls = _replace_at(bulls, seat, bulls[seat] + 1)
        else:
            sources = _bull_sources(state, seat)
            source = move.source if move.source is not None else (sources[0] if sources else None)
            if source is not None:
                bulls = _replace_at(bulls, source, bulls[source] - 1)
                bulls = _replace_at(bulls, seat, bulls[seat] + 1)
    reveal = min(_NEW_STACKS, len(state.stock))
    revealed = tuple((state.stock[-1 - i],) for i in range(reveal))
    stacks = (*state.stacks[:move.stack], *state.stacks[move.stack + 1:], *revealed)
    return _after_turn(
        state, seat, hand,
        stacks=stacks, stock=state.stock[:len(state.stock) - reveal], bulls=bulls, supply=supply,
    )


def _apply_new_stack(state: State, seat: int, move: NewStack) -> State:
    """docs/rules/11-nimmt.md §5.3: with no stacks, one card from hand becomes a new stack."""
    hand = tuple(c for c in state.hands[seat] if c != move.card)
    return _after_turn(state, seat, hand, stacks=((move.card,),))


def _next_starter(state: State) -> int:
    return _starter_after(state.history, state.options, state.players)


def _starter_after(history: Sequence[Sequence[int]], options: Options, players: int) -> int:
    """docs/rules/11-nimmt.md §6.2: the seat with the most minus points starts the next round;
    ties as ``next_starter`` says, then clockwise after the seat that went out (the one 0 of
    the last round's scores)."""
    n = players
    cumulative = [sum(r[s] for r in history) for s in range(n)]
    last = history[-1]
    went_out = list(last).index(0) if 0 in last else n - 1

    def clockwise(s: int) -> int:  # 0 for the seat right after the one who went out
        return (s - went_out - 1) % n

    if options.next_starter == "round":
        return max(range(n), key=lambda s: (last[s], cumulative[s], -clockwise(s)))
    return max(range(n), key=lambda s: (cumulative[s], last[s], -clockwise(s)))


def _apply_next_round(state: State) -> State:
    """docs/rules/11-nimmt.md §6.1: reshuffle all 100 cards and deal again."""
    hands, stacks, stock, rng = _deal(state.players, state.rng)
    starter = _next_starter(state)
    keep = state.options.bulls_between_rounds == "keep"
    return replace(
        state,
        phase=Phase.PLAY,
        round=state.round + 1,
        starter=starter,
        turn=starter,
        went_out=None,
        hands=hands,
        stacks=stacks,
        stock=stock,
        bulls=state.bulls if keep else (0,) * state.players,
        supply=state.supply if keep else _BULL_CARDS,
        rng=rng,
    )


def _rounds(options: Options, players: int) -> int:
    return options.rounds or players


# --------------------------------------------------------------------------- helpers: scoring


def _heads(cards: Sequence[int], table: tuple[int, ...]) -> int:
    return sum(table[c] for c in cards)


def _breakdown(hand: Sequence[int], table: tuple[int, ...], *, went_out: bool, bulls: int) -> Breakdown:
    return Breakdown(cards=tuple(CardHeads(c, table[c]) for c in hand), went_out=went_out, bulls=bulls,
                     points=_heads(hand, table))


def _winners(totals: Sequence[int]) -> tuple[int, ...]:
    """docs/rules/11-nimmt.md §6.4: fewest minus points wins; ties share the win."""
    best = min(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)


# --------------------------------------------------------------------------- helpers: meaning


def _check_state(state: State) -> State:
    """What play can reach beyond the shape (docs/rules/11-nimmt.md §8): the seats, the phase and
    the round agree; 100 cards; stacks obey the distance rule; 10 bull cards; the history; and
    what ``_check_reachable`` adds."""
    players, options, phase, rnd = state.players, state.options, state.phase, state.round
    if options.start_player >= players:
        raise C.bad_state(f"start_player {options.start_player} is not a seat of {players}",
                          field="options.start_player")
    for name in ("starter", "turn", "went_out"):
        seat = getattr(state, name)
        if seat is not None and seat >= players:
            raise C.bad_state(f"{name} must be a seat 0..{players - 1} or null, got {seat}", field=name)
    for name in ("hands", "bulls"):
        count = len(getattr(state, name))
        if count != players:
            raise C.seat_count(f"{name} must have one entry per seat ({players}), got {count}",
                               field=name, expected=players, got=count)
    rounds = _rounds(options, players)
    if rnd > rounds:
        raise C.bad_round(f"round must be 1..{rounds}, got {rnd}", got=rnd)
    if (phase is Phase.GAME_OVER) != (phase is not Phase.PLAY and rnd == rounds):
        raise C.bad_phase(f"phase {phase.value!r} does not fit round {rnd} of {rounds}")
    turn, went_out = state.turn, state.went_out
    if (turn is None) != (phase is not Phase.PLAY) or (went_out is None) != (phase is Phase.PLAY):
        raise C.bad_turn(f"in phase {phase.value!r} turn={excerpt(turn)} and went_out={excerpt(went_out)} do not fit")
    hands = tuple(tuple(sorted(h)) for h in state.hands)
    stacks, stock = state.stacks, state.stock
    for i, stack in enumerate(stacks):
        for below, above in zip(stack, stack[1:], strict=False):
            if not fits(above, below):
                raise C.bad_stack(f"stack {i} {list(stack)}: {above} cannot lie on {below} (distance rule)")
    everything = [c for h in hands for c in h] + [c for st in stacks for c in st] + list(stock)
    seen = set(everything)
    if len(seen) != len(everything):
        dupes = sorted(c for c, n in Counter(everything).items() if n > 1)
        raise C.duplicate_card(f"card(s) {dupes} appear more than once", card=dupes[0])
    if len(seen) != len(_CARDS):
        lost = sorted(_ALL_CARDS - seen)
        raise C.missing_card(f"card(s) {excerpt(lost)} are missing: all 100 must be in play", card=lost[0])
    if not stacks and stock:
        raise C.bad_stock("no stacks on the table while the stock still has cards")
    empty = [s for s, h in enumerate(hands) if not h]
    if phase is Phase.PLAY and empty:
        raise C.bad_hands(f"seat(s) {empty} have no cards, so the round would be over")
    if phase is not Phase.PLAY and empty != [went_out]:
        raise C.bad_hands(f"the round is over with seat {went_out} out, but empty hands are {empty}")
    bulls, supply = state.bulls, state.supply
    if sum(bulls) + supply != _BULL_CARDS:
        raise C.bad_bulls(f"bulls {list(bulls)} and supply {supply} must total {_BULL_CARDS}")
    history = state.history
    finished = rnd - 1 if phase is Phase.PLAY else rnd
    if len(history) != finished:
        raise C.bad_history(f"history must hold the scores of {finished} finished round(s), got {len(history)}")
    table = _HEAD_TABLES[options.heads]
    max_heads = sum(table)
    for r in history:
        if len(r) != players or not all(x <= max_heads for x in r):
            raise C.bad_history(f"each round in history has {players} scores 0..{max_heads}, got {list(r)}")
        if r.count(0) != 1:
            raise C.bad_history(f"round scores {list(r)} must have exactly one 0 (the seat that went out)")
        if sum(r) >= max_heads:  # at least the last card played lies on a stack
            raise C.bad_history(f"round scores {list(r)} add up to more than the cards in hand can hold")
    if phase is not Phase.PLAY and history[-1] != tuple(_heads(h, table) for h in hands):
        raise C.bad_history(f"last round's scores {list(history[-1])} do not match the hands")
    _check_reachable(players, options, phase, rnd, state.starter, turn, hands, stacks, stock, bulls, supply, history)
    return state if hands == state.hands else replace(state, hands=hands)


def _check_reachable(players: int, options: Options, phase: Phase, rnd: int, starter: int, turn: int | None,
                     hands: tuple[tuple[int, ...], ...], stacks: tuple[tuple[int, ...], ...], stock: tuple[int, ...],
                     bulls: tuple[int, ...], supply: int, history: tuple[tuple[int, ...], ...]) -> None:
    """What play can reach beyond card conservation (docs/rules/11-nimmt.md §8).

    - The starter: round 1 is ``start_player``'s, every later one the seat the history gives.
    - While the stock lasts every take revealed two cards, so the stock tells how many stacks
      were taken (K) and how many lie on the table (1 + K), and at most K bull cards have left
      the supply this round (when they return between rounds).
    - Before the first take with no bull card out, every turn was one card onto the one stack:
      its height tells how many turns were played, whose turn it is and every hand's size.
    """
    expected = options.start_player if rnd == 1 else _starter_after(history[:rnd - 1], options, players)
    if starter != expected:
        raise C.bad_starter(f"round {rnd} is started by seat {expected}, not seat {starter}",
                         seat=starter, expected=expected)
    if not stock:
        return
    first = _CARDS_AFTER_DEAL - players * _HAND_SIZE  # the stock once the first stack is turned up
    taken, odd = divmod(first - len(stock), _NEW_STACKS)
    if taken < 0 or odd:
        raise C.bad_stock(f"a stock of {len(stock)} cards cannot follow a deal to {players}: it starts "
                                      f"with {first} and every take reveals two", got=len(stock))
    if len(stacks) != 1 + taken:
        raise C.bad_stock(f"a stock of {len(stock)} cards means {taken} take(s) and {1 + taken} "
                                      f"stack(s) on the table, not {len(stacks)}", expected=1 + taken, got=len(stacks))
    fresh_bulls = options.bulls_between_rounds == "return" or rnd == 1
    if fresh_bulls and _BULL_CARDS - supply > taken:
        raise C.bad_bulls(f"{_BULL_CARDS - supply} bull card(s) are out of the supply after "
                                      f"{taken} take(s) this round", expected=taken, got=_BULL_CARDS - supply)
    if taken or any(bulls) or phase is not Phase.PLAY:
        return
    played = len(stacks[0]) - 1  # one card a turn, in turn from the starter
    if turn != (starter + played) % players:
        raise C.bad_turn(f"{played} card(s) played one a turn from seat {starter}: seat "
                                     f"{(starter + played) % players} is to act, not seat {turn}",
                         seat=turn, expected=(starter + played) % players)
    for seat in range(players):
        moves = played // players + ((seat - starter) % players < played % players)
        if len(hands[seat]) != _HAND_SIZE - moves:
            raise C.bad_hands(f"seat {seat} holds {len(hands[seat])} cards, but has played {moves} "
                                          f"of its {_HAND_SIZE} before the first take",
                             seat=seat, expected=_HAND_SIZE - moves, got=len(hands[seat]))


ENGINE = ElevenNimmt()
