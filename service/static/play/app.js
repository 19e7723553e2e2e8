// The playground (DESIGN 4.7): play a session, check a position, fill a score sheet.
// Everything goes through the public API; each game's drawing lives in games/<game>.js.

import { Problem, get, getLanguage, post, setLanguage } from "./api.js";
import { h } from "./dom.js";
import { cardsUsed, genericLabel, history, holds, ownHand, selectionMoves } from "./games/common.js";
import { drawing } from "./games/registry.js";
import { tallyForm } from "./tally.js";
import { t, translatePage } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.hash.slice(1));
const BOT_DELAY = Number(params.get("bot_delay") ?? 250);

let catalogue = [];

// --------------------------------------------------------------------------- the table

const table = {
  source: null,
  data: null,
  selected: [],
  offer: [],
  problem: null,
  seq: 0,
};

async function refresh() {
  if (!table.source) return;
  const seq = ++table.seq;
  try {
    const data = await table.source.load();
    if (seq !== table.seq) return;
    if (!table.data || table.data.version !== data.version || table.data.seat !== data.seat) {
      table.selected = [];
      table.offer = [];
    }
    table.data = data;
    draw();
    table.source.after?.(data);
  } catch (err) {
    if (seq !== table.seq) return;
    showProblem(err);
  }
}

async function play(move) {
  if (!table.source) return;
  const started = performance.now();
  try {
    await table.source.send(move);
    table.problem = null;
    renderProblem();
  } catch (err) {
    showProblem(err);
    return;
  }
  await refresh();
  document.body.dataset.lastRoundTripMs = String(Math.round(performance.now() - started));
}

function showProblem(err) {
  table.problem = err instanceof Problem ? err.body : { title: String(err.message || err) };
  renderProblem();
  if (!(err instanceof Problem)) console.warn(err); // eslint-disable-line no-console
}

function renderProblem() {
  const el = $("problem");
  const p = table.problem;
  el.hidden = !p;
  el.replaceChildren();
  if (!p) { delete el.dataset.code; return; }
  el.dataset.code = p.code || "";
  el.append(...[h("strong", {}, p.title || t("refused")), " ",
    p.code ? h("code", { "data-testid": "problem-code" }, p.code) : null,
    p.detail ? h("p", {}, p.detail) : null,
    p.errors ? h("pre", {}, JSON.stringify(p.errors, null, 1)) : null,
    p.index !== undefined ? h("p", {}, `index ${p.index}`) : null].filter((x) => x !== null));
}

function ctxFor(data) {
  return {
    game: table.source.game,
    state: data.state,
    seat: data.seat,
    players: data.players,
    toAct: data.toAct || [],
    version: data.version,
    moves: data.moves || [],
    selected: table.selected,
    t,
    play,
    redraw: draw,
    toggle(i) {
      const k = table.selected.indexOf(i);
      if (k >= 0) table.selected.splice(k, 1); else table.selected.push(i);
      draw();
    },
    clear() { table.selected = []; draw(); },
    offer(moves) {
      if (moves.length === 1) { play(moves[0]); return; }
      table.offer = moves;
      draw();
    },
  };
}

