// Drawing pieces shared by the games: cards, hands that can be selected, seat headers, labels.
//
// A game module exports { render(ctx) -> Node, label?(move), fromSelection?(cards, ctx) -> [move] }.
// ctx = { game, state, seat (whose view, or null), players, moves (legal now for that seat),
//         selected (hand indices), play(move), toggle(index), clear(), t(key) }.

import { h } from "../dom.js";

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

/** Every card a move uses from the hand, in order (card, cards, using, plays[].cards, melds[].cards). */
export function cardsUsed(move) {
  const out = [];
  if (move.card !== undefined && move.card !== null) out.push(move.card);
  for (const key of ["cards", "using"]) if (Array.isArray(move[key])) out.push(...move[key]);
  for (const key of ["plays", "melds"]) {
    if (Array.isArray(move[key])) for (const part of move[key]) if (Array.isArray(part.cards)) out.push(...part.cards);
  }
  return out;
}

function counts(list) {
  const m = new Map();
  for (const x of list) m.set(String(x), (m.get(String(x)) || 0) + 1);
  return m;
}

/** Same multiset of cards. */
export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const ca = counts(a), cb = counts(b);
  for (const [k, n] of ca) if (cb.get(k) !== n) return false;
  return true;
}

/** `a` holds every card of `b` (with multiplicity). */
export function holds(a, b) {
  const ca = counts(a);
  for (const [k, n] of counts(b)) if ((ca.get(k) || 0) < n) return false;
  return true;
}

function fmt(key, value) {
  if (key === "card" || key === "cards" || key === "using") return Array.isArray(value) ? value.join(" ") : String(value);
  if (key === "plays") return value.map((p) => `→${p.stack + 1}: ${p.cards.join(" ")}`).join(", ");
  if (key === "melds") return value.map((m) => `[${m.cards.join(" ")}]`).join(" ");
  if (value !== null && typeof value === "object") return `${key} ${JSON.stringify(value)}`;
  return `${key} ${value}`;
}

/** A short readable label of any move: its kind and values ("play 7C", "a1→a3", "13/7 8/7"). */
export function genericLabel(move) {
  if (typeof move.notation === "string") return move.notation;
  if (move.from !== undefined && move.to !== undefined) {
    const rest = Object.entries(move).filter(([k]) => !["kind", "from", "to"].includes(k));
    return [`${move.kind === "move" ? "" : move.kind + " "}${move.from}→${move.to}`, ...rest.map(([k, v]) => fmt(k, v))].join(" ");
  }
  const parts = [move.kind];
  for (const [k, v] of Object.entries(move)) if (k !== "kind") parts.push(fmt(k, v));
  return parts.join(" ");
}

/** A French-deck card ("10H", "QS", "JK") as a button (or a plain span without onClick). */
export function frenchCard(code, { onClick, selected, small, label } = {}) {
  const joker = code === "JK";
  const rank = joker ? "★" : code.slice(0, -1);
  const suit = joker ? "" : code.slice(-1);
  const red = suit === "H" || suit === "D";
  const cls = ["card", "french", red && "red", joker && "joker", selected && "selected", small && "small"];
  const body = [h("span", { class: "rank" }, rank), h("span", { class: "suit" }, joker ? "JK" : SUITS[suit])];
  const attrs = { class: cls, "data-card": code, title: label || code, "aria-pressed": onClick ? String(!!selected) : undefined };
  if (!onClick) return h("span", attrs, body);
  return h("button", { ...attrs, type: "button", on: { click: onClick } }, body);
}

/** A numbered card (11 nimmt!, Take That, Karten-Kniffel) with an optional corner mark. */
export function numberCard(n, { onClick, selected, small, mark, cls, label } = {}) {
  const body = [h("span", { class: "num" }, String(n)), mark ? h("span", { class: "mark" }, mark) : null];
  const attrs = { class: ["card", "numbered", cls, selected && "selected", small && "small"], "data-card": String(n),
    title: label || String(n), "aria-pressed": onClick ? String(!!selected) : undefined };
  if (!onClick) return h("span", attrs, body);
  return h("button", { ...attrs, type: "button", on: { click: onClick } }, body);
}

