// What just happened (DESIGN 4.7): each move of the game in words, in the page's language, and the
// marks of the last one on the board. Pure functions of (log items, catalogue entry, language): no
// DOM, tested in Node (tests/js/log.test.mjs).
//
// A log item is { seat, move, events?, hidden? }: the session's log (`GET /v1/sessions/{id}/log`,
// the move as the viewing seat may see it) with, where the page saw it, the `events` the move's
// answer carried. A game says a move or an event in its own words with a term named `move:<kind>`
// or `event:<type>` (a sentence with {placeholders}: {seat}, {card}, {cards}, {stack}, {box},
// {from}, {to}, {steps}, {dice}, {winner}, {number}, {points}, {side}, {contract}, {suit}, ...);
// without one, a move is "Seat 2: <the move in words>" and an event is left out.

import { cardWord, cardsWord, contractWord, fill, kindLabel, moveWords, phaseLabel, seatWord, stepsWords, term, word } from "./words.js";

const SEATS = new Set(["seat", "winner", "starter", "to", "out", "by"]);

/** The words of one field of a move or an event (`key` says what it is). */
function valueWords(key, v, item, entry, lang) {
  if (v === null || v === undefined) return undefined;
  if (SEATS.has(key) && typeof v === "number") return seatWord(v, lang);
  if (key === "card") return cardWord(v, lang);
  if (key === "cards" || key === "using") return cardsWord(v, lang);
  if (key === "stack") return String(v + 1);
  if (key === "side") return String(v + 1);
  if (key === "box" || key === "level" || key === "result" || key === "how") return term(entry, v, lang);
  if (key === "contract" || key === "suit") return contractWord(entry, v, lang);
  if (key === "steps") return stepsWords(v, entry, lang);
  if (key === "dice") return v.join("–");
  if ((key === "points" || key === "scores") && Array.isArray(v)) return v.map((x) => (x > 0 ? `+${x}` : String(x))).join(" / ");
  if (key === "squares") return v.join(", ");
  if (key === "plays") return v.map((p) => `${cardsWord(p.cards, lang)} ${word("on", lang)} ${term(entry, "stack", lang).toLowerCase()} ${p.stack + 1}`).join(", ");
  if (key === "melds") return v.map((m) => cardsWord(m.cards, lang)).join(" | ");
  if (typeof v === "boolean") return word(v ? "yes" : "no", lang);
  if (typeof v === "object") return undefined;
  return String(v);
}

function valuesOf(obj, item, entry, lang) {
  const out = {};
  for (const [k, v] of Object.entries(obj || {})) {
    const text = valueWords(k, v, item, entry, lang);
    if (text !== undefined) out[k] = text;
  }
  return out;
}

/** The move of a log item as a sentence ("Seat 3 played Q♠"). */
export function moveSentence(item, entry, lang = "en") {
  const seat = item.seat === null || item.seat === undefined ? "" : seatWord(item.seat, lang);
  if (!item.move) return fill(word("log-hidden", lang), { seat });
  const own = entry?.terms?.[`move:${item.move.kind}`];
  if (own) {
    const values = { ...valuesOf(item.move, item, entry, lang), seat, move: kindLabel(entry, item.move.kind, lang) };
    for (const e of item.events || []) if (e.type !== "move") Object.assign(values, prefixed(e, item, entry, lang));
    return fill(own[lang] ?? own.en, values);
  }
  return fill(word("log-move", lang), { seat, move: moveWords(item.move, entry, lang) });
}

/** An event's fields as `{type_field: words}` too, for a move's sentence that names them. */
function prefixed(e, item, entry, lang) {
  const v = valuesOf(e, item, entry, lang);
  return Object.fromEntries(Object.entries(v).filter(([k]) => k !== "type" && k !== "seat").map(([k, x]) => [`${e.type.replace(/-/g, "_")}_${k}`, x]));
}

/** An event in words, or null when the game has no words for it (or it is the move itself). */
export function eventSentence(e, item, entry, lang = "en") {
  if (!e || e.type === "move") return null;
  const own = entry?.terms?.[`event:${e.type}`];
  if (own) return fill(own[lang] ?? own.en, { seat: item.seat === null || item.seat === undefined ? "" : seatWord(item.seat, lang), ...valuesOf(e, item, entry, lang) });
  if (e.type === "round-over" || e.type === "game-over") {
    const declared = (entry?.phases || []).some((p) => p.phase === e.type);
    return declared ? phaseLabel(entry, e.type, lang) : null;
  }
  return null;
}

/** One log entry: the move's sentence and its events' sentences. */
export function logEntry(item, entry, lang = "en") {
  const said = (item.events || []).map((e) => eventSentence(e, item, entry, lang)).filter(Boolean);
  return [moveSentence(item, entry, lang), ...said].join(". ").replace(/\.\./g, ".");
}

/** The whole log in words, oldest first. */
export function logWords(items, entry, lang = "en") {
  return (items || []).map((item) => logEntry(item, entry, lang));
}

/** What the board marks of the last move: { seat, from, to, steps, box, stack, cards, winner, dice, captured }
 * (each when known). */
export function lastMarks(item) {
  if (!item) return null;
  const m = item.move || {};
  const out = { seat: item.seat ?? null };
  if (typeof m.from === "string") out.from = m.from;
  if (typeof m.to === "string") out.to = m.to;
  if (Array.isArray(m.steps)) out.steps = m.steps;
  if (typeof m.box === "string") out.box = m.box;
  if (typeof m.stack === "number") out.stack = m.stack;
  const cards = [m.card, ...(Array.isArray(m.cards) ? m.cards : []), ...(Array.isArray(m.plays) ? m.plays.flatMap((p) => p.cards) : [])]
    .filter((c) => c !== undefined && c !== null);
  if (cards.length) out.cards = cards.map(String);
  for (const e of item.events || []) {
    if (e.type === "dice" || e.type === "opening-roll") out.dice = e.dice;
    if (typeof e.winner === "number") out.winner = e.winner;
    if (e.type === "trick-won") out.winner = e.seat;
    if (Array.isArray(e.squares)) out.captured = e.squares;
  }
  return out;
}

/** The latest roll in the log: { seat, dice }, or null (a roll this page did not see has no dice). */
export function lastRoll(items) {
  for (let i = (items || []).length - 1; i >= 0; i--) {
    const e = (items[i].events || []).find((x) => (x.type === "dice" || x.type === "opening-roll") && Array.isArray(x.dice));
    if (e) return { seat: e.seat ?? items[i].seat ?? null, dice: e.dice };
  }
  return null;
}
