"""The Wizard Duel state: the true map, both wizards, each wizard's own view, and the turn clock.

Turn clock: ``turn`` 0 is the secret placement (player 0 then player 1); game turns 1..2N
follow, odd ones player 0's, even ones player 1's (N = ``turns_each``). A wizard that looked
N cells skips its next N - 1 turn slots, which pass automatically. At the end of every slot,
played or skipped: refills that fell due land, the shield of the player who did not own the
slot wears down by one, and each wizard sees its own cell.

Chance: ``rng`` (from the match seed) draws the start map and one base for refills; each
refill of each cell draws from its own stream forked from that base. Nothing a wizard does
out of the other's sight can therefore change what the other will see (``board.refill_draw``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.core import State
from games.errors import IllegalMoveError
from games.result import Result, two_player_outcomes
from games.wizard_duel import views
from games.wizard_duel.actions import (
    DIRECTIONS,
    ELEMENT_NAMES,
    ELEMENTS,
    FIRE,
    LOOK_MAX,
    Action,
    Cast,
    Direction,
    Gather,
    Look,
    Move,
    Place,
    Spell,
)
from games.wizard_duel.board import (
    CELLS,
    COLS,
    HALF_CELLS,
    KIND_UNIT,
    RAY,
    ROWS,
    STEP,
    count,
    gather_texts,
    half_of,
    index,
    on_map,
    random_cell,
    refill_draw,
)
from games.wizard_duel.events import Event, Hit, Sighting, WallResult, seen_cell

if TYPE_CHECKING:
    from games.wizard_duel.game import WizardDuel

CAPACITY = 10
DEFEAT_DAMAGE = 3
SHIELD_TURNS = {1: 1, 2: 3}
SCAN_RANGE = {1: 5, 2: 10}

_PLACES = tuple(tuple(f"place {i // COLS} {i % COLS}" for i in cells) for cells in HALF_CELLS)
_MOVES = tuple(f"move {d}" for d in DIRECTIONS)
_LOOKS = tuple(f"look {n}" for n in range(1, LOOK_MAX + 1))
_ARROWS = tuple(f"cast arrow {r} {c}" for r in range(ROWS) for c in range(COLS))
_POWERED = tuple((spell, ELEMENTS.index(letter), tuple(f"cast {spell} {p}" for p in (1, 2)))
                 for spell, letter in ((Spell.HEAL, "W"), (Spell.SHIELD, "T")))
_AIMED = tuple((spell, ELEMENTS.index(letter),
                tuple(tuple(f"cast {spell} {d} {p}" for d in DIRECTIONS) for p in (1, 2)))
               for spell, letter in ((Spell.SCAN, "A"), (Spell.WALL, "E")))


class WizardDuelState(State):
    game: WizardDuel

    def __init__(self, game: WizardDuel, seed: int) -> None:
        super().__init__(game, seed)
        self.history = []
        self.turns_each: int = game.options["turns_each"]
        self.cells = [random_cell(self.rng) for _ in range(CELLS)]
        # Refills fork their own streams from this, independent of each other (module doc).
        self.refill_base = self.rng.next64()
        self.obstacles = [0] * CELLS
        self.refill_at = [0] * CELLS
        self.pending = [0] * CELLS
        self.refills = [0] * CELLS
        self.waiting: list[int] = []  # cells with a refill due
        self.pos = [-1, -1]
        self.damage = [0, 0]
        self.held = [[0] * 5, [0] * 5]
        self.shield = [0, 0]
        self.skip = [0, 0]
        self.used = [0, 0]
        self.spells = [0, 0]
        self.hits = [0, 0]
        self.gathered = [0, 0]
        self.turn = 0
        self._seat = 0
        self.view_cells = [list(self.cells), list(self.cells)]
        self.view_obstacles = [[0] * CELLS, [0] * CELLS]
        self.view_seen = [[0] * CELLS, [0] * CELLS]
        self.sighting: list[Sighting | None] = [None, None]
        self.events: list[list[Event]] = [[], []]

    # -- whose turn ---------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return None if self._result is not None else self._seat

    # -- moves --------------------------------------------------------------------------
    def legal_moves(self) -> list[str]:
        if self._result is not None:
            return []
        seat = self._seat
        if self.turn == 0:
            return list(_PLACES[seat])
        here = self.pos[seat]
        held = self.held[seat]
        out = [_MOVES[d] for d in range(4) if STEP[d][here] >= 0]
        out += gather_texts(self.cells[here], CAPACITY - sum(held))
        out += _LOOKS
        if held[FIRE]:
            out += _ARROWS
            if held[FIRE] >= 2:
                out.append("cast dragon")
        for _spell, kind, texts in _POWERED:
            out += texts[:held[kind]]
        for _spell, kind, by_power in _AIMED:
            for power in range(min(held[kind], 2)):
                out += by_power[power]
        return out

    def _apply(self, move: str) -> None:
        action = Action.parse(move)
        seat = self._seat
        self._check(action, seat, move)
        if isinstance(action, Place):
            self.history.append(str(action))
            self._place(seat, index(action.row, action.col))
            return
        if isinstance(action, Move):
            self._move(seat, action.direction)
        elif isinstance(action, Gather):
            self._gather(seat, action.counts)
        elif isinstance(action, Look):
            self._look(seat, action.n)
        else:
            assert isinstance(action, Cast)
            self._cast(seat, action)
        self.history.append(str(action))
        victim = 1 - seat
        if self.damage[victim] >= DEFEAT_DAMAGE:
            self._finish("defeated", seat, f"player {victim} took {DEFEAT_DAMAGE} damage")
        else:
            self._advance()

    def _check(self, action: Action, seat: int, text: str) -> None:
        """Raise ``IllegalMoveError`` unless ``action`` is allowed; mutates nothing."""
        if isinstance(action, Place):
            if self.turn != 0:
                raise IllegalMoveError(text, "placement is over; wizards are already placed")
            if not on_map(action.row, action.col):
                raise IllegalMoveError(text, f"cell ({action.row},{action.col}) is off the "
                                             f"{ROWS}x{COLS} map")
            if half_of(action.col) != seat:
                cols = "0-9" if seat == 0 else "10-19"
                raise IllegalMoveError(text, f"player {seat} must start in its own half "
                                             f"(columns {cols})")
            return
        if self.turn == 0:
            raise IllegalMoveError(text, "place your wizard first ('place R C')")
        here = self.pos[seat]
        held = self.held[seat]
        if isinstance(action, Move):
            if STEP[DIRECTIONS.index(action.direction)][here] < 0:
                raise IllegalMoveError(text, "that step leaves the map")
        elif isinstance(action, Gather):
            self._check_gather(action, here, held, text)
        elif isinstance(action, Cast):
            kind, cost = action.cost
            if held[kind] < cost:
                raise IllegalMoveError(text, f"{action.spell} needs {cost} "
                                             f"{ELEMENT_NAMES[kind]}, you hold {held[kind]}")
            if action.spell is Spell.ARROW and not on_map(action.row, action.col):
                raise IllegalMoveError(text, f"cell ({action.row},{action.col}) is off the "
                                             f"{ROWS}x{COLS} map")

    def _check_gather(self, action: Gather, here: int, held: list[int], text: str) -> None:
        code = self.cells[here]
        for kind, want in enumerate(action.counts):
            have = count(code, kind)
            if want > have:
                raise IllegalMoveError(text, f"your cell holds {have} {ELEMENT_NAMES[kind]}, "
                                             f"not {want}")
        room = CAPACITY - sum(held)
        if action.total > room:
            raise IllegalMoveError(text, f"you can hold {CAPACITY} elements and have room for "
                                         f"{room}, not {action.total}")

    # -- actions ------------------------------------------------------------------------
    def _place(self, seat: int, cell: int) -> None:
        self.pos[seat] = cell
        if seat == 0:
            self._seat = 1
            return
        self.turn = 1
        self._seat = 0

    def _move(self, seat: int, direction: Direction) -> None:
        target = STEP[DIRECTIONS.index(direction)][self.pos[seat]]
        if self.obstacles[target]:
            self._see(seat, (target,))
            self.events[seat].append(Event(self.turn, "blocked", cell=target, by="obstacle"))
        elif self.pos[1 - seat] == target:
            self._spot(seat, target, "blocked")
            self.events[seat].append(Event(self.turn, "blocked", cell=target, by="wizard"))
        else:
            self.pos[seat] = target

    def _gather(self, seat: int, take: tuple[int, ...]) -> None:
        here = self.pos[seat]
        code = self.cells[here]
        held = self.held[seat]
        for kind, n in enumerate(take):
            code -= n * KIND_UNIT[kind]
            held[kind] += n
        self.cells[here] = code
        self.gathered[seat] += sum(take)
        self._see(seat, (here,))
        if code == 0:
            delay, contents = refill_draw(self.refill_base, here, self.refills[here])
            self.refills[here] += 1
            self.refill_at[here] = self.turn + delay
            self.pending[here] = contents
            self.waiting.append(here)

    def _look(self, seat: int, n: int) -> None:
        here = self.pos[seat]
        seen: list[int] = []
        for d in range(4):
            seen += self._ray(RAY[d][here][:n])
        self.skip[seat] = n - 1
        self._vision_event(seat, seen, "look", n=n)

    def _cast(self, seat: int, cast: Cast) -> None:
        kind, cost = cast.cost
        self.held[seat][kind] -= cost
        self.spells[seat] += 1
        spell = cast.spell
        here = self.pos[seat]
        if spell is Spell.ARROW:
            self._hit(seat, index(cast.row, cast.col), spell)
        elif spell is Spell.DRAGON:
            for d in range(4):
                target = STEP[d][here]
                if target >= 0:
                    self._hit(seat, target, spell)
        elif spell is Spell.HEAL:
            self.damage[seat] = max(0, self.damage[seat] - cast.power)
        elif spell is Spell.SHIELD:
            # A new shield never shortens one still up.
            self.shield[seat] = max(self.shield[seat], SHIELD_TURNS[cast.power])
        elif spell is Spell.SCAN:
            assert cast.direction is not None
            ray = RAY[DIRECTIONS.index(cast.direction)][here][:SCAN_RANGE[cast.power]]
            self._vision_event(seat, self._ray(ray), "scan", direction=str(cast.direction),
                               power=cast.power)
        else:
            assert cast.direction is not None
            self._wall(seat, cast.direction, cast.power)

    def _wall(self, seat: int, direction: Direction, power: int) -> None:
        target = STEP[DIRECTIONS.index(direction)][self.pos[seat]]
        if target < 0:
            result = WallResult.OFF_MAP
        elif self.obstacles[target]:
            result = WallResult.OBSTACLE
        elif self.pos[1 - seat] == target:
            result = WallResult.WIZARD
            self._spot(seat, target, "wall")
        else:
            result = WallResult.BUILT
            self.obstacles[target] = power
        if target >= 0:
            self._see(seat, (target,))
        self.events[seat].append(Event(self.turn, "wall", cell=target, direction=str(direction),
                                       power=power, result=result))

    def _hit(self, attacker: int, cell: int, spell: Spell) -> None:
        """One damage to ``cell``: an obstacle wears, the other wizard is hurt or shielded."""
        victim = 1 - attacker
        if self.obstacles[cell]:
            self.obstacles[cell] -= 1
            hit = Hit.OBSTACLE
        elif self.pos[victim] == cell:
            if self.shield[victim]:
                hit = Hit.SHIELD
                self.events[victim].append(Event(self.turn, "shielded"))
            else:
                hit = Hit.WIZARD
                self.damage[victim] += 1
                self.hits[attacker] += 1
                self.events[victim].append(Event(self.turn, "damaged",
                                                 damage=self.damage[victim]))
            self._spot(attacker, cell, "attack")
        else:
            hit = Hit.NOTHING
        self.events[attacker].append(Event(self.turn, "attack", cell=cell, spell=str(spell),
                                           hit=hit))

    # -- vision -------------------------------------------------------------------------
    def _ray(self, ray: tuple[int, ...]) -> list[int]:
        """The cells of ``ray`` up to and including the first obstacle."""
        obstacles = self.obstacles
        for k, cell in enumerate(ray):
            if obstacles[cell]:
                return list(ray[:k + 1])
        return list(ray)

    def _see(self, seat: int, seen: tuple[int, ...] | list[int]) -> None:
        cells, obstacles = self.cells, self.obstacles
        view_cells, view_obstacles = self.view_cells[seat], self.view_obstacles[seat]
        view_seen = self.view_seen[seat]
        for cell in seen:
            view_cells[cell] = cells[cell]
            view_obstacles[cell] = obstacles[cell]
            view_seen[cell] = self.turn

    def _spot(self, seat: int, cell: int, how: str) -> None:
        self.sighting[seat] = Sighting(cell, self.turn, how)

    def _vision_event(self, seat: int, seen: list[int], kind: str, **fields: Any) -> None:
        self._see(seat, seen)
        other = self.pos[1 - seat]
        found = other if other in seen else -1
        if found >= 0:
            self._spot(seat, found, kind)
        cells, obstacles = self.cells, self.obstacles
        snapshot = tuple(seen_cell(c, cells[c], obstacles[c]) for c in seen)
        self.events[seat].append(Event(self.turn, kind, seen=snapshot, opponent=found,
                                       **fields))

    # -- the clock ----------------------------------------------------------------------
    def _advance(self) -> None:
        """Close the slot just played, then any slots of a wizard skipping after a look."""
        while True:
            self._close_slot()
            if self._result is not None:
                return
            self.turn += 1
            self._seat = (self.turn - 1) % 2
            if not self.skip[self._seat]:
                return
            self.skip[self._seat] -= 1

    def _close_slot(self) -> None:
        turn = self.turn
        owner = (turn - 1) % 2
        self.used[owner] += 1
        if self.waiting:
            self._refill(turn)
        if self.shield[1 - owner]:
            self.shield[1 - owner] -= 1
        for seat in (0, 1):
            self._see(seat, (self.pos[seat],))
        if turn >= 2 * self.turns_each:
            d0, d1 = self.damage
            winner = None if d0 == d1 else (0 if d0 < d1 else 1)
            self._finish("turn-limit", winner,
                         f"after {self.turns_each} turns each, damage {d0}:{d1}")

    def _refill(self, turn: int) -> None:
        due = [c for c in self.waiting if self.refill_at[c] <= turn]
        if not due:
            return
        for cell in due:
            self.cells[cell] = self.pending[cell]
            self.refill_at[cell] = 0
            self.pending[cell] = 0
        self.waiting = [c for c in self.waiting if self.refill_at[c]]

    def _finish(self, reason: str, winner: int | None, detail: str) -> None:
        self._result = Result(reason=reason, scores=self.scores(),
                              outcomes=two_player_outcomes(winner), detail=detail,
                              extra=self.extra())

    # -- figures ------------------------------------------------------------------------
    def scores(self) -> tuple[float, ...]:
        """Health left, 3 - damage taken: the higher score wins at the turn limit."""
        return (DEFEAT_DAMAGE - self.damage[0], DEFEAT_DAMAGE - self.damage[1])

    def extra(self) -> dict[str, Any]:
        return {"damage": list(self.damage), "turns": self.turn, "turns_used": list(self.used),
                "spells": list(self.spells), "hits": list(self.hits),
                "gathered": list(self.gathered)}

    # -- views --------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        return views.observation(self, player)

    def spectator(self) -> dict[str, Any]:
        return views.spectator(self)

    def render(self, player: int | None = None) -> str:
        return views.render(self, player)

    # -- copying ------------------------------------------------------------------------
    def copy(self) -> WizardDuelState:
        twin = WizardDuelState.__new__(WizardDuelState)
        d = twin.__dict__
        d.update(self.__dict__)
        for name in ("history", "cells", "obstacles", "refill_at", "pending", "refills",
                     "waiting", "pos", "damage", "shield", "skip", "used", "spells", "hits",
                     "gathered", "sighting"):
            d[name] = list(d[name])
        for name in ("held", "view_cells", "view_obstacles", "view_seen", "events"):
            d[name] = [list(d[name][0]), list(d[name][1])]
        twin.rng = self.rng.copy()
        return twin
