// 3-5-8: the contract, the musik, the trick on the table, the last trick and who took it, tricks taken.
// Select a card (to play, discard or give), then confirm or pick the move it makes.
// Names read: contract, round, phase, musik (own, else musik_size), tricks_won, trick, leader (who took
// the last trick leads the next), last_trick, dealer, hand_sizes.
import { h } from "../dom.js";
import { contractWord } from "../words.js";
import { frenchCard, hand, handSizes, ownHand, pile, seatsBar, section } from "./common.js";
import { trickPlays, trickView } from "./tricks.js";

export default {
  render(ctx) {
    const st = ctx.state;
    const mine = ownHand(ctx);
    const sizes = handSizes(st, ctx.players);
    const won = st.tricks_won ?? (st.won_sizes ?? []).map((n) => n / ctx.players);
    const musik = Array.isArray(st.musik) ? h("div", { class: "row-cards" }, st.musik.map((c) => frenchCard(c, { small: true, label: ctx.cardWord(c) })))
      : pile(st.musik_size ?? "—");
    return h("div", { class: "cards-table" },
      seatsBar(ctx, (i) => `${ctx.t("cards")}: ${sizes[i] ?? "?"} · ${ctx.term("won")}: ${won[i] ?? 0}${i === st.dealer ? ` · ${ctx.term("dealer")}` : ""}`),
      h("div", { class: "zones" },
        section(`${ctx.term("round")} ${st.round ?? ""}`, h("b", { class: "contract" }, st.contract ? contractWord(ctx.entry, st.contract, ctx.lang) : "—")),
        section(ctx.t("phase"), h("b", {}, ctx.phase(st.phase))),
        section(ctx.term("musik"), musik)),
      section(ctx.term("trick"), trickView(ctx, trickPlays(st.trick, st.leader, ctx.players))),
      (st.last_trick || []).length ? section(ctx.term("last_trick"), trickView(ctx, trickPlays(st.last_trick, 0, ctx.players), st.leader)) : null,
      mine ? section(ctx.t("your-hand"), hand(ctx, mine, frenchCard)) : null);
  },
};
