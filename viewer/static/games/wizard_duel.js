// Wizard Duel: the 10 x 20 map with each cell's elements as coloured dots, obstacles with
// their durability, the wizards with their damage and shields, and what this step's spells
// did (attacks and what they hit, looks and scans and the cells they saw, walls, blocked
// moves, heals). A player's view draws only that player's observation: its own map (older
// knowledge fogged), itself, and where it last saw the opponent.
// In a narrow box (a phone) the replay's map is drawn standing up, rows across and columns
// down, so a cell stays big enough to read its dots; it is drawn again when the box changes
// shape. The board you play on is always drawn lying, fitted to its box: its move buttons
// and arrow keys name the map's directions, and on a standing map "down" went right.
// To play: the player's own view with the legal actions as buttons, grouped, and a cell of
// the map to aim at.

import { el, replaceContent, svg, svgRoot } from "botleague-viewer/dom.js";
import { playKit } from "botleague-viewer/input.js";
import { SEAT_COLOURS, axisLabels } from "botleague-viewer/games/common.js";

const CELL = 36;
const LEFT = 26;
const TOP = 22;
const PANEL = 84;
const ELEMENTS = ["F", "W", "T", "A", "E"];
const ELEMENT_NAMES = { F: "fire", W: "water", T: "wood", A: "wind", E: "earth" };
const ELEMENT_COLOURS = { F: "#ef4444", W: "#3b82f6", T: "#16a34a", A: "#67e8f9",
  E: "#a16207" };
const PLACEMENTS = 2;  // one placing move a wizard before turn 1
/** How a player learned where the opponent stood (``view.opponent.how``), as words. */
const LEARNED = { look: "seen by a look", scan: "found by a wind scan",
  blocked: "it blocked a move", wall: "it stopped a wall", attack: "hit by an attack" };
const DOT_SPOTS = [[0.27, 0.3], [0.5, 0.3], [0.73, 0.3], [0.27, 0.68], [0.5, 0.68],
  [0.73, 0.68]];

const PORTRAIT_BELOW = 560;  // px: a box narrower than this gets the standing map
const PANEL_STEP = 62;      // a player's panel's height, when the panels stack
let geo = layout(10, 20, false);

/** Where things go: the map lying (columns across) or standing (rows across). */
function layout(rows, cols, portrait) {
  const across = portrait ? rows : cols;
  const down = portrait ? cols : rows;
  const mapBottom = TOP + down * CELL;
  const panels = mapBottom + 26;
  const legendTop = portrait ? panels + 2 * PANEL_STEP : mapBottom + PANEL + 2;
  return { rows, cols, portrait, across, down, mapBottom, panels, legendTop,
    width: LEFT + across * CELL + 6, height: legendTop + (portrait ? 32 : 8) };
}

function cellXY(row, col) {
  return geo.portrait ? [LEFT + row * CELL, TOP + col * CELL]
    : [LEFT + col * CELL, TOP + row * CELL];
}

/** Where a panel starts: side by side under a lying map, one under the other otherwise. */
function panelXY(seat) {
  if (geo.portrait) return [LEFT, geo.panels + seat * PANEL_STEP];
  return [seat ? LEFT + (geo.cols / 2) * CELL + 8 : LEFT, geo.panels];
}

function elementDots(code, x, y) {
  const dots = [];
  ELEMENTS.forEach((letter, kind) => {
    for (let i = 0; i < Number(code[kind]); i += 1) dots.push(letter);
  });
  if (dots.length > DOT_SPOTS.length) {
    return [svg("text", { x: x + CELL / 2, y: y + CELL / 2, "text-anchor": "middle",
      "dominant-baseline": "central", class: "count", text: dots.length })];
  }
  return dots.map((letter, i) => svg("circle", { cx: x + DOT_SPOTS[i][0] * CELL,
    cy: y + DOT_SPOTS[i][1] * CELL, r: 4.2, fill: ELEMENT_COLOURS[letter],
    stroke: "#0f172a", "stroke-width": 0.6 }));
}

