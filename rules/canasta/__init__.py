"""Kanasta (Polish Canasta): the rules engine.

The rules it applies are written down in docs/rules/canasta.md; a "§N" in this package is a
section of that page (§3 deal, §5 turn, §6 opening minimum, §7 the discard pile, §8 melds,
§9 going out, §10 scoring, §11 end, §12 options, §13 the state). Rulings K-1 .. K-11 are
labelled there with the rulebook passage each rests on.

108 cards (two packs and four jokers). Four players in two partnerships (seats 0+2 against
1+3), 11 cards each; 3 players play alone with 13 cards, 2 players with 15, and then a side
needs two canastas to go out. Sides are numbered 0, 1 (and 2): seat % 2 in the four-player
game, the seat itself otherwise (the state's ``seat_sides``). The game is declared once in
``_model`` (options, state, moves, score breakdown, score sheet; docs §12-§15) and ``_codes``
(its error codes); ``SPEC`` below gathers them, and ``BaseEngine`` derives reading, writing,
views and options from it. A seat's view shows the discard pile's top card and size only
(``discard: null``, ``discard_top``, ``discard_size``): the pile may not be looked through.

Representation decisions:
- ``legal_moves`` is not complete (meld combinations are too many): it lists every draw,
  take-discard way (two naturals, natural + wild, lay-off), discard and question, and
  representative melds (a greedy meld of everything, each of its groups alone, a wild laid
  off, a going-out meld when one exists). ``check``/``apply`` judge any meld exactly.
- A move's meld groups are ``{"rank": "K", "cards": [...]}``: the cards join the side's
  meld of that rank, created if the side has none. ``take-discard`` names the hand cards shown
  with the top card (``using``; they and the top card go to the meld of its rank) and may
  carry more groups (``melds``) laid before the rest of the pile is picked up, so an
  opening by the pile is judged as a whole (§7.5); a ``meld`` move is judged as a whole too.
- ``take-top-to-go-out`` takes only the top card and melds the whole hand in one move (§7.6).
- "May I go out?" is ``ask-partner`` then the partner's ``answer`` (§9.2); ``turn`` names
  the partner while he answers, and while he may go out double (§9.3).
- Going out from hand (§9.4): the player had laid no card this round before this turn and
  lays his hand at once: one ``meld`` after a stock draw (which lifts the opening minimum),
  the ``take-discard`` and at most one ``meld`` after buying the pile (option
  ``from_hand_after_buying``), or one ``take-top-to-go-out``; a meld he started this turn is
  a canasta. ``concealed_melds`` in the state carries the melds started so far.
- ``end-round``: only with an empty stock in the draw phase (the next player under K-7
  declines the pile, §9.5).
- Dealt red threes still waiting for a first turn when the round ends are laid out then,
  with no replacement, and score for their side (§10).
- A black three left in a hand counts 5 against (its card value); a red three never stays in
  a hand.
- A red three drawn with no replacement that leaves a single card which cannot go out ends
  the turn with no discard (and the round, when the stock is empty): §5.5.
- Going out in the turn that drew the last stock card is going out (with its bonuses); the
  round ends "by the stock" only when the last drawer's discard leaves him cards (§9.5).
- ``from_json`` refuses states that no play reaches (§13): the shape by the declaration
  (``canasta.bad-state`` naming the field), the meaning in ``check_state``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Annotated, Any, Literal, TypeVar, cast

from rules.base import BaseEngine, IllegalMove, Label, NextRound, Outcome, Rng, RulesError, ScoreReport, replace
from rules.cards import Card, deck, sorted_cards
from rules.events import event
from rules.jsontypes import Json
from rules.shapes import Length, Range, field
from rules.spec import GameSpec, Playout, phase_labels

from ._codes import C
from ._melds import (
    CARD_VALUES,
    RANK_NAMES,
    Group,
    Meld,
    apply_groups,
    as_groups,
    go_out_groups,
    greedy_groups,
    is_black_three,
    is_canasta,
    is_ordinary,
    is_red_three,
    is_wild,
    remove_cards,
)
from ._model import (
    HAND_SIZE,
    MOVES,
    Answer,
    AskPartner,
    Breakdown,
    DeclineDouble,
    Discard,
    DoubleGoOut,
    Draw,
    EndRound,
    MeldMove,
    Move,
    Options,
    Phase,
    Seat,
    Side,
    State,
    TakeDiscard,
    TakeTop,
    Tally,
    check_state,
    side_of,
    sides_with,
)
from ._scoring import CANASTA_MINIMUM, opening_minimum, side_score
from ._tally import score_tally


@event
class RedThreesLaidEvent:
    """Red threes were laid out before a side (drawn or dealt; §6): the new ones."""

    type: Literal["red-threes-laid"] = "red-threes-laid"
    side: Annotated[int, Range(0, 3)] = field(doc="the side (its index in `sides`)")
    cards: Annotated[tuple[Card, ...], Length(1, 4)] = field(doc="the red threes laid now")


@event
class WentOutEvent:
    """A seat went out: the round ends (§9)."""

    type: Literal["went-out"] = "went-out"
    seat: Seat
    concealed: bool = field(doc="the going out was from hand, with no meld before (§9.4)")


SPEC = GameSpec(
    id="canasta",
    name="Kanasta (Polish Canasta)",
    label=Label("Kanasta (Polish Canasta)", "Kanasta"),
    players=range(2, 5),
    options=Options,
    state=State,
    moves=MOVES,
    phases=phase_labels(
        Phase,
        DRAW=Label("Draw", "Dobieranie"), PLAY=Label("Meld and discard", "Wykładanie i zrzucanie"),
        ANSWER=Label("The partner answers", "Odpowiedź partnera"),
        DOUBLE=Label("Double going out", "Podwójne skończenie"),
        ROUND_OVER=Label("Round over", "Koniec rozdania"),
    ),
    codes=C,
    breakdown=Breakdown,
    tally=Tally,
    legal_moves_complete=False,
    terms={
        "stock": Label("Stock", "Talon"), "discard": Label("Discard pile", "Stos"),
        "discard_closed": Label("Discard pile closed", "Stos zamknięty"), "sides": Label("Sides", "Drużyny"),
        "side": Label("Side", "Drużyna"), "melds": Label("Melds", "Układy"), "canasta": Label("Canasta", "Kanasta"),
        "red_threes": Label("Red threes", "Czerwone trójki"),
        "meld_cards": Label("Melded cards", "Karty w układach"),
        "natural_canastas": Label("Natural canastas", "Kanasty czyste"),
        "natural_canasta_bonus": Label("Natural canasta bonus", "Premia za kanasty czyste"),
        "mixed_canastas": Label("Mixed canastas", "Kanasty brudne"),
        "mixed_canasta_bonus": Label("Mixed canasta bonus", "Premia za kanasty brudne"),
        "black_threes": Label("Black threes", "Czarne trójki"),
        "red_three_points": Label("Red three points", "Punkty za czerwone trójki"),
        "going_out": Label("Going out", "Skończenie gry"),
        "double_going_out": Label("Double going out", "Podwójne skończenie"),
        "going_out_from_hand": Label("Going out from hand", "Skończenie z ręki"),
        "cards_in_hand": Label("Cards in hand", "Karty w ręku"), "points": Label("Points", "Punkty"),
        "cards": Label("Cards", "Karty"), "round": Label("Round", "Rozdanie"),
        # the log's sentences (service/static/play/log.js fills the {names})
        "move:draw": Label("{seat} drew from the stock", "{seat} dobiera z talonu"),
        "move:take-discard": Label("{seat} took the discard pile", "{seat} kupuje stos"),
        "move:take-top-to-go-out": Label("{seat} took the top card to go out", "{seat} bierze wierzchnią kartę i kończy"),
        "move:meld": Label("{seat} melded {melds}", "{seat} wykłada: {melds}"),
        "move:discard": Label("{seat} discarded {card}", "{seat} zrzuca {card}"),
        "move:ask-partner": Label("{seat} asked the partner: may I go out?", "{seat} pyta partnera: czy mogę skończyć?"),
        "move:answer": Label("{seat} answered: {yes}", "{seat} odpowiada: {yes}"),
        "move:double-go-out": Label("{seat} went out double", "{seat} kończy podwójnie"),
        "move:decline-double": Label("{seat} did not go out double", "{seat} nie kończy podwójnie"),
        "move:end-round": Label("{seat} ended the round", "{seat} kończy rozdanie"),
        "move:next-round": Label("{seat} dealt the next round", "{seat} rozdaje następne rozdanie"),
        "next-round": Label("Next round", "Następne rozdanie"),
        "event:red-threes-laid": Label("Side {side} laid red threes: {cards}", "Drużyna {side} wykłada czerwone trójki: {cards}"),
        "event:went-out": Label("{seat} went out", "{seat} kończy rozdanie"),
    },
    playout=Playout(weights={"ask-partner": 0.2}, options={"target_score": 5000}),
    tally_example={"ended": "stock", "sides": [
        {"melds": [{"rank": "7", "cards": ["7C", "7D", "7S", "7H", "7C", "2H", "JK"]}]}, {}]},
    events=(RedThreesLaidEvent, WentOutEvent),
)


class Kanasta(BaseEngine[State, Move]):
    spec = SPEC

    def resolve_options(self, given: Mapping[str, Json] | None) -> dict[str, Json]:
        """The options, with ``target_score`` following ``opening_table`` unless it is given: a
        7500 table plays to 7500 (issue 9: options that contradict each other)."""
        resolved = super().resolve_options(given)
        if "target_score" not in (given or {}):
            resolved["target_score"] = int(cast("str | int", resolved["opening_table"]))
        return resolved

    # ------------------------------------------------------------------ setup

    def new_game(self, players: int, rng: Rng, options: Options, setup: None = None) -> State:
        dealer, rng = rng.randbelow(players)
        return _deal(players, options, 1, dealer, (0,) * _nsides(players), (), rng)

    # ------------------------------------------------------------------ turn

    def check(self, state: State, seat: int, move: Move) -> None:
        self.check_turn(state, seat)
        _next(state, seat, move)

    def _apply(self, state: State, seat: int, move: Move) -> State:
        return _next(state, seat, move)

    def apply(self, state: State, seat: int, move: Move) -> State:
        """``check`` is ``_next`` itself (one source of legality), so apply runs it once, not twice."""
        self.check_turn(state, seat)
        return _next(state, seat, move)

    def legal_moves(self, state: State, seat: int) -> Sequence[Move]:
        if seat not in self.to_act(state):
            return []
        out: list[Move] = []
        seen: set[Move] = set()
        for move in _candidates(state, seat):
            if move in seen:
                continue
            seen.add(move)
            try:
                _next(state, seat, move)
            except IllegalMove:
                continue
            out.append(move)
        return out

    # ------------------------------------------------------------------ scores

    def scores(self, state: State) -> ScoreReport:
        per_side = _hand_scores(state)
        final = state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
        points = tuple(per_side[side_of(state, s)][0] for s in range(state.players))
        totals = tuple(state.sides[side_of(state, s)].total for s in range(state.players))
        breakdown = tuple(_breakdown(side_of(state, s), per_side[side_of(state, s)][1]) for s in range(state.players))
        outcome = self.outcome(state)
        return ScoreReport(points, totals, breakdown, final, outcome.winners if outcome else (), round=state.round,
                           history=state.history[:-1] if final else state.history)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase is not Phase.GAME_OVER:
            return None
        best = max(state.totals)
        winners = tuple(s for s in range(state.players) if state.sides[side_of(state, s)].total == best)
        return Outcome(
            winners, f"a side reached {state.options.target_score} with the highest total",
            points=tuple(state.sides[side_of(state, s)].total for s in range(state.players)),
        )

    def tally_scores(self, tally: Tally) -> ScoreReport:
        """The score-sheet calculator (see ``_tally``): one hand's score per side, with breakdown."""
        return score_tally(tally)

    # ------------------------------------------------------------------ meaning and views

    def check_state(self, state: State) -> State:
        state = check_state(state)
        if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            # §13: the finished round's row of the history is what its table scores
            scored = _hand_scores(state)
            row = tuple(scored[side_of(state, seat)][0] for seat in range(state.players))
            if state.history[-1] != row:
                raise C.bad_total(f"the last round's table scores {list(row)}, the history says "
                                  f"{list(state.history[-1])}", expected=list(row))
        return state

    def emit(self, before: State, seat: int, move: Move, after: State) -> list[Any]:
        out = super().emit(before, seat, move, after)
        if before.sides is not after.sides and after.round == before.round:  # the same sides: no red three laid
            for side, (b, a) in enumerate(zip(before.sides, after.sides, strict=False)):
                if len(a.red_threes) > len(b.red_threes):
                    out.append(RedThreesLaidEvent(side=side, cards=a.red_threes[len(b.red_threes):]))
        if after.out_seat is not None and before.out_seat is None:
            out.append(WentOutEvent(seat=after.out_seat, concealed=after.concealed_out))
        return out


