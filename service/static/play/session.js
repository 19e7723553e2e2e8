// The session client (DESIGN 4.1, 4.2): one game on the server, played from this screen by hot seats,
// random bots and seat links. No DOM: `changed()` is called whenever the page should load again.
// Tested in Node with a fake `api` (tests/js/session.test.js).

import { botMove, botToAct } from "./bots.js";
import { pickSeat } from "./selection.js";

export function playersOf(state, fallback) {
  return state?.players ?? state?.hand_sizes?.length ?? state?.hands?.length ?? fallback ?? 2;
}

export class SessionSource {
  /** api = { get(path, {token}), post(path, body, {token}), Problem }; changed() asks the page to reload. */
  constructor({ id, game, players, tokens, owner, controllers, joinedSeat = null, api, changed = () => {}, botDelay = 250 }) {
    Object.assign(this, { id, game, players, tokens, owner, controllers, joinedSeat, api, changed, botDelay });
    this.version = 0;
    this.current = null;
    this.pinned = null;
    this.peek = null; // { seat, version }: a seat shown while it waits (look), until the next move
    this.botBusy = false;
    this.lastScores = null;
    this.toAct = [];
    this.seenEvents = {}; // version -> the `events` of the move that made it (this page's and its bots' moves)
    this.logCache = null;
  }

  /** What a move's answer said happened, kept for the log in words. */
  noteEvents(answer) {
    if (answer && typeof answer.version === "number" && Array.isArray(answer.events)) this.seenEvents[answer.version] = answer.events;
  }

  /**
   * The moves so far as `seat` may see them (`GET /v1/sessions/{id}/log`), each with the events its
   * answer carried where this page saw it: [{ seat, move, hidden?, events? }], oldest first.
   */
  async history(seat, version) {
    const key = `${seat}|${version}`;
    if (this.logCache?.key !== key) {
      let moves = [];
      try {
        moves = (await this.api.get(`/v1/sessions/${this.id}/log`, { token: this.tokenOf(seat) }))?.moves || [];
      } catch (err) {
        if (!(err instanceof this.api.Problem)) throw err;
      }
      this.logCache = { key, moves };
    }
    return this.logCache.moves.map((m, i) => ({ ...m, events: this.seenEvents[i + 1] ?? null }));
  }

  hotSeats() {
    return this.controllers.map((c, i) => (c === "hot" ? i : null)).filter((i) => i !== null);
  }

  tokenOf(seat) { return seat === null ? this.owner : this.tokens[seat]; }

  /**
   * Show `seat` (a person at this screen) from now until the next move, even while it waits for its
   * turn; then the seat to act is shown again. The page hands the screen over first where hands are hidden.
   */
  look(seat) {
    this.pinned = seat;
    this.current = seat;
    this.peek = { seat, version: this.version };
  }

  /** The view of the seat this screen shows, its legal moves, and the last score report seen. */
  async load() {
    const { get } = this.api;
    const peeking = () => this.peek && this.peek.version === this.version;
    let seat = peeking() ? this.peek.seat : pickSeat(this.controllers, this.toAct, this.pinned, this.current);
    let s = await get(`/v1/sessions/${this.id}`, { token: this.tokenOf(seat) });
    if (!(peeking() && s.version === this.peek.version && seat === this.peek.seat)) {
      this.peek = null; // a move was made since: the seat to act is shown
      const better = pickSeat(this.controllers, s.to_act, this.pinned, this.current);
      if (better !== seat) {
        seat = better;
        s = await get(`/v1/sessions/${this.id}`, { token: this.tokenOf(seat) });
      }
    }
    this.current = seat;
    this.version = s.version;
    this.toAct = s.to_act;
    if (s.scores) this.lastScores = s.scores;
    const lm = seat !== null && s.to_act.includes(seat) && !s.game_over
      ? await get(`/v1/sessions/${this.id}/legal-moves`, { token: this.tokenOf(seat) }) : { moves: [], complete: true };
    const log = await this.history(seat, s.version);
    return {
      state: s.state, seat, version: s.version, toAct: s.to_act, gameOver: s.game_over, roundOver: s.round_over,
      scores: s.scores ?? this.lastScores, outcome: s.outcome, moves: lm.moves, complete: lm.complete,
      players: this.players ?? playersOf(s.state), session: true, log,
    };
  }

  async send(move) {
    const seat = this.current;
    if (seat === null) throw new this.api.Problem({ title: "spectator", code: "play.spectator" }, 0);
    const r = await this.api.post(`/v1/sessions/${this.id}/moves`, { move, version: this.version }, { token: this.tokens[seat] });
    if (r?.scores) this.lastScores = r.scores;
    this.noteEvents(r);
    return r;
  }

  /**
   * A dry run of `move` for the shown seat: null when legal, else the problem the move would get.
   * `POST /v1/sessions/{id}/validate` (same body and token as a move); where the service has no such
   * route yet (404/405 without a game code) the answer is `undefined`: the caller decides locally.
   */
  async validate(move) {
    const seat = this.current;
    if (seat === null) return undefined;
    try {
      const r = await this.api.post(`/v1/sessions/${this.id}/validate`, { move, version: this.version }, { token: this.tokens[seat] });
      return r && r.legal === false ? r : null;
    } catch (err) {
      if (!(err instanceof this.api.Problem)) throw err;
      // no such route yet (the sessions' dry run is being added): the service's own 404/405, not a game's refusal
      if ((err.status === 404 || err.status === 405) && (!err.code || /^(http|request)\./.test(err.code))) return undefined;
      return err.body;
    }
  }

  /** After each load: a bot to act plays after `botDelay` ms. */
  after(data) {
    if (data.gameOver || this.botBusy) return;
    const bot = botToAct(this.controllers, data.toAct);
    if (bot === undefined) return;
    this.botBusy = true;
    setTimeout(() => this.botPlay(bot), this.botDelay);
  }

  async botPlay(seat) {
    const { get, post, Problem } = this.api;
    try {
      const lm = await get(`/v1/sessions/${this.id}/legal-moves`, { token: this.tokens[seat] });
      const move = botMove(lm.moves);
      if (move) {
        const r = await post(`/v1/sessions/${this.id}/moves`, { move, version: this.version }, { token: this.tokens[seat] });
        if (r?.scores) this.lastScores = r.scores;
        this.noteEvents(r);
      }
    } catch (err) {
      if (!(err instanceof Problem)) throw err; // a lost race (409) or a move made elsewhere: look again
    } finally {
      this.botBusy = false;
    }
    this.changed();
  }

  /** Follow the events stream (DESIGN 4.2); fall back to polling every 500 ms when it fails. */
  follow(onMode = () => {}) {
    this.stop?.();
    const token = this.joinedSeat !== null ? this.tokens[this.joinedSeat] : this.owner;
    let stopped = false, timer = null;
    const controller = new AbortController();
    this.stop = () => { stopped = true; controller.abort(); clearTimeout(timer); };
    const seen = (v) => { if (typeof v === "number" && v !== this.version) this.changed(); };
    const poll = async () => {
      if (stopped) return;
      onMode("polling");
      try {
        const s = await this.api.get(`/v1/sessions/${this.id}`, { token });
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
      onMode("events");
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
    onMode("polling");
    stream();
  }
}
