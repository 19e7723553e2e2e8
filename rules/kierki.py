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
deal from the state's rng). Scores are kept internally with penalties negative; the state's
``history`` (one row of per-seat points per finished deal) and every score are shown in the
sign of ``score_sign``. Completed tricks are
public (leader, cards in play order, winner); hands and the undealt stock are hidden.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache

from rules.base import (
    BaseEngine,
    Code,
    IllegalMove,
    InvalidOption,
    InvalidState,
    Json,
    NextRound,
    Option,
    Outcome,
    Rng,
    ScoreReport,
    excerpt,
    fields_json,
    malformed,
    replace,
)
from rules.cards import (
    CARDS_BY_NAME,
    SUITS,
    Card,
    Rank,
    Suit,
    card_strs,
    deck,
    hands_view,
    missing_and_extra,
    parse_card,
)
from rules.tricks import TrickRules, check_play, next_seat, playable, trick_winner

GAME_ID = "kierki"

_KING_OF_HEARTS = Card(Rank.KING, Suit.HEARTS)
_TWO_OF_CLUBS = Card(Rank.TWO, Suit.CLUBS)
_FIRST_HAND = 5  # trump naming (a): cards dealt before the dealer names trumps
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_NO_TRUMP = "NT"


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
    DEAL_OVER = "deal-over"


_NEGATIVE = (Deal.NO_TRICKS, Deal.NO_HEARTS, Deal.NO_QUEENS, Deal.NO_KINGS_JACKS, Deal.NO_KING_OF_HEARTS)
_PLAYED_OUT = (Deal.NO_TRICKS, Deal.ROBBER, Deal.TRUMPS)  # never stop early
_HEARTS_LEAD_FORBIDDEN = (Deal.NO_HEARTS, Deal.NO_KING_OF_HEARTS, Deal.ROBBER)

_OPTIONS: dict[str, Option] = {
    "ruleset": Option(
        "standard",
        "'standard' (7 negative deals, one trump deal per player, the loteryjka) or 'book6' (the book's six "
        "negative deals and one positive round) (docs/rules/kierki.md §6, KI-1)",
        choices=("standard", "book6"),
    ),
    "trump_chooser": Option(
        "dealer-after-5",
        "who names trumps: the dealer after seeing his first 5 cards, or the player left of the dealer, "
        "who then leads (docs/rules/kierki.md §5, KI-2)",
        choices=("dealer-after-5", "left-of-dealer"),
    ),
    "no_trump_allowed": Option(False, "a trump deal may be played at no trump ('NT') (docs/rules/kierki.md §5)", type="boolean"),
    "lottery_start_rank": Option(8, "the rank that starts a loteryjka row (docs/rules/kierki.md §5, KI-3)", choices=(8, 7)),
    "lottery": Option(
        "one",
        "one loteryjka at +800/+500 (3 players +790/+485), or one per player at +200/+125 (3 players "
        "+250/+175) (docs/rules/kierki.md §5, KI-5)",
        choices=("one", "one-per-player"),
    ),
    "king_of_hearts_must_drop": Option(
        False, "in the K♥ deal its holder must play it the first time he cannot follow suit "
        "(docs/rules/kierki.md §3.4, KI-4)", type="boolean"
    ),
    "early_end": Option(
        True,
        "a negative deal (not 'no tricks' nor rozbójnik) stops once no penalty is left to take "
        "(docs/rules/kierki.md §4)",
        type="boolean",
    ),
    "score_sign": Option(
        "penalties-negative",
        "penalties negative and the highest total wins (standard), or penalties positive and "
        "the lowest total wins (book) (docs/rules/kierki.md §7)",
        choices=("penalties-negative", "penalties-positive"),
    ),
    "three_player_trump_trick": Option(
        25, "points a trump trick scores with 3 players (25 balances the book's values) (docs/rules/kierki.md §5)",
        choices=(25, 20)
    ),
    "book6_sixth_deal": Option(
        "last",
        "book6: the 6th deal's penalised tricks: the last (150), the last two, the 3rd and 7th, "
        "or the 3rd and 8th (75 each) (docs/rules/kierki.md §6)",
        choices=("last", "last-two", "3rd-and-7th", "3rd-and-8th"),
    ),
    "book6_robber": Option(
        False, "book6: add rozbójnik as a 7th deal (then both positive rounds are played) "
        "(docs/rules/kierki.md §6)", type="boolean"
    ),
    "deal_order": Option(
        "fixed",
        "the negative deals come in a fixed order; letting players choose is out of scope "
        "(docs/rules/kierki.md §6, KI-6)",
        choices=("fixed",),
    ),
    "book6_positive": Option(
        "loteryjka",
        "book6 without rozbójnik: the positive round: the loteryjka, the trump deals, or none "
        "(docs/rules/kierki.md §6)",
        choices=("loteryjka", "trumps", "none"),
    ),
}


@dataclass(frozen=True, slots=True)
class Options:
    ruleset: str = "standard"
    trump_chooser: str = "dealer-after-5"  # the API option names (snake_case, as in every game)
    no_trump_allowed: bool = False
    lottery_start_rank: int = 8
    lottery: str = "one"
    king_of_hearts_must_drop: bool = False
    early_end: bool = True
    score_sign: str = "penalties-negative"
    three_player_trump_trick: int = 25
    book6_sixth_deal: str = "last"
    book6_robber: bool = False
    deal_order: str = "fixed"
    book6_positive: str = "loteryjka"

    def to_json(self) -> Json:
        return fields_json(self)


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: who led, the cards in play order, who won it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True)
class State:
    players: int
    options: Options
    round: int  # 1-based number of the deal in the match's deal list
    dealer: int
    phase: Phase
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]  # undealt cards while the dealer names trumps (KI-2 (a))
    trump: Suit | None  # the trump suit once named; None otherwise (or no trump)
    leader: int
    turn: int | None  # None once the deal is over (every seat may send next-round)
    trick: tuple[Card, ...]  # the current trick, in play order from ``leader``
    tricks: tuple[Trick, ...]
    rows: tuple[tuple[int, int] | None, ...]  # loteryjka rows per suit (SUITS order): (low, high)
    finished: tuple[int, ...]  # loteryjka: seats out of cards, in order
    history: tuple[tuple[int, ...], ...]  # points of each finished deal (kept penalties negative)
    rng: Rng


