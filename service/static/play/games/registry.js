// One registry: game id -> the module that draws it (static/play/games/<game>.js).
import backgammon from "./backgammon.js";
import canasta from "./canasta.js";
import elevenNimmt from "./eleven-nimmt.js";
import kierki from "./kierki.js";
import kniffel from "./kniffel-cards.js";
import makYek from "./mak-yek.js";
import northcott from "./northcott.js";
import takeThat from "./take-that.js";
import threeFiveEight from "./3-5-8.js";

export const GAMES = {
  "11-nimmt": elevenNimmt,
  "kniffel-cards": kniffel,
  "take-that": takeThat,
  "3-5-8": threeFiveEight,
  kierki,
  canasta,
  backgammon,
  "mak-yek": makYek,
  northcott,
};

/** The drawing of a game; a game without one is shown as its JSON. */
export function drawing(game) {
  return GAMES[game] || { render: (ctx) => { const pre = document.createElement("pre"); pre.textContent = JSON.stringify(ctx.state, null, 1); return pre; } };
}