def _breakdown(side: int, items: Mapping[str, int]) -> Breakdown:
    return Breakdown(side=side, **items)


# ====================================================================== helpers


def _nsides(players: int) -> int:
    return 2 if players == 4 else players


def _side_seats(state: State, side: int) -> tuple[int, ...]:
    return (side, side + 2) if state.players == 4 else (side,)


def _need_canastas(state: State) -> int:
    return 1 if state.players == 4 else 2


def _canastas(melds: Sequence[Meld]) -> int:
    return sum(1 for m in melds if is_canasta(m))


T = TypeVar("T")


def _set(t: tuple[T, ...], i: int, v: T) -> tuple[T, ...]:
    return t[:i] + (v,) + t[i + 1:]


def _groups_text(groups: Iterable[Group]) -> str:
    return "; ".join(f"{RANK_NAMES.get(r, r)}: {' '.join(map(str, cs))}" for r, cs in groups) or "nothing"


# ---------------------------------------------------------------------- dealing


def _deal(players: int, options: Options, round: int, dealer: int, totals: tuple[int, ...],
          history: tuple[tuple[int, ...], ...], rng: Rng) -> State:
    """§3: shuffle, 11/13/15 cards each from the left of the dealer, turn up the pile."""
    cards, rng = rng.shuffle(deck(packs=2, jokers=4))
    stock = list(cards)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for _ in range(HAND_SIZE[players]):
        for k in range(players):
            hands[(dealer + 1 + k) % players].append(stock.pop())
    pile: list[Card] = []
    closed = False
    while True:  # turn cards until an ordinary card (4..A) shows; they all stay in the pile
        c = stock.pop()
        pile.append(c)
        if is_wild(c) and options.wild_turn_up_closes_discard:
            closed = True
        if is_ordinary(c):
            break
    state = State(
        players=players, options=options, round=round, dealer=dealer, turn=(dealer + 1) % players,
        phase=Phase.DRAW, stock=tuple(stock), discard=tuple(pile), discard_closed=closed,
        hands=tuple(tuple(sorted_cards(h)) for h in hands), sides=tuple(Side((), (), t) for t in totals),
        history=history, laid=(False,) * players,
        pending=tuple(any(is_red_three(c) for c in h) for h in hands),
        drew=None, asked=None, meld_moves=0, concealed_melds=None, buying=False, out_seat=None,
        double_out=False, concealed_out=False, ending=None, rng=rng,
    )
    if options.red_threes_laid == "deal":
        for k in range(players):
            seat = (dealer + 1 + k) % players
            if state.pending[seat]:
                state = _lay_red_threes(state, seat)
    return _begin_turn(state, (dealer + 1) % players)  # the seat after the dealer (turn above)


