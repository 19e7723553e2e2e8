// Backgammon: the board from the viewing seat's side (its points 1-24, bar, off), cube, dice, pips.
// Click a checker (or the bar), then a destination (a point, or the tray to bear off); the board shows
// the checkers moved, and when the clicked steps make up one legal play it waits for confirm-move:
// until then the whole turn can be taken back (cancel-move, or `undo-turn`).
import { clickable, h, s } from "../dom.js";
import { section } from "./common.js";

const PW = 36, BAR = 30, X0 = 5, TOP = 18, HEIGHT = 384, R = 15;
const TRAY = X0 + 12 * PW + BAR + 4;
const WIDTH = TRAY + 43;

let pick = { key: null, from: null, segments: [] };

/** The viewer's and the opponent's checkers after the clicked steps (a lone opponent checker hit goes to the bar). */
function afterSteps(mine, theirs, bars, off, me, segments) {
  const m = mine.slice(), o = theirs.slice(), bar = bars.slice(), home = off.slice();
  for (const [a, b] of segments) {
    if (a === 25) bar[me] -= 1; else m[a - 1] -= 1;
    if (b === 0) { home[me] += 1; continue; }
    m[b - 1] += 1;
    if (o[24 - b] === 1) { o[24 - b] = 0; bar[1 - me] += 1; }
  }
  return { m, o, bar, home };
}

function findPath(avail, a, b) {
  if (a === b) return [];
  for (let i = 0; i < avail.length; i++) {
    const [x, y] = avail[i];
    if (x !== a) continue;
    const rest = avail.slice(0, i).concat(avail.slice(i + 1));
    const tail = findPath(rest, y, b);
    if (tail) return [i, ...tail.map((j) => (j >= i ? j + 1 : j))];
  }
  return null;
}

/** The steps of `move` left after the clicked segments, or null if they do not fit it. */
function remaining(move, segments) {
  let avail = move.steps.slice();
  for (const [a, b] of segments) {
    const path = findPath(avail, a, b);
    if (!path || !path.length) return null;
    avail = avail.filter((_, i) => !path.includes(i));
  }
  return avail;
}

function reachable(steps, from) {
  const out = new Set();
  const walk = (avail, at) => {
    avail.forEach(([x, y], i) => {
      if (x !== at) return;
      out.add(y);
      walk(avail.slice(0, i).concat(avail.slice(i + 1)), y);
    });
  };
  walk(steps, from);
  return out;
}

function pointXY(p) {
  // p in 1..24 of the viewer's numbering; returns the column's left x and whether it is on top
  if (p >= 13) return { x: p <= 18 ? X0 + (p - 13) * PW : X0 + 6 * PW + BAR + (p - 19) * PW, top: true };
  return { x: p >= 7 ? X0 + (12 - p) * PW : X0 + 6 * PW + BAR + (6 - p) * PW, top: false };
}

function checkers(cx, top, n, cls) {
  const out = [];
  const shown = Math.min(n, 5);
  for (let k = 0; k < shown; k++) {
    const cy = top ? TOP + R + k * 2 * R : TOP + HEIGHT - R - k * 2 * R;
    out.push(s("circle", { cx, cy, r: R - 1, class: `chk ${cls}` }));
  }
  if (n > 5) {
    const cy = top ? TOP + R + 4 * 2 * R : TOP + HEIGHT - R - 4 * 2 * R;
    out.push(s("text", { x: cx, y: cy + 5, class: `chk-n ${cls}`, "text-anchor": "middle" }, String(n)));
  }
  return out;
}

const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };

function die(x, y, v) {
  return s("g", { class: "die" }, s("rect", { x: x - 14, y: y - 14, width: 28, height: 28, rx: 5 }),
    (PIPS[v] || []).map(([dx, dy]) => s("circle", { cx: x + dx * 7, cy: y + dy * 7, r: 2.6 })));
}

/** Who acts and what for: the seat that must answer a double or a resignation is named, not the turn's owner. */
function toActWords(ctx, st, cube) {
  const who = ctx.toAct.map((i) => ctx.seatWord(i)).join(", ") || "—";
  if (cube.offered) return `${who} ${ctx.t("must-answer-double")}`;
  if (st.resign) return `${who} ${ctx.t("must-answer-resign")}`;
  return `${ctx.t("to-act")}: ${who} · ${ctx.phase ? ctx.phase(st.phase) : st.phase ?? ""}`;
}

