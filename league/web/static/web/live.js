// Follows a tournament or a challenge while it is played: polls the page's small JSON status
// (data-live on the root element) and puts in place each part of the page whose text changed.
// The parts are the site's own templates rendered by the server, where every name a user or
// a bot wrote is escaped; nothing else is ever written as HTML. Stops once it is over.
"use strict";
(function () {
  const root = document.querySelector("[data-live]");
  if (!root) return;
  const url = root.dataset.live;
  let interval = Number(root.dataset.interval) || 0;
  let timer = null;

  function parts() {
    return Array.from(root.querySelectorAll("[data-live-part]"));
  }

  function keep(el) {
    // what a reader set in a part: open rounds, scrolled boxes
    const open = {};
    el.querySelectorAll("details[id]").forEach((d) => { open[d.id] = d.open; });
    const scrolled = {};
    el.querySelectorAll("[id]").forEach((box) => {
      if (box.scrollLeft || box.scrollTop) scrolled[box.id] = [box.scrollLeft, box.scrollTop];
    });
    return { open, scrolled };
  }

  function restore(el, kept) {
    el.querySelectorAll("details[id]").forEach((d) => {
      if (d.id in kept.open) d.open = kept.open[d.id];
    });
    Object.entries(kept.scrolled).forEach(([id, [left, top]]) => {
      const box = document.getElementById(id);
      if (box && el.contains(box)) { box.scrollLeft = left; box.scrollTop = top; }
    });
  }

  function place(el, part) {
    if (!part || part.html === undefined || part.stamp === el.dataset.stamp) return;
    const kept = keep(el);
    el.innerHTML = part.html;
    el.dataset.stamp = part.stamp;
    restore(el, kept);
  }

  async function tick() {
    timer = null;
    let data;
    try {
      const known = parts().map((el) => el.dataset.livePart + ":" + el.dataset.stamp)
        .join(",");
      const response = await fetch(url + "?known=" + encodeURIComponent(known),
                                   { headers: { Accept: "application/json" } });
      if (!response.ok) return schedule(interval * 3);
      data = await response.json();
    } catch (_) {
      return schedule(interval * 3);  // offline for a moment: try again later
    }
    parts().forEach((el) => place(el, data.parts[el.dataset.livePart]));
    root.dataset.state = data.state;
    interval = data.interval;
    if (data.done) {
      root.dataset.done = "true";
      return;
    }
    schedule(interval);
  }

  function schedule(ms) {
    if (!ms || timer !== null) return;
    timer = setTimeout(tick, ms);
  }

  // a hidden tab asks nothing; it catches up as soon as it is shown again
  document.addEventListener("visibilitychange", () => {
    if (document.hidden || !interval || root.dataset.done) return;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    tick();
  });
  schedule(interval);
})();
