// Node.js bot: plays the first legal move.
const readline = require("readline");
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "turn") process.stdout.write(msg.legal_moves[0] + "\n");
  if (msg.type === "end") rl.close();
});
