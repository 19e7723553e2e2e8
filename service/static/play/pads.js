// Score pads (DESIGN 4.7): each game's printed sheet as a model of rows and columns, filled from the
// state as the game goes and from a `score` report (round, points, totals, breakdown, final, winners).
// Pure: `padModel` returns { columns, sections: [{title, rows: [{label, cells, cls}]}], totals, final, winners };
// sheet.js draws it, the game table and the calculator alike. Tested in Node (tests/js/pads.test.js).
//
// No game is named here: a pad's kind follows the data (DESIGN 4.8), its words and rows the game's terms.
//   every game:     state.history (rows of per-seat points), state.round; report.totals/points|round/breakdown/final/winners;
//                   the round's word is the game's term `round` (Kierki and 3-5-8: a deal)
//   boxes:          state.sheets[seat].boxes / .penalties (or breakdown[].boxes): the rows are the game's terms in
//                   their declared order from the first box on (a box, or a sum of the breakdown)
//   sides:          state.sides (one per side; seat s plays for side s % sides), or breakdown[].side
//   a contract:     state.deals (every deal of the match, in order: listed in advance) or state.contract (the deal's
//                   contract, remembered per round by the page: `contracts`)

import { cardWord, contractWord, seatWord, term, word } from "./words.js";

const sum = (xs) => xs.reduce((a, b) => a + (Number(b) || 0), 0);

/** Round points of a report: `points` (DESIGN 4.5) or the older `round` list. */
export function reportPoints(report) {
  if (!report) return null;
  if (Array.isArray(report.points)) return report.points;
  return Array.isArray(report.round) ? report.round : null;
}

export function historyRows(state) {
  const rows = state?.history ?? [];
  return Array.isArray(rows) ? rows.filter(Array.isArray) : [];
}

function seatColumns(players, lang, me) {
  return Array.from({ length: players }, (_, i) => `${seatWord(i, lang)}${i === me ? ` (${word("you", lang)})` : ""}`);
}

/**
 * A pad of boxes (a sheet per seat, `state.sheets[].boxes` or the report's `breakdown[].boxes`): its
 * rows are the game's terms in their declared order that name a box or a sum of the breakdown, as
 * the printed sheet lists them. A sum not yet reported is the boxes above it since the last sum.
 */
function boxPad({ game, state, report, players, lang, me, entry }) {
  const bd = report?.breakdown || [];
  const sheets = state?.sheets ?? bd.map((b) => ({ boxes: b.boxes || {}, penalties: b.penalties || {} }));
  const n = players ?? sheets.length;
  const boxNames = new Set(Object.keys(sheets[0]?.boxes || {}));
  // the sheet as declared: from the first box on, every word of the game (not a sentence of its log)
  const declared = Object.keys(entry?.terms || {});
  const from = declared.findIndex((k) => boxNames.has(k));
  const names = from < 0 ? [] : declared.slice(from).filter((k) => !k.includes(":") && !["points", "total"].includes(k));
  for (const b of boxNames) if (!names.includes(b)) names.push(b);
  const cell = (i, box) => {
    const sh = sheets[i] || {};
    const v = sh.boxes?.[box];
    const pen = sh.penalties?.[box];
    return v === null || v === undefined ? (pen ? `−${pen}` : "") : `${v}${pen ? ` (−${pen})` : ""}`;
  };
  const rows = [];
  let since = [];
  for (const k of names) {
    const label = term(entry, k, lang);
    if (boxNames.has(k)) {
      rows.push({ label, cells: Array.from({ length: n }, (_, i) => cell(i, k)), cls: "box", key: k }); // key: the box, scored on the pad
      since.push(k);
    } else {
      const boxes = since;
      rows.push({ label, cells: Array.from({ length: n }, (_, i) => (bd[i] ? String(bd[i][k] ?? "")
        : boxes.length ? String(sum(boxes.map((b) => sheets[i]?.boxes?.[b]))) : "")), cls: "sum" });
      since = [];
    }
  }
  const pens = (i) => sum(Object.values(sheets[i]?.penalties || {}));
  const totals = report?.totals ?? Array.from({ length: n }, (_, i) => sum(Object.values(sheets[i]?.boxes || {})) - pens(i));
  return {
    game, columns: seatColumns(n, lang, me),
    sections: [{ title: term(entry, "boxes", lang), rows }],
    totals: totals.map(String), final: !!report?.final, winners: report?.winners ?? null,
  };
}

function roundsPad({ game, state, report, players, lang, me, contracts, entry }) {
  const rows = historyRows(state);
  const n = players ?? report?.totals?.length ?? rows[0]?.length ?? 2;
  const roundWord = term(entry, "round", lang);
  // a game whose view lists its deals in advance (`deals`: Kierki) gets the printed sheet's every row
  const deals = Array.isArray(state?.deals) ? state.deals : null;
  const label = (k) => {
    const c = deals?.[k] ?? contracts?.[k + 1];
    return c ? `${k + 1}. ${contractWord(entry, c, lang)}` : `${roundWord} ${k + 1}`; // under the section's title: "1. Bez lew"
  };
  const body = Array.from({ length: Math.max(rows.length, deals?.length ?? 0) }, (_, k) => ({ label: label(k),
    cells: rows[k] ? rows[k].map(String) : Array.from({ length: n }, () => ""), cls: rows[k] ? "round" : "round to-come" }));
  const sections = [{ title: roundWord, rows: body }];
  const items = breakdownRows(report, n, lang, entry);
  if (items.length) sections.push({ title: typeof report?.round === "number" ? `${roundWord} ${report.round}` : word("this-round", lang), rows: items });
  const totals = report?.totals ?? Array.from({ length: n }, (_, i) => sum(rows.map((r) => r[i])));
  return { game, columns: seatColumns(n, lang, me), sections, totals: totals.map(String), final: !!report?.final, winners: report?.winners ?? null };
}

