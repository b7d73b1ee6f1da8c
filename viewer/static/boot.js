// The league's match page: read the header the page embeds, load the game's module, fetch
// frames from the API in ranges and, for a running match, follow it.

import { HttpFrames } from "botleague-viewer/frames.js";
import { el } from "botleague-viewer/dom.js";
import { mountViewer } from "botleague-viewer/viewer.js";

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" },
    credentials: "same-origin" });
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  return response.json();
}

async function boot(root) {
  performance.mark("viewer:boot");
  const header = JSON.parse(document.getElementById(root.dataset.header).textContent);
  if (!/^[a-z0-9_]+$/.test(header.game)) throw new Error(`unknown game ${header.game}`);
  let game;
  try {
    game = await import(`botleague-viewer/games/${header.game}.js`);
  } catch (error) {
    throw new Error(`this viewer cannot draw ${header.game} yet (${error.message})`);
  }
  performance.mark("viewer:game-loaded");
  const store = new HttpFrames({ url: header.frames_url, chunk: header.chunk,
    total: header.total, onNews: null, opening: header.opening });
  return mountViewer(root, { header, store, game,
    reloadHeader: () => getJson(header.header_url) });
}

for (const root of document.querySelectorAll("[data-viewer]")) {
  boot(root).catch((error) => {
    root.replaceChildren(el("p", { class: "viewer-banner error",
      text: `The replay viewer could not start: ${error.message}` }));
  });
}
