// The playground (DESIGN 4.7): play a session, check a position, fill a score pad.
// This file draws and wires the page; what does not draw lives in modules tested in Node
// (words.js, selection.js, session.js, bots.js, pads.js). Each game's drawing is games/<game>.js.

import { Problem, get, getLanguage, post, setLanguage } from "./api.js";
import { h } from "./dom.js";
import { ownHand } from "./games/common.js";
import { drawing } from "./games/registry.js";
import { t, translatePage } from "./i18n.js";
import { padModel } from "./pads.js";
import { analyse, cardsUsed, guessMove, localProblem, needsHandover, playableCards } from "./selection.js";
import { SessionSource, playersOf } from "./session.js";
import { drawPad } from "./sheet.js";
import { tallyForm } from "./tally.js";
import { lastMarks, lastRoll, logEntry } from "./log.js";
import { anyWord, cardWord, gameName, kindLabel, moveWords, optionWords, phaseLabel, problemWords, rankWord, seatWord, term, word } from "./words.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.hash.slice(1));
const BOT_DELAY = Number(params.get("bot_delay") ?? 250);
const api = { get, post, Problem };

let catalogue = [];
const entries = {}; // game id -> its catalogue entry (GET /v1/games/{game}: labels, phases, terms)
const codes = {};   // language -> {code: {title, description}}

const entryOf = (game) => entries[game] || catalogue.find((g) => g.id === game) || { id: game };

// --------------------------------------------------------------------------- the table

const table = {
  source: null,
  data: null,
  selected: [],   // indices into the shown seat's hand
  groups: [],     // closed groups of a move built group by group (Kanasta's melds): lists of hand indices
  asking: null,   // a game-ending move waiting for its confirmation dialog
  pending: null,  // a move waiting for confirm-move
  choices: [],    // moves a board element stands for (no cards selected)
  problem: null,
  attempt: null,  // the move the problem is about (to ask again in another language)
  shownSeat: null,
  handover: null, // the seat the screen is being handed to
  handoverLog: null, // the log as a spectator reads it, shown behind the hand-over screen
  contracts: {},  // round -> contract, as seen (Kierki, 3-5-8 pads)
  seq: 0,
};

function resetSelection() {
  table.selected = [];
  table.pending = null;
  table.choices = [];
  table.groups = [];
  table.asking = null;
  if (table.source) drawing(table.source.game).reset?.();
}

