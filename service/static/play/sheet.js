// Draws a score pad (pads.js's model) as the printed sheet: one column per seat (or side), sections of
// rows, the totals line, and the winners when the game is over. Used by the table and the calculator.
import { h } from "./dom.js";
import { seatWord, word } from "./words.js";

export function drawPad(model, lang, { title } = {}) {
  const cols = model.columns;
  const head = h("tr", {}, h("th", { scope: "col" }, title ?? ""), cols.map((c) => h("th", { scope: "col" }, c)));
  const bodies = model.sections.map((sec) => h("tbody", { class: "pad-section" },
    model.sections.length > 1 || sec.rows.length === 0 ? h("tr", { class: "pad-head" }, h("th", { colspan: cols.length + 1 }, sec.title)) : null,
    sec.rows.length ? sec.rows.map((r) => h("tr", { class: r.cls }, h("th", { scope: "row" }, r.label), r.cells.map((v) => h("td", {}, v))))
      : h("tr", { class: "pad-empty" }, h("td", { colspan: cols.length + 1 }, word("no-rounds", lang)))));
  const total = h("tbody", {}, h("tr", { class: "total" }, h("th", { scope: "row" }, word("total", lang)),
    model.totals.map((v) => h("td", { "data-testid": "pad-total" }, v))));
  const winners = model.final
    ? h("p", { class: "pad-final" }, `${word("final", lang)} · ${word("winners", lang)}: ${(model.winners || []).map((w) => seatWord(w, lang)).join(", ") || "—"}`)
    : null;
  return h("div", { class: ["pad", `pad-${model.game}`], "data-testid": "pad", "data-game": model.game },
    h("table", { class: "pad-table" }, h("thead", {}, head), bodies, total), winners,
    h("button", { type: "button", class: "small-btn no-print", on: { click: () => window.print() } }, word("print", lang)));
}
