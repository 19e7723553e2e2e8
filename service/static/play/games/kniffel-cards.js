// Karten-Kniffel: the hand of number cards and the piles; the score pad (the one sheet, beside the board)
// holds the boxes. Select the cards of a score, then click a box the rules allow for them (marked
// `legal-target`), or confirm when only one does.
import { h } from "../dom.js";
import { hand, handSizes, lastMark, numberCard, ownHand, pile, seatsBar, section, target } from "./common.js";

const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const card = (n, opts = {}) => numberCard(n, { ...opts, mark: PIPS[n] || "", cls: "kn" });

export default {
  render(ctx) {
    const st = ctx.state;
    const mine = ownHand(ctx);
    const sizes = handSizes(st, ctx.players);
    const top = Array.isArray(st.discard) ? st.discard[st.discard.length - 1] : st.discard_top;
    return h("div", { class: "cards-table" },
      seatsBar(ctx, (i) => `${ctx.t("cards")}: ${sizes[i] ?? "?"} · ${ctx.term("turns")}: ${(st.turns || [])[i] ?? ""}`),
      h("div", { class: "zones" },
        section(ctx.term("stock"), pile(st.stock_size)),
        section(ctx.term("discard"), top !== undefined && top !== null ? card(top) : pile(0)),
        section(ctx.t("phase"), h("b", {}, ctx.phase(st.phase)))),
      mine ? section(ctx.t("your-hand"), hand(ctx, mine, card)) : null);
  },

  /**
   * The one pad (the score sheet) is where a box is scored: the viewing seat's boxes the selection may
   * fill; the box the last move filled is marked.
   */
  padCell(ctx, row, seat) {
    if (!row.key) return null;
    const here = seat === ctx.seat ? ctx.targets.filter((m) => m.kind === "score" && m.box === row.key) : [];
    if (here.length) {
      return target(h("button", { type: "button", class: "box-btn", "data-box": row.key, on: { click: () => ctx.choose(here) } },
        row.cells[seat] || "·"), ctx, here[0]);
    }
    if (ctx.last?.seat === seat && ctx.last?.box === row.key) return lastMark(h("span", {}, row.cells[seat]), "box");
    return null;
  },
};
