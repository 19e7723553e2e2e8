// Draws a score pad (pads.js's model) as the printed sheet: one column per seat (or side), sections of
// rows, the totals line, and the winners when the game is over. Used by the table and the calculator.
import { h } from "./dom.js";
import { seatWord, word } from "./words.js";

/**
 * `over`: the game is over (the result is said), false: it goes on (the standing is said), undefined: a
 * calculator's pad. `cell(row, column)`: a game's own content for a cell (Kniffel's boxes to score in).
 */
export function drawPad(model, lang, { title, over, cell } = {}) {
  const cols = model.columns;
  const head = h("tr", {}, h("th", { scope: "col" }, title ?? ""), cols.map((c) => h("th", { scope: "col" }, c)));
  const bodies = model.sections.map((sec) => h("tbody", { class: "pad-section" },
    model.sections.length > 1 || sec.rows.length === 0 ? h("tr", { class: "pad-head" }, h("th", { colspan: cols.length + 1 }, sec.title)) : null,
    sec.rows.length ? sec.rows.map((r) => h("tr", { class: r.cls, "data-row": r.key }, h("th", { scope: "row" }, r.label), r.cells.map((v, i) => h("td", {}, cell?.(r, i) ?? v))))
      : over ? null : h("tr", { class: "pad-empty" }, h("td", { colspan: cols.length + 1 }, word("no-rounds", lang)))));
  const total = h("tbody", {}, h("tr", { class: "total" }, h("th", { scope: "row" }, word("total", lang)),
    model.totals.map((v) => h("td", { "data-testid": "pad-total" }, v))));
  return h("div", { class: ["pad", `pad-${model.game}`], "data-testid": "pad", "data-game": model.game },
    h("table", { class: "pad-table" }, h("thead", {}, head), bodies, total), padFoot(model, lang, over),
    h("button", { type: "button", class: "small-btn no-print", on: { click: () => window.print() } }, word("print", lang)));
}

/**
 * Under the pad: the result once the game is over (`over`; the calculator's pads have none), else the
 * standing after the last finished round (DESIGN 4.7: the result is said only when it is one).
 */
function padFoot(model, lang, over) {
  if (over) {
    return h("p", { class: "pad-final" }, `${word("final", lang)} · ${word("winners", lang)}: ${(model.winners || []).map((w) => seatWord(w, lang)).join(", ") || "—"}`);
  }
  if (over === undefined) return null;
  const rounds = model.sections.find((sec) => sec.rows.some((r) => r.cls === "round"))?.rows.filter((r) => r.cls === "round").length ?? 0;
  if (!rounds) return null; // the empty pad says no round is finished
  return h("p", { class: "pad-standing", "data-testid": "pad-standing" },
    `${word("standing", lang)} ${rounds}: ${model.totals.map((v, i) => `${model.columns[i]} ${v}`).join(" · ")}`);
}
