// Follows versions that are validating: polls each one's tiny JSON status and writes the
// outcome in place: in the list the status, a rejection's reason and its log's last lines;
// in the banner after an upload (data-verdict) the verdict as a sentence. Text only, never
// HTML: reasons and logs are bot output.
"use strict";
(function () {
  const INTERVAL_MS = 1000;

  function logTail(text) {
    const pre = document.createElement("pre");
    pre.className = "log tail";
    pre.textContent = text;
    return pre;
  }

  function show(el, data) {
    if (el.hasAttribute("data-verdict")) {
      el.className = `banner ${data.status}`;
      el.querySelector(".verdict").textContent = data.verdict;
      if (data.done && data.log_tail) el.append(logTail(data.log_tail));
      return;
    }
    el.textContent = data.status;
    el.className = data.status;
    if (!data.done) return;
    if (data.reason) {
      const reason = document.createElement("span");
      reason.className = "reason";
      reason.textContent = ": " + data.reason;
      el.after(reason);
      if (data.log_tail) reason.after(logTail(data.log_tail));
    }
  }

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
      show(el, data);
      if (!data.done) return setTimeout(tick, INTERVAL_MS);
      el.removeAttribute("data-poll");
    }
    setTimeout(tick, INTERVAL_MS);
  }
  document.querySelectorAll("[data-poll]").forEach(follow);
})();
