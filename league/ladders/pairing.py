"""Who plays whom next, free of the database (matchmaking feeds it; the ranking benchmark
simulates whole seasons through it).

Rated ladders: a new version's placement pairings come first, against opponents spread over
the board; then a pair of bots near each other in rank, inside a window of random width
(Halite III's rule), drawn by the chance that the board has them the wrong way round (their
mu apart against their sigmas: the uncertain first; less once both sigmas are narrow, so a tie
no game can break does not draw every pairing), toward the less busy pairs, and pairs that
met recently weighed down. ``benchmarks.league_ranking`` measured the draw by a wrong order
settling the board after 0.51x the baseline's matches, against 0.68x for drawing a bot by
sigma and then an opponent near it (both with Thurstone-Mosteller ratings at gamma 1; 0.44x
with the league's gamma 1.5). Its constants were searched on the simulation: a window of
0.75-3 ranks, a floor of 0.005-0.06, 2-8 placement pairings and a sharper or flatter weight by
the wrong-order chance all did as well or worse.

Scored ladders: each version plays each of the ladder's seeds once, those with the fewest
seeds played first.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from league.ladders.ratings import MODEL, Skill

PLACEMENT_PAIRINGS = 4
"""Pairings (two matches each, seats swapped) a new version plays before ordinary matchmaking."""
MEAN_WINDOW = 1.5
"""Mean extra rank distance a pairing may span; the window is drawn anew for every pairing."""
MISORDER_FLOOR = 0.02
"""Every pair in the window keeps at least this weight, so bots far apart still meet."""
SQRT2 = math.sqrt(2)
INFORMATIVE_SPREAD = MODEL.beta / 2
"""Once a pair's combined sigma is narrower than this, another game of theirs tells the board
less and less, and their wrong-order chance counts for that much less. Two bots of equal
strength stay a coin flip however often they meet: without it, they met ever more often (in
the simulation, a tied pair's share of a 3-bot ladder's matches grew to 58 %, 48 % with it;
the board settled as fast either way)."""


@dataclass
class Entry:
    """One active version on a rated ladder, as matchmaking sees it."""

    key: Hashable
    skill: Skill
    recent: int = 0
    """Matches played recently plus those queued or running."""
    placed: int = 0
    """Pairings played or scheduled since this version joined."""


def pair_key(a: Hashable, b: Hashable) -> frozenset[Hashable]:
    return frozenset((a, b))


def choose_pairings(entries: Sequence[Entry], count: int, rng: random.Random,
                    met: Counter[frozenset[Hashable]] | None = None, ranked: bool = False,
                    placing: Iterable[tuple[int, int]] | None = None,
                    ) -> list[tuple[Hashable, Hashable]]:
    """Up to ``count`` pairings; ``met`` counts recent meetings per pair (updated in place).
    ``ranked``: ``entries`` come in board order already (the league reads them so, from the
    board's index), so no sort is left to do and a placement costs O(n). ``placing``, with
    ``ranked``: where on the board the entries still placing sit, with their ``placed``, if
    the caller knows without looking at every entry (``boards.BoardEntries``, whose entries
    are made as pairing looks at them: a placement then makes only the two it pairs)."""
    if len(entries) < 2:
        return []
    met = met if met is not None else Counter()
    # The board once: skills do not change while a tick pairs (O(n log n), not per pairing).
    board = entries if ranked else sorted(entries, key=lambda e: e.skill.ordinal,
                                          reverse=True)
    # Who is still placing (by place on the board) with their placement pairings so far: one
    # pass, on a big board all that a placement costs; then kept in step with the pairings.
    if placing is None or not ranked:
        placing = [(i, e.placed) for i, e in enumerate(board) if e.placed < PLACEMENT_PAIRINGS]
    waiting = dict(placing)
    pairings = []
    for _ in range(count):
        if waiting:
            # one of those with the fewest placement pairings, at random
            fewest = min(waiting.values())
            at = rng.choice([i for i, placed in waiting.items() if placed == fewest])
            player = board[at]
            opponent, at_opponent = _placement_opponent(player, board, at, met, rng)
            for i in (at, at_opponent):
                if i in waiting:
                    waiting[i] += 1
                    if waiting[i] >= PLACEMENT_PAIRINGS:
                        del waiting[i]
        else:
            board = board if isinstance(board, list) else list(board)  # every entry, now
            player, opponent = _uncertain_pair(board, met, rng)
        pairings.append(paired(player, opponent, met))
    return pairings


def paired(player: Entry, opponent: Entry, met: Counter) -> tuple[Hashable, Hashable]:
    """A pairing made: two matches more for each (seats swapped), a placement pairing more,
    and a recent meeting more for the pair (in ``met``); the pair's keys."""
    for e in (player, opponent):
        e.recent += 2
        e.placed += 1
    met[pair_key(player.key, opponent.key)] += 1
    return player.key, opponent.key


def _placement_opponent(player: Entry, board: Sequence[Entry], at: int, met: Counter,
                        rng: random.Random) -> tuple[Entry, int]:
    """The k-th placement opponent sits at the k-th of evenly spread points of the board:
    the nearest to that point, a recent meeting counting as two places further. Searched
    outward from the point, so a pairing costs the few places it looks at, not the board."""
    size = len(board) - 1  # the others: the board without the player, who sits at ``at``
    target = (player.placed + rng.random()) / PLACEMENT_PAIRINGS * size

    def other(j: int) -> Entry:
        return board[j if j < at else j + 1]

    def cost(j: int) -> float:
        return abs(j + 0.5 - target) + 2 * met[pair_key(player.key, other(j).key)]

    start = min(max(int(target), 0), size - 1)
    best, best_j = cost(start), start
    left, right = start - 1, start + 1
    while left >= 0 or right < size:
        # a place whose distance alone exceeds the best cost cannot beat it; ties go to the
        # better-ranked place, as a scan of the whole board would have it
        near_left = target - (left + 0.5) if left >= 0 else math.inf
        near_right = (right + 0.5) - target if right < size else math.inf
        if min(near_left, near_right) > best:
            break
        if near_left <= near_right:
            c = cost(left)
            if c < best or (c == best and left < best_j):
                best, best_j = c, left
            left -= 1
        else:
            c = cost(right)
            if c < best:
                best, best_j = c, right
            right += 1
    place = best_j if best_j < at else best_j + 1
    return board[place], place


def misorder_chance(a: Skill, b: Skill) -> float:
    """How likely the board ranks the two the wrong way round, by their mu and sigma."""
    spread = math.sqrt(a.sigma ** 2 + b.sigma ** 2)
    return 0.5 * math.erfc(abs(a.mu - b.mu) / (spread * SQRT2))


def worth_a_game(a: Skill, b: Skill) -> float:
    """The wrong-order chance, scaled down once the two sigmas are too narrow to move much."""
    spread = math.sqrt(a.sigma ** 2 + b.sigma ** 2)
    return misorder_chance(a, b) * min(1.0, spread / INFORMATIVE_SPREAD)


def _uncertain_pair(board: list[Entry], met: Counter, rng: random.Random,
                    ) -> tuple[Entry, Entry]:
    window = 1 + int(rng.expovariate(1 / MEAN_WINDOW))
    last = len(board) - 1
    # Fair shares: a bot at either end of the board is in half as many pairs as one in the
    # middle, so each pair counts for its bots' shares of pairs; and a pair whose less busy
    # bot has played less than the ladder's average weighs more, so a bot the board is
    # already sure of still plays its part.
    busy = 1 + sum(e.recent for e in board) / len(board)
    met_keys = {key for pair in met for key in pair}  # a pair is looked up only if both met
    pairs, weights = [], []
    # worth_a_game and misorder_chance, inlined: this loop is the tick's inner loop
    for i, a in enumerate(board):
        a_pairs = min(i, window) + min(last - i, window)  # the pairs ``a`` is in
        a_mu, a_var = a.skill.mu, a.skill.sigma ** 2
        for j in range(i + 1, min(i + 1 + window, last + 1)):
            b = board[j]
            spread = math.sqrt(a_var + b.skill.sigma ** 2)
            worth = (0.5 * math.erfc(abs(a_mu - b.skill.mu) / (spread * SQRT2))
                     * min(1.0, spread / INFORMATIVE_SPREAD))
            met_ab = (met[pair_key(a.key, b.key)]
                      if a.key in met_keys and b.key in met_keys else 0)
            pairs.append((a, b))
            weights.append((worth + MISORDER_FLOOR) / (1 + met_ab)
                           * (1 / a_pairs + 1 / (min(j, window) + min(last - j, window)))
                           * busy / (1 + min(a.recent, b.recent)))
    a, b = rng.choices(pairs, weights=weights)[0]
    return (a, b) if rng.random() < 0.5 else (b, a)


def choose_seed_runs(played: dict[Hashable, set[int]], seeds: Sequence[int], count: int
                     ) -> list[tuple[Hashable, int]]:
    """Up to ``count`` (version, seed) runs still owed, fewest-played versions first."""
    owed = {key: [s for s in seeds if s not in done] for key, done in played.items()}
    runs: list[tuple[Hashable, int]] = []
    while len(runs) < count:
        waiting = [k for k, left in owed.items() if left]
        if not waiting:
            break
        key = min(waiting, key=lambda k: (len(seeds) - len(owed[k]), str(k)))
        runs.append((key, owed[key].pop(0)))
    return runs


def kendall_tau(order: Sequence[Hashable], truth: Sequence[Hashable]) -> float:
    """Kendall's tau between two orderings of the same keys (1 = identical)."""
    position = {key: i for i, key in enumerate(order)}
    ranks = [position[key] for key in truth]
    n = len(ranks)
    if n < 2:
        return 1.0
    concordant = sum(1 for i in range(n) for j in range(i + 1, n) if ranks[i] < ranks[j])
    pairs = n * (n - 1) // 2
    return (2 * concordant - pairs) / pairs if pairs else 1.0


__all__ = ["Entry", "choose_pairings", "choose_seed_runs", "kendall_tau", "paired"]
