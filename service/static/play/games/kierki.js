// Kierki: the deal's contract, trumps, the trick on the table, tricks taken, loteryjka rows.
// Select a card (the cards you may play are marked), then confirm.
// Names read: round (else deal_no), contract (else deal), trump, trick, leader, tricks[].winner/cards/leader,
// rows (loteryjka), stock_size (else stock), dealer, hand_sizes.
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
    return h("div", { class: "cards-table" },
      seatsBar(ctx, (i) => `${ctx.t("cards")}: ${sizes[i] ?? "?"} · ${ctx.t("tricks")}: ${taken[i]}${i === st.dealer ? ` · ${ctx.t("dealer")}` : ""}`),
      h("div", { class: "zones" },
        section(ctx.t("round"), h("b", {}, st.round ?? (st.deal_no ?? 0) + 1)),
        section(ctx.t("contract"), h("b", { class: "contract" }, contractWord(ctx.entry, st.contract ?? st.deal, ctx.lang))),
        section(ctx.t("trump"), h("b", {}, trump ? contractWord(ctx.entry, trump, ctx.lang) : "—")),
        section(ctx.t("stock"), pile(st.stock_size ?? (Array.isArray(st.stock) ? st.stock.length : st.stock)))),
      section(ctx.t("trick"), trickView(ctx, trickPlays(st.trick, st.leader, ctx.players))),
      last ? section(ctx.t("last-trick"), trickView(ctx, trickPlays(last.cards, last.leader, ctx.players))) : null,
      rows.length ? section(ctx.t("lottery"), h("div", { class: "lot" }, rows)) : null,
      mine ? section(ctx.t("your-hand"), hand(ctx, mine, frenchCard)) : null);
  },
};
