"""The viewer's frame store (``viewer/static/frames.js``) in Node.js, its fetches replaced by
a script of answers: a failure pauses it (the league's ``Retry-After``, else a back-off of
1 s doubling), so a viewer that redraws on every piece of news never asks again at the
network's speed; the end of a pause is news of its own, never a range without a total (a
viewer once read one as ``total: NaN`` and asked for ``start=NaN`` hundreds of times a
second); and a step that is not a whole number in range is never asked for."""

from __future__ import annotations

import json
import shutil
import subprocess
import textwrap

import pytest

import viewer

SCRIPT = """
const { HttpFrames } = await import(URL_OF_FRAMES);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const out = {};

// 1. A request the league refuses (400) again and again, by a viewer that asks for the
//    step on screen after every piece of news, as the page's viewer does.
{
  const asked = [];
  const news = [];
  const store = new HttpFrames({ url: "/f", chunk: 256, total: 1000, onNews: (n) => {
    news.push(n);
    setTimeout(() => store.need("spectator", 500), 0);  // the viewer's next draw
  }, fetchJson: async (url) => {
    asked.push(url);
    throw new Error("start: A valid integer is required.");
  } });
  store.need("spectator", 500);
  await sleep(2500);
  out.refused = { asked: asked.length, resumes: news.filter((n) => n.resume).length,
                  errors: news.filter((n) => n.error).length,
                  blank: news.filter((n) => !n.resume && !n.error && n.total === undefined)
                    .length };
}

// 2. Over the rate (429, Retry-After 1) while another range is answered: the end of the
//    pause is a resume, not a range's news.
{
  const news = [];
  let calls = 0;
  const store = new HttpFrames({ url: "/f", chunk: 10, total: 100, onNews: (n) => news.push(n),
    fetchJson: async (url) => {
      calls += 1;
      if (calls === 1) {
        await sleep(50);
        const error = new Error("too many"); error.retryAfter = 1; throw error;
      }
      const start = Number(new URLSearchParams(url.split("?")[1]).get("start"));
      return { total: 100, status: "finished", frames: [{ step: start }] };
    } });
  store.need("spectator", 40);   // the jump that is refused
  store._load("spectator", 0, 10);  // answered meanwhile
  // until the pause is over (1 s), however slow a busy machine makes the timers
  for (let waited = 0; !news.some((n) => n.resume) && waited < 20000; waited += 50) {
    await sleep(50);
  }
  out.rate = { news: news.map((n) => n.resume ? "resume" : n.error ? "error" :
                                    `total ${n.total}`),
               failed: store.failed === null };
}

// 3. Steps that are not whole numbers in range are never asked for.
{
  const asked = [];
  const store = new HttpFrames({ url: "/f", chunk: 10, total: 100, onNews: () => {},
    fetchJson: async (url) => { asked.push(url); return { total: 100, frames: [] }; } });
  for (const step of [NaN, -1, 100, 2.5, Infinity, undefined]) store.need("spectator", step);
  out.odd = asked;
}
console.log(JSON.stringify(out));
process.exit(0);  // the first store still backs off: its timers would keep Node up
"""


def test_the_frame_store_backs_off_resumes_and_asks_only_for_real_steps() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed (requirements-apt.txt)")
    frames = json.dumps((viewer.STATIC / "frames.js").as_uri())
    script = textwrap.dedent(SCRIPT).replace("URL_OF_FRAMES", frames)
    done = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    # 2.5 s of a refusal: asked at 0, 1 s and 3 s (not yet): two requests, not thousands
    # (one, if a busy machine's timers run late)
    assert 1 <= out["refused"]["asked"] <= 2, out["refused"]
    assert out["refused"]["resumes"] >= out["refused"]["asked"] - 1, out["refused"]
    assert out["refused"]["blank"] == 0, out["refused"]
    assert out["rate"]["news"] == ["total 100", "error", "resume"], out["rate"]
    assert out["odd"] == [], out["odd"]
