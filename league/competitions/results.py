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
from dataclasses import dataclass, field
from itertools import groupby

from django.db import connection

from games import Outcome
from league.bots.models import Bot
from league.competitions import formats
from league.competitions.models import Entry, Series, SeriesGame, Tournament
from league.ladders.lifecycle import CANCELLED, FAILED, FINISHED
from league.ladders.models import Match, Participant

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
    return _result(FINISHED, first, second, by_seat[0].outcome, by_seat[0].score,
                   by_seat[1].outcome if 1 in by_seat else "")


def _result(status: str | None, first: int, second: int | None, outcome: str,
            score: float | None, second_outcome: str) -> Played | Pending:
    """``game_result`` from a match's columns: its status, the first seat's outcome and
    score, the second seat's outcome."""
    if status != FINISHED:
        return PENDING
    if second is None:
        return float(score or 0.0)
    if outcome == Outcome.WIN:
        return first
    if second_outcome == Outcome.WIN:
        return second
    return None


def _given_up(first: int, second: int | None, disabled: set[int]) -> Played:
    """The result of a game never played because a side's bot was disabled: that side lost."""
    if second is None:
        return 0.0
    if first in disabled and second in disabled:
        return None
    return second if first in disabled else first


def ended_badly(match: Match | GameRow | None) -> bool:
    """A game whose match ended without a result: failed, or cancelled."""
    return match is not None and match.status in (FAILED, CANCELLED)


@dataclass(frozen=True, slots=True)
class GameRow:
    """A series' game as ``load`` reads it: its row and its match's status (None: no match
    yet)."""

    pk: int
    series_id: int
    series_key: str
    index: int
    first_id: int
    second_id: int | None
    seed_index: int
    replays: int
    match_id: int | None
    status: str | None


@dataclass
class State:
    """One tournament as plain values, and which of its games still need a match."""

    tournament: Tournament
    fmt: formats.Format
    entries: list[formats.Entry]
    options: formats.Options
    rounds: list[formats.Round]
    results: dict[str, list[Played]] = field(default_factory=dict)
    series: dict[str, int] = field(default_factory=dict)
    """Each series' row id, by key."""
    games: dict[str, list[GameRow]] = field(default_factory=dict)

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


LOAD_SQL = f"""
SELECT s.id, s.round, s.key, s.kind, s.first_id, s.second_id, s.games, s.decider,
       g.id, g."index", g.first_id, g.second_id, g.seed_index, g.replays, g.match_id, m.status,
       p0.outcome, p0.score, p1.outcome
FROM {Series._meta.db_table} s
LEFT JOIN {SeriesGame._meta.db_table} g ON g.series_id = s.id
LEFT JOIN {Match._meta.db_table} m ON m.id = g.match_id
LEFT JOIN {Participant._meta.db_table} p0 ON p0.match_id = m.id AND p0.seat = 0
LEFT JOIN {Participant._meta.db_table} p1 ON p1.match_id = m.id AND p1.seat = 1
WHERE s.tournament_id = %s
ORDER BY s.round, s.position, g."index"
"""
"""A tournament's series in order, each with its games in order (none: one row of NULLs),
each game with its match's status and the seats' outcomes and score."""
ENTRIES_SQL = f"""
SELECT e.id, e.seed, e.withdrawn, b.disabled
FROM {Entry._meta.db_table} e JOIN {Bot._meta.db_table} b ON b.id = e.bot_id
WHERE e.tournament_id = %s
"""


def load(tournament: Tournament) -> State:
    """The tournament's state from its rows, by two statements written out: it runs at every
    round's end, between the last game and the next round's first (the workers wait), and
    for every tournament page."""
    with connection.cursor() as cursor:
        cursor.execute(ENTRIES_SQL, [tournament.pk])
        entries = cursor.fetchall()
        cursor.execute(LOAD_SQL, [tournament.pk])
        rows = cursor.fetchall()
    disabled = {pk for pk, _, _, off in entries if off}
    state = State(tournament=tournament, fmt=formats.Format(tournament.format),
                  entries=[formats.Entry(pk, seed) for pk, seed, withdrawn, _ in entries
                           if seed is not None and not withdrawn],
                  options=options_of(tournament), rounds=[])
    state.entries.sort(key=lambda e: e.seed)
    rounds: dict[int, list[formats.Pairing]] = {}
    for series_id, series_rows in groupby(rows, key=lambda row: row[0]):
        series_rows = list(series_rows)
        _, number, key, kind, first, second, games, decider = series_rows[0][:8]
        rounds.setdefault(number, []).append(formats.Pairing(
            key=key, round=number, kind=formats.PairingKind(kind), first=first, second=second,
            games=games, decider=decider))
        game_rows = [row for row in series_rows if row[8] is not None]
        state.series[key] = series_id
        state.games[key] = [GameRow(row[8], series_id, key, *row[9:16]) for row in game_rows]
        played: list[Played] = []
        for g, row in zip(state.games[key], game_rows, strict=True):
            result = _result(g.status, g.first_id, g.second_id, *row[16:19])
            if isinstance(result, Pending) and g.match_id is None and (
                    {g.first_id, g.second_id} & disabled):
                result = _given_up(g.first_id, g.second_id, disabled)
            if isinstance(result, Pending):
                if g.replays >= MAX_REPLAYS and ended_badly(g):
                    result = 0.0 if g.second_id is None else None  # given up: a draw
                else:
                    break
            played.append(result)
        state.results[key] = played
    state.rounds = [formats.Round(n, tuple(p)) for n, p in sorted(rounds.items())]
    return state