@dataclass(frozen=True, slots=True)
class PlayCard:
    card: Card
    kind = "play"


@dataclass(frozen=True, slots=True)
class NameTrump:
    suit: Suit | None  # None: no trump
    kind = "name-trump"


@dataclass(frozen=True, slots=True)
class Pass:
    kind = "pass"


Move = PlayCard | NameTrump | Pass | NextRound


#: Every code this module raises (DESIGN 4.4), in the Polish of Kierki: lewa, rozdanie, kolor wyjściowy,
#: dokładanie do koloru, atut, kiery, loteryjka, odgrywka, rozbójnik, zapis.
_CODES: dict[str, Code] = {f"{GAME_ID}.{name}": code for name, code in {
    # turns and seats (rules.base, service.games)
    "not-your-turn": Code("Not your turn", "Nie twoja kolej", "Gracz {seat} nie może teraz zagrać."),
    "game-over": Code("The game is over", "Gra skończona", "Rozegrano ostatnie rozdanie; nie ma już ruchów."),
    "no-such-seat": Code("No such seat", "Nie ma takiego miejsca", "Przy stole nie ma gracza {seat}."),
    # moves
    "bad-move": Code("Malformed move", "Nieprawidłowy ruch",
                     "Ruch nie ma postaci żadnego z ruchów Kierek (play, name-trump, pass, next-round)."),
    "deal-not-over": Code("The deal is not over", "Rozdanie trwa",
                          "Następne rozdanie zaczyna się dopiero po zakończeniu bieżącego (faza „{got}”)."),
    "deal-over": Code("The deal is over", "Rozdanie zakończone",
                      "Rozdanie się skończyło: teraz tylko przejście do następnego (next-round)."),
    "not-naming-trump": Code("Trumps are not named now", "Teraz nie wybiera się atutu",
                             "Atut wybiera się tylko na początku rozdania atutowego w odgrywce."),
    "no-trump-not-allowed": Code("No trump not allowed", "Gra bez atu niedozwolona",
                                 "W rozdaniu atutowym trzeba wybrać kolor atutowy; gra bez atu wymaga opcji."),
    "must-name-trump": Code("Name trumps first", "Najpierw wybierz atut",
                            "Gracz {seat} musi najpierw wybrać kolor atutowy."),
    "pass-not-allowed": Code("Passing not allowed", "Nie można pasować",
                             "Pasować można tylko w loteryjce, gdy nie ma się karty do dołożenia."),
    "must-play": Code("Must lay a card", "Musisz dołożyć kartę",
                      "W loteryjce gracz, który może dołożyć kartę, musi ją dołożyć (np. {card})."),
    "card-not-in-hand": Code("Card not in hand", "Nie masz tej karty", "Karty {card} nie ma w twoim ręku."),
    "does-not-fit": Code("Card fits no row", "Karta nie pasuje",
                         "Karty {card} nie można dołożyć: pasuje tylko ósemka (lub wybrana karta startowa) albo "
                         "karta sąsiednia do końca rzędu w swoim kolorze."),
    "lead-forbidden": Code("Hearts may not be led", "Nie wolno wychodzić w kiery",
                           "Nie możesz wyjść kartą {card}: w tym rozdaniu nie wolno wychodzić w kiery, "
                           "dopóki masz karty innego koloru."),
    "must-follow-suit": Code("Must follow suit", "Obowiązek dokładania do koloru",
                             "Masz karty w kolorze wyjściowym: musisz dołożyć do koloru, nie {card}."),
    "must-drop-king-of-hearts": Code("Must drop the king of hearts", "Musisz zrzucić króla kier",
                                     "Nie masz koloru wyjściowego, a masz króla kier: przy tej opcji musisz go "
                                     "zrzucić, nie {card}."),
    # setup and score sheets
    "setup-unsupported": Code("No setup notation", "Brak zapisu pozycji",
                              "Kierki zaczynają się zawsze od rozdania; nie przyjmują ustawienia."),
    "bad-tally": Code("Malformed score sheet", "Nieprawidłowy zapis rozdania",
                      "Zapis rozdania to rozdanie (contract), liczba graczy (players) i lewy każdego gracza "
                      "(seats) albo, w loteryjce, kolejność wyjścia dwóch graczy (finish_order)."),
    "cards-per-trick": Code("Cards do not fit the tricks", "Karty nie pasują do lew",
                            "Każda lewa to tyle kart, ilu jest graczy; liczba kart gracza się nie zgadza."),
    "trick-numbers": Code("Impossible trick numbers", "Niemożliwe numery lew",
                          "Lewy są numerowane od 1, każda raz."),
    "deal-unfinished": Code("Deal not finished", "Rozdanie niedokończone",
                            "Rozdanie kończy się przed ostatnią lewą tylko wtedy, gdy nie ma już kar do wzięcia."),
    "card-conservation": Code("Cards not conserved", "Karty się nie zgadzają",
                              "Talia to 52 karty (przy trzech graczach bez dwójki trefl), każda raz; tu jakichś "
                              "brakuje lub się powtarzają."),
    # states
    "malformed-state": Code("Malformed state", "Nieprawidłowy stan gry", "Stan gry ma złą postać."),
    "out-of-range": Code("Value out of range", "Wartość poza zakresem",
                         "Liczba w stanie gry wykracza poza dozwolony zakres ({expected})."),
    "bad-options": Code("Bad options", "Nieprawidłowe opcje", "Opcje w stanie gry są nieprawidłowe."),
    "seat-count": Code("Wrong number of hands", "Zła liczba rąk", "Każdy gracz ma jedną rękę kart."),
    "bad-row": Code("Impossible loteryjka row", "Niemożliwy rząd loteryjki",
                    "Rząd loteryjki to ciąg kart jednego koloru zawierający kartę startową."),
    "wrong-trump": Code("Trump does not fit", "Atut się nie zgadza",
                        "Atut jest tylko w rozdaniu atutowym, po jego wybraniu."),
    "wrong-contract": Code("Contract does not fit", "Rozdanie się nie zgadza",
                           "Kolejność rozdań jest stała; to rozdanie nazywa się {expected}."),
    "wrong-turn": Code("Wrong turn", "Zła kolejność",
                       "Kolejność gry się nie zgadza: pierwszą lewę zaczyna gracz po lewej rozdającego, "
                       "następne ten, kto wziął poprzednią."),
    "history": Code("Score sheet does not fit", "Zapis się nie zgadza",
                    "Zapis punktów nie pasuje do numeru rozdania albo do kar i nagród tych rozdań."),
    "wrong-phase": Code("Impossible phase", "Niemożliwa faza", "Faza gry nie pasuje do rozdania i lew."),
    "hand-sizes": Code("Impossible hand sizes", "Niemożliwa liczba kart w ręku",
                       "Liczba kart w rękach nie pasuje do rozegranych lew."),
    "bad-trick": Code("Impossible trick", "Niemożliwa lewa",
                      "Lewa nie mogła tak przebiec: zły gracz zaczyna, wygrywa albo dołożył kartę, której nie mógł."),
    "finished": Code("Impossible finish order", "Niemożliwa kolejność wyjścia",
                     "W loteryjce wyszli z gry dokładnie ci gracze, którzy nie mają już kart."),
}.items()}


