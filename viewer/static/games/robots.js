// Robots: the field with the player (@), the robots (+) closing in and the scrap (*) they
// crash into, with the level, score and robots left. Only occupied cells are drawn one by
// one (a 60 x 60 field is mostly empty); a pattern draws the grid. Rows and columns are
// numbered from 0, as the engine's messages name cells ("row 7, column 4"). The robot
// that caught the player ends on the player's cell, where the board has only "@": it is drawn
// over the player, so the robots drawn are the robots counted. To play: the keypad's buttons
// or keys.

import { el, replaceContent, svg, svgRoot } from "botleague-viewer/dom.js";
import { playKit } from "botleague-viewer/input.js";
import { axisLabels } from "botleague-viewer/games/common.js";

const CELL = 28;
const STRIP = 24;
const LEFT = 24;  // the row numbers
const TOP = STRIP + 18;  // the strip, then the column numbers
const COMMANDS = { 7: "up-left", 8: "up", 9: "up-right", 4: "left", 5: "wait", 6: "right",
  1: "down-left", 2: "down", 3: "down-right", 0: "teleport" };

function player(x, y) {
  return [
    svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, fill: "#2563eb",
      stroke: "#1e3a8a", "stroke-width": 2 }),
    svg("circle", { cx: x + CELL * 0.38, cy: y + CELL * 0.42, r: 2, fill: "#fff" }),
    svg("circle", { cx: x + CELL * 0.62, cy: y + CELL * 0.42, r: 2, fill: "#fff" }),
  ];
}

function robot(x, y) {
  return [
    svg("rect", { x: x + 4, y: y + 6, width: CELL - 8, height: CELL - 10, rx: 3,
      fill: "#64748b", stroke: "#334155", "stroke-width": 1.5 }),
    svg("line", { x1: x + CELL / 2, y1: y + 6, x2: x + CELL / 2, y2: y + 2, stroke: "#334155",
      "stroke-width": 1.5 }),
    svg("rect", { x: x + 8, y: y + 11, width: 4, height: 4, fill: "#f87171" }),
    svg("rect", { x: x + CELL - 12, y: y + 11, width: 4, height: 4, fill: "#f87171" }),
  ];
}

function scrap(x, y) {
  return [
    svg("path", { d: `M${x + 4} ${y + CELL - 4}L${x + 9} ${y + 8}L${x + 14} ${y + 14}` +
      `L${x + 19} ${y + 5}L${x + CELL - 4} ${y + CELL - 4}Z`, fill: "#92400e",
    stroke: "#451a03", "stroke-width": 1.2 }),
  ];
}

const DRAW = { "@": player, "+": robot, "*": scrap };

/** The robot on the player's cell (the one that caught it): the board shows "@" there, and
 *  the count of robots includes it. */
function caughtAt(view) {
  let drawn = 0;
  for (const line of view.board) for (const ch of line) if (ch === "+") drawn += 1;
  return view.robots_left > drawn && view.player ? view.player : null;
}

function caughtMark(x, y) {
  // the robot half over the player, up and to the right, and a red ring round both
  return [...robot(x + CELL * 0.28, y - CELL * 0.22),
    svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.62, fill: "none",
      stroke: "#dc2626", "stroke-width": 3 })];
}

