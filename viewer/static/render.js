// Rendering: the viewer's state (and the frame on screen) → the DOM. Every function here may be
// called any number of times with the same input and leaves the page the same; none of them
// changes the state.

import { el, replaceContent, svg } from "botleague-viewer/dom.js";
import { buildMoveList, renderMoveList } from "botleague-viewer/movelist.js";
import { SPEEDS, lastStep } from "botleague-viewer/state.js";

const ICONS = {
  first: "M3 2h2v12H3zM14 2 6 8l8 6z",
  back: "M12 2 4 8l8 6z",
  play: "M4 2l10 6-10 6z",
  pause: "M4 2h3v12H4zM9 2h3v12H9z",
  forward: "M4 2l8 6-8 6z",
  last: "M2 2l8 6-8 6zM11 2h2v12h-2z",
};

function icon(name) {
  return svg("svg", { viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true",
    class: "icon", "data-icon": name }, [svg("path", { d: ICONS[name], fill: "currentColor" })]);
}

/** The viewer's fixed parts, made once; rendering fills them in. */
export function buildShell(root, header) {
  const button = (action, name, title) => el("button", { type: "button", class: "ctl",
    "data-action": action, title, "aria-label": title }, [icon(name)]);
  const parts = {
    root,
    banner: el("div", { class: "viewer-banner", hidden: true, role: "status" }),
    views: el("div", { class: "viewer-views", role: "tablist" }),
    board: el("div", { class: "viewer-board", "data-game": header.game }),
    caption: el("p", { class: "viewer-caption", "aria-live": "polite" }),
    result: el("div", { class: "viewer-result", hidden: true }),
    first: button("first", "first", "first move (Home)"),
    back: button("back", "back", "step back (←)"),
    play: button("toggle", "play", "play / pause (space)"),
    forward: button("forward", "forward", "step forward (→)"),
    last: button("last", "last", "last move (End)"),
    counter: el("span", { class: "viewer-counter" }),
    speed: el("select", { class: "viewer-speed", "aria-label": "speed" },
      SPEEDS.map((s) => el("option", { value: s, text: `${s} moves/s` }))),
    scrub: el("input", { type: "range", class: "viewer-scrub", min: 0, max: 0, value: 0,
      step: 1, "aria-label": "step" }),
    moves: el("div", { class: "viewer-moves", role: "listbox", tabindex: 0,
      "aria-label": "moves" }),
    logs: el("div", { class: "viewer-logs", hidden: true }),
    download: el("a", { class: "viewer-download", hidden: true, text: "download this replay" +
      " as one HTML file" }),
  };
  parts.list = buildMoveList(parts.moves);
  const controls = el("div", { class: "viewer-controls" }, [
    el("div", { class: "viewer-buttons" }, [parts.first, parts.back, parts.play,
      parts.forward, parts.last, parts.counter, parts.speed]),
    parts.scrub]);
  replaceContent(root,
    parts.banner,
    el("div", { class: "viewer-main" }, [
      el("div", { class: "viewer-stage" }, [parts.views, parts.board, parts.caption,
        parts.result, controls]),
      el("aside", { class: "viewer-side" }, [
        el("h3", { text: "Moves" }), parts.moves, parts.logs, parts.download]),
    ]));
  root.classList.add("viewer");
  return parts;
}

function seatNames(header) {
  const names = {};
  for (const p of header.players || []) names[p.seat] = p.name;
  return names;
}

/** Draw the board of ``frame`` (the game module's own drawing). */
export function renderBoard(parts, game, frame, ctx) {
  game.draw(parts.board, frame, ctx);
  parts.board.dataset.step = frame.step;
  parts.board.dataset.view = ctx.view;
}

function bannerText(model) {
  const { state, error, header } = model;
  if (state.broken) {
    return ["broken", `This replay cannot be shown as it was played: ` +
      `${state.broken.message}. ` + (state.broken.move
      ? `Only the steps before it (0 to ${state.broken.step - 1}) are shown.`
      : "Its positions are shown as the engine derives them now.")];
  }
  if (error) return ["error", `Could not load frames: ${error.message || error}. Retrying…`];
  if (state.status === "queued") return ["live", "Queued: the match starts when a worker " +
    "is free; this page follows it."];
  if (state.live) {
    return ["live", `● Live: ${Math.max(state.total - 1, 0)} moves so far` +
      (state.follow ? " (following)" : " (press End to follow)")];
  }
  if (header.status && !["finished", "running", "queued"].includes(header.status)) {
    return ["error", `This match is ${header.status}.`];
  }
  return null;
}

function renderViews(parts, state, header) {
  if (state.views.length < 2) {
    parts.views.hidden = true;
    return;
  }
  parts.views.hidden = false;
  const names = seatNames(header);
  const key = `${state.view}|${state.views.join()}`;
  if (parts.views.dataset.key === key) return;
  parts.views.dataset.key = key;
  parts.views.replaceChildren(...state.views.map((v) => el("button", { type: "button",
    class: `view-tab${v === state.view ? " current" : ""}`, "data-view-choice": v,
    role: "tab", "aria-selected": v === state.view ? "true" : "false",
    text: v === "spectator" ? "everything (spectator)" : `${names[v] || `player ${v}`}'s view`,
  })));
}

