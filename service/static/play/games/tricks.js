// Drawing shared by the trick-taking games (3-5-8, Kierki): the trick on the table.
import { h } from "../dom.js";
import { frenchCard } from "./common.js";

/** The cards of a trick: [{seat, card}] as is, or plain cards counted from `leader`. */
export function trickPlays(trick, leader, players) {
  return (trick || []).map((x, i) => (typeof x === "string" ? { seat: (leader + i) % players, card: x } : x));
}

export function trickView(ctx, plays) {
  return h("div", { class: "trick" }, plays.length ? plays.map((p) =>
    h("div", { class: "trick-card" }, frenchCard(p.card, { label: ctx.cardWord ? ctx.cardWord(p.card) : p.card }), h("small", {}, `${ctx.t("seat")} ${p.seat}`))) : h("i", {}, "—"));
}
