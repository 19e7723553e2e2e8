// Kanasta's melds built group by group (DESIGN 4.7, turn 4): each group's points, the opening's total
// against its minimum, and why a composition cannot be legal yet. Pure functions: no DOM, tested in Node
// (tests/js/canasta-melds.test.mjs); the card values and the opening table are the rules' own
// (docs/rules/canasta.md §4, §6), and a test compares them with rules/canasta (tests/js/test_canasta_facts.py).
// The server still judges every move: this only says early, in words, what it would say.

export const WILD = (c) => c === "JK" || String(c).startsWith("2");
const rankOf = (c) => String(c).slice(0, -1);
const isThree = (c) => rankOf(c) === "3";
const isRedThree = (c) => isThree(c) && /[HD]$/.test(c);

const VALUES = { JK: 50, 2: 20, A: 20, K: 10, Q: 10, J: 10, 10: 10, 9: 10, 8: 10, 7: 5, 6: 5, 5: 5, 4: 5 };

/** §4: a card's value (a black three 5, a red three 0: it never stays in a meld or a hand). */
export function cardValue(c) {
  if (c === "JK") return VALUES.JK;
  if (isThree(c)) return isRedThree(c) ? 0 : 5;
  return VALUES[rankOf(c)] ?? 0;
}

/** §6: the opening minimum for a side's score before the hand; "canasta" when a whole canasta is due. */
export function openingMinimum(total, table = "5000") {
  if (table === "10000") {
    for (const [bound, need] of [[0, 15], [1000, 30], [2000, 60], [3000, 90], [5000, 120], [7000, 150]]) if (total < bound) return need;
    return 180;
  }
  if (table === "7500" && total >= 5000) return "canasta";
  if (total < 0) return 15;
  if (total < 1500) return 50;
  if (total < 3000) return 90;
  return 120;
}

/** The most wild cards a meld of `naturals` may hold (§8; `cap3`: at most three, option max_three_wilds). */
const maxWilds = (naturals, cap3) => (cap3 ? Math.min(naturals, 3) : naturals);

/**
 * One group of selected cards: its rank (the one natural rank in it), points, and the first reason it
 * cannot be laid (`{key, args}`, a word of words.js), or null. `existing` is the side's meld of that rank.
 */
export function judgeGroup(cards, melds = [], cap3 = true) {
  const points = cards.reduce((n, c) => n + cardValue(c), 0);
  const naturalRanks = [...new Set(cards.filter((c) => !WILD(c)).map(rankOf))];
  const out = { rank: naturalRanks.length === 1 ? naturalRanks[0] : null, cards, points, problem: null, adds: false };
  if (!cards.length) return out;
  if (naturalRanks.some((r) => r === "3")) { out.problem = { key: "meld-three" }; return out; }
  if (naturalRanks.length > 1) { out.problem = { key: "meld-one-rank", args: { ranks: naturalRanks.join(", ") } }; return out; }
  if (!naturalRanks.length) { out.problem = { key: "meld-naturals" }; return out; }
  const existing = melds.find((m) => String(m.rank) === out.rank);
  out.adds = !!existing;
  const all = existing ? [...existing.cards, ...cards] : cards;
  const wilds = all.filter(WILD).length, naturals = all.length - wilds;
  if (!existing && all.length < 3) out.problem = { key: "meld-few", args: { n: all.length } };
  else if (!existing && naturals < 2) out.problem = { key: "meld-naturals" };
  else if (wilds > maxWilds(naturals, cap3)) out.problem = { key: "meld-wilds", args: { max: maxWilds(naturals, cap3), n: naturals } };
  return out;
}

/**
 * The move being built: the closed `groups` and the `current` selection (lists of cards), for a side
 * with `melds` and `total` points under `options`. Returns each group judged, the points laid, the
 * opening minimum when this is the side's opening (`need`, null otherwise), and the first reason the
 * whole cannot be legal (`problem`, a word key with args), or null.
 * `pile` (when taking the discard pile): the top card, which joins the group of its rank (`using`).
 */
export function compose({ groups = [], current = [], melds = [], total = 0, options = {}, pile = null }) {
  const cap3 = options.max_three_wilds !== false;
  const all = [...groups, ...(current.length ? [current] : [])];
  const at = pile ? usingIndex(all, pile) : -1;
  const judged = all.map((cards, k) => judgeGroup(k === at ? [pile, ...cards] : cards, melds, cap3));
  const points = judged.reduce((n, g) => n + g.points, 0);
  const opening = !melds.length;
  const need = opening ? openingMinimum(total, options.opening_table ?? "5000") : null;
  let problem = judged.find((g) => g.problem)?.problem ?? null;
  const ranks = judged.map((g) => g.rank).filter(Boolean);
  const twice = ranks.find((r, i) => ranks.indexOf(r) !== i);
  if (!problem && twice) problem = { key: "meld-rank-twice", args: { rank: twice } };
  if (!problem && opening && judged.length) {
    if (need === "canasta" && !judged.some((g) => g.cards.length >= 7)) problem = { key: "opening-canasta" };
    else if (need !== "canasta" && points < need) problem = { key: "opening-short", args: { got: points, need } };
  }
  return { groups: judged, points, need, opening, problem };
}

/** The group shown with the pile's top card (`using`): the one of its rank, else none (-1). */
function usingIndex(all, pile) {
  return all.findIndex((cards) => cards.some((c) => !WILD(c) && rankOf(c) === rankOf(pile)));
}

/** The move a built composition makes: `meld` (play phase), or `take-discard` (`pile`: its top card)
 * with the group of the top card's rank as `using` and the others as `melds`. */
export function composedMove(groups, current, { pile = null } = {}) {
  const all = [...groups, ...(current.length ? [current] : [])];
  const group = (cards) => ({ rank: [...new Set(cards.filter((c) => !WILD(c)).map(rankOf))][0], cards });
  if (pile) {
    const at = usingIndex(all, pile);
    return { kind: "take-discard", using: at >= 0 ? all[at] : [], melds: all.filter((_, k) => k !== at).map(group) };
  }
  return { kind: "meld", melds: all.map(group) };
}

/** A reason in words: the word's template with its `{name}` places filled. */
export function reasonWords(problem, word, lang) {
  if (!problem) return "";
  return Object.entries(problem.args || {}).reduce((s, [k, v]) => s.split(`{${k}}`).join(String(v)), word(problem.key, lang));
}
