// The entry module: wires the state (state.js), the frames (frames.js), rendering (render.js)
// and the controls (controls.js). Actions change the state through the reducer; one
// requestAnimationFrame callback draws the result, so a burst of events (a scrub drag, a held
// arrow key) costs one drawing per screen refresh.

import { bindControls } from "botleague-viewer/controls.js";
import { noteScroll, scrollToStep } from "botleague-viewer/movelist.js";
import { buildShell, indexLogs, renderBoard, renderChrome } from "botleague-viewer/render.js";
import { formatHash, goTo, grow, initialState, isLive, parseHash, reduce, setView, tick }
  from "botleague-viewer/state.js";

const POLL_MS = 500;
const RETRY_MS = 2000;
const URL_EVERY_MS = 300;  // browsers throttle history updates; a scrub makes hundreds
const SCRUB_SETTLE_MS = 150;

/**
 * Show a match in ``root``. ``header`` is the match's header (replay/viewer_data.py), ``store``
 * gives frames (HttpFrames or InlineFrames), ``game`` is the game's module (games/*.js); what
 * each holds and exports: docs/viewer.md, "The frame format".
 * ``reloadHeader`` fetches the header again (a live match's end). Returns ``unmount``.
 */
export function mountViewer(root, { header: firstHeader, store, game, useHash = true,
  reloadHeader = null }) {
  let header = firstHeader;
  const parts = buildShell(root, header);
  const fromUrl = useHash ? parseHash(window.location.hash) : { step: null, view: "spectator" };
  let state = initialState(header, fromUrl);
  // Every move by number (moves[i] makes step i + 1); a long game's header leaves them out
  // and they come with the frames, so the list fills in as frames arrive.
  let moves = (header.moves || []).slice();
  for (const frame of (header.opening && header.opening.frames) || []) {
    if (frame.move) moves[frame.step - 1] = [frame.move.seat, frame.move.move, frame.move.time];
  }
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
  let scrubbedAt = -Infinity;  // while the scrub bar moves, the side panel waits for it
  let settleTimer = null;

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
      // The list scrolling itself to the current move says so too; only a person's scroll
      // (to somewhere else) stops it following.
      if (Math.abs(parts.moves.scrollTop - parts.list.scrollTop) < 1) return;
      followList = false;
      noteScroll(parts.list);
    } else if (action.type === "hash") {
      const wanted = parseHash(action.hash);
      state = setView(wanted.step === null ? state : goTo(state, wanted.step), wanted.view);
      followList = true;
    } else {
      state = reduce(state, action);
      followList = !action.fromList;
      if (action.scrubbing) scrubbedAt = performance.now();
    }
    schedule();
  }

  function learn(news) {
    if (news.resume) {  // a pause after a failure is over: drawing asks again
      schedule();
      return;
    }
    if (news.error) {
      error = news.error;
      setTimeout(schedule, RETRY_MS);  // drawing asks for the missing frames again
      schedule();
      return;
    }
    error = null;
    for (const frame of news.frames || []) {
      if (frame.move) moves[frame.step - 1] = [frame.move.seat, frame.move.move, frame.move.time];
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
    if (header.moves) moves = header.moves.slice();
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
    const began = performance.now();
    if (state.playing) {
      const ms = lastTime === null ? 0 : Math.min(now - lastTime, 250);
      lastTime = now;
      state = tick(state, ms, store.readyFrom(state.view, state.step));
    } else {
      lastTime = null;
    }
    // During a drag of the scrub bar only the board and the controls follow it, every frame;
    // the move list and the logs catch up once it rests (each costs a repaint per frame).
    const settled = performance.now() - scrubbedAt >= SCRUB_SETTLE_MS;
    if (!settled && !settleTimer) {
      settleTimer = setTimeout(() => { settleTimer = null; schedule(); }, SCRUB_SETTLE_MS);
    }
    if (followList && settled) scrollToStep(parts.list, state.step, state.total);
    const frame = store.get(state.view, state.step);
    if (!frame) store.need(state.view, state.step);
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
      settled });
    // Then what comes next: the frames ahead (reading ahead once this one is on screen, so
    // the first frame never waits for it) and the moves of rows in sight.
    if (frame) store.need(state.view, state.step);
    for (const step of parts.list.missing) store.need(state.view, step);
    showUrl();
    if (state.playing) schedule();
    // Timed for the benchmark (benchmarks/viewer.py reads these entries).
    performance.measure("viewer:draw", { start: began });
  }

  // A game may lay its board out by the room it has (Blokus Duo's pieces go under the board
  // on a phone): a new width redraws the board.
  let width = 0;
  const resized = new ResizeObserver(() => {
    noteScroll(parts.list);
    const now = Math.round(parts.board.clientWidth);
    if (Math.abs(now - width) > 1) {
      width = now;
      drawn = null;
      schedule();
    }
  });
  resized.observe(parts.board);
  resized.observe(parts.moves);
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
    clearTimeout(settleTimer);
  };
}
