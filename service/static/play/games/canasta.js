// Kanasta: each side's melds and red threes (your side marked), the stock, the discard pile's top card,
// the hand. Melds are built group by group (DESIGN 4.7, turn 4): select the cards of one meld, `add-meld`
// closes it and starts the next; each group's points and the opening's total against its minimum are
// shown, with the reason a composition cannot be legal yet; confirm-move lays them all in one move (in
// the draw phase, taking the discard pile with the first group shown as `using`).
//
// Names read (the declared Kanasta view, DESIGN 4.5): discard_top, discard_size, discard_closed,
// sides[].melds[].rank/cards, sides[].red_threes, sides[].total, seat_sides, stock_size, hand_sizes, options.
import { h } from "../dom.js";
import { frenchCard, hand, handSizes, ownHand, pile, seatsBar, section, target } from "./common.js";
import { compose, composedMove, reasonWords } from "./canasta-melds.js";

export default {
  /**
   * The move being built from the closed groups (`ctx.groups`) and the selection: its words, and the move
   * when it can be legal (null with a reason otherwise). Only in the phases where melding can be legal:
   * "play" (a meld), and "draw" while the pile may be taken (take-discard with melds); else null.
   */
  compose(ctx) {
    const st = ctx.state;
    const take = st.phase === "draw";
    if (!ctx.moves.length || !(st.phase === "play" || (take && ctx.moves.some((m) => m.kind === "take-discard")))) return null;
    const nSides = (st.sides || []).length || 2;
    const side = st.seat_sides?.[ctx.seat] ?? ctx.seat % nSides;
    const mine = st.sides?.[side] || { melds: [], total: 0 };
    const groups = ctx.groups;
    const pileCard = take ? st.discard_top : null;
    const c = compose({ groups, current: ctx.picked, melds: mine.melds || [], total: mine.total || 0, options: st.options || {}, pile: pileCard });
    const closing = c.groups[groups.length];  // the group being selected, when there is one
    const move = c.problem || !c.groups.length ? null : composedMove(groups, ctx.picked, { pile: pileCard });
    const reason = reasonWords(c.problem, (k) => ctx.t(k));
    const panel = h("div", { class: "meld-builder", "data-testid": "meld-builder" },
      h("span", { class: "note" }, `${ctx.t("meld-building")}:`),
      c.groups.map((g, k) => h("span", { class: ["meld-group", k === groups.length && "open"], "data-testid": "meld-group",
        "data-points": g.points, "data-cards": g.cards.join(" ") },
      `${g.cards.map((x) => ctx.cardWord(x)).join(" ")} · ${g.points} ${ctx.t("points-short")}`,
      k < groups.length ? h("button", { type: "button", class: "small-btn", "data-testid": "drop-meld", title: ctx.t("remove"),
        "aria-label": `${ctx.t("remove")} ${g.cards.map((x) => ctx.cardWord(x)).join(" ")}`, on: { click: () => ctx.dropGroup(k) } }, "×") : null)),
      h("b", { class: ["opening-total", c.opening && c.problem?.key === "opening-short" && "short"], "data-testid": "opening-total",
        "data-points": c.points, "data-need": c.need ?? "" },
      c.opening ? `${ctx.t("meld-opening")}: ${c.points} / ${c.need === "canasta" ? ctx.term("canasta") : c.need}` : `${ctx.t("melded")}: ${c.points}`),
      reason ? h("span", { class: "meld-reason", "data-testid": "meld-reason", role: "status" }, reason) : null);
    // a closed group must be a meld in itself (a short opening is fine: more groups may follow)
    const canAdd = !!closing && ctx.picked.length > 0 && (!closing.problem || closing.problem.key.startsWith("opening"))
      && !c.groups.slice(0, groups.length).some((g) => g.problem);
    return { move, panel, canAdd };
  },

  render(ctx) {
    const st = ctx.state;
    const mine = ownHand(ctx);
    const sizes = handSizes(st, ctx.players);
    const top = st.discard_top;
    const pileSize = st.discard_size;
    const closed = st.discard_closed;
    const nSides = (st.sides || []).length || 2;
    const mySide = ctx.seat === null || ctx.seat === undefined ? null : ctx.seat % nSides;
    const sides = (st.sides || []).map((side, k) => {
      const seats = Array.from({ length: ctx.players }, (_, s) => s).filter((s) => s % nSides === k);
      const title = `${ctx.t("side")} ${k + 1}: ${seats.map((s) => ctx.seatWord(s)).join(", ")}${k === mySide ? ` (${ctx.t("you")})` : ""}`;
      return h("div", { class: ["side-zone", k === mySide && "mine"] }, section(title,
        h("div", { class: "melds" }, (side.melds || []).map((m) => h("div", { class: ["meld", m.cards.length >= 7 && "canasta"] },
          h("small", {}, ctx.rankWord(m.rank)), m.cards.map((c) => frenchCard(c, { small: true, label: ctx.cardWord(c) }))))),
        Array.isArray(side.red_threes) && side.red_threes.length
          ? h("div", { class: "row-cards" }, side.red_threes.map((c) => frenchCard(c, { small: true }))) : null));
    });
    const takes = ctx.picked.length ? ctx.targets.filter((m) => m.kind === "take-discard") : ctx.moves.filter((m) => m.kind === "take-discard");
    let topEl = top ? frenchCard(top, { onClick: takes.length ? () => ctx.choose(takes) : undefined, label: `${ctx.t("discard")}: ${ctx.cardWord(top)}` }) : pile(0);
    const marked = ctx.picked.length ? (takes.length === 1 ? takes[0] : null) : [ctx.pending, ...ctx.targets].find((m) => m && m.kind === "take-discard");
    if (top && marked) topEl = target(topEl, ctx, marked);
    return h("div", { class: "cards-table" },
      seatsBar(ctx, (i) => `${ctx.t("side")} ${(i % nSides) + 1} · ${ctx.t("cards")}: ${sizes[i] ?? "?"}`),
      h("div", { class: "zones" },
        section(ctx.t("stock"), stock(ctx, st)),
        section(`${ctx.t("discard")} (${pileSize ?? "?"})${closed ? " 🔒" : ""}`, topEl),
        section(ctx.t("phase"), h("b", {}, ctx.phase(st.phase)))),
      h("div", { class: "zones sides" }, sides),
      mine ? section(ctx.t("your-hand"), grouped(hand(ctx, mine, frenchCard), ctx)) : null);
  },
};

/** The hand with the cards of closed groups marked and out of reach (they wait in their meld). */
function grouped(el, ctx) {
  const taken = new Set(ctx.groupIndices || []);
  [...el.children].forEach((card, i) => {
    if (!taken.has(i)) return;
    card.classList.add("grouped");
    card.disabled = true;
  });
  return el;
}

/** The stock: a tap selects the draw (then confirm-move) when drawing is legal. */
function stock(ctx, st) {
  const el = pile(st.stock_size);
  const draws = ctx.moves.filter((m) => m.kind === "draw");
  if (!draws.length) return el;
  const btn = h("button", { type: "button", class: "pile-btn", "data-testid": "stock", "aria-label": ctx.moveWords(draws[0]),
    on: { click: () => ctx.choose(draws) } }, el);
  return ctx.pending?.kind === "draw" ? target(btn, ctx, draws[0]) : btn;
}
