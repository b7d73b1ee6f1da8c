// Blokus Duo: the 14 x 14 board in the two players' colours, the piece just placed outlined,
// the start squares, and below it each player's pieces: those left in colour, those played
// faded (shapes as the rule sheet draws them, from the engine's assets). To play: choose a
// piece, turn and flip it, and see it on the board, marked legal or not, before placing it.

import { el, replaceContent, svg, svgRoot } from "botleague-viewer/dom.js";
import { SEAT_COLOURS, SEAT_LIGHT, axisLabels, turnText } from "botleague-viewer/games/common.js";
import { playKit } from "botleague-viewer/input.js";

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

function piece(letter, drawing, seat, left, x, y, cell = PIECE_CELL) {
  const rows = drawing.split("/");
  const g = svg("g", { class: "piece", "data-piece": letter, "data-seat": seat,
    "data-left": left ? "1" : "0", opacity: left ? 1 : 0.18 });
  g.append(svg("title", { text: `${letter}${left ? "" : " (played)"}` }));
  rows.forEach((line, r) => [...line].forEach((ch, c) => {
    if (ch === "#") {
      g.append(svg("rect", { x: x + c * cell, y: y + r * cell, width: cell,
        height: cell, fill: SEAT_COLOURS[seat], stroke: "#fff", "stroke-width": 0.8 }));
    }
  }));
  return g;
}

/** A player's pieces, ``grid.perRow`` a row in slots of ``grid.slot``, squares of
 *  ``grid.cell``. */
function piecesPanel(view, seat, x, y, assets, name, grid) {
  const left = new Set(view.pieces_left[seat]);
  const letters = Object.keys(assets.pieces || {});
  const passed = view.passed && view.passed[seat] ? " · passed" : "";
  const g = svg("g", { class: "pieces", "data-seat": seat, "data-left": left.size }, [
    svg("text", { x, y: y + 12, class: "panel-title", fill: SEAT_COLOURS[seat], text: name }),
    svg("text", { x, y: y + 30, class: "panel-text",
      text: `${view.squares[seat]} squares placed · ${left.size} pieces left${passed}` }),
  ]);
  letters.forEach((letter, i) => {
    const px = x + (i % grid.perRow) * grid.slot;
    const py = y + 40 + Math.floor(i / grid.perRow) * grid.slot;
    g.append(piece(letter, assets.pieces[letter], seat, left.has(letter), px, py, grid.cell));
  });
  return g;
}

export function draw(target, frame, ctx) {
  const view = frame.view;
  const assets = ctx.header.assets || {};
  const size = view.board.length;
  // The pieces sit to the right of the board, one player above the other; on a narrow
  // screen below it, one player under the other, each as wide as the board (11 pieces a
  // row), so that on a phone a piece is still a piece and not a few specks.
  const boardRight = LEFT + size * CELL;
  const boardBottom = TOP + size * CELL;
  const narrow = target.clientWidth > 0 && target.clientWidth < 600;
  const count = Object.keys(assets.pieces || {}).length;
  const grid = narrow ? { perRow: 11, slot: Math.floor((boardRight - LEFT) / 11), cell: 9 }
    : { perRow: PER_ROW, slot: PIECE_SLOT, cell: PIECE_CELL };
  const panelWidth = grid.perRow * grid.slot;
  const panelHeight = 40 + Math.ceil(count / grid.perRow) * grid.slot;
  const panelAt = (seat) => (narrow
    ? [LEFT, boardBottom + 16 + seat * (panelHeight + 8)]
    : [boardRight + PANEL_GAP, TOP + seat * (panelHeight + 16)]);
  const width = narrow ? boardRight + 4 : boardRight + PANEL_GAP + panelWidth;
  const height = narrow ? boardBottom + 16 + 2 * panelHeight + 8
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
    root.append(piecesPanel(view, seat, x, y, assets, ctx.names[seat] || `player ${seat}`,
      grid));
  });
  replaceContent(target, root);
}

export function caption(frame, ctx) {
  const view = frame.view;
  return `squares ${view.squares.join(" : ")} · ${turnText(frame, ctx.names)}`;
}

// Playing. A placement is legal exactly when its code is among the legal moves: the engine
// lists each placement once, under the lowest orientation number that lays the same squares,
// so a preview's code is written with that number (``orientations``). The shapes are the
// engine's (header.assets.pieces); only the rule sheet's way of turning them is coded here.

const PASS = "X000";