function draw() {
  const data = table.data;
  const src = table.source;
  $("table").hidden = !data;
  if (!data) return;
  const game = drawing(src.game);
  const ctx = ctxFor(data);
  const label = (m) => (game.label && game.label(m)) || genericLabel(m);
  $("title").textContent = `${catalogue.find((g) => g.id === src.game)?.name ?? src.game}${src.title ? ` · ${src.title}` : ""}`;
  $("version").textContent = String(data.version);
  $("to-act").textContent = `${t("to-act")}: ${data.toAct.length ? data.toAct.join(", ") : "—"}`;
  $("viewing").replaceChildren(...src.viewingControls ? src.viewingControls(data) : []);

  const board = $("board");
  board.dataset.game = src.game;
  board.replaceChildren(game.render(ctx));

  // the selected cards and the moves they make; or the choices of one board click
  const sel = $("selection");
  const hand = ownHand(ctx) || [];
  const choices = table.offer.length ? table.offer : selectionMoves(ctx, game, hand);
  sel.hidden = !table.selected.length && !table.offer.length;
  sel.replaceChildren(...[
    table.selected.length ? h("span", {}, `${t("selected")}: ${table.selected.map((i) => hand[i]).join(" ")} `) : null,
    ...choices.map((m) => h("button", { type: "button", class: "sel-move", "data-testid": "selection-move", on: { click: () => play(m) } }, label(m))),
    h("button", { type: "button", class: "small-btn", on: { click: () => { table.selected = []; table.offer = []; draw(); } } }, t("clear"))]
    .filter(Boolean));

  const list = $("moves");
  const picked = table.selected.map((i) => hand[i]).map(String);
  list.replaceChildren(...data.moves.map((m) => {
    const text = label(m);
    const uses = picked.length > 0 && holds(cardsUsed(m).map(String), picked);
    return h("li", {}, h("button", { type: "button", "data-testid": "legal-move", class: ["move", uses && "hint"],
      "data-move": JSON.stringify(m), title: JSON.stringify(m), on: { click: () => play(m) } }, text));
  }));
  $("moves-note").textContent = data.gameOver ? t("game-over") : !data.moves.length ? (data.seat === null ? t("spectator") : t("not-your-turn"))
    : data.complete === false ? t("incomplete") : "";
  renderSheet(data);
  renderWinners(data);
  $("raw").textContent = JSON.stringify(data.state, null, 1);
}

function renderWinners(data) {
  const el = $("winners");
  const winners = data.scores?.winners ?? data.outcome?.winners;
  el.hidden = !data.gameOver;
  el.textContent = data.gameOver ? `${t("game-over")} · ${t("winners")}: ${(winners || []).map((w) => `${t("seat")} ${w}`).join(", ") || "—"}` : "";
}

function renderSheet(data) {
  const el = $("score-sheet");
  const rows = history(data.state).filter(Array.isArray);
  const players = data.players;
  const totals = Array.from({ length: players }, (_, i) => rows.reduce((a, r) => a + (Number(r[i]) || 0), 0));
  const head = h("tr", {}, h("th", {}, t("round")), Array.from({ length: players }, (_, i) => h("th", {}, `${t("seat")} ${i}`)));
  const body = rows.map((r, k) => h("tr", {}, h("th", {}, String(k + 1)), r.map((v) => h("td", {}, String(v)))));
  const parts = [h("table", { class: "sheet-table" }, h("thead", {}, head), h("tbody", {}, body,
    h("tr", { class: "total" }, h("th", {}, t("total")), totals.map((v) => h("td", {}, String(v))))))];
  const sc = data.scores;
  if (sc) parts.push(scoresView(sc));
  else if (!rows.length) parts.push(h("p", { class: "note" }, t("no-rounds")));
  el.replaceChildren(...parts);
}

/** A `score` answer: round points, totals, each seat's breakdown, final, winners. */
export function scoresView(sc) {
  const seats = (sc.totals || []).map((_, i) => i);
  const points = sc.points ?? (Array.isArray(sc.round) ? sc.round : null);  // declared games: `points`
  const cell = (v) => (v !== null && typeof v === "object" ? JSON.stringify(v) : String(v ?? ""));
  const keys = [...new Set((sc.breakdown || []).flatMap((b) => (b && typeof b === "object" ? Object.keys(b) : [])))];
  return h("div", { class: "scores" },
    h("table", { class: "sheet-table" },
      h("thead", {}, h("tr", {}, h("th", {}), seats.map((i) => h("th", {}, `${t("seat")} ${i}`)))),
      h("tbody", {},
        points ? h("tr", {}, h("th", {}, t("this-round")), points.map((v) => h("td", {}, cell(v)))) : null,
        keys.map((k) => h("tr", { class: "bd" }, h("th", {}, k), sc.breakdown.map((b) => h("td", {}, cell(b?.[k]))))),
        h("tr", { class: "total" }, h("th", {}, t("total")), sc.totals.map((v) => h("td", { "data-testid": "total" }, cell(v)))))),
    h("p", {}, sc.final ? `${t("final")} · ${t("winners")}: ${(sc.winners || []).join(", ") || "—"}` : t("running")));
}