async function refresh() {
  if (!table.source) return;
  const seq = ++table.seq;
  try {
    const data = await table.source.load();
    if (seq !== table.seq) return;
    if (!table.data || table.data.version !== data.version || table.data.seat !== data.seat) resetSelection();
    const src = table.source;
    if (src instanceof SessionSource && Array.isArray(data.state?.hands)
        && needsHandover(src.controllers, table.shownSeat, data.seat) && !data.gameOver) {
      // behind the screen the table sees what everyone may see: the log as a spectator reads it, not
      // the next seat's (its own hidden moves: 3-5-8's discards, ...)
      const open = await src.history(null, data.version);
      if (seq !== table.seq) return;
      table.handover = data.seat;
      table.handoverLog = open;
    } else if (table.handover === null) {
      table.shownSeat = data.seat;
    }
    if (data.state?.contract && data.state?.round) table.contracts[data.state.round] = data.state.contract;
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
  table.attempt = move;
  try {
    await table.source.send(move);
    table.problem = null;
    table.attempt = null;
    renderProblem();
  } catch (err) {
    showProblem(err);
    return;
  }
  resetSelection();
  await refresh();
  document.body.dataset.lastRoundTripMs = String(Math.round(performance.now() - started));
}

function showProblem(err) {
  table.problem = err instanceof Problem ? { ...err.body, lang: getLanguage() } : { title: String(err.message || err), lang: getLanguage() };
  renderProblem();
  if (!(err instanceof Problem)) console.warn(err); // eslint-disable-line no-console
}

function setProblem(p) {
  table.problem = p;
  renderProblem();
}

function renderProblem() {
  const el = $("problem");
  const p = problemWords(table.problem, codes[getLanguage()], getLanguage());
  el.hidden = !p;
  el.replaceChildren();
  if (!p) { delete el.dataset.code; return; }
  el.dataset.code = p.code || "";
  el.append(...[h("strong", {}, p.title || t("refused")),
    p.detail ? h("p", {}, p.detail) : null,
    developerDetails(p)].filter((x) => x !== null));
}

/** A refusal's code (and the checks' JSON) for developers: folded away, not shown to players. */
function developerDetails(p) {
  if (!p.code && !p.errors) return null;
  return h("details", { class: "dev", "data-testid": "for-developers" }, h("summary", {}, t("for-developers")),
    p.code ? h("code", { "data-testid": "problem-code" }, p.code) : null,
    p.errors ? h("pre", {}, JSON.stringify(p.errors, null, 1)) : null);
}

/** The last move, in words and marked (`last-move`: its seat, from and to, cards, the trick's winner). */
function lastMoveView(data) {
  const item = (data.log || []).at(-1);
  if (!item) return h("p", { class: "last-move none" }, t("no-moves-yet"));
  const marks = lastMarks(item) || {};
  const lang = getLanguage();
  return h("p", { class: "last-move", "data-testid": "last-move", "data-seat": marks.seat ?? undefined,
    "data-from": marks.from, "data-to": marks.to, "data-cards": marks.cards?.join(" "),
    "data-winner": marks.winner ?? undefined }, h("b", {}, `${t("last-move")}: `), logEntry(item, entryOf(table.source.game), lang));
}

/** The log in words (`move-log`, one `move-log-entry` per move, newest last), beside the board. */
function renderLog(data) {
  let box = $("move-log");
  if (!box) {
    box = h("section", { id: "move-log", class: "move-log" }, h("h3", {}, t("move-log")),
      h("ol", { "data-testid": "move-log", "aria-live": "polite" }));
    $("problem").after(box);
  }
  box.querySelector("h3").textContent = t("move-log");
  const lang = getLanguage();
  const entry = entryOf(table.source.game);
  const list = box.querySelector("ol");
  list.replaceChildren(...(data.log || []).map((item) => h("li", { "data-testid": "move-log-entry", "data-seat": item.seat ?? undefined },
    logEntry(item, entry, lang))));
  list.scrollTop = list.scrollHeight;
}

/** Why a selection is refused: the server's dry run when it has one, else the local reason (shown at once). */
async function explainRefusal(picked) {
  const lang = getLanguage();
  const src = table.source;
  setProblem({ ...localProblem(src.game, picked.map((c) => cardWord(c, lang)), lang, word), cards: picked });
  const move = guessMove(table.data.moves, picked, table.data.state);
  if (!move) return;
  table.attempt = move;
  let answer;
  try {
    if (src.validate) answer = await src.validate(move);
    else answer = await statelessValidate(src, move);
  } catch { answer = undefined; }
  if (answer && table.attempt === move) setProblem({ ...answer, lang });
}

async function statelessValidate(src, move) {
  try {
    const r = await post(`/v1/games/${src.game}/validate`, { state: src.state, seat: table.data.seat, move });
    return r && r.legal === false ? r : null;
  } catch (err) {
    return err instanceof Problem ? err.body : undefined;
  }
}

/** Ask again, in the new language, about the move the shown refusal is about. */
async function retranslateProblem() {
  const p = table.problem;
  if (p?.local && p.lang !== getLanguage()) {  // the page's own refusal: its words in the new language
    const lang = getLanguage();
    setProblem({ ...localProblem(p.game, (p.cards || []).map((c) => cardWord(c, lang)), lang, word), cards: p.cards });
    return;
  }
  if (!p || !p.code || p.lang === getLanguage()) { renderProblem(); return; }
  await loadCodes(getLanguage());
  renderProblem();
  const move = table.attempt;
  if (!move || !table.source) return;
  let answer;
  if (table.source.validate) answer = await table.source.validate(move).catch(() => undefined);
  else answer = await statelessValidate(table.source, move);
  if (answer && answer.code === p.code && table.problem === p) setProblem({ ...answer, lang: getLanguage() });
}

async function loadCodes(lang) {
  if (codes[lang]) return;
  try {
    const r = await get("/v1/codes");
    codes[lang] = Object.fromEntries(r.codes.map((c) => [c.code, { title: c.title, detail: c.description }]));
  } catch { /* the problem keeps its own words */ }
}

/**
 * Whether the legal-moves list settles what `cards` can do: a complete list; a game whose incomplete
 * list still holds every single-card move (`singlesListed`, 11 nimmt!) for one card; or a list in
 * which no move takes any card (then no selection can do anything, e.g. Kanasta before drawing).
 */
function covers(game, data, cards) {
  if (data.complete !== false) return true;
  if (game.singlesListed && cards.length === 1) return true;
  return !(data.moves || []).some((m) => cardsUsed(m).length);
}

function ctxFor(data) {
  const lang = getLanguage();
  const entry = entryOf(table.source.game);
  const game = drawing(table.source.game);
  const mine = ownHand({ state: data.state, seat: data.seat }) || [];
  const picked = table.selected.map((i) => mine[i]);
  const groups = table.groups.map((g) => g.map((i) => mine[i]));
  const found = analyse(data.moves || [], picked, data.complete);
  const extra = picked.length && game.fromSelection && data.complete === false ? game.fromSelection(picked, { state: data.state, seat: data.seat, moves: data.moves }) : [];
  const targets = picked.length ? [...found.exact, ...extra.filter((m) => !found.exact.some((x) => JSON.stringify(x) === JSON.stringify(m)))] : table.choices;
  const ctx = {
    game: table.source.game, entry, lang,
    state: data.state, seat: data.seat, players: data.players, toAct: data.toAct || [], version: data.version,
    moves: data.moves || [], selected: table.selected, picked, targets, pending: table.pending,
    groups, groupIndices: table.groups.flat(), addGroup, dropGroup: (k) => { table.groups.splice(k, 1); draw(); },
    playable: playableCards(data.moves || []),
    t: (key) => anyWord(entry, key, lang), term: (name) => term(entry, name, lang), phase: (p) => phaseLabel(entry, p, lang),
    seatWord: (i) => seatWord(i, lang), rankWord: (r) => rankWord(r, lang),
    last: lastMarks((data.log || []).at(-1)), lastRoll: lastRoll(data.log),
    moveWords: (m) => moveWords(m, entry, lang), cardWord: (c) => cardWord(c, lang),
    play, redraw: draw, cancel,
    pickCard(i) {
      if (table.groups.some((g) => g.includes(i))) return; // in a closed group: drop the group to change it
      const k = table.selected.indexOf(i);
      const next = k >= 0 ? table.selected.filter((x) => x !== i) : [...table.selected, i];
      const cards = next.map((j) => mine[j]);
      const a = analyse(data.moves || [], cards, covers(game, data, cards));
      table.pending = null;
      table.choices = [];
      if (!a.ok) { draw(); explainRefusal(cards); return; } // refused at once; the selection stays as it was
      table.selected = next;
      if (table.problem) setProblem(null);
      table.pending = a.exact.length === 1 && a.partial.length === 0 ? a.exact[0] : null;
      draw();
      keepFocus(i, table.pending !== null && data.complete !== false);
    },
    choose(moves) {
      const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
      if (picked.length) {
        const hit = moves.filter((m) => ctx.targets.some((x) => same(x, m)));
        if (hit.length === 1) play(hit[0]);
        else if (hit.length > 1) { table.choices = hit; draw(); }
        return;
      }
      if (table.pending && moves.some((m) => same(m, table.pending))) { play(table.pending); return; }
      if (!moves.length) return;
      table.choices = moves;
      table.pending = moves.length === 1 ? moves[0] : null;
      draw();
    },
    offer(moves) {
      if (moves.length === 1) { play(moves[0]); return; }
      table.choices = moves;
      table.pending = null;
      draw();
    },
  };
  return built(ctx, game);
}

/**
 * A move built in parts (the game's `compose`: Kanasta's melds group by group): the move the closed groups
 * and the selection make when it can be legal (the one target and the pending move), and its words.
 */
function built(ctx, game) {
  ctx.built = game.compose && (ctx.picked.length || ctx.groups.length) ? game.compose(ctx) : null;
  if (!ctx.built) return ctx;
  // with no group closed, the selection may also make a listed move of its own (a discard)
  const listed = ctx.groups.length ? [] : ctx.targets;
  const move = ctx.built.move;
  ctx.targets = [...listed, ...(move && !listed.some((m) => JSON.stringify(m) === JSON.stringify(move)) ? [move] : [])];
  ctx.pending = ctx.targets.length === 1 ? ctx.targets[0] : null;
  if (listed.length) ctx.built.panel.querySelector("[data-testid=meld-reason]")?.remove(); // it can do something else
  return ctx;
}

/** add-meld: the selection becomes a closed group and the next group starts empty. */
function addGroup() {
  if (!table.selected.length) return;
  table.groups.push(table.selected);
  table.selected = [];
  table.pending = null;
  draw();
  document.querySelector("[data-testid=hand-card]:not([disabled])")?.focus();
}

/** Keyboard (DESIGN 4.7): after a card is picked, focus stays on it, or moves to confirm-move when the move is settled. */
function keepFocus(i, settled) {
  const card = document.querySelectorAll("[data-testid=hand-card]")[i];
  const confirm = document.querySelector("[data-testid=confirm-move]:not([disabled])");
  if (settled && confirm) confirm.focus();
  else card?.focus();
  clearOfBar(card);
}

/** On a phone the selection's bar is fixed over the bottom of the screen: the card just picked is scrolled
 * clear of it, so the player sees what they picked (it sat under the bar, the row of cards hidden). */
function clearOfBar(el) {
  const bar = $("selection");
  if (!el || bar.hidden || getComputedStyle(bar).position !== "fixed") return;
  const over = el.getBoundingClientRect().bottom - bar.getBoundingClientRect().top + 8;
  if (over > 0) window.scrollBy(0, over);
}

function draw() {
  const data = table.data;
  const src = table.source;
  $("table").hidden = !data;
  if (!data) return;
  const lang = getLanguage();
  const entry = entryOf(src.game);
  const game = drawing(src.game);
  $("title").textContent = `${gameName(entry, lang)}${src.joinedSeat !== undefined && src.joinedSeat !== null ? ` · ${seatWord(src.joinedSeat, lang)}` : ""}`;
  $("version").textContent = String(data.version);
  $("phase").textContent = data.state?.phase ? phaseLabel(entry, data.state.phase, lang) : "";
  $("to-act").textContent = `${t("to-act")}: ${data.toAct.length ? data.toAct.map((i) => seatWord(i, lang)).join(", ") : "—"}`;
  $("viewing").replaceChildren(...viewingControls(data));

  const board = $("board");
  board.dataset.game = src.game;
  const handover = $("handover");
  handover.hidden = table.handover === null;
  if (table.handover !== null) {
    handover.replaceChildren(
      h("p", { class: "handover-to" }, `${t("handover")} ${seatWord(table.handover, lang)}`),
      h("p", { class: "note" }, t("handover-note")),
      h("button", { type: "button", "data-testid": "handover-ready", class: "primary", on: { click: () => {
        table.shownSeat = table.handover;
        table.handover = null;
        draw();
      } } }, t("handover-ready")));
    const open = { ...data, log: table.handoverLog ?? [] }; // what just happened is public: it stays while the hands hide
    board.replaceChildren(lastMoveView(open));
    $("selection").hidden = true;
    $("ending-box").hidden = true;
    $("confirm-dialog").hidden = true;
    document.body.classList.remove("selecting");
    $("moves").replaceChildren();
    $("moves-note").textContent = "";
    renderSheet(data);
    renderWinners(data);
    renderLog(open);
    handover.querySelector("button").focus();
    return;
  }
  const ctx = ctxFor(data);
  board.replaceChildren(lastMoveView(data), game.render(ctx));
  board.classList.toggle("dim-unplayable", data.complete !== false && (data.moves || []).some((m) => cardsUsed(m).length > 0));
  renderLog(data);
  renderSelection(ctx);

  renderMoves(ctx, game);
  $("moves-note").textContent = data.gameOver ? phaseLabel(entry, "game-over", lang) : !data.moves.length ? (data.seat === null ? t("spectator") : t("not-your-turn"))
    : data.complete === false ? t("incomplete") : "";
  renderSheet(data, ctx);
  renderWinners(data);
  $("raw").textContent = JSON.stringify(data.state, null, 1);
}

/**
 * The legal moves as buttons: ordinary moves first; the game-ending ones (the drawing's `ending` kinds:
 * resign, offer or accept a draw, pass a double) apart, each asking for a confirmation first.
 */
function renderMoves(ctx, game) {
  const ending = new Set(game.ending || []);
  const button = (m) => h("li", {}, h("button", { type: "button", "data-testid": "legal-move",
    class: ["move", ctx.targets.includes(m) && "hint", ending.has(m.kind) && "ending"], "data-move": JSON.stringify(m),
    on: { click: () => (ending.has(m.kind) ? ask(m) : play(m)) } }, ctx.moveWords(m)));
  const moves = table.data.moves;
  $("moves").replaceChildren(...moves.filter((m) => !ending.has(m.kind)).map(button));
  const apart = moves.filter((m) => ending.has(m.kind));
  $("ending-box").hidden = !apart.length;
  $("ending-moves").replaceChildren(...apart.map(button));
  renderAsk(ctx);
}

/** A game-ending move asks first: a dialog with `confirm-dialog-yes` and `confirm-dialog-no`. */
function ask(move) {
  table.asking = move;
  draw();
  document.querySelector("[data-testid=confirm-dialog-no]")?.focus();
}

function renderAsk(ctx) {
  const dialog = $("confirm-dialog");
  const move = table.asking;
  dialog.hidden = !move;
  if (!move) { dialog.replaceChildren(); return; }
  const close = () => { table.asking = null; draw(); };
  dialog.replaceChildren(h("p", { class: "ask-title" }, t("are-you-sure")),
    h("p", { class: "ask-move" }, ctx.moveWords(move)), h("p", { class: "note" }, t("ending-note")),
    h("div", { class: "ask-buttons" },
      h("button", { type: "button", class: "primary", "data-testid": "confirm-dialog-yes",
        on: { click: () => { table.asking = null; play(move); } } }, `${t("confirm-yes")}: ${ctx.moveWords(move)}`),
      h("button", { type: "button", "data-testid": "confirm-dialog-no", on: { click: close } }, t("confirm-no"))));
}

/** The selection bar: what is selected, the moves it can make (`legal-target`), confirm and cancel. */
function renderSelection(ctx) {
  const sel = $("selection");
  const pending = ctx.built ? ctx.pending : table.pending;
  const active = ctx.picked.length > 0 || table.choices.length > 0 || pending || ctx.groups.length > 0;
  sel.hidden = !active;
  document.body.classList.toggle("selecting", !!active);
  if (!active) { sel.replaceChildren(); return; }
  const targets = ctx.targets;
  sel.replaceChildren(...[
    ctx.picked.length && !ctx.built ? h("span", { class: "sel-cards" }, `${t("selected")}: ${ctx.picked.map((c) => ctx.cardWord(c)).join(" ")}`) : null,
    ctx.built ? ctx.built.panel : null,
    targets.length > 1 ? h("span", { class: "note" }, t("choose-target")) : null,
    ...(targets.length > 1 ? targets : []).map((m) => h("button", { type: "button", class: ["sel-move", pending === m && "on"],
      "data-testid": "legal-target", "data-move": JSON.stringify(m), on: { click: () => play(m) } }, ctx.moveWords(m))),
    pending ? h("span", { class: "sel-pending" }, `${t("your-move")} ${ctx.moveWords(pending)}`) : null,
    h("div", { class: "sel-actions" },
      ctx.built ? h("button", { type: "button", "data-testid": "add-meld", disabled: !ctx.built.canAdd, on: { click: addGroup } }, t("add-meld")) : null,
      h("button", { type: "button", class: "primary", "data-testid": "confirm-move", disabled: !pending,
        on: { click: () => { if (pending) play(pending); } } }, t("confirm")),
      h("button", { type: "button", "data-testid": "cancel-move", on: { click: cancel } }, t("cancel")))]
    .filter(Boolean));
}

function cancel() {
  resetSelection();
  if (table.problem?.local) setProblem(null);
  draw();
}

function viewingControls(data) {
  const src = table.source;
  if (!(src instanceof SessionSource)) return [];
  const hot = src.hotSeats();
  if (hot.length < 2) return [`${t("viewing")}: ${data.seat === null ? t("spectator") : seatWord(data.seat, getLanguage())}`];
  return [`${t("viewing")}: `, ...hot.map((i) => h("button", { type: "button", class: ["small-btn", i === data.seat && "on"],
    "data-testid": "view-seat", "aria-pressed": String(i === data.seat),
    on: { click: () => { if (i !== data.seat) { src.look(i); refresh(); } } } }, seatWord(i, getLanguage())))];
}

/** `game-result`: said only when the game is over (DESIGN 4.7); before, the pad says the standing. */
function renderWinners(data) {
  const el = $("winners");
  const winners = data.outcome?.winners ?? data.scores?.winners;
  el.hidden = !data.gameOver;
  el.textContent = data.gameOver ? `${phaseLabel(entryOf(table.source.game), "game-over", getLanguage())} · ${t("winners")}: ${(winners || []).map((w) => seatWord(w, getLanguage())).join(", ") || "—"}` : "";
}

function renderSheet(data, ctx = null) {
  const el = $("score-sheet");
  const lang = getLanguage();
  const model = padModel(table.source.game, { state: data.state, report: data.scores, players: data.players, lang, me: data.seat,
    contracts: table.contracts, entry: entryOf(table.source.game) });
  const game = drawing(table.source.game);
  const cell = ctx && game.padCell ? (row, i) => game.padCell(ctx, row, i) : undefined;
  el.replaceChildren(drawPad(model, lang, { title: gameName(entryOf(table.source.game), lang), over: !!data.gameOver, cell }));
  if (data.scores?.totals) document.body.dataset.scoreTotals = JSON.stringify(data.scores.totals);
}

// --------------------------------------------------------------------------- sessions

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
  openSession(new SessionSource({ id: created.id, game, players, tokens, owner: created.owner_token, controllers,
    api, changed: refresh, botDelay: BOT_DELAY }));
  const links = $("links");
  const windows = created.seats.filter((x) => controllers[x.seat] === "window");
  links.hidden = !windows.length;
  links.replaceChildren(h("b", {}, t("seat-links")), ...windows.map((x) => {
    const href = `${location.pathname}#session=${created.id}&token=${x.token}`;
    return h("a", { href, target: "_blank", rel: "noopener", "data-testid": "seat-link", "data-seat": x.seat }, seatWord(x.seat, getLanguage()));
  }));
  $("setup-box").open = false;
}

