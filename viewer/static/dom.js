// Building DOM and SVG without innerHTML: every string a bot or a user wrote (names, moves,
// log lines) becomes text, never markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "class") node.setAttribute("class", value);
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of [].concat(children || [])) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number"
      ? document.createTextNode(String(child)) : child);
  }
  return node;
}

/** An HTML element: el("button", {class: "x", text: "go"}, [children]). */
export function el(tag, attrs, children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same arguments. */
export function svg(tag, attrs, children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** A root <svg> scaled to its container, drawing in a width x height user space. */
export function svgRoot(width, height, attrs) {
  return svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "board-svg",
    role: "img", ...attrs });
}

/** Replace everything inside ``target`` with ``node`` (so drawing twice draws once). */
export function replaceContent(target, ...nodes) {
  target.replaceChildren(...nodes.filter(Boolean));
}

/** Text for a number of seconds: 0.0123 → "12.3 ms", 1.5 → "1.50 s". */
export function seconds(value) {
  if (value === null || value === undefined) return "";
  return value < 1 ? `${(value * 1000).toFixed(1)} ms` : `${value.toFixed(2)} s`;
}