// --------------------------------------------------------------------------- sessions

function playersOf(state, fallback) {
  return state.players ?? state.hand_sizes?.length ?? state.hands?.length ?? fallback ?? 2;
}

class SessionSource {
  constructor({ id, game, players, tokens, owner, controllers, joinedSeat = null }) {
    Object.assign(this, { id, game, players, tokens, owner, controllers, joinedSeat });
    this.version = 0;
    this.current = null;
    this.pinned = null;
    this.botBusy = false;
    this.lastScores = null;
    this.title = joinedSeat !== null ? `${t("seat")} ${joinedSeat}` : t("session");
  }

  hotSeats() {
    return this.controllers.map((c, i) => (c === "hot" ? i : null)).filter((i) => i !== null);
  }

  pick(toAct) {
    const hot = this.hotSeats();
    if (!hot.length) return null;
    const acting = hot.filter((i) => toAct.includes(i));
    if (this.pinned !== null && acting.includes(this.pinned)) return this.pinned;
    if (acting.includes(this.current)) return this.current;
    if (acting.length) return acting[0];
    return hot.includes(this.current) ? this.current : hot[0];
  }

  tokenOf(seat) { return seat === null ? this.owner : this.tokens[seat]; }

  async load() {
    let seat = this.pick(this.toAct || []);
    let s = await get(`/v1/sessions/${this.id}`, { token: this.tokenOf(seat) });
    const better = this.pick(s.to_act);
    if (better !== seat) {
      seat = better;
      s = await get(`/v1/sessions/${this.id}`, { token: this.tokenOf(seat) });
    }
    this.current = seat;
    this.version = s.version;
    this.toAct = s.to_act;
    if (s.scores) this.lastScores = s.scores;
    const lm = seat !== null && s.to_act.includes(seat) && !s.game_over
      ? await get(`/v1/sessions/${this.id}/legal-moves`, { token: this.tokenOf(seat) }) : { moves: [], complete: true };
    return {
      state: s.state, seat, version: s.version, toAct: s.to_act, gameOver: s.game_over, roundOver: s.round_over,
      scores: s.scores ?? this.lastScores, outcome: s.outcome, moves: lm.moves, complete: lm.complete,
      players: this.players ?? playersOf(s.state),
    };
  }

  async send(move) {
    const seat = this.current;
    if (seat === null) throw new Problem({ title: t("spectator") }, 0);
    await post(`/v1/sessions/${this.id}/moves`, { move, version: this.version }, { token: this.tokens[seat] });
  }

  after(data) {
    if (data.gameOver || this.botBusy) return;
    const bot = data.toAct.find((i) => this.controllers[i] === "bot");
    if (bot === undefined) return;
    this.botBusy = true;
    setTimeout(() => this.botMove(bot), BOT_DELAY);
  }

  async botMove(seat) {
    try {
      const lm = await get(`/v1/sessions/${this.id}/legal-moves`, { token: this.tokens[seat] });
      if (lm.moves.length) {
        const move = lm.moves[Math.floor(Math.random() * lm.moves.length)];
        await post(`/v1/sessions/${this.id}/moves`, { move, version: this.version }, { token: this.tokens[seat] });
      }
    } catch (err) {
      if (!(err instanceof Problem)) throw err; // a lost race (409) or a move made elsewhere: look again
    } finally {
      this.botBusy = false;
    }
    refresh();
  }

  viewingControls(data) {
    const hot = this.hotSeats();
    if (hot.length < 2) return [`${t("viewing")}: ${data.seat === null ? t("spectator") : `${t("seat")} ${data.seat}`}`];
    return [`${t("viewing")}: `, ...hot.map((i) => h("button", { type: "button", class: ["small-btn", i === data.seat && "on"],
      "data-testid": "view-seat", "aria-pressed": String(i === data.seat),
      on: { click: () => { this.pinned = i; this.current = i; refresh(); } } }, `${t("seat")} ${i}`))];
  }

