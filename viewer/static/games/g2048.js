// 2048: the grid with each tile in its classic colour, and the score. Drawing the same grid
// size again updates the tiles in place: scrubbing a long game repaints colours and numbers,
// never rebuilds the board. To play: arrow keys, a swipe on the board, or the buttons.

import { el, replaceContent, svg, svgRoot } from "botleague-viewer/dom.js";
import { playKit } from "botleague-viewer/input.js";

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

// The engine's directions (L R U D) with their arrow keys and words.
const DIRECTIONS = [
  { move: "U", key: "ArrowUp", word: "up", arrow: "↑" },
  { move: "L", key: "ArrowLeft", word: "left", arrow: "←" },
  { move: "R", key: "ArrowRight", word: "right", arrow: "→" },
  { move: "D", key: "ArrowDown", word: "down", arrow: "↓" },
];
const KEYS = { w: "U", a: "L", s: "D", d: "R" };
const SWIPE_PX = 24;

/** The board to play on: arrow keys (or WASD), a swipe across the board, or the buttons. */
export function play(target, frame, ctx, input) {
  const kit = playKit(target, input, { keys: "Arrow keys (or W A S D) slide the tiles; on " +
    "a phone, swipe across the board. A direction that moves nothing is not a move.", side: true });
  draw(kit.board, frame, ctx);
  kit.board.classList.add("swipe-area");
  const word = (move) => DIRECTIONS.find((d) => d.move === move).word;
  const slide = (move) => kit.send(move, word(move));
  kit.panel.append(el("div", { class: "arrow-pad", role: "group",
    "aria-label": "slide the tiles" }, DIRECTIONS.map((d) => kit.button(d.arrow,
    () => slide(d.move), { enabled: kit.legal.has(d.move), "data-move": d.move,
      class: `arrow-${d.word}`, "aria-label": `slide ${d.word}`, title: `slide ${d.word}` }))));
  if (input.yourTurn) {
    kit.onKey((event) => {
      const d = DIRECTIONS.find((x) => x.key === event.key);
      const move = d ? d.move : KEYS[event.key.toLowerCase()];
      if (!move) return false;
      slide(move);
      return true;
    });
    let from = null;
    kit.listen(kit.board, "pointerdown", (event) => {
      from = { x: event.clientX, y: event.clientY, id: event.pointerId };
    });
    kit.listen(kit.board, "pointerup", (event) => {
      if (!from || from.id !== event.pointerId) return;
      const dx = event.clientX - from.x;
      const dy = event.clientY - from.y;
      from = null;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE_PX) return;
      if (Math.abs(dx) > Math.abs(dy)) slide(dx > 0 ? "R" : "L");
      else slide(dy > 0 ? "D" : "U");
    });
    kit.listen(kit.board, "pointercancel", () => { from = null; });
    kit.say(`Your move: ${[...kit.legal].map(word).join(", ")}.`);
  } else kit.idle(frame);
  return kit;
}
