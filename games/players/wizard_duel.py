"""Wizard Duel players: ``random`` and ``hunter``. Both read only their observation, as a bot
program would (the hunter borrows the engine's geometry tables, nothing else).

``hunter``: gathers fire and wind (and water once hurt), then searches the opponent's half
with looks and wind scans, choosing each time the vision that shows the most "worth seeing"
cells per turn spent, here or after a walk. A cell is worth seeing if it was never seen, or
not for long, or lies next to where the opponent was last seen. Whenever it knows where the
opponent stood recently it shoots fire arrows there; when an arrow finds the cell empty it
shoots the cells next to it (a random wizard that left moved one step), then searches again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

from games.players.base import Player, RandomPlayer, register_player
from games.wizard_duel.actions import DIRECTIONS
from games.wizard_duel.board import CELLS, COLS, HALF, RAY, STEP

_DIGIT = {"F": 0, "W": 1, "A": 3}  # positions in a cell's "FWTAE" counts
_KEEP = {"F": 4, "A": 4, "W": 1}
"""How many of each kind the hunter carries at most, leaving room for the others."""
_PRIORITY = "WFA"
_START_COLS = ((7, 9), (10, 12))
"""Near the middle: a short walk from watching the opponent's half."""
_NEVER_SEEN = 150
_STALE_CAP = 60
_OWN_HALF_DISCOUNT = 6
_WIND_TURNS = 1
"""What one wind element is worth in turns (the walking and gathering it took)."""
_SKIP_PENALTY = 0.0
"""Extra cost per skipped turn of a look: the opponent may walk off while we wait."""
_STALE_AFTER = 20
_CHASE_TURNS = 14
"""How long after a sighting a miss is chased by shooting the cells next to it."""
"""A sighting older than this many game turns is not worth an arrow."""
_COL = tuple(i % COLS for i in range(CELLS))
_ROW = tuple(i // COLS for i in range(CELLS))


register_player("wizard_duel", "random")(RandomPlayer)  # mostly arrows whenever it holds fire


@register_player("wizard_duel", "hunter")
class HunterWizard(Player):
    def choose(self, observation: Mapping[str, Any]) -> str:
        obs = observation
        if obs["phase"] == "place":
            row = self.rng.between(2, 7)
            return f"place {row} {self.rng.between(*_START_COLS[self.seat])}"
        me = obs["you"]
        held = me["elements"]
        target = _fresh_target(obs)
        if target is None:
            target = self._chase(obs)
        if target is not None and held["F"]:
            return f"cast arrow {_ROW[target]} {_COL[target]}"
        if me["damage"] and held["W"]:
            return f"cast heal {min(2, held['W'], me['damage'])}"
        gather = _gather(obs)
        if gather:
            return gather
        if held["F"]:
            return self._search(obs)
        return self._forage(obs)

    def _chase(self, obs: Mapping[str, Any]) -> int | None:
        """Right after an arrow missed where the opponent was, one of the cells next to it:
        a wizard that left moved one step."""
        seen = obs["opponent"]
        if seen is None or obs["turn"] - seen["turn"] > _CHASE_TURNS:
            return None
        lost = seen["row"] * COLS + seen["col"]
        tried = {e["cell"][0] * COLS + e["cell"][1] for e in obs["events"]
                 if e["kind"] == "attack" and e["turn"] >= seen["turn"]}
        blocked = _blocked(obs)
        me = obs["you"]["row"] * COLS + obs["you"]["col"]
        options = [STEP[d][lost] for d in range(4)]
        options = [c for c in options if c >= 0 and c not in tried and not blocked[c] and c != me]
        return self.rng.choice(options) if options and lost in tried else None

    def _search(self, obs: Mapping[str, Any]) -> str:
        """The look or scan seeing the most weight per turn, here, one step away, or at the
        best spot on the map counting the walk there."""
        me = obs["you"]
        here = me["row"] * COLS + me["col"]
        wind = me["elements"]["A"]
        weights = _weights(obs, self.seat)
        blocked = _blocked(obs)
        value, move = _best_vision(here, wind, weights, blocked)
        for d, direction in enumerate(DIRECTIONS):
            near = STEP[d][here]
            if near >= 0 and not blocked[near]:
                there, _ = _best_vision(near, wind, weights, blocked, extra_turns=1)
                if there > value * 1.05:
                    value, move = there, f"move {direction}"
        spot, spot_value = here, value
        for cell in range(CELLS):
            if blocked[cell] or cell == here:
                continue
            walk = abs(_ROW[cell] - _ROW[here]) + abs(_COL[cell] - _COL[here])
            look = sum(_ray_value(RAY[d][cell][:5], weights, blocked) for d in range(4))
            if look / (5 + walk) > spot_value:
                spot, spot_value = cell, look / (5 + walk)
        if spot != here and spot_value > value:
            return _step_towards(obs, {spot}) or move
        return move

    def _forage(self, obs: Mapping[str, Any]) -> str:
        """Walk to the nearest cell known to hold something we want."""
        me = obs["you"]
        digits = [_DIGIT[k] for k in _wants(me)]
        cells = obs["map"]["elements"]
        goals = {r * COLS + c for r, line in enumerate(cells) for c, text in enumerate(line)
                 if any(text[d] != "0" for d in digits)}
        goals.discard(me["row"] * COLS + me["col"])
        step = _step_towards(obs, goals) if goals and me["held"] < 10 else None
        if step:
            return step
        legal: list[str] = obs["legal_moves"]
        moves = [m for m in legal if m.startswith("move")]
        return self.rng.choice(moves or legal)


def _wants(me: Mapping[str, Any]) -> dict[str, int]:
    """How many more of each kind to carry: fire to shoot, wind to scan, water if hurt."""
    held = me["elements"]
    wants = {"F": _KEEP["F"] - held["F"], "A": _KEEP["A"] - held["A"]}
    if me["damage"]:
        wants["W"] = _KEEP["W"] - held["W"]
    return {k: n for k, n in wants.items() if n > 0}


def _gather(obs: Mapping[str, Any]) -> str | None:
    """Take what we want from our cell, as room allows."""
    me = obs["you"]
    room = 10 - me["held"]
    cell = obs["map"]["elements"][me["row"]][me["col"]]
    parts = []
    for kind, want in sorted(_wants(me).items(), key=lambda kv: _PRIORITY.index(kv[0])):
        take = min(int(cell[_DIGIT[kind]]), want, room)
        if take:
            parts.append((kind, take))
            room -= take
    if not parts:
        return None
    parts.sort(key=lambda p: "FWTAE".index(p[0]))
    return "gather " + " ".join(f"{k}{n}" for k, n in parts)


def _blocked(obs: Mapping[str, Any]) -> list[bool]:
    return [ch != "." for line in obs["map"]["obstacles"] for ch in line]


def _weights(obs: Mapping[str, Any], seat: int) -> list[int]:
    """How worth seeing each cell is: never-seen cells of the opponent's half most, then those
    unseen longest (capped), our own half a little; cells by a lost sighting get more."""
    turn = obs["turn"]
    seen = [t for line in obs["map"]["seen"] for t in line]
    theirs = 1 - seat
    weights = []
    for cell, when in enumerate(seen):
        value = _NEVER_SEEN if when == 0 else min(turn - when, _STALE_CAP)
        if (_COL[cell] >= HALF) != bool(theirs):
            value //= _OWN_HALF_DISCOUNT
        weights.append(value)
    lost = obs["opponent"]
    if lost is not None and turn - lost["turn"] <= 2 * _STALE_AFTER:
        for cell in range(CELLS):
            near = abs(_ROW[cell] - lost["row"]) + abs(_COL[cell] - lost["col"]) <= 2
            if near and seen[cell] <= turn - 2:
                weights[cell] += _STALE_CAP
    return weights


def _ray_value(ray: tuple[int, ...], weights: list[int], blocked: list[bool]) -> int:
    total = 0
    for cell in ray:
        total += weights[cell]
        if blocked[cell]:
            break
    return total


def _best_vision(at: int, wind: int, weights: list[int], blocked: list[bool],
                 extra_turns: int = 0) -> tuple[float, str]:
    best = (-1.0, "look 1")
    for n in range(1, 6):
        value = sum(_ray_value(RAY[d][at][:n], weights, blocked) for d in range(4))
        best = max(best, (value / (n + _SKIP_PENALTY * (n - 1) + extra_turns), f"look {n}"))
    for d, direction in enumerate(DIRECTIONS):
        for power in range(1, min(wind, 2) + 1):
            value = _ray_value(RAY[d][at][:5 * power], weights, blocked)
            cost = 1 + _WIND_TURNS * power + extra_turns
            best = max(best, (value / cost, f"cast scan {direction} {power}"))
    return best


def _fresh_target(obs: Mapping[str, Any]) -> int | None:
    """Where the opponent last stood, unless old or an arrow since found the cell empty."""
    seen = obs["opponent"]
    if seen is None or obs["turn"] - seen["turn"] > _STALE_AFTER:
        return None
    cell = [seen["row"], seen["col"]]
    for event in obs["events"]:
        if (event["kind"] == "attack" and event["turn"] >= seen["turn"]
                and event["cell"] == cell and event["hit"] in ("nothing", "obstacle")):
            return None
    row: int = seen["row"]
    col: int = seen["col"]
    return row * COLS + col


def _step_towards(obs: Mapping[str, Any], goals: set[int]) -> str | None:
    """First step of a shortest path to a goal, through cells not known to be blocked."""
    me = obs["you"]
    start = me["row"] * COLS + me["col"]
    if start in goals:
        return None
    blocked = _blocked(obs)
    first = {start: ""}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for d, direction in enumerate(DIRECTIONS):
            nxt = STEP[d][cell]
            if nxt < 0 or nxt in first or blocked[nxt]:
                continue
            first[nxt] = first[cell] or f"move {direction}"
            if nxt in goals:
                return first[nxt]
            queue.append(nxt)
    return None
