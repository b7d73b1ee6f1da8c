// Each game module's ``play`` in Node, on real positions (tests/viewer/play_positions.py):
// clicks, taps, keys and swipes on what it drew, and the moves it submits. Every submitted
// move must be one of the engine's legal moves, every legal move must be reachable, an
// illegal choice must be shown as illegal and sent nowhere, and nothing is sent when it is
// not the player's turn. Prints {game: {problems, submitted, positions}} as JSON.
//
// node play_checks.mjs DATA PREFIX ROOT   (PREFIX: "botleague-viewer/", ROOT: static/ URL)

import { register } from "node:module";
import { readFileSync } from "node:fs";
import { Event, installDom } from "./fake_dom.mjs";

const [DATA, PREFIX, ROOT] = process.argv.slice(2);
register("data:text/javascript," + encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier.startsWith(${JSON.stringify(PREFIX)})) {
    return { url: new URL(specifier.slice(${PREFIX.length}), ${JSON.stringify(ROOT)}).href,
      shortCircuit: true };
  }
  return next(specifier, context);
}`));

const data = JSON.parse(readFileSync(DATA, "utf8"));
const undocumented = new Set();
const TYPES = { function: "function", list: "object", bool: "boolean", int: "number" };
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A board of ``module`` on ``position``: its target, the moves it sent, and helpers. Moves
 *  are accepted, or with ``refuse`` refused with that error. */
function mount(module, header, position, { yourTurn = !position.over, refuse = null } = {}) {
  const document = installDom();
  const target = document.createElement("div");
  document.body.append(target);
  const sent = [];
  // Only what docs/viewer.md's contract:play-input lists; reading anything else is noted.
  const input = new Proxy({
    legalMoves: yourTurn ? position.legal : [],
    yourTurn,
    over: Boolean(position.over),
    seat: position.seat,
    submit: async (move) => {
      sent.push(move);
      return refuse ? { ok: false, error: refuse } : { ok: true };
    },
  }, { get: (t, key) => {
    if (typeof key === "string" && !(key in data.input)) undocumented.add(key);
    return t[key];
  } });
  const names = Object.fromEntries(header.players.map((p) => [p.seat, p.name]));
  const ctx = { header, names, view: String(position.seat) };
  const handle = module.play(target, position.frame, ctx, input);
  const fire = (node, type, init = {}) => node.dispatchEvent(new Event(type,
    { bubbles: true, ...init }));
  return {
    document, target, sent, handle, input,
    status: () => target.querySelector(".play-status"),
    state: () => target.querySelector(".play-status").dataset.state,
    click: async (node) => {
      fire(node.firstElementChild || node, "click");
      await tick();
    },
    press: async (key, init = {}) => {
      fire(document.body, "keydown", { key, ...init });
      await tick();
    },
    fire,
  };
}

function checker() {
  const problems = [];
  return {
    problems,
    expect(ok, text) {
      if (!ok && problems.length < 12) problems.push(text);
    },
  };
}

/** Stones: every cell clicked; the legal ones send their text, the others are refused. */
async function stones(module, header, position, c) {
  // Each move refused (as the server may), so one board tries them all.
  const b = mount(module, header, position, { refuse: "noted" });
  const legal = new Set(b.input.legalMoves);
  const cells = b.target.querySelectorAll(".play-board .cell");
  c.expect(cells.length === position.frame.view.size ** 2, "not every cell is drawn");
  const reached = new Set();
  for (const cell of cells) {
    const move = `${cell.dataset.row},${cell.dataset.col}`;
    const before = b.sent.length;
    await b.click(cell);
    if (legal.has(move)) {
      c.expect(b.sent.length === before + 1 && b.sent.at(-1) === move, `${move} not sent`);
      reached.add(move);
    } else {
      c.expect(b.sent.length === before, `${move} sent though illegal`);
      c.expect(b.state() === "illegal", `${move}: not shown as illegal (${b.state()})`);
    }
  }
  const keyed = b.target.querySelector(".cell.legal");
  if (keyed) {
    b.fire(keyed, "keydown", { key: "Enter" });
    await tick();
    c.expect(b.sent.at(-1) === keyed.dataset.move, "Enter on a cell did not place");
  }
  return reached;
}

/** Blokus Duo: every piece in every orientation (by the buttons) held over every square;
 *  the preview is legal exactly when its code is a legal move, and those codes are all of
 *  them. Then placements by keys and a second tap, an illegal one refused, and the pass. */
async function blokus(module, header, position, c, full) {
  const b = mount(module, header, position, { refuse: "noted" });
  const legal = new Set(b.input.legalMoves);
  const reached = new Set();
  const ways = new Map();
  const board = b.target.querySelector(".play-board");
  const cellsByKey = new Map(board.querySelectorAll(".cell").map((cell) =>
    [`${cell.dataset.row},${cell.dataset.col}`, cell]));
  const cellAt = (r, col) => cellsByKey.get(`${r},${col}`);
  const tray = b.target.querySelectorAll("button[data-piece]");
  const size = position.frame.view.board.length;
  let illegal = null;
  for (const button of tray) {
    if (button.disabled) {
      const letter = button.dataset.piece;
      c.expect(![...legal].some((m) => m[0] === letter), `${letter} disabled but fits`);
      continue;
    }
    await b.click(button);
    c.expect(button.getAttribute("aria-pressed") === "true", "the chosen piece is not shown");
    for (let flips = 0; flips < 2; flips += 1) {
      for (let turns = 0; turns < 4; turns += 1) {
        const cells = full ? [...Array(size * size).keys()] : [55, 60, 98, 137, 150];
        for (const i of cells) {
          const [r, col] = [Math.floor(i / size), i % size];
          await b.click(cellAt(r, col));
          const code = board.dataset.preview;
          const shown = board.dataset.previewLegal === "1";
          c.expect(shown === legal.has(code), `${code} shown ${shown ? "legal" : "illegal"}`);
          if (shown && !ways.has(code)) ways.set(code, { piece: button.dataset.piece, flips,
            turns, r, col });
          if (shown) reached.add(code);
          else illegal = illegal || { piece: button.dataset.piece, flips, turns, r, col };
        }
        await b.click(b.target.querySelector("button[data-action=rotate]"));
      }
      await b.click(b.target.querySelector("button[data-action=flip]"));
    }
  }
  c.expect(b.sent.length === 0, `previews sent moves: ${b.sent.slice(0, 3)}`);
  // Placing: the same orientation reached by keys (R, Shift+R, F), then a second click.
  const sample = [...ways].filter((_, i) => i % 37 === 0).slice(0, 8);
  for (const [code, way] of sample) {
    const p = mount(module, header, position);
    await p.press("]");
    while (p.target.querySelector("button[aria-pressed=true]").dataset.piece !== way.piece) {
      await p.press("]");
    }
    // As the buttons did: flip first, then the turns (each as three turns back, Shift+R).
    if (way.flips) await p.press("f");
    for (let i = 0; i < 3 * way.turns; i += 1) await p.press("R", { shiftKey: true });
    const pb = p.target.querySelector(".play-board");
    const cell = pb.querySelector(`.cell[data-row="${way.r}"][data-col="${way.col}"]`);
    await p.click(cell);
    c.expect(pb.dataset.preview === code, `by keys: ${pb.dataset.preview}, not ${code}`);
    // A tap where the preview already was places it; else the second tap does.
    if (!p.sent.length) await p.click(cell);
    c.expect(p.sent.length === 1 && p.sent[0] === code, `second tap sent ${p.sent} for ${code}`);
  }
  // A fresh page with a found way's piece chosen and oriented as the tray's walk found it, by
  // the buttons (flipped first, then the turns); with the way's cell on its board.
  const oriented = async (way) => {
    const p = mount(module, header, position);
    await p.click(p.target.querySelector(`button[data-piece="${way.piece}"]`));
    if (way.flips) await p.click(p.target.querySelector("button[data-action=flip]"));
    for (let i = 0; i < way.turns; i += 1) {
      await p.click(p.target.querySelector("button[data-action=rotate]"));
    }
    return [p, p.target.querySelector(`.play-board .cell[data-row="${way.r}"][data-col="${way.col}"]`)];
  };
  if (sample.length) {
    const [code, way] = sample[0];
    const [p, at] = await oriented(way);
    // Held there by the arrow keys from the start square, then Enter.
    const start = header.assets.start_squares[position.seat];
    const [r0, c0] = [start.y, start.x];
    for (let i = 0; i < Math.abs(way.r - r0); i += 1) await p.press(way.r > r0 ? "ArrowDown" : "ArrowUp");
    for (let i = 0; i < Math.abs(way.col - c0); i += 1) await p.press(way.col > c0 ? "ArrowRight" : "ArrowLeft");
    c.expect(p.target.querySelector(".play-board").dataset.preview === code, "arrow keys");
    c.expect(p.sent.length === 0 && at, "moving the preview sent a move");
    // Enter on a focused button is that button's, not the board's
    p.fire(p.target.querySelector("button[data-action=rotate]"), "keydown", { key: "Enter" });
    await tick();
    c.expect(p.sent.length === 0, "Enter on a focused button placed the piece");
    await p.press("Enter");
    c.expect(p.sent.length === 1 && p.sent[0] === code, `Enter sent ${p.sent} for ${code}`);
  }
  if (illegal) {
    const [p, cell] = await oriented(illegal);
    await p.click(cell);
    await p.click(cell);
    await p.press("Enter");
    await p.click(p.target.querySelector("button[data-action=place]"));
    c.expect(p.sent.length === 0, `an illegal preview was sent: ${p.sent}`);
    c.expect(p.state() === "illegal", `an illegal preview is not shown as illegal: ${p.state()}`);
    c.expect(p.target.querySelector(".preview").dataset.legal === "0", "preview not marked");
  }
  const pass = b.target.querySelector("button[data-action=pass]");
  c.expect(pass.disabled === !legal.has("X000"), "the pass button's state");
  if (legal.has("X000")) {
    const p = mount(module, header, position);
    const button = p.target.querySelector("button[data-action=pass]");
    await p.click(button);
    c.expect(p.sent.length === 0, "one press of pass sent it");
    await p.click(button);
    c.expect(p.sent.join() === "X000", `pass sent ${p.sent}`);
    reached.add("X000");
  }
  return full ? reached : legal;
}

/** 2048: arrow keys, WASD, buttons and swipes. */
async function g2048(module, header, position, c) {
  const words = { L: "ArrowLeft", R: "ArrowRight", U: "ArrowUp", D: "ArrowDown" };
  const swipes = { L: [-60, 5], R: [70, -10], U: [3, -50], D: [-8, 80] };
  const legal = new Set(position.over ? [] : position.legal);
  const reached = new Set();
  for (const [move, key] of Object.entries(words)) {
    for (const how of ["key", "wasd", "button", "swipe"]) {
      const b = mount(module, header, position);
      if (how === "key") await b.press(key);
      else if (how === "wasd") await b.press({ L: "a", R: "d", U: "w", D: "s" }[move]);
      else if (how === "button") await b.click(b.target.querySelector(`button[data-move=${move}]`));
      else {
        const svgRoot = b.target.querySelector(".play-board svg");
        const [dx, dy] = swipes[move];
        b.fire(svgRoot, "pointerdown", { clientX: 100, clientY: 100, pointerId: 7 });
        b.fire(svgRoot, "pointerup", { clientX: 100 + dx, clientY: 100 + dy, pointerId: 7 });
        await tick();
      }
      if (legal.has(move)) {
        c.expect(b.sent.join() === move, `${how} ${move} sent ${b.sent}`);
        reached.add(move);
      } else {
        c.expect(b.sent.length === 0, `${how} ${move} sent though illegal`);
        if (how !== "button") c.expect(b.state() === "illegal", `${how} ${move} not refused`);
      }
    }
  }
  const b = mount(module, header, position);
  const svgRoot = b.target.querySelector(".play-board svg");
  b.fire(svgRoot, "pointerdown", { clientX: 100, clientY: 100, pointerId: 1 });
  b.fire(svgRoot, "pointerup", { clientX: 104, clientY: 103, pointerId: 1 });
  await tick();
  c.expect(b.sent.length === 0, "a tap slid the tiles");
  return reached;
}

/** Robots: the keypad's buttons and the digit keys. */
async function robots(module, header, position, c) {
  const legal = new Set(position.over ? [] : position.legal);
  const reached = new Set();
  for (const move of "0123456789") {
    for (const how of ["button", "key"]) {
      const b = mount(module, header, position);
      const button = b.target.querySelector(`.keypad button[data-move="${move}"]`);
      c.expect(button && button.disabled === !legal.has(move), `button ${move}'s state`);
      if (how === "button") await b.click(button);
      else await b.press(move);
      if (legal.has(move)) {
        c.expect(b.sent.join() === move, `${how} ${move} sent ${b.sent}`);
        reached.add(move);
      } else {
        c.expect(b.sent.length === 0, `${how} ${move} sent though illegal`);
        if (how === "key") c.expect(b.state() === "illegal", `key ${move} not refused`);
      }
    }
  }
  const b = mount(module, header, position);
  await b.press("ArrowUp");
  c.expect(legal.has("8") ? b.sent.join() === "8" : b.sent.length === 0, "ArrowUp is not 8");
  return reached;
}