/** A move as the move list and the caption say it: a pass in words, not its code. */
export function moveName(move) {
  return move === PASS ? "pass" : move;
}
export const listName = moveName;

function shapeCells(drawing) {
  const cells = [];
  drawing.split("/").forEach((line, r) => [...line].forEach((ch, c) => {
    if (ch === "#") cells.push([r, c]);
  }));
  return cells;
}

function normalise(cells) {
  const top = Math.min(...cells.map(([r]) => r));
  const left = Math.min(...cells.map(([, c]) => c));
  return cells.map(([r, c]) => [r - top, c - left])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

const extent = (cells, i) => 1 + Math.max(...cells.map((cell) => cell[i]));

/** Orientation ``r`` of a drawing as the rule sheet defines it: ``r >> 1`` quarter turns
 *  clockwise, then, when ``r`` is odd, a flip left to right. Cells from the box's corner. */
function oriented(drawing, r) {
  let cells = shapeCells(drawing);
  for (let i = 0; i < r >> 1; i += 1) {
    const height = extent(cells, 0);
    cells = cells.map(([y, x]) => [x, height - 1 - y]);
  }
  if (r & 1) {
    const width = extent(cells, 1);
    cells = cells.map(([y, x]) => [y, width - 1 - x]);
  }
  return normalise(cells);
}

/** The eight orientations of a drawing: each one's cells and the number the engine lists it
 *  under (the lowest orientation laying the same squares). */
function orientations(drawing) {
  const all = [];
  const first = new Map();
  for (let r = 0; r < 8; r += 1) {
    const cells = oriented(drawing, r);
    const key = cells.join(" ");
    if (!first.has(key)) first.set(key, r);
    all.push({ cells, canonical: first.get(key) });
  }
  return all;
}

/** The move code of ``shape`` (one orientation) with its box's corner on (row, col), or
 *  ``null`` when a square would leave the ``size`` x ``size`` board. */
function placementCode(letter, shape, row, col, size) {
  if (row < 0 || col < 0) return null;
  if (shape.cells.some(([r, c]) => row + r >= size || col + c >= size)) return null;
  return `${letter}${shape.canonical}${HEX[col + 1]}${HEX[row + 1]}`;
}

/** The square of a shape held under the pointer: the one nearest its box's centre. */
function handleOf(cells) {
  const cy = (extent(cells, 0) - 1) / 2;
  const cx = (extent(cells, 1) - 1) / 2;
  let best = cells[0];
  for (const cell of cells) {
    const d = (cell[0] - cy) ** 2 + (cell[1] - cx) ** 2;
    if (d < (best[0] - cy) ** 2 + (best[1] - cx) ** 2) best = cell;
  }
  return best;
}

function miniPiece(cells, colour, unit = 9) {
  const h = extent(cells, 0);
  const w = extent(cells, 1);
  return svg("svg", { viewBox: `0 0 ${w * unit} ${h * unit}`, width: w * unit,
    height: h * unit, "aria-hidden": "true", class: "mini-piece" },
  cells.map(([r, c]) => svg("rect", { x: c * unit, y: r * unit, width: unit, height: unit,
    fill: colour, stroke: "#fff", "stroke-width": 1 })));
}

/** The board to play on: a piece tray, rotate, flip, place and pass buttons (and keys), and
 *  the chosen piece previewed where the pointer (or a tap, or the arrow keys) puts it. */
export function play(target, frame, ctx, input) {
  const kit = playKit(target, input, { keys: "Choose a piece, then point at the board (on " +
    "a phone: tap) to see it there, marked legal or not; click or tap again to place it. " +
    "Keys: R rotate (Shift+R back), F flip, [ and ] previous and next piece, arrow keys " +
    "move it, Enter places it, Esc puts it back. Dots mark where the piece fits as it is " +
    "turned now." });
  draw(kit.board, frame, ctx);
  const seat = input.seat;
  const view = frame.view;
  const size = view.board.length;
  const root = kit.board.querySelector("svg");
  if (root && kit.board.clientWidth > 0 && kit.board.clientWidth < 600) {
    // On a phone the board takes the whole width (the tray below shows your pieces).
    for (const panel of root.querySelectorAll(".pieces")) panel.remove();
    root.setAttribute("viewBox", `0 0 ${LEFT + size * CELL + 4} ${TOP + size * CELL + 4}`);
  }
  const assets = (ctx.header && ctx.header.assets) || {};
  const drawings = assets.pieces || {};
  const mine = (view.pieces_left[seat] || []).filter((letter) => drawings[letter]);
  const fits = new Set([...kit.legal].filter((m) => m !== PASS).map((m) => m[0]));
  const shapes = Object.fromEntries(mine.map((l) => [l, orientations(drawings[l])]));
  const start = (assets.start_squares || [])[seat];
  const pick = { letter: null, rot: 0, flipped: false, at: null, passing: false };
  const spots = svg("g", { class: "spots", "pointer-events": "none" });
  const preview = svg("g", { class: "preview", "pointer-events": "none" });
  if (root) root.append(spots, preview);

  const shape = () => shapes[pick.letter][pick.rot * 2 + (pick.flipped ? 1 : 0)];
  /** The placement now shown: its code (null off the board) and the box's corner. */
  function placement() {
    if (!pick.letter || !pick.at) return null;
    const s = shape();
    const [hr, hc] = handleOf(s.cells);
    const row = pick.at[0] - hr;
    const col = pick.at[1] - hc;
    const code = placementCode(pick.letter, s, row, col, size);
    return { code, row, col, cells: s.cells, legal: code !== null && kit.legal.has(code) };
  }

  const tray = el("div", { class: "blokus-tray", role: "group", "aria-label": "your pieces" });
  const chosen = el("div", { class: "blokus-chosen", "aria-live": "polite" });
  // the keys in a hint a phone's narrow panel leaves out (play.css), so that rotate, flip
  // and place fit one line right under the board
  const keyed = (button, key) => {
    button.append(el("span", { class: "key-hint", text: ` (${key})` }));
    return button;
  };
  const place = keyed(kit.button("Place", () => commit(), { enabled: false,
    "data-action": "place" }), "Enter");
  const passButton = kit.button("Pass for good", () => pass(), {
    enabled: kit.legal.has(PASS), "data-action": "pass", class: "secondary" });
  const trayButtons = new Map();
  for (const letter of mine) {
    const cells = shapes[letter][0].cells;
    const button = kit.button("", () => choose(letter), { enabled: fits.has(letter),
      class: "piece-choice", "data-piece": letter, "aria-pressed": "false",
      "aria-label": `piece ${letter}, ${cells.length} squares` +
        (fits.has(letter) ? "" : " (fits nowhere)"), title: `piece ${letter}` });
    button.append(miniPiece(cells, SEAT_COLOURS[seat]), el("span", { text: letter }));
    trayButtons.set(letter, button);
    tray.append(button);
  }
  if (input.yourTurn) kit.panel.append(tray);
  kit.panel.append(el("div", { class: "blokus-tools" }, [chosen,
    keyed(kit.button("Rotate ↻", () => turn(1), { enabled: input.yourTurn,
      "data-action": "rotate" }), "R"),
    keyed(kit.button("Flip ⇋", () => flip(), { enabled: input.yourTurn,
      "data-action": "flip" }), "F"),
    place]), passButton);

  function show() {
    for (const [letter, button] of trayButtons) {
      button.setAttribute("aria-pressed", letter === pick.letter ? "true" : "false");
    }
    spots.replaceChildren();
    preview.replaceChildren();
    passButton.textContent = pick.passing ? "Really pass? You place nothing more" :
      "Pass for good";
    const now = placement();
    place.disabled = !(now && now.legal && input.yourTurn);
    preview.dataset.code = now && now.code ? now.code : "";
    preview.dataset.legal = now && now.legal ? "1" : "0";
    kit.board.dataset.preview = now ? (now.code || "off-board") : "";
    kit.board.dataset.previewLegal = now && now.legal ? "1" : "0";
    if (!pick.letter) {
      chosen.replaceChildren(el("span", { class: "muted", text: "no piece chosen" }));
      if (!input.yourTurn) kit.idle(frame);
      else if (!fits.size) kit.say("No piece fits anywhere: passing is your only move.");
      else kit.say(`Your move: choose a piece (${fits.size} of yours fit somewhere).`);
      return;
    }
    const s = shape();
    chosen.replaceChildren(miniPiece(s.cells, SEAT_COLOURS[seat], 12),
      el("span", { text: pick.letter }, [el("span", { class: "orientation",
        text: `, orientation ${s.canonical}` })]));
    // Where it fits as turned now: the square under the pointer of each such placement.
    const [hr, hc] = handleOf(s.cells);
    for (const code of kit.legal) {
      if (code[0] !== pick.letter || Number(code[1]) !== s.canonical) continue;
      const col = HEX.indexOf(code[2]) - 1 + hc;
      const row = HEX.indexOf(code[3]) - 1 + hr;
      spots.append(svg("circle", { cx: LEFT + col * CELL + CELL / 2,
        cy: TOP + row * CELL + CELL / 2, r: 4, class: "spot", "data-row": row,
        "data-col": col }));
    }
    if (!now) {
      kit.say(`Piece ${pick.letter}: point at the board or tap a square to see it there.`);
      return;
    }
    for (const [r, c] of now.cells) {
      const row = now.row + r;
      const col = now.col + c;
      if (row < 0 || col < 0 || row >= size || col >= size) continue;
      preview.append(svg("rect", { x: LEFT + col * CELL + 2, y: TOP + row * CELL + 2,
        width: CELL - 4, height: CELL - 4, rx: 3,
        class: now.legal ? "preview-legal" : "preview-illegal",
        fill: now.legal ? SEAT_COLOURS[seat] : "#dc2626", "fill-opacity": 0.55,
        stroke: now.legal ? "#0f172a" : "#7f1d1d", "stroke-width": 2,
        "stroke-dasharray": now.legal ? null : "4 3" }));
    }
    if (!now.code) kit.say(`${pick.letter} does not fit on the board there.`, "illegal");
    else if (now.legal) {
      kit.say(`${now.code}: legal. Click or tap it again, or press Enter, to place it.`,
        "legal");
    } else kit.say(`${now.code} is not a legal placement.`, "illegal");
  }

  function choose(letter) {
    if (!input.yourTurn) return;
    pick.letter = letter;
    pick.passing = false;
    if (!pick.at && start) pick.at = [start.y, start.x];
    show();
  }

  function cycle(step) {
    const usable = mine.filter((l) => fits.has(l));
    if (!usable.length) return;
    const i = usable.indexOf(pick.letter);
    choose(usable[(i + step + usable.length) % usable.length] || usable[0]);
  }

  function turn(direction) {
    if (!pick.letter) return;
    // A quarter turn of the shape as shown: once flipped, the drawing turns the other way.
    pick.rot = (pick.rot + (pick.flipped ? -direction : direction) + 4) % 4;
    show();
  }

  function flip() {
    if (!pick.letter) return;
    pick.flipped = !pick.flipped;
    show();
  }

  function commit() {
    const now = placement();
    if (!now) return;
    if (!now.legal) show();
    else kit.send(now.code);
  }

  function pass() {
    if (!pick.passing) {
      pick.passing = true;
      show();
      kit.say("Passing is for good: you place nothing for the rest of the game. Press " +
        "again to pass.", "illegal");
      return;
    }
    pick.passing = false;
    kit.send(PASS, "a pass");
  }

  const cellAt = (event) => {
    const cell = event.target.closest && event.target.closest(".cell");
    return cell ? [Number(cell.dataset.row), Number(cell.dataset.col)] : null;
  };
  if (input.yourTurn) {
    kit.listen(kit.board, "pointermove", (event) => {
      if (event.pointerType !== "mouse" || !pick.letter) return;
      const at = cellAt(event);
      if (at && (!pick.at || at[0] !== pick.at[0] || at[1] !== pick.at[1])) {
        pick.at = at;
        show();
      }
    });
    kit.listen(kit.board, "click", (event) => {
      const at = cellAt(event);
      if (!at || !pick.letter) return;
      // A click (or tap) on the square the preview is held at places it.
      if (pick.at && at[0] === pick.at[0] && at[1] === pick.at[1]) commit();
      else {
        pick.at = at;
        show();
      }
    });
    kit.onKey((event) => {
      const key = event.key;
      const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1],
        ArrowRight: [0, 1] };
      if (key === "r" || key === "R") turn(event.shiftKey ? -1 : 1);
      else if (key === "f" || key === "F") flip();
      else if (key === "]") cycle(1);
      else if (key === "[") cycle(-1);
      else if (key === "Escape") {
        pick.letter = null;
        pick.passing = false;
        show();
      } else if (key === "Enter" && pick.letter) commit();
      else if (moves[key] && pick.letter) {
        const [dr, dc] = moves[key];
        const [r, c] = pick.at || [0, 0];
        pick.at = [Math.max(0, Math.min(size - 1, r + dr)), Math.max(0, Math.min(size - 1,
          c + dc))];
        show();
      } else return false;
      return true;
    });
  }
  show();
  return kit;
}
