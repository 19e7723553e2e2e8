// The random bot: a seat played by picking one of its legal moves at random. Moves that end a game
// at once (resigning, dropping a double, offering a draw) are picked only when nothing else is legal,
// so a bot plays the game out. Pure: tested in Node.

export const GIVING_UP = new Set(["resign", "drop", "offer-draw", "accept-draw", "accept-resignation"]);

/** One legal move, chosen with `random()` in [0, 1); null when there is none. */
export function botMove(moves, random = Math.random) {
  if (!moves.length) return null;
  const playing = moves.filter((m) => !GIVING_UP.has(m.kind));
  const pool = playing.length ? playing : moves;
  return pool[Math.min(pool.length - 1, Math.floor(random() * pool.length))];
}

/** The first bot seat that is to act, or undefined. */
export function botToAct(controllers, toAct) {
  return toAct.find((i) => controllers[i] === "bot");
}
