// Kierki: the deal and its contract, trumps, the trick on the table, the last trick and who took it,
// tricks taken, loteryjka rows. Select a card (the cards you may play are marked), then confirm.
// Names read: round, contract, trump, trick, leader, tricks[].winner/cards/leader,
// rows (loteryjka), stock_size (cards not yet dealt while trumps are named), dealer, hand_sizes.
import { h } from "../dom.js";
import { frenchCard, hand, handSizes, ownHand, pile, seatsBar, section } from "./common.js";
import { trickPlays, trickView } from "./tricks.js";
import { contractWord } from "../words.js";

export default {
  render(ctx) {
    const st = ctx.state;
    const mine = ownHand(ctx);
    const sizes = handSizes(st, ctx.players);
    const taken = Array.from({ length: ctx.players }, () => 0);
    for (const t of st.tricks || []) if (t.winner !== null && t.winner !== undefined) taken[t.winner] += 1;
    const trump = st.trump && typeof st.trump === "object" ? st.trump.suit : st.trump;
    const rows = (st.rows || []).filter(Boolean).map((r) => h("div", { class: "lot-row" },
      h("b", {}, contractWord(ctx.entry, r.suit, ctx.lang)), ` ${r.low} … ${r.high}`));
    const last = (st.tricks || [])[(st.tricks || []).length - 1];
    const undealt = st.stock_size ?? (Array.isArray(st.stock) ? st.stock.length : null);
    return h("div", { class: "cards-table" },
      seatsBar(ctx, (i) => `${ctx.t("cards")}: ${sizes[i] ?? "?"} · ${ctx.term("tricks")}: ${taken[i]}${i === st.dealer ? ` · ${ctx.term("dealer")}` : ""}`),
      h("div", { class: "zones" },
        section(`${ctx.term("round")} ${st.round ?? ""}`, h("b", { class: "contract" }, contractWord(ctx.entry, st.contract, ctx.lang))),
        trump ? section(ctx.term("trump"), h("b", {}, contractWord(ctx.entry, trump, ctx.lang))) : null,
        undealt ? section(ctx.term("stock"), pile(undealt)) : null),
      section(ctx.term("trick"), trickView(ctx, trickPlays(st.trick, st.leader, ctx.players))),
      last ? section(ctx.term("last_trick"), trickView(ctx, trickPlays(last.cards, last.leader, ctx.players), last.winner)) : null,
      rows.length ? section(ctx.phase("lottery"), h("div", { class: "lot" }, rows)) : null,
      mine ? section(ctx.t("your-hand"), hand(ctx, mine, frenchCard)) : null);
  },
};