export default {
  /** Moves that end the game or may: asked for a confirmation, apart from ordinary moves. */
  ending: ["resign", "accept-resignation", "drop"],

  /** Forget the steps clicked (cancel-move, a new position). */
  reset() { pick = { key: null, from: null, segments: [] }; },

  label(move) {
    return move.notation ?? (move.steps ? move.steps.map(([a, b]) => `${a === 25 ? "bar" : a}/${b === 0 ? "off" : b}`).join(" ") : null);
  },

  render(ctx) {
    const st = ctx.state;
    const me = ctx.seat ?? 0, opp = 1 - me;
    const before = { mine: (st.points || [[], []])[me] || [], theirs: (st.points || [[], []])[opp] || [] };
    const key = `${st.xgid ?? JSON.stringify(st.points)}|${JSON.stringify(st.dice)}|${ctx.version}`;
    if (pick.key !== key) pick = { key, from: null, segments: [] };
    const plays = ctx.moves.filter((m) => m.kind === "move" && Array.isArray(m.steps));
    const moved = afterSteps(before.mine, before.theirs, st.bar || [0, 0], st.off || [0, 0], me, pick.segments);
    const mine = moved.m, theirs = moved.o;
    const fits = plays.map((m) => ({ m, rest: remaining(m, pick.segments) })).filter((x) => x.rest);
    const starts = new Set(fits.flatMap((x) => x.rest.map(([a]) => a)));
    const targets = pick.from === null ? new Set() : new Set(fits.flatMap((x) => [...reachable(x.rest, pick.from)]));
    const colors = st.colors || ["white", "black"];

    const choose = (p) => {
      if (pick.from === null) {
        if (starts.has(p)) { pick.from = p; ctx.redraw(); }
        return;
      }
      if (p === pick.from) { pick.from = null; ctx.redraw(); return; }
      if (!targets.has(p)) { pick.from = starts.has(p) ? p : null; ctx.redraw(); return; }
      pick.segments.push([pick.from, p]);
      pick.from = null;
      const done = plays.find((m) => { const r = remaining(m, pick.segments); return r && r.length === 0; });
      if (done) ctx.choose([done]); // the turn waits for confirm-move: until then it can be taken back
      else ctx.redraw();
    };

    const svg = s("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT + 2 * TOP}`, class: "bg-board", role: "img",
      "aria-label": "backgammon board" });
    svg.append(s("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT + 2 * TOP, class: "bg-frame" }));
    for (let p = 1; p <= 24; p++) {
      const { x, top } = pointXY(p);
      const tip = top ? TOP + HEIGHT * 0.42 : TOP + HEIGHT * 0.58;
      const base = top ? TOP : TOP + HEIGHT;
      const g = s("g", { class: ["point", targets.has(p) && "target", pick.from === p && "from"].filter(Boolean).join(" "),
        "data-point": p });
      g.append(s("polygon", { points: `${x},${base} ${x + PW},${base} ${x + PW / 2},${tip}`, class: p % 2 ? "tri-a" : "tri-b" }));
      g.append(s("rect", { x, y: top ? TOP : TOP + HEIGHT / 2, width: PW, height: HEIGHT / 2, class: "pt-hit" }));
      g.append(s("text", { x: x + PW / 2, y: top ? TOP - 4 : TOP + HEIGHT + 14, class: "pt-num", "text-anchor": "middle" }, String(p)));
      const n = mine[p - 1] || 0, o = theirs[24 - p] || 0;
      if (n) g.append(...checkers(x + PW / 2, top, n, `c${me}`));
      if (o) g.append(...checkers(x + PW / 2, top, o, `c${opp}`));
      if (starts.has(p) || targets.has(p)) clickable(g, () => choose(p), `point ${p}`);
      svg.append(g);
    }
    // the bar: the viewer's checkers wait in its lower half, the opponent's in its upper half
    const barX = X0 + 6 * PW;
    const bar = s("g", { class: ["bar", pick.from === 25 && "from"].filter(Boolean).join(" "), "data-point": 25 });
    bar.append(s("rect", { x: barX, y: TOP, width: BAR, height: HEIGHT, class: "bar-bg" }));
    const bars = moved.bar;
    if (bars[me]) bar.append(s("circle", { cx: barX + BAR / 2, cy: TOP + HEIGHT * 0.7, r: R - 1, class: `chk c${me}` }),
      s("text", { x: barX + BAR / 2, y: TOP + HEIGHT * 0.7 + 5, "text-anchor": "middle", class: `chk-n c${me}` }, String(bars[me])));
    if (bars[opp]) bar.append(s("circle", { cx: barX + BAR / 2, cy: TOP + HEIGHT * 0.3, r: R - 1, class: `chk c${opp}` }),
      s("text", { x: barX + BAR / 2, y: TOP + HEIGHT * 0.3 + 5, "text-anchor": "middle", class: `chk-n c${opp}` }, String(bars[opp])));
    if (starts.has(25)) clickable(bar, () => choose(25), "bar");
    svg.append(bar);
    // the cube: centred when nobody owns it, else on its owner's side
    const cube = st.cube || { value: 1, owner: null };
    const cy = cube.owner === null || cube.owner === undefined ? TOP + HEIGHT / 2 : cube.owner === me ? TOP + HEIGHT - 50 : TOP + 50;
    // the cube is drawn only while it is in play in this game (the state's cube_enabled: the option,
    // and never in the Crawford game)
    const cubeOn = st.cube_enabled === true;
    if (cubeOn) svg.append(s("g", { class: "cube" }, s("rect", { x: barX + 4, y: cy - 14, width: BAR - 8, height: 28, rx: 4 }),
      s("text", { x: barX + BAR / 2, y: cy + 5, "text-anchor": "middle" }, String(cube.value === 1 ? 64 : cube.value))));
    // the tray: borne-off checkers; a destination when bearing off
    const off = moved.home;
    const tray = s("g", { class: ["tray", targets.has(0) && "target"].filter(Boolean).join(" "), "data-point": 0 });
    tray.append(s("rect", { x: TRAY, y: TOP, width: 40, height: HEIGHT, class: "tray-bg" }));
    // the count over its word, each within the tray's width ("0 Zdjęte" on one line ran past the board's edge)
    tray.append(s("text", { x: TRAY + 20, y: TOP + HEIGHT - 24, "text-anchor": "middle", class: "off-n" }, String(off[me])));
    tray.append(s("text", { x: TRAY + 20, y: TOP + HEIGHT - 10, "text-anchor": "middle", class: "off-w" }, ctx.t("off")));
    tray.append(s("text", { x: TRAY + 20, y: TOP + 20, "text-anchor": "middle", class: "off-n" }, String(off[opp])));
    tray.append(s("text", { x: TRAY + 20, y: TOP + 34, "text-anchor": "middle", class: "off-w" }, ctx.t("off")));
    if (targets.has(0)) clickable(tray, () => choose(0), "bear off");
    svg.append(tray);
    // dice in the viewer's right half; clicking them rolls when a roll is legal
    const dice = diceShown(ctx);
    const roll = ctx.moves.find((m) => m.kind === "roll");
    const dg = s("g", { class: "dice", "data-testid": "dice" }, dice.map((v, i) => die(X0 + 6 * PW + BAR + 2 * PW + i * 36, TOP + HEIGHT / 2, v)));
    if (roll) {
      dg.append(s("rect", { x: X0 + 6 * PW + BAR + PW, y: TOP + HEIGHT / 2 - 18, width: 4 * PW, height: 36, class: "roll-hit", rx: 6 }),
        s("text", { x: X0 + 6 * PW + BAR + 3 * PW, y: TOP + HEIGHT / 2 + 5, "text-anchor": "middle", class: "roll-text" }, ctx.t("roll")));
      clickable(dg, () => ctx.play(roll), ctx.t("roll"));
    }
    svg.append(dg);

    const pips = st.pips || [];
    const match = st.match || {};
    const steps = pick.segments.map(([a, b]) => `${a === 25 ? "bar" : a}/${b === 0 ? "off" : b}`).join(" ");
    return h("div", { class: "bg" },
      h("div", { class: "bg-info" },
        h("span", { class: `who c${me}` }, `${ctx.seatWord(me)} (${ctx.t(colors[me])}) · ${ctx.t("pips")} ${pips[me] ?? "?"}`),
        h("span", { class: `who c${opp}` }, `${ctx.seatWord(opp)} (${ctx.t(colors[opp])}) · ${ctx.t("pips")} ${pips[opp] ?? "?"}`),
        h("span", { "data-testid": "bg-to-act", "data-seats": ctx.toAct.join(" ") }, toActWords(ctx, st, cube)),
        match.length ? h("span", {}, `${ctx.t("match")} ${match.length}: ${(match.score || []).join("–")}${match.crawford ? " (Crawford)" : ""}`) : null,
        st.resign ? h("span", { class: "warn" }, `${ctx.moveWords ? ctx.moveWords({ kind: "resign", level: st.resign.level }) : st.resign}`) : null,
        cube.offered ? h("span", { class: "warn" }, `${ctx.t("double")} → ${cube.value * 2}`) : null),
      svg,
      section(ctx.t("picked"), h("code", { class: "picked" }, steps || (pick.from !== null ? `${pick.from === 25 ? ctx.t("bar") : pick.from}/…` : "—")),
        pick.segments.length || pick.from !== null ? h("button", { type: "button", "data-testid": "undo-turn", on: { click: () => ctx.cancel() } }, ctx.t("undo-turn")) : null),
      st.xgid ? h("div", { class: "ids" }, h("code", {}, st.xgid), " ", st.position_id ? h("code", {}, `${ctx.term("position_id")} ${st.position_id}`) : null) : null);
  },
};

/** The dice on the board: the roll being played, else the last roll (the opponent's dice stay on the
 * board until the next roll, DESIGN 4.7), read from the log's events. */
function diceShown(ctx) {
  if (Array.isArray(ctx.state.dice) && ctx.state.dice.length) return ctx.state.dice;
  return ctx.lastRoll?.dice ?? [];
}
