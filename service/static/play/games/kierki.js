// Kierki: the deal's contract, trumps, the trick on the table, tricks taken, loteryjka rows.
import { h } from "../dom.js";
import { frenchCard, hand, handSizes, ownHand, pile, seatsBar, section } from "./common.js";
import { trickPlays, trickView } from "./tricks.js";

const SUIT = { C: "♣", D: "♦", H: "♥", S: "♠", NT: "bez atu" };

export default {
  render(ctx) {
    const st = ctx.state;
    const mine = ownHand(ctx);
    const sizes = handSizes(st, ctx.players);
    const taken = Array.from({ length: ctx.players }, () => 0);
    for (const t of st.tricks || []) if (t.winner !== null && t.winner !== undefined) taken[t.winner] += 1;
    const trump = st.trump && typeof st.trump === "object" ? st.trump.suit ?? JSON.stringify(st.trump) : st.trump;
    const rows = (st.rows || []).filter(Boolean).map((r) => h("div", { class: "lot-row" },
      h("b", {}, SUIT[r.suit] ?? r.suit), ` ${r.low} … ${r.high}`));
    const last = (st.tricks || [])[(st.tricks || []).length - 1];
    return h("div", { class: "cards-table" },
      seatsBar(ctx, (i) => `${ctx.t("cards")} ${sizes[i] ?? "?"} · ${ctx.t("tricks")} ${taken[i]}${i === st.dealer ? " · D" : ""}`),
      h("div", { class: "zones" },
        section(ctx.t("round"), h("b", {}, st.round ?? (st.deal_no ?? 0) + 1)),
        section(ctx.t("contract"), h("b", { class: "contract" }, st.contract ?? st.deal ?? "")),
        section(ctx.t("trump"), h("b", {}, trump ? SUIT[trump] ?? trump : "—")),
        section(ctx.t("stock"), pile(st.stock_size ?? (Array.isArray(st.stock) ? st.stock.length : st.stock)))),
      section(ctx.t("trick"), trickView(ctx, trickPlays(st.trick, st.leader, ctx.players))),
      last ? section(ctx.t("last-trick"), trickView(ctx, trickPlays(last.cards, last.leader, ctx.players))) : null,
      rows.length ? section("loteryjka", h("div", { class: "lot" }, rows)) : null,
      mine ? section(ctx.t("your-hand"), hand(ctx, mine, frenchCard)) : null);
  },
};
