// Drawing pieces shared by the games: cards, hands that can be selected, seat headers, labels.
//
// A game module exports { render(ctx) -> Node, fromSelection?(cards, ctx) -> [move] } (fromSelection: moves a
// selection may make that an incomplete legal-moves list does not show).
// ctx = { game, entry (catalogue), lang, state, seat (whose view, or null), players, moves (legal now),
//         selected (hand indices), picked (those cards), targets (moves the selection can make), pending,
//         pickCard(i), choose(moves) (a board element standing for these moves: selects, or plays a target),
//         play(move), offer(moves), redraw(), t(key) (the page's word, else the game's), term(name) (the game's
//         word: its terms, move kinds, phases), phase(p), moveWords(move), cardWord(card), rankWord(rank),
//         seatWord(seat) (counted from 1), last (log.js lastMarks of the last move), lastRoll (the latest dice) }.

import { getLanguage } from "../api.js";
import { h } from "../dom.js";
import { rankWord } from "../words.js";

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

export { cardsUsed, holds, sameCards } from "../selection.js";

/** A French-deck card ("10H", "QS", "JK") as a button (or a plain span without onClick). */
export function frenchCard(code, { onClick, selected, small, label } = {}) {
  const joker = code === "JK";
  const face = code.slice(0, -1);
  const rank = joker ? "★" : rankWord(face, getLanguage());
  const suit = joker ? "" : code.slice(-1);
  const red = suit === "H" || suit === "D";
  const cls = ["card", "french", red && "red", joker && "joker", selected && "selected", small && "small"];
  const body = [h("span", { class: "rank" }, rank), h("span", { class: "suit" }, joker ? "" : SUITS[suit])];
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

/**
 * The seat's own hand (select then act, DESIGN 4.7): a click selects or drops a card (`hand-card`),
 * never plays it; cards that some legal move uses are marked `playable`.
 */
export function hand(ctx, cards, draw) {
  if (!Array.isArray(cards)) return null;
  const playable = ctx.playable || new Set();
  return h("div", { class: "hand", role: "group", "aria-label": ctx.t("your-hand") },
    cards.map((card, i) => {
      const el = draw(card, { selected: ctx.selected.includes(i), onClick: () => ctx.pickCard(i), label: ctx.cardWord(card) });
      el.dataset.testid = "hand-card";
      el.setAttribute("data-testid", "hand-card");
      if (playable.has(String(card))) el.classList.add("playable");
      return el;
    }));
}

/** Mark a board element as a target of the selection: `legal-target`, and a click plays `move`. */
export function target(el, ctx, move) {
  if (!move) return el;
  el.setAttribute("data-testid", "legal-target");
  el.classList.add("target");
  el.setAttribute("title", ctx.moveWords(move));
  return el;
}

/** One line per seat: name, marker for the seat to act, and whatever the game adds. */
export function seatsBar(ctx, extra) {
  const turn = ctx.state.turn ?? ctx.state.current ?? ctx.state.to_move;
  return h("div", { class: "seats-bar" }, Array.from({ length: ctx.players }, (_, i) =>
    h("div", { class: ["seat-box", i === ctx.seat && "me", (ctx.toAct.includes(i) || turn === i) && "acting"] },
      h("b", {}, seatName(ctx, i)), " ", extra ? extra(i) : null)));
}

export function seatName(ctx, i) {
  const base = ctx.seatWord(i);
  return i === ctx.seat ? `${base} · ${ctx.t("you")}` : base;
}

/** Mark an element as part of the last move (the card laid, a square it left or reached): `last-mark`. */
export function lastMark(el, what) {
  el.classList.add("last-mark");
  el.dataset.last = what;
  return el;
}

/** Whether `card` is one the last move laid. */
export function laidLast(ctx, card) {
  return !!ctx.last?.cards?.includes(String(card));
}

/** Hand sizes of every seat from the view (new `hand_sizes`, old int-for-hidden hands). */
export function handSizes(state, players) {
  if (Array.isArray(state.hand_sizes)) return state.hand_sizes;
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

