"""Blokus Duo (game id ``blokus_duo``): pieces, move codes and the bitboard rules."""

from games.blokus_duo.moves import PASS_CODE, BlokusMove
from games.blokus_duo.pieces import LETTERS, SHAPES, Shape
from games.blokus_duo.state import BlokusDuo, BlokusDuoState

__all__ = ["LETTERS", "PASS_CODE", "SHAPES", "BlokusDuo", "BlokusDuoState", "BlokusMove", "Shape"]