/** Wizard Duel: every action button, every aimed action (a tap, then a second tap, or the
 *  row and column chosen and the button), an illegal aim refused, arrow keys. */
async function wizard(module, header, position, c) {
  const b = mount(module, header, position, { refuse: "noted" });
  const legal = new Set(b.input.legalMoves);
  const reached = new Set();
  c.expect(b.target.querySelector("svg").dataset.view === String(position.seat),
    "not drawn as the player's own view");
  for (const button of b.target.querySelectorAll("button[data-move]")) {
    const move = button.dataset.move;
    const before = b.sent.length;
    await b.click(button);
    c.expect(b.sent.length === before + 1 && b.sent.at(-1) === move, `button ${move}`);
    reached.add(move);
  }
  const aims = [...legal].filter((m) => /^(place|cast arrow) \d+ \d+$/.test(m));
  const board = b.target.querySelector(".play-board");
  for (const move of aims) {
    const [r, col] = move.split(" ").slice(-2);
    const cell = board.querySelector(`.cell[data-row="${r}"][data-col="${col}"]`);
    const before = b.sent.length;
    await b.click(cell);
    if (board.dataset.aim === move && b.sent.length === before) await b.click(cell);
    c.expect(b.sent.length === before + 1 && b.sent.at(-1) === move, `aim ${move}`);
    reached.add(move);
  }
  if (aims.length) {
    const p = mount(module, header, position);
    const [r, col] = aims.at(-1).split(" ").slice(-2);
    const row = p.target.querySelector("select[data-aim=row]");
    const column = p.target.querySelector("select[data-aim=col]");
    row.value = r;
    p.fire(row, "change");
    column.value = col;
    p.fire(column, "change");
    await p.click(p.target.querySelector("button[data-action=aim]"));
    c.expect(p.sent.join() === aims.at(-1), `the aim form sent ${p.sent}`);
    if (aims[0].startsWith("place")) {
      // The other half of the map is not yours to place on.
      const q = mount(module, header, position);
      const other = position.seat === 0 ? 15 : 4;
      const cell = q.target.querySelector(`.play-board .cell[data-row="3"][data-col="${other}"]`);
      await q.click(cell);
      await q.click(cell);
      await q.press("Enter");
      c.expect(q.sent.length === 0, `a placement in the other half was sent: ${q.sent}`);
      c.expect(q.state() === "illegal", "a placement in the other half not shown illegal");
    }
  }
  if (legal.has("move U")) {
    const p = mount(module, header, position);
    await p.press("ArrowUp");
    c.expect(p.sent.join() === "move U", `ArrowUp sent ${p.sent}`);
  }
  return reached;
}

