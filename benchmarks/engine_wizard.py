"""Wizard Duel engine benchmark: random games per second, copies, and the hunter's strength.

    .venv/bin/python -m benchmarks.engine_wizard [--seconds 5] [--games 100]

There is no outside Wizard Duel engine to race (the source's own program is a Windows C
game system we may not copy), so the speed rows have no baseline. The copy row compares
``state.copy()`` with ``copy.deepcopy`` of the same state, what a searching bot would do
without it. The hunter's win rate against random is set against random's own win rate
against random on the same seeds and seats.
"""

from __future__ import annotations

import argparse
import copy
from collections.abc import Callable

from benchmarks.common import Row, pin_to_one_core, print_table, rate
from games.players import make_player, play
from games.result import Outcome
from games.rng import Rng
from games.wizard_duel import WizardDuel, WizardDuelState

_SEED_BASE = 10_000
"""Match seeds far from the ones the hunter was tuned on (0-49)."""


def random_game(game: WizardDuel, seed: int, rng: Rng) -> WizardDuelState:
    """Engine only: list the legal moves and play one uniformly, to the end."""
    state = game.new_state(seed)
    while state.to_move is not None:
        state.apply(rng.choice(state.legal_moves()))
    return state


def counter(fn: Callable[[int], object]) -> Callable[[], int]:
    """Wrap ``fn(index)`` as a ``rate`` body doing one unit per call."""
    calls = [0]

    def once() -> int:
        calls[0] += 1
        fn(calls[0])
        return 1
    return once


def mid_game_state(game: WizardDuel) -> WizardDuelState:
    state = game.new_state(1)
    rng = Rng(2)
    for _ in range(120):
        state.apply(rng.choice(state.legal_moves()))
    return state


def win_rate(game: WizardDuel, name: str, games: int) -> tuple[float, dict[str, int]]:
    """``name`` against random, half the games from each seat, seeds shared by seat pairs."""
    tally = {str(o): 0 for o in Outcome}
    for k in range(games):
        seed, seat = _SEED_BASE + k // 2, k % 2
        players = [make_player(game, "random", s, seed + 7) for s in (0, 1)]
        players[seat] = make_player(game, name, seat, seed)
        tally[str(play(game, players, seed).result.outcomes[seat])] += 1
    return 100 * tally["win"] / games, tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per speed measure")
    parser.add_argument("--games", type=int, default=100, help="games per win-rate measure")
    args = parser.parse_args()
    pin_to_one_core()
    game = WizardDuel()
    rng = Rng(1)
    engine_rate = rate(counter(lambda i: random_game(game, i, rng)), args.seconds)
    players = [make_player(game, "random", s, 3) for s in (0, 1)]
    loop_rate = rate(counter(lambda i: play(game, players, i)), args.seconds)
    state = mid_game_state(game)
    copy_rate = rate(counter(lambda _: state.copy()), args.seconds / 2)
    deep_rate = rate(counter(lambda _: copy.deepcopy(state)), args.seconds / 2)
    hunter, hunter_tally = win_rate(game, "hunter", args.games)
    randoms, random_tally = win_rate(game, "random", args.games)
    print_table("Wizard Duel engine (one core)", [
        Row("random games/s, engine only (legal list + apply)", engine_rate, None, "/s"),
        Row("random games/s, with an observation every turn", loop_rate, None, "/s"),
        Row("state.copy() mid-game vs copy.deepcopy", copy_rate, deep_rate, "/s"),
        Row(f"hunter win % vs random ({args.games} games)", hunter, randoms, "%",
            "beats random clearly"),
    ])
    print(f"\nhunter vs random: {hunter_tally}; random vs random: {random_tally} "
          f"(seeds {_SEED_BASE}.., both seats)")


if __name__ == "__main__":
    main()