class Kierki(BaseEngine[State, Move]):
    game_id = GAME_ID
    name = "Kierki (Polish multi-deal Hearts)"
    players = range(3, 5)
    options = _OPTIONS
    move_kinds = ("play", "name-trump", "pass", "next-round")
    codes = _CODES

    # -- creation ------------------------------------------------------------------

    def new_game(self, players: int, rng: Rng, options: Mapping[str, Json], setup: Json = None) -> State:
        if setup is not None:
            raise InvalidOption(f"{GAME_ID}.setup-unsupported",
                                f"kierki has no setup notation, got {excerpt(setup)}")
        opts = Options(**options)
        dealer, rng = rng.randbelow(players)  # "the first dealer is random" (§2)
        return _start_deal(players, opts, 1, dealer, (), rng)

    # -- turn and moves ------------------------------------------------------------

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase is Phase.DEAL_OVER:
            if state.round >= len(_deals(state)):
                return frozenset()
            return frozenset(range(state.players))
        return frozenset((state.turn,))  # type: ignore[arg-type]

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        if state.phase is Phase.DEAL_OVER:
            return [NextRound()]
        if state.phase is Phase.NAME_TRUMP:
            names: list[Move] = [NameTrump(s) for s in SUITS]
            return [*names, NameTrump(None)] if state.options.no_trump_allowed else names
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
            if phase is not Phase.DEAL_OVER:
                raise IllegalMove(f"{GAME_ID}.deal-not-over",
                                  f"next-round only after the deal; the deal is in phase {phase.value!r}", got=phase.value)
            return
        if phase is Phase.DEAL_OVER:
            raise IllegalMove(f"{GAME_ID}.deal-over", f"the deal is over: send next-round, not {move.kind!r}")
        if isinstance(move, NameTrump):
            if phase is not Phase.NAME_TRUMP:
                raise IllegalMove(f"{GAME_ID}.not-naming-trump",
                                  f"trumps are named only at the start of a trump deal, not in phase {phase.value!r}")
            if not (move.suit is not None or state.options.no_trump_allowed):
                raise IllegalMove(f"{GAME_ID}.no-trump-not-allowed",
                                  "'NT' may not be named: only a suit (option no_trump_allowed)")
            return
        if phase is Phase.NAME_TRUMP:
            raise IllegalMove(f"{GAME_ID}.must-name-trump", f"seat {seat} must first name trumps, not send {move.kind!r}",
                              seat=seat)
        if isinstance(move, Pass):
            if phase is not Phase.LOTTERY:
                raise IllegalMove(f"{GAME_ID}.pass-not-allowed", "passing is allowed only in the loteryjka")
            can = _lottery_playable(state, seat)
            if can:
                raise IllegalMove(f"{GAME_ID}.must-play",
                                  f"you may not pass while you can lay a card: {', '.join(card_strs(can))}",
                                  card=str(can[0]))
            return
        card = move.card
        hand = state.hands[seat]
        if phase is Phase.LOTTERY:
            if card not in hand:
                raise IllegalMove(f"{GAME_ID}.card-not-in-hand", f"{card} is not in your hand", card=str(card))
            if not _fits_row(state, card):
                raise IllegalMove(f"{GAME_ID}.does-not-fit",
                                  f"{card} fits no row: lay a {state.options.lottery_start_rank} to open a suit or a "
                                  f"card next to an end of its suit's row", card=str(card))
            return
        if card in _trick_playable(state, seat):
            return
        self._refuse_trick_card(state, seat, card)

    def _refuse_trick_card(self, state: State, seat: int, card: Card) -> None:
        """Raise why ``card``, not among the seat's playable cards, may not be played to the trick:
        "Follow suit if able. Otherwise play any card." (§3); the hearts lead restriction; KI-4.
        (A card is playable exactly when the shared core's check passes and KI-4 allows it.)"""
        check_play(GAME_ID, state.hands[seat], _plays(state), card, _trick_rules(state))
        raise IllegalMove(f"{GAME_ID}.must-drop-king-of-hearts",
                          f"you cannot follow suit and hold KH: you must play it, not {card} (king_of_hearts_must_drop)",
                          card=str(card))

    def _apply(self, state: State, seat: int, move: Move) -> State:
        n = state.players
        if isinstance(move, NextRound):
            return _start_deal(n, state.options, state.round + 1, next_seat(state.dealer, n), state.history, state.rng)
        if isinstance(move, NameTrump):
            hands = state.hands
            if state.stock:  # (a): the rest of the pack is dealt after trumps are named
                hands = _dealt(hands, state.stock, state.dealer)
            leader = next_seat(state.dealer, n)
            return replace(state, hands=hands, stock=(), trump=move.suit, phase=Phase.PLAY,
                                       leader=leader, turn=leader)
        if isinstance(move, Pass):
            return replace(state, turn=_next_active(state, seat))
        card = move.card
        hands = _without(state.hands, seat, card)
        if state.phase is Phase.LOTTERY:
            i = _SUIT_INDEX[card.suit]
            row = state.rows[i]
            rank = int(card.rank)
            new_row = (rank, rank) if row is None else (min(row[0], rank), max(row[1], rank))
            rows = (*state.rows[:i], new_row, *state.rows[i + 1:])
            finished = state.finished + ((seat,) if not hands[seat] else ())
            new = replace(state, hands=hands, rows=rows, finished=finished)
            if len(finished) >= 2:
                return _deal_over(new)
            return replace(new, turn=_next_active(new, seat))
        trick = (*state.trick, card)
        if len(trick) < n:
            return replace(state, hands=hands, trick=trick, turn=next_seat(seat, n))
        winner = trick_winner(tuple(zip(_SEATS_FROM[n][state.leader], trick, strict=False)), state.trump)
        tricks = (*state.tricks, Trick(state.leader, trick, winner))
        new = replace(state, hands=hands, trick=(), tricks=tricks, leader=winner, turn=winner)
        if len(tricks) == _tricks_per_deal(n) or _no_penalty_left(new):
            return _deal_over(new)
        return new

    def events(self, before: State, seat: int, move: Move, after: State) -> list[Json]:
        out = super().events(before, seat, move, after)
        if len(after.tricks) > len(before.tricks):
            out.insert(1, {"type": "trick", "number": len(after.tricks), "winner": after.tricks[-1].winner})
        if len(after.finished) > len(before.finished):
            out.insert(1, {"type": "out", "seat": after.finished[-1], "place": len(after.finished)})
        return out

    # -- results -------------------------------------------------------------------

    def round_over(self, state: State) -> bool:
        return state.phase is Phase.DEAL_OVER

    def scores(self, state: State) -> ScoreReport:
        sign = _sign(state.options)
        points, items = _deal_points(state)
        over = state.phase is Phase.DEAL_OVER  # then the deal's row is already in history
        history = [*state.history] if over else [*state.history, points]
        totals = tuple(sign * sum(deal[s] for deal in history) for s in range(state.players))
        kind = _kind(state)
        breakdown = tuple(
            {
                "contract": kind.value,
                "round": state.round,
                "items": {name: sign * value for name, value in items[s].items()},
                "history": [sign * deal[s] for deal in state.history],
            }
            for s in range(state.players)
        )
        return ScoreReport(
            points=tuple(sign * p for p in points),
            totals=totals,
            breakdown=breakdown,
            final=over,
            winners=_best(totals, sign) if not self.to_act(state) else (),
        )

    def outcome(self, state: State) -> Outcome | None:
        if self.to_act(state):
            return None
        totals = self.scores(state).totals
        return Outcome(winners=_best(totals, _sign(state.options)), reason="the last deal of the match is over", points=totals)

    def score_tally(self, tally: Json) -> ScoreReport:
        return _score_tally(tally)

    # -- views and JSON ------------------------------------------------------------

    def options_of(self, state: State) -> Mapping[str, Json]:
        return state.options.to_json()

    def view(self, state: State, seat: int | None) -> Json:
        data = self.to_json(state)
        del data["rng"]
        data.update(hands_view(data["hands"], seat))
        data["stock"] = None  # face down; its size is public
        data["stock_size"] = len(state.stock)
        return data

    def to_json(self, state: State) -> Json:
        return {
            "players": state.players,
            "options": state.options.to_json(),
            "round": state.round,
            "contract": _kind(state).value,
            "dealer": state.dealer,
            "phase": state.phase.value,
            "hands": [card_strs(h) for h in state.hands],
            "stock": card_strs(state.stock),
            "trump": _trump_json(state),
            "leader": state.leader,
            "turn": state.turn,
            "trick": card_strs(state.trick),
            "tricks": [
                {"leader": t.leader, "cards": card_strs(t.cards), "winner": t.winner} for t in state.tricks
            ],
            "rows": [
                {"suit": suit.value, "low": int(row[0]), "high": int(row[1])}
                for suit, row in zip(SUITS, state.rows, strict=False)
                if row is not None
            ],
            "finished": list(state.finished),
            "history": [[_sign(state.options) * p for p in r] for r in state.history],
            "rng": state.rng.to_json(),
        }

    def from_json(self, data: Json) -> State:
        with malformed(f"{GAME_ID}.malformed-state", "kierki state"):
            state = _parse_state(data)
        _check_meaning(state, data)
        if state.phase is Phase.DEAL_OVER and state.history[-1] != _deal_points(state)[0]:
            sign = _sign(state.options)
            raise InvalidState(f"{GAME_ID}.history", f"the finished deal scores {[sign * p for p in _deal_points(state)[0]]}"
                                                     f", not {[sign * p for p in state.history[-1]]} as history says")
        return state

    def move_to_json(self, move: Move) -> Json:
        if isinstance(move, PlayCard):
            return {"kind": "play", "card": str(move.card)}
        if isinstance(move, NameTrump):
            return {"kind": "name-trump", "suit": move.suit.value if move.suit else _NO_TRUMP}
        return {"kind": move.kind}

    def move_from_json(self, data: Json) -> Move:
        if type(data) is dict and len(data) == 2 and data.get("kind") == "play":  # the common move, read at once
            card = CARDS_BY_NAME.get(data.get("card")) if type(data.get("card")) is str else None
            if card is not None and not card.is_joker:
                return PlayCard(card)

        def bad() -> IllegalMove:
            return IllegalMove(f"{GAME_ID}.bad-move", f"not a kierki move: {excerpt(data)}")

        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise bad()
        kind = data["kind"]
        fields = _MOVE_FIELDS.get(kind)
        if fields is None or set(data) != fields | {"kind"}:
            raise bad()
        with malformed(f"{GAME_ID}.bad-move", "kierki move", IllegalMove, quoting=data):
            if kind == "play":
                card = parse_card(data["card"])
                if card.is_joker:
                    raise ValueError("joker")
                return PlayCard(card)
            if kind == "name-trump":
                suit = data["suit"]
                if not isinstance(suit, str):
                    raise ValueError(suit)
                return NameTrump(None if suit == _NO_TRUMP else Suit(suit))
        return Pass() if kind == "pass" else NextRound()


