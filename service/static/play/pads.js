// Score pads (DESIGN 4.7): each game's printed sheet as a model of rows and columns, filled from the
// state as the game goes and from a `score` report (round, points, totals, breakdown, final, winners).
// Pure: `padModel` returns { columns, sections: [{title, rows: [{label, cells, cls}]}], totals, final, winners };
// sheet.js draws it, the game table and the calculator alike. Tested in Node (tests/js/pads.test.js).
//
// Field names read per game (DESIGN 4.5 names, and today's names where a game is not yet converted):
//   all:            state.history (rows of per-seat points), state.round, state.phase; report.totals/points|round/breakdown/final/winners
//   kniffel-cards:  state.sheets[seat].boxes / .penalties; breakdown[seat].upper, upper_bonus, lower, card_penalties,
//                   announcement_penalty, extra_penalties, total
//   canasta:        state.sides (one per side; seat s plays for side s % sides), breakdown[].side and its items
//   kierki, 3-5-8:  state.contract (the deal's contract, remembered per round by the page: `contracts`)
//   backgammon:     state.match.score, state.cube; breakdown[].result, cube, multiplier

import { cardWord, contractWord, word } from "./words.js";

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

const UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"];
const LOWER = ["three-of-a-kind", "four-of-a-kind", "full-house", "small-straight", "large-straight", "kniffel"];

function seatColumns(players, lang, me) {
  return Array.from({ length: players }, (_, i) => `${word("seat", lang)} ${i}${i === me ? ` (${word("you", lang)})` : ""}`);
}

function kniffelPad({ state, report, players, lang, me }) {
  const sheets = state?.sheets ?? (report?.breakdown || []).map((b) => ({ boxes: b.boxes || {}, penalties: b.penalties || {} }));
  const n = players ?? sheets.length;
  const bd = report?.breakdown || [];
  const cell = (i, box) => {
    const sh = sheets[i] || {};
    const v = sh.boxes?.[box];
    const pen = sh.penalties?.[box];
    return v === null || v === undefined ? (pen ? `−${pen}` : "") : `${v}${pen ? ` (−${pen})` : ""}`;
  };
  const boxSum = (i, boxes) => sum(boxes.map((b) => sheets[i]?.boxes?.[b]));
  const row = (label, f, cls, key) => ({ label, cells: Array.from({ length: n }, (_, i) => f(i)), cls, key });
  const pens = (i) => (bd[i] ? (bd[i].card_penalties ?? 0) + (bd[i].announcement_penalty ?? 0) + (bd[i].extra_penalties ?? 0)
    : sum(Object.values(sheets[i]?.penalties || {})));
  const totals = report?.totals ?? Array.from({ length: n }, (_, i) => boxSum(i, UPPER) + (bd[i]?.upper_bonus ?? 0) + boxSum(i, LOWER) - pens(i));
  return {
    game: "kniffel-cards",
    columns: seatColumns(n, lang, me),
    sections: [
      { title: word("upper-sum", lang), rows: [...UPPER.map((b) => row(word(b, lang), (i) => cell(i, b), "box", b)),
        row(word("upper-sum", lang), (i) => String(bd[i]?.upper ?? boxSum(i, UPPER)), "sum"),
        row(word("bonus", lang), (i) => (bd[i] ? String(bd[i].upper_bonus ?? 0) : ""), "sum")] },
      { title: word("lower-sum", lang), rows: [...LOWER.map((b) => row(word(b, lang), (i) => cell(i, b), "box", b)),
        row(word("lower-sum", lang), (i) => String(bd[i]?.lower ?? boxSum(i, LOWER)), "sum"),
        row(word("penalty", lang), (i) => String(-pens(i)), "sum")] },
    ],
    totals: totals.map(String),
    final: !!report?.final, winners: report?.winners ?? null,
  };
}

