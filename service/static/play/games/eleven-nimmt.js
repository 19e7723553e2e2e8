// 11 nimmt!: the stacks (top card shown), the hand, bull cards and the draw pile.
import { h } from "../dom.js";
import { hand, handSizes, numberCard, ownHand, pile, seatsBar, section, size } from "./common.js";

export function heads(n) {
  if (n === 55) return 7;
  if (n % 11 === 0) return 5;
  if (n % 10 === 0) return 3;
  if (n % 5 === 0) return 2;
  return 1;
}

const card = (n, opts = {}) => numberCard(n, { ...opts, mark: "•".repeat(heads(n)), cls: `heads-${heads(n)}` });

function top(stack) {
  return Array.isArray(stack) ? stack[stack.length - 1] : stack;
}

export default {
  label(move) {
    if (move.kind === "take") return `take →${move.stack + 1}${move.source !== undefined ? ` (${move.source})` : ""}`;
    return null;
  },

  fromSelection(cards, ctx) {
    const stacks = ctx.state.stacks || [];
    const out = stacks.map((_, i) => ({ kind: "play", plays: [{ stack: i, cards }] }));
    if (cards.length === 1) out.push({ kind: "new-stack", card: cards[0] });
    return out;
  },

  render(ctx) {
    const st = ctx.state;
    const mine = ownHand(ctx);
    const sizes = handSizes(st, ctx.players);
    const picked = mine ? ctx.selected.map((i) => mine[i]) : [];
    const stacks = (st.stacks || []).map((stack, i) => {
      const onClick = () => {
        if (picked.length) return ctx.play({ kind: "play", plays: [{ stack: i, cards: picked }] });
        const take = ctx.moves.find((m) => m.kind === "take" && m.stack === i);
        if (take) ctx.play(take);
      };
      return h("div", { class: "stack" },
        card(top(stack), { onClick, label: `${ctx.t("stack")} ${i + 1}: ${top(stack)}` }),
        h("small", {}, `${i + 1}${Array.isArray(stack) ? ` · ${stack.length}` : ""}`));
    });
    return h("div", { class: "cards-table" },
      seatsBar(ctx, (i) => `${ctx.t("cards")} ${sizes[i] ?? "?"} · ${ctx.t("supply")} ${(st.bulls || [])[i] ?? 0}`),
      h("div", { class: "zones" },
        section(ctx.t("stock"), pile(size(st.stock ?? st.draw))),
        section(ctx.t("supply"), pile(st.supply))),
      section(ctx.t("stacks"), h("div", { class: "row-cards" }, stacks)),
      mine ? section(ctx.t("your-hand"), hand(ctx, mine, card)) : null);
  },
};
