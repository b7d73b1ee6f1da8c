// A self-contained replay file (python -m sandbox ... --html): the header and every frame are
// in the page, so it opens from disk with no server and no network.

import { InlineFrames } from "botleague-viewer/frames.js";
import { mountViewer } from "botleague-viewer/viewer.js";

export function mountOffline(root, game) {
  const data = JSON.parse(document.getElementById("viewer-data").textContent);
  const store = new InlineFrames(data.frames);
  return mountViewer(root, { header: data.header, store, game });
}
