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
  exchange all derive from it. ``turn`` is derived (the one seat to act, or null) and checked.
- Views show a seat its own hand (the chooser only his first 6 cards while choosing), the
  musik once revealed, the current and last trick, trick counts; the discards only to the
  chooser who made them; never the rng.
- ``from_json`` refuses states no play reaches (§9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import SimpleNamespace
from typing import Any

from rules.base import (
    MALFORMED_ERRORS,
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
    malformed,
    replace,
    require,
)
from rules.cards import CARDS_BY_NAME, Card, Suit, card_strs, deck, hands_view, missing_and_extra, parse_card
from rules.tricks import Play, TrickRules, check_play, next_seat, playable, trick_winner

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
    DEAL_OVER = "deal-over"
    GAME_OVER = "game-over"


class Contract(Enum):
    HEARTS = "H"
    SPADES = "S"
    DIAMONDS = "D"
    CLUBS = "C"
    NO_TRUMP = "NT"
    NO_TRICKS = "BL"

    @property
    def trump(self) -> Suit | None:
        return self._trump  # type: ignore[attr-defined]


for _contract in Contract:  # made once: read on every move of a deal
    _contract._trump = Suit(_contract.value) if len(_contract.value) == 1 else None  # type: ignore[attr-defined]


_OPTIONS: dict[str, Option] = {
    "must_trump": Option(True, "A player void in the led suit must play a trump if he holds one (docs/rules/3-5-8.md §5.2).",
                         type="boolean"),
    "exchange": Option(True, "Play the card exchange 'WYMIANA KART' in trump deals from the 2nd deal (docs/rules/3-5-8.md §8).",
                       type="boolean"),
    "exchange_timing": Option(
        "before-musik",
        "When the exchange happens: after the choice and before the musik, or after the chooser's discard "
        "(docs/rules/3-5-8.md §3, ruling 3.1).",
        choices=("before-musik", "after-discard"),
    ),
    "exchange_limit": Option(
        "per-opponent",
        "Cards a plus player may exchange: with each minus player at most min(his remaining plus points, "
        "that player's minus points), or only his own plus points in total (docs/rules/3-5-8.md §8, ruling 8.1).",
        choices=("per-opponent", "own-points"),
    ),
    "discard_trumps": Option(True, "The chooser may discard any 4 cards, trumps included (docs/rules/3-5-8.md §3.4).",
                             type="boolean"),
    "tie": Option("shared", "Players tied for the highest total share the win, or it is a draw (docs/rules/3-5-8.md §10, ruling 10.1).",
                  choices=("shared", "draw")),
    "first_dealer": Option("random", "The first dealer: drawn at random, or seat 0, 1 or 2 (docs/rules/3-5-8.md §10, ruling 10.2).",
                           choices=("random", 0, 1, 2)),
}


@dataclass(frozen=True, slots=True)
class Options:
    must_trump: bool = True
    exchange: bool = True
    exchange_timing: str = "before-musik"
    exchange_limit: str = "per-opponent"
    discard_trumps: bool = True
    tie: str = "shared"
    first_dealer: str | int = "random"

    def to_json(self) -> Json:
        return {name: getattr(self, name) for name in _OPTIONS}


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One line of the score sheet: a finished deal."""

    dealer: int
    contract: Contract
    tricks: tuple[int, int, int]
    scores: tuple[int, int, int]

    @property
    def chooser(self) -> int:
        return next_seat(self.dealer, _PLAYERS)


@dataclass(frozen=True, slots=True)
class Exchange:
    """The exchange in progress: exchangers still to go (current first), steps the current
    exchanger has made with each seat."""

    queue: tuple[int, ...]
    steps: tuple[int, int, int] = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class State:
    options: Options
    round: int  # 1..18, the deal being played
    dealer: int
    phase: Phase
    contract: Contract | None
    hands: tuple[tuple[Card, ...], ...]
    musik: tuple[Card, ...]
    discards: tuple[Card, ...]
    leader: int
    trick: tuple[Play, ...]
    last_trick: tuple[Play, ...]
    won: tuple[tuple[Card, ...], ...]
    exchange: Exchange | None
    history: tuple[DealRecord, ...]
    rng: Rng

    @property
    def chooser(self) -> int:
        return next_seat(self.dealer, _PLAYERS)  # §2: left of the dealer


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True, slots=True)
class Choose:
    contract: Contract


@dataclass(frozen=True, slots=True)
class ExchangeCard:
    to: int
    card: Card


@dataclass(frozen=True, slots=True)
class EndExchange:
    pass


@dataclass(frozen=True, slots=True)
class Discard:
    card: Card


@dataclass(frozen=True, slots=True)
class PlayCard:
    card: Card


Move = Choose | ExchangeCard | EndExchange | Discard | PlayCard | NextRound

_TRICK_CODES = SimpleNamespace(**{  # the trick core's refusals, as this module's codes
    name.replace("-", "_"): (lambda code: lambda message, **context: IllegalMove(code, message, **context))(
        f"{GAME_ID}.{name}") for name in ("card-not-in-hand", "must-follow-suit", "must-trump", "lead-forbidden")})

_STATE_KEYS = frozenset({
    "players", "options", "round", "dealer", "phase", "turn", "contract", "hands", "musik", "discards", "leader",
    "trick", "last_trick", "won", "exchange", "history", "contracts", "rng",
})


# --------------------------------------------------------------------------- error codes


#: Every code this module raises (DESIGN 4.4), in the rulebook's Polish: lewa, atut, kolor wyjścia,
#: musik, zagrywający (the chooser), rozdający (the dealer), rozgrywka, wymiana kart.
_CODES: dict[str, Code] = {f"{GAME_ID}.{name}": code for name, code in {
    # turns and seats (rules.base, service.games)
    "not-your-turn": Code("Not your turn", "Nie twoja kolej", "Gracz {seat} nie może teraz zagrać."),
    "game-over": Code("The game is over", "Gra skończona",
                       "Rozegrano wszystkie 18 rozgrywek; nie ma już ruchów."),
    "no-such-seat": Code("No such seat", "Nie ma takiego miejsca", "Przy stole nie ma gracza {seat}; grają trzy "
                                                                     "osoby (0, 1, 2)."),
    # moves
    "bad-move": Code("Malformed move", "Nieprawidłowy ruch",
                      "Ruch nie ma postaci żadnego z ruchów gry 3-5-8 (choose, exchange, end-exchange, discard, "
                      "play, next-round)."),
    "wrong-phase": Code("Move not allowed in this phase", "Ruch nie w tej fazie",
                         "Ten ruch wykonuje się w fazie „{expected}”, a trwa faza „{got}”."),
    "card-not-in-hand": Code("Card not in hand", "Nie masz tej karty", "Karty {card} nie ma w twoim ręku."),
    "must-follow-suit": Code("Must follow suit", "Obowiązek dorzucania do koloru",
                              "Masz karty w kolorze wyjścia: musisz dorzucić w tym kolorze, nie {card}."),
    "must-trump": Code("Must trump", "Obowiązek przebicia atutem",
                        "Nie masz koloru wyjścia, ale masz atuty: musisz przebić atutem, nie {card}."),
    "contract-used": Code("Contract already played", "Ta rozgrywka już była",
                           "Zagrywający {seat} grał już rozgrywkę {got}; każdą wybiera się raz w grze."),
    "discard-trump": Code("Trumps may not be discarded", "Nie wolno odrzucać atutów",
                           "Karta {card} to atut; przy tej opcji zagrywający nie odrzuca atutów."),
    "not-a-minus-player": Code("Not a minus player", "Gracz nie jest na minusie",
                                "Gracz {seat} nie miał punktów ujemnych w poprzedniej rozgrywce: wymienia się "
                                "karty tylko z graczami na minusie."),
    "exchange-limit": Code("No exchange left", "Wyczerpany limit wymiany",
                            "Z graczem {seat} nie możesz już wymienić karty (1 punkt = 1 karta)."),
    "trump-offered": Code("Trumps may not be exchanged", "Nie wymienia się atutów",
                           "Karta {card} to atut: nie można wymieniać kart w kolorze atutowym."),
    # setup and score sheets
    "setup-unsupported": Code("No setup notation", "Brak zapisu pozycji",
                               "Gra 3-5-8 zaczyna się zawsze od rozdania; nie przyjmuje ustawienia."),
    "bad-tally": Code("Malformed score sheet", "Nieprawidłowy zapis rozgrywki",
                       "Zapis rozgrywki to rozgrywka (contract), rozdający (dealer) i liczba lew każdego gracza "
                       "(tricks)."),
    "tricks-sum": Code("Tricks do not add up", "Lewy się nie sumują",
                        "W rozgrywce jest {expected} lew, a zapis podaje {got}."),
    # states
    "malformed": Code("Malformed state", "Nieprawidłowy stan gry", "Stan gry ma złą postać."),
    "cards-not-conserved": Code("Cards not conserved", "Karty się nie zgadzają",
                                 "W rozdaniu są 52 karty, każda raz; w tym stanie jakichś brakuje lub się powtarzają."),
    "bad-history": Code("Score sheet does not fit", "Tabela wyników się nie zgadza",
                         "Tabela wyników nie pasuje do numeru rozgrywki albo do lew (suma punktów w rozgrywce to 0)."),
    "bad-phase": Code("Impossible phase", "Niemożliwa faza", "Faza gry nie pasuje do numeru rozgrywki."),
    "bad-dealer": Code("Wrong dealer", "Zły rozdający",
                        "Rozdający zmienia się co rundę zgodnie z ruchem wskazówek zegara; ten się nie zgadza."),
    "bad-contract": Code("Contract does not fit", "Rozgrywka się nie zgadza",
                          "Rozgrywka nie pasuje do fazy gry albo do tabeli wyników."),
    "contract-reused": Code("Contract played twice", "Rozgrywka powtórzona",
                             "Zagrywający wybrał tę samą rozgrywkę drugi raz."),
    "bad-musik": Code("Impossible musik", "Niemożliwy musik",
                       "Musik to 4 różne karty, które po odkryciu trafiają do zagrywającego."),
    "bad-discards": Code("Impossible discards", "Niemożliwe karty odrzucone",
                          "Zagrywający odrzuca 4 karty po wzięciu musika; tu liczba odrzuconych się nie zgadza."),
    "bad-hand-size": Code("Impossible hand sizes", "Niemożliwa liczba kart w ręku",
                           "Liczba kart w rękach nie pasuje do fazy gry i rozegranych lew."),
    "bad-tricks": Code("Impossible tricks", "Niemożliwe lewy", "Lewa to 3 karty; wzięte lewy się nie zgadzają."),
    "bad-trick": Code("Card could not have been played", "Karta nie mogła zostać zagrana",
                       "Gracz {seat} nie mógł dorzucić {card} do tej lewy, mając karty, które ma."),
    "bad-turn": Code("Wrong turn", "Zła kolejność",
                      "Kolejność gry się nie zgadza: lewę zaczyna zagrywający, a potem ten, kto wziął poprzednią."),
    "bad-exchange": Code("Impossible exchange", "Niemożliwa wymiana kart",
                          "Wymiana kart nie pasuje do punktów z poprzedniej rozgrywki."),
}.items()}


# --------------------------------------------------------------------------- engine


class ThreeFiveEight(BaseEngine[State, Move]):
    game_id = GAME_ID
    name = "3-5-8 (Trzy-pięć-osiem, Sergeant Major)"
    players = range(3, 4)
    options = _OPTIONS
    move_kinds = ("choose", "exchange", "end-exchange", "discard", "play", "next-round")
    legal_moves_complete = True
    codes = _CODES

    # -- creation ------------------------------------------------------------------

    def new_game(self, players: int, rng: Rng, options: Mapping[str, Json], setup: Json = None) -> State:
        if setup is not None:
            raise InvalidOption(f"{GAME_ID}.setup-unsupported", f"3-5-8 has no setup notation, got {excerpt(setup)}")
        opts = Options(**{name: options.get(name, opt.default) for name, opt in _OPTIONS.items()})
        if opts.first_dealer == "random":
            dealer, rng = rng.randbelow(_PLAYERS)
        else:
            dealer = int(opts.first_dealer)
        empty = ((), (), ())
        blank = State(opts, 1, dealer, Phase.CHOOSE, None, empty, (), (), 0, (), (), empty, None, (), rng)
        return _deal(blank, 1, dealer)

    def options_of(self, state: State) -> Mapping[str, Json]:
        return state.options.to_json()

    # -- turn ----------------------------------------------------------------------

    def to_act(self, state: State) -> frozenset[int]:
        phase = state.phase
        if phase is Phase.PLAY:
            return frozenset(((state.leader + len(state.trick)) % _PLAYERS,))
        if phase is Phase.CHOOSE or phase is Phase.DISCARD:
            return frozenset((state.chooser,))
        if phase is Phase.EXCHANGE:
            return frozenset((state.exchange.queue[0],))  # type: ignore[union-attr]
        if phase is Phase.DEAL_OVER:
            return frozenset(range(_PLAYERS))
        return frozenset()

    def round_over(self, state: State) -> bool:
        return state.phase in (Phase.DEAL_OVER, Phase.GAME_OVER)

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
        if isinstance(move, PlayCard):
            _require_phase(state, Phase.PLAY, move)
            check_play(_TRICK_CODES, state.hands[seat], state.trick, move.card, _trick_rules(state))
        elif isinstance(move, Choose):
            _require_phase(state, Phase.CHOOSE, move)
            # §3.2: "from the contracts they have not yet chosen in this game"
            require(move.contract in _free_contracts(state, seat), IllegalMove, f"{GAME_ID}.contract-used",
                    f"seat {seat} has already played contract {move.contract.value!r}; still free: "
                    f"{[c.value for c in _free_contracts(state, seat)]}", seat=seat, got=move.contract.value)
        elif isinstance(move, Discard):
            _require_phase(state, Phase.DISCARD, move)
            _require_in_hand(state, seat, move.card)
            # §3.4 (option): trumps may be discarded unless discard_trumps is off
            require(move.card in _discardable(state), IllegalMove, f"{GAME_ID}.discard-trump",
                    f"{move.card} is a trump: with discard_trumps off, trumps may not be discarded", card=str(move.card))
        elif isinstance(move, ExchangeCard):
            _require_phase(state, Phase.EXCHANGE, move)
            _check_exchange(state, seat, move)
        elif isinstance(move, EndExchange):
            _require_phase(state, Phase.EXCHANGE, move)
        elif isinstance(move, NextRound):
            require(phase is Phase.DEAL_OVER, IllegalMove, f"{GAME_ID}.wrong-phase",
                    f"'next-round' is allowed only when a deal is over; the phase is {phase.value!r}",
                    expected=Phase.DEAL_OVER.value, got=phase.value)
        else:  # pragma: no cover - move_from_json builds only the kinds above
            raise IllegalMove(f"{GAME_ID}.bad-move", "not a 3-5-8 move")

    # -- transitions -----------------------------------------------------------------

    def _apply(self, state: State, seat: int, move: Move) -> State:
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
        done = state.history
        if over:
            rec = done[-1]
            rnd, tricks, contract = rec.scores, rec.tricks, rec.contract
        else:
            tricks = _trick_counts(state)
            contract = state.contract
            rnd = _deal_scores(contract, state.dealer, tricks) if contract else (0, 0, 0)
        totals = tuple(sum(r.scores[s] for r in done) for s in range(_PLAYERS))
        previous = tuple(t - (rnd[s] if over else 0) for s, t in enumerate(totals))
        breakdown = tuple(
            _seat_breakdown(state.dealer, contract, s, tricks[s], rnd[s], previous[s], totals[s], done)
            for s in range(_PLAYERS)
        )
        out = self.outcome(state)
        return ScoreReport(rnd, totals, breakdown, over, out.winners if out else ())

    def outcome(self, state: State) -> Outcome | None:
        if state.phase is not Phase.GAME_OVER:
            return None
        totals = tuple(sum(r.scores[s] for r in state.history) for s in range(_PLAYERS))
        best = max(totals)
        top = tuple(s for s in range(_PLAYERS) if totals[s] == best)
        if len(top) > 1 and state.options.tie == "draw":
            return Outcome((), f"{len(top)} players tied on {best} after {_DEALS} deals", draw=True, points=totals)
        reason = f"highest total after {_DEALS} deals: {best}" + (" (shared)" if len(top) > 1 else "")
        return Outcome(top, reason, points=totals)

    def score_tally(self, tally: Json) -> ScoreReport:
        """Scores of one deal from its sheet: ``{"contract", "dealer", "tricks": [3 counts]}``
        (docs/rules/3-5-8.md §7)."""
        keys = {"contract", "dealer", "tricks"}
        if not isinstance(tally, dict) or set(tally) != keys:
            raise InvalidState(f"{GAME_ID}.bad-tally", f"a 3-5-8 tally is {{contract, dealer, tricks}}, got "
                                                       f"{excerpt(sorted(tally) if isinstance(tally, dict) else tally)}")
        try:
            contract = _enum(Contract, tally["contract"], "contract")
            dealer = _int(tally["dealer"], 0, _PLAYERS - 1, "dealer")
            tricks = tuple(_int(t, 0, _TRICKS, "tricks") for t in _triple(tally["tricks"], "tricks"))
        except _Malformed as exc:
            raise InvalidState(f"{GAME_ID}.bad-tally", f"3-5-8 tally: {exc}") from None
        require(sum(tricks) == _TRICKS, InvalidState, f"{GAME_ID}.tricks-sum",
                f"a deal has 16 tricks; the tally's tricks {list(tricks)} sum to {sum(tricks)}",
                expected=_TRICKS, got=sum(tricks))
        rnd = _deal_scores(contract, dealer, tricks)
        assert sum(rnd) == 0, f"3-5-8 deal scores must sum to 0, got {rnd}"  # §6 invariant
        breakdown = tuple(_seat_breakdown(dealer, contract, s, tricks[s], rnd[s], 0, rnd[s], ())
                          for s in range(_PLAYERS))
        return ScoreReport(rnd, rnd, breakdown, True)

    # -- views and events -----------------------------------------------------------

    def view(self, state: State, seat: int | None) -> Json:
        """The state without rng; ``hands``: own hand, ``null`` for the others, plus ``hand_sizes``
        (the chooser sees only his first 6 cards while choosing, §3.2); ``musik`` ``null`` until
        revealed; ``discards`` ``null`` but for the chooser (face down); ``won`` piles ``null``
        (tricks are turned face down) with ``tricks_won`` counting them."""
        data = self.to_json(state)
        del data["rng"]
        data.update(hands_view(data["hands"], seat))
        if seat == state.chooser and state.phase is Phase.CHOOSE:
            data["hands"][seat] = card_strs(state.hands[seat][:_FIRST_SEEN])
        if not _musik_revealed(state):
            data["musik"] = None
        if seat != state.chooser:
            data["discards"] = None  # §3.4: discards are face down
        data["won"] = [None] * _PLAYERS
        data["tricks_won"] = list(_trick_counts(state))
        return data

    def move_view(self, move: Move, actor: int, viewer: int | None) -> Json | None:
        if isinstance(move, Discard) and viewer != actor:
            return {"kind": "discard"}
        if isinstance(move, ExchangeCard) and viewer not in (actor, move.to):
            return {"kind": "exchange", "to": move.to}
        return self.move_to_json(move)

    def events(self, before: State, seat: int, move: Move, after: State) -> list[Json]:
        out = super().events(before, seat, move, after)
        if _musik_revealed(after) and not _musik_revealed(before) and after.round == before.round:
            out.append({"type": "musik-revealed", "cards": card_strs(after.musik), "to": after.chooser})
        if isinstance(move, PlayCard) and len(before.trick) == _PLAYERS - 1:
            plays = after.last_trick
            out.append({"type": "trick-won", "seat": trick_winner(plays, before.contract.trump),  # type: ignore[union-attr]
                        "cards": card_strs(c for _, c in plays)})
        if self.round_over(after) and not self.round_over(before):
            out.append({"type": "deal-scored", "scores": list(after.history[-1].scores)})
        return out

    # -- JSON ------------------------------------------------------------------------

    def to_json(self, state: State) -> Json:
        return {
            "players": _PLAYERS,
            "options": state.options.to_json(),
            "round": state.round,
            "dealer": state.dealer,
            "phase": state.phase.value,
            "turn": _turn(self, state),
            "contract": state.contract.value if state.contract else None,
            "hands": [card_strs(h) for h in state.hands],
            "musik": card_strs(state.musik),
            "discards": card_strs(state.discards),
            "leader": state.leader,
            "trick": [{"seat": s, "card": str(c)} for s, c in state.trick],
            "last_trick": [{"seat": s, "card": str(c)} for s, c in state.last_trick],
            "won": [card_strs(w) for w in state.won],
            "exchange": None if state.exchange is None else {
                "queue": list(state.exchange.queue), "steps": list(state.exchange.steps)},
            "history": [list(r.scores) for r in state.history],
            "contracts": [r.contract.value for r in state.history],
            "rng": state.rng.to_json(),
        }

    def from_json(self, data: Json) -> State:
        state, turn = _parse_state(self, data)
        _check_state(state)
        derived = _turn(self, state)
        if turn != derived:
            def who(seat: int | None) -> str:
                return "null (no single seat)" if seat is None else f"seat {seat}"
            raise InvalidState(f"{GAME_ID}.bad-turn", f"turn is {who(turn)}, but in this position {who(derived)} "
                                                      "is to act", got=who(turn), expected=who(derived))
        return state

    def move_to_json(self, move: Move) -> Json:
        if isinstance(move, PlayCard):
            return {"kind": "play", "card": str(move.card)}
        if isinstance(move, Choose):
            return {"kind": "choose", "contract": move.contract.value}
        if isinstance(move, Discard):
            return {"kind": "discard", "card": str(move.card)}
        if isinstance(move, ExchangeCard):
            return {"kind": "exchange", "to": move.to, "card": str(move.card)}
        if isinstance(move, EndExchange):
            return {"kind": "end-exchange"}
        return {"kind": "next-round"}

    def move_from_json(self, data: Json) -> Move:
        if type(data) is dict and len(data) == 2 and data.get("kind") == "play":  # the common move, read at once
            card = CARDS_BY_NAME.get(data.get("card")) if type(data.get("card")) is str else None
            if card is not None and not card.is_joker:
                return PlayCard(card)
        with malformed(f"{GAME_ID}.bad-move", "3-5-8 move", IllegalMove, quoting=data):
            kind = data["kind"]
            keys = set(data)
            if kind == "play" and keys == {"kind", "card"}:
                return PlayCard(_card(data["card"]))
            if kind == "discard" and keys == {"kind", "card"}:
                return Discard(_card(data["card"]))
            if kind == "choose" and keys == {"kind", "contract"}:
                return Choose(Contract(data["contract"]))
            if kind == "exchange" and keys == {"kind", "to", "card"}:
                return ExchangeCard(_int(data["to"], 0, _PLAYERS - 1, "to"), _card(data["card"]))
            if kind == "end-exchange" and keys == {"kind"}:
                return EndExchange()
            if kind == "next-round" and keys == {"kind"}:
                return NextRound()
        raise IllegalMove(
            f"{GAME_ID}.bad-move",
            f"malformed 3-5-8 move {excerpt(data)}: expected one of {list(self.move_kinds)} with its fields "
            "(play/discard: card; choose: contract; exchange: to, card)",
        )


# --------------------------------------------------------------------------- helpers: rules


def _sorted(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_CARD_KEYS.__getitem__))


class _CardKeys(dict):
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


def _used_contracts(state: State, seat: int) -> set[Contract]:
    used = {r.contract for r in state.history if r.chooser == seat}
    if state.contract is not None and state.chooser == seat and state.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
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
        kind = ENGINE.move_to_json(move)["kind"]
        raise IllegalMove(f"{GAME_ID}.wrong-phase",
                          f"{kind!r} is played in the {phase.value!r} phase; the phase is {state.phase.value!r}",
                          expected=phase.value, got=state.phase.value)


def _require_in_hand(state: State, seat: int, card: Card) -> None:
    require(card in state.hands[seat], IllegalMove, f"{GAME_ID}.card-not-in-hand",
            f"{card} is not in seat {seat}'s hand", card=str(card))


# -- the exchange (§8)


def _previous_scores(state: State) -> tuple[int, int, int]:
    return state.history[-1].scores if state.history else (0, 0, 0)


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
    require(prev[move.to] < 0, IllegalMove, f"{GAME_ID}.not-a-minus-player",
            f"seat {move.to} scored {prev[move.to]:+d} in the previous deal: only minus players receive exchanges",
            seat=move.to)
    partners = _exchange_partners(state)
    require(move.to in partners, IllegalMove, f"{GAME_ID}.exchange-limit",
            f"seat {seat} has no exchange left with seat {move.to} (plus {prev[seat]}, minus {prev[move.to]}, "
            f"steps made {list(state.exchange.steps)})", seat=move.to)  # type: ignore[union-attr]
    _require_in_hand(state, seat, move.card)
    require(move.card in _offerable(state), IllegalMove, f"{GAME_ID}.trump-offered",
            f"{move.card} is a trump ({state.contract.value}): trump cards may not be offered",  # type: ignore[union-attr]
            card=str(move.card))


def _start_exchange(state: State, then) -> State:  # noqa: ANN001
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
                                     exchange=Exchange(state.exchange.queue, steps)))  # type: ignore[union-attr,arg-type]


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
    trick = (*state.trick, Play(seat, card))
    if len(trick) < _PLAYERS:
        return replace(state, hands=hands, trick=trick)
    winner = trick_winner(trick, state.contract.trump)  # type: ignore[union-attr]
    won = tuple((*w, *(c for _, c in trick)) if s == winner else w for s, w in enumerate(state.won))
    out = replace(state, hands=hands, trick=(), last_trick=trick, leader=winner, won=won)
    if hands[0]:
        return out
    tricks = _trick_counts(out)
    scores = _deal_scores(state.contract, state.dealer, tricks)  # type: ignore[arg-type]
    assert sum(scores) == 0, f"3-5-8 deal scores must sum to 0, got {scores}"  # §6 invariant
    record = DealRecord(state.dealer, state.contract, tricks, scores)  # type: ignore[arg-type]
    phase = Phase.GAME_OVER if state.round == _DEALS else Phase.DEAL_OVER
    return replace(out, phase=phase, history=(*state.history, record))


def _seat_breakdown(dealer: int, contract: Contract | None, seat: int, tricks: int, score: int,
                    previous: int, total: int, done: Sequence[DealRecord]) -> Json:
    role = _role(dealer, seat)
    out: dict[str, Json] = {
        "role": _ROLES[role],
        "contract": contract.value if contract else None,
        "tricks": tricks,
    }
    if contract is Contract.NO_TRICKS:
        out["limit"] = _BL_LIMITS[role]
    else:
        out["target"] = _TARGETS[role]
    out["points"] = score  # this deal's points (the report's round figure)
    out["previous_total"] = previous
    out["total"] = total
    out["contracts_used"] = sorted(r.contract.value for r in done if r.chooser == seat)
    out["history"] = [r.scores[seat] for r in done]
    return out


# --------------------------------------------------------------------------- helpers: JSON


class _Malformed(ValueError):
    """A shape problem found while reading JSON, with a message fit for people."""


def _int(value: Any, lo: int, hi: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise _Malformed(f"{what} must be an integer in {lo}..{hi}, got {excerpt(value)}")
    return value


def _enum(cls: type[Enum], value: Any, what: str) -> Any:
    choices = [m.value for m in cls]
    if value not in choices or not isinstance(value, str):
        raise _Malformed(f"{what} must be one of {choices}, got {excerpt(value)}")
    return cls(value)


def _card(text: Any) -> Card:
    try:
        card = parse_card(text)
    except ValueError:
        raise _Malformed(f"not a card: {excerpt(text)} (write rank then suit, like 'QH' or '10S')") from None
    if card.is_joker:
        raise _Malformed("3-5-8 has no jokers")
    return card


def _cards(items: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(items, list):
        raise _Malformed(f"{what} must be a list of cards, got {excerpt(items)}")
    return tuple(_card(c) for c in items)


def _plays(items: Any, what: str) -> tuple[Play, ...]:
    if not isinstance(items, list):
        raise _Malformed(f"{what} must be a list of plays, got {excerpt(items)}")
    out = []
    for p in items:
        if not isinstance(p, dict) or set(p) != {"seat", "card"}:
            raise _Malformed(f"a play in {what} is {{seat, card}}, got {excerpt(p)}")
        out.append(Play(_int(p["seat"], 0, 2, "seat"), _card(p["card"])))
    return tuple(out)


def _triple(items: Any, what: str) -> list:
    if not isinstance(items, list) or len(items) != _PLAYERS:
        raise _Malformed(f"{what} must be a list of 3 entries, got {excerpt(items)}")
    return items


def _history(data: Json, dealer: int, number: int) -> tuple[DealRecord, ...]:
    """The score sheet from ``history`` (points per seat per finished deal) and ``contracts``
    (the contract of each): the dealers rotate back from ``dealer`` of deal ``number``, and the
    tricks follow from the points (§6: ``tricks - target`` or ``limit - tricks``)."""
    rows, names = data["history"], data["contracts"]
    if not isinstance(rows, list) or not isinstance(names, list) or len(rows) != len(names):
        raise _Malformed(f"history and contracts are lists of one entry per finished deal, got "
                         f"{excerpt(rows)} and {excerpt(names)}")
    out = []
    for i, (row, name) in enumerate(zip(rows, names, strict=True)):
        contract = _enum(Contract, name, "a contract")
        scores = tuple(_int(p, -_TRICKS, _TRICKS, "a deal's points") for p in _triple(row, "a history row"))
        deal_dealer = (dealer - (number - 1 - i)) % _PLAYERS
        roles = [_role(deal_dealer, s) for s in range(_PLAYERS)]
        if contract is Contract.NO_TRICKS:
            tricks = tuple(_BL_LIMITS[roles[s]] - scores[s] for s in range(_PLAYERS))
        else:
            tricks = tuple(scores[s] + _TARGETS[roles[s]] for s in range(_PLAYERS))
        if any(not 0 <= t <= _TRICKS for t in tricks):
            raise _bad("bad-history", f"deal {i + 1} ({contract.value}): points {list(scores)} need tricks "
                                      f"{list(tricks)}, outside 0..16")
        out.append(DealRecord(deal_dealer, contract, tricks, scores))  # type: ignore[arg-type]
    return tuple(out)


def _parse_state(engine: ThreeFiveEight, data: Json) -> tuple[State, int | None]:
    """The state and the ``turn`` it claims (checked against the derived one by ``from_json``)."""
    try:
        if not isinstance(data, dict) or set(data) != _STATE_KEYS:
            got = sorted(data)[:20] if isinstance(data, dict) else type(data).__name__
            raise _Malformed(f"a 3-5-8 state has the keys {sorted(_STATE_KEYS)}, got {excerpt(got)}")
        _int(data["players"], _PLAYERS, _PLAYERS, "players")
        try:
            opts = Options(**engine.resolve_options(data["options"]))
        except InvalidOption as exc:
            raise _Malformed(exc.message) from None
        ex = data["exchange"]
        exchange = None
        if ex is not None:
            if not isinstance(ex, dict) or set(ex) != {"queue", "steps"} or not isinstance(ex["queue"], list):
                raise _Malformed(f"exchange must be null or {{queue, steps}}, got {excerpt(ex)}")
            exchange = Exchange(tuple(_int(s, 0, 2, "exchange queue seat") for s in ex["queue"]),
                                tuple(_int(n, 0, _HAND, "exchange steps") for n in _triple(ex["steps"], "steps")))
        number = _int(data["round"], 1, _DEALS, "round")
        dealer = _int(data["dealer"], 0, 2, "dealer")
        turn = None if data["turn"] is None else _int(data["turn"], 0, 2, "turn")
        state = State(
            options=opts,
            round=number,
            dealer=dealer,
            phase=_enum(Phase, data["phase"], "phase"),
            contract=None if data["contract"] is None else _enum(Contract, data["contract"], "contract"),
            hands=tuple(_cards(h, "a hand") for h in _triple(data["hands"], "hands")),
            musik=_cards(data["musik"], "musik"),
            discards=_cards(data["discards"], "discards"),
            leader=_int(data["leader"], 0, 2, "leader"),
            trick=_plays(data["trick"], "trick"),
            last_trick=_plays(data["last_trick"], "last_trick"),
            won=tuple(_cards(w, "a won pile") for w in _triple(data["won"], "won")),
            exchange=exchange,
            history=_history(data, dealer, number),
            rng=Rng.from_json(data["rng"]),
        )
        return state, turn
    except _Malformed as exc:
        raise InvalidState(f"{GAME_ID}.malformed", f"malformed 3-5-8 state: {exc}") from None
    except MALFORMED_ERRORS:
        raise InvalidState(f"{GAME_ID}.malformed", f"malformed 3-5-8 state {excerpt(data)}") from None


def _turn(engine: ThreeFiveEight, state: State) -> int | None:
    """DESIGN 4.5: the one seat to act, or ``None`` when all three (next-round) or none act."""
    acting = engine.to_act(state)
    return next(iter(acting)) if len(acting) == 1 else None


def _bad(code: str, message: str, **context: Json) -> InvalidState:
    return InvalidState(f"{GAME_ID}.{code}", message, **context)


def _check_shown_plays(s: State) -> None:
    """The tricks on the table (the current one and the last) were played legally from the hands
    the seats held then: the hand now plus the cards each seat has played since (§5). A seat
    that showed a void cannot hold that suit now."""
    rules = _trick_rules(s)
    hands = [list(h) for h in s.hands]
    shown = []
    for trick in (s.trick, s.last_trick):
        for seat, card in trick:
            hands[seat].append(card)
        shown.append((trick, [tuple(h) for h in hands]))
    for trick, held in shown:
        for i, (seat, card) in enumerate(trick):
            if card not in playable(held[seat], trick[:i], rules):
                raise _bad("bad-trick", f"seat {seat} could not play {card} to the trick "
                                        f"{[str(c) for _, c in trick]} holding the cards it holds",
                           seat=seat, card=str(card))


def _check_state(s: State) -> None:
    """Meaning: 52 cards once each, sizes that fit the phase, a consistent turn and score sheet."""
    phase = s.phase
    over = phase in (Phase.DEAL_OVER, Phase.GAME_OVER)
    # -- the score sheet (§6): dealers rotate, contracts once per chooser, scores follow from tricks
    finished = s.round if over else s.round - 1
    if len(s.history) != finished:
        raise _bad("bad-history", f"deal {s.round} in phase {phase.value!r} needs {finished} finished deal(s) "
                                  f"in history, got {len(s.history)}")
    if phase is Phase.GAME_OVER and s.round != _DEALS:
        raise _bad("bad-phase", f"the game ends after deal {_DEALS}, not deal {s.round}")
    if phase is Phase.DEAL_OVER and s.round == _DEALS:
        raise _bad("bad-phase", f"deal {_DEALS} is the last: its end is 'game-over', not 'deal-over'")
    if s.options.first_dealer != "random" and (s.dealer - s.round + 1) % 3 != s.options.first_dealer:
        raise _bad("bad-dealer", f"first_dealer {s.options.first_dealer} makes the dealer of deal {s.round} "
                                 f"seat {(s.options.first_dealer + s.round - 1) % 3}, not {s.dealer}")
    used: list[set[Contract]] = [set(), set(), set()]
    for i, r in enumerate(s.history):
        want = (s.dealer - (s.round - 1 - i)) % _PLAYERS
        if r.dealer != want:
            raise _bad("bad-history", f"deal {i + 1} was dealt by seat {want} (the dealer rotates), not {r.dealer}")
        if r.contract in used[r.chooser]:
            raise _bad("contract-reused", f"seat {r.chooser} chose {r.contract.value!r} twice (deal {i + 1})")
        used[r.chooser].add(r.contract)
        if sum(r.tricks) != _TRICKS or r.scores != _deal_scores(r.contract, r.dealer, r.tricks):
            raise _bad("bad-history", f"deal {i + 1}: tricks {list(r.tricks)} in {r.contract.value} give "
                                      f"{list(_deal_scores(r.contract, r.dealer, r.tricks))}, not {list(r.scores)}")
    # -- the contract
    if (phase is Phase.CHOOSE) != (s.contract is None):
        named = f"contract {s.contract.value!r}" if s.contract else "no contract"
        raise _bad("bad-contract", f"phase {phase.value!r} with {named}")
    if s.contract is not None and not over and s.contract in used[s.chooser]:
        raise _bad("contract-reused", f"seat {s.chooser} has already played {s.contract.value!r}")
    if over and s.contract is not s.history[-1].contract:
        raise _bad("bad-contract", "the finished deal's contract differs from the state's")
    if over and s.history[-1].tricks != _trick_counts(s):
        raise _bad("bad-history", f"the finished deal's tricks {list(s.history[-1].tricks)} differ from the "
                                  f"won piles ({list(_trick_counts(s))} tricks)")
    # -- conservation: 52 cards, each once (§9)
    revealed = _musik_revealed(s)
    cards = [c for h in s.hands for c in h] + list(s.discards) + [c for _, c in s.trick] + [c for w in s.won for c in w]
    if not revealed:
        cards += s.musik
    if len(cards) != len(_DECK) or set(cards) != _DECK_SET:
        missing, extra = missing_and_extra(cards, _DECK)
        raise _bad("cards-not-conserved", f"a 3-5-8 deal holds the 52 cards once each; missing {card_strs(missing)}, "
                                          f"extra or repeated {card_strs(extra)}")
    if len(s.musik) != _MUSIK or len(set(s.musik)) != _MUSIK:
        raise _bad("bad-musik", f"the musik has 4 different cards, got {card_strs(s.musik)}")
    if revealed and s.options.exchange_timing == "before-musik" and any(
            set(s.musik) & set(h) for x, h in enumerate(s.hands) if x != s.chooser):
        raise _bad("bad-musik", "the musik went to the chooser: no other hand holds a musik card")
    # -- sizes that fit the phase
    sizes = [len(h) for h in s.hands]
    c = s.chooser
    if phase in (Phase.CHOOSE, Phase.EXCHANGE, Phase.DISCARD):
        if s.trick or s.last_trick or any(s.won):
            raise _bad("bad-phase", f"no trick is played before the 'play' phase (phase {phase.value!r})")
        if s.leader != c:
            raise _bad("bad-turn", f"the chooser (seat {c}) leads the first trick, not seat {s.leader}")
        want = [_HAND] * 3
        if phase is Phase.DISCARD:
            want[c] = _HAND + _MUSIK - len(s.discards)
            if len(s.discards) >= _MUSIK or not set(s.musik) <= set(s.hands[c]) | set(s.discards):
                raise _bad("bad-discards", "during the discard the musik is in the chooser's hand or discards "
                                           "and fewer than 4 cards are discarded")
        elif revealed != bool(s.discards) or (revealed and len(s.discards) != _MUSIK):
            raise _bad("bad-discards", f"phase {phase.value!r} with {len(s.discards)} discard(s)")
        if sizes != want:
            raise _bad("bad-hand-size", f"in phase {phase.value!r} the hands hold {want} cards, got {sizes}")
    else:
        if len(s.discards) != _MUSIK:
            raise _bad("bad-discards", f"the chooser discards 4 cards before play, got {len(s.discards)}")
        if any(len(w) % _PLAYERS for w in s.won):
            raise _bad("bad-tricks", "won piles hold whole tricks of 3 cards")
        done = sum(len(w) for w in s.won) // _PLAYERS
        if over and (done != _TRICKS or s.trick):
            raise _bad("bad-tricks", f"a finished deal has 16 tricks, got {done}")
        if len(s.trick) >= _PLAYERS or any(seat != (s.leader + i) % 3 for i, (seat, _) in enumerate(s.trick)):
            raise _bad("bad-turn", f"the trick {[(p, str(x)) for p, x in s.trick]} is not played clockwise "
                                   f"from the leader {s.leader}")
        played = {seat for seat, _ in s.trick}
        want = [_HAND - done - (seat in played) for seat in range(_PLAYERS)]
        if sizes != want:
            raise _bad("bad-hand-size", f"after {done} trick(s) the hands hold {want} cards, got {sizes}")
        if s.last_trick:
            lt = s.last_trick
            if len(lt) != _PLAYERS or len({p for p, _ in lt}) != _PLAYERS or done == 0 or \
                    trick_winner(lt, s.contract.trump) != s.leader:  # type: ignore[union-attr]
                raise _bad("bad-turn", "the last trick's winner leads the next trick")
        elif done:
            raise _bad("bad-turn", "a trick has been played but last_trick is empty")
        elif s.leader != c:
            raise _bad("bad-turn", f"the chooser (seat {c}) leads the first trick, not seat {s.leader}")
        if s.last_trick and not set(x for _, x in s.last_trick) <= {x for w in s.won for x in w}:
            raise _bad("bad-turn", "the last trick's cards are in a won pile")
        _check_shown_plays(s)
    # -- the exchange (§8)
    if (phase is Phase.EXCHANGE) != (s.exchange is not None):
        how = "with an exchange in progress" if s.exchange else "without the exchange"
        raise _bad("bad-exchange", f"phase {phase.value!r} {how}")
    if s.exchange is not None:
        prev = _previous_scores(s)
        order = [x for x in sorted(range(3), key=lambda x: _role(s.dealer, x)) if prev[x] > 0]
        q = list(s.exchange.queue)
        if (not q or q != order[len(order) - len(q):] or not s.options.exchange
                or s.contract.trump is None or not s.history):  # type: ignore[union-attr]
            raise _bad("bad-exchange", f"exchangers {q} do not fit the previous deal's scores {list(prev)} "
                                       f"(plus players by current target: {order})")
        if s.exchange.steps[q[0]] or sum(s.exchange.steps) > prev[q[0]] or \
                any(n and prev[m] >= 0 for m, n in enumerate(s.exchange.steps)) or \
                (s.options.exchange_limit == "per-opponent"
                 and any(n > -prev[m] for m, n in enumerate(s.exchange.steps) if prev[m] < 0)):
            raise _bad("bad-exchange", f"exchange steps {list(s.exchange.steps)} exceed the allowances")
        if not (_exchange_partners(s) and _offerable(s)):
            raise _bad("bad-exchange", f"seat {q[0]} has nothing left to exchange yet is to act")


ENGINE = ThreeFiveEight()
