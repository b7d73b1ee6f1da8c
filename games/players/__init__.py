"""Built-in players for every game; importing this package registers them all."""

from games.players import (  # noqa: F401
    blokus_duo,
    g2048,
    montecarlo,
    robots,
    stones,
    wizard_duel,
)
from games.players.base import (
    Player,
    make_player,
    play,
    player_names,
    register_player,
    showcase_player,
)

__all__ = ["Player", "make_player", "play", "player_names", "register_player", "showcase_player"]
