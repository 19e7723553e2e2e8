// Karten-Kniffel: the hand of number cards, the piles, and every seat's sheet (click a box to score).
import { h } from "../dom.js";
import { hand, handSizes, numberCard, ownHand, pile, seatsBar, section, size } from "./common.js";

const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const card = (n, opts = {}) => numberCard(n, { ...opts, mark: PIPS[n] || "", cls: "kn" });

export default {
  label(move) {
    if (move.kind === "score") return `${move.box}: ${move.cards.join(" ")}${move.announce ? " !" : ""}`;
    if (move.kind === "draw") return `draw ${move.count}`;
    return null;
  },

  fromSelection(cards, ctx) {
    const boxes = Object.entries(((ctx.state.sheets || [])[ctx.seat] || {}).boxes || {});
    return boxes.filter(([, v]) => v === null).map(([box]) => ({ kind: "score", box, cards }));
  },

  render(ctx) {
    const st = ctx.state;
    const mine = ownHand(ctx);
    const sizes = handSizes(st, ctx.players);
    const picked = mine ? ctx.selected.map((i) => mine[i]) : [];
    const sheets = st.sheets || [];
    const boxes = Object.keys((sheets[0] || {}).boxes || {});
    const scoreIn = (box) => {
      const exact = ctx.moves.find((m) => m.kind === "score" && m.box === box &&
        JSON.stringify([...m.cards].sort()) === JSON.stringify([...picked].sort()));
      if (exact) ctx.play(exact);
      else if (picked.length) ctx.play({ kind: "score", box, cards: picked });
    };
    const table = h("table", { class: "kn-sheet" },
      h("thead", {}, h("tr", {}, h("th", {}, ctx.t("box")), sheets.map((_, i) => h("th", {}, `${ctx.t("seat")} ${i}`)))),
      h("tbody", {}, boxes.map((box) => h("tr", {}, h("th", {}, box), sheets.map((sheet, i) => {
        const v = sheet.boxes[box];
        const pen = (sheet.penalties || {})[box];
        const text = `${v ?? ""}${pen ? ` (−${pen})` : ""}`;
        if (i === ctx.seat && v === null && ctx.moves.some((m) => m.kind === "score" && m.box === box)) {
          return h("td", {}, h("button", { type: "button", class: "box-btn", "data-box": box, on: { click: () => scoreIn(box) } }, text || "·"));
        }
        return h("td", {}, text);
      })))));
    return h("div", { class: "cards-table" },
      seatsBar(ctx, (i) => `${ctx.t("cards")} ${sizes[i] ?? "?"} · ${ctx.t("turns")} ${(st.turns || [])[i] ?? ""}`),
      h("div", { class: "zones" },
        section(ctx.t("stock"), pile(size(st.stock ?? st.draw))),
        section(ctx.t("discard"), (st.discard || []).length ? card(st.discard[st.discard.length - 1]) : pile(0)),
        section(ctx.t("phase"), h("b", {}, st.phase ?? ""))),
      mine ? section(ctx.t("your-hand"), hand(ctx, mine, card)) : null,
      section(ctx.t("score-sheet"), table));
  },
};