#: each move kind's fields besides ``kind``
_MOVE_FIELDS: dict[str, set[str]] = {"play": {"card"}, "name-trump": {"suit"}, "pass": set(), "next-round": set()}


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


def full_deck(players: int) -> tuple[Card, ...]:
    """52 cards; with three players the 2♣ is removed (§2)."""
    cards = deck()
    return tuple(c for c in cards if c != _TWO_OF_CLUBS) if players == 3 else cards


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
        players=players, options=options, round=number, dealer=dealer, phase=phase, hands=hands, stock=stock,
        trump=None, leader=left, turn=turn, trick=(), tricks=(), rows=(None,) * 4, finished=(), history=history,
        rng=rng,
    )


def _deal_over(state: State) -> State:
    """The deal ends: nobody single is to act, and its points join the history (§7)."""
    over = replace(state, phase=Phase.DEAL_OVER, turn=None)
    return replace(over, history=(*state.history, _deal_points(over)[0]))


def _dealt(hands: tuple[tuple[Card, ...], ...], cards: Sequence[Card], dealer: int) -> tuple[tuple[Card, ...], ...]:
    n = len(hands)
    out = [list(h) for h in hands]
    for i, card in enumerate(cards):
        out[(dealer + 1 + i) % n].append(card)
    return tuple(tuple(sorted(h, key=_hand_order)) for h in out)


