// 2048: the grid with each tile in its classic colour, and the score.

import { replaceContent, svg, svgRoot } from "../dom.js";

const CELL = 100;
const GAP = 12;
const COLOURS = {
  0: "#cdc1b4", 2: "#eee4da", 4: "#ede0c8", 8: "#f2b179", 16: "#f59563", 32: "#f67c5f",
  64: "#f65e3b", 128: "#edcf72", 256: "#edcc61", 512: "#edc850", 1024: "#edc53f",
  2048: "#edc22e",
};
const BIG = "#3c3a32";  // 4096 and up
const STRIP = 70;

function tile(value, row, col) {
  const x = GAP + col * (CELL + GAP);
  const y = STRIP + GAP + row * (CELL + GAP);
  const digits = String(value).length;
  const size = digits <= 2 ? 48 : digits === 3 ? 40 : digits === 4 ? 32 : 25;
  return svg("g", { class: "tile", "data-row": row, "data-col": col, "data-value": value }, [
    svg("rect", { x, y, width: CELL, height: CELL, rx: 6,
      fill: COLOURS[value] || BIG }),
    value ? svg("text", { x: x + CELL / 2, y: y + CELL / 2, "font-size": size,
      "font-weight": 700, "text-anchor": "middle", "dominant-baseline": "central",
      fill: value <= 4 ? "#776e65" : "#f9f6f2", text: value }) : null,
  ]);
}

function scoreBox(label, value, x, width) {
  return svg("g", { class: "score-box" }, [
    svg("rect", { x, y: 4, width, height: 56, rx: 6, fill: "#bbada0" }),
    svg("text", { x: x + width / 2, y: 22, "text-anchor": "middle", "font-size": 13,
      "font-weight": 700, fill: "#eee4da", text: label }),
    svg("text", { x: x + width / 2, y: 49, "text-anchor": "middle", "font-size": 24,
      "font-weight": 700, fill: "#fff", text: value }),
  ]);
}

export function draw(target, frame) {
  const view = frame.view;
  const width = GAP + view.cols * (CELL + GAP);
  const height = STRIP + GAP + view.rows * (CELL + GAP);
  const root = svgRoot(width, height, { "data-score": view.score,
    "data-max-tile": view.max_tile, "aria-label": `2048 board, score ${view.score}` });
  const box = Math.min(160, Math.max(70, (width - 130) / 2 - 8));
  root.append(scoreBox("SCORE", view.score, width - box - 4, box),
    scoreBox("BEST TILE", view.max_tile, width - 2 * box - 12, box),
    svg("text", { x: 4, y: 46, "font-size": 44, "font-weight": 700, fill: "#776e65",
      text: "2048" }));
  root.append(svg("rect", { y: STRIP, width, height: height - STRIP, rx: 10,
    fill: "#bbada0" }));
  view.grid.forEach((cells, row) => cells.forEach((value, col) => {
    root.append(tile(value, row, col));
  }));
  replaceContent(target, root);
}

export function caption(frame) {
  const view = frame.view;
  return `score ${view.score} · best tile ${view.max_tile} · move ${view.turn}`;
}
