// What several game modules share: the seats' colours and coordinate labels.

import { svg } from "botleague-viewer/dom.js";

/** Seat 0 and seat 1, the same in every game, the move list and the logs (viewer.css). */
export const SEAT_COLOURS = ["#6d28d9", "#ea580c"];
export const SEAT_LIGHT = ["#ddd6fe", "#fed7aa"];

/** Labels along the top and the left of a grid whose cells start at (left, top). */
export function axisLabels({ rows, cols, cell, left, top, colName = String,
  rowName = String }) {
  const out = [];
  for (let c = 0; c < cols; c += 1) {
    out.push(svg("text", { x: left + c * cell + cell / 2, y: top - 6, class: "axis",
      "text-anchor": "middle", text: colName(c) }));
  }
  for (let r = 0; r < rows; r += 1) {
    out.push(svg("text", { x: left - 6, y: top + r * cell + cell / 2, class: "axis",
      "text-anchor": "end", "dominant-baseline": "central", text: rowName(r) }));
  }
  return out;
}

/** The seat to move, or how the game ended, for captions. */
export function turnText(frame, names) {
  const result = frame.view.result;
  if (frame.over && result) return result.detail || result.reason;
  if (frame.to_move === null || frame.to_move === undefined) return "game over";
  return `${names[frame.to_move] || `player ${frame.to_move}`} to move`;
}
