"""Seasons of a rated ladder, simulated or played: schedules, boards and when a board settles.

The pieces of ``benchmarks.league_ranking``, kept apart so each is small:

- schedules yield pairings: ``round_robin`` (every pair once a round, the baseline's) and
  ``league_ticks`` (the league's rhythm: a few pairings a tick from the real
  ``choose_pairings``, or from any function with its signature);
- a pairing is two matches on one seed with seats swapped, both rated in order, as the league
  plays it; ``OutcomeModel`` plays them from known strengths, or the caller plays real ones;
- boards rate the matches they are shown and give the order they rank by: Elo, the league's
  openskill (``rate_match``, ranked by ordinal) and a Bradley-Terry fit of all matches so far;
- ``Settling`` watches one board: after how many matches its Kendall tau against the true order
  reached the threshold and stayed there to the end.

Several boards can watch one stream, so a rating can be compared on the very same matches.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter, deque
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Protocol

from openskill.models import PlackettLuce, ThurstoneMostellerFull

from league.ladders.pairing import (
    PLACEMENT_PAIRINGS,
    Entry,
    choose_pairings,
    kendall_tau,
    pair_key,
    paired,
)
from league.ladders.ratings import Skill, new_version_skill, rate_match

Pairing = tuple[int, int]
Pairer = Callable[[Sequence[Entry], int, random.Random, Counter], list[tuple[Hashable, Hashable]]]
PlayPairing = Callable[[int, int], tuple[int | None, int | None]]
"""Plays pairing (a, b): a seated first, then b; returns each match's winning seat (None: draw)."""

MET_WINDOW = 200
"""As ``league.ladders.boards.MET_WINDOW``: meetings count over the ladder's latest 200
matches. Copied, not imported: that module needs Django's apps loaded, which writes files."""


# -- outcomes ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class OutcomeModel:
    """Bradley-Terry on the Elo scale: bot ``i`` has ``strengths[i]``; the first seat gets
    ``seat_edge`` points more; ``draw`` of the matches are drawn whoever plays."""

    strengths: tuple[float, ...]
    seat_edge: float = 0.0
    draw: float = 0.0

    @classmethod
    def evenly_graded(cls, bots: int, gap: float, seat_edge: float, draw: float
                      ) -> OutcomeModel:
        """Bot 0 strongest, each next one ``gap`` Elo points weaker."""
        return cls(tuple(gap * (bots - 1 - i) for i in range(bots)), seat_edge, draw)

    def first_wins(self, first: int, second: int) -> float:
        """Probability that the first seat wins, given the match is not drawn."""
        edge = self.strengths[first] + self.seat_edge - self.strengths[second]
        return 1 / (1 + 10 ** (-edge / 400))

    def winner(self, first: int, second: int, rng: random.Random) -> int | None:
        if self.draw and rng.random() < self.draw:
            return None
        return 0 if rng.random() < self.first_wins(first, second) else 1

    def player(self, rng: random.Random) -> PlayPairing:
        return lambda a, b: (self.winner(a, b, rng), self.winner(b, a, rng))


# -- schedules ---------------------------------------------------------------------------------
def round_robin(keys: Sequence[int], rng: random.Random) -> Iterator[Pairing]:
    """Every pair once a round, rounds in fresh random orders (the seats swap within a pairing
    anyway, so who is named first does not matter)."""
    pairs = list(itertools.combinations(keys, 2))
    while True:
        rng.shuffle(pairs)
        yield from pairs


class Window:
    """Counts of what the latest ``size`` matches held (a version, or a pair's key)."""

    def __init__(self, size: int | None) -> None:
        self.matches: deque[tuple[Hashable, ...]] = deque()
        self.size = size
        self.counts: Counter[Hashable] = Counter()

    def add(self, *items: Hashable) -> None:
        self.matches.append(items)
        self.counts.update(items)
        if self.size is not None and len(self.matches) > self.size:
            self.counts.subtract(self.matches.popleft())


def league_ticks(keys: Sequence[int], skills: Callable[[], dict[int, Skill]],
                 rng: random.Random, *, pairer: Pairer = choose_pairings, per_tick: int = 2,
                 recent_window: int | None = 1000, placed: Sequence[int] = (),
                 history: Sequence[Pairing] = ()) -> Iterator[Pairing]:
    """The league's matchmaking beat, one tick at a time: read the board's current skills,
    ask ``pairer`` for ``per_tick`` pairings, hand them out; the caller plays and rates each
    before asking for more, so the next tick sees every result so far (the league's in-flight
    matches are queued ones; here they finish within their tick).

    ``recent`` (the league: a version's matches in the last six hours plus open ones) is its
    matches among the board's last ``recent_window`` matches (None: all of them); ``met`` is
    the meetings over the last ``MET_WINDOW`` matches, as ``matchmaking`` counts them.
    ``placed`` accumulates, as the league derives it from all a version's matches.

    A board that has played before: ``placed``, the keys whose placement is over; ``history``,
    the pairings played so far, oldest first (they fill the recent and met windows).
    """
    entries = [Entry(key, new_version_skill(None),
                     placed=PLACEMENT_PAIRINGS if key in placed else 0) for key in keys]
    recent, met = Window(recent_window), Window(MET_WINDOW)
    for a, b in history:
        for _ in range(2):
            recent.add(a, b)
            met.add(pair_key(a, b))
    while True:
        current = skills()
        for entry in entries:
            entry.skill = current[entry.key]
            entry.recent = recent.counts[entry.key]
        for a, b in pairer(entries, per_tick, rng, Counter(met.counts)):
            yield a, b
            for _ in range(2):  # the pairing's two matches
                recent.add(a, b)
                met.add(pair_key(a, b))


