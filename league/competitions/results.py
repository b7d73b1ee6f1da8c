"""A tournament as its format reads it: the rows turned into plain values (entries, options,
the rounds started, each series' results so far), and a game's match turned into a result.

A game counts once its match has ended:
- finished: the winner by the seats' outcomes (a draw is ``None``), or the solo run's score;
- failed (an infrastructure fault, after the lifecycle's retries) or cancelled under it: the
  game is played again by a new match, up to ``MAX_REPLAYS`` times; after that it counts as a
  draw (a solo run: a score of 0), and the series says so.
A failed or cancelled game is never a bot's loss: only forfeits during play are. A game not
yet released when one side's bot was disabled by staff is never played: that side loses it
(a solo run scores 0), and its opponent is not held up.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from games import Outcome
from league.competitions import formats
from league.competitions.models import Entry, Series, SeriesGame, Tournament
from league.ladders.lifecycle import CANCELLED, FAILED, FINISHED
from league.ladders.models import Match

MAX_REPLAYS = 2
"""New matches for a game whose match failed, before it counts as a draw."""


class Pending:
    """A game whose match has not ended (or has none yet)."""


PENDING = Pending()
Played = formats.EntryId | None | float
"""A game's result: the winning entry (``None``: a draw), or a solo run's score."""


def game_seed(base: int, seed_index: int) -> int:
    """The engine seed of a competition's ``seed_index``-th seed: the same for every game on
    that index, different across competitions."""
    digest = hashlib.sha256(f"{base}:{seed_index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % 2**31


def game_result(match: Match | None, first: int, second: int | None) -> Played | Pending:
    """What a game's match says: the entry (or side) that won, ``None`` for a draw, a solo
    score; ``PENDING`` while it has not finished (failed and cancelled ones are the
    caller's to replay)."""
    if match is None or match.status != FINISHED:
        return PENDING
    by_seat = {p.seat: p for p in match.participants.all()}
    if second is None:
        return float(by_seat[0].score or 0.0)
    if by_seat[0].outcome == Outcome.WIN:
        return first
    if by_seat[1].outcome == Outcome.WIN:
        return second
    return None


def _given_up(first: int, second: int | None, disabled: set[int]) -> Played:
    """The result of a game never played because a side's bot was disabled: that side lost."""
    if second is None:
        return 0.0
    if first in disabled and second in disabled:
        return None
    return second if first in disabled else first


def ended_badly(match: Match | None) -> bool:
    """A match that ended without a result: failed, or cancelled."""
    return match is not None and match.status in (FAILED, CANCELLED)


@dataclass
class State:
    """One tournament as plain values, and which of its games still need a match."""

    tournament: Tournament
    fmt: formats.Format
    entries: list[formats.Entry]
    options: formats.Options
    rounds: list[formats.Round]
    results: dict[str, list[Played]] = field(default_factory=dict)
    series: dict[str, Series] = field(default_factory=dict)
    games: dict[str, list[SeriesGame]] = field(default_factory=dict)

    @property
    def current(self) -> formats.Round | None:
        return self.rounds[-1] if self.rounds else None

    def unfinished(self) -> list[formats.Pairing]:
        """Pairings of the current round that still owe games."""
        if self.current is None:
            return []
        return [p for p in self.current.pairings
                if formats.games_to_play(p, self.results.get(p.key, []))]


def options_of(tournament: Tournament) -> formats.Options:
    return formats.Options(games=tournament.games, rounds=tournament.rounds,
                           third_place=tournament.third_place,
                           bracket_reset=tournament.bracket_reset)


def seeded_entries(entries: Iterable[Entry]) -> list[formats.Entry]:
    return [formats.Entry(e.pk, e.seed) for e in entries if e.seed is not None and
            not e.withdrawn]


def pairing_of(series: Series) -> formats.Pairing:
    return formats.Pairing(key=series.key, round=series.round,
                           kind=formats.PairingKind(series.kind), first=series.first_id,
                           second=series.second_id, games=series.games, decider=series.decider)


def load(tournament: Tournament) -> State:
    """The tournament's state from its rows, in a fixed number of queries."""
    series = list(Series.objects.filter(tournament=tournament).order_by("round", "position"))
    games = list(SeriesGame.objects.filter(series__tournament=tournament)
                 .select_related("match").prefetch_related("match__participants")
                 .order_by("series_id", "index"))
    by_series: dict[int, list[SeriesGame]] = {}
    for g in games:
        by_series.setdefault(g.series_id, []).append(g)
    rounds: dict[int, list[formats.Pairing]] = {}
    entries = list(tournament.entries.select_related("bot"))
    disabled = {e.pk for e in entries if e.bot.disabled}
    state = State(tournament=tournament, fmt=formats.Format(tournament.format),
                  entries=seeded_entries(entries), options=options_of(tournament), rounds=[])
    for s in series:
        rounds.setdefault(s.round, []).append(pairing_of(s))
        state.series[s.key] = s
        state.games[s.key] = by_series.get(s.pk, [])
        played: list[Played] = []
        for g in state.games[s.key]:
            result = game_result(g.match, g.first_id, g.second_id)
            if isinstance(result, Pending) and g.match is None and (
                    {g.first_id, g.second_id} & disabled):
                result = _given_up(g.first_id, g.second_id, disabled)
            if isinstance(result, Pending):
                if g.replays >= MAX_REPLAYS and ended_badly(g.match):
                    result = 0.0 if g.second_id is None else None  # given up: a draw
                else:
                    break
            played.append(result)
        state.results[s.key] = played
    state.rounds = [formats.Round(n, tuple(p)) for n, p in sorted(rounds.items())]
    return state
