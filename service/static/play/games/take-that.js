// Take That: the row, the hand, each seat's face-up (twisted) and face-down (taken) cards.
import { h } from "../dom.js";
import { hand, handSizes, numberCard, ownHand, pile, seatsBar, section, size } from "./common.js";

const card = (n, opts = {}) => numberCard(n, { ...opts, cls: "tt" });

export default {
  render(ctx) {
    const st = ctx.state;
    const mine = ownHand(ctx);
    const sizes = handSizes(st, ctx.players);
    const downSizes = st.face_down_sizes ?? (st.face_down || []).map(size);
    const row = (st.row || []).map((c) => card(c, {
      onClick: () => {
        const twist = ctx.moves.find((m) => m.kind === "twist" && m.card === c);
        if (twist) ctx.play(twist);
      },
      label: `${ctx.t("row")}: ${c}`,
    }));
    return h("div", { class: "cards-table" },
      seatsBar(ctx, (i) => `${ctx.t("cards")} ${sizes[i] ?? "?"}`),
      h("div", { class: "zones" }, section(ctx.t("stock"), pile(st.stock_size ?? size(st.stock)))),
      section(ctx.t("row"), h("div", { class: "row-cards" }, row.length ? row : h("i", {}, "—"))),
      h("div", { class: "zones" }, Array.from({ length: ctx.players }, (_, i) => section(
        `${ctx.t("seat")} ${i}`,
        h("div", { class: "row-cards" }, ((st.face_up || [])[i] || []).map((c) => card(c, { small: true }))),
        pile(downSizes[i], ctx.t("face-down"))))),
      mine ? section(ctx.t("your-hand"), hand(ctx, mine, card)) : null);
  },
};
