// Stones starter bot in Node.js: the protocol and the rules written out by hand (no engine).
//
// The referee sends one JSON object per line: "start" once, "turn" whenever it is your move,
// "end" at the close. Answer each turn with one line, the move "row,col" (0-based).
// A turn's observation.board is the board as strings: '#' a stone, 'x' a cell next to a
// stone (blocked for both players), '.' free. Whoever has no free cell on their turn loses.
//
// The strategy is the Python starter's (examples/stones/main.py): for each legal move, the
// first rule that tells the moves apart decides:
//   1. a move that leaves the opponent no free cell wins at once;
//   2. never leave the opponent a reply that would leave you no free cell;
//   3. prefer a board that is point-symmetric about the centre: every reply then has a free
//      mirror image (the first player on an odd board takes the centre, then mirrors);
//   4. otherwise leave as few free cells as possible.
// Where to improve: search deeper (a 5 x 5 game is short), or cache positions judged before.
//
//   python -m sandbox play stones examples/stones_js builtin:random --games 40
const readline = require("readline");

// A copy of the board (arrays of characters) with a stone on (r, c).
function place(board, r, c) {
  const next = board.map((row) => row.slice());
  for (let y = r - 1; y <= r + 1; y++) {
    for (let x = c - 1; x <= c + 1; x++) {
      if (next[y] !== undefined && next[y][x] === ".") next[y][x] = "x";
    }
  }
  next[r][c] = "#";
  return next;
}

function freeCells(board) {
  const cells = [];
  board.forEach((row, r) => row.forEach((ch, c) => { if (ch === ".") cells.push([r, c]); }));
  return cells;
}

function symmetric(board) {
  const n = board.length;
  return board.every((row, r) => row.every((ch, c) => ch === board[n - 1 - r][n - 1 - c]));
}

// Smaller is better, compared rule by rule.
function value(board, r, c) {
  const child = place(board, r, c);
  const replies = freeCells(child);
  const theyWin = replies.some(([y, x]) => freeCells(place(child, y, x)).length === 0);
  return [replies.length > 0, theyWin, !symmetric(child), replies.length].map(Number);
}

function better(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

function choose(observation, legalMoves) {
  const board = observation.board.map((row) => row.split(""));
  let best = legalMoves[0];
  let bestValue = null;
  for (const move of legalMoves) {
    const [r, c] = move.split(",").map(Number);
    const v = value(board, r, c);
    if (bestValue === null || better(v, bestValue)) [best, bestValue] = [move, v];
  }
  return best;
}

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "turn") process.stdout.write(choose(msg.observation, msg.legal_moves) + "\n");
  if (msg.type === "end") rl.close();
});