def _draw_cards(stock: list[Card], hand: list[Card], reds: list[Card], count: int, replace_reds: bool) -> None:
    """Draw ``count`` cards; a red three drawn is laid out and (if ``replace_reds``) replaced."""
    for _ in range(count):
        while stock:
            c = stock.pop()
            if is_red_three(c):
                reds.append(c)
                if replace_reds:
                    continue
                break
            hand.append(c)
            break


def _lay_red_threes(state: State, seat: int) -> State:
    """§5, K-9: dealt red threes go on the table, each replaced from the stock."""
    hand = [c for c in state.hands[seat] if not is_red_three(c)]
    side = side_of(state, seat)
    reds = list(state.sides[side].red_threes) + [c for c in state.hands[seat] if is_red_three(c)]
    stock = list(state.stock)
    _draw_cards(stock, hand, reds, len(state.hands[seat]) - len(hand), True)
    state = replace(state, sides=sides_with(state, side, red_threes=tuple(reds)))
    return replace(
        state, stock=tuple(stock), hands=_set(state.hands, seat, tuple(sorted_cards(hand))),
        pending=_set(state.pending, seat, False),
    )


def _begin_turn(state: State, seat: int) -> State:
    state = replace(state, turn=seat, phase=Phase.DRAW, drew=None, asked=None, meld_moves=0, concealed_melds=None)
    if state.pending[seat]:
        state = _lay_red_threes(state, seat)
    return state