function mapCells(map, fogAt) {
  const out = [];
  map.elements.forEach((line, r) => line.forEach((code, c) => {
    const [x, y] = cellXY(r, c);
    const obstacle = Number(map.obstacles[r][c]) || 0;
    const g = svg("g", { class: "cell", "data-row": r, "data-col": c, "data-elements": code,
      "data-obstacle": obstacle }, [
      svg("rect", { x, y, width: CELL, height: CELL, stroke: "#cbd5e1",
        fill: c < 10 ? "#faf5ff" : "#fff7ed" }),
    ]);
    if (obstacle) {
      g.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 4,
        fill: obstacle === 2 ? "#334155" : "#64748b" }));
      g.append(svg("text", { x: x + CELL / 2, y: y + CELL / 2, "text-anchor": "middle",
        "dominant-baseline": "central", fill: "#fff", class: "count", text: obstacle }));
    } else {
      g.append(...elementDots(code, x, y));
    }
    const fog = fogAt ? fogAt(r, c) : 0;
    if (fog > 0) {
      g.setAttribute("data-fog", fog.toFixed(2));
      g.append(svg("rect", { x, y, width: CELL, height: CELL, fill: "#94a3b8",
        opacity: fog }));
    }
    out.push(g);
  }));
  // the line between the two players' halves (columns 0-9 and 10-19)
  const half = (geo.cols / 2) * CELL;
  const line = geo.portrait
    ? { x1: LEFT - 4, y1: TOP + half, x2: LEFT + geo.across * CELL + 4, y2: TOP + half }
    : { x1: LEFT + half, y1: TOP - 4, x2: LEFT + half, y2: geo.mapBottom + 4 };
  out.push(svg("line", { ...line, stroke: "#0f172a", "stroke-width": 2,
    "stroke-dasharray": "4 3" }));
  return out;
}

function wizard(seat, w, attrs = {}) {
  const [x, y] = cellXY(w.row, w.col);
  const cx = x + CELL / 2;
  const cy = y + CELL / 2;
  const g = svg("g", { class: "wizard", "data-wizard": seat, "data-row": w.row,
    "data-col": w.col, "data-damage": w.damage, ...attrs });
  if (w.shield) {
    g.append(svg("circle", { cx, cy, r: CELL * 0.5, fill: "none", stroke: "#16a34a",
      "stroke-width": 3, "stroke-dasharray": "5 3", class: "shield" }));
  }
  // a halo and a dark ring: a wizard stands out from the element dots around it
  g.append(svg("circle", { cx, cy, r: CELL * 0.62, fill: SEAT_COLOURS[seat], opacity: 0.28,
    class: "halo" }));
  g.append(svg("circle", { cx, cy, r: CELL * 0.44, fill: SEAT_COLOURS[seat], stroke: "#0f172a",
    "stroke-width": 2.5 }));
  g.append(svg("circle", { cx, cy, r: CELL * 0.44 - 2.5, fill: "none", stroke: "#fff",
    "stroke-width": 1.5 }));
  g.append(svg("path", { d: `M${cx - 7} ${cy - 3}L${cx} ${cy - 16}L${cx + 7} ${cy - 3}Z`,
    fill: "#fde047", stroke: "#0f172a", "stroke-width": 1 }));
  g.append(svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", fill: "#fff",
    "font-weight": 700, "font-size": 12, text: "AB"[seat] }));
  for (let i = 0; i < w.damage; i += 1) {
    g.append(svg("circle", { cx: x + 6 + i * 8, cy: y + CELL - 5, r: 3.2, fill: "#dc2626",
      stroke: "#fff", "stroke-width": 1, class: "damage" }));
  }
  return g;
}

function ghost(seat, seen) {
  const [x, y] = cellXY(seen.row, seen.col);
  return svg("g", { class: "sighting", "data-sighting": seat, "data-row": seen.row,
    "data-col": seen.col }, [
    svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.36, fill: "none",
      stroke: SEAT_COLOURS[seat], "stroke-width": 2.5, "stroke-dasharray": "4 3" }),
    svg("text", { x: x + CELL / 2, y: y + CELL / 2 + 4, "text-anchor": "middle",
      fill: SEAT_COLOURS[seat], "font-size": 11, text: `t${seen.turn}` }),
  ]);
}