/** A face-down pile: the back of a card with a count. */
export function pile(count, label) {
  return h("span", { class: "card back", title: label }, h("span", { class: "count" }, count ?? "?"),
    label ? h("span", { class: "pile-label" }, label) : null);
}

/** A hand that plays a card by clicking it when one move uses that card alone, else selects it. */
export function hand(ctx, cards, draw) {
  if (!Array.isArray(cards)) return null;
  return h("div", { class: "hand", role: "group", "aria-label": ctx.t("your-hand") },
    cards.map((card, i) => draw(card, { selected: ctx.selected.includes(i), onClick: () => clickCard(ctx, cards, i) })));
}

export function clickCard(ctx, cards, index) {
  const card = cards[index];
  if (ctx.selected.length === 0) {
    const uses = ctx.moves.filter((m) => cardsUsed(m).map(String).includes(String(card)));
    if (uses.length === 1 && cardsUsed(uses[0]).length === 1) {
      ctx.play(uses[0]);
      return;
    }
  }
  ctx.toggle(index);
}

/** The moves that use exactly the selected cards, plus the game's own suggestions. */
export function selectionMoves(ctx, game, cards) {
  const picked = ctx.selected.map((i) => cards[i]);
  if (!picked.length) return [];
  const out = ctx.moves.filter((m) => sameCards(cardsUsed(m).map(String), picked.map(String)));
  for (const m of game.fromSelection ? game.fromSelection(picked, ctx) : []) {
    if (!out.some((o) => JSON.stringify(o) === JSON.stringify(m))) out.push(m);
  }
  return out;
}

/** One line per seat: name, marker for the seat to act, and whatever the game adds. */
export function seatsBar(ctx, extra) {
  const turn = ctx.state.turn ?? ctx.state.current ?? ctx.state.to_move;
  return h("div", { class: "seats-bar" }, Array.from({ length: ctx.players }, (_, i) =>
    h("div", { class: ["seat-box", i === ctx.seat && "me", (ctx.toAct.includes(i) || turn === i) && "acting"] },
      h("b", {}, seatName(ctx, i)), " ", extra ? extra(i) : null)));
}

export function seatName(ctx, i) {
  const colors = ctx.state.colors;
  const base = colors ? `${ctx.t("seat")} ${i} (${colors[i]})` : `${ctx.t("seat")} ${i}`;
  return i === ctx.seat ? `${base} · ${ctx.t("you")}` : base;
}

/** Hand sizes of every seat from the view (new `hand_sizes`, old int-for-hidden hands). */
export function handSizes(state, players) {
  if (Array.isArray(state.hand_sizes)) return state.hand_sizes;
  if (Array.isArray(state.hand_counts)) return state.hand_counts;
  const hands = state.hands || [];
  return Array.from({ length: players }, (_, i) => Array.isArray(hands[i]) ? hands[i].length : (hands[i] ?? null));
}

/** The viewing seat's own hand (a list), or null. */
export function ownHand(ctx) {
  const hands = ctx.state.hands;
  if (!Array.isArray(hands) || ctx.seat === null || ctx.seat === undefined) return null;
  return Array.isArray(hands[ctx.seat]) ? hands[ctx.seat] : null;
}

/** A pile's size: a number, a list, or null (hidden). */
export function size(x) {
  if (Array.isArray(x)) return x.length;
  return typeof x === "number" ? x : null;
}

export function section(title, ...children) {
  return h("div", { class: "zone" }, h("div", { class: "zone-title" }, title), ...children);
}

export function history(state) {
  return state.history ?? state.past ?? state.results ?? [];
}
