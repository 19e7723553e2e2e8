// A square board drawn in SVG, shared by Mak-yek and Northcott: click a man, then its destination.
import { clickable, s } from "../dom.js";

const SQ = 44;
let pick = { key: null, from: null };

export const squareName = (file, rank) => `${String.fromCharCode(97 + file)}${rank}`;

/** pieceAt(file, rank) -> "c0" | "c1" | null; ranks count 1..ranks from the bottom. */
export function squareBoard(ctx, { files, ranks, pieceAt, key }) {
  if (pick.key !== key) pick = { key, from: null };
  const moves = ctx.moves.filter((m) => typeof m.from === "string" && typeof m.to === "string");
  const starts = new Set(moves.map((m) => m.from));
  const targets = new Set(moves.filter((m) => m.from === pick.from).map((m) => m.to));
  const svg = s("svg", { viewBox: `0 0 ${files * SQ + 24} ${ranks * SQ + 24}`, class: "sq-board", role: "img", "aria-label": "board" });
  for (let r = ranks; r >= 1; r--) {
    for (let f = 0; f < files; f++) {
      const name = squareName(f, r);
      const x = 20 + f * SQ, y = (ranks - r) * SQ;
      const last = ctx.last?.from === name ? "from" : ctx.last?.to === name ? "to" : null;
      const g = s("g", { "data-testid": targets.has(name) ? "legal-target" : undefined, class: ["sq", (f + r) % 2 ? "light" : "dark", pick.from === name && "from", targets.has(name) && "target",
        last && "last-mark"].filter(Boolean).join(" "), "data-square": name, "data-last": last ?? undefined });
      g.append(s("rect", { x, y, width: SQ, height: SQ }));
      const piece = pieceAt(f, r);
      if (piece) g.append(s("circle", { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.36, class: `man ${piece}` }));
      if (targets.has(name)) g.append(s("circle", { cx: x + SQ / 2, cy: y + SQ / 2, r: 6, class: "dot" }));
      if (starts.has(name) || targets.has(name)) {
        clickable(g, () => {
          if (targets.has(name)) {
            const options = moves.filter((m) => m.from === pick.from && m.to === name);
            pick.from = null;
            ctx.offer(options);
            return;
          }
          pick.from = pick.from === name ? null : name;
          ctx.redraw();
        }, name);
      }
      svg.append(g);
    }
    svg.append(s("text", { x: 8, y: (ranks - r) * SQ + SQ / 2 + 5, class: "coord", "text-anchor": "middle" }, String(r)));
  }
  for (let f = 0; f < files; f++) {
    svg.append(s("text", { x: 20 + f * SQ + SQ / 2, y: ranks * SQ + 17, class: "coord", "text-anchor": "middle" },
      String.fromCharCode(97 + f)));
  }
  return svg;
}
