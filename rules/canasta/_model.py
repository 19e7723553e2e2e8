"""State, moves and their JSON for Kanasta."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum

from rules.base import IllegalMove, InvalidState, Json, NextRound, Rng, malformed
from rules.cards import Card, deck, parse_card

from ._melds import NAME_RANKS, RANK_NAMES, Meld, check_meld_shape, is_red_three

G = "canasta"
FULL_DECK = Counter(deck(packs=2, jokers=4))


class Phase(Enum):
    DRAW = "draw"            # the player to act draws, takes the pile or takes the top to go out
    PLAY = "play"            # meld, then discard
    ANSWER = "answer"        # the partner answers "may I go out?"
    DOUBLE = "double"        # the partner of the player who went out may meld his whole hand
    HAND_OVER = "hand-over"  # scores final; next-round deals
    GAME_OVER = "game-over"


@dataclass(frozen=True)
class State:
    players: int
    options: tuple[tuple[str, Json], ...]
    hand_no: int
    dealer: int
    turn: int
    phase: Phase
    stock: tuple[Card, ...]               # top = last
    pile: tuple[Card, ...]                # top = last
    pile_closed: bool                     # a wild card lies in the pile (§1.7)
    hands: tuple[tuple[Card, ...], ...]   # per seat, sorted
    melds: tuple[tuple[Meld, ...], ...]   # per side, sorted by rank
    red_threes: tuple[tuple[Card, ...], ...]  # per side
    totals: tuple[int, ...]               # per side, after the last finished hand
    laid: tuple[bool, ...]                # per seat: has laid a card on the table this hand
    pending: tuple[bool, ...]             # per seat: dealt red threes not yet laid out (K-9)
    drew: str                             # this turn: "", "stock" or "pile"
    asked: str                            # this turn: "", "asked", "yes", "no"
    meld_moves: int                       # meld moves this turn
    concealed_melds: tuple[int, ...] | None  # this turn can still go out from hand: ranks of the melds it started
    buying: bool                          # K-7: the turn after the stock ran out
    out_seat: int                         # who went out this hand, -1 if nobody
    double_out: bool
    concealed_out: bool
    ending: str                           # "", "out" or "stock"
    rng: Rng


# --------------------------------------------------------------------------- moves

Group = tuple[int, tuple[Card, ...]]


@dataclass(frozen=True)
class Draw:
    kind = "draw"


@dataclass(frozen=True)
class TakePile:
    using: tuple[Card, ...]
    melds: tuple[Group, ...] = ()
    fresh: tuple[int, ...] = ()  # ranks whose group starts another meld (K-6 option)
    kind = "take-pile"


@dataclass(frozen=True)
class TakeTop:
    using: tuple[Card, ...]
    melds: tuple[Group, ...] = ()
    fresh: tuple[int, ...] = ()  # ranks whose group starts another meld (K-6 option)
    kind = "take-top-to-go-out"


@dataclass(frozen=True)
class MeldMove:
    melds: tuple[Group, ...]
    fresh: tuple[int, ...] = ()
    kind = "meld"


@dataclass(frozen=True)
class Discard:
    card: Card
    kind = "discard"


@dataclass(frozen=True)
class AskPartner:
    kind = "ask-partner"


@dataclass(frozen=True)
class Answer:
    yes: bool
    kind = "answer"


@dataclass(frozen=True)
class DoubleGoOut:
    melds: tuple[Group, ...]
    fresh: tuple[int, ...] = ()
    kind = "double-go-out"


@dataclass(frozen=True)
class DeclineDouble:
    kind = "decline-double"


@dataclass(frozen=True)
class EndHand:
    kind = "end-hand"


Move = (
    Draw | TakePile | TakeTop | MeldMove | Discard | AskPartner | Answer | DoubleGoOut | DeclineDouble
    | EndHand | NextRound
)
MOVE_KINDS = tuple(
    k.kind for k in (Draw, TakePile, TakeTop, MeldMove, Discard, AskPartner, Answer, DoubleGoOut, DeclineDouble,
                     EndHand, NextRound)
)


def cards_json(cards) -> list[str]:
    return [str(c) for c in cards]


def groups_json(groups, fresh=()) -> list[Json]:
    return [
        {"rank": RANK_NAMES[r], "cards": cards_json(cs), **({"new": True} if r in fresh else {})} for r, cs in groups
    ]


def move_to_json(move: Move) -> Json:
    out: dict[str, Json] = {"kind": move.kind}
    if isinstance(move, TakePile | TakeTop):
        out["using"] = cards_json(move.using)
        out["melds"] = groups_json(move.melds, move.fresh)
    elif isinstance(move, MeldMove | DoubleGoOut):
        out["melds"] = groups_json(move.melds, move.fresh)
    elif isinstance(move, Discard):
        out["card"] = str(move.card)
    elif isinstance(move, Answer):
        out["yes"] = move.yes
    return out


def _bad(msg: str) -> IllegalMove:
    return IllegalMove(f"{G}.bad-move", msg)


def _cards(data: Json, what: str) -> tuple[Card, ...]:
    if not isinstance(data, list) or len(data) > 108:
        raise _bad(f"{what} must be a list of cards, got {data!r}")
    try:
        return tuple(map(parse_card, data))
    except ValueError as exc:
        raise _bad(f"{what}: {exc}") from None


def _groups(data: Json) -> tuple[tuple[Group, ...], tuple[int, ...]]:
    """Groups and the ranks marked ``"new": true`` (another meld of a rank, K-6 option)."""
    if not isinstance(data, list) or len(data) > 20:
        raise _bad(f"melds must be a list of {{rank, cards}} groups, got {data!r}")
    out = []
    fresh = []
    for g in data:
        if not isinstance(g, dict) or not {"rank", "cards"} <= set(g) <= {"rank", "cards", "new"}:
            raise _bad(f"a meld group is {{\"rank\": \"K\", \"cards\": [...], \"new\"?: true}}, got {g!r}")
        rank = NAME_RANKS.get(g["rank"]) if isinstance(g["rank"], str) else None
        if rank is None:
            raise _bad(f"meld rank must be one of {list(NAME_RANKS)}, got {g['rank']!r}")
        if g.get("new", False) not in (True, False) or not isinstance(g.get("new", False), bool):
            raise _bad(f"a group's 'new' is true or false, got {g['new']!r}")
        out.append((rank, _cards(g["cards"], "meld cards")))
        if g.get("new") is True:
            fresh.append(rank)
    return tuple(out), tuple(fresh)


def move_from_json(data: Json) -> Move:
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise _bad(f"a move is an object with a 'kind', got {data!r}")
    kind = data["kind"]
    fields = {
        "draw": set(), "ask-partner": set(), "decline-double": set(), "end-hand": set(), "next-round": set(),
        "take-pile": {"using", "melds"}, "take-top-to-go-out": {"using", "melds"}, "meld": {"melds"},
        "double-go-out": {"melds"}, "discard": {"card"}, "answer": {"yes"},
    }
    if kind not in fields:
        raise _bad(f"unknown move kind {kind!r}; known: {list(MOVE_KINDS)}")
    given = set(data) - {"kind"}
    optional = {"melds"} if kind in ("take-pile", "take-top-to-go-out") else set()
    if not (fields[kind] - optional) <= given <= fields[kind]:
        raise _bad(f"move {kind!r} takes fields {sorted(fields[kind])}, got {sorted(given)}")
    if kind == "draw":
        return Draw()
    if kind == "ask-partner":
        return AskPartner()
    if kind == "decline-double":
        return DeclineDouble()
    if kind == "end-hand":
        return EndHand()
    if kind == "next-round":
        return NextRound()
    if kind in ("take-pile", "take-top-to-go-out"):
        cls = TakePile if kind == "take-pile" else TakeTop
        return cls(_cards(data["using"], "using"), *_groups(data.get("melds", [])))
    if kind == "meld":
        return MeldMove(*_groups(data["melds"]))
    if kind == "double-go-out":
        return DoubleGoOut(*_groups(data["melds"]))
    if kind == "discard":
        cards = _cards([data["card"]], "card")
        return Discard(cards[0])
    if not isinstance(data["yes"], bool):
        raise _bad(f"answer 'yes' must be true or false, got {data['yes']!r}")
    return Answer(data["yes"])


# --------------------------------------------------------------------------- state json


def state_to_json(s: State) -> Json:
    return {
        "players": s.players,
        "options": dict(s.options),
        "hand": s.hand_no,
        "dealer": s.dealer,
        "turn": s.turn,
        "phase": s.phase.value,
        "stock": cards_json(s.stock),
        "pile": cards_json(s.pile),
        "pile_closed": s.pile_closed,
        "hands": [cards_json(h) for h in s.hands],
        "sides": [
            {"melds": groups_json(m), "red_threes": cards_json(r), "total": t}
            for m, r, t in zip(s.melds, s.red_threes, s.totals, strict=True)
        ],
        "laid": list(s.laid),
        "red_threes_pending": list(s.pending),
        "drew": s.drew,
        "asked": s.asked,
        "meld_moves": s.meld_moves,
        "concealed_melds": None if s.concealed_melds is None else [RANK_NAMES[r] for r in s.concealed_melds],
        "buying": s.buying,
        "out_seat": s.out_seat,
        "double_out": s.double_out,
        "concealed_out": s.concealed_out,
        "ending": s.ending,
        "rng": s.rng.to_json(),
    }


def _inv(code: str, msg: str) -> InvalidState:
    return InvalidState(f"{G}.{code}", msg)


def cards_from_json(data: Json, what: str, prefix: str = "") -> tuple[Card, ...]:
    """A JSON list of cards in a state (or, with ``prefix="tally-"``, a score sheet)."""
    if not isinstance(data, list):
        raise _inv(f"{prefix}bad-field", f"{what} must be a list of cards, got {data!r}")
    try:
        return tuple(map(parse_card, data))
    except ValueError as exc:
        raise _inv(f"{prefix}bad-card", f"{what}: {exc}") from None


def _flag(data: Json, what: str) -> bool:
    if not isinstance(data, bool):
        raise _inv("bad-field", f"{what} must be true or false, got {data!r}")
    return data


def _int(data: Json, what: str, lo: int, hi: int) -> int:
    if not isinstance(data, int) or isinstance(data, bool) or not lo <= data <= hi:
        raise _inv("bad-field", f"{what} must be an integer in {lo}..{hi}, got {data!r}")
    return data


def _ranks(data: Json, melds, players: int, phase: Phase) -> tuple[int, ...] | None:
    """``concealed_melds``: null, or rank names of melds the player to act started this turn."""
    if data is None:
        return None
    if not isinstance(data, list) or any(r not in NAME_RANKS for r in data) or len(set(data)) != len(data):
        raise _inv("bad-field", f"concealed_melds is null or a list of distinct meld ranks, got {data!r}")
    return tuple(NAME_RANKS[r] for r in data)


def _rng(data: Json) -> Rng:
    try:
        return Rng.from_json(data)
    except InvalidState as exc:
        raise _inv("bad-rng", exc.message) from None


def state_from_json(data: Json, resolve_options, cap3_of) -> State:
    """Parse and check the meaning of a state; raises InvalidState only."""
    try:
        with malformed(f"{G}.bad-state", "Kanasta state"):
            return _state_from_json(data, resolve_options, cap3_of)
    except IllegalMove as exc:
        raise _inv("bad-state", f"not a Kanasta state: {type(exc).__name__}: {exc}") from None


def _state_from_json(data: Json, resolve_options, cap3_of) -> State:
    if not isinstance(data, dict):
        raise _inv("bad-state", f"a state is an object, got {type(data).__name__}")
    players = _int(data["players"], "players", 2, 4)
    nsides = 2 if players == 4 else players
    raw_options = data["options"]
    if not isinstance(raw_options, dict):
        raise _inv("bad-options", f"options must be an object, got {raw_options!r}")
    try:
        options = resolve_options(raw_options)
    except Exception as exc:  # InvalidOption
        raise _inv("bad-options", f"options: {getattr(exc, 'message', exc)}") from None
    try:
        phase = Phase(data["phase"])
    except ValueError:
        raise _inv("bad-phase", f"unknown phase {data['phase']!r}") from None
    hands = data["hands"]
    sides = data["sides"]
    if not isinstance(hands, list) or len(hands) != players:
        raise _inv("bad-hands", f"hands must list {players} hands")
    if not isinstance(sides, list) or len(sides) != nsides:
        raise _inv("bad-sides", f"sides must list {nsides} sides")
    hand_t = tuple(tuple(sorted(cards_from_json(h, f"hands[{i}]"))) for i, h in enumerate(hands))
    cap3 = cap3_of(options)
    one_per_rank = options["one_meld_per_rank"]
    melds = []
    reds = []
    totals = []
    for i, side in enumerate(sides):
        if not isinstance(side, dict) or set(side) != {"melds", "red_threes", "total"}:
            raise _inv("bad-sides", f"sides[{i}] must be {{melds, red_threes, total}}")
        table: list[tuple[int, tuple[Card, ...]]] = []
        for g in side["melds"]:
            rank = NAME_RANKS.get(g["rank"])
            if rank is None or (one_per_rank and any(r == rank for r, _ in table)):
                raise _inv("bad-meld", f"sides[{i}]: bad or repeated meld rank {g['rank']!r}")
            if set(g) != {"rank", "cards"}:
                raise _inv("bad-meld", f"sides[{i}]: a meld is {{rank, cards}}")
            cards = cards_from_json(g["cards"], f"sides[{i}] meld {g['rank']}")
            try:
                check_meld_shape(rank, cards, None, cap3)
            except IllegalMove as exc:
                raise _inv("bad-meld", f"sides[{i}]: {exc.message}") from None
            table.append((rank, cards))
        melds.append(tuple(sorted(table, key=lambda m: m[0])))  # stable: duplicates keep their order
        red = cards_from_json(side["red_threes"], f"sides[{i}].red_threes")
        if not all(is_red_three(c) for c in red):
            raise _inv("bad-red-threes", f"sides[{i}].red_threes holds a card that is not a red three: {red}")
        reds.append(red)
        totals.append(_int(side["total"], f"sides[{i}].total", -10**7, 10**7))
    stock = cards_from_json(data["stock"], "stock")
    pile = cards_from_json(data["pile"], "pile")
    seen = Counter(stock) + Counter(pile)
    for h in hand_t:
        seen += Counter(h)
    for m in melds:
        for _, cs in m:
            seen += Counter(cs)
    for r in reds:
        seen += Counter(r)
    if seen != FULL_DECK:
        missing = sorted((FULL_DECK - seen).elements())
        extra = sorted((seen - FULL_DECK).elements())
        raise _inv(
            "cards-not-conserved",
            f"the state must hold the 108 cards exactly once each; missing {cards_json(missing)}, "
            f"extra {cards_json(extra)}",
        )
    laid = data["laid"]
    pending = data["red_threes_pending"]
    if not isinstance(laid, list) or len(laid) != players or not isinstance(pending, list) or len(pending) != players:
        raise _inv("bad-field", f"laid and red_threes_pending list one flag per seat ({players})")
    laid_t = tuple(_flag(x, "laid") for x in laid)
    pending_t = tuple(_flag(x, "red_threes_pending") for x in pending)
    for seat, h in enumerate(hand_t):
        if any(is_red_three(c) for c in h) and not pending_t[seat]:
            raise _inv("red-three-in-hand", f"seat {seat} holds a red three that should lie on the table")
    turn = _int(data["turn"], "turn", 0, players - 1)
    dealer = _int(data["dealer"], "dealer", 0, players - 1)
    drew = data["drew"]
    asked = data["asked"]
    ending = data["ending"]
    if drew not in ("", "stock", "pile") or asked not in ("", "asked", "yes", "no") or ending not in ("", "out", "stock"):
        raise _inv("bad-field", f"drew/asked/ending out of range: {drew!r}, {asked!r}, {ending!r}")
    if players != 4 and asked:
        raise _inv("bad-turn", "only partners can be asked 'may I go out?'")
    if phase is Phase.DRAW and (drew or data["meld_moves"]):
        raise _inv("bad-turn", "in the draw phase the player has neither drawn nor melded")
    if phase is Phase.PLAY and not drew:
        raise _inv("bad-turn", "in the play phase the player has drawn or taken the pile")
    if phase in (Phase.ANSWER, Phase.DOUBLE) and players != 4:
        raise _inv("bad-turn", f"the {phase.value} phase needs partners (4 players)")
    if data["buying"] is True and stock:
        raise _inv("bad-turn", "the last pile is bought only once the stock is empty")
    if phase is Phase.ANSWER and asked != "asked":
        raise _inv("bad-turn", "the answer phase follows a question")
    if phase in (Phase.HAND_OVER, Phase.GAME_OVER) and not ending:
        raise _inv("bad-turn", "a finished hand says how it ended")
    if phase in (Phase.DRAW, Phase.PLAY, Phase.ANSWER) and (ending or not hand_t[turn]):
        raise _inv("bad-turn", f"seat {turn} to play has an empty hand or the hand has ended")
    if phase is not Phase.DRAW and pending_t[turn] and phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        raise _inv("bad-turn", "red threes are laid out before the player draws")
    out_seat = _int(data["out_seat"], "out_seat", -1, players - 1)
    if (ending == "out" or phase is Phase.DOUBLE) != (out_seat >= 0):
        raise _inv("bad-turn", "out_seat names the player who went out, and only then")
    out_side = -1 if out_seat < 0 else (out_seat % 2 if players == 4 else out_seat)
    for i, side_melds in enumerate(melds):
        if i != out_side and any(r == 3 for r, _ in side_melds):
            raise _inv("bad-meld", f"sides[{i}] shows black threes, which only the side going out melds (§1.9)")
    state = State(
        players=players,
        options=tuple(options.items()),
        hand_no=_int(data["hand"], "hand", 1, 10**6),
        dealer=dealer,
        turn=turn,
        phase=phase,
        stock=stock,
        pile=pile,
        pile_closed=_flag(data["pile_closed"], "pile_closed"),
        hands=hand_t,
        melds=tuple(melds),
        red_threes=tuple(reds),
        totals=tuple(totals),
        laid=laid_t,
        pending=pending_t,
        drew=drew,
        asked=asked,
        meld_moves=_int(data["meld_moves"], "meld_moves", 0, 200),
        concealed_melds=_ranks(data["concealed_melds"], melds, players, phase),
        buying=_flag(data["buying"], "buying"),
        out_seat=out_seat,
        double_out=_flag(data["double_out"], "double_out"),
        concealed_out=_flag(data["concealed_out"], "concealed_out"),
        ending=ending,
        rng=_rng(data["rng"]),
    )
    return state
