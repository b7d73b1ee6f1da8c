// The viewer's state: plain data, changed only by the pure functions here (each returns a new
// state). Which frames are loaded is not state: it lives in the frame store (frames.js).

export const SPEEDS = [0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256, 1024];
/** Moves per second at speed 1 is 1; the default shows a board game at a reading pace. */
export const DEFAULT_SPEED = 2;
const LIVE_STATUSES = ["queued", "running"];

export function isLive(status) {
  return LIVE_STATUSES.includes(status);
}

/** The state a viewer opens in: at ``step`` (from the URL) or at the start. */
export function initialState(header, { step = 0, view = "spectator", speed } = {}) {
  const live = isLive(header.status);
  const views = (header.views || ["spectator"]).map(String);
  const state = {
    total: header.total,           // frames there are (grows while a match is live)
    step: 0,
    playing: false,
    speed: SPEEDS.includes(speed) ? speed : defaultSpeed(header.total),
    view: views.includes(String(view)) ? String(view) : "spectator",
    views,
    live,
    follow: false,                  // at the end of a live match: stay at its end
    status: header.status || "finished",
    broken: header.broken || null,
    carry: 0,                       // the fraction of a step that playing has accumulated
  };
  // A live match opens at its latest move, a finished one at its start.
  return goTo(state, step === null ? (live ? state.total - 1 : 0) : step);
}

/** Long games open faster, so watching them does not take hours. */
function defaultSpeed(total) {
  if (total > 5000) return 64;
  if (total > 500) return 16;
  return DEFAULT_SPEED;
}

export function lastStep(state) {
  const derivable = state.broken && state.broken.move ? state.broken.step - 1 : Infinity;
  return Math.max(0, Math.min(state.total - 1, derivable));
}

export function goTo(state, step) {
  const n = Number.isFinite(step) ? Math.round(step) : 0;
  const clamped = Math.max(0, Math.min(lastStep(state), n));
  return { ...state, step: clamped, carry: 0,
    follow: state.live && clamped === lastStep(state) };
}

export function stepBy(state, delta) {
  return { ...goTo(state, state.step + delta), playing: false };
}

export function first(state) {
  return { ...goTo(state, 0), playing: false };
}

export function last(state) {
  return { ...goTo(state, lastStep(state)), playing: false };
}

/** Play from where we are; at the end of a finished game, play again from the start. */
export function togglePlay(state) {
  if (state.playing) return { ...state, playing: false };
  const atEnd = state.step >= lastStep(state) && !state.live;
  return { ...(atEnd ? goTo(state, 0) : state), playing: true, carry: 0 };
}

export function setSpeed(state, speed) {
  return SPEEDS.includes(speed) ? { ...state, speed } : state;
}

export function faster(state, by) {
  const i = SPEEDS.indexOf(state.speed) + by;
  return setSpeed(state, SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i))]);
}

export function setView(state, view) {
  return state.views.includes(String(view)) ? { ...state, view: String(view) } : state;
}

/**
 * Playing for ``ms`` milliseconds: how far to move on, never past ``ready`` (the last step
 * whose frame is loaded, so playing waits for frames instead of skipping them).
 */
export function tick(state, ms, ready) {
  if (!state.playing) return state;
  const carry = state.carry + (ms * state.speed) / 1000;
  const steps = Math.floor(carry);
  if (steps === 0) return { ...state, carry };
  const target = Math.min(state.step + steps, ready, lastStep(state));
  const moved = goTo(state, target);
  const ended = target >= lastStep(state) && !state.live;
  return { ...moved, playing: !ended, carry: target === state.step + steps ? carry - steps : 0 };
}

/** News from a live match: more frames, maybe its end. A viewer at the end follows on. */
export function grow(state, { total, status, broken }) {
  const live = isLive(status);
  const next = { ...state, total: Math.max(total, 1), status, live, broken: broken || null };
  return state.follow ? { ...goTo(next, lastStep(next)), follow: live } : next;
}

/** Every change the controls can ask for, as one reducer. */
export function reduce(state, action) {
  switch (action.type) {
    case "goto": return { ...goTo(state, action.step), playing: action.keepPlaying
      ? state.playing : false };
    case "step": return stepBy(state, action.by);
    case "first": return first(state);
    case "last": return last(state);
    case "toggle": return togglePlay(state);
    case "speed": return setSpeed(state, action.speed);
    case "faster": return faster(state, action.by);
    case "view": return setView(state, action.view);
    default: return state;
  }
}

/** "#step=12&view=0" → {step: 12, view: "0"}; a missing step is null. */
export function parseHash(hash) {
  const params = new URLSearchParams(String(hash || "").replace(/^#/, ""));
  const raw = params.get("step");
  const step = raw !== null && /^\d+$/.test(raw) ? Number(raw) : null;
  return { step, view: params.get("view") || "spectator" };
}

export function formatHash(state) {
  return `#step=${state.step}` + (state.view !== "spectator" ? `&view=${state.view}` : "");
}