def _hand_order(card: Card) -> tuple[int, int]:
    return _SUIT_INDEX[card.suit], card.rank


def _without(hands: tuple[tuple[Card, ...], ...], seat: int, card: Card) -> tuple[tuple[Card, ...], ...]:
    hand = list(hands[seat])
    hand.remove(card)
    return (*hands[:seat], tuple(hand), *hands[seat + 1:])


def _seats_from(leader: int, players: int) -> tuple[int, ...]:
    return tuple((leader + i) % players for i in range(players))


#: players -> leader -> the seats in play order from the leader, made once (a state's leader is a seat)
_SEATS_FROM = {n: tuple(_seats_from(leader, n) for leader in range(n)) for n in (3, 4)}


def _plays(state: State) -> tuple[tuple[int, Card], ...]:
    return tuple(zip(_SEATS_FROM[state.players][state.leader], state.trick, strict=False))


def _kind(state: State) -> Deal:
    return _deals(state)[state.round - 1]


_last_deals: tuple[Options | None, int, tuple[Deal, ...]] = (None, 0, ())


def _deals(state: State) -> tuple[Deal, ...]:
    """``deal_list`` of the state's options, remembered for the last options object seen: every
    state of a game shares one, and hashing its thirteen fields for the cache costs more than
    the rest of a move's checks."""
    global _last_deals
    options, players, deals = _last_deals
    if options is not state.options or players != state.players:
        deals = deal_list(state.options, state.players)
        _last_deals = (state.options, state.players, deals)
    return deals


def _trick_rules(state: State) -> TrickRules:
    """No trump in the negative deals; the hearts lead restriction in deals 2, 5 and 7 (§3);
    the named trump in a trump deal, where trumping is not compulsory (§5)."""
    return _TRICK_RULES[_kind(state) in _HEARTS_LEAD_FORBIDDEN, state.trump]


#: (hearts may not be led, trump) -> the deal's trick rules, made once
_TRICK_RULES = {
    (hearts_forbidden, trump): TrickRules(
        trump=trump, must_trump=False, lead_forbidden=frozenset((Suit.HEARTS,)) if hearts_forbidden else frozenset()
    )
    for hearts_forbidden in (False, True) for trump in (None, *SUITS)
}


def _trick_playable(state: State, seat: int) -> tuple[Card, ...]:
    return _allowed(state, state.hands[seat], _plays(state))


