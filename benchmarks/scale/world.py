"""The shape of the scale data set, planned in memory before a row is written: users, bots
spread over every ladder, their versions, and every match on a timeline.

Deterministic from a seed. Times are seconds from the start of the timeline. Bots arrive over
the whole period (a quarter at the start), some owners hold many bots, most bots have one to
three versions and a few dozens; a version plays from its validation until the next one
replaces it or the bot is retired. Rated ladders get pairings (two matches with seats
swapped) between bots active at the time, busier bots more often; each scored version plays
the ladder's seeds after its validation, as matchmaking would.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from dataclasses import dataclass, field

import numpy as np

DAY = 86400.0
NAMES = ["alpha", "beta", "mcts", "greedy", "minimax", "nega", "deep", "rollout", "hunter",
         "sprite", "cobalt", "ember", "quartz", "otter", "lynx", "raven", "atlas", "nova",
         "pico", "zephyr", "tango", "kappa", "sigma", "delta", "orbit", "pulse", "vector"]

EVENT_VALIDATION, EVENT_SCORED, EVENT_RATED = 0, 1, 2
"""Kinds of timeline events: a version's validation match, a scored ladder match, a rated
ladder match."""


class PlanError(ValueError):
    """The requested sizes cannot make a consistent world; the message says what to change."""


@dataclass
class PlanVersion:
    index: int
    bot: int
    number: int
    created: float
    validated: float
    rejected_kind: int | None
    """Index into ``scale_games.FORFEITS`` when its validation failed, else None."""
    skill: float
    status: str = "retired"
    until: float = 0.0
    """When it stops playing: the next passing version's validation, or the bot's end."""


@dataclass
class PlanBot:
    index: int
    owner: int
    game: str
    name: str
    created: float
    end: float
    """When it stops playing (retired, disabled, or the end of the timeline)."""
    retired: bool
    disabled: bool
    public: bool
    weight: float
    versions: list[PlanVersion] = field(default_factory=list)
    active: PlanVersion | None = None

    @property
    def passed(self) -> list[PlanVersion]:
        return [v for v in self.versions if v.rejected_kind is None]


@dataclass
class World:
    users: int
    bots: list[PlanBot]
    versions: list[PlanVersion]
    span: float
    """Seconds from the first to the last event."""
    times: np.ndarray
    kinds: np.ndarray
    first: np.ndarray
    """Version index of seat 0."""
    second: np.ndarray
    """Version index of seat 1 (rated matches) or the seed's index (scored), else -1."""

    @property
    def matches(self) -> int:
        return len(self.times)


def _version_count(rng: random.Random) -> int:
    roll = rng.random()
    if roll < 0.55:
        return 1
    if roll < 0.80:
        return 2
    if roll < 0.90:
        return rng.randint(3, 5)
    if roll < 0.98:
        return rng.randint(6, 15)
    return rng.randint(20, 60)


