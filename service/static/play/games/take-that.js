// Take That: the row, the hand, each seat's face-up (twisted) and face-down (taken) cards.
// Select a hand card, then confirm (or click the row to take it); click a row card to twist it out, then confirm.
import { h } from "../dom.js";
import { hand, handSizes, laidLast, lastMark, numberCard, ownHand, pile, seatsBar, section, size, target } from "./common.js";

const card = (n, opts = {}) => numberCard(n, { ...opts, cls: "tt" });

export default {
  render(ctx) {
    const st = ctx.state;
    const mine = ownHand(ctx);
    const sizes = handSizes(st, ctx.players);
    const downSizes = st.face_down_sizes ?? (st.face_down || []).map(size);
    const row = (st.row || []).map((c) => {
      const twists = ctx.moves.filter((m) => m.kind === "twist" && m.card === c);
      const el = card(c, { onClick: twists.length ? () => ctx.choose(twists) : undefined, label: `${ctx.term("row")}: ${c}` });
      if (laidLast(ctx, c)) lastMark(el, "card");
      const marked = [...ctx.targets, ctx.pending].find((m) => m && m.kind === "twist" && m.card === c);
      return marked ? target(el, ctx, marked) : el;
    });
    const takes = ctx.targets.filter((m) => m.kind === "take");
    const rowZone = h("div", { class: "row-cards", on: takes.length ? { click: (e) => { if (!e.target.closest("button")) ctx.choose(takes); } } : undefined },
      row.length ? row : h("i", {}, "—"));
    if (takes.length === 1) target(rowZone, ctx, takes[0]);
    return h("div", { class: "cards-table" },
      seatsBar(ctx, (i) => `${ctx.t("cards")}: ${sizes[i] ?? "?"}`),
      h("div", { class: "zones" }, section(ctx.term("stock"), pile(st.stock_size ?? size(st.stock)))),
      section(ctx.term("row"), rowZone),
      h("div", { class: "zones" }, Array.from({ length: ctx.players }, (_, i) => section(
        `${ctx.seatWord(i)}${i === ctx.seat ? ` (${ctx.t("you")})` : ""}`,
        h("div", { class: "row-cards", title: ctx.term("face_up") }, ((st.face_up || [])[i] || []).map((c) => card(c, { small: true }))),
        pile(downSizes[i], ctx.term("face_down"))))),
      mine ? section(ctx.t("your-hand"), hand(ctx, mine, card)) : null);
  },
};
