// Stones: the board with its stones (#) and the cells they block (x); the stone just placed
// is ringed in the colour of the player who placed it. To play: click or tap a free cell.

import { replaceContent, svg, svgRoot } from "botleague-viewer/dom.js";
import { SEAT_COLOURS, axisLabels, turnText } from "botleague-viewer/games/common.js";
import { playKit } from "botleague-viewer/input.js";

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
  // A seat's own view (the play page's) has no count by player: count the board's stones.
  const placed = frame.view.placed ? frame.view.placed.join(" : ")
    : String(frame.view.board.join("").split("#").length - 1);
  return `stones placed ${placed} · ${turnText(frame, ctx.names)}`;
}

/** The board to play on: each free cell is a button (click, tap, or Tab and Enter). */
export function play(target, frame, ctx, input) {
  const kit = playKit(target, input, { keys: "Click or tap a free cell to put your stone " +
    "there; or Tab to a cell and press Enter." });
  draw(kit.board, frame, ctx);
  for (const cell of kit.board.querySelectorAll(".cell")) {
    const move = `${cell.dataset.row},${cell.dataset.col}`;
    cell.dataset.move = move;
    if (!kit.legal.has(move)) continue;
    cell.classList.add("legal");
    cell.setAttribute("tabindex", "0");
    cell.setAttribute("role", "button");
    cell.setAttribute("aria-label", `put a stone on ${move}`);
  }
  const choose = (event) => {
    const cell = event.target.closest && event.target.closest(".cell");
    if (cell) kit.send(cell.dataset.move, `a stone on ${cell.dataset.move}`);
  };
  kit.listen(kit.board, "click", choose);
  kit.listen(kit.board, "keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    choose(event);
  });
  if (input.yourTurn) kit.say(`Your move: ${kit.legal.size} free cells.`);
  else kit.idle(frame);
  return kit;
}
