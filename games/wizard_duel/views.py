"""Views of a Wizard Duel state: a player's observation, the spectator's, and text renders.

``observation(state, p)`` is built only from what seat ``p`` knows (its wizard, its map view,
its sighting of the opponent, its events) plus what is public (the clock, whose turn). It
never reads the true map, the other wizard, refill timers or the RNG; the leak tests in
``tests/games/test_wizard_duel_secrecy.py`` hold it to that.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.errors import GameError
from games.wizard_duel.actions import ELEMENTS
from games.wizard_duel.board import COLS, HALF, ROWS, TEXT, TOTAL

if TYPE_CHECKING:
    from games.wizard_duel.state import WizardDuelState

_OBSTACLE_CHAR = ".12"
_WIZARD_CHAR = "AB"


def _phase(state: WizardDuelState) -> str:
    if state.result is not None:
        return "over"
    return "place" if state.turn == 0 else "play"


_text = TEXT.__getitem__
_obstacle_char = _OBSTACLE_CHAR.__getitem__


def _grid_text(codes: list[int]) -> list[list[str]]:
    return [list(map(_text, codes[r * COLS:(r + 1) * COLS])) for r in range(ROWS)]


def _grid_obstacles(durability: list[int]) -> list[str]:
    return ["".join(map(_obstacle_char, durability[r * COLS:(r + 1) * COLS]))
            for r in range(ROWS)]


def _grid_ints(values: list[int]) -> list[list[int]]:
    return [values[r * COLS:(r + 1) * COLS] for r in range(ROWS)]


def _wizard(state: WizardDuelState, seat: int) -> dict[str, Any]:
    cell = state.pos[seat]
    held = state.held[seat]
    return {"row": cell // COLS if cell >= 0 else None,
            "col": cell % COLS if cell >= 0 else None,
            "damage": state.damage[seat],
            "elements": dict(zip(ELEMENTS, held, strict=True)),
            "held": sum(held),
            "shield": state.shield[seat],
            "skip": state.skip[seat],
            "turns_used": state.used[seat]}


def _public_result(state: WizardDuelState) -> dict[str, Any] | None:
    # The extra figures describe both wizards' play, so only the spectator gets them.
    if state.result is None:
        return None
    data = state.result.to_json()
    data.pop("extra")
    return data


def observation(state: WizardDuelState, player: int) -> dict[str, Any]:
    if player not in (0, 1):
        raise GameError(f"wizard_duel has players 0 and 1, not {player!r}")
    sighting = state.sighting[player]
    return {
        "game": "wizard_duel",
        "player": player,
        "phase": _phase(state),
        "turn": state.turn,
        "turns_each": state.turns_each,
        "to_move": state.to_move,
        "you": _wizard(state, player),
        "opponent": None if sighting is None else sighting.to_json(),
        "map": {"elements": _grid_text(state.view_cells[player]),
                "obstacles": _grid_obstacles(state.view_obstacles[player]),
                "seen": _grid_ints(state.view_seen[player])},
        "events": [e.to_json() for e in state.events[player]],
        "legal_moves": state.legal_moves() if state.to_move == player else [],
        "result": _public_result(state),
    }


def spectator(state: WizardDuelState) -> dict[str, Any]:
    return {
        "game": "wizard_duel",
        "phase": _phase(state),
        "turn": state.turn,
        "turns_each": state.turns_each,
        "to_move": state.to_move,
        "map": {"elements": _grid_text(state.cells),
                "obstacles": _grid_obstacles(state.obstacles),
                "refill_at": _grid_ints(state.refill_at)},
        "wizards": [_wizard(state, 0), _wizard(state, 1)],
        "moves": len(state.history),
        "legal_moves": state.legal_moves(),
        "result": None if state.result is None else state.result.to_json(),
        "players": [observation(state, 0), observation(state, 1)],
    }


# -- text ------------------------------------------------------------------------------------
def _cell_char(code: int, obstacle: int) -> str:
    if obstacle:
        return "#"
    total = TOTAL[code]
    return str(total) if total else "."


def _map_lines(chars: list[str]) -> list[str]:
    head = "    " + "".join(str(c % 10) for c in range(HALF)) + " " + \
        "".join(str(c % 10) for c in range(HALF, COLS))
    lines = [head]
    for r in range(ROWS):
        row = chars[r * COLS:(r + 1) * COLS]
        lines.append(f"{r:>2}  " + "".join(row[:HALF]) + " " + "".join(row[HALF:]))
    return lines


def _wizard_line(state: WizardDuelState, seat: int) -> str:
    w = _wizard(state, seat)
    where = "unplaced" if w["row"] is None else f"at ({w['row']},{w['col']})"
    bag = " ".join(f"{k}{n}" for k, n in w["elements"].items() if n) or "-"
    return (f"player {seat} {where} damage {w['damage']} holds {bag} "
            f"shield {w['shield']} skip {w['skip']}")


def _clock_line(state: WizardDuelState) -> str:
    if state.result is not None:
        return state.result.summary()
    if state.turn == 0:
        return f"placement, player {state.to_move} to place"
    return f"turn {state.turn}/{2 * state.turns_each}, player {state.to_move} to move"


def render(state: WizardDuelState, player: int | None = None) -> str:
    """The true map or ``player``'s view of it.

    Digits count a cell's elements (. none), # is an obstacle; on the true map A and B are
    players 0 and 1, in a player's view @ is itself and x where it last knew the opponent.
    """
    if player is None:
        chars = [_cell_char(c, o) for c, o in zip(state.cells, state.obstacles, strict=True)]
        for seat in (0, 1):
            if state.pos[seat] >= 0:
                chars[state.pos[seat]] = _WIZARD_CHAR[seat]
        lines = _map_lines(chars)
        lines += [_wizard_line(state, 0), _wizard_line(state, 1)]
    else:
        view = zip(state.view_cells[player], state.view_obstacles[player], strict=True)
        chars = [_cell_char(c, o) for c, o in view]
        sighting = state.sighting[player]
        if sighting is not None:
            chars[sighting.cell] = "x"
        if state.pos[player] >= 0:
            chars[state.pos[player]] = "@"
        lines = [f"view of player {player}", *_map_lines(chars), _wizard_line(state, player)]
        if sighting is not None:
            lines.append(f"opponent seen at ({sighting.cell // COLS},{sighting.cell % COLS}) "
                         f"on turn {sighting.turn} ({sighting.how})")
    lines.append(_clock_line(state))
    return "\n".join(lines)
