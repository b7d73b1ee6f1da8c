// The move list beside the board: one row per move (seat, move, time used), the current one
// highlighted. Only the rows in sight exist in the DOM, so a 20,000-move game costs what a
// 40-move one does. Drawing never reads the layout (it keeps the scroll position and the
// box's height itself), so moving through a game does not force the page to lay out again.

import { el, seconds } from "botleague-viewer/dom.js";

export const ROW_HEIGHT = 24;
const OVERSCAN = 8;

/** The list's fixed parts: a scrolling box and a spacer as tall as every row together. */
export function buildMoveList(container) {
  const spacer = el("div", { class: "moves-spacer" });
  const rows = el("div", { class: "moves-rows" });
  spacer.append(rows);
  container.append(spacer);
  return { box: container, spacer, rows, drawn: "", missing: [], count: -1, scrollTop: 0,
    height: 0, current: null };
}

/** Where the list is scrolled to and how tall it is: read after the user scrolled or the
 *  page changed size, when the layout is up to date anyway. */
export function noteScroll(list) {
  list.scrollTop = list.box.scrollTop;
  list.height = list.box.clientHeight;
}

function row(index, move, { names, hidden, moveText }) {
  // Row 0 is the start; row i is move i (it makes step i).
  const attrs = { class: "move-row", "data-step": index, role: "option",
    "aria-selected": "false" };
  if (index === 0) {
    return el("div", attrs, [el("span", { class: "move-no", text: "0" }),
      el("span", { class: "move-text start", text: "start" })]);
  }
  if (!move) {
    // Not here yet (a long game's moves come with its frames): asked for, shown when come.
    return el("div", attrs, [el("span", { class: "move-no", text: index }),
      el("span", { class: "move-text hidden-move", text: "…" })]);
  }
  const [seat, text, time] = move;
  const secret = hidden(seat);
  return el("div", { ...attrs, "data-seat": seat }, [
    el("span", { class: "move-no", text: index }),
    el("span", { class: `seat-chip seat-${seat}`, title: names[seat] || `player ${seat}`,
      text: seat }),
    el("span", { class: `move-text${secret ? " hidden-move" : ""}`,
      text: secret ? "hidden" : (moveText ? moveText(text) : text) }),
    el("span", { class: "move-time", text: seconds(time) }),
  ]);
}

/**
 * Scroll so that row ``step`` is in sight. Call it before changing anything else on the
 * page in a frame: setting a scroll position makes the browser lay the page out first, which
 * costs nothing while nothing has changed since the last frame and a whole layout after.
 */
export function scrollToStep(list, step, count) {
  if (list.count !== count) {
    list.count = count;
    list.spacer.style.height = `${count * ROW_HEIGHT}px`;
  }
  if (!list.height) noteScroll(list);
  const height = list.height || 400;
  const top = step * ROW_HEIGHT;
  if (top < list.scrollTop || top + ROW_HEIGHT > list.scrollTop + height) {
    list.scrollTop = Math.max(0, Math.min(top - height / 2, count * ROW_HEIGHT - height));
    list.box.scrollTop = list.scrollTop;
  }
}

/** Show the rows in sight and mark the current one. Safe to call any number of times: rows
 *  are rebuilt only when the rows in sight change. */
export function renderMoveList(list, { moves, count, step, names, hidden, moveText }) {
  if (list.count !== count) {
    list.count = count;
    list.spacer.style.height = `${count * ROW_HEIGHT}px`;
  }
  const height = list.height || 400;
  const first = Math.max(0, Math.floor(list.scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(count - 1, Math.ceil((list.scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  list.missing = [];
  for (let i = Math.max(first, 1); i <= last; i += 1) if (!moves[i - 1]) list.missing.push(i);
  const key = `${first}:${last}:${count}:${hidden.key}:${list.missing.length}`;
  if (key !== list.drawn) {
    list.drawn = key;
    const rows = [];
    for (let i = first; i <= last; i += 1) rows.push(row(i, moves[i - 1], { names, hidden, moveText }));
    list.rows.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
    list.rows.replaceChildren(...rows);
    list.current = null;
  }
  const current = step >= first && step <= last ? list.rows.children[step - first] : null;
  if (current !== list.current) {
    if (list.current) {
      list.current.classList.remove("current");
      list.current.setAttribute("aria-selected", "false");
    }
    if (current) {
      current.classList.add("current");
      current.setAttribute("aria-selected", "true");
    }
    list.current = current;
  }
}