def _allowed(state: State, hand: Sequence[Card], plays: Sequence[tuple[int, Card]]) -> tuple[Card, ...]:
    """The one source of legality for trick play: the shared core plus KI-4."""
    cards = playable(hand, plays, _trick_rules(state))
    if (
        state.options.king_of_hearts_must_drop
        and plays
        and _KING_OF_HEARTS in cards
        and plays[0][1].suit is not Suit.HEARTS
        and _kind(state) is Deal.NO_KING_OF_HEARTS
    ):
        return (_KING_OF_HEARTS,)  # he cannot follow (KH is playable to a non-heart lead): drop it
    return cards


def _fits_row(state: State, card: Card) -> bool:
    """Loteryjka: a start-rank card opens its suit's row; else one above or below a row's end."""
    row = state.rows[_SUIT_INDEX[card.suit]]
    if row is None:
        return card.rank == state.options.lottery_start_rank
    return card.rank == row[0] - 1 or card.rank == row[1] + 1


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


def _trump_json(state: State) -> str | None:
    if state.trump is not None:
        return state.trump.value
    if _kind(state) is Deal.TRUMPS and state.phase is not Phase.NAME_TRUMP:
        return _NO_TRUMP
    return None


# --------------------------------------------------------------------------- tally


_TALLY_KEYS = {"contract", "players", "options", "seats", "finish_order"}


def _score_tally(tally: Json) -> ScoreReport:
    """Score one deal from a score sheet (docs/rules/kierki.md §8): ``contract`` and ``players``
    always, ``options`` optionally; ``seats`` (the cards and trick numbers each seat took) for a
    trick contract, ``finish_order`` (the first two seats out) for the loteryjka."""
    def bad(code: str, message: str, **context: Json) -> InvalidState:
        return InvalidState(f"{GAME_ID}.{code}", message, **context)

    if not isinstance(tally, dict):
        raise bad("bad-tally", f"a tally is an object, got {excerpt(tally)}")
    contracts = [d.value for d in Deal]
    kind_text = tally.get("contract")
    if not isinstance(kind_text, str) or kind_text not in contracts:
        raise bad("bad-tally", f"a tally needs 'contract', one of {contracts}, got {excerpt(kind_text)}")
    kind = Deal(kind_text)
    needed = {"contract", "players", "finish_order" if kind is Deal.LOTERYJKA else "seats"}
    allowed = needed | {"options"}
    missing, unknown = sorted(needed - set(tally)), sorted(set(tally) - allowed)
    if missing or unknown:
        raise bad("bad-tally", f"a {kind.value} tally needs {sorted(needed)} (and may give 'options'); "
                               f"missing {missing}, not allowed {excerpt(unknown)}")
    players = tally["players"]
    if players not in (3, 4) or isinstance(players, bool) or not isinstance(players, int):
        raise bad("bad-tally", f"players must be 3 or 4, got {excerpt(players)}")
    given = tally.get("options", {})
    if not isinstance(given, dict):
        raise bad("bad-tally", f"options must be an object, got {excerpt(given)}")
    try:
        resolved = ENGINE.resolve_options(given)
    except InvalidOption as exc:
        raise bad("bad-tally", exc.message) from exc
    options = Options(**resolved)
    sign = _sign(options)
    if kind is Deal.LOTERYJKA:
        order = tally.get("finish_order")
        if (
            not isinstance(order, list) or len(order) != 2 or len(set(order)) != 2
            or any(not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < players for s in order)
        ):
            raise bad("bad-tally",
                      f"finish_order must be two different seats below {players}, got {excerpt(order)}")
        points = list(_lottery_points(order, lottery_prizes(options, players), players))
        items: list[dict[str, int]] = [{"prize": p} for p in points]
    else:
        seats = tally.get("seats")
        if not isinstance(seats, list) or len(seats) != players:
            raise bad("bad-tally", f"'seats' must list {players} seats' cards and tricks, got {excerpt(seats)}")
        cards_per: list[list[Card]] = []
        numbers_per: list[list[int]] = []
        for s, entry in enumerate(seats):
            with malformed(f"{GAME_ID}.bad-tally",
                           f"kierki tally: seat {s} needs 'cards' (card names) and 'tricks' (numbers)"):
                cards = [parse_card(c) for c in entry["cards"]]
                numbers = list(entry["tricks"])
            if any(not isinstance(k, int) or isinstance(k, bool) for k in numbers):
                raise bad("bad-tally", f"seat {s}: trick numbers must be integers, got {excerpt(numbers)}")
            if len(cards) != players * len(numbers):
                raise bad("cards-per-trick",
                          f"seat {s} took {len(numbers)} tricks, so {players * len(numbers)} cards, "
                          f"not {len(cards)}")
            cards_per.append(cards)
            numbers_per.append(numbers)
        everything = [c for cs in cards_per for c in cs]
        pack = full_deck(players)
        _missing, extra = missing_and_extra(everything, pack)
        if extra:
            raise bad("card-conservation", f"cards not in the pack or taken twice: {card_strs(extra)}")
        all_numbers = sorted(k for ns in numbers_per for k in ns)
        played = len(all_numbers)
        if all_numbers != list(range(1, played + 1)) or played > _tricks_per_deal(players):
            raise bad("trick-numbers", f"trick numbers must be 1..k, each once, got {all_numbers}")
        items = [trick_deal_items(kind, options, players, cards_per[s], numbers_per[s]) for s in range(players)]
        points = [sum(i.values()) for i in items]
        if played < _tricks_per_deal(players) and (
            kind in _PLAYED_OUT or sum(points) != deal_total(kind, options, players)
        ):
            raise bad("deal-unfinished",
                      f"only {played} tricks: a {kind.value} deal ends early only when no penalty is left")
    return ScoreReport(
        points=tuple(sign * p for p in points),
        totals=tuple(sign * p for p in points),
        breakdown=tuple({"contract": kind.value, "items": {k: sign * v for k, v in i.items()}} for i in items),
        final=True,
    )


