// 3-5-8: the contract, the musik, the trick on the table, tricks won against each target.
// Select a card (to play, discard or give), then confirm or pick the move it makes.
// Names read: contract, round (else deal), phase, musik (a list, or its size), won (else tricks_won), trick, leader,
// last_trick, dealer, hand_sizes.
import { h } from "../dom.js";
import { contractWord } from "../words.js";
import { frenchCard, hand, handSizes, ownHand, pile, seatsBar, section } from "./common.js";
import { trickPlays, trickView } from "./tricks.js";

export default {
  render(ctx) {
    const st = ctx.state;
    const mine = ownHand(ctx);
    const sizes = handSizes(st, ctx.players);
    const won = st.won ?? st.tricks_won ?? [];
    const musik = Array.isArray(st.musik) ? h("div", { class: "row-cards" }, st.musik.map((c) => frenchCard(c, { small: true })))
      : pile(st.musik_size ?? st.musik ?? "—");
    return h("div", { class: "cards-table" },
      seatsBar(ctx, (i) => `${ctx.t("cards")}: ${sizes[i] ?? "?"} · ${ctx.t("tricks")}: ${won[i] ?? "?"}${i === st.dealer ? ` · ${ctx.t("dealer")}` : ""}`),
      h("div", { class: "zones" },
        section(ctx.t("round"), h("b", {}, st.round ?? st.deal ?? "")),
        section(ctx.t("contract"), h("b", { class: "contract" }, st.contract ? contractWord(ctx.entry, st.contract, ctx.lang) : "—")),
        section(ctx.t("phase"), h("b", {}, ctx.phase(st.phase))),
        section(ctx.t("musik"), musik)),
      section(ctx.t("trick"), trickView(ctx, trickPlays(st.trick, st.leader, ctx.players))),
      (st.last_trick || []).length ? section(ctx.t("last-trick"), trickView(ctx, trickPlays(st.last_trick, 0, ctx.players))) : null,
      mine ? section(ctx.t("your-hand"), hand(ctx, mine, frenchCard)) : null);
  },
};