  /** Follow the events stream (DESIGN 4.2); fall back to polling every 500 ms when it fails. */
  follow() {
    this.stop?.();
    const token = this.joinedSeat !== null ? this.tokens[this.joinedSeat] : this.owner;
    let stopped = false, timer = null;
    const controller = new AbortController();
    this.stop = () => { stopped = true; controller.abort(); clearTimeout(timer); };
    const seen = (v) => { if (typeof v === "number" && v !== this.version) refresh(); };
    const poll = async () => {
      if (stopped) return;
      try {
        const s = await get(`/v1/sessions/${this.id}`, { token });
        seen(s.version);
      } catch { /* the next poll tries again */ }
      timer = setTimeout(poll, 500);
    };
    const stream = async () => {
      let res;
      try {
        res = await fetch(`/v1/sessions/${this.id}/events?access_token=${encodeURIComponent(token)}`,
          { headers: { Accept: "text/event-stream" }, signal: controller.signal });
      } catch { if (!stopped) poll(); return; }
      if (!res.ok || !(res.headers.get("Content-Type") || "").startsWith("text/event-stream")) { poll(); return; }
      document.body.dataset.follow = "events";
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const dataLines = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart());
            if (!dataLines.length) continue;
            try { seen(JSON.parse(dataLines.join("\n")).version); } catch { /* not JSON: ignore */ }
          }
        }
      } catch { /* aborted or dropped */ }
      if (!stopped) timer = setTimeout(stream, 1000);
    };
    document.body.dataset.follow = "polling";
    stream();
  }
}

async function startSession(ev) {
  ev.preventDefault();
  const game = $("game-select").value;
  const players = Number($("players").value);
  const body = { game, players, options: readOptions(game) };
  const seed = $("seed").value.trim();
  if (seed) body.seed = /^-?\d+$/.test(seed) ? Number(seed) : seed;
  const controllers = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  let created;
  try {
    created = await post("/v1/sessions", body);
  } catch (err) {
    table.source = null;
    $("table").hidden = false;
    showProblem(err);
    return;
  }
  const tokens = Object.fromEntries(created.seats.map((x) => [x.seat, x.token]));
  openSession(new SessionSource({ id: created.id, game, players, tokens, owner: created.owner_token, controllers }));
  const links = $("links");
  const windows = created.seats.filter((x) => controllers[x.seat] === "window");
  links.hidden = !windows.length;
  links.replaceChildren(h("b", {}, t("seat-links")), ...windows.map((x) => {
    const href = `${location.pathname}#session=${created.id}&token=${x.token}`;
    return h("a", { href, target: "_blank", rel: "noopener", "data-testid": "seat-link", "data-seat": x.seat }, `${t("seat")} ${x.seat}`);
  }));
}

function openSession(source) {
  table.source?.stop?.();
  table.source = source;
  table.data = null;
  table.problem = null;
  renderProblem();
  source.follow();
  refresh();
}

async function joinFromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  const id = p.get("session"), token = p.get("token");
  if (!id || !token) return;
  try {
    const s = await get(`/v1/sessions/${id}`, { token });
    const players = playersOf(s.state);
    const controllers = Array.from({ length: players }, (_, i) => (i === s.seat ? "hot" : "remote"));
    $("setup").hidden = true;
    openSession(new SessionSource({ id, game: s.game, players, tokens: { [s.seat]: token }, owner: token, controllers,
      joinedSeat: s.seat }));
  } catch (err) {
    $("table").hidden = false;
    showProblem(err);
  }
}

// --------------------------------------------------------------------------- the setup form

function gameOptions(sel) {
  sel.replaceChildren(...catalogue.map((g) => h("option", { value: g.id }, g.name)));
}

