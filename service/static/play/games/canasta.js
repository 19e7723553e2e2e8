// Kanasta: each side's melds and red threes, the stock, the discard pile and its top card, the hand.
import { h } from "../dom.js";
import { frenchCard, hand, handSizes, ownHand, pile, seatsBar, section, size } from "./common.js";

const WILD = (c) => c === "JK" || c.startsWith("2");

export default {
  fromSelection(cards, ctx) {
    const naturals = [...new Set(cards.filter((c) => !WILD(c)).map((c) => c.slice(0, -1)))];
    const out = [];
    if (naturals.length === 1) out.push({ kind: "meld", melds: [{ rank: naturals[0], cards }] });
    if (ctx.moves.some((m) => m.kind === "take-pile") || ctx.state.phase === "draw") out.push({ kind: "take-pile", using: cards });
    return out;
  },

  render(ctx) {
    const st = ctx.state;
    const mine = ownHand(ctx);
    const sizes = handSizes(st, ctx.players);
    const pileCards = st.discard ?? st.pile;
    const top = st.pile_top ?? (Array.isArray(pileCards) ? pileCards[pileCards.length - 1] : null);
    const sides = (st.sides || []).map((side, k) => section(`${ctx.t("side")} ${k} · ${side.total ?? 0}`,
      h("div", { class: "melds" }, (side.melds || []).map((m) => h("div", { class: ["meld", m.cards.length >= 7 && "canasta"] },
        h("small", {}, m.rank), m.cards.map((c) => frenchCard(c, { small: true }))))),
      (side.red_threes || []).length ? h("div", { class: "row-cards" }, (Array.isArray(side.red_threes) ? side.red_threes : [])
        .map((c) => frenchCard(c, { small: true }))) : null));
    return h("div", { class: "cards-table" },
      seatsBar(ctx, (i) => `${ctx.t("cards")} ${sizes[i] ?? "?"}`),
      h("div", { class: "zones" },
        section(ctx.t("stock"), pile(size(st.stock))),
        section(`${ctx.t("discard")} (${size(pileCards) ?? "?"})${st.pile_closed ? " 🔒" : ""}`,
          top ? frenchCard(top, {
            onClick: () => { const take = ctx.moves.find((m) => m.kind === "take-pile"); if (take) ctx.play(take); },
            label: ctx.t("discard"),
          }) : pile(0)),
        section(ctx.t("phase"), h("b", {}, st.phase ?? ""))),
      h("div", { class: "zones sides" }, sides),
      mine ? section(ctx.t("your-hand"), hand(ctx, mine, frenchCard)) : null);
  },
};