function burst(x, y, colour, size) {
  const cx = x + CELL / 2;
  const cy = y + CELL / 2;
  const points = [];
  for (let i = 0; i < 16; i += 1) {
    const r = i % 2 ? size * 0.45 : size;
    const a = (Math.PI * i) / 8;
    points.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return svg("polygon", { points: points.join(" "), fill: colour, opacity: 0.85 });
}

/** This step's events as marks on the map; ``positions`` says where each wizard stands. */
function effects(events, positions) {
  const out = [];
  for (const e of events) {
    const mark = { class: "effect", "data-effect": e.kind, "data-seat": e.seat };
    if (e.kind === "attack" && e.cell) {
      const [x, y] = cellXY(e.cell[0], e.cell[1]);
      const colour = { wizard: "#dc2626", shield: "#16a34a", obstacle: "#64748b" }[e.hit]
        || "#f97316";
      out.push(svg("g", { ...mark, "data-hit": e.hit, "data-row": e.cell[0],
        "data-col": e.cell[1] }, [burst(x, y, colour, e.hit === "nothing" ? 11 : 17),
        svg("title", { text: `${e.spell}: ${e.hit}` })]));
    } else if ((e.kind === "look" || e.kind === "scan") && e.cells) {
      const g = svg("g", { ...mark, "data-cells": e.cells.length });
      for (const [r, c] of e.cells) {
        const [x, y] = cellXY(r, c);
        g.append(svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4,
          fill: "none", stroke: SEAT_COLOURS[e.seat], "stroke-width": 2.5, opacity: 0.9 }));
      }
      if (e.opponent) {
        const [x, y] = cellXY(e.opponent[0], e.opponent[1]);
        g.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.46,
          fill: "none", stroke: "#dc2626", "stroke-width": 3, class: "found" }));
      }
      out.push(g);
    } else if (e.kind === "wall" && e.cell) {
      const [x, y] = cellXY(e.cell[0], e.cell[1]);
      out.push(svg("g", { ...mark, "data-result": e.result }, [
        svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, fill: "none",
          stroke: "#a16207", "stroke-width": 4 }),
        svg("title", { text: `wall: ${e.result}` })]));
    } else if (e.kind === "blocked" && e.cell) {
      const [x, y] = cellXY(e.cell[0], e.cell[1]);
      out.push(svg("path", { ...mark, d: `M${x + 8} ${y + 8}L${x + CELL - 8} ${y + CELL - 8}` +
        `M${x + CELL - 8} ${y + 8}L${x + 8} ${y + CELL - 8}`, stroke: "#dc2626",
      "stroke-width": 4, "stroke-linecap": "round" }));
    } else if ((e.kind === "damaged" || e.kind === "shielded") && positions[e.seat]) {
      const [x, y] = cellXY(positions[e.seat].row, positions[e.seat].col);
      out.push(svg("circle", { ...mark, cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.55,
        fill: "none", stroke: e.kind === "damaged" ? "#dc2626" : "#16a34a",
        "stroke-width": 4 }));
    }
  }
  return out;
}

/** Heal and shield leave no event: the move itself says what the caster did. */
function castMark(move, positions) {
  const spell = move && /^cast (heal|shield)\b/i.exec(move.move);
  const where = move && positions[move.seat];
  if (!spell || !where) return null;
  const [x, y] = cellXY(where.row, where.col);
  const heal = spell[1].toLowerCase() === "heal";
  return svg("g", { class: "effect", "data-effect": spell[1].toLowerCase(),
    "data-seat": move.seat }, [
    svg("circle", { cx: x + CELL - 6, cy: y + 6, r: 7, fill: heal ? "#3b82f6" : "#16a34a",
      stroke: "#fff", "stroke-width": 1.5 }),
    svg("text", { x: x + CELL - 6, y: y + 6, "text-anchor": "middle",
      "dominant-baseline": "central", fill: "#fff", "font-size": 11, "font-weight": 700,
      text: heal ? "+" : "◆" }),
  ]);
}

function bag(w, x, y) {
  const out = [];
  let at = x;
  for (const letter of ELEMENTS) {
    const n = w.elements[letter] || 0;
    out.push(svg("circle", { cx: at + 6, cy: y - 4, r: 6, fill: ELEMENT_COLOURS[letter],
      opacity: n ? 1 : 0.25 }, [svg("title", { text: ELEMENT_NAMES[letter] })]));
    out.push(svg("text", { x: at + 15, y, class: "panel-text", text: n }));
    at += 34;
  }
  return out;
}