# ---------------------------------------------------------------------- transitions


def _next(state: State, seat: int, move: Move) -> State:
    """The state after ``move`` (one source of legality for check, apply and legal_moves)."""
    ph = state.phase
    if isinstance(move, NextRound):
        if ph is not Phase.ROUND_OVER:
            raise C.round_not_over(f"next-round deals only after a round is over; round {state.round} is being "
                                   "played", round=state.round)
        return _deal(state.players, state.options, state.round + 1, (state.dealer + 1) % state.players,
                     state.totals, state.history, state.rng)
    if not isinstance(move, _ALLOWED.get(ph, ())):
        what = {
            Phase.DRAW: "draw, take the pile, take the top card to go out or ask the partner",
            Phase.PLAY: "meld, discard or ask the partner",
            Phase.ANSWER: "the partner answers yes or no",
            Phase.DOUBLE: "the partner may go out too (double-go-out) or decline",
        }.get(ph, "nothing")
        if ph is Phase.ROUND_OVER:
            raise C.round_over(f"round {state.round} is over: the only move is next-round, got {move.kind!r}",
                               round=state.round)
        raise C.wrong_phase(f"{move.kind!r} is not allowed now ({ph.value} phase: {what})")
    if isinstance(move, Draw):
        return _draw(state, seat)
    if isinstance(move, TakeDiscard | TakeTop):
        return _take(state, seat, move)
    if isinstance(move, MeldMove):
        return _meld(state, seat, move)
    if isinstance(move, Discard):
        return _discard(state, seat, move.card)
    if isinstance(move, AskPartner):
        if state.players != 4:
            raise C.no_partner(f"in the {state.players}-player game nobody has a partner to ask")
        if state.asked:
            raise C.already_asked("'may I go out?' may be asked once per turn (K-10)")
        if state.meld_moves:
            raise C.ask_before_melding("ask 'may I go out?' before melding in this turn")
        if state.drew and len(state.hands[seat]) < 2:
            raise C.ask_too_late("holding one card after taking the pile, the player is already going out")
        return replace(state, phase=Phase.ANSWER, asked="asked", turn=(seat + 2) % 4)
    if isinstance(move, Answer):
        return replace(state, phase=Phase.PLAY if state.drew else Phase.DRAW, asked="yes" if move.yes else "no",
                       turn=(seat + 2) % 4)
    if isinstance(move, DoubleGoOut):
        return _double(state, seat, move)
    if isinstance(move, DeclineDouble):
        return _end_round(state, "out")
    # EndRound
    if state.stock:
        raise C.stock_not_empty(f"the round goes on while the stock holds {len(state.stock)} cards: draw",
                                got=len(state.stock))
    return _end_round(state, "stock")


