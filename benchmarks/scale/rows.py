"""Rows of the scale data set, as the league itself would have written them: matches with
their participants and replays in the order they finished, the rating chain (each version's
rating before and after every rated match, through the league's own ``rate_match``), and the
standings those matches leave.

Column lists are checked against the models, so a new field fails loudly here instead of
being left out of the generated rows.
"""

from __future__ import annotations

import io
import math
import random
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from hashlib import sha256
from typing import Any

from django.db import models
from openskill.models.weng_lin import common as weng_lin

from benchmarks.scale.games import FORFEITS, PlayedGame, RatedPool, ScoredPool
from benchmarks.scale.world import (
    EVENT_SCORED,
    EVENT_VALIDATION,
    PlanVersion,
    World,
)
from league.ladders.models import (
    Ladder,
    Match,
    MatchKind,
    MatchStatus,
    Participant,
    Replay,
    Standing,
)
from league.ladders.ratings import (
    MODEL,
    START_MU,
    START_SIGMA,
    count_outcome,
    count_score,
    decay,
)
from league.ladders.recount import Count
from replay.record import stored_form
from sandbox.forfeits import ForfeitKind

MATCH_COLUMNS = ["id", "ladder_id", "kind", "seed", "status", "attempts", "claimed_by",
                 "claim_token", "heartbeat_at", "created_at", "enqueued_at", "started_at",
                 "finished_at", "result", "reason", "detail", "moves", "duration", "options",
                 "limits"]
PARTICIPANT_COLUMNS = ["id", "match_id", "seat", "version_id", "builtin", "player_id", "outcome",
                       "score",
                       "forfeit", "forfeit_detail", "moves", "time_used", "exit", "log",
                       "mu_before", "sigma_before", "mu_after", "sigma_after"]
REPLAY_COLUMNS = ["id", "match_id", "data", "format"]
STANDING_COLUMNS = ["id", "ladder_id", "version_id", "mu", "sigma", "games", "wins", "losses",
                    "draws", "score_sum", "score_sq_sum", "recent", "recent_at", "since_match",
                    "updated_at"]
DRAWS = {"blokus_duo": 0.03, "stones": 0.0, "wizard_duel": 0.15}
"""How often a rated game is drawn (Stones 5x5 has no draws)."""
LADDER_FORFEITS = 0.005
"""Share of rated ladder matches one side forfeits (a timeout)."""
LOG_LINES = ["searched 1843 nodes in 0.21 s\n", "book move\n", "depth 4 reached\n",
             "warning: low on time bank\n"]
CRASH_LOG = ('Traceback (most recent call last):\n  File "main.py", line 12, in <module>\n'
             "    move = choose(state)\nIndexError: list index out of range\n")


def rate_pair(first: tuple[float, float], second: tuple[float, float], winner: int | None
              ) -> tuple[tuple[float, float], tuple[float, float]]:
    """``league.ladders.ratings.rate_match`` written out for two players: openskill's
    Thurstone-Mosteller update with the league's parameters (tau 0, the model's own gamma; on a
    draw openskill leaves each side's own update), on plain floats, about 6x faster. The
    scale test checks it agrees with ``rate_match``."""
    players = (first, second)
    c = math.sqrt(first[1] ** 2 + second[1] ** 2 + 2 * MODEL.beta ** 2)
    margin = MODEL.epsilon / c
    out = []
    for i, (mu, sigma) in enumerate(players):
        variance = sigma * sigma
        edge = (mu - players[1 - i][0]) / c
        if winner is None:
            omega, shrink = weng_lin.vt(edge, margin), weng_lin.wt(edge, margin)
        elif winner == i:
            omega, shrink = weng_lin.v(edge, margin), weng_lin.w(edge, margin)
        else:
            omega, shrink = -weng_lin.v(-edge, margin), weng_lin.w(-edge, margin)
        gamma = MODEL.gamma(c, 2, mu, variance, [], 0, None)
        out.append((mu + variance / c * omega,
                    sigma * math.sqrt(max(1 - gamma * variance / c ** 2 * shrink,
                                          MODEL.kappa))))
    return out[0], out[1]


