// Kanasta: each side's melds and red threes (your side marked), the stock, the discard pile's top card,
// the hand. Select cards, then pick the meld / discard / take-the-discard move they make and confirm.
//
// Names read (the declared Kanasta view, DESIGN 4.5): discard_top, discard_size, discard_closed,
// sides[].melds[].rank/cards, sides[].red_threes, seat_sides, stock_size, hand_sizes.
import { h } from "../dom.js";
import { frenchCard, hand, handSizes, ownHand, pile, seatsBar, section, target } from "./common.js";

const WILD = (c) => c === "JK" || c.startsWith("2");

export default {
  /** Moves an incomplete list may not show: a meld of the selected cards, taking the pile with them. */
  fromSelection(cards, ctx) {
    const naturals = [...new Set(cards.filter((c) => !WILD(c)).map((c) => c.slice(0, -1)))];
    const out = [];
    if (naturals.length === 1 && cards.length >= 3) out.push({ kind: "meld", melds: [{ rank: naturals[0], cards }] });
    if (ctx.moves.some((m) => m.kind === "take-discard")) out.push({ kind: "take-discard", using: cards });
    return out;
  },

  render(ctx) {
    const st = ctx.state;
    const mine = ownHand(ctx);
    const sizes = handSizes(st, ctx.players);
    const top = st.discard_top;
    const pileSize = st.discard_size;
    const closed = st.discard_closed;
    const nSides = (st.sides || []).length || 2;
    const mySide = ctx.seat === null || ctx.seat === undefined ? null : ctx.seat % nSides;
    const sides = (st.sides || []).map((side, k) => {
      const seats = Array.from({ length: ctx.players }, (_, s) => s).filter((s) => s % nSides === k);
      const title = `${ctx.t("side")} ${k + 1}: ${seats.map((s) => ctx.seatWord(s)).join(", ")}${k === mySide ? ` (${ctx.t("you")})` : ""}`;
      return h("div", { class: ["side-zone", k === mySide && "mine"] }, section(title,
        h("div", { class: "melds" }, (side.melds || []).map((m) => h("div", { class: ["meld", m.cards.length >= 7 && "canasta"] },
          h("small", {}, ctx.rankWord(m.rank)), m.cards.map((c) => frenchCard(c, { small: true, label: ctx.cardWord(c) }))))),
        Array.isArray(side.red_threes) && side.red_threes.length
          ? h("div", { class: "row-cards" }, side.red_threes.map((c) => frenchCard(c, { small: true }))) : null));
    });
    const takes = ctx.picked.length ? ctx.targets.filter((m) => m.kind === "take-discard") : ctx.moves.filter((m) => m.kind === "take-discard");
    let topEl = top ? frenchCard(top, { onClick: takes.length ? () => ctx.choose(takes) : undefined, label: `${ctx.t("discard")}: ${ctx.cardWord(top)}` }) : pile(0);
    const marked = ctx.picked.length ? (takes.length === 1 ? takes[0] : null) : [ctx.pending, ...ctx.targets].find((m) => m && m.kind === "take-discard");
    if (top && marked) topEl = target(topEl, ctx, marked);
    return h("div", { class: "cards-table" },
      seatsBar(ctx, (i) => `${ctx.t("side")} ${(i % nSides) + 1} · ${ctx.t("cards")}: ${sizes[i] ?? "?"}`),
      h("div", { class: "zones" },
        section(ctx.t("stock"), pile(st.stock_size)),
        section(`${ctx.t("discard")} (${pileSize ?? "?"})${closed ? " 🔒" : ""}`, topEl),
        section(ctx.t("phase"), h("b", {}, ctx.phase(st.phase)))),
      h("div", { class: "zones sides" }, sides),
      mine ? section(ctx.t("your-hand"), hand(ctx, mine, frenchCard)) : null);
  },
};
