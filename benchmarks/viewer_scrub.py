"""Dragging the viewer's scrub bar across a whole game, one position per screen refresh as a
person's drag delivers them, while timing every frame the page paints. Shared by the big
replay's browser test and ``benchmarks/viewer.py``."""

from __future__ import annotations

from typing import Any

SCRUB = """async ([positions]) => {
  const bar = document.querySelector(".viewer-scrub");
  const gaps = [];
  let last = performance.now();
  let running = true;
  const tick = (now) => {
    gaps.push(now - last);
    last = now;
    if (running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const started = performance.now();
  for (const value of positions) {
    bar.value = String(value);
    bar.dispatchEvent(new Event("input", { bubbles: true }));
    await new Promise((done) => requestAnimationFrame(done));
  }
  await new Promise((done) => setTimeout(done, 100));
  running = false;
  return { gaps: gaps.slice(1), seconds: (performance.now() - started) / 1000 };
}"""


def scrub_across(page: Any, last: int, positions: int = 240) -> dict[str, Any]:
    """Scrub from the start to ``last`` in ``positions`` steps; the gaps between painted
    frames (ms) and how long it took."""
    values = [round(last * i / (positions - 1)) for i in range(positions)]
    return page.evaluate(SCRUB, [values])