function openSession(source) {
  table.source?.stop?.();
  table.source = source;
  table.data = null;
  table.problem = null;
  table.shownSeat = null;
  table.handover = null;
  table.contracts = {};
  resetSelection();
  renderProblem();
  loadEntry(source.game);
  source.follow?.((mode) => { document.body.dataset.follow = mode; });
  refresh();
}

async function loadEntry(game) {
  if (entries[game]) return;
  try { entries[game] = await get(`/v1/games/${game}`); if (table.data) draw(); } catch { /* the list's entry serves */ }
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
      joinedSeat: s.seat, api, changed: refresh, botDelay: BOT_DELAY }));
  } catch (err) {
    $("table").hidden = false;
    showProblem(err);
  }
}

// --------------------------------------------------------------------------- the setup form

function gameOptions(sel, filter = () => true) {
  const keep = sel.value;
  sel.replaceChildren(...catalogue.filter(filter).map((g) => h("option", { value: g.id }, gameName(entryOf(g.id), getLanguage()))));
  if (keep) sel.value = keep;
}

function buildSetup() {
  const g = catalogue.find((x) => x.id === $("game-select").value);
  if (!g) return;
  loadEntry(g.id).then(() => buildOptions(g.id));
  const players = $("players");
  players.min = g.players.min;
  players.max = g.players.max;
  if (Number(players.value) < g.players.min || Number(players.value) > g.players.max) players.value = g.players.min;
  buildSeats();
  buildOptions(g.id);
}

