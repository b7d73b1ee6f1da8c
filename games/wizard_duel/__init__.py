"""Wizard Duel (game id ``wizard_duel``): two wizards on a 10 x 20 map of magic elements.

Hidden information and chance: each wizard knows only its own view of the map, and cells
refill at random after being emptied. The rule sheet is ``rules/wizard_duel.md``; decisions
this engine takes beyond it are listed in ``docs/wizard_duel.md``... see the module docs of
``state`` (the clock, chance) and ``views`` (what each player is shown).

Modules: ``actions`` (notation), ``board`` (geometry and cell contents), ``events`` (what a
wizard learns), ``state`` (rules), ``views`` (observations and text), ``game`` (registration).
"""

from games.wizard_duel.actions import (
    ELEMENTS,
    Action,
    Cast,
    Direction,
    Gather,
    Look,
    Move,
    Place,
    Spell,
)
from games.wizard_duel.game import WizardDuel
from games.wizard_duel.state import CAPACITY, WizardDuelState

__all__ = ["CAPACITY", "ELEMENTS", "Action", "Cast", "Direction", "Gather", "Look", "Move",
           "Place", "Spell", "WizardDuel", "WizardDuelState"]
