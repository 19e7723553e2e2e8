// 11 nimmt!: the stacks (top card shown, counted from 1), the hand, bull cards and the draw pile.
// Names read: stacks (whole, with open_information) else stacks_tops, stock_size, supply,
// bulls[seat], hand_sizes; moves play.plays[].stack/cards, take.stack, new-stack.card.
// Select cards, then click the stack they go on (a `legal-target`); with nothing selected a click on a
// stack you may take selects taking it, and confirm takes it.
import { h } from "../dom.js";
import { hand, handSizes, laidLast, lastMark, numberCard, ownHand, pile, seatsBar, section, target } from "./common.js";

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

const onStack = (m, i) => (m.kind === "take" && m.stack === i) || (Array.isArray(m.plays) && m.plays.some((p) => p.stack === i));

export default {
  // the engine lists every single-card play even when its list is a sample (rules/eleven_nimmt.py)
  singlesListed: true,

  render(ctx) {
    const st = ctx.state;
    const mine = ownHand(ctx);
    const sizes = handSizes(st, ctx.players);
    const stacks = (st.stacks || []).map((whole, i) => {
      const stack = whole ?? (st.stacks_tops || [])[i]; // a view shows each stack's top card only
      const here = ctx.picked.length ? ctx.targets.filter((m) => onStack(m, i)) : ctx.moves.filter((m) => m.kind === "take" && m.stack === i);
      const el = card(top(stack), { onClick: () => ctx.choose(here), label: `${ctx.term("stack")} ${i + 1}: ${top(stack)}` });
      if (laidLast(ctx, top(stack)) || ctx.last?.stack === i) lastMark(el, "card");
      const marked = ctx.picked.length ? (here.length === 1 ? here[0] : null)
        : [ctx.pending, ...ctx.targets].find((m) => m && m.kind === "take" && m.stack === i);
      if (marked) target(el, ctx, marked);
      return h("div", { class: "stack" }, el, h("small", {}, `${ctx.term("stack")} ${i + 1}${Array.isArray(stack) ? ` · ${stack.length}` : ""}`));
    });
    const newStack = ctx.targets.find((m) => m.kind === "new-stack");
    return h("div", { class: "cards-table" },
      seatsBar(ctx, (i) => `${ctx.t("cards")}: ${sizes[i] ?? "?"} · ${ctx.term("bulls")}: ${(st.bulls || [])[i] ?? 0}`),
      h("div", { class: "zones" },
        section(ctx.term("stock"), pile(st.stock_size)),
        section(ctx.term("supply"), pile(st.supply))),
      section(ctx.term("stacks"), h("div", { class: "row-cards" }, stacks,
        newStack ? target(h("button", { type: "button", class: "card new-stack", on: { click: () => ctx.play(newStack) } }, "+"), ctx, newStack) : null)),
      mine ? section(ctx.t("your-hand"), hand(ctx, mine, card)) : null);
  },
};