export function draw(target, frame) {
  const view = frame.view;
  const fieldWidth = view.cols * CELL;
  const fieldHeight = view.rows * CELL;
  const width = Math.max(LEFT + fieldWidth + 8, 280);
  const height = TOP + fieldHeight + 4;
  const caught = caughtAt(view);
  const root = svgRoot(width, height, { "aria-label": `Robots field, level ${view.level}`,
    "data-level": view.level, "data-score": view.score,
    "data-robots-left": view.robots_left });
  root.append(svg("text", { x: 2, y: 16, class: "strip", text: `Level ${view.level}` }),
    svg("text", { x: width / 2, y: 16, class: "strip", "text-anchor": "middle",
      text: `Score ${view.score}` }),
    svg("text", { x: width - 2, y: 16, class: "strip", "text-anchor": "end",
      text: `${view.robots_left} robot${view.robots_left === 1 ? "" : "s"} left` }));
  root.append(...axisLabels({ rows: view.rows, cols: view.cols, cell: CELL, left: LEFT,
    top: TOP }));
  const field = svg("g", { transform: `translate(${LEFT} ${TOP})` });
  root.append(field);
  const id = `robots-grid-${Math.random().toString(36).slice(2)}`;
  field.append(svg("defs", {}, [svg("pattern", { id, width: CELL, height: CELL,
    patternUnits: "userSpaceOnUse" }, [svg("path", { d: `M${CELL} 0H0V${CELL}`, fill: "none",
    stroke: "#dbe3ea", "stroke-width": 1 })])]));
  field.append(svg("rect", { width: fieldWidth, height: fieldHeight, fill: "#f8fafc" }));
  field.append(svg("rect", { width: fieldWidth, height: fieldHeight, fill: `url(#${id})`,
    stroke: "#94a3b8" }));
  view.board.forEach((line, r) => {
    for (let c = 0; c < line.length; c += 1) {
      const ch = line[c];
      const drawOne = DRAW[ch];
      if (!drawOne) continue;
      field.append(svg("g", { class: "cell", "data-row": r, "data-col": c, "data-cell": ch },
        drawOne(c * CELL, r * CELL)));
    }
  });
  if (caught) {
    const [r, c] = caught;
    field.append(svg("g", { class: "caught", "data-row": r, "data-col": c }, [...caughtMark(c * CELL, r * CELL),
      svg("title", { text: `the robot that caught you, at (${r},${c})` })]));
  }
  replaceContent(target, root);
}

export function caption(frame) {
  const view = frame.view;
  const end = frame.over && view.result ? ` · ${view.result.detail || view.result.reason}` : "";
  return `level ${view.level} · score ${view.score} · robots left ${view.robots_left}` +
    ` · turn ${view.turn}${end}`;
}

/** A command as the rule sheet names it: "8 (up)". */
export function moveName(move) {
  return COMMANDS[move] ? `${move} (${COMMANDS[move]})` : move;
}

// The keypad as laid out on screen, and other keys for the same commands.
const PAD = ["7", "8", "9", "4", "5", "6", "1", "2", "3"];
const ARROWS = { 7: "↖", 8: "↑", 9: "↗", 4: "←", 5: "·", 6: "→", 1: "↙", 2: "↓", 3: "↘" };
const KEYS = { ArrowUp: "8", ArrowDown: "2", ArrowLeft: "4", ArrowRight: "6", Home: "7",
  PageUp: "9", End: "1", PageDown: "3", Clear: "5", t: "0", T: "0", " ": "5" };

/** The field to play on: a keypad (7 8 9 / 4 5 6 / 1 2 3, 0 teleports) as buttons, and
 *  the same digits, the number pad or the arrow keys on a keyboard. */
export function play(target, frame, ctx, input) {
  const kit = playKit(target, input, { keys: "Keys: the digits as on a keypad (7 8 9 / 4 5 " +
    "6 / 1 2 3; or the number pad, or the arrow keys), 5 or space waits, 0 or T teleports. " +
    "A step onto a robot or scrap is not a move.", side: true });
  draw(kit.board, frame, ctx);
  const go = (move) => kit.send(move, moveName(move));
  const key = (move, label, attrs = {}) => kit.button(label, () => go(move), {
    enabled: kit.legal.has(move), "data-move": move, "aria-label": moveName(move),
    title: `${moveName(move)} (key ${move})`, ...attrs });
  kit.panel.append(el("div", { class: "keypad", role: "group", "aria-label": "keypad" }, [
    ...PAD.map((move) => key(move, `${ARROWS[move]} ${move}`)),
    key("0", "teleport 0", { class: "teleport" })]));
  if (input.yourTurn) {
    kit.onKey((event) => {
      const move = /^[0-9]$/.test(event.key) ? event.key : KEYS[event.key];
      if (!move) return false;
      go(move);
      return true;
    });
    kit.say(`Your move: ${kit.legal.size} commands are open.`);
  } else kit.idle(frame);
  return kit;
}