#: the moves each phase allows (besides next-round)
_ALLOWED = {
    Phase.DRAW: (Draw, TakeDiscard, TakeTop, AskPartner, EndRound),
    Phase.PLAY: (MeldMove, Discard, AskPartner),
    Phase.ANSWER: (Answer,),
    Phase.DOUBLE: (DoubleGoOut, DeclineDouble),
}


def _draw(state: State, seat: int) -> State:
    if not state.stock:
        raise C.stock_empty("the stock is empty: take the pile or end the round (end-round)")
    side = side_of(state, seat)
    stock, hand, reds = list(state.stock), list(state.hands[seat]), list(state.sides[side].red_threes)
    _draw_cards(stock, hand, reds, 1, state.options.red_three_replacement == "dealt-and-drawn")
    laid_reds = len(reds) > len(state.sides[side].red_threes)  # a red three drawn is laid: the side changes
    state = replace(
        state, sides=sides_with(state, side, red_threes=tuple(reds)) if laid_reds else state.sides, stock=tuple(stock),
        hands=_set(state.hands, seat, tuple(sorted_cards(hand))), phase=Phase.PLAY, drew="stock",
    )
    if len(hand) == 1 and _go_out_problem(state, seat, state.sides[side].melds) is not None:
        # A red three drawn and laid with no replacement (K-7's last stock card, or K-2's
        # "dealt-only") left a single card that cannot go out: no discard is possible, so
        # the turn ends here (and the hand, when the stock is empty).
        if not state.stock:
            return _end_round(state, "stock")
        return _begin_turn(state, (seat + 1) % state.players)
    return state


def _go_out_problem(state: State, seat: int, melds_after: Sequence[Meld]) -> RulesError | None:
    """§9.1, §9.2: going out needs the side's canasta(s) (after this turn's melds) and no "no"."""
    need = _need_canastas(state)
    if state.asked == "no":
        return C.partner_said_no("the partner answered 'no' to 'may I go out?': no going out this turn")
    if _canastas(melds_after) < need:
        return C.no_canasta(f"going out needs {'a canasta' if need == 1 else 'two canastas'} on the side's table; "
            f"the side would have {_canastas(melds_after)}", expected=need, got=_canastas(melds_after),
        )
    return None


def _check_minimum(state: State, side: int, groups: Sequence[Group], new_melds: Sequence[Meld]) -> None:
    """§6: a side's opening melds in one move reach the minimum for its score."""
    total = state.sides[side].total
    need = opening_minimum(total, state.options.opening_table)
    if need == CANASTA_MINIMUM:
        if not any(is_canasta(m) for m in new_melds):
            raise C.below_minimum(f"at {total} points the opening must make a whole canasta "
                                        f"at once; melded {_groups_text(groups)}", expected="kanasta")
        return
    values = CARD_VALUES
    points = sum([values[c] for g in groups for c in g.cards])
    if points < need:
        raise C.below_minimum(f"the side's opening must meld at least {need} points (its score is {total}); "
            f"{_groups_text(groups)} is {points}", expected=need, got=points,
        )


