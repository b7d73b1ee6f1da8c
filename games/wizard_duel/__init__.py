"""Wizard Duel (game id ``wizard_duel``): two wizards on a 10 x 20 map of magic elements.

Hidden information and chance: each wizard knows only its own view of the map, and emptied
cells refill at random. The rules, as bot authors read them: ``docs/rules/wizard_duel.md``.
Modules: ``actions`` (the notation), ``board`` (geometry, cell contents, refill
draws), ``events`` (what a wizard learns), ``state`` (the rules and the turn clock),
``views`` (observations, spectator view, text), ``game`` (options and registration).

Decisions this engine takes where the sheet is silent:

- Clock: placement is turn 0 (player 0, then player 1); game turns 1..2N follow, odd ones
  player 0's. A skipped turn (after ``look N``) passes automatically and is not in
  ``history``. The game ends when turn 2N closes.
- Refill: a cell emptied on turn t with delay d (1-5) is refilled when turn t + d closes, so
  it is empty on turns t+1..t+d. Elements under an obstacle stay there (and a cell under an
  obstacle still refills); nobody can gather them until the obstacle is gone.
- Chance: the match seed draws the start map and a base from which every refill of every
  cell forks its own stream, so one wizard's unseen doings never change what the other sees
  elsewhere (a single shared stream would: see the secrecy tests).
- Vision of one's own cell: at the close of every turn slot, after refills, both wizards see
  their own cell (and a gatherer sees it at once).
- Moving into an obstacle is legal and fails like moving into the hidden opponent (the wizard
  stays, sees the cell, and an event says why): a wizard may not know of a wall the other
  built, and legality must not reveal it. Only stepping off the map is illegal.
- A blocked move, a wall that fails on a wizard, an attack that hits the wizard or its shield,
  a look or a scan each tell where the opponent stood; ``opponent`` in the observation is the
  latest of these, with its turn and how it was learned.
- A shield lasts for the opponent's next 1 or 3 turn slots, skipped ones included; casting a
  shield never shortens one still up. A shielded wizard learns that an attack was blocked
  (``shielded`` event), never from where, as with damage.
- An attack's result is wizard, shield, obstacle or nothing; whether an obstacle broke is not
  told. A fire arrow at one's own cell is legal and hits nothing; healing at 0 damage is
  legal and does nothing.
- Looks, scans and walls show the cells they reach: elements and obstacle durability.
- A wall's caster sees the target cell whether the wall was built or failed there.
- Notation: words are case-insensitive; gather counts start at 1 and a kind may be named once;
  a bad look range or spell power is malformed text, an off-map cell is an illegal move.
- Scores are health left (3 - damage), so the higher score wins at the turn limit; the
  result's extra figures (both wizards' play) go to the spectator only.
- ``legal_moves`` lists every legal move (at most about 260 strings).
"""

from games.wizard_duel.game import WizardDuel
from games.wizard_duel.state import CAPACITY, WizardDuelState

__all__ = ["CAPACITY", "WizardDuel", "WizardDuelState"]