function buildSetup() {
  const g = catalogue.find((x) => x.id === $("game-select").value);
  if (!g) return;
  const players = $("players");
  players.min = g.players.min;
  players.max = g.players.max;
  if (Number(players.value) < g.players.min || Number(players.value) > g.players.max) players.value = g.players.min;
  buildSeats();
  const box = $("options");
  box.replaceChildren(...Object.entries(g.options).map(([name, o]) => {
    let input;
    if (o.choices) {
      input = h("select", { "data-option": name }, o.choices.map((c, i) => h("option", { value: String(i), selected: c === o.default }, String(c))));
    } else if (o.type === "boolean") {
      input = h("input", { type: "checkbox", "data-option": name, checked: !!o.default });
    } else if (o.type === "integer") {
      input = h("input", { type: "number", "data-option": name, value: o.default, min: o.minimum, max: o.maximum });
    } else {
      input = h("input", { type: "text", "data-option": name, value: typeof o.default === "string" ? o.default : JSON.stringify(o.default) });
    }
    return h("label", { class: "option", title: o.description }, h("span", {}, name), input, h("small", {}, o.description));
  }));
}

function buildSeats() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren(h("legend", {}, t("seats")), ...Array.from({ length: n }, (_, i) => h("label", { class: "seat" },
    h("span", {}, `${t("seat")} ${i}`),
    h("select", { "data-testid": "seat-mode", "data-seat": i },
      ["hot", "bot", "window"].map((v) => h("option", { value: v, selected: (old[i] ?? "hot") === v }, t(`mode-${v}`)))))));
}

function readOptions(game) {
  const g = catalogue.find((x) => x.id === game);
  const out = {};
  for (const el of document.querySelectorAll("#options [data-option]")) {
    const name = el.dataset.option, o = g.options[name];
    let v;
    if (o.choices) v = o.choices[Number(el.value)];
    else if (o.type === "boolean") v = el.checked;
    else if (o.type === "integer") v = Number(el.value);
    else if (o.type === "object") { try { v = JSON.parse(el.value); } catch { v = el.value; } } else v = el.value;
    if (JSON.stringify(v) !== JSON.stringify(o.default)) out[name] = v;
  }
  return out;
}

// --------------------------------------------------------------------------- check a position

class CheckSource {
  constructor(game, state, title) {
    Object.assign(this, { game, state, title });
    this.states = [state];
    this.index = 0;
    this.record = null;
  }

  async load() {
    const lm = await post(`/v1/games/${this.game}/legal-moves`, { state: this.state, seat: null });
    let scores = null;
    try { scores = await post(`/v1/games/${this.game}/score`, { state: this.state }); } catch { scores = null; }
    const info = this.info || {};
    return {
      state: this.state, seat: lm.seat, version: this.index, toAct: info.to_act ?? (lm.seat === null ? [] : [lm.seat]),
      moves: lm.moves, complete: lm.complete, scores, gameOver: info.game_over ?? !!scores?.final, outcome: info.outcome,
      players: playersOf(this.state, scores?.totals?.length),
    };
  }

  async send(move) {
    const r = await post(`/v1/games/${this.game}/apply`, { state: this.state, seat: table.data.seat, move });
    this.setState(r.state, r);
    this.states = this.states.slice(0, this.index);
    this.states.push(r.state);
  }

  setState(state, info) {
    this.state = state;
    this.info = info;
    this.index = this.states.indexOf(state) >= 0 ? this.states.indexOf(state) : this.states.length;
  }
}

/** A recorded match: the start, and each of its moves applied on demand through /apply. */
class RecordSource extends CheckSource {
  constructor(game, start, moves, title) {
    super(game, start, title);
    this.moves = moves;
  }

