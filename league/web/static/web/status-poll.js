// Follows versions that are validating: polls each one's tiny JSON status and writes the
// outcome (and a rejection's reason) in place. Text only, never HTML: reasons are bot output.
"use strict";
(function () {
  const INTERVAL_MS = 1000;
  function follow(el) {
    const url = el.dataset.poll;
    async function tick() {
      let data;
      try {
        const response = await fetch(url, { headers: { Accept: "application/json" } });
        if (!response.ok) return setTimeout(tick, INTERVAL_MS * 5);
        data = await response.json();
      } catch (_) {
        return setTimeout(tick, INTERVAL_MS * 5);  // offline for a moment: try again later
      }
      el.textContent = data.status;
      el.className = data.status;
      if (!data.done) return setTimeout(tick, INTERVAL_MS);
      el.removeAttribute("data-poll");
      if (data.reason) {
        const reason = document.createElement("span");
        reason.className = "reason";
        reason.textContent = ": " + data.reason;
        el.after(reason);
      }
    }
    setTimeout(tick, INTERVAL_MS);
  }
  document.querySelectorAll("[data-poll]").forEach(follow);
})();