function panel(seat, w, name, x, y, extra) {
  const g = svg("g", { class: "wizard-panel", "data-seat": seat }, [
    svg("text", { x, y, class: "panel-title", fill: SEAT_COLOURS[seat], text: name }),
    svg("text", { x, y: y + 20, class: "panel-text",
      text: `damage ${w.damage}/3 · shield ${w.shield} · skip ${w.skip} · holds ${w.held}` }),
    ...bag(w, x, y + 42),
  ]);
  if (extra) g.append(svg("text", { x: x + 180, y: y + 42, class: "panel-text", text: extra }));
  return g;
}

/** What the dots' colours mean. */
function legend() {
  const out = [];
  let x = LEFT;
  let y = geo.legendTop;
  for (const letter of ELEMENTS) {
    out.push(svg("circle", { cx: x + 5, cy: y - 4, r: 5, fill: ELEMENT_COLOURS[letter],
      stroke: "#0f172a", "stroke-width": 0.6 }));
    out.push(svg("text", { x: x + 14, y, class: "panel-text", text: ELEMENT_NAMES[letter] }));
    x += 70;
  }
  if (geo.portrait) [x, y] = [LEFT - 4, y + 22];  // the map is narrow: a second line
  out.push(svg("rect", { x: x + 4, y: y - 11, width: 14, height: 14, rx: 3, fill: "#64748b" }));
  out.push(svg("text", { x: x + 24, y, class: "panel-text", text: "obstacle (durability)" }));
  return svg("g", { class: "legend" }, out);
}

function spectatorScene(frame, ctx) {
  const view = frame.view;
  const positions = view.wizards.map((w) => (w.row === null ? null : w));
  // Effects under the wizards, so a wizard that was hit still shows who it is.
  const parts = [...mapCells(view.map, null), ...effects(frame.events || [], positions)];
  view.wizards.forEach((w, seat) => {
    if (w.row !== null) parts.push(wizard(seat, w));
  });
  parts.push(castMark(frame.move, positions));
  const panels = view.wizards.map((w, seat) => panel(seat, w, ctx.names[seat] ||
    `player ${seat}`, ...panelXY(seat)));
  return [...parts, ...panels];
}

function playerScene(frame, ctx, seat) {
  const view = frame.view;
  const you = view.you;
  const turn = view.turn;
  const fog = (r, c) => {
    const age = turn - view.map.seen[r][c];
    return age <= 1 ? 0 : Math.min(0.45, 0.05 + age * 0.01);
  };
  const positions = { [seat]: you.row === null ? null : you };
  const parts = [...mapCells(view.map, fog), ...effects(frame.events || [], positions)];
  if (view.opponent) parts.push(ghost(1 - seat, view.opponent));
  if (you.row !== null) parts.push(wizard(seat, you));
  if (frame.move && frame.move.seat === seat) parts.push(castMark(frame.move, positions));
  const seen = view.opponent ? `opponent last known at (${view.opponent.row},` +
    `${view.opponent.col}) on turn ${view.opponent.turn}: ` +
    `${LEARNED[view.opponent.how] || view.opponent.how}` : "opponent not found yet";
  parts.push(panel(seat, you, `${ctx.names[seat] || `player ${seat}`}'s view`, LEFT,
    geo.panels));
  const [x, y] = geo.portrait ? [LEFT, geo.panels + PANEL_STEP]
    : [LEFT + (geo.cols / 2) * CELL + 8, geo.panels];
  parts.push(svg("text", { x, y, class: "panel-text", text: seen }));
  return parts;
}

function narrow(target, ctx) {
  if (ctx.lying) return false;
  const width = target.clientWidth;
  return width > 0 && width < PORTRAIT_BELOW;
}

const watched = new WeakMap();

/** Draw again when the box turns from wide to narrow or back (a phone turned, a window
 *  resized): the viewer itself redraws only when the step changes. */
