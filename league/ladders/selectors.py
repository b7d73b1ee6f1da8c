"""Reads for pages and the API: a match with its players, a bot's standing history, boards
and recent matches, each in a fixed number of queries."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.conf import settings
from django.db import connection
from django.db.models import Count, Prefetch, Q, QuerySet
from django.http import Http404

from games import Outcome
from league.bots.models import Bot
from league.ladders.boards import NOVICE_GAMES
from league.ladders.lifecycle import FINISHED, OPEN
from league.ladders.models import NO_SCORE, Ladder, LadderKind, Match, MatchKind, Participant
from league.ladders.ratings import is_provisional, mean_interval, rank_range_on


def participants_with_bots() -> QuerySet[Participant]:
    """Participants with their versions, bots and owners (no archive, no log), or the person
    in the seat, by seat."""
    return (Participant.objects.select_related("version__bot__owner", "player")
            .defer("version__archive", "version__log").order_by("seat"))


def matches_with_players() -> QuerySet[Match]:
    return (Match.objects.select_related("ladder")
            .prefetch_related(Prefetch("participants", queryset=participants_with_bots())))


def match_get(*, match_id: int) -> Match:
    match = matches_with_players().filter(pk=match_id).first()
    if match is None:
        raise Http404(f"no match {match_id}; matches are listed at /api/matches/")
    return match


def tally_counts(*, flipped: bool = False) -> dict[str, Count]:
    """Aggregates of participations: ``games`` and the ``wins``, ``losses`` and ``draws``
    among them (``flipped``: counted from the other seat's side, their loss our win)."""
    win, loss = (Outcome.LOSS, Outcome.WIN) if flipped else (Outcome.WIN, Outcome.LOSS)
    return {"games": Count("id"), "wins": Count("id", filter=Q(outcome=win)),
            "losses": Count("id", filter=Q(outcome=loss)),
            "draws": Count("id", filter=Q(outcome=Outcome.DRAW))}


def standing_history(*, bot: Bot) -> QuerySet[Participant]:
    """The bot's participations that moved its standing, oldest first: its rated ladder
    matches (with the rating after each) and its scored runs (a solo ladder's validation
    counts: it is played on the ladder's first seed). Not a rated ladder's validation match,
    whose score is no rating, and nothing outside the ladder (challenges, tournaments)."""
    return (Participant.objects.filter(version__bot=bot, match__status=FINISHED,
                                       match__kind__in=[MatchKind.LADDER, MatchKind.VALIDATION])
            .filter(Q(mu_after__isnull=False)
                    | Q(match__ladder__kind=LadderKind.SCORED, score__isnull=False))
            .order_by("match__finished_at", "match_id"))


@dataclass(frozen=True)
class BoardRow:
    rank: int
    bot: str
    owner: str
    version: int
    games: int
    rating: float | None
    """mu - 3 sigma on a rated ladder."""
    mu: float | None
    sigma: float | None
    wins: int
    losses: int
    draws: int
    mean: float | None
    """Mean score on a scored ladder, with the 95 % interval's half-width."""
    ci: float | None
    seeds: int
    bot_id: int = 0
    version_id: int = 0
    provisional: bool = False
    """Its rank is not to be trusted yet: sigma above ``settings.LEAGUE_PROVISIONAL_SIGMA``
    (rated), or not every seed played (scored)."""
    placing: int | None = None
    """Games played of its placement (``boards.NOVICE_GAMES``) while it is still placing
    (rated ladders); None once placed."""
    rank_range: tuple[int, int] | None = None
    """A provisional rated version's likely ranks, best and worst: those its mu +- 2 sigma
    would take among the others' mu (``ratings.rank_range``); None otherwise."""


BOARD_SOURCE = """
FROM ladders_standing s
CROSS JOIN bots_bot b
JOIN bots_botversion v ON v.id = s.version_id
JOIN auth_user u ON u.id = b.owner_id
WHERE b.active_version_id = s.version_id AND s.ladder_id = %(ladder)s AND b.game = %(game)s
  AND NOT b.retired AND NOT b.disabled
"""
"""A board's rows: each playing bot's active version (whose status is ``active`` while the
bot is not retired: validation switches both at once). ``CROSS JOIN`` makes SQLite read the
standings first, in the board's order from its index, so a page stops after its rows (from
the game's bots it read and sorted the whole board: 3 ms instead of 0.3 for a first page of
500 bots a ladder); PostgreSQL still orders the joins as it likes."""
BOARD_COLUMNS = """b.id, b.name, u.username, s.version_id, v.number, s.games, s.mu,
s.sigma, s.wins, s.losses, s.draws, s.score_sum, s.score_sq_sum"""
BOARD_ORDER = {LadderKind.RATED: "s.mu - 3 * s.sigma DESC, s.id",
               LadderKind.SCORED: "CASE WHEN s.games > 0 THEN s.score_sum / s.games "
                                  f"ELSE {NO_SCORE} END DESC, s.id"}
"""What a board ranks by: mu - 3 sigma, or the mean score (no score yet: last). Each order
is an index (``Standing.Meta.indexes``): a page is read in order and the scan stops there."""
BOARD_PAGE_SQL = """
SELECT {columns} FROM (
  SELECT s.id AS standing, b.id AS bot FROM ladders_standing s
  CROSS JOIN bots_bot b
  WHERE b.active_version_id = s.version_id AND s.ladder_id = %(ladder)s AND b.game = %(game)s
    AND NOT b.retired AND NOT b.disabled
  ORDER BY {order} LIMIT %(limit)s OFFSET %(offset)s) page
JOIN ladders_standing s ON s.id = page.standing
JOIN bots_bot b ON b.id = page.bot
JOIN bots_botversion v ON v.id = s.version_id
JOIN auth_user u ON u.id = b.owner_id
ORDER BY {order}
"""
"""A page: its rows found among the board's (standings and bots alone), then their versions
and owners joined for those rows only. A deep page on PostgreSQL joined the versions of every
row before the one it wanted (1,800 look-ups a ladder, 15 -> 10 ms at 1M matches)."""
BOARD_SEARCH_SQL = """
SELECT * FROM (SELECT row_number() OVER (ORDER BY {order}) AS rank, {columns} {source}) board
WHERE UPPER(name) LIKE UPPER(%(like)s) ESCAPE '\\'
   OR UPPER(username) LIKE UPPER(%(like)s) ESCAPE '\\'
ORDER BY rank LIMIT %(limit)s OFFSET %(offset)s
"""
"""Searching: every row of the board is ranked, then those matching are kept. The SQL is
PostgreSQL's and SQLite's both (the embedded default): no ILIKE, an explicit escape."""
ALL = 2**62
"""LIMIT for "no limit" (SQLite refuses LIMIT NULL), and "no bound" for a count."""
LEAST_PLAYED_SQL = """
SELECT * FROM (SELECT s.ladder_id, s.version_id, s.games FROM bots_bot b
  JOIN ladders_standing s ON s.ladder_id = %s AND s.version_id = b.active_version_id
  WHERE b.game = %s AND NOT b.retired AND NOT b.disabled AND s.games < %s
  ORDER BY s.games, s.version_id LIMIT %s) least
"""


def least_played(ladder: Ladder, *, count: int) -> list[tuple[int, int]]:
    """``(version_id, games)`` of the scored ladder's ``count`` playing versions with fewest
    games, fewer than its seeds: who may owe a run."""
    return ladders_least_played([ladder], count=count)[ladder.pk]


def ladders_least_played(ladders: Sequence[Ladder], *, count: int
                         ) -> dict[int, list[tuple[int, int]]]:
    """``least_played`` of several scored ladders (each below its number of seeds), by
    ladder id, in one statement."""
    found: dict[int, list[tuple[int, int]]] = {ladder.pk: [] for ladder in ladders}
    if not ladders:
        return found
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join([LEAST_PLAYED_SQL] * len(ladders)),
                       [p for ladder in ladders
                        for p in (ladder.pk, ladder.game, len(ladder.seeds), count)])
        for ladder_id, version_id, games in cursor.fetchall():
            found[ladder_id].append((version_id, games))
    for rows in found.values():
        rows.sort(key=lambda row: (row[1], row[0]))  # a union keeps no order of its parts
    return found


