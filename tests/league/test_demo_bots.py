"""Every demo bot plays a whole match on its ladder's terms without forfeiting.

No database: each bot is packed exactly as the upload service stores it (a single source file
wrapped in a zip) and played through the real sandbox, against a random player on two-player
ladders and alone on solo ones, with the ladder's options and limits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from league.demo.catalogue import DEMO_BOTS, DemoBot
from league.ladders.defaults import DEFAULT_LADDERS
from sandbox import BotSpec, Limits, run_match
from sandbox.archive import package_upload

LADDERS: dict[str, dict[str, Any]] = {spec["game"]: spec for spec in DEFAULT_LADDERS}


def test_every_ladder_has_a_handful_of_demo_bots() -> None:
    for game in LADDERS:
        names = [bot.name for bot in DEMO_BOTS if bot.game == game]
        assert 3 <= len(names) <= 5, f"{game}: {names}"
        assert len(set(names)) == len(names), f"{game}: a name twice in {names}"


def test_the_demo_has_a_javascript_and_a_cpp_bot() -> None:
    assert {bot.filename for bot in DEMO_BOTS} == {"main.py", "main.js", "main.cpp"}


@pytest.mark.slow
@pytest.mark.parametrize("bot", DEMO_BOTS, ids=lambda bot: f"{bot.game}-{bot.name}")
def test_it_plays_a_match_without_forfeiting(bot: DemoBot, tmp_path: Path) -> None:
    ladder = LADDERS[bot.game]
    archive, _ = package_upload(bot.filename, bot.read())
    package = tmp_path / "bot.zip"
    package.write_bytes(archive)
    seats = [BotSpec(str(package), label=bot.name)]
    if "seeds" in ladder:  # a scored (solo) ladder plays its own fixed seeds
        seed = ladder["seeds"][0]
    else:
        seats.append(BotSpec("builtin:random"))
        seed = 1
    record = run_match(bot.game, seats, options=ladder.get("options"), seed=seed,
                       limits=Limits(**ladder["limits"]), backend="process")
    assert record.result is not None
    assert record.forfeit is None, (
        f"{bot.name} forfeited: {record.result.detail}\n{record.players[0].log[-2000:]}")