function buildOptions(game) {
  if ($("game-select").value !== game) return;
  const g = entryOf(game);
  const lang = getLanguage();
  const box = $("options");
  const old = Object.fromEntries([...box.querySelectorAll("[data-option]")].map((el) => [el.dataset.option, el.type === "checkbox" ? el.checked : el.value]));
  const sameGame = box.dataset.game === game;
  box.dataset.game = game;
  box.replaceChildren(...Object.entries(g.options || {}).map(([name, o]) => {
    const w = optionWords(name, o, lang);
    const was = sameGame ? old[name] : undefined;
    let input;
    if (o.choices) {
      input = h("select", { "data-option": name }, o.choices.map((c, i) => h("option", { value: String(i),
        selected: was !== undefined ? String(i) === was : c === o.default }, w.choices[i])));
    } else if (o.type === "boolean") {
      input = h("input", { type: "checkbox", "data-option": name, checked: was !== undefined ? was : !!o.default });
    } else if (o.type === "integer") {
      input = h("input", { type: "number", "data-option": name, value: was ?? o.default, min: o.minimum, max: o.maximum });
    } else {
      input = h("input", { type: "text", "data-option": name, value: was ?? (typeof o.default === "string" ? o.default : JSON.stringify(o.default)) });
    }
    return h("label", { class: "option", title: w.help }, h("span", {}, w.label), input, w.help ? h("small", {}, w.help) : null);
  }));
}

