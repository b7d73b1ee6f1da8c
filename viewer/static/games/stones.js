// Stones: the board with its stones (#) and the cells they block (x); the stone just placed
// is ringed in the colour of the player who placed it.

import { replaceContent, svg, svgRoot } from "botleague-viewer/dom.js";
import { SEAT_COLOURS, axisLabels, turnText } from "botleague-viewer/games/common.js";

const CELL = 60;
const MARGIN = 28;

export function draw(target, frame) {
  const view = frame.view;
  const n = view.size;
  const size = MARGIN + n * CELL + 8;
  const changed = new Set((frame.changed || []).map(([r, c]) => `${r},${c}`));
  const mover = frame.move ? frame.move.seat : null;
  const root = svgRoot(size, size, { "aria-label": `Stones board ${n} by ${n}` });
  root.append(...axisLabels({ rows: n, cols: n, cell: CELL, left: MARGIN, top: MARGIN }));
  view.board.forEach((line, r) => [...line].forEach((ch, c) => {
    const x = MARGIN + c * CELL;
    const y = MARGIN + r * CELL;
    const fresh = changed.has(`${r},${c}`);
    const cell = svg("g", { class: "cell", "data-row": r, "data-col": c, "data-cell": ch,
      "data-last": fresh && ch === "#" ? "1" : null }, [
      svg("rect", { x, y, width: CELL, height: CELL, stroke: "#94a3b8",
        fill: ch === "x" ? (fresh ? "#fde68a" : "#e2e8f0") : "#fefce8" }),
    ]);
    if (ch === "x") {
      cell.append(svg("path", { d: `M${x + 18} ${y + 18}L${x + CELL - 18} ${y + CELL - 18}` +
        `M${x + CELL - 18} ${y + 18}L${x + 18} ${y + CELL - 18}`, stroke: "#94a3b8",
        "stroke-width": 3, "stroke-linecap": "round" }));
    } else if (ch === "#") {
      cell.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.36,
        fill: "#1e293b" }));
      if (fresh && mover !== null) {
        cell.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.44,
          fill: "none", stroke: SEAT_COLOURS[mover], "stroke-width": 5 }));
      }
    }
    root.append(cell);
  }));
  replaceContent(target, root);
}

export function caption(frame, ctx) {
  const placed = frame.view.placed || [];
  return `stones placed ${placed.join(" : ")} · ${turnText(frame, ctx.names)}`;
}
