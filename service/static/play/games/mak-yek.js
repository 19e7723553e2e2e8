// Mak-yek: the 8x8 board (row 0 of `board` is rank 8), the men of each seat, draw offers.
import { h } from "../dom.js";
import { seatsBar, section } from "./common.js";
import { squareBoard } from "./squares.js";

export default {
  /** Moves that end the game or may: asked for a confirmation, apart from ordinary moves. */
  ending: ["offer-draw", "accept-draw"],

  render(ctx) {
    const st = ctx.state;
    const rows = st.board || [];
    const ranks = rows.length || 8, files = (rows[0] || "........").length;
    const count = (ch) => rows.join("").split(ch).length - 1;
    const pieceAt = (f, r) => {
      const ch = (rows[ranks - r] || "")[f];
      return ch === "W" ? "c0" : ch === "B" ? "c1" : null;
    };
    return h("div", { class: "board-game" },
      seatsBar(ctx, (i) => h("span", { class: "men-count" }, h("span", { class: `man-badge c${i}`, "aria-hidden": "true" }), ` ${count(i === 0 ? "W" : "B")}`)),
      squareBoard(ctx, { files, ranks, pieceAt, key: `${rows.join("/")}|${ctx.version}` }),
      h("div", { class: "zones" },
        section(ctx.term("plies_since_capture"), h("b", {}, st.plies_since_capture ?? 0)),
        st.draw_offer !== null && st.draw_offer !== undefined ? section(ctx.term("draw_offer"), h("b", {}, ctx.seatWord(st.draw_offer))) : null));
  },
};
