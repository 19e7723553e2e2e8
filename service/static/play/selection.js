// Select then act (DESIGN 4.7): what a selection of own cards can do, computed from the legal-moves
// list alone. Pure functions: no DOM, no network; tested in Node (tests/js/selection.test.js).

/** Every card a move takes from the hand, in order (card, cards, using, plays[].cards, melds[].cards). */
export function cardsUsed(move) {
  const out = [];
  if (move.card !== undefined && move.card !== null) out.push(move.card);
  for (const key of ["cards", "using"]) if (Array.isArray(move[key])) out.push(...move[key]);
  for (const key of ["plays", "melds"]) {
    if (Array.isArray(move[key])) for (const part of move[key]) if (Array.isArray(part.cards)) out.push(...part.cards);
  }
  return out;
}

function counts(list) {
  const m = new Map();
  for (const x of list) m.set(String(x), (m.get(String(x)) || 0) + 1);
  return m;
}

/** Same multiset of cards. */
export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const ca = counts(a), cb = counts(b);
  for (const [k, n] of ca) if (cb.get(k) !== n) return false;
  return true;
}

/** `a` holds every card of `b` (with multiplicity). */
export function holds(a, b) {
  const ca = counts(a);
  for (const [k, n] of counts(b)) if ((ca.get(k) || 0) < n) return false;
  return true;
}

/**
 * What the selected cards can do: `exact` moves use exactly these cards (the targets of the selection),
 * `partial` moves use these cards and more (keep selecting), `ok` is false when no legal move uses them.
 * With an incomplete list (`complete: false`) a selection is never refused here: the server decides.
 */
export function analyse(moves, picked, complete = true) {
  const p = picked.map(String);
  if (!p.length) return { exact: [], partial: [], ok: true };
  const exact = moves.filter((m) => sameCards(cardsUsed(m).map(String), p));
  const partial = moves.filter((m) => !exact.includes(m) && holds(cardsUsed(m).map(String), p));
  return { exact, partial, ok: exact.length > 0 || partial.length > 0 || complete === false };
}

/** The cards of the hand that some legal move uses (to mark them playable). */
export function playableCards(moves) {
  return new Set(moves.flatMap((m) => cardsUsed(m).map(String)));
}

/**
 * The move a refused selection would be, to ask the server why it is refused (a dry run):
 * the kind that legal moves of one card use most (`{kind, card}`), else the most common several-card
 * shape with these cards. `null` when no legal move takes cards at all.
 */
export function guessMove(moves, picked, state = {}) {
  const single = moves.filter((m) => m.card !== undefined && Object.keys(m).length === 2);
  if (picked.length === 1 && single.length) return { kind: mostCommon(single.map((m) => m.kind)), card: picked[0] };
  const plays = moves.find((m) => Array.isArray(m.plays));
  if (plays) return { kind: plays.kind, plays: [{ stack: plays.plays[0].stack, cards: picked }] };
  const withCards = moves.find((m) => Array.isArray(m.cards));
  if (withCards) return { ...withCards, cards: picked };
  if (single.length) return { kind: mostCommon(single.map((m) => m.kind)), card: picked[0] };
  if (state.phase === "draw") return null;
  return null;
}

function mostCommon(list) {
  const c = counts(list);
  return [...c.entries()].sort((a, b) => b[1] - a[1])[0][0];
}

/** The page's own refusal when no server can say why (no dry run yet): a stable code of the playground's, both languages. */
export function localProblem(game, picked, lang, words) {
  return { code: "play.selection-not-legal", game, title: words("no-legal-code", lang), detail: `${words("no-legal", lang)} (${picked.join(" ")})`,
    local: true, lang };
}

/**
 * Which hot seat the screen shows: a pinned seat if it acts, the current one if it acts, the first
 * acting hot seat, else the current (or first) hot seat; null when no seat is played here.
 */
export function pickSeat(controllers, toAct, pinned = null, current = null) {
  const hot = controllers.map((c, i) => (c === "hot" ? i : null)).filter((i) => i !== null);
  if (!hot.length) return null;
  const acting = hot.filter((i) => toAct.includes(i));
  if (pinned !== null && acting.includes(pinned)) return pinned;
  if (acting.includes(current)) return current;
  if (acting.length) return acting[0];
  return hot.includes(current) ? current : hot[0];
}

/**
 * The hand-over screen is due: two or more people share the screen and it moves to another of them, or
 * shows a hand for the first time (`shown` null: the game starts behind the screen too).
 */
export function needsHandover(controllers, shown, next) {
  const hot = controllers.filter((c) => c === "hot").length;
  return hot >= 2 && next !== null && shown !== next;
}
