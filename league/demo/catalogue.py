"""Which demo bot plays on which ladder, who owns it, and the file uploaded for it.

Plain data with no Django import, so the tests can play every demo bot without a database.
Per ladder a mix of strengths: a strong built-in player, the starter from ``examples/``, and
weaker ones, so the board spreads out within a few rounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
BOTS = Path(__file__).resolve().parent / "bots"

DEMO_USERS = ("alice", "bob", "carol", "dave")


@dataclass(frozen=True)
class DemoBot:
    game: str
    name: str
    owner: str
    source: Path
    """The single source file uploaded; its name (main.py, main.js, main.cpp) sets the
    language."""

    @property
    def filename(self) -> str:
        return self.source.name

    def read(self) -> bytes:
        return self.source.read_bytes()


def _own(game: str, name: str, owner: str) -> DemoBot:
    """A program of our own in ``bots/<game>/<name>/``."""
    return DemoBot(game, name, owner, BOTS / game / name / "main.py")


def _starter(game: str, name: str, owner: str, folder: str | None = None,
             entry: str = "main.py") -> DemoBot:
    """A starter bot, read from ``examples/`` so the demo plays what authors copy."""
    return DemoBot(game, name, owner, EXAMPLES / (folder or game) / entry)


# Strongest first on each ladder, as measured against each other and a random player. The
# JavaScript and C++ starters play the first legal move; Monte Mia is held to 1 ms a move in
# 2048, where a game lasts hundreds of moves.
DEMO_BOTS: tuple[DemoBot, ...] = (
    _own("stones", "perfect-petra", "dave"),
    _own("stones", "monte-mia", "alice"),
    _starter("stones", "node-nora", "carol", "stones_js", "main.js"),
    _starter("stones", "plusplus-pat", "dave", "stones_cpp", "main.cpp"),
    _starter("stones", "squeeze-sam", "bob"),
    _own("blokus_duo", "greedy-gus", "bob"),
    _own("blokus_duo", "monte-mia", "alice"),
    _starter("blokus_duo", "square-sally", "dave"),
    _own("blokus_duo", "random-rita", "carol"),
    _own("wizard_duel", "hunter-hana", "dave"),
    _own("wizard_duel", "wobbly-walt", "bob"),
    _starter("wizard_duel", "dicey-dora", "alice"),
    _own("g2048", "expecti-max", "carol"),
    _own("g2048", "monte-mia", "alice"),
    _starter("g2048", "tidy-tom", "dave"),
    _own("g2048", "greedy-gus", "bob"),
    _own("g2048", "random-rita", "carol"),
    _own("robots", "safe-sofia", "carol"),
    _own("robots", "monte-mia", "alice"),
    _starter("robots", "dodgy-dan", "bob"),
    _own("robots", "random-rita", "carol"),
)

