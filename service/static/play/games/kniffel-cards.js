// Karten-Kniffel: the hand of number cards, the piles, and every seat's sheet. Select the cards of a
// score, then click a box the rules allow for them (marked `legal-target`), or confirm when only one does.
import { h } from "../dom.js";
import { hand, handSizes, lastMark, numberCard, ownHand, pile, seatsBar, section, target } from "./common.js";

const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const card = (n, opts = {}) => numberCard(n, { ...opts, mark: PIPS[n] || "", cls: "kn" });

export default {
  render(ctx) {
    const st = ctx.state;
    const mine = ownHand(ctx);
    const sizes = handSizes(st, ctx.players);
    const sheets = st.sheets || [];
    const boxes = Object.keys((sheets[0] || {}).boxes || {});
    const table = h("table", { class: "kn-sheet" },
      h("thead", {}, h("tr", {}, h("th", {}, ctx.term("box")), sheets.map((_, i) => h("th", {}, ctx.seatWord(i))))),
      h("tbody", {}, boxes.map((box) => h("tr", {}, h("th", {}, ctx.term(box)), sheets.map((sheet, i) => {
        const v = sheet.boxes[box];
        const pen = (sheet.penalties || {})[box];
        const text = `${v ?? ""}${pen ? ` (−${pen})` : ""}`;
        const here = i === ctx.seat ? ctx.targets.filter((m) => m.kind === "score" && m.box === box) : [];
        if (here.length) {
          return h("td", {}, target(h("button", { type: "button", class: "box-btn", "data-box": box,
            on: { click: () => ctx.choose(here) } }, text || "·"), ctx, here[0]));
        }
        const cell = h("td", {}, text);
        return ctx.last?.seat === i && ctx.last?.box === box ? lastMark(cell, "box") : cell;
      })))));
    const top = Array.isArray(st.discard) ? st.discard[st.discard.length - 1] : st.discard_top;
    return h("div", { class: "cards-table" },
      seatsBar(ctx, (i) => `${ctx.t("cards")}: ${sizes[i] ?? "?"} · ${ctx.term("turns")}: ${(st.turns || [])[i] ?? ""}`),
      h("div", { class: "zones" },
        section(ctx.term("stock"), pile(st.stock_size)),
        section(ctx.term("discard"), top !== undefined && top !== null ? card(top) : pile(0)),
        section(ctx.t("phase"), h("b", {}, ctx.phase(st.phase)))),
      mine ? section(ctx.t("your-hand"), hand(ctx, mine, card)) : null,
      section(ctx.term("sheets"), table));
  },
};
