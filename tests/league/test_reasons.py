"""The one glossary of how matches end (issue 38): every code the engines and the league
write has its words, and the play page names the person "you" with the verb to match."""

from __future__ import annotations

import pytest

from league.ladders.play.state import seats_named
from league.ladders.reasons import FORFEITS, REASONS, forfeit_words, reason_words
from sandbox import ForfeitKind


def test_every_forfeit_kind_and_known_ending_has_words() -> None:
    assert set(FORFEITS) == {str(kind) for kind in ForfeitKind}
    for code in ("no-legal-move", "both-passed", "turn-limit", "max-turns", "defeated",
                 "game-over", "forfeit", "build-error", "worker-lost", "cancelled"):
        assert code in REASONS and "-" not in reason_words(code), code
    assert reason_words("both-passed") == "both players passed"
    assert reason_words("some-new-code") == "some new code"
    assert forfeit_words("timeout") == "out of time"


@pytest.mark.parametrize(("text", "said"), [
    ("player 1 has no free cell", "you have no free cell"),
    ("player 0 has no free cell", "stonebot has no free cell"),
    ("player 1 forfeits: resigned", "you forfeit: resigned"),
    ("player 0 placed more squares", "stonebot placed more squares"),
    ("player 1 took 10 damage", "you took 10 damage"),
])
def test_the_play_page_says_you_and_the_bots_name(text: str, said: str) -> None:
    assert seats_named(text, {0: "stonebot", 1: "you (alice)"}, you=1) == said