function buildSeats() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren(h("legend", {}, t("seats")), ...Array.from({ length: n }, (_, i) => h("label", { class: "seat" },
    h("span", {}, seatWord(i, getLanguage())),
    h("select", { "data-testid": "seat-mode", "data-seat": i },
      ["hot", "bot", "window"].map((v) => h("option", { value: v, selected: (old[i] ?? "hot") === v }, t(`mode-${v}`)))))));
}

function readOptions(game) {
  const g = entryOf(game);
  const out = {};
  for (const el of document.querySelectorAll("#options [data-option]")) {
    const name = el.dataset.option, o = g.options[name];
    if (!o) continue;
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
      players: playersOf(this.state, scores?.totals?.length), log: this.history(),
    };
  }

  /** The moves made from the shown position on: [{ seat, move, events }]. */
  history() {
    return (this.log || []).slice(0, this.index);
  }

  async send(move) {
    const seat = table.data.seat;
    const r = await post(`/v1/games/${this.game}/apply`, { state: this.state, seat, move });
    this.log = [...this.history(), { seat, move, events: r.events }];
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
    this.log = this.moves.map((m) => ({ seat: m.seat, move: m.move || m }));
    this.state = this.states[k];
    this.info = null;
    $("step-at").textContent = `${k} / ${this.moves.length}`;
    const m = this.moves[k - 1];
    $("step-at").title = m ? moveWords(m.move || m, entryOf(this.game), getLanguage()) : "";
    await refresh();
  }
}