def _take(state: State, seat: int, move: TakeDiscard | TakeTop) -> State:
    """§7: taking the pile (or only its top card to go out)."""
    pile = state.discard
    hand = state.hands[seat]
    side = side_of(state, seat)
    if not pile:
        raise C.discard_empty("the discard pile is empty")
    if len(hand) == 1 and (len(pile) == 1 or state.options.one_card_rule == "any-discard"):
        what = "a pile of one card" if len(pile) == 1 else "the pile"
        raise C.one_card_rule(f"a player holding one card ({hand[0]}) may not take {what}", card=str(hand[0]))
    top = pile[-1]
    if is_black_three(top):
        raise C.discard_blocked_black_three(f"the top card {top} is a black three: nobody may take the pile now",
                   card=str(top))
    if is_wild(top):
        raise C.discard_blocked_wild(f"the top card {top} is a wild card: the pile cannot be taken now",
                   card=str(top))
    rank = int(top.rank)
    blockers = range(len(state.melds)) if state.options.canasta_blocks_discard == "everyone" else (side,)
    for b in blockers:
        for r, cs in state.sides[b].melds:
            if r == rank and len(cs) >= 7:
                whose = "the side's own" if b == side else f"side {b}'s"
                raise C.discard_blocked_canasta(f"{whose} canasta of {RANK_NAMES[rank]} blocks a pile topped by {top}",
                           card=str(top))
    for c in move.using:
        if not is_wild(c) and c.rank != top.rank:
            raise C.using_not_of_rank(f"{c} cannot be shown with the top card {top}", card=str(c),
                       expected=str(top))
    melds = state.sides[side].melds
    opened = bool(melds)
    naturals = sum(1 for c in move.using if not is_wild(c))
    wilds = len(move.using) - naturals
    has_meld = any(r == rank for r, _ in melds)
    shown = " ".join(map(str, move.using)) or "nothing"
    if not opened or state.discard_closed:
        if naturals < 2:
            why = "the side has not opened" if not opened else "a wild card lies in it"
            raise C.discard_closed(f"the pile is closed ({why}): take it only with two natural "
                                      f"{RANK_NAMES[rank]}s from the hand; shown: {shown}", card=str(top))
    elif not (naturals >= 2 or (naturals >= 1 and wilds >= 1) or has_meld):
        raise C.discard_needs_match(f"to take the pile topped by {top}, show two {RANK_NAMES[rank]}s, one and a "
                                       f"wild card, or add it to a meld of {RANK_NAMES[rank]}; shown: {shown}",
                   card=str(top))
    if any(r == rank for r, _ in move.melds):
        raise C.duplicate_rank(f"the cards of rank {RANK_NAMES[rank]} go in 'using', not in 'melds'",
                   expected=RANK_NAMES[rank])
    groups = (Group(rank, (top,) + move.using),) + move.melds
    rest = remove_cards(hand, move.using + tuple(c for _, cs in move.melds for c in cs))
    cap3 = state.options.max_three_wilds
    melds_after, new_melds = apply_groups(melds, groups, cap3, state.options.one_meld_per_rank)
    if not opened:
        _check_minimum(state, side, groups, new_melds)
    if isinstance(move, TakeTop):
        if rest:
            raise C.must_meld_all(f"taking only the top card is for going out: meld every card "
                                        f"(left: {' '.join(map(str, rest))})")
        problem = _go_out_problem(state, seat, melds_after)
        if problem:
            raise problem
        # §9.4: laying the whole hand at once with a canasta of his own, having laid nothing before,
        # is going out from hand; the privilege only keeps the opening minimum (checked above, §6)
        concealed = not state.laid[seat] and any(is_canasta(m) for m in new_melds)
        state = replace(
            state, sides=sides_with(state, side, melds=melds_after), discard=pile[:-1], hands=_set(state.hands, seat, ()),
            laid=_set(state.laid, seat, True), drew="discard",
        )
        return _go_out(state, seat, concealed=concealed)
    if any(r == 3 for r, _ in groups):
        raise C.black_threes_only_going_out("black threes are melded only when going out by melding")
    reds = list(state.sides[side].red_threes)
    new_hand = list(rest)
    for c in pile[:-1]:
        (reds if is_red_three(c) else new_hand).append(c)  # K-2: red threes from the pile: no replacement
    if not new_hand:
        raise C.use_take_top("this take would empty the hand: use take-top-to-go-out")
    if len(new_hand) == 1:
        problem = _go_out_problem(state, seat, melds_after)
        if problem:
            raise C.must_keep_card(f"one card would be left, so the discard would go out: {problem.message}")
    # §9.4 going out from hand after buying the pile (option from_hand_after_buying): a player who had
    # laid nothing may still lay his whole hand in this turn; remember the melds he starts
    from_hand = not state.laid[seat] and state.options.from_hand_after_buying
    return replace(
        state, sides=sides_with(state, side, melds=melds_after, red_threes=tuple(reds)), discard=(), discard_closed=False,
        hands=_set(state.hands, seat, tuple(sorted_cards(new_hand))), laid=_set(state.laid, seat, True), drew="discard", phase=Phase.PLAY,
        concealed_melds=tuple(r for r, _ in new_melds) if from_hand else None,
    )


def _meld(state: State, seat: int, move: MeldMove) -> State:
    """§8, §6: new melds and additions, judged as a whole (opening minimum, going out)."""
    groups = move.melds
    if not groups:
        raise C.empty_meld("a meld move lays at least one group")
    side = side_of(state, seat)
    melds = state.sides[side].melds
    options = state.options
    rest = remove_cards(state.hands[seat], [c for g in groups for c in g.cards])
    melds_after, new_melds = apply_groups(melds, groups, options.max_three_wilds, options.one_meld_per_rank)
    if rest and any(g.rank == 3 for g in groups):
        raise C.black_threes_only_going_out("black threes are melded only when going out by melding the last card")
    going = len(rest) <= 1
    if not melds and not (going and state.drew == "stock" and state.meld_moves == 0 and not state.laid[seat]
                          and any(is_canasta(m) for m in new_melds)):
        # §6 exception: going out from hand after a stock draw (his own canasta) is not bound by the minimum
        _check_minimum(state, side, groups, new_melds)
    if going:
        problem = _go_out_problem(state, seat, melds_after)
        if problem:
            if rest:
                raise C.must_keep_card(f"melding down to one card means going out by discarding it: "
                                             f"{problem.message}")
            raise problem
    state = replace(
        state, sides=sides_with(state, side, melds=melds_after), hands=_set(state.hands, seat, rest),
        laid=_set(state.laid, seat, True), meld_moves=state.meld_moves + 1,
        concealed_melds=_concealed_after_meld(state, seat, new_melds),
    )
    if not rest:
        return _go_out(state, seat, concealed=_from_hand(state, melds_after))
    return state


