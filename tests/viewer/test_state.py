"""The viewer's state module on its own, in Node.js (its functions are pure: no DOM): moving,
playing at a speed without running ahead of the loaded frames, following a live match, and
reading and writing the URL."""

from __future__ import annotations

import shutil
import subprocess
import textwrap

import pytest

import viewer

CHECKS = """
import assert from "node:assert/strict";
import * as s from "STATE";

const header = { total: 41, status: "finished", views: ["spectator", 0, 1] };
let st = s.initialState(header, { step: null });
assert.equal(st.step, 0);
assert.equal(s.initialState(header, { step: 12, view: "1" }).view, "1");
assert.equal(s.initialState(header, { step: 99 }).step, 40, "clamped to the last step");
assert.equal(s.initialState(header, { step: 3, view: "7" }).view, "spectator");

st = s.reduce(st, { type: "step", by: 1 });
assert.equal(st.step, 1);
st = s.reduce(st, { type: "last" });
assert.equal(st.step, 40);
st = s.reduce(st, { type: "toggle" });
assert.ok(st.playing && st.step === 0, "play at the end starts again");

// Playing at 4 moves/s: 500 ms is two moves, never past the last loaded frame.
st = s.setSpeed(st, 4);
let played = s.tick(st, 500, 40);
assert.equal(played.step, 2);
played = s.tick(st, 500, 1);
assert.equal(played.step, 1, "waits for frames");
played = s.tick(s.goTo({ ...st, playing: true }, 39), 2000, 40);
assert.ok(played.step === 40 && !played.playing, "stops at the end");
assert.equal(s.tick({ ...st, playing: false }, 5000, 40).step, st.step);

// A broken replay stops before its broken step.
const broken = s.initialState({ ...header, broken: { step: 9, move: "x" } }, { step: 30 });
assert.equal(broken.step, 8);

// A live match opens at its latest move and follows it; the viewer left it, it stays.
let live = s.initialState({ total: 5, status: "running", views: ["spectator"] }, { step: null });
assert.ok(live.step === 4 && live.follow && live.live);
live = s.grow(live, { total: 9, status: "running" });
assert.equal(live.step, 8);
const away = s.grow(s.goTo(live, 3), { total: 12, status: "running" });
assert.equal(away.step, 3);
const over = s.grow(live, { total: 10, status: "finished" });
assert.ok(!over.live && over.step === 9);

assert.deepEqual(s.parseHash("#step=12&view=0"), { step: 12, view: "0" });
assert.deepEqual(s.parseHash(""), { step: null, view: "spectator" });
assert.equal(s.parseHash("#step=abc").step, null);
assert.equal(s.formatHash({ step: 7, view: "spectator" }), "#step=7");
assert.equal(s.formatHash({ step: 7, view: "1" }), "#step=7&view=1");
console.log("ok");
"""


def test_the_state_functions_move_play_follow_and_read_the_url() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed (requirements-apt.txt)")
    script = textwrap.dedent(CHECKS).replace("STATE", (viewer.STATIC / "state.js").as_uri())
    done = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