/** A position that cannot be checked: its refusal, and nothing left of the position shown before. */
function checkProblem(err) {
  table.source?.stop?.();
  table.source = null;
  table.data = null;
  resetSelection();
  for (const id of ["board", "moves", "ending-moves", "score-sheet", "selection", "record-summary", "confirm-dialog"]) $(id).replaceChildren();
  for (const id of ["version", "phase", "to-act", "title", "viewing", "raw"]) $(id).textContent = "";
  for (const id of ["stepper", "ending-box", "selection", "winners", "confirm-dialog"]) $(id).hidden = true;
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
      h("ul", {}, (r.games || []).map((g) => h("li", {}, `${term(entryOf("backgammon"), "round", getLanguage())} ${g.number}: ${t("winner")} ${g.winner === null || g.winner === undefined ? "—" : seatWord(g.winner, getLanguage())}, +${g.points} → ${(g.score_after || []).join("–")}`))));
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
  table.handover = null;
  resetSelection();
  renderProblem();
  loadEntry(source.game);
  if (load) refresh();
}

function step(delta) {
  const src = table.source;
  if (!(src instanceof RecordSource)) return;
  const to = delta === "first" ? 0 : delta === "last" ? src.moves.length : src.index + delta;
  src.goto(to).catch(showProblem);
}