def plan_world(*, bots: int, matches: int, ladders: list[dict], days: float, seed: int
               ) -> World:
    """``ladders``: ``{"game", "rated", "seeds"}`` per ladder, bots spread over them evenly."""
    if bots < 2 * len(ladders):
        raise PlanError(f"--bots must be at least {2 * len(ladders)}: two per ladder")
    rng = random.Random(seed)
    span = days * DAY
    users = max(1, bots // 3)
    plan_bots, plan_versions = [], []
    for i in range(bots):
        ladder = ladders[i % len(ladders)]
        created = rng.uniform(0, 0.02 * span) if rng.random() < 0.25 else \
            rng.uniform(0, 0.97 * span)
        roll = rng.random()
        retired, disabled = roll < 0.04, 0.04 <= roll < 0.045
        end = rng.uniform(created, span) if retired or disabled else span
        bot = PlanBot(index=i, owner=int(users * rng.random() ** 2), game=ladder["game"],
                      name=f"{rng.choice(NAMES)}-{i}", created=created, end=end,
                      retired=retired, disabled=disabled, public=rng.random() > 0.05,
                      weight=math.exp(rng.gauss(0, 0.8)))
        skill = rng.gauss(0, 1)
        count = _version_count(rng)
        stamps = sorted([created] + [rng.uniform(created, end) for _ in range(count - 1)])
        for number, stamp in enumerate(stamps, start=1):
            skill += rng.gauss(0.1, 0.3) if number > 1 else 0.0
            rejected = rng.randrange(4) if rng.random() < 0.12 else None
            version = PlanVersion(index=len(plan_versions), bot=i, number=number, created=stamp,
                                  validated=min(stamp + rng.uniform(20, 120), span),
                                  rejected_kind=rejected, skill=skill)
            bot.versions.append(version)
            plan_versions.append(version)
        _settle(bot)
        plan_bots.append(bot)
    events = _timeline(plan_bots, plan_versions, matches, ladders, span, rng)
    order = np.argsort(events[0], kind="stable")
    return World(users=users, bots=plan_bots, versions=plan_versions, span=span,
                 times=events[0][order], kinds=events[1][order], first=events[2][order],
                 second=events[3][order])


def _settle(bot: PlanBot) -> None:
    """Statuses as the league leaves them: the latest passing version is active (retired
    with its bot), earlier passing ones retired, failed ones rejected."""
    passed = bot.passed
    for version in bot.versions:
        if version.rejected_kind is not None:
            version.status = "rejected"
    for current, following in zip(passed, [*passed[1:], None], strict=False):
        current.until = following.validated if following else bot.end
        current.status = "retired"
    if passed:
        bot.active = passed[-1]
        if not bot.retired:
            passed[-1].status = "active"


def _timeline(bots: list[PlanBot], versions: list[PlanVersion], matches: int,
              ladders: list[dict], span: float, rng: random.Random
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    times: list[float] = []
    kinds: list[int] = []
    first: list[int] = []
    second: list[int] = []

    def add(t: float, kind: int, a: int, b: int) -> None:
        times.append(t)
        kinds.append(kind)
        first.append(a)
        second.append(b)

    for version in versions:
        add(version.validated, EVENT_VALIDATION, version.index, -1)
    if len(versions) > matches:
        raise PlanError(f"{len(versions)} versions need as many validation matches: ask for "
                        f"more than {len(versions)} matches, or fewer bots")
    rest = matches - len(versions)
    scored = {ladder["game"]: ladder for ladder in ladders if not ladder["rated"]}
    runs = [(v, len(scored[bots[v.bot].game]["seeds"]) - 1) for v in versions
            if bots[v.bot].game in scored and v.rejected_kind is None]
    wanted = sum(n for _, n in runs)
    budget = min(wanted, int(0.15 * rest)) if len(scored) < len(ladders) else min(wanted, rest)
    share = budget / wanted if wanted else 0.0
    given = 0
    for version, seeds in runs:
        n = min(seeds, int(seeds * share + rng.random()), budget - given)
        window = max(60.0, min(version.until, span) - version.validated)
        for k in range(1, n + 1):
            add(version.validated + rng.uniform(0.1, 0.3) * min(window, 7200) * k / n,
                EVENT_SCORED, version.index, k)
        given += n
    rated = [ladder["game"] for ladder in ladders if ladder["rated"]]
    _pairings(bots, rated, matches - len(times), span, rng, add)
    return (np.array(times), np.array(kinds, dtype=np.int8), np.array(first, dtype=np.int64),
            np.array(second, dtype=np.int64))


def _pairings(bots: list[PlanBot], games: list[str], count: int, span: float,
              rng: random.Random, add) -> None:
    """``count`` rated matches: pairings of two bots active at one moment, seats swapped."""
    players = {g: [b for b in bots if b.game == g and b.passed] for g in games}
    players = {g: p for g, p in players.items() if len(p) >= 2}
    if count and not players:
        raise PlanError("no rated ladder has two bots with a validated version: ask for more "
                        "bots")
    total = sum(len(p) for p in players.values())
    games = sorted(players)
    for n, game in enumerate(games):
        share = count - sum(int(count * len(players[g]) / total) for g in games[1:]) \
            if n == 0 else int(count * len(players[game]) / total)
        _ladder_pairings(players[game], share, rng, add)


def _ladder_pairings(bots: list[PlanBot], count: int, rng: random.Random, add) -> None:
    starts = [b.passed[0].validated for b in bots]
    by_start = sorted(range(len(bots)), key=starts.__getitem__)
    sorted_starts = [starts[i] for i in by_start]
    cumulative = list(np.cumsum([max(0.0, b.end - s) * b.weight
                                 for b, s in zip(bots, starts, strict=True)]))
    if not cumulative or cumulative[-1] <= 0:
        return
    version_starts = [[v.validated for v in b.passed] for b in bots]
    made = 0
    while made < count:
        for a in rng.choices(range(len(bots)), cum_weights=cumulative, k=count - made):
            t = rng.uniform(starts[a], bots[a].end)
            eligible = bisect_right(sorted_starts, t)
            b = -1
            for _ in range(20):
                candidate = by_start[rng.randrange(eligible)]
                if candidate != a and bots[candidate].end > t:
                    b = candidate
                    break
            if b < 0:
                continue
            va = bots[a].passed[bisect_right(version_starts[a], t) - 1].index
            vb = bots[b].passed[bisect_right(version_starts[b], t) - 1].index
            add(t, EVENT_RATED, va, vb)
            made += 1
            if made < count:
                add(t + rng.uniform(1, 30), EVENT_RATED, vb, va)
                made += 1
            if made >= count:
                break
