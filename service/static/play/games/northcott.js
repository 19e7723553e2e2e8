// Northcott's game: one pawn per seat on each file; the die drawn on the board (click it to roll);
// the setup's placement. Click a pawn, then a square it may go to.
// Names read: pawns (else white/black), die, phase, options.board.
import { clickable, h } from "../dom.js";
import { seatsBar, section, target } from "./common.js";
import { squareBoard } from "./squares.js";

const FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

export default {
  render(ctx) {
    const st = ctx.state;
    const [files, ranks] = String((st.options || {}).board || "8x8").split("x").map(Number);
    const pawns = st.pawns;
    const pieceAt = (f, r) => (pawns[0][f] === r ? "c0" : pawns[1][f] === r ? "c1" : null);
    const roll = ctx.moves.find((m) => m.kind === "roll");
    const die = h("span", { class: ["die-face", roll && "can-roll"], "data-testid": "dice" }, st.die ? FACES[st.die] ?? String(st.die) : "–",
      roll ? h("small", {}, ` ${ctx.term("roll")}`) : null);
    if (roll) target(clickable(die, () => ctx.play(roll), ctx.term("roll")), ctx, roll);
    return h("div", { class: "board-game" },
      seatsBar(ctx, (i) => `${pawns[i].filter((x) => x !== null).length}/${files}`),
      squareBoard(ctx, { files, ranks, pieceAt, key: `${JSON.stringify(pawns)}|${ctx.version}` }),
      h("div", { class: "zones" },
        section(ctx.t("phase"), h("b", {}, ctx.phase(st.phase))),
        section(ctx.term("die"), die)));
  },
};