BOARD_COUNT_SQL = """
SELECT count(*) FROM ladders_standing s
JOIN bots_bot b ON b.active_version_id = s.version_id
WHERE s.ladder_id = %(ladder)s AND b.game = %(game)s AND NOT b.retired AND NOT b.disabled
"""
BOARD_SEARCH_COUNT_SQL = """
SELECT count(*) {source}
AND (UPPER(b.name) LIKE UPPER(%(like)s) ESCAPE '\\'
     OR UPPER(u.username) LIKE UPPER(%(like)s) ESCAPE '\\')
"""


class Board:
    """A ladder's board: the active version of each bot that plays (not retired, not
    disabled), ranked, read from the database a page at a time. ``count()`` and a slice run
    one query each, so Django's and DRF's paginators page it in SQL. ``query`` keeps the
    rows whose bot or owner holds it (any case); a row keeps its rank on the whole board."""

    def __init__(self, ladder: Ladder, query: str = "") -> None:
        self.ladder = ladder
        self.query = query = query.replace("\x00", "")  # PostgreSQL refuses NUL in text
        escaped = query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        self.params: dict[str, object] = {"ladder": ladder.pk, "game": ladder.game,
                                          "like": f"%{escaped}%"}

    def count(self) -> int:
        with connection.cursor() as cursor:
            sql = BOARD_SEARCH_COUNT_SQL if self.query else BOARD_COUNT_SQL
            cursor.execute(sql.format(source=BOARD_SOURCE), self.params)
            return cursor.fetchone()[0]

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: slice) -> list[BoardRow]:
        if not isinstance(index, slice) or index.step not in (None, 1):
            raise TypeError("a board is read by slices, a page at a time")
        offset = index.start or 0
        limit = ALL if index.stop is None else max(0, index.stop - offset)
        sql = BOARD_SEARCH_SQL if self.query else BOARD_PAGE_SQL
        sql = sql.format(columns=BOARD_COLUMNS, source=BOARD_SOURCE,
                         order=BOARD_ORDER[LadderKind(self.ladder.kind)])
        with connection.cursor() as cursor:
            cursor.execute(sql, {**self.params, "limit": limit, "offset": offset})
            rows = cursor.fetchall()
        if not self.query:  # read in board order: the rank is the place on the page
            rows = [(offset + n, *row) for n, row in enumerate(rows, start=1)]
        board = [_board_row(self.ladder, *row) for row in rows]
        return _with_rank_ranges(self.ladder, board, self.params)


