"""Each game module's ``play`` (docs/viewer.md, "Playing on a board") run in Node on real
positions of every game: what a person's clicks, taps, keys and swipes submit is exactly the
engine's legal moves (every one of them reachable, nothing else), an illegal choice is shown
as illegal and never submitted, nothing is submitted off turn, a refusal is shown, and
``destroy()`` unbinds the keys. A small DOM (fake_dom.mjs) stands in for the browser's; the
browser tests play whole games on the real page."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import games
import viewer
from tests import viewer_contract as contract
from tests.viewer.play_positions import positions

HERE = Path(__file__).resolve().parent


def test_every_input_of_every_board_submits_exactly_the_legal_moves(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed (requirements-apt.txt)")
    data = {"games": {game: positions(game) for game in games.game_ids()},
            "input": contract.play_fields("play-input"),
            "returns": contract.play_fields("play-returns")}
    assert set(data["input"]) == {"legalMoves", "yourTurn", "over", "seat", "submit"}
    path = tmp_path / "positions.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = subprocess.run(
        [node, str(HERE / "play_checks.mjs"), str(path), viewer.SPECIFIER,
         viewer.STATIC.as_uri() + "/"], capture_output=True, text=True, timeout=300,
        check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert set(result) == set(games.game_ids())
    for game, found in result.items():
        assert found["problems"] == [], (game, found["problems"])
        wanted = sum(len(p["legal"]) for p in data["games"][game]["positions"][:2]
                     if not p["over"])
        assert found["submitted"] >= wanted, (game, found)