# --------------------------------------------------------------------------- from_json


def _parse_state(data: Json) -> State:
    def integer(value: Json, name: str, lo: int, hi: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise InvalidState(f"{GAME_ID}.out-of-range",
                               f"{name} must be an integer in {lo}..{hi}, got {excerpt(value)}", expected=f"{lo}..{hi}")
        return value

    def cards(values: Json) -> tuple[Card, ...]:
        out = tuple(parse_card(v) for v in values)
        if any(c.is_joker for c in out):
            raise InvalidState(f"{GAME_ID}.card-conservation", "kierki has no jokers")
        return out

    players = integer(data["players"], "players", 3, 4)
    try:
        options = Options(**ENGINE.resolve_options(data["options"]))
    except InvalidOption as exc:
        raise InvalidState(f"{GAME_ID}.bad-options", exc.message) from exc
    deals = deal_list(options, players)
    number = integer(data["round"], "round", 1, len(deals))
    hands = tuple(cards(h) for h in data["hands"])
    if len(hands) != players:
        raise InvalidState(f"{GAME_ID}.seat-count", f"{players} players need {players} hands, got {len(hands)}")
    trump_text = data["trump"]
    trump = None if trump_text in (None, _NO_TRUMP) else Suit(trump_text)
    tricks = tuple(
        Trick(integer(t["leader"], "trick leader", 0, players - 1), cards(t["cards"]),
              integer(t["winner"], "trick winner", 0, players - 1))
        for t in data["tricks"]
    )
    rows: list[tuple[int, int] | None] = [None] * 4
    for row in data["rows"]:
        i = _SUIT_INDEX[Suit(row["suit"])]
        lo, hi = integer(row["low"], "row low", 2, 14), integer(row["high"], "row high", 2, 14)
        if rows[i] is not None or lo > hi:
            raise InvalidState(f"{GAME_ID}.bad-row", f"a bad or repeated loteryjka row: {excerpt(row)}")
        rows[i] = (lo, hi)
    sign = _sign(options)  # history is shown in the sign of score_sign, kept penalties negative
    history = tuple(
        tuple(sign * integer(p, "a history entry", -10_000, 10_000) for p in r) for r in data["history"]
    )
    turn = data["turn"]
    return State(
        players=players, options=options, round=number,
        dealer=integer(data["dealer"], "dealer", 0, players - 1),
        phase=Phase(data["phase"]), hands=hands, stock=cards(data["stock"]), trump=trump,
        leader=integer(data["leader"], "leader", 0, players - 1),
        turn=None if turn is None else integer(turn, "turn", 0, players - 1),
        trick=cards(data["trick"]), tricks=tricks, rows=tuple(rows),
        finished=tuple(integer(s, "finished seat", 0, players - 1) for s in data["finished"]),
        history=history, rng=Rng.from_json(data["rng"]),
    )


def _check_plays(state: State) -> None:
    """The current trick and the last completed one were played legally from the hands the seats
    held then: the hand now plus the cards each played since (§3: follow suit; the hearts lead;
    KI-4). A seat that showed a void there holds none of that suit now. (Earlier tricks are
    checked for their leader and winner only.)"""
    n = state.players
    hands = [list(h) for h in state.hands]
    tricks = [(t.leader, t.cards) for t in state.tricks[-1:]] + [(state.leader, state.trick)]
    held: list[list[tuple[Card, ...]]] = []
    for leader, cards in reversed(tricks):
        for i, card in enumerate(cards):
            hands[(leader + i) % n].append(card)
        held.append([tuple(h) for h in hands])
    held.reverse()
    first = len(state.tricks) - len(tricks) + 2  # the number of the first trick checked
    for number, ((leader, cards), before) in enumerate(zip(tricks, held, strict=True), first):
        plays: list[tuple[int, Card]] = []
        for i, card in enumerate(cards):
            seat = (leader + i) % n
            if card not in _allowed(state, before[seat], plays):
                raise InvalidState(f"{GAME_ID}.bad-trick", f"seat {seat} could not play {card} in trick {number} "
                                                           "holding the cards it holds", seat=seat, card=str(card))
            plays.append((seat, card))


def _check_meaning(state: State, data: Json) -> None:
    """Conservation, a consistent turn and phase, tricks won by the right seat (§9)."""
    def fail(code: str, message: str, **context: Json) -> None:
        raise InvalidState(f"{GAME_ID}.{code}", message, **context)

    n = state.players
    kind = _kind(state)
    if data.get("trump") != _trump_json(state):
        given = "no trump named" if data.get("trump") is None else f"trump {excerpt(data.get('trump'))}"
        fail("wrong-trump", f"{given} does not fit phase {state.phase.value!r} of the {kind.value} deal")
    if data.get("contract") != kind.value:
        fail("wrong-contract", f"deal {state.round} is {kind.value!r}, not {excerpt(data.get('contract'))}",
             expected=kind.value)
    if (state.phase is Phase.DEAL_OVER) != (state.turn is None):
        fail("wrong-turn", "turn is null exactly when the deal is over")
    # history: one line per finished deal, each summing to that deal's total
    deals = deal_list(state.options, n)
    finished = state.round - (state.phase is not Phase.DEAL_OVER)
    if len(state.history) != finished:
        fail("history", f"deal {state.round} in phase {state.phase.value!r} needs {finished} finished deals "
                        f"in history, got {len(state.history)}", expected=finished)
    sign = _sign(state.options)
    for k, line in enumerate(state.history):
        total = deal_total(deals[k], state.options, n)
        possible = _possible_points(deals[k], state.options, n)
        prizes = sorted(_lottery_points((0, 1), lottery_prizes(state.options, n), n))
        if len(line) != n or sum(line) != total or any(p not in possible for p in line) or (
                deals[k] is Deal.LOTERYJKA and sorted(line) != prizes):
            fail("history", f"deal {k + 1} ({deals[k].value}) must total {sign * total} over {n} seats, each "
                            f"a sum its penalties or prizes can make, got {[sign * p for p in line]}")
    # conservation: hands + stock + trick + tricks + loteryjka rows == the pack
    laid = [Card(Rank(r), suit) for suit, row in zip(SUITS, state.rows, strict=False) if row for r in range(row[0], row[1] + 1)]
    everything = [*state.stock, *state.trick, *laid]
    for h in state.hands:
        everything.extend(h)
    for t in state.tricks:
        everything.extend(t.cards)
    missing, extra = missing_and_extra(everything, full_deck(n))
    if missing or extra:
        fail("card-conservation", f"the {len(full_deck(n))} cards do not add up: missing {card_strs(missing)}, "
                                  f"extra or duplicated {card_strs(extra)}")
    per_deal = _tricks_per_deal(n)
    left = next_seat(state.dealer, n)
    phase = state.phase
    lottery = kind is Deal.LOTERYJKA
    if lottery:
        if state.tricks or state.trick or state.stock or state.trump is not None:
            fail("wrong-phase", "the loteryjka has no tricks, stock or trumps")
        if phase not in (Phase.LOTTERY, Phase.DEAL_OVER):
            fail("wrong-phase", f"the loteryjka is never in phase {phase.value!r}")
        for row in state.rows:
            if row and not row[0] <= state.options.lottery_start_rank <= row[1]:
                fail("bad-row", f"every loteryjka row holds the start rank {state.options.lottery_start_rank}")
        if any(len(h) > per_deal for h in state.hands):
            fail("hand-sizes", f"a loteryjka hand holds at most the {per_deal} cards dealt")
        empty = {s for s in range(n) if not state.hands[s]}
        if len(set(state.finished)) != len(state.finished) or set(state.finished) != empty:
            fail("finished", f"the finished seats {list(state.finished)} must be those with no cards {sorted(empty)}")
        if (len(state.finished) >= 2) != (phase is Phase.DEAL_OVER) or len(state.finished) > 2:
            fail("wrong-phase", "the loteryjka is over exactly when two players are out")
        if state.leader != left:
            fail("wrong-turn", f"the loteryjka starts left of the dealer, at seat {left}, not {state.leader}")
        if phase is Phase.LOTTERY and state.turn in state.finished:
            fail("wrong-turn", f"seat {state.turn} is out and cannot be to play")
        return
    if any(state.rows) or state.finished:
        fail("wrong-phase", "only the loteryjka has rows and finished players")
    if kind is not Deal.TRUMPS and state.trump is not None:
        fail("wrong-phase", f"the {kind.value} deal has no trumps")
    if data.get("trump") == _NO_TRUMP and not state.options.no_trump_allowed:
        fail("wrong-trump", "no trump ('NT') is played only with the option no_trump_allowed")
    if phase is Phase.NAME_TRUMP:
        naming_a = state.options.trump_chooser == "dealer-after-5"
        size = _FIRST_HAND if naming_a else per_deal
        if kind is not Deal.TRUMPS or state.tricks or state.trick or state.trump is not None:
            fail("wrong-phase", "trumps are named before any card is played in a trump deal")
        if any(len(h) != size for h in state.hands) or bool(state.stock) != naming_a:
            fail("hand-sizes", f"while trumps are named each hand holds {size} cards")
        if state.turn != (state.dealer if naming_a else left) or state.leader != left:
            fail("wrong-turn", f"seat {state.turn} does not name trumps (or {state.leader} does not lead next)")
        return
    if state.stock:
        fail("wrong-phase", "the stock is dealt once trumps are named")
    if phase not in (Phase.PLAY, Phase.DEAL_OVER):
        fail("wrong-phase", f"a {kind.value} deal is never in phase {phase.value!r}")
    # tricks: each led by the previous winner, won by the right card
    leader = left
    for number, t in enumerate(state.tricks, 1):
        if len(t.cards) != n or t.leader != leader:
            fail("bad-trick", f"trick {number} must have {n} cards and be led by seat {leader}")
        won = trick_winner(tuple(zip(_seats_from(t.leader, n), t.cards, strict=False)), state.trump)
        if won != t.winner:
            fail("bad-trick", f"trick {number} is won by seat {won}, not {t.winner}")
        leader = t.winner
    if state.leader != leader:
        fail("wrong-turn", f"seat {leader} leads the current trick, not {state.leader}")
    _check_plays(state)
    if len(state.trick) >= n or len(state.tricks) > per_deal:
        fail("bad-trick", "too many cards in the trick or too many tricks")
    if phase is Phase.PLAY and state.turn != (leader + len(state.trick)) % n:
        fail("wrong-turn", f"seat {(leader + len(state.trick)) % n} is to play, not {state.turn}")
    played = set(_seats_from(leader, n)[: len(state.trick)])
    for s, h in enumerate(state.hands):
        if len(h) != per_deal - len(state.tricks) - (s in played):
            fail("hand-sizes", f"seat {s} holds {len(h)} cards after {len(state.tricks)} tricks")
    finished = len(state.tricks) == per_deal or _no_penalty_left(state)
    if finished != (phase is Phase.DEAL_OVER) or (phase is Phase.DEAL_OVER and state.trick):
        fail("wrong-phase", f"the deal is {'over' if finished else 'not over'} after {len(state.tricks)} tricks")


ENGINE = Kierki()
