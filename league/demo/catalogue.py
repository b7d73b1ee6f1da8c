"""Which demo bot plays on which ladder, who owns it, and the source uploaded for it.

Plain data with no Django import, so the tests can play every demo bot without a database.
Per ladder a mix of strengths: a strong built-in player, the starter from ``examples/``, and
weaker ones, so the board spreads out within a few rounds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
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
    filename: str
    """The single source file's name (main.py, main.js, main.cpp): it sets the language."""
    path: Path
    """The file read for it, when it is uploaded (not at import: an image may lack examples/)."""
    fill: tuple[tuple[str, str], ...] = ()
    """When set, ``path`` is a template and these are its fields."""
    source_public: bool = False
    """Its owner lets others download its source (one demo bot does, to show how)."""

    def read(self) -> bytes:
        if not self.fill:
            return self.path.read_bytes()
        return self.path.read_text().format(**dict(self.fill)).encode()


def _builtin(game: str, name: str, owner: str, player: str, summary: str,
             time_limit: float | None = None) -> DemoBot:
    """A small program around the engine's built-in ``player``: ``bots/builtin.py.tmpl``.

    ``time_limit`` holds a searching player to less than the ladder's move time (a 2048 game
    lasts hundreds of moves); by default it thinks for half of the move time.
    """
    title = " ".join(word.capitalize() for word in name.split("-"))
    fill = {"summary": f"{title}: {summary}", "player": player,
            "time_limit": ('start.limits["move_time"]' if time_limit is None
                           else repr(time_limit))}
    return DemoBot(game, name, owner, "main.py", BOTS / "builtin.py.tmpl",
                   tuple(fill.items()))


def _own(game: str, name: str, owner: str) -> DemoBot:
    """A program of our own: ``bots/<name>.py``."""
    return DemoBot(game, name, owner, "main.py", BOTS / f"{name}.py")


def _starter(game: str, name: str, owner: str, folder: str | None = None,
             entry: str = "main.py") -> DemoBot:
    """A starter bot, read from ``examples/`` so the demo plays what authors copy."""
    return DemoBot(game, name, owner, entry, EXAMPLES / (folder or game) / entry)


MONTE_CARLO = "flat Monte Carlo, random playouts after each move."


# Strongest first on each ladder, as measured against each other and a random player. The
# three Stones starters (JavaScript, C++, Python) play the same rules; Monte Mia is held to
# 1 ms a move in 2048, where a game lasts hundreds of moves.
DEMO_BOTS: tuple[DemoBot, ...] = (
    _builtin("stones", "perfect-petra", "dave", "perfect",
             "solves 5 x 5 Stones exactly and wins every won position."),
    _builtin("stones", "monte-mia", "alice", "montecarlo", MONTE_CARLO),
    _starter("stones", "node-nora", "carol", "stones_js", "main.js"),
    _starter("stones", "plusplus-pat", "dave", "stones_cpp", "main.cpp"),
    replace(_starter("stones", "squeeze-sam", "bob"), source_public=True),
    _builtin("blokus_duo", "greedy-gus", "bob", "greedy",
             "the biggest piece that opens the most corners for him and closes the opponent's."),
    _builtin("blokus_duo", "monte-mia", "alice", "montecarlo", MONTE_CARLO),
    _starter("blokus_duo", "square-sally", "dave"),
    _builtin("blokus_duo", "random-rita", "carol", "random", "a uniformly random placement."),
    _builtin("wizard_duel", "hunter-hana", "dave", "hunter",
             "gathers elements, scouts the other half and shoots where the opponent was seen."),
    _own("wizard_duel", "wobbly-walt", "bob"),
    _starter("wizard_duel", "dicey-dora", "alice"),
    _builtin("g2048", "expecti-max", "carol", "expectimax",
             "expectimax held to 1 ms a move: 1024 or 2048 in seconds.", time_limit=0.002),
    _builtin("g2048", "monte-mia", "alice", "montecarlo",
             "flat Monte Carlo held to 1 ms a move: a game in seconds.", time_limit=0.002),
    _starter("g2048", "tidy-tom", "dave"),
    _builtin("g2048", "greedy-gus", "bob", "greedy",
             "the slide that scores most now, then the one leaving most empty cells."),
    _builtin("g2048", "random-rita", "carol", "random", "a uniformly random slide."),
    _builtin("robots", "safe-sofia", "carol", "safe",
             "never steps where a robot can reach her, looking two turns ahead."),
    _builtin("robots", "monte-mia", "alice", "montecarlo", MONTE_CARLO),
    _starter("robots", "dodgy-dan", "bob"),
    _builtin("robots", "random-rita", "carol", "random", "a uniformly random command."),
)