const DRIVERS = { stones, blokus_duo: blokus, g2048, robots, wizard_duel: wizard };
const out = {};
for (const [game, { header, positions }] of Object.entries(data.games)) {
  const module = await import(`${PREFIX}games/${game}.js`);
  const c = checker();
  let submitted = 0;
  for (const [i, position] of positions.entries()) {
    if (position.over) {
      const b = mount(module, header, position);
      c.expect(b.target.querySelector(".play-board svg"), `${game}: the end is not drawn`);
      continue;
    }
    const reached = await DRIVERS[game](module, header, position, c, i < 2);
    const legal = new Set(position.legal);
    const missing = [...legal].filter((m) => !reached.has(m));
    c.expect(missing.length === 0, `step ${position.step}: unreachable ${missing.slice(0, 5)}`);
    c.expect([...reached].every((m) => legal.has(m)), `step ${position.step}: reached an ` +
      "illegal move");
    submitted += reached.size;
    // Not the player's turn: nothing the page does sends a move.
    const idle = mount(module, header, position, { yourTurn: false });
    for (const node of idle.target.querySelectorAll("button, .cell, .tile")) {
      await idle.click(node);
      await idle.click(node);
    }
    for (const key of ["ArrowUp", "ArrowLeft", "Enter", "8", "0", "r", "f", "]"]) {
      await idle.press(key);
    }
    c.expect(idle.sent.length === 0, `${game}: sent ${idle.sent} when not its turn`);
    // A refused move says why, and the board stays usable.
    const refused = mount(module, header, position, { refuse: "illegal move: the engine says no" });
    const legalOne = position.legal.find((m) => m !== "X000") || position.legal[0];
    for (const [field, kind] of Object.entries(data.returns)) {
      c.expect(typeof refused.handle[field] === TYPES[kind], `play() returns no ${field}`);
    }
    await refused.handle.send(legalOne);
    c.expect(refused.status().textContent.includes("the engine says no") &&
      refused.state() === "error", `${game}: a refusal is not shown`);
    refused.handle.destroy();
    await refused.press("ArrowUp");
    c.expect(refused.sent.length === 1, `${game}: keys still bound after destroy()`);
  }
  c.expect(undocumented.size === 0, `reads input.${[...undocumented]}, not in the contract`);
  undocumented.clear();
  out[game] = { problems: c.problems, submitted, positions: positions.length };
}
console.log(JSON.stringify(out));