# -- boards ------------------------------------------------------------------------------------
class Board(Protocol):
    def record(self, first: int, second: int, winner: int | None) -> None: ...

    def order(self) -> list[int]: ...


def _ranked(keys: Sequence[int], score: Callable[[int], float]) -> list[int]:
    # sorted() is stable, also in reverse: equal scores keep the registration order, which
    # the caller shuffles so that ties say nothing about the true order
    return sorted(keys, key=score, reverse=True)


RateMatch = Callable[[Skill, Skill, int | None], tuple[Skill, Skill]]


# Diagnostics: the league's rating step with openskill's other settings, the league's
# earlier ones. Defaults (drift before every match, sigma's narrowing damped by sigma / c):
# the first setting; tau 0 with the default gamma: the second; Plackett-Luce with tau 0 and
# gamma 1: the model until 2026-11-23 (evening); Thurstone-Mosteller with tau 0 and gamma 1:
# the model until 2026-11-25.
def _plain_step(*_: object) -> float:
    return 1.0


rate_with_drift = partial(rate_match, model=PlackettLuce())
rate_damped = partial(rate_match, model=PlackettLuce(tau=0.0))
rate_plackett_luce = partial(rate_match, model=PlackettLuce(tau=0.0, gamma=_plain_step))
rate_plain_step = partial(rate_match, model=ThurstoneMostellerFull(tau=0.0, gamma=_plain_step))


class EloBoard:
    """Plain Elo: everyone starts at ``start``, both move by ``k`` times the surprise."""

    def __init__(self, keys: Sequence[int], k: float = 8.0, start: float = 1500.0) -> None:
        self.keys, self.k = list(keys), k
        self.rating = dict.fromkeys(self.keys, start)

    def record(self, first: int, second: int, winner: int | None) -> None:
        expected = 1 / (1 + 10 ** ((self.rating[second] - self.rating[first]) / 400))
        scored = 0.5 if winner is None else float(winner == 0)
        self.rating[first] += self.k * (scored - expected)
        self.rating[second] -= self.k * (scored - expected)

    def order(self) -> list[int]:
        return _ranked(self.keys, self.rating.__getitem__)


class OpenSkillBoard:
    """The league's ratings: ``rate_match`` after every match, ranked by mu - 3 sigma.

    ``rate`` swaps in another rating step, for a proposal's row; the real one by default."""

    def __init__(self, keys: Sequence[int], rate: RateMatch = rate_match) -> None:
        self.keys = list(keys)
        self.skills = {key: new_version_skill(None) for key in self.keys}
        self.rate = rate

    def record(self, first: int, second: int, winner: int | None) -> None:
        self.skills[first], self.skills[second] = self.rate(
            self.skills[first], self.skills[second], winner)

    def order(self) -> list[int]:
        return _ranked(self.keys, lambda key: self.skills[key].ordinal)


class BradleyTerryBoard:
    """Ranked by a Bradley-Terry fit of every match so far (maximum likelihood, refitted from
    the last fit by Hunter's MM steps), each bot given one win and one loss against a virtual
    average bot so an unbeaten one still has a finite strength. Not the league's rating: the
    benchmark's proposal for what the board could rank by."""

    def __init__(self, keys: Sequence[int], tolerance: float = 1e-3, max_steps: int = 50
                 ) -> None:
        self.keys = list(keys)
        self.tolerance, self.max_steps = tolerance, max_steps
        size = max(self.keys) + 1  # keys are small ints: lists beat dicts in the inner loop
        self.wins = [1.0] * size  # the virtual win
        self.games: Counter[tuple[int, int]] = Counter()
        self.gamma = [1.0] * size
        self.stale = False

    def record(self, first: int, second: int, winner: int | None) -> None:
        if winner is None:
            self.wins[first] += 0.5
            self.wins[second] += 0.5
        else:
            self.wins[(first, second)[winner]] += 1
        self.games[min(first, second), max(first, second)] += 1
        self.stale = True

    def _fit(self) -> None:
        gamma, wins, keys = self.gamma, self.wins, self.keys
        games = list(self.games.items())
        for _ in range(self.max_steps):
            # the virtual opponent (strength 1) played each bot twice
            denominator = [2 / (g + 1) for g in gamma]
            for (a, b), n in games:
                share = n / (gamma[a] + gamma[b])
                denominator[a] += share
                denominator[b] += share
            fitted = [w / d for w, d in zip(wins, denominator, strict=True)]
            moved = max(abs(fitted[k] / gamma[k] - 1) for k in keys)
            gamma = fitted
            if moved < self.tolerance:
                break
        self.gamma, self.stale = gamma, False

    def order(self) -> list[int]:
        if self.stale:
            self._fit()
        return _ranked(self.keys, self.gamma.__getitem__)


