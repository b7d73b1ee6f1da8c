"""Wizard Duel players: ``random`` and ``hunter``.

Both read only their observation, as a bot program would.

``hunter`` stands near the middle of the map, gathers fire and wind, sweeps the opponent's
half row by row with wind scans, and shoots fire arrows where it last saw the opponent until
an arrow finds the cell empty. It heals with water it happens to gather.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

from games.players.base import Player, register_player

ROWS, COLS = 10, 20
_STEPS = (("U", -1, 0), ("D", 1, 0), ("L", 0, -1), ("R", 0, 1))
_DIGIT = {"F": 0, "W": 1, "A": 3}  # positions in a cell's "FWTAE" counts
_KEEP = {"F": 4, "A": 4, "W": 1}
"""How many of each kind the hunter carries at most, leaving room for the others."""
_PRIORITY = "WFA"
_MIDDLE = ((7, 9), (10, 12))
"""Start columns: near the middle, a short walk from watching the opponent's half."""
_STALE_CAP = 80
_WALK_MARGIN = 1.0
"""Walk to a better spot only if it sees this much more per turn, walking included."""
_WIND_TURNS = 2
"""What one wind element is worth in turns (the walking and gathering it took)."""
_STALE_AFTER = 20
"""A sighting older than this many game turns is not worth an arrow."""


@register_player("wizard_duel", "random")
class RandomWizard(Player):
    """Uniform over the legal moves (so mostly arrows whenever it holds fire)."""

    def choose(self, observation: Mapping[str, Any]) -> str:
        return self.rng.choice(observation["legal_moves"])


@register_player("wizard_duel", "hunter")
class HunterWizard(Player):
    def choose(self, observation: Mapping[str, Any]) -> str:
        obs = observation
        if obs["phase"] == "place":
            return f"place {self.rng.between(2, ROWS - 3)} {self.rng.between(*_MIDDLE[self.seat])}"
        me = obs["you"]
        held = me["elements"]
        target = _fresh_target(obs)
        if target is not None and held["F"]:
            return f"cast arrow {target[0]} {target[1]}"
        if me["damage"] and held["W"]:
            return f"cast heal {min(2, held['W'], me['damage'])}"
        gather = self._gather(obs)
        if gather:
            return gather
        if held["F"]:
            return self._search(obs)
        return self._forage(obs)

    def _wants(self, me: Mapping[str, Any]) -> dict[str, int]:
        """How many more of each kind to carry: fire to shoot, wind to scan, water if hurt."""
        held = me["elements"]
        wants = {"F": _KEEP["F"] - held["F"], "A": _KEEP["A"] - held["A"]}
        if me["damage"]:
            wants["W"] = _KEEP["W"] - held["W"]
        return {k: n for k, n in wants.items() if n > 0}

    def _gather(self, obs: Mapping[str, Any]) -> str | None:
        """Take what we want from our cell, as room allows."""
        me = obs["you"]
        room = 10 - me["held"]
        cell = obs["map"]["elements"][me["row"]][me["col"]]
        parts = []
        for kind, want in sorted(self._wants(me).items(), key=lambda kv: _PRIORITY.index(kv[0])):
            take = min(int(cell[_DIGIT[kind]]), want, room)
            if take:
                parts.append((kind, take))
                room -= take
        if not parts:
            return None
        parts.sort(key=lambda p: "FWTAE".index(p[0]))
        return "gather " + " ".join(f"{k}{n}" for k, n in parts)

    def _search(self, obs: Mapping[str, Any]) -> str:
        """The look or scan that sees the most long-unseen cells of the opponent's half per
        turn spent (wind counted as turns), unless walking to a better spot pays more."""
        me = obs["you"]
        here = (me["row"], me["col"])
        weights = _staleness(obs, self.seat)
        blocked = obs["map"]["obstacles"]
        wind = me["elements"]["A"]
        value, move = _best_vision(here, wind, weights, blocked)
        for name, dr, dc in _STEPS:
            r, c = here[0] + dr, here[1] + dc
            if 0 <= r < ROWS and 0 <= c < COLS and blocked[r][c] == ".":
                there, _ = _best_vision((r, c), wind, weights, blocked, extra_turns=1)
                if there > value * 1.05:
                    value, move = there, f"move {name}"
        spot, spot_value = here, value
        for r in range(ROWS):
            for c in range(COLS):
                if blocked[r][c] == "." and (r, c) != here:
                    walk = abs(r - here[0]) + abs(c - here[1])
                    look = sum(_ray_value((r, c), dr, dc, 5, weights, blocked)
                               for _, dr, dc in _STEPS)
                    if look / (5 + walk) > spot_value:
                        spot, spot_value = (r, c), look / (5 + walk)
        if spot_value > value * _WALK_MARGIN:
            return _step_towards(obs, spot) or move
        return move

    def _forage(self, obs: Mapping[str, Any]) -> str:
        """Walk to the nearest cell known to hold something we want."""
        me = obs["you"]
        wants = self._wants(me)
        digits = [_DIGIT[k] for k in wants]
        cells = obs["map"]["elements"]
        goals = {(r, c) for r in range(ROWS) for c in range(COLS)
                 if any(cells[r][c][d] != "0" for d in digits)}
        goals.discard((me["row"], me["col"]))
        step = _step_towards(obs, goals) if goals and me["held"] < 10 else None
        if step:
            return step
        moves = [m for m in obs["legal_moves"] if m.startswith("move")]
        return self.rng.choice(moves or obs["legal_moves"])


