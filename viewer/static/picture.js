// A still picture of one position (a game's page on the site): the game's own module draws
// one frame and its caption, with none of the viewer's controls. The page embeds the header
// and the frame (data-picture names the element holding them).

import { el } from "botleague-viewer/dom.js";

async function drawPicture(root) {
  const { header, frame } = JSON.parse(document.getElementById(root.dataset.picture)
    .textContent);
  if (!/^[a-z0-9_]+$/.test(header.game)) throw new Error(`unknown game ${header.game}`);
  const game = await import(`botleague-viewer/games/${header.game}.js`);
  const names = Object.fromEntries((header.players || []).map((p) => [p.seat, p.name]));
  const ctx = { header, names, view: "spectator" };
  const board = el("div", { class: "viewer-board", "data-game": header.game });
  game.draw(board, frame, ctx);
  root.replaceChildren(board, el("p", { class: "viewer-caption",
    text: `After ${frame.step} moves: ${game.caption(frame, ctx)}` }));
  root.dataset.drawn = "true";
}

for (const root of document.querySelectorAll("[data-picture]")) {
  drawPicture(root).catch((error) => {
    root.replaceChildren(el("p", { class: "viewer-banner error",
      text: `The picture could not be drawn: ${error.message}` }));
  });
}