// --------------------------------------------------------------------------- the score-pad calculator

let schemasOnce = null;
let tallyFor = null;

async function buildTally(force = false) {
  const game = $("tally-game").value;
  if (game === tallyFor && !force) return; // built already (or being built): keep what was typed
  tallyFor = game;
  schemasOnce = schemasOnce || get("/play/schemas.json");
  let schemas;
  try {
    schemas = await schemasOnce;
    await loadEntry(game);
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
  const lang = getLanguage();
  const entry = entryOf(game);
  const built = tallyForm(schemas.schemas, name, t, (field) => term(entry, field, lang));
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
      const l = getLanguage();
      const model = padModel(game, { state: null, report: sc, players: sc.totals?.length, lang: l, entry: entryOf(game) });
      out.replaceChildren(drawPad(model, l, { title: gameName(entryOf(game), l) }));
    } catch (err) {
      const p = err instanceof Problem ? err.body : { title: String(err) };
      out.replaceChildren(h("div", { class: "problem", "data-code": p.code || "" }, h("strong", {}, p.title), " ",
        p.code ? h("code", {}, p.code) : null, p.detail ? h("p", {}, p.detail) : null));
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
  if (catalogue.length) {
    gameOptions($("game-select"));
    gameOptions($("check-game"));
    gameOptions($("tally-game"), (g) => g.tally);
    buildSeats();
    buildOptions($("game-select").value);
    if (tallyFor) buildTally(true);
  }
  if (table.data) draw();
  retranslateProblem();
}

function keys(ev) {
  if (ev.target.closest?.("input, textarea, select")) return;
  if (ev.key === "Escape") {
    if (table.asking) { table.asking = null; draw(); } else cancel();
    ev.preventDefault();
  }
  const pending = document.querySelector("[data-testid=confirm-move]:not([disabled])");
  if (ev.key === "Enter" && pending && !ev.target.closest?.("button, a, [role=button]")) { pending.click(); ev.preventDefault(); }
  if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(ev.key) && ev.target.matches?.("[data-testid=hand-card]")) {
    handArrows(ev);
  }
}

