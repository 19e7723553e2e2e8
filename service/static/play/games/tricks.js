// Drawing shared by the trick-taking games (3-5-8, Kierki): the trick on the table.
import { h } from "../dom.js";
import { frenchCard, laidLast, lastMark } from "./common.js";

/** The cards of a trick: [{seat, card}] as is, or plain cards counted from `leader`. */
export function trickPlays(trick, leader, players) {
  return (trick || []).map((x, i) => (typeof x === "string" ? { seat: (leader + i) % players, card: x } : x));
}

/** A trick's cards, each with its seat; the card the last move laid is marked, and the trick's
 * winner (`winner`, a seat, when the trick is complete) says it took it. */
export function trickView(ctx, plays, winner = null) {
  return h("div", { class: "trick" }, plays.length ? plays.map((p) => {
    const card = frenchCard(p.card, { label: ctx.cardWord(p.card) });
    if (laidLast(ctx, p.card)) lastMark(card, "card");
    const took = p.seat === winner;
    return h("div", { class: ["trick-card", took && "took"] }, card,
      h("small", { "data-winner": took ? "" : undefined }, `${ctx.seatWord(p.seat)}${took ? ` · ${ctx.term("took_it")}` : ""}`));
  }) : h("i", {}, "—"));
}
