// The entry module: wires the state (state.js), the frames (frames.js), rendering (render.js)
// and the controls (controls.js). Actions change the state through the reducer; one
// requestAnimationFrame callback draws the result, so a burst of events (a scrub drag, a held
// arrow key) costs one drawing per screen refresh.

import { bindControls } from "./controls.js";
import { buildShell, indexLogs, renderBoard, renderChrome } from "./render.js";
import { formatHash, goTo, grow, initialState, isLive, parseHash, reduce, setView, tick }
  from "./state.js";

const POLL_MS = 500;
const RETRY_MS = 2000;
const URL_EVERY_MS = 300;  // browsers throttle history updates; a scrub makes hundreds

/**
 * Show a match in ``root``. ``header`` is the match's header (sandbox/viewer_data.py), ``store``
 * gives frames (HttpFrames or InlineFrames), ``game`` is the game's module (games/*.js).
 * ``reloadHeader`` fetches the header again (a live match's end). Returns ``unmount``.
 */
export function mountViewer(root, { header: firstHeader, store, game, useHash = true,
  reloadHeader = null }) {
  let header = firstHeader;
  const parts = buildShell(root, header);
  const fromUrl = useHash ? parseHash(window.location.hash) : { step: null, view: "spectator" };
  let state = initialState(header, fromUrl);
  let moves = header.moves.slice();
  let logIndex = indexLogs(header.logs);
  let error = null;
  let drawn = null;           // the frame on the board and the view it was drawn for
  let scheduled = false;
  let lastTime = null;
  let followList = true;      // keep the current move in sight, until the list is scrolled
  let urlShownAt = 0;
  let urlTimer = null;
  let pollTimer = null;
  let gone = false;

  function names() {
    return Object.fromEntries((header.players || []).map((p) => [p.seat, p.name]));
  }

  function schedule() {
    if (!scheduled && !gone) {
      scheduled = true;
      requestAnimationFrame(draw);
    }
  }

  function dispatch(action) {
    if (action.type === "scrolled") {
      followList = false;
    } else if (action.type === "hash") {
      const wanted = parseHash(action.hash);
      state = setView(wanted.step === null ? state : goTo(state, wanted.step), wanted.view);
      followList = true;
    } else {
      state = reduce(state, action);
      followList = !action.fromList;
    }
    schedule();
  }

  function learn(news) {
    if (news.error) {
      error = news.error;
      setTimeout(schedule, RETRY_MS);  // drawing asks for the missing frames again
      schedule();
      return;
    }
    error = null;
    for (const frame of news.frames || []) {
      if (frame.move && frame.step > moves.length) {
        moves[frame.step - 1] = [frame.move.seat, frame.move.move, frame.move.time];
      }
    }
    const wasLive = state.live;
    state = grow(state, { total: Math.max(news.total, state.total), status: news.status,
      broken: news.broken });
    if (wasLive && !state.live) ended();
    schedule();
  }

  /** A live match just ended: its header now has the result, the logs and the download. */
  async function ended() {
    if (!reloadHeader) return;
    try {
      header = await reloadHeader();
    } catch (_) {
      setTimeout(ended, RETRY_MS);
      return;
    }
    moves = header.moves.slice();
    logIndex = indexLogs(header.logs);
    store.total = header.total;
    store.forgetFrom(Math.max(header.total - 2, 0));  // the last frame may show a forfeit now
    state = grow(state, { total: header.total, status: header.status, broken: header.broken });
    schedule();
  }

  function poll() {
    pollTimer = null;
    if (gone || !state.live) return;
    store.poll(state.view, state.total).finally(() => {
      if (!gone && state.live) pollTimer = setTimeout(poll, POLL_MS);
    });
  }

  function showUrl() {
    if (!useHash) return;
    const hash = formatHash(state);
    if (window.location.hash === hash) return;
    const now = performance.now();
    clearTimeout(urlTimer);
    if (now - urlShownAt < URL_EVERY_MS) {
      urlTimer = setTimeout(showUrl, URL_EVERY_MS);
      return;
    }
    urlShownAt = now;
    window.history.replaceState(null, "", hash);
  }

  function draw(now) {
    scheduled = false;
    if (state.playing) {
      const ms = lastTime === null ? 0 : Math.min(now - lastTime, 250);
      lastTime = now;
      state = tick(state, ms, store.readyFrom(state.view, state.step));
    } else {
      lastTime = null;
    }
    store.need(state.view, state.step);
    const frame = store.get(state.view, state.step);
    if (frame && (!drawn || drawn.frame !== frame || drawn.view !== state.view)) {
      renderBoard(parts, game, frame, { header, names: names(), view: state.view });
      if (!root.dataset.firstFrameMs) {
        performance.mark("viewer:first-frame");
        root.dataset.firstFrameMs = performance.now().toFixed(1);
      }
      drawn = { frame, view: state.view };
    }
    parts.board.classList.toggle("loading", !frame);
    renderChrome(parts, { state, header, frame: frame || null, game, moves, error, logIndex,
      followList });
    showUrl();
    if (state.playing) schedule();
  }

  // A game may lay its board out by the room it has (Blokus Duo's pieces go under the board
  // on a phone): a new width redraws the board.
  let width = 0;
  const resized = new ResizeObserver(() => {
    const now = Math.round(parts.board.clientWidth);
    if (Math.abs(now - width) > 1) {
      width = now;
      drawn = null;
      schedule();
    }
  });
  resized.observe(parts.board);
  const unbind = bindControls(parts, dispatch);
  if (isLive(header.status)) pollTimer = setTimeout(poll, POLL_MS);
  const news = store.onNews;
  store.onNews = (data) => {
    if (news) news(data);
    learn(data);
  };
  schedule();
  return () => {
    gone = true;
    unbind();
    resized.disconnect();
    clearTimeout(pollTimer);
    clearTimeout(urlTimer);
  };
}