def _staleness(obs: Mapping[str, Any], seat: int) -> list[list[int]]:
    """How long since we saw each cell of the opponent's half (capped); 0 elsewhere."""
    turn = obs["turn"]
    seen = obs["map"]["seen"]
    lo, hi = (COLS // 2, COLS) if seat == 0 else (0, COLS // 2)
    weights = [[min(turn - seen[r][c], _STALE_CAP) if lo <= c < hi else 0
                for c in range(COLS)] for r in range(ROWS)]
    lost = obs["opponent"]
    if lost is not None and turn - lost["turn"] <= 2 * _STALE_AFTER:
        # It was there lately and cannot have gone far.
        for r in range(max(0, lost["row"] - 2), min(ROWS, lost["row"] + 3)):
            for c in range(max(0, lost["col"] - 2), min(COLS, lost["col"] + 3)):
                if abs(r - lost["row"]) + abs(c - lost["col"]) <= 2 and seen[r][c] <= turn - 2:
                    weights[r][c] += _STALE_CAP
    return weights


def _ray_value(start: tuple[int, int], dr: int, dc: int, length: int,
               weights: list[list[int]], blocked: list[str]) -> int:
    r, c = start
    total = 0
    for _ in range(length):
        r, c = r + dr, c + dc
        if not (0 <= r < ROWS and 0 <= c < COLS):
            break
        total += weights[r][c]
        if blocked[r][c] != ".":
            break
    return total


def _best_vision(at: tuple[int, int], wind: int, weights: list[list[int]], blocked: list[str],
                 extra_turns: int = 0) -> tuple[float, str]:
    best = (-1.0, "look 1")
    for n in range(1, 6):
        value = sum(_ray_value(at, dr, dc, n, weights, blocked) for _, dr, dc in _STEPS)
        best = max(best, (value / (n + extra_turns), f"look {n}"))
    for name, dr, dc in _STEPS:
        for power in range(1, min(wind, 2) + 1):
            value = _ray_value(at, dr, dc, 5 * power, weights, blocked)
            cost = 1 + _WIND_TURNS * power + extra_turns
            best = max(best, (value / cost, f"cast scan {name} {power}"))
    return best


def _fresh_target(obs: Mapping[str, Any]) -> tuple[int, int] | None:
    """Where the opponent last stood, unless old or an arrow since found the cell empty."""
    seen = obs["opponent"]
    if seen is None or obs["turn"] - seen["turn"] > _STALE_AFTER:
        return None
    cell = [seen["row"], seen["col"]]
    for event in obs["events"]:
        if (event["kind"] == "attack" and event["turn"] >= seen["turn"]
                and event["cell"] == cell and event["hit"] in ("nothing", "obstacle")):
            return None
    return seen["row"], seen["col"]


def _row_to_scan(obs: Mapping[str, Any], row: int) -> int:
    """The row whose last scan is oldest, nearest first; rows by a lost sighting first."""
    last = [-1000] * ROWS
    for event in obs["events"]:
        if event["kind"] == "scan" and event["direction"] in ("L", "R") and event["cells"]:
            last[event["cells"][0][0]] = event["turn"]
    lost = obs["opponent"]
    turn = obs["turn"]

    def priority(r: int) -> tuple[int, int]:
        age = min(turn - last[r], 60)
        if lost is not None and abs(r - lost["row"]) <= 1 and last[r] < lost["turn"]:
            age += 100
        return (age, -abs(r - row))

    return max(range(ROWS), key=priority)


def _step_towards(obs: Mapping[str, Any], goals: tuple[int, int] | set[tuple[int, int]]
                  ) -> str | None:
    """First step of a shortest path, through cells not known to hold an obstacle."""
    goal_set = {goals} if isinstance(goals, tuple) else goals
    me = obs["you"]
    start = (me["row"], me["col"])
    if start in goal_set:
        return None
    blocked = obs["map"]["obstacles"]
    first: dict[tuple[int, int], str] = {start: ""}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        for name, dr, dc in _STEPS:
            nxt = (r + dr, c + dc)
            if not (0 <= nxt[0] < ROWS and 0 <= nxt[1] < COLS) or nxt in first:
                continue
            if blocked[nxt[0]][nxt[1]] != ".":
                continue
            first[nxt] = first[(r, c)] or f"move {name}"
            if nxt in goal_set:
                return first[nxt]
            queue.append(nxt)
    return None
