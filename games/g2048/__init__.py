"""2048 (game id ``g2048``): the packed-int board primitives and the game's state machine."""

from games.g2048.board import DOWN, LEFT, RIGHT, UP, Geometry, geometry, slide_grid, slide_line
from games.g2048.game import G2048, Direction, G2048State

__all__ = [
           "DOWN",
           "G2048",
           "LEFT",
           "RIGHT",
           "UP",
           "Direction",
           "G2048State",
           "Geometry",
           "geometry",
           "slide_grid",
           "slide_line",
]
