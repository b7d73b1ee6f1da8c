"""Built-in players for every game; importing this package registers them all."""

from games.players import blokus_duo, g2048, robots, stones, wizard_duel  # noqa: F401
from games.players.base import Player, make_player, play, player_names, register_player

__all__ = ["Player", "make_player", "play", "player_names", "register_player"]