def _board_row(ladder: Ladder, rank: int, bot_id: int, name: str, owner: str,
               version_id: int, number: int, games: int, mu: float, sigma: float, wins: int,
               losses: int, draws: int, score_sum: float, score_sq_sum: float) -> BoardRow:
    scored = ladder.kind == LadderKind.SCORED
    mean, ci = mean_interval(games, score_sum, score_sq_sum)
    provisional = (games < len(ladder.seeds) if scored
                   else is_provisional(sigma, settings.LEAGUE_PROVISIONAL_SIGMA))
    return BoardRow(
        rank=rank, bot=name, owner=owner, version=number, games=games,
        rating=None if scored else mu - 3 * sigma, mu=None if scored else mu,
        sigma=None if scored else sigma, wins=wins, losses=losses, draws=draws,
        mean=mean if scored and games else None, ci=ci if scored and games > 1 else None,
        seeds=games if scored else 0, bot_id=bot_id, version_id=version_id,
        provisional=provisional,
        placing=games if not scored and games < NOVICE_GAMES else None)


RANGE_SQL = """
SELECT s.version_id, s.mu FROM ladders_standing s
CROSS JOIN bots_bot b
WHERE b.active_version_id = s.version_id AND s.ladder_id = %(ladder)s AND b.game = %(game)s
  AND NOT b.retired AND NOT b.disabled
"""
"""Every playing version's mu, for the likely ranks of a page's provisional rows
(``ratings.rank_range_on``): one read of the board's standings, as the page's count reads
them, whatever the number of such rows. Counting in SQL instead (two ``count(CASE ...)`` a
row in one scan) cost 0.3 ms for one row but 22 ms for fifty on a board of 2,000 (PostgreSQL,
this machine), against about 1 ms for this read and a sort and binary searches in Python."""


def _with_rank_ranges(ladder: Ladder, rows: list[BoardRow], params: dict[str, object]
                      ) -> list[BoardRow]:
    """The rows, each provisional rated one with its likely ranks. One query, and none when
    no row on the page is provisional (most of a settled board's pages)."""
    unsure = [i for i, row in enumerate(rows) if row.provisional and row.mu is not None]
    if not unsure:
        return rows
    with connection.cursor() as cursor:
        cursor.execute(RANGE_SQL, {"ladder": params["ladder"], "game": params["game"]})
        found = dict(cursor.fetchall())
    board = sorted(found.values())
    rows = list(rows)
    for i in unsure:
        row = rows[i]
        assert row.mu is not None and row.sigma is not None
        rows[i] = replace(row, rank_range=rank_range_on(row.mu, row.sigma, board,
                                                        found.get(row.version_id)))
    return rows


@dataclass(frozen=True)
class Certainty:
    """How sure a rated ladder is of one version's place: what its board row says, for a
    version's page (a version not on the board, an old one, has none)."""

    provisional: bool
    placing: int | None
    rank_range: tuple[int, int] | None
    sigma: float
    threshold: float
    placement: int = NOVICE_GAMES


def standing_certainty(*, ladder: Ladder, version_id: int, games: int, mu: float,
                       sigma: float) -> Certainty:
    """A rated standing's certainty; its likely ranks on the board now if provisional (one
    query, as for a board's page)."""
    row = BoardRow(rank=0, bot="", owner="", version=0, games=games, rating=mu - 3 * sigma,
                   mu=mu, sigma=sigma, wins=0, losses=0, draws=0, mean=None, ci=None, seeds=0,
                   version_id=version_id,
                   provisional=is_provisional(sigma, settings.LEAGUE_PROVISIONAL_SIGMA),
                   placing=games if games < NOVICE_GAMES else None)
    (row,) = _with_rank_ranges(ladder, [row], {"ladder": ladder.pk, "game": ladder.game})
    return Certainty(provisional=row.provisional, placing=row.placing,
                     rank_range=row.rank_range, sigma=sigma,
                     threshold=settings.LEAGUE_PROVISIONAL_SIGMA)


def ladder_board(ladder: Ladder, limit: int | None = None) -> list[BoardRow]:
    """The board's first ``limit`` rows (all of them when None: small boards and tests)."""
    return Board(ladder)[:limit]


def queue_counts() -> dict[str, int]:
    rows = Match.objects.filter(status__open=True).values(
        "status").annotate(n=Count("id"))
    counts = dict.fromkeys(OPEN, 0)
    counts.update({r["status"]: r["n"] for r in rows})
    return counts