  async goto(k) {
    k = Math.max(0, Math.min(k, this.moves.length));
    while (this.states.length <= k) {
      const i = this.states.length - 1;
      const { seat, move } = this.moves[i];
      let prev = this.states[i];
      let r;
      try {
        r = await post(`/v1/games/${this.game}/apply`, { state: prev, seat, move });
      } catch (err) {
        // a money-play record starts each game afresh: try it from a new board
        if (!(err instanceof Problem) || move.kind === "next-round") throw err;
        prev = (await post(`/v1/games/${this.game}/new`, { players: 2, seed: 0, options: this.options })).state;
        r = await post(`/v1/games/${this.game}/apply`, { state: prev, seat, move });
      }
      this.states.push(r.state);
    }
    this.index = k;
    this.state = this.states[k];
    this.info = null;
    $("step-at").textContent = `${k} / ${this.moves.length}`;
    const m = this.moves[k - 1];
    $("step-at").title = m ? JSON.stringify(m) : "";
    await refresh();
  }
}

function checkProblem(err) {
  table.source = table.source || { game: $("check-game").value, load: async () => table.data };
  $("table").hidden = false;
  showProblem(err);
}

async function checkState() {
  const game = $("check-game").value;
  let state;
  try {
    const parsed = JSON.parse($("check-input").value);
    state = parsed.state && typeof parsed.state === "object" ? parsed.state : parsed;
  } catch (err) {
    checkProblem(new Problem({ title: t("bad-json"), detail: String(err.message) }, 0));
    return;
  }
  $("stepper").hidden = true;
  $("record-summary").replaceChildren();
  openChecked(new CheckSource(game, state, t("checked")));
}

async function checkXgid() {
  $("check-game").value = "backgammon";
  const xgid = $("check-input").value.trim().split(/\s+/)[0];
  try {
    const r = await post("/v1/games/backgammon/new", { players: 2, setup: { xgid } });
    $("stepper").hidden = true;
    $("record-summary").replaceChildren();
    const src = new CheckSource("backgammon", r.state, "XGID");
    src.info = r;
    openChecked(src);
  } catch (err) {
    checkProblem(err);
  }
}

async function checkMat() {
  $("check-game").value = "backgammon";
  try {
    const r = await post("/v1/games/backgammon/replay", { record: { format: "mat", text: $("check-input").value } });
    const summary = $("record-summary");
    summary.replaceChildren(h("p", {}, `${(r.match?.players || []).join(" – ")} · ${t("match")} ${r.match?.length ?? 0} · ${(r.match?.score || []).join("–")}`),
      h("ul", {}, (r.games || []).map((g) => h("li", {}, `${t("game")} ${g.number}: ${t("winner")} ${t("seat")} ${g.winner ?? "—"}, +${g.points}${g.resigned ? " (resigned)" : ""} → ${(g.score_after || []).join("–")}`))));
    if (Array.isArray(r.moves) && r.moves.length) {
      const start = (await post("/v1/games/backgammon/new", { players: 2, seed: 0, options: r.options })).state;
      const src = new RecordSource("backgammon", start, r.moves, ".mat");
      src.options = r.options;
      openChecked(src, false);
      $("stepper").hidden = false;
      await src.goto(r.moves.length);
    } else {
      $("stepper").hidden = true;
      const src = new CheckSource("backgammon", r.state, `.mat · ${r.applied} ${t("moves")}`);
      src.info = r;
      openChecked(src);
    }
  } catch (err) {
    checkProblem(err);
  }
}

function openChecked(source, load = true) {
  table.source?.stop?.();
  table.source = source;
  table.data = null;
  table.problem = null;
  renderProblem();
  if (load) refresh();
}

function step(delta) {
  const src = table.source;
  if (!(src instanceof RecordSource)) return;
  const to = delta === "first" ? 0 : delta === "last" ? src.moves.length : src.index + delta;
  src.goto(to).catch(showProblem);
}

// --------------------------------------------------------------------------- score sheets

let schemasOnce = null;
let tallyFor = null;