# -- the league's previous pairing, a diagnostic ------------------------------------------------
def choose_nearby_pairings(entries: Sequence[Entry], count: int, rng: random.Random,
                           met: Counter | None = None) -> list[tuple[Hashable, Hashable]]:
    """``pairing.py`` until 2026-11-23: placement as now; then a bot drawn with weight
    sigma^2 / (1 + recent), paired with an opponent inside a rank window of mean width 3,
    weighed down by (1 + recent meetings)^2."""
    met = met if met is not None else Counter()
    pairings: list[tuple[Hashable, Hashable]] = []
    for _ in range(count):
        if any(e.placed < PLACEMENT_PAIRINGS for e in entries):
            pairings += choose_pairings(entries, 1, rng, met)
            continue
        board = sorted(entries, key=lambda e: e.skill.ordinal, reverse=True)
        player = rng.choices(list(entries),
                             weights=[e.skill.sigma ** 2 / (1 + e.recent) for e in entries])[0]
        rank = board.index(player)
        window = 1 + int(rng.expovariate(1 / 3.0))
        near = [e for i, e in enumerate(board) if e is not player and abs(i - rank) <= window]
        opponent = rng.choices(near, weights=[1 / (1 + met[pair_key(player.key, e.key)]) ** 2
                                              for e in near])[0]
        pairings.append(paired(player, opponent, met))
    return pairings


# -- settling ----------------------------------------------------------------------------------
class Settling:
    """When ``board``'s order reached Kendall tau >= ``threshold`` against ``truth`` for good."""

    def __init__(self, board: Board, truth: Sequence[int], threshold: float) -> None:
        self.board, self.truth, self.threshold = board, list(truth), threshold
        self.last_below: int | None = None
        self.first_at: int | None = None
        self.tau = 0.0
        self.check(0)

    def check(self, played: int) -> None:
        self.tau = kendall_tau(self.board.order(), self.truth)
        if self.tau < self.threshold:
            self.last_below = played
        elif self.first_at is None:
            self.first_at = played

    @property
    def settled_at(self) -> int | None:
        """Matches after which tau stayed at or above the threshold (None: below at the end)."""
        if self.tau < self.threshold:
            return None
        return 0 if self.last_below is None else self.last_below + 1


def play_season(pairings: Iterator[Pairing], play: PlayPairing, boards: Sequence[Board],
                truth: Sequence[int], matches: int, threshold: float = 0.9,
                on_match: Callable[[], None] | None = None) -> list[Settling]:
    """Play ``matches`` matches from the schedule, every board rating each one in order."""
    watches = [Settling(board, truth, threshold) for board in boards]
    played = 0
    while played < matches:
        a, b = next(pairings)
        for (first, second), winner in zip(((a, b), (b, a)), play(a, b), strict=True):
            for board in boards:
                board.record(first, second, winner)
            played += 1
            for watch in watches:
                watch.check(played)
            if on_match is not None:
                on_match()
            if played == matches:
                break
    return watches


# -- shares ------------------------------------------------------------------------------------
def tied_share(strengths: Sequence[float], tied: tuple[int, int], pairer: Pairer = choose_pairings,
               seasons: int = 60, matches: int = 1000, seat_edge: float = 30.0
               ) -> tuple[float, float]:
    """The tie rule's measure: bots of ``strengths`` (Elo), two of them (``tied``) equal, play
    ``seasons`` seasons of ``matches`` matches through ``pairer`` and the league's ratings; the
    mean share of a season's matches the tied pair plays each other, and the largest share any
    pair took over all seasons. Two bots of one strength stay a coin flip however often they
    meet, so a pairing that seeks the uncertain would give them every game."""
    shares: list[float] = []
    pairs: Counter[frozenset[int]] = Counter()
    model = OutcomeModel(tuple(strengths), seat_edge)
    keys = list(range(len(strengths)))
    for season in range(seasons):
        board = OpenSkillBoard(keys)
        schedule = league_ticks(keys, lambda b=board: b.skills,
                                random.Random(f"tied:{season}"), pairer=pairer)
        play = model.player(random.Random(f"tied:{season}:play"))
        played: Counter[frozenset[int]] = Counter()
        while sum(played.values()) < matches:
            a, b = next(schedule)
            for (first, second), winner in zip(((a, b), (b, a)), play(a, b), strict=True):
                board.record(first, second, winner)
            played[frozenset((a, b))] += 2
        shares.append(played[frozenset(tied)] / sum(played.values()))
        pairs.update(played)
    return sum(shares) / len(shares), max(pairs.values()) / sum(pairs.values())