function roundsPad({ game, state, report, players, lang, me, contracts, entry }) {
  const rows = historyRows(state);
  const n = players ?? report?.totals?.length ?? rows[0]?.length ?? 2;
  const label = (k) => {
    const c = contracts?.[k + 1];
    return `${word("round", lang)} ${k + 1}${c ? ` · ${contractWord(entry, c, lang)}` : ""}`;
  };
  const body = rows.map((r, k) => ({ label: label(k), cells: r.map(String), cls: "round" }));
  const sections = [{ title: word("round", lang), rows: body }];
  const items = breakdownRows(game, report, n, lang, entry);
  if (items.length) sections.push({ title: `${word("this-round", lang)}${report?.round && typeof report.round === "number" ? ` (${report.round})` : ""}`, rows: items });
  const totals = report?.totals ?? Array.from({ length: n }, (_, i) => sum(rows.map((r) => r[i])));
  return { game, columns: seatColumns(n, lang, me), sections, totals: totals.map(String), final: !!report?.final, winners: report?.winners ?? null };
}

/** A breakdown's items as rows (numbers only; words from `terms` or the page). */
function breakdownRows(game, report, n, lang, entry) {
  const bd = report?.breakdown;
  if (!Array.isArray(bd) || !bd.length) return [];
  const flat = bd.map((b) => (b && typeof b === "object" ? { ...(b.items || {}), ...b } : {}));
  const skip = new Set(["items", "history", "earlier_rounds", "cards", "contracts_used", "boxes", "penalties", "side", "total", "previous_total", "round"]);
  const keys = [...new Set(flat.flatMap((b) => Object.keys(b)))].filter((k) => !skip.has(k));
  return keys.map((k) => ({ label: entry?.terms?.[k]?.[lang] ?? entry?.terms?.[k]?.en ?? words(k, lang),
    cells: flat.slice(0, n).map((b) => valueWords(k, b[k], entry, lang)), cls: "item" }));
}

function words(key, lang) {
  const w = word(key, lang);
  return w === key ? key.replace(/_/g, " ") : w;
}

function valueWords(key, v, entry, lang) {
  if (v === null || v === undefined) return "";
  if (typeof v === "boolean") return word(v ? "yes" : "no", lang);
  if (key === "contract") return contractWord(entry, v, lang);
  if (Array.isArray(v)) return v.map((x) => cardWord(x, lang)).join(" ");
  if (typeof v === "object") return "";
  return String(v);
}

function canastaPad({ state, report, players, lang, me, entry }) {
  const nSides = state?.sides?.length ?? (players === 4 ? 2 : players ?? 2);
  const sideOf = (seat) => seat % nSides;
  const rows = historyRows(state);
  const first = (side) => Array.from({ length: players ?? nSides }, (_, s) => s).find((s) => sideOf(s) === side) ?? side;
  const columns = Array.from({ length: nSides }, (_, k) => {
    const seats = Array.from({ length: players ?? nSides }, (_, s) => s).filter((s) => sideOf(s) === k);
    return `${word("side", lang)} ${k + 1} (${seats.map((s) => (s === me ? word("you", lang) : `${word("seat", lang).toLowerCase()} ${s}`)).join(", ")})`;
  });
  const body = rows.map((r, k) => ({ label: `${word("round", lang)} ${k + 1}`, cells: columns.map((_, side) => String(r[first(side)] ?? "")), cls: "round" }));
  const sections = [{ title: word("round", lang), rows: body }];
  const bd = (report?.breakdown || []).filter((b, i, all) => all.findIndex((x) => x.side === b.side) === i);
  if (bd.length) {
    const bySide = columns.map((_, k) => bd.find((b) => b.side === k) || bd[k] || {});
    const keys = Object.keys(bySide[0]).filter((k) => !["side", "total"].includes(k));
    sections.push({ title: word("this-round", lang), rows: keys.map((k) => ({ label: entry?.terms?.[k]?.[lang] ?? words(k, lang),
      cells: bySide.map((b) => valueWords(k, b[k], entry, lang)), cls: "item" })) });
  }
  const seatTotals = report?.totals ?? Array.from({ length: players ?? nSides }, (_, s) => sum(rows.map((r) => r[s])));
  return { game: "canasta", columns, sections, totals: columns.map((_, side) => String(seatTotals[first(side)] ?? 0)),
    final: !!report?.final, winners: report?.winners ?? null, sides: true };
}

/** The pad of `game`: ctx = { state, report, players, lang, me (the viewing seat), contracts, entry }. */
export function padModel(game, ctx) {
  const c = { game, lang: "en", me: null, ...ctx };
  if (game === "kniffel-cards") return kniffelPad(c);
  if (game === "canasta") return canastaPad(c);
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
