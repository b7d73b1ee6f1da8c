// Controls: browser events → actions for the state's reducer. ``bindControls`` returns a
// function that removes every listener it added.

const KEYS = {
  " ": { type: "toggle" },
  ArrowLeft: { type: "step", by: -1 },
  ArrowRight: { type: "step", by: 1 },
  Home: { type: "first" },
  End: { type: "last" },
  "+": { type: "faster", by: 1 },
  "-": { type: "faster", by: -1 },
};
const BUTTONS = {
  first: { type: "first" },
  back: { type: "step", by: -1 },
  toggle: { type: "toggle" },
  forward: { type: "step", by: 1 },
  last: { type: "last" },
};

function typing(target) {
  return target instanceof HTMLElement && (target.isContentEditable ||
    ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) &&
    !(target.tagName === "INPUT" && target.type === "range");
}

export function bindControls(parts, dispatch, { keyTarget = document } = {}) {
  const off = [];
  const on = (target, type, handler, options) => {
    target.addEventListener(type, handler, options);
    off.push(() => target.removeEventListener(type, handler, options));
  };

  for (const button of parts.root.querySelectorAll("button[data-action]")) {
    on(button, "click", () => dispatch(BUTTONS[button.dataset.action]));
  }
  on(parts.speed, "change", () => dispatch({ type: "speed", speed: Number(parts.speed.value) }));
  // Scrubbing moves the step as the thumb moves; while dragging, playing stops.
  on(parts.scrub, "input", () => dispatch({ type: "goto", step: Number(parts.scrub.value),
    scrubbing: true }));
  on(parts.moves, "click", (event) => {
    const row = event.target.closest("[data-step]");
    if (row) dispatch({ type: "goto", step: Number(row.dataset.step), fromList: true });
  });
  on(parts.moves, "scroll", () => dispatch({ type: "scrolled" }), { passive: true });
  on(parts.views, "click", (event) => {
    const tab = event.target.closest("[data-view-choice]");
    if (tab) dispatch({ type: "view", view: tab.dataset.viewChoice });
  });
  on(keyTarget, "keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    const action = KEYS[event.key];
    if (!action) return;
    // The range input handles arrows and Home/End itself (and says so with "input").
    if (event.target === parts.scrub && event.key !== " ") return;
    event.preventDefault();  // no page scroll, and no click of a focused button on space
    dispatch(action);
  });
  on(window, "hashchange", () => dispatch({ type: "hash", hash: window.location.hash }));
  return () => off.forEach((remove) => remove());
}