/** Arrow keys move the focus through the hand (Home and End: its ends). */
function handArrows(ev) {
  const cards = [...document.querySelectorAll("[data-testid=hand-card]:not([disabled])")];
  const at = cards.indexOf(ev.target);
  const to = { ArrowLeft: at - 1, ArrowUp: at - 1, ArrowRight: at + 1, ArrowDown: at + 1, Home: 0, End: cards.length - 1 }[ev.key];
  cards[(to + cards.length) % cards.length]?.focus();
  ev.preventDefault();
}

async function main() {
  let lang = "en";
  try { lang = localStorage.getItem("arbiter.lang") || "en"; } catch { /* private mode */ }
  $("language").value = lang;
  setLang(lang);
  $("language").addEventListener("change", (e) => setLang(e.target.value));
  for (const b of document.querySelectorAll("[data-tab]")) b.addEventListener("click", () => showTab(b.dataset.tab));
  document.addEventListener("keydown", keys);

  catalogue = (await get("/v1/games")).games;
  gameOptions($("game-select"));
  gameOptions($("check-game"));
  gameOptions($("tally-game"), (g) => g.tally);
  $("game-select").addEventListener("change", buildSetup);
  $("players").addEventListener("change", buildSeats);
  $("players").addEventListener("input", buildSeats);
  $("setup").addEventListener("submit", startSession);
  $("tally-game").addEventListener("change", () => buildTally());
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
      setProblem({ title: t("bad-json"), detail: String(err.message), lang: getLanguage() });
      return;
    }
    play(move);
  });
  const wanted = params.get("game");
  if (wanted && catalogue.some((g) => g.id === wanted)) $("game-select").value = wanted;
  buildSetup();
  await Promise.all(catalogue.map((g) => loadEntry(g.id)));
  gameOptions($("game-select"));
  gameOptions($("check-game"));
  gameOptions($("tally-game"), (g) => g.tally);
  loadCodes(getLanguage());
  window.addEventListener("hashchange", joinFromHash);
  await joinFromHash();
  document.body.dataset.ready = "1";
}

// for the browser tests: the page's own words and the catalogue's, to check a language both ways
window.__words = { kindLabel, phaseLabel, entries };

main();
