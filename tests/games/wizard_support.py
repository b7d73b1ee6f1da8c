"""Helpers shared by the Wizard Duel tests (this module holds no tests itself).

Tests set up positions by writing the state's plain fields (cells, held elements, obstacles);
everything they then check goes through ``apply`` and the views.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from games.rng import Rng
from games.wizard_duel import WizardDuel, WizardDuelState
from games.wizard_duel.board import index, pack

KINDS = "FWTAE"


def new(seed: int = 0, **options: Any) -> WizardDuelState:
    return WizardDuel(options or None).new_state(seed)


def placed(p0: tuple[int, int] = (4, 4), p1: tuple[int, int] = (4, 15), seed: int = 0,
           **options: Any) -> WizardDuelState:
    state = new(seed, **options)
    state.apply(f"place {p0[0]} {p0[1]}")
    state.apply(f"place {p1[0]} {p1[1]}")
    return state


def code(**counts: int) -> int:
    return pack([counts.get(k, 0) for k in KINDS])


def set_cell(state: WizardDuelState, row: int, col: int, **counts: int) -> None:
    state.cells[index(row, col)] = code(**counts)


def give(state: WizardDuelState, seat: int, **counts: int) -> None:
    state.held[seat] = [counts.get(k, 0) for k in KINDS]


def wall(state: WizardDuelState, row: int, col: int, durability: int = 2) -> None:
    state.obstacles[index(row, col)] = durability


def play(state: WizardDuelState, *moves: str) -> WizardDuelState:
    for move in moves:
        state.apply(move)
    return state


def events(state: WizardDuelState, seat: int, kind: str) -> list[dict[str, Any]]:
    return [e for e in state.observation(seat)["events"] if e["kind"] == kind]


def where(state: WizardDuelState, seat: int) -> tuple[int, int]:
    you = state.observation(seat)["you"]
    return you["row"], you["col"]


def fingerprint(state: WizardDuelState) -> Any:
    """Everything a state holds, to prove a rejected move changed nothing."""
    fields = {k: copy.deepcopy(v) for k, v in vars(state).items() if k not in ("game", "rng")}
    return fields, state.rng.state, json.dumps(state.spectator(), sort_keys=True)


def dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def random_playout(state: WizardDuelState, rng: Rng, limit: int = 10_000) -> list[str]:
    """Play uniformly random legal moves to the end (or ``limit`` moves); returns them."""
    played = []
    while state.to_move is not None and len(played) < limit:
        move = rng.choice(state.legal_moves())
        state.apply(move)
        played.append(move)
    return played
