// Counts down every <time class="countdown" data-ends="ISO"> on the page, once a second:
// "2d 04:05:06", then "now" (the beat moves the season within a few seconds of it).
(() => {
  const clocks = [...document.querySelectorAll("time.countdown[data-ends]")];
  if (!clocks.length) return;
  const pad = (n) => String(n).padStart(2, "0");
  const words = (ms) => {
    if (ms <= 0) return "now";
    let s = Math.floor(ms / 1000);
    const d = Math.floor(s / 86400); s -= d * 86400;
    const h = Math.floor(s / 3600); s -= h * 3600;
    const m = Math.floor(s / 60); s -= m * 60;
    return `${d ? d + "d " : ""}${pad(h)}:${pad(m)}:${pad(s)}`;
  };
  const tick = () => {
    const now = Date.now();
    for (const clock of clocks) clock.textContent = words(Date.parse(clock.dataset.ends) - now);
  };
  tick();
  setInterval(tick, 1000);
})();
