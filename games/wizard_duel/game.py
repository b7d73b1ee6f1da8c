"""The Wizard Duel game (id ``wizard_duel``), rules plus options: ``docs/rules/wizard_duel.md``."""

from __future__ import annotations

from games.core import Game
from games.options import IntOption, OptionSchema
from games.registry import register
from games.wizard_duel.state import WizardDuelState


@register
class WizardDuel(Game):
    id = "wizard_duel"
    title = "Wizard Duel"
    score_unit = "health left"
    num_players = 2
    hidden_information = True
    chance = True
    options_schema = OptionSchema(
        IntOption("turns_each", 100, 1, 1000,
                  "turns per wizard before the one with less damage wins"))

    def new_state(self, seed: int = 0) -> WizardDuelState:
        return WizardDuelState(self, seed)