function watch(target, frame, ctx) {
  if (typeof ResizeObserver === "undefined") return;
  let last = watched.get(target);
  if (!last) {
    last = {};
    watched.set(target, last);
    new ResizeObserver(() => {
      if (last.frame && narrow(target, last.ctx) !== last.portrait) {
        draw(target, last.frame, last.ctx);
      }
    }).observe(target);
  }
  Object.assign(last, { frame, ctx, portrait: geo.portrait });
}

export function draw(target, frame, ctx) {
  const rows = frame.view.map.elements.length;
  const cols = frame.view.map.elements[0].length;
  geo = layout(rows, cols, narrow(target, ctx));
  const seat = ctx.view === "spectator" ? null : Number(ctx.view);
  const root = svgRoot(geo.width, geo.height, { "data-view": ctx.view,
    "data-layout": geo.portrait ? "standing" : "lying",
    "aria-label": seat === null ? "Wizard Duel map, everything" :
      `Wizard Duel map as player ${seat} knows it` });
  root.append(...axisLabels({ rows: geo.down, cols: geo.across, cell: CELL, left: LEFT,
    top: TOP }));
  if (geo.portrait) {
    root.append(svg("text", { x: 2, y: TOP - 6, class: "axis", text: "r→" }),
      svg("text", { x: 2, y: TOP + 10, class: "axis", text: "c↓" }));
  }
  const scene = seat === null ? spectatorScene(frame, ctx) : playerScene(frame, ctx, seat);
  root.append(...scene.filter(Boolean), legend());
  replaceContent(target, root);
  watch(target, frame, ctx);
}

export function caption(frame, ctx) {
  const view = frame.view;
  const who = (s) => ctx.names[s] || `player ${s}`;
  let clock = "placing the wizards";
  if (view.phase !== "place") {
    // Turns skipped after a look count among the turns but are no moves: say so, or a
    // 178-move match ending on "turn 200 of 200" reads as a miscount.
    const played = frame.over ? view.turn : view.turn - 1;
    const skipped = Math.max(0, played - (frame.step - PLACEMENTS));
    clock = `turn ${view.turn} of ${2 * view.turns_each}` +
      (skipped ? ` (${skipped} skipped after looks)` : "");
  }
  if (frame.over && view.result) return `${clock} · ${view.result.detail || view.result.reason}`;
  return `${clock} · ${view.to_move === null ? "over" : `${who(view.to_move)} to move`}`;
}

// The groups the legal actions are shown in (up to ~260 of them: every arrow's target), in
// this order; an action of a kind not named here still gets a button, under "other".
const GROUPS = [
  ["place", "Place your wizard: tap a cell of your half (or choose it below)"],
  ["move", "Move"],
  ["gather", "Gather from your cell"],
  ["look", "Look around (a longer look skips turns)"],
  ["arrow", "Fire arrow (1 fire): tap a cell to aim, then cast"],
  ["cast dragon", "Dragon fire (2 fire)"],
  ["cast heal", "Heal (water)"],
  ["cast shield", "Shield (wood)"],
  ["cast scan", "Scan (wind)"],
  ["cast wall", "Wall (earth)"],
  ["other", "Other actions"],
];
const STEPS = { "move U": "ArrowUp", "move D": "ArrowDown", "move L": "ArrowLeft",
  "move R": "ArrowRight" };
const STEP_LABELS = { U: "↑ up", D: "↓ down", L: "← left", R: "→ right" };
const SHIELD_TURNS = { 1: 1, 2: 3 };  // games/wizard_duel/state.py
const SCAN_RANGE = { 1: 5, 2: 10 };
/** Each group's legal actions counted in words, for "Your turn: …". */
const COUNTED = { place: ["cell to place on", "cells to place on"], move: ["step", "steps"],
  gather: ["way to gather", "ways to gather"], look: ["look", "looks"],
  arrow: ["arrow target", "arrow targets"], "cast dragon": ["dragon fire", "dragon fires"],
  "cast heal": ["heal", "heals"], "cast shield": ["shield", "shields"],
  "cast scan": ["scan", "scans"], "cast wall": ["wall", "walls"],
  other: ["other action", "other actions"] };

