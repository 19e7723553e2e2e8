// Northcott's game: one pawn per seat on each file; the die; the setup's placement.
import { h } from "../dom.js";
import { seatsBar, section } from "./common.js";
import { squareBoard } from "./squares.js";

export default {
  render(ctx) {
    const st = ctx.state;
    const [files, ranks] = String((st.options || {}).board || "8x8").split("x").map(Number);
    const pawns = st.pawns ?? [st.white || [], st.black || []];
    const pieceAt = (f, r) => (pawns[0][f] === r ? "c0" : pawns[1][f] === r ? "c1" : null);
    return h("div", { class: "board-game" },
      seatsBar(ctx, (i) => `${pawns[i].filter((x) => x !== null).length}/${files}`),
      squareBoard(ctx, { files, ranks, pieceAt, key: `${JSON.stringify(pawns)}|${ctx.version}` }),
      h("div", { class: "zones" },
        section(ctx.t("phase"), h("b", {}, st.phase ?? "")),
        section(ctx.t("die"), h("b", { class: "die-text" }, st.die ?? "—"))));
  },
};
