// 2048: the grid with each tile in its classic colour, and the score. Drawing the same grid
// size again updates the tiles in place: scrubbing a long game repaints colours and numbers,
// never rebuilds the board.

import { replaceContent, svg, svgRoot } from "botleague-viewer/dom.js";

const CELL = 100;
const GAP = 12;
const STRIP = 70;
const COLOURS = {
  0: "#cdc1b4", 2: "#eee4da", 4: "#ede0c8", 8: "#f2b179", 16: "#f59563", 32: "#f67c5f",
  64: "#f65e3b", 128: "#edcf72", 256: "#edcc61", 512: "#edc850", 1024: "#edc53f",
  2048: "#edc22e",
};
const BIG = "#3c3a32";  // 4096 and up

function fontSize(value) {
  const digits = String(value).length;
  return digits <= 2 ? 48 : digits === 3 ? 40 : digits === 4 ? 32 : 25;
}

function tile(row, col) {
  const x = GAP + col * (CELL + GAP);
  const y = STRIP + GAP + row * (CELL + GAP);
  return svg("g", { class: "tile", "data-row": row, "data-col": col }, [
    svg("rect", { x, y, width: CELL, height: CELL, rx: 6 }),
    svg("text", { x: x + CELL / 2, y: y + CELL / 2, "font-weight": 700, "text-anchor": "middle",
      "dominant-baseline": "central" }),
  ]);
}

function paintTile(g, value) {
  if (g.dataset.value === String(value)) return;
  g.dataset.value = value;
  g.firstChild.setAttribute("fill", COLOURS[value] || BIG);
  const text = g.lastChild;
  text.textContent = value ? String(value) : "";
  text.setAttribute("font-size", fontSize(value));
  text.setAttribute("fill", value <= 4 ? "#776e65" : "#f9f6f2");
}

function scoreBox(label, x, width) {
  return svg("g", { class: "score-box" }, [
    svg("rect", { x, y: 4, width, height: 56, rx: 6, fill: "#bbada0" }),
    svg("text", { x: x + width / 2, y: 22, "text-anchor": "middle", "font-size": 13,
      "font-weight": 700, fill: "#eee4da", text: label }),
    svg("text", { x: x + width / 2, y: 49, "text-anchor": "middle", "font-size": 24,
      "font-weight": 700, fill: "#fff", class: "score-value" }),
  ]);
}

function build(rows, cols) {
  const width = GAP + cols * (CELL + GAP);
  const height = STRIP + GAP + rows * (CELL + GAP);
  const root = svgRoot(width, height, { "data-rows": rows, "data-cols": cols });
  const box = Math.min(160, Math.max(70, (width - 130) / 2 - 8));
  root.append(scoreBox("SCORE", width - box - 4, box),
    scoreBox("BEST TILE", width - 2 * box - 12, box),
    svg("text", { x: 4, y: 46, "font-size": 44, "font-weight": 700, fill: "#776e65",
      text: "2048" }),
    svg("rect", { y: STRIP, width, height: height - STRIP, rx: 10, fill: "#bbada0" }));
  for (let r = 0; r < rows; r += 1) for (let c = 0; c < cols; c += 1) root.append(tile(r, c));
  return root;
}

export function draw(target, frame) {
  const view = frame.view;
  let root = target.firstElementChild;
  if (!root || root.dataset.rows !== String(view.rows) ||
      root.dataset.cols !== String(view.cols)) {
    root = build(view.rows, view.cols);
    replaceContent(target, root);
  }
  root.dataset.score = view.score;
  root.dataset.maxTile = view.max_tile;
  root.setAttribute("aria-label", `2048 board, score ${view.score}`);
  const [score, best] = root.querySelectorAll(".score-value");
  score.textContent = String(view.score);
  best.textContent = String(view.max_tile);
  const tiles = root.querySelectorAll(".tile");
  view.grid.forEach((cells, row) => cells.forEach((value, col) => {
    paintTile(tiles[row * view.cols + col], value);
  }));
}

export function caption(frame) {
  const view = frame.view;
  return `score ${view.score} · best tile ${view.max_tile} · move ${view.turn}`;
}