def _concealed_after_meld(state: State, seat: int, new_melds: Sequence[Meld]) -> tuple[int, ...] | None:
    """§9.4 going out from hand lays the whole hand at once: one meld move after a stock draw, or
    the pile's take and one meld move after buying it; anything more ends the chance this turn."""
    started = tuple([m.rank for m in new_melds])
    if state.meld_moves:
        return None
    if state.drew == "stock":
        return None if state.laid[seat] else started
    return None if state.concealed_melds is None else state.concealed_melds + started


def _from_hand(state: State, melds_after: Sequence[Meld]) -> bool:
    """Going out now is going out from hand: the turn still qualifies and one of the melds the
    player started in it is a canasta (his own, §9.4)."""
    if state.concealed_melds is None:
        return False
    latest = {m.rank: m.cards for m in melds_after}  # with K-6's option, the player's meld is the latest of its rank
    return any(r in latest and is_canasta((r, latest[r])) for r in state.concealed_melds)


def _discard(state: State, seat: int, card: Card) -> State:
    rest = remove_cards(state.hands[seat], (card,))
    side = side_of(state, seat)
    if not rest:
        problem = _go_out_problem(state, seat, state.sides[side].melds)
        if problem:
            raise problem
    elif state.asked == "yes" and _go_out_plan(state, seat) is not None:
        raise C.must_go_out(f"the partner answered 'yes': this turn must end by going out, and it can "
                                  f"(discarding {card} keeps {len(rest)} cards)", card=str(card))
    state = replace(
        state, hands=_set(state.hands, seat, rest), discard=state.discard + (card,),
        discard_closed=state.discard_closed or is_wild(card),
    )
    if not rest:
        return _go_out(state, seat, concealed=_from_hand(state, state.sides[side].melds))
    if not state.stock:
        if state.options.last_discard_buyable and not state.buying:
            return replace(_begin_turn(state, (seat + 1) % state.players), buying=True)
        return _end_round(state, "stock")
    return _begin_turn(state, (seat + 1) % state.players)


def _go_out_plan(state: State, seat: int) -> MeldMove | None:
    """A legal going-out meld for ``seat`` now (play phase), or None."""
    side = side_of(state, seat)
    found = go_out_groups(state.hands[seat], state.sides[side].melds, state.options.max_three_wilds,
                          _need_canastas(state), allow_discard=True)
    if found is None or not found[0]:
        return None
    move = MeldMove(as_groups(found[0]))
    try:
        _meld(state, seat, move)
    except IllegalMove:
        return None
    return move


def _double_plan(state: State, partner: int) -> DoubleGoOut | None:
    side = side_of(state, partner)
    hand = state.hands[partner]
    if not hand:
        return None
    found = go_out_groups(hand, state.sides[side].melds, state.options.max_three_wilds, 0, allow_discard=False)
    return DoubleGoOut(as_groups(found[0])) if found else None


def _lay_waiting_red_threes(state: State) -> State:
    """K-9 at the end of a hand: dealt red threes still waiting for a first turn that never came
    go to their side's table (no replacement, nobody draws any more) and score for it (§10)."""
    if not any(state.pending):
        return state
    hands, reds = list(state.hands), [list(r) for r in state.red_threes]
    for seat in range(state.players):
        if state.pending[seat]:
            reds[side_of(state, seat)].extend(c for c in hands[seat] if is_red_three(c))
            hands[seat] = tuple(c for c in hands[seat] if not is_red_three(c))
    sides = tuple(replace(side, red_threes=tuple(r)) for side, r in zip(state.sides, reds, strict=True))
    return replace(state, hands=tuple(hands), sides=sides, pending=(False,) * state.players)


def _go_out(state: State, seat: int, concealed: bool) -> State:
    state = _lay_waiting_red_threes(replace(state, out_seat=seat, concealed_out=concealed))
    if state.players == 4 and _double_plan(state, (seat + 2) % 4) is not None:
        return replace(state, phase=Phase.DOUBLE, turn=(seat + 2) % 4)
    return _end_round(state, "out")


