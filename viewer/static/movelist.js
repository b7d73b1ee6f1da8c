// The move list beside the board: one row per move (seat, move, time used), the current one
// highlighted. Only the rows in sight exist in the DOM, so a 20,000-move game costs what a
// 40-move one does.

import { el, seconds } from "./dom.js";

export const ROW_HEIGHT = 24;
const OVERSCAN = 8;

/** The list's fixed parts: a scrolling box and a spacer as tall as every row together. */
export function buildMoveList(container) {
  const spacer = el("div", { class: "moves-spacer" });
  const rows = el("div", { class: "moves-rows" });
  spacer.append(rows);
  container.append(spacer);
  return { box: container, spacer, rows, drawn: "" };
}

function row(index, move, { step, names, hidden }) {
  // Row 0 is the start; row i is move i (it makes step i).
  const current = index === step;
  const attrs = { class: `move-row${current ? " current" : ""}`, "data-step": index,
    role: "option", "aria-selected": current ? "true" : "false",
    style: null };
  if (index === 0) {
    return el("div", attrs, [el("span", { class: "move-no", text: "0" }),
      el("span", { class: "move-text start", text: "start" })]);
  }
  const [seat, text, time] = move;
  const secret = hidden(seat);
  return el("div", { ...attrs, "data-seat": seat }, [
    el("span", { class: "move-no", text: index }),
    el("span", { class: `seat-chip seat-${seat}`, title: names[seat] || `player ${seat}`,
      text: seat }),
    el("span", { class: `move-text${secret ? " hidden-move" : ""}`,
      text: secret ? "hidden" : text }),
    el("span", { class: "move-time", text: seconds(time) }),
  ]);
}

/** Show the rows in sight; scroll the current one into sight when it changed. Safe to call
 *  any number of times: it redraws only when what is in sight changed. */
export function renderMoveList(list, { moves, step, names, hidden, follow }) {
  const count = moves.length + 1;
  list.spacer.style.height = `${count * ROW_HEIGHT}px`;
  if (follow) {
    const top = step * ROW_HEIGHT;
    const box = list.box;
    if (top < box.scrollTop || top + ROW_HEIGHT > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
  }
  const height = list.box.clientHeight || 400;
  const first = Math.max(0, Math.floor(list.box.scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(count - 1, Math.ceil((list.box.scrollTop + height) / ROW_HEIGHT)
    + OVERSCAN);
  const key = `${first}:${last}:${step}:${count}:${hidden.key}`;
  if (key === list.drawn) return;
  list.drawn = key;
  const rows = [];
  for (let i = first; i <= last; i += 1) rows.push(row(i, moves[i - 1], { step, names, hidden }));
  list.rows.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
  list.rows.replaceChildren(...rows);
}