async function buildTally() {
  const game = $("tally-game").value;
  if (game === tallyFor) return; // built already (or being built): keep what was typed
  tallyFor = game;
  schemasOnce = schemasOnce || get("/play/schemas.json");
  let schemas;
  try {
    schemas = await schemasOnce;
  } catch (err) {
    schemasOnce = null;
    tallyFor = null;
    $("tally-result").replaceChildren(h("div", { class: "problem" }, String(err.message)));
    return;
  }
  if (game !== tallyFor) return; // another game was picked meanwhile
  const name = schemas.tallies[game];
  const form = $("tally-form");
  $("tally-result").replaceChildren();
  if (!name) { form.replaceChildren(h("p", {}, t("no-tally"))); return; }
  const built = tallyForm(schemas.schemas, name, t);
  form.replaceChildren(built.el, h("button", { type: "submit", "data-testid": "tally-compute" }, t("compute")));
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const out = $("tally-result");
    let tally;
    try {
      tally = built.value();
      window.__lastTally = tally; // what was sent, for the browser tests and the curious
    } catch (err) {
      out.replaceChildren(h("div", { class: "problem" }, String(err.message)));
      return;
    }
    try {
      const sc = await post(`/v1/games/${game}/score`, { tally });
      out.replaceChildren(scoresView(sc));
    } catch (err) {
      const p = err instanceof Problem ? err.body : { title: String(err) };
      out.replaceChildren(h("div", { class: "problem", "data-code": p.code || "" }, h("strong", {}, p.title), " ",
        p.code ? h("code", {}, p.code) : null, p.detail ? h("p", {}, p.detail) : null,
        p.errors ? h("pre", {}, JSON.stringify(p.errors, null, 1)) : null));
    }
  };
}

// --------------------------------------------------------------------------- page

function showTab(name) {
  for (const b of document.querySelectorAll("[data-tab]")) b.setAttribute("aria-selected", String(b.dataset.tab === name));
  for (const sec of ["play", "check", "sheets"]) $(`tab-${sec}`).hidden = sec !== name;
  if (name === "sheets") { $("table").hidden = true; buildTally(); } else if (table.data) $("table").hidden = false;
}

function setLang(lang) {
  setLanguage(lang);
  document.documentElement.lang = lang;
  try { localStorage.setItem("arbiter.lang", lang); } catch { /* private mode */ }
  translatePage();
  if (table.data) draw();
}

async function main() {
  let lang = "en";
  try { lang = localStorage.getItem("arbiter.lang") || "en"; } catch { /* private mode */ }
  $("language").value = lang;
  setLang(lang);
  $("language").addEventListener("change", (e) => setLang(e.target.value));
  for (const b of document.querySelectorAll("[data-tab]")) b.addEventListener("click", () => showTab(b.dataset.tab));

  catalogue = (await get("/v1/games")).games;
  gameOptions($("game-select"));
  gameOptions($("check-game"));
  $("tally-game").replaceChildren(...catalogue.filter((g) => g.tally).map((g) => h("option", { value: g.id }, g.name)));
  $("game-select").addEventListener("change", buildSetup);
  $("players").addEventListener("change", buildSeats);
  $("players").addEventListener("input", buildSeats);
  $("setup").addEventListener("submit", startSession);
  $("tally-game").addEventListener("change", buildTally);
  $("check-state").addEventListener("click", checkState);
  $("check-xgid").addEventListener("click", checkXgid);
  $("check-mat").addEventListener("click", checkMat);
  $("step-first").addEventListener("click", () => step("first"));
  $("step-prev").addEventListener("click", () => step(-1));
  $("step-next").addEventListener("click", () => step(1));
  $("step-last").addEventListener("click", () => step("last"));
  $("submit-move").addEventListener("click", () => {
    let move;
    try {
      move = JSON.parse($("move-input").value);
    } catch (err) {
      table.problem = { title: t("bad-json"), detail: String(err.message) };
      renderProblem();
      return;
    }
    play(move);
  });
  const wanted = params.get("game");
  if (wanted && catalogue.some((g) => g.id === wanted)) $("game-select").value = wanted;
  buildSetup();
  window.addEventListener("hashchange", joinFromHash);
  await joinFromHash();
  document.body.dataset.ready = "1";
}

main();
