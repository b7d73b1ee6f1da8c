// Where frames come from. A long game is never fetched whole: the store asks the server for
// the range (chunk) around the step on screen, keeps what arrived, and reads ahead so
// playing does not stall. A self-contained file hands every frame over at once instead.
//
// A drag across a long game passes hundreds of steps a second: the store asks for one jump
// at a time and, once it arrives, for wherever the drag is then (the viewer asks again after
// every answer), so a drag costs the server a few ranges, not one per position. Over the
// league's rate (429) it asks nothing more until the ``Retry-After`` the league gave; after
// any other failure it waits too, 1 s and twice as long after each failure in a row, so a
// request the league keeps refusing is never asked again at the network's speed.

const FIRST = 24;  // the first request of a view is small: its first frame shows sooner
const LONGEST_PAUSE_S = 60;  // a Retry-After beyond this is not believed
const LONGEST_BACKOFF_S = 30;  // failures in a row wait at most this long before a retry

/** Frames fetched from the league's API in ranges, kept by view and step. */
export class HttpFrames {
  constructor({ url, chunk, total, onNews, fetchJson = defaultFetch, opening = null }) {
    this.url = url;
    this.chunk = chunk;
    this.total = total;
    this.onNews = onNews;       // ({total, status, broken, frames}) after each response
    this.fetchJson = fetchJson;
    this.frames = new Map();    // view → Map(step → frame)
    this.inflight = [];         // {view, start, stop, jump}
    this.failed = null;         // the last error, to say so on screen
    this.pausedUntil = 0;       // after a failure: nothing is asked before this (ms)
    this.failures = 0;          // failures in a row (the back-off's exponent)
    if (opening) this._keep(opening.view, opening.frames);
  }

  _view(view) {
    if (!this.frames.has(view)) this.frames.set(view, new Map());
    return this.frames.get(view);
  }

  _keep(view, frames) {
    const kept = this._view(view);
    for (const frame of frames) kept.set(frame.step, frame);
  }

  get(view, step) {
    const kept = this.frames.get(view);
    return kept ? kept.get(step) : undefined;
  }

  _covered(view, step) {
    return this.inflight.some((r) => r.view === view && r.start <= step && step < r.stop);
  }

  /**
   * Make sure the frame of ``step`` is here or on its way; once it is, read ahead: the rest
   * of its chunk and the next (one request at a time, so a jump is never queued behind).
   */
  need(view, step) {
    if (!Number.isInteger(step) || step < 0 || step >= this.total) return;
    if (Date.now() < this.pausedUntil) return;
    const kept = this._view(view);
    if (!kept.has(step)) {
      if (this._covered(view, step)) return;
      // One jump at a time: its answer makes the viewer ask for the step it is on by then.
      if (this.inflight.some((r) => r.view === view && r.jump)) return;
      const start = kept.size ? Math.floor(step / this.chunk) * this.chunk : step;
      this._load(view, start, start + (kept.size ? this.chunk : FIRST), true);
      return;
    }
    if (this.inflight.some((r) => r.view === view)) return;
    const end = Math.min(this.total, step + this.chunk);
    for (let s = step + 1; s < end; s += 1) {
      if (!kept.has(s)) {
        const start = Math.floor(s / this.chunk) * this.chunk;
        this._load(view, start, start + this.chunk);
        return;
      }
    }
  }

  /** The furthest step from ``step`` on (looking ``ahead`` at most) whose frames are all
   *  loaded: playing may go that far without waiting. */
  readyFrom(view, step, ahead = 256) {
    const kept = this._view(view);
    let ready = step;
    const end = Math.min(this.total - 1, step + ahead);
    while (ready < end && kept.has(ready + 1)) ready += 1;
    return ready;
  }

  /** Frames from ``step`` on may have changed (a live match's last frame at its end). */
  forgetFrom(step) {
    for (const kept of this.frames.values()) {
      for (const key of [...kept.keys()]) if (key >= step) kept.delete(key);
    }
  }

  async _load(view, start, stop, jump = false) {
    const range = { view, start, stop, jump };
    this.inflight.push(range);
    let pause = 0;
    try {
      const data = await this.fetchJson(
        `${this.url}?start=${start}&stop=${stop}&view=${encodeURIComponent(view)}`);
      this._keep(view, data.frames);
      this.failed = null;
      this.failures = 0;
      this.total = Math.max(this.total, data.total);
      this.onNews(data);
    } catch (error) {
      this.failed = error;
      this.failures += 1;
      const seconds = error.retryAfter
        ? Math.min(Math.max(error.retryAfter, 1), LONGEST_PAUSE_S)
        : Math.min(2 ** (this.failures - 1), LONGEST_BACKOFF_S);
      pause = seconds * 1000;
      this.pausedUntil = Math.max(this.pausedUntil, Date.now() + pause);
      this.onNews({ error });
    } finally {
      this.inflight = this.inflight.filter((r) => r !== range);
    }
    if (pause) {
      // The pause is over: the viewer asks for the step on screen again. (Not news of a
      // range: another request may have been answered meanwhile, and the failure be over.)
      await new Promise((done) => setTimeout(done, pause));
      this.onNews({ resume: true });
    }
  }

  /** A live match: what is new since ``known`` frames (its status, total and new frames). */
  poll(view, known) {
    return this._load(view, Math.max(known - 1, 0), known - 1 + this.chunk);
  }
}

/** Every frame at hand (a self-contained file): no fetching, nothing to wait for. */
export class InlineFrames {
  constructor(framesByView) {
    this.frames = framesByView;  // {view: [frame, ...]}
    this.total = (framesByView.spectator || []).length;
    this.failed = null;
  }

  get(view, step) {
    return (this.frames[view] || [])[step];
  }

  need() {}

  readyFrom(view, step) {
    return Math.max(step, (this.frames[view] || []).length - 1);
  }

  forgetFrom() {}

  async poll() {}
}

async function defaultFetch(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" },
    credentials: "same-origin" });
  if (!response.ok) {
    let detail = `${response.status} ${response.statusText}`;
    try {
      detail = (await response.json()).detail || detail;
    } catch (_) { /* not JSON: the status says enough */ }
    const error = new Error(detail);
    if (response.status === 429 || response.status === 503) {
      error.retryAfter = Number(response.headers.get("Retry-After")) || 5;
    }
    throw error;
  }
  return response.json();
}