def columns_of(model: type[models.Model]) -> list[str]:
    return [f.column for f in model._meta.concrete_fields]


def check_columns() -> None:
    """Every column of the tables written in bulk is filled, and nothing else."""
    for model, ours in [(Match, MATCH_COLUMNS), (Participant, PARTICIPANT_COLUMNS),
                        (Replay, REPLAY_COLUMNS), (Standing, STANDING_COLUMNS)]:
        if sorted(columns_of(model)) != sorted(ours):
            raise RuntimeError(f"{model.__name__}'s columns changed: the model has "
                               f"{columns_of(model)}, the scale generator writes {ours}")


def bot_archive() -> bytes:
    """One small real archive every generated version holds (a bot that plays its first
    legal move), so a version's download works."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("main.py", "import botlib\n\n\nbotlib.run(lambda o: o['legal'][0])\n")
    return out.getvalue()


@dataclass
class Rating(Count):
    """A version's standing while the timeline is played: the recount's counters, counted
    as the finishing transaction counts them, with the times as seconds from the origin."""

    updated: float = 0.0
    recent_at: float | None = None
    """As ``Standing.recent_at``: when ``recent`` was last counted."""

    def count(self, outcome: str, t: float) -> None:
        self.recent = (decay(self.recent, t - self.recent_at)
                       if self.recent_at is not None else 0.0) + 1.0
        self.recent_at = t
        count_outcome(self, outcome)

    def add_score(self, score: float) -> None:
        count_score(self, score)


@dataclass
class Ids:
    """The first id of each table's block, reserved before writing."""

    match: int
    participant: int
    replay: int
    version: int
    """Plan version ``i`` is row ``version + i``."""


@dataclass
class Chunk:
    matches: list[tuple] = field(default_factory=list)
    participants: list[tuple] = field(default_factory=list)
    replays: list[tuple] = field(default_factory=list)


