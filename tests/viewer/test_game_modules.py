"""Each game's viewer module in Node.js, against docs/viewer.md's "What a game's module
exports": it exports what the contract lists and nothing else, and its ``caption`` (and
``moveName``) turn every real frame of every view into text. ``draw`` needs a DOM: the
browser tests check what it draws (tests/viewer_checks.py).

Node resolves the modules' bare specifiers (``botleague-viewer/dom.js``) with a resolve hook
that does what the pages' import maps do."""

from __future__ import annotations

import json
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

import games
import viewer
from benchmarks.records import engine_record
from tests import viewer_contract as contract

CHEAP_PLAYERS = {"g2048": "greedy"}
"""The strongest 2048 player searches for a minute; a short run is enough here."""
HOOK = """
export async function resolve(specifier, context, next) {
  if (specifier.startsWith(PREFIX)) {
    return { url: new URL(specifier.slice(PREFIX.length), ROOT).href, shortCircuit: true };
  }
  return next(specifier, context);
}
"""
CHECKS = """
import { register } from "node:module";
import { readFileSync } from "node:fs";

register("data:text/javascript," + encodeURIComponent(HOOK));
const data = JSON.parse(readFileSync(DATA, "utf8"));
const out = {};
for (const [game, { header, frames }] of Object.entries(data.games)) {
  const problems = [];
  const module = await import(`${PREFIX}games/${game}.js`);
  for (const name of Object.keys(module)) {
    if (!(name in data.exports)) problems.push(`exports ${name}, which the contract lacks`);
  }
  for (const [name, required] of Object.entries(data.exports)) {
    if (name in module ? typeof module[name] !== "function" : required) {
      problems.push(`${name} is not an exported function`);
    }
  }
  const names = Object.fromEntries(header.players.map((p) => [p.seat, p.name]));
  let captions = 0;
  for (const [view, list] of Object.entries(frames)) {
    for (const frame of list) {
      const text = module.caption(frame, { header, names, view });
      if (typeof text !== "string" || !text) {
        problems.push(`caption of step ${frame.step} in ${view}: ${JSON.stringify(text)}`);
      }
      captions += 1;
      if (module.moveName && frame.move) {
        const name = module.moveName(frame.move.move);
        if (typeof name !== "string" || !name) problems.push(`moveName(${frame.move.move})`);
      }
    }
  }
  out[game] = { problems: problems.slice(0, 5), captions };
}
console.log(JSON.stringify(out));
"""


def test_each_game_module_exports_what_the_docs_say_and_captions_every_frame(
        tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed (requirements-apt.txt)")
    data = {"exports": contract.module_exports(), "games": {}}
    for game in games.game_ids():
        record = engine_record(game, seed=3, player=CHEAP_PLAYERS.get(game))
        data["games"][game] = contract.file_data(record)
    path = tmp_path / "frames.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    hook = textwrap.dedent(HOOK).replace("PREFIX", json.dumps(viewer.SPECIFIER)).replace(
        "ROOT", json.dumps(viewer.STATIC.as_uri() + "/"))
    script = textwrap.dedent(CHECKS).replace("HOOK", json.dumps(hook)).replace(
        "DATA", json.dumps(str(path))).replace("PREFIX", json.dumps(viewer.SPECIFIER))
    done = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert set(result) == set(games.game_ids())
    for game, found in result.items():
        assert found["problems"] == [], (game, found["problems"])
        frames = sum(len(f) for f in data["games"][game]["frames"].values())
        assert found["captions"] == frames, game