/** A breakdown's items as rows (words from the game's `terms`). */
function breakdownRows(report, n, lang, entry) {
  const bd = report?.breakdown;
  if (!Array.isArray(bd) || !bd.length) return [];
  const flat = bd.map((b) => (b && typeof b === "object" ? { ...(b.items || {}), ...b } : {}));
  const skip = new Set(["items", "history", "earlier_rounds", "cards", "contracts_used", "boxes", "penalties", "side", "total", "previous_total", "round"]);
  const keys = [...new Set(flat.flatMap((b) => Object.keys(b)))].filter((k) => !skip.has(k));
  return keys.map((k) => ({ label: term(entry, k, lang), cells: flat.slice(0, n).map((b) => valueWords(k, b[k], entry, lang)), cls: "item" }));
}

/** A value of a breakdown in words: a game's word (a role, a result) from its terms, cards as drawn. */
function valueWords(key, v, entry, lang) {
  if (v === null || v === undefined) return "";
  if (typeof v === "boolean") return word(v ? "yes" : "no", lang);
  if (key === "contract") return contractWord(entry, v, lang);
  if (Array.isArray(v)) return v.map((x) => cardWord(x, lang)).join(" ");
  if (typeof v === "object") return "";
  if (typeof v === "string" && entry?.terms?.[v]) return term(entry, v, lang);
  return String(v);
}

/** A pad of sides (partnerships: `state.sides`, or a breakdown that names each seat's `side`). */
function sidesPad({ game, state, report, players, lang, me, entry }) {
  const nSides = state?.sides?.length ?? (players === 4 ? 2 : players ?? 2);
  const sideOf = (seat) => seat % nSides;
  const rows = historyRows(state);
  const first = (side) => Array.from({ length: players ?? nSides }, (_, s) => s).find((s) => sideOf(s) === side) ?? side;
  const sideWord = term(entry, "side", lang);
  const columns = Array.from({ length: nSides }, (_, k) => {
    const seats = Array.from({ length: players ?? nSides }, (_, s) => s).filter((s) => sideOf(s) === k);
    return `${sideWord} ${k + 1} (${seats.map((s) => `${seatWord(s, lang)}${s === me ? ` (${word("you", lang)})` : ""}`).join(", ")})`;
  });
  const roundWord = term(entry, "round", lang);
  const body = rows.map((r, k) => ({ label: `${roundWord} ${k + 1}`, cells: columns.map((_, side) => String(r[first(side)] ?? "")), cls: "round" }));
  const sections = [{ title: roundWord, rows: body }];
  const bd = (report?.breakdown || []).filter((b, i, all) => all.findIndex((x) => x.side === b.side) === i);
  if (bd.length) {
    const bySide = columns.map((_, k) => bd.find((b) => b.side === k) || bd[k] || {});
    const keys = Object.keys(bySide[0]).filter((k) => !["side", "total"].includes(k));
    sections.push({ title: word("this-round", lang), rows: keys.map((k) => ({ label: term(entry, k, lang),
      cells: bySide.map((b) => valueWords(k, b[k], entry, lang)), cls: "item" })) });
  }
  const seatTotals = report?.totals ?? Array.from({ length: players ?? nSides }, (_, s) => sum(rows.map((r) => r[s])));
  return { game, columns, sections, totals: columns.map((_, side) => String(seatTotals[first(side)] ?? 0)),
    final: !!report?.final, winners: report?.winners ?? null, sides: true };
}

/** The pad of `game`: ctx = { state, report, players, lang, me (the viewing seat), contracts, entry }. */
export function padModel(game, ctx) {
  const c = { game, lang: "en", me: null, ...ctx };
  const bd = c.report?.breakdown;
  if (Array.isArray(c.state?.sheets) || (Array.isArray(bd) && bd[0]?.boxes)) return boxPad(c);
  if (Array.isArray(c.state?.sides) || (Array.isArray(bd) && bd.some((b) => typeof b?.side === "number"))) return sidesPad(c);
  return roundsPad(c);
}

/** The totals a pad shows, per seat (a side's total under each of its seats): to compare with `score`. */
export function padSeatTotals(model, players) {
  if (!model.sides) return model.totals.map(Number);
  const n = model.totals.length;
  return Array.from({ length: players }, (_, s) => Number(model.totals[s % n]));
}

/** A pad has something written in it (a box or a round). */
export function padFilled(model) {
  return model.sections.some((s) => s.rows.some((r) => r.cls !== "sum" && r.cells.some((x) => x !== "" && x !== undefined)));
}