class Timeline:
    """Plays the world's timeline in order, producing rows chunk by chunk."""

    def __init__(self, world: World, ladders: dict[str, Ladder], pools: dict[str, Any],
                 ids: Ids, origin: datetime, seed: int) -> None:
        self.world, self.ladders, self.pools, self.ids = world, ladders, pools, ids
        self.origin = origin
        self.rng = random.Random(seed + 1)
        self.ratings: dict[int, Rating] = {}
        self.participants = 0
        """Participant rows made so far."""
        self.last_placed: dict[int, int] = {}
        """Per bot, its latest version with a standing (the next one starts from its mu)."""
        self.digest = sha256(bot_archive()).hexdigest()

    def chunks(self, size: int) -> Iterator[Chunk]:
        chunk = Chunk()
        w = self.world
        for i in range(w.matches):
            kind, a, b = int(w.kinds[i]), int(w.first[i]), int(w.second[i])
            version = w.versions[a]
            game = w.bots[version.bot].game
            when = self.origin + timedelta(seconds=float(w.times[i]))
            match_id = self.ids.match + i
            if kind == EVENT_VALIDATION:
                seats = self._validation(version, game)
            elif kind == EVENT_SCORED:
                seats = self._scored(version, game, b, float(w.times[i]))
            else:
                seats = self._rated(version, w.versions[b], game, float(w.times[i]))
            self._rows(chunk, match_id, game, MatchKind.VALIDATION.value
                       if kind == EVENT_VALIDATION else MatchKind.LADDER.value, when, seats)
            if len(chunk.matches) >= size:
                yield chunk
                chunk = Chunk()
        if chunk.matches:
            yield chunk

    # -- one match ----------------------------------------------------------------------

    def _validation(self, version: PlanVersion, game: str) -> list[dict]:
        ladder = self.ladders[game]
        t = version.validated
        if ladder.rated:
            pool: RatedPool = self.pools[game]
            if version.rejected_kind is not None:
                played = self._forfeit(pool, 0, FORFEITS[version.rejected_kind][0])
            else:
                played = self._pick(pool, 0 if self.rng.random() < 0.85 else 1)
            seats = [{"version": version}, {"builtin": ladder.validation_opponent}]
        else:
            scored: ScoredPool = self.pools[game]
            first = ladder.seeds[0] if ladder.seeds else 0
            if version.rejected_kind is not None:
                played = scored.forfeits[(first, FORFEITS[version.rejected_kind][0])][0]
            else:
                played = self._by_skill(scored.by_seed[first], version.skill)
            seats = [{"version": version}]
        self._fill(seats, played)
        if version.rejected_kind is None:
            rating = self._place(version, t)
            if not ladder.rated:
                rating.add_score(played.score(0))
                rating.updated = t
        return seats

    def _scored(self, version: PlanVersion, game: str, seed_index: int, t: float
                ) -> list[dict]:
        ladder = self.ladders[game]
        pool: ScoredPool = self.pools[game]
        played = self._by_skill(pool.by_seed[ladder.seeds[seed_index]], version.skill)
        seats = [{"version": version}]
        self._fill(seats, played)
        rating = self.ratings[version.index]
        rating.add_score(played.score(0))
        rating.updated = t
        return seats

    def _rated(self, first: PlanVersion, second: PlanVersion, game: str, t: float
               ) -> list[dict]:
        pool: RatedPool = self.pools[game]
        edge = 1 / (1 + math.exp(-(first.skill - second.skill + 0.1)))
        roll = self.rng.random()
        if roll < LADDER_FORFEITS:
            loser = 1 if self.rng.random() < edge else 0
            played = self._forfeit(pool, loser, ForfeitKind.TIMEOUT)
        elif roll < LADDER_FORFEITS + DRAWS.get(game, 0.0) and pool.draws:
            played = self.rng.choice(pool.draws)
        else:
            played = self._pick(pool, 0 if self.rng.random() < edge else 1)
        seats = [{"version": first}, {"version": second}]
        self._fill(seats, played)
        ratings = [self.ratings[first.index], self.ratings[second.index]]
        before = [(r.mu, r.sigma) for r in ratings]
        after = rate_pair(before[0], before[1], played.result["winner"])
        for seat, rating, old, new in zip(seats, ratings, before, after, strict=True):
            seat.update(mu_before=old[0], sigma_before=old[1], mu_after=new[0],
                        sigma_after=new[1])
            rating.mu, rating.sigma = new
            rating.count(seat["outcome"], t)
            rating.updated = t
        return seats

    def _place(self, version: PlanVersion, t: float) -> Rating:
        """As ``standing_place``: the bot's latest mu, sigma back at the start."""
        previous = self.last_placed.get(version.bot)
        mu = self.ratings[previous].mu if previous is not None else START_MU
        rating = self.ratings[version.index] = Rating(mu=mu, sigma=START_SIGMA, updated=t)
        self.last_placed[version.bot] = version.index
        return rating

    def _pick(self, pool: RatedPool, winner: int) -> PlayedGame:
        games = pool.wins[winner] or pool.wins[1 - winner] or pool.draws
        return self.rng.choice(games)

    def _forfeit(self, pool: RatedPool, seat: int, kind: str) -> PlayedGame:
        return self.rng.choice(pool.forfeits[(seat, kind)])

    def _by_skill(self, runs: list[PlayedGame], skill: float) -> PlayedGame:
        quantile = 1 / (1 + math.exp(-(skill + self.rng.gauss(0, 0.7))))
        return runs[min(len(runs) - 1, int(quantile * len(runs)))]

    def _fill(self, seats: list[dict], played: PlayedGame) -> None:
        result = played.result
        forfeit = result["forfeit"]
        for seat, entry in enumerate(seats):
            entry["played"] = played
            entry["outcome"] = result["outcomes"][seat] if result["outcomes"] else ""
            entry["score"] = None if result["outcomes"] else played.score(seat)
            lost = forfeit is not None and forfeit["player"] == seat
            entry["forfeit"] = forfeit["kind"] if lost else ""
            entry["forfeit_detail"] = forfeit["detail"] if lost else ""
            entry["exit"] = ("killed by SIGKILL" if forfeit["kind"] == ForfeitKind.TIMEOUT
                             else "exited with code 1") if lost else "exited with code 0"
            entry["log"] = CRASH_LOG if lost and forfeit["kind"] == ForfeitKind.CRASH else (
                self.rng.choice(LOG_LINES) if self.rng.random() < 0.2 else "")

    # -- rows -----------------------------------------------------------------------------

    def _rows(self, chunk: Chunk, match_id: int, game: str, kind: str, ended: datetime,
              seats: list[dict]) -> None:
        played: PlayedGame = seats[0]["played"]
        ladder = self.ladders[game]
        started = ended - timedelta(seconds=played.duration)
        created = started - timedelta(seconds=self.rng.uniform(0.5, 20))
        chunk.matches.append((
            match_id, ladder.pk, kind, played.seed, MatchStatus.FINISHED.value, 1,
            "scale@generator", "",
            ended, created, created, started, ended, played.result_json,
            played.reason[:40], played.result["detail"], played.moves, played.duration,
            None, None))
        players = []
        for seat, entry in enumerate(seats):
            version: PlanVersion | None = entry.get("version")
            version_id = self.ids.version + version.index if version else None
            chunk.participants.append((
                self._next_participant(), match_id, seat, version_id, entry.get("builtin", ""),
                None, entry["outcome"], entry["score"], entry["forfeit"], entry["forfeit_detail"],
                played.seat_moves[seat], played.seat_time[seat], entry["exit"], entry["log"],
                entry.get("mu_before"), entry.get("sigma_before"), entry.get("mu_after"),
                entry.get("sigma_after")))
            bot = self.world.bots[version.bot] if version else None
            players.append({
                "seat": seat, "name": f"{bot.name} v{version.number}" if bot and version
                else f"builtin:{entry['builtin']}", "source": f"version {version_id}"
                if version_id else "", "language": "python" if version else "",
                "digest": self.digest if version else "", "started": True,
                "moves": played.seat_moves[seat], "time_used": played.seat_time[seat],
                "max_move_time": played.seat_max[seat], "time_bank_left": 1.0,
                "exit": entry["exit"], "log": entry["log"]})
        fields = {"version": 1, "game": game, "options": ladder.options, "seed": played.seed,
                  "backend": ladder.backend, "limits": ladder.limits,
                  "started_at": started.isoformat(), "duration": played.duration,
                  "players": players}
        # Level 1, not the worker's 6: half the time for a million replays, a little larger.
        chunk.replays.append((self.ids.replay + match_id - self.ids.match, match_id,
                              stored_form(fields, played.moves_json, played.result_json, 1),
                              1))

    def _next_participant(self) -> int:
        self.participants += 1
        return self.ids.participant + self.participants - 1

    # -- standings ------------------------------------------------------------------------

    def standings(self, first_id: int) -> Iterator[tuple]:
        for n, (index, rating) in enumerate(sorted(self.ratings.items())):
            version = self.world.versions[index]
            ladder = self.ladders[self.world.bots[version.bot].game]
            recent_at = (self.origin + timedelta(seconds=rating.recent_at)
                         if rating.recent_at is not None else None)
            yield (first_id + n, ladder.pk, self.ids.version + index, rating.mu, rating.sigma,
                   rating.games, rating.wins, rating.losses, rating.draws, rating.score_sum,
                   rating.score_sq_sum, rating.recent, recent_at,
                   0,  # no season: every match counts
                   self.origin + timedelta(seconds=rating.updated))