def _double(state: State, seat: int, move: DoubleGoOut) -> State:
    """§9.3 double going out: the partner melds all his cards, or none."""
    side = side_of(state, seat)
    rest = remove_cards(state.hands[seat], (c for _, cs in move.melds for c in cs))
    if rest:
        raise C.double_not_all(f"double going out melds every card, all or nothing; left: "
                                     f"{' '.join(map(str, rest))}")
    melds_after, _ = apply_groups(state.sides[side].melds, move.melds, state.options.max_three_wilds,
                                  state.options.one_meld_per_rank)
    state = replace(
        state, sides=sides_with(state, side, melds=melds_after), hands=_set(state.hands, seat, ()),
        laid=_set(state.laid, seat, True), double_out=True,
    )
    return _end_round(state, "out")


def _hand_scores(state: State) -> list[tuple[int, dict[str, int]]]:
    out = []
    ended = state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER, Phase.DOUBLE)
    for side in range(len(state.melds)):
        went = ended and state.out_seat is not None and side_of(state, state.out_seat) == side
        hands = [state.hands[s] for s in _side_seats(state, side)]
        out.append(side_score(
            state.sides[side].melds, len(state.sides[side].red_threes), hands,
            black_three=state.options.black_three_meld_value, went_out=went,
            double=went and state.double_out, concealed=went and state.concealed_out,
        ))
    return out


def _end_round(state: State, ending: str) -> State:
    """§10, §11: score the hand; the game ends when a side reached the target alone at the top."""
    state = _lay_waiting_red_threes(replace(state, ending=ending, out_seat=state.out_seat if ending == "out" else None,
                                            turn=None))
    scores = _hand_scores(replace(state, phase=Phase.ROUND_OVER))
    totals = tuple(t + s for t, (s, _) in zip(state.totals, scores, strict=True))
    best = max(totals)
    over = best >= state.options.target_score and totals.count(best) == 1
    row = tuple(scores[side_of(state, seat)][0] for seat in range(state.players))
    sides = tuple(replace(side, total=t) for side, t in zip(state.sides, totals, strict=True))
    return replace(state, sides=sides, history=state.history + (row,),
                   phase=Phase.GAME_OVER if over else Phase.ROUND_OVER, buying=False,
                   drew=None, asked=None, meld_moves=0, concealed_melds=None)


# ---------------------------------------------------------------------- listing


def _candidates(state: State, seat: int) -> Iterator[Move]:
    ph = state.phase
    if ph is Phase.ROUND_OVER:
        yield NextRound()
        return
    if ph is Phase.ANSWER:
        yield Answer(True)
        yield Answer(False)
        return
    if ph is Phase.DOUBLE:
        plan: Move | None = _double_plan(state, seat)
        if plan is not None:
            yield plan
        yield DeclineDouble()
        return
    side = side_of(state, seat)
    hand = state.hands[seat]
    melds = state.sides[side].melds
    cap3 = state.options.max_three_wilds
    if state.players == 4 and not state.asked and not state.meld_moves and (len(hand) > 1 or not state.drew):
        yield AskPartner()
    if ph is Phase.DRAW:
        yield Draw() if state.stock else EndRound()
        if not state.discard or not is_ordinary(state.discard[-1]):
            return
        top = state.discard[-1]
        nat = tuple(c for c in hand if c.rank == top.rank)
        wild = tuple(c for c in hand if is_wild(c))
        usings = [nat[:2], nat, nat[:1] + wild[:1], ()]
        for using in usings:
            yield TakeDiscard(using)
            if not melds:
                spare = remove_cards(hand, nat + tuple(c for c in using if is_wild(c)))
                extra = tuple(g for g in greedy_groups(spare, melds, cap3, 0) if g[0] != int(top.rank))
                if extra:
                    yield TakeDiscard(using, as_groups(extra))
        found = go_out_groups(hand + (top,), melds, cap3, _need_canastas(state), False, int(top.rank))
        if found is not None:
            groups = found[0]
            mine = [cs for r, cs in groups if r == int(top.rank)]
            if mine:
                shown = list(mine[0])
                shown.remove(top)
                yield TakeTop(tuple(shown), as_groups(g for g in groups if g[0] != int(top.rank)))
        return
    # play phase
    plan = _go_out_plan(state, seat)
    if plan is not None:
        yield plan
    greedy = greedy_groups(hand, melds, cap3, 2)
    if greedy:
        yield MeldMove(as_groups(greedy))
        if melds:
            for g in greedy:
                yield MeldMove(as_groups((g,)))
    if melds and not state.options.one_meld_per_rank:
        for r, _ in melds:  # K-6 option: another meld of a rank the side already has
            nat = tuple(c for c in hand if c.rank == r)
            if len(nat) >= 3:
                yield MeldMove(as_groups(((r, nat),), (r,)))
                break
    if melds:
        wilds = [c for c in hand if is_wild(c)]
        if wilds:
            for r, _cs in melds:
                yield MeldMove(as_groups(((r, (wilds[0],)),)))
    for c in sorted(set(hand)):
        yield Discard(c)


ENGINE = Kanasta()