/** The lines each readable log holds for ``step``: what that bot wrote choosing move
 *  ``step`` (turn step - 1), and at the last step whatever it wrote after. */
export function logLinesAt(logIndex, step, atLast) {
  const out = [];
  for (const [seat, log] of logIndex) {
    const lines = step > 0 ? [...(log.byTurn.get(step - 1) || [])] : [];
    if (atLast) {
      for (const [turn, more] of log.byTurn) if (turn >= step) lines.push(...more);
    }
    out.push({ seat, lines, old: log.old, all: log.all });
  }
  return out;
}

/** ``header.logs`` by seat, then by turn, worked out once. */
export function indexLogs(logs) {
  const index = new Map();
  for (const [seat, lines] of Object.entries(logs || {})) {
    const byTurn = new Map();
    for (const [turn, line] of lines) {
      if (!byTurn.has(turn)) byTurn.set(turn, []);
      byTurn.get(turn).push(line);
    }
    index.set(Number(seat), { byTurn, old: lines.length > 0 && lines.every(([t]) => t < 0),
      all: lines.map(([, line]) => line) });
  }
  return index;
}

function renderLogs(parts, model) {
  const { state, logIndex, header } = model;
  if (!logIndex.size) {
    parts.logs.hidden = true;
    return;
  }
  const key = `${state.step}|${state.total}|${state.live}`;
  if (parts.logs.dataset.key === key) return;
  parts.logs.dataset.key = key;
  parts.logs.hidden = false;
  const names = seatNames(header);
  const atLast = state.step >= lastStep(state) && !state.live;
  const blocks = logLinesAt(logIndex, state.step, atLast).map(({ seat, lines, old, all }) => {
    const name = names[seat] || `player ${seat}`;
    if (!all.length) {
      return el("section", { class: "viewer-log", "data-seat": seat, "data-lines": 0 }, [
        el("h4", { text: name }),
        el("p", { class: "muted", text: "wrote nothing to its log in this match" })]);
    }
    return el("section", { class: "viewer-log", "data-seat": seat,
      "data-lines": lines.length }, [
      el("h4", { text: `${name} at move ${state.step}` }),
      old ? el("p", { class: "muted", text: "This record predates logs kept by turn: the " +
        "whole log is below." }) : null,
      lines.length ? el("pre", { class: "log", text: lines.join("\n") })
        : old ? null : el("p", { class: "muted", text: "nothing written at this move" }),
      el("details", { open: old }, [el("summary", { text: `whole log (${all.length} lines)` }),
        el("pre", { class: "log", text: all.join("\n") })]),
    ]);
  });
  parts.logs.replaceChildren(el("h3", { text: "Logs" }), ...blocks);
}

/** Everything but the board: counter, buttons, scrub bar, caption, result, banner, move
 *  list, logs. */
export function renderChrome(parts, model) {
  const { state, header, frame, game, moves } = model;
  const names = seatNames(header);
  const end = lastStep(state);
  parts.counter.textContent = `${state.step} / ${Math.max(state.total - 1, 0)}`;
  const playIcon = state.playing ? "pause" : "play";
  if (parts.play.firstChild.dataset.icon !== playIcon) parts.play.replaceChildren(icon(playIcon));
  parts.play.setAttribute("aria-pressed", state.playing ? "true" : "false");
  parts.first.disabled = parts.back.disabled = state.step <= 0;
  parts.last.disabled = parts.forward.disabled = state.step >= end;
  parts.scrub.max = String(end);
  if (Number(parts.scrub.value) !== state.step) parts.scrub.value = String(state.step);
  if (Number(parts.speed.value) !== state.speed) parts.speed.value = String(state.speed);

  const caption = frame ? game.caption(frame, { header, names, view: state.view }) : "";
  const moveText = (m) => (game.moveName ? game.moveName(m.move) : m.move);
  const move = frame && frame.move ? `${names[frame.move.seat] || `player ${frame.move.seat}`}` +
    ` played ${hiddenFor(state)(frame.move.seat) ? "(hidden)" : moveText(frame.move)}. ` : "";
  parts.caption.textContent = frame ? `${move}${caption}` : "loading…";

  const result = header.result;
  const showResult = result && !state.broken && state.step >= end && !state.live;
  parts.result.hidden = !showResult;
  if (showResult) parts.result.textContent = `Result: ${result.summary}`;

  const banner = bannerText(model);
  parts.banner.hidden = !banner;
  if (banner) {
    parts.banner.className = `viewer-banner ${banner[0]}`;
    parts.banner.textContent = banner[1];
  }
  renderViews(parts, state, header);
  if (model.settled !== false) {
    renderMoveList(parts.list, { moves, count: state.total, step: state.step, names,
      hidden: hiddenFor(state), moveText: game.listName });
    renderLogs(parts, model);
  }
  if (header.download_url) {
    parts.download.hidden = false;
    parts.download.href = header.download_url;
  }
  const root = parts.root.dataset;
  root.step = state.step;
  root.total = state.total;
  root.playing = state.playing ? "1" : "0";
  root.view = state.view;
  root.status = state.status;
  root.speed = state.speed;
}

/** In a player's view the other player's moves are secret (hidden information). */
function hiddenFor(state) {
  const seat = state.view === "spectator" ? null : Number(state.view);
  const hidden = (s) => seat !== null && s !== seat;
  hidden.key = state.view;
  return hidden;
}