function groupOf(move) {
  const words = move.split(" ");
  const group = words[0] === "cast" ? (words[1] === "arrow" ? "arrow" : `cast ${words[1]}`)
    : words[0];
  return GROUPS.some(([name]) => name === group) ? group : "other";
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** An action in words: the button's label inside its group (``short``), or whole. The
 *  notation (``cast wall U 1``) stays the button's title and the move list's text. */
function actionWords(move, short = false) {
  const w = move.split(" ");
  const spell = w[0] === "cast" ? w[1] : null;
  const power = Number(w[w.length - 1]);
  if (w[0] === "place" && w.length === 3) return `place at (${w[1]}, ${w[2]})`;
  if (w[0] === "move" && STEP_LABELS[w[1]]) return short ? STEP_LABELS[w[1]]
    : `move ${STEP_LABELS[w[1]]}`;
  if (w[0] === "gather") {
    const what = w.slice(1).map((c) => `${c.slice(1)} ${ELEMENT_NAMES[c[0].toUpperCase()] ||
      c[0]}`).join(" + ");
    return short ? what : `gather ${what}`;
  }
  if (w[0] === "look" && w.length === 2) {
    const n = Number(w[1]);
    const what = `${plural(n, "cell", "cells")} each way` + (n > 1
      ? `, skip ${plural(n - 1, "turn", "turns")}` : "");
    return short ? what : `look ${what}`;
  }
  if (spell === "arrow" && w.length === 4) return `arrow at (${w[2]}, ${w[3]})`;
  if (spell === "dragon") return short ? "all 4 cells around you" : "dragon fire at all 4 " +
    "cells around you";
  if (spell === "heal") return `heal ${plural(power, "damage", "damage")} (${power} water)`;
  if (spell === "shield") {
    return `shield for ${plural(SHIELD_TURNS[power], "turn", "turns")} (${power} wood)`;
  }
  if ((spell === "scan" || spell === "wall") && w.length === 4 && STEP_LABELS[w[2]]) {
    const what = spell === "scan" ? `${SCAN_RANGE[power]} cells (${power} wind)`
      : `durability ${power} (${power} earth)`;
    return `${short ? "" : `${spell} `}${STEP_LABELS[w[2]]}, ${what}`;
  }
  return move;
}

/** The move list's and the caption's name of an action: its words. */
export const moveName = (move) => (move ? actionWords(move) : move);

/** A button's label inside its group: the action in words, without the group's. */
function label(move, group) {
  return group === "other" ? move : actionWords(move, true);
}

/** "Your turn: …": how many legal actions of each kind, in words. */
function legalInWords(byGroup) {
  const parts = [];
  for (const [group] of GROUPS) {
    const n = (byGroup.get(group) || []).length;
    if (n) parts.push(plural(n, ...COUNTED[group]));
  }
  const last = parts.pop();
  return parts.length ? `${parts.join(", ")} and ${last}` : last || "nothing";
}

/** The board to play on: your own view of the map (never more), the legal actions as
 *  buttons in groups, and cells to aim at (placing, arrows) chosen on the map. */
export function play(target, frame, ctx, input) {
  const kit = playKit(target, input, { keys: "Each action is a button. Tap a cell of the " +
    "map to aim (to place your wizard, or an arrow), then tap it again or press the cast " +
    "button. Arrow keys move your wizard; Enter casts at the cell aimed at." });
  const seat = input.seat;
  kit.board.classList.add("wide-board");
  draw(kit.board, frame, { ...ctx, view: String(seat), lying: true });
  const byGroup = new Map();
  for (const move of kit.legal) {
    const group = groupOf(move);
    if (!byGroup.has(group)) byGroup.set(group, []);
    byGroup.get(group).push(move);
  }
  // Actions aimed at a cell: at most one such group at a time (placing, or arrows).
  const aimGroup = byGroup.has("place") ? "place" : byGroup.has("arrow") ? "arrow" : null;
  const verb = aimGroup === "place" ? "place" : "cast arrow";
  const aimAt = (row, col) => `${verb} ${row} ${col}`;
  let aim = null;
  const root = kit.board.querySelector("svg");
  const ring = svg("g", { class: "aim", "pointer-events": "none" });
  if (root) root.append(ring);
  const rowSelect = el("select", { "aria-label": "row", "data-aim": "row" });
  const colSelect = el("select", { "aria-label": "column", "data-aim": "col" });
  const fire = kit.button("", () => commit(), { "data-action": "aim" });

  if (aimGroup === "place" && root) {
    for (const move of byGroup.get("place")) {
      const [, r, c] = move.split(" ").map(Number);
      root.querySelector(`.cell[data-row="${r}"][data-col="${c}"]`)?.classList.add("legal");
    }
  }

  function showAim() {
    ring.replaceChildren();
    const move = aim ? aimAt(aim[0], aim[1]) : null;
    const ok = move !== null && kit.legal.has(move);
    fire.disabled = aim ? !ok : false;
    fire.textContent = aim ? `${aimGroup === "place" ? "Place" : "Shoot arrow"} at ` +
      `(${aim[0]}, ${aim[1]})` : (aimGroup === "place" ? "Place at…" : "Shoot arrow at…");
    kit.board.dataset.aim = move || "";
    if (!aim) return;
    rowSelect.value = String(aim[0]);
    colSelect.value = String(aim[1]);
    const [x, y] = cellXY(aim[0], aim[1]);
    ring.append(svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2,
      fill: "none", stroke: ok ? "#0f172a" : "#dc2626", "stroke-width": 4,
      "stroke-dasharray": ok ? null : "5 3", "data-legal": ok ? "1" : "0" }));
    const words = actionWords(move);
    if (ok) kit.say(`${words.charAt(0).toUpperCase()}${words.slice(1)}: tap the cell again ` +
      "or press the button to do it.", "legal");
    else kit.say(`${words.charAt(0).toUpperCase()}${words.slice(1)} is not a legal action.`,
      "illegal");
  }

  function commit() {
    const [row, col] = aim || [rowSelect.value, colSelect.value];
    kit.send(aimAt(row, col), actionWords(aimAt(row, col)));
  }

  for (const [group, title] of GROUPS) {
    const moves = byGroup.get(group);
    if (!moves) continue;
    const box = el("fieldset", { class: "action-group", "data-group": group }, [
      el("legend", { text: title })]);
    if (group === aimGroup) {
      const targets = moves.map((m) => m.split(" ").slice(-2).map(Number));
      const rows = [...new Set(targets.map(([r]) => r))].sort((a, b) => a - b);
      const cols = [...new Set(targets.map(([, c]) => c))].sort((a, b) => a - b);
      rowSelect.replaceChildren(...rows.map((r) => el("option", { value: r, text: `row ${r}` })));
      colSelect.replaceChildren(...cols.map((c) => el("option", { value: c,
        text: `column ${c}` })));
      const picked = () => {
        aim = [Number(rowSelect.value), Number(colSelect.value)];
        showAim();
      };
      kit.listen(rowSelect, "change", picked);
      kit.listen(colSelect, "change", picked);
      box.append(el("div", { class: "aim-form" }, [rowSelect, colSelect, fire]));
    } else {
      box.append(...moves.map((move) => kit.button(label(move, group),
        () => kit.send(move, actionWords(move)), { "data-move": move, title: move })));
    }
    kit.panel.append(box);
  }
  if (aimGroup) {
    // Start the aim where it helps: the opponent's last sighting for an arrow.
    const seen = frame.view.opponent;
    if (aimGroup === "arrow" && seen && kit.legal.has(aimAt(seen.row, seen.col))) {
      aim = [seen.row, seen.col];
    }
    kit.listen(kit.board, "click", (event) => {
      const cell = event.target.closest && event.target.closest(".cell");
      if (!cell) return;
      const at = [Number(cell.dataset.row), Number(cell.dataset.col)];
      if (aim && aim[0] === at[0] && aim[1] === at[1] && kit.legal.has(aimAt(...at))) commit();
      else {
        aim = at;
        showAim();
      }
    });
  }
  if (input.yourTurn) {
    kit.onKey((event) => {
      const step = Object.keys(STEPS).find((m) => STEPS[m] === event.key);
      if (step) {
        kit.send(step, actionWords(step));
        return true;
      }
      if (event.key === "Enter" && aim && aimGroup) {
        commit();
        return true;
      }
      return false;
    });
    kit.say(`Your turn: you may choose among ${legalInWords(byGroup)}.`);
    if (aimGroup) showAim();
  } else kit.idle(frame);
  return kit;
}
