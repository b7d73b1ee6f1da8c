// Blokus Duo: the 14 x 14 board in the two players' colours, the piece just placed outlined,
// the start squares, and below it each player's pieces: those left in colour, those played
// faded (shapes as the rule sheet draws them, from the engine's assets).

import { replaceContent, svg, svgRoot } from "botleague-viewer/dom.js";
import { SEAT_COLOURS, SEAT_LIGHT, axisLabels, turnText } from "botleague-viewer/games/common.js";

const CELL = 32;
const LEFT = 24;
const TOP = 24;
const HEX = "0123456789ABCDE";
const PIECE_CELL = 7;
const PIECE_SLOT = 40;
const PER_ROW = 7;
const PANEL_GAP = 24;

function boardCells(view, changed, assets) {
  const out = [];
  const starts = new Map((assets.start_squares || []).map((s, seat) => [`${s.y},${s.x}`, seat]));
  view.board.forEach((line, r) => [...line].forEach((ch, c) => {
    const x = LEFT + c * CELL;
    const y = TOP + r * CELL;
    const owner = ch === "0" || ch === "1" ? Number(ch) : null;
    const last = changed.has(`${r},${c}`);
    const cell = svg("g", { class: "cell", "data-row": r, "data-col": c, "data-cell": ch,
      "data-last": last ? "1" : null }, [
      svg("rect", { x, y, width: CELL, height: CELL, stroke: "#cbd5e1",
        fill: owner === null ? "#f8fafc" : SEAT_COLOURS[owner] }),
    ]);
    const start = starts.get(`${r},${c}`);
    if (owner === null && start !== undefined) {
      cell.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 7,
        fill: SEAT_LIGHT[start], stroke: SEAT_COLOURS[start], "stroke-width": 2 }));
    }
    out.push(cell);
  }));
  return out;
}

/** The last piece's outline: each of its cells' edges that do not touch another of them. */
function lastOutline(changed) {
  const parts = [];
  for (const key of changed) {
    const [r, c] = key.split(",").map(Number);
    const x = LEFT + c * CELL;
    const y = TOP + r * CELL;
    if (!changed.has(`${r - 1},${c}`)) parts.push(`M${x} ${y}h${CELL}`);
    if (!changed.has(`${r + 1},${c}`)) parts.push(`M${x} ${y + CELL}h${CELL}`);
    if (!changed.has(`${r},${c - 1}`)) parts.push(`M${x} ${y}v${CELL}`);
    if (!changed.has(`${r},${c + 1}`)) parts.push(`M${x + CELL} ${y}v${CELL}`);
  }
  return parts.length ? svg("path", { d: parts.join(""), class: "last-move", fill: "none",
    stroke: "#0f172a", "stroke-width": 4, "stroke-linecap": "square" }) : null;
}

function piece(letter, drawing, seat, left, x, y) {
  const rows = drawing.split("/");
  const g = svg("g", { class: "piece", "data-piece": letter, "data-seat": seat,
    "data-left": left ? "1" : "0", opacity: left ? 1 : 0.18 });
  g.append(svg("title", { text: `${letter}${left ? "" : " (played)"}` }));
  rows.forEach((line, r) => [...line].forEach((ch, c) => {
    if (ch === "#") {
      g.append(svg("rect", { x: x + c * PIECE_CELL, y: y + r * PIECE_CELL, width: PIECE_CELL,
        height: PIECE_CELL, fill: SEAT_COLOURS[seat], stroke: "#fff", "stroke-width": 0.8 }));
    }
  }));
  return g;
}

function piecesPanel(view, seat, x, y, assets, name) {
  const left = new Set(view.pieces_left[seat]);
  const letters = Object.keys(assets.pieces || {});
  const passed = view.passed && view.passed[seat] ? " · passed" : "";
  const g = svg("g", { class: "pieces", "data-seat": seat, "data-left": left.size }, [
    svg("text", { x, y: y + 12, class: "panel-title", fill: SEAT_COLOURS[seat], text: name }),
    svg("text", { x, y: y + 30, class: "panel-text",
      text: `${view.squares[seat]} squares placed · ${left.size} pieces left${passed}` }),
  ]);
  letters.forEach((letter, i) => {
    const px = x + (i % PER_ROW) * PIECE_SLOT;
    const py = y + 40 + Math.floor(i / PER_ROW) * PIECE_SLOT;
    g.append(piece(letter, assets.pieces[letter], seat, left.has(letter), px, py));
  });
  return g;
}

export function draw(target, frame, ctx) {
  const view = frame.view;
  const assets = ctx.header.assets || {};
  const size = view.board.length;
  // The pieces sit to the right of the board, one player above the other; on a narrow
  // screen below it, side by side, so they stay big enough to tell apart.
  const boardRight = LEFT + size * CELL;
  const boardBottom = TOP + size * CELL;
  const rowsOfPieces = Math.ceil(Object.keys(assets.pieces || {}).length / PER_ROW);
  const panelWidth = PER_ROW * PIECE_SLOT;
  const panelHeight = 40 + rowsOfPieces * PIECE_SLOT;
  const narrow = target.clientWidth > 0 && target.clientWidth < 600;
  const panelAt = (seat) => (narrow
    ? [seat * (panelWidth + PANEL_GAP / 2), boardBottom + 16]
    : [boardRight + PANEL_GAP, TOP + seat * (panelHeight + 16)]);
  const width = narrow ? Math.max(boardRight + 4, 2 * panelWidth + PANEL_GAP / 2)
    : boardRight + PANEL_GAP + panelWidth;
  const height = narrow ? boardBottom + 16 + panelHeight
    : Math.max(boardBottom + 4, TOP + 2 * panelHeight + 16);
  const changed = new Set((frame.changed || []).map(([r, c]) => `${r},${c}`));
  const root = svgRoot(width, height, { "aria-label": "Blokus Duo board",
    "data-squares": view.squares.join(",") });
  root.append(...axisLabels({ rows: size, cols: size, cell: CELL, left: LEFT, top: TOP,
    colName: (c) => HEX[c + 1], rowName: (r) => HEX[r + 1] }));
  root.append(...boardCells(view, changed, assets));
  root.append(lastOutline(changed) || svg("g"));
  [0, 1].forEach((seat) => {
    const [x, y] = panelAt(seat);
    root.append(piecesPanel(view, seat, x, y, assets, ctx.names[seat] || `player ${seat}`));
  });
  replaceContent(target, root);
}

export function caption(frame, ctx) {
  const view = frame.view;
  return `squares ${view.squares.join(" : ")} · ${turnText(frame, ctx.names)}`;
}
