"""Reads for the site's pages. Each runs a fixed number of queries, however much data there
is: lists are fetched with their relations in one go and aggregated in the database."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import (
    Avg,
    Count,
    Prefetch,
    Q,
    Subquery,
    TextField,
    Window,
)
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast
from django.http import Http404
from django.utils import timezone

from league.bots.models import Bot, BotVersion, VersionStatus
from league.ladders.models import (
    Ladder,
    Match,
    MatchKind,
    MatchStatus,
    Participant,
    Standing,
)
from league.ladders.queues import NextGame, next_game
from league.ladders.ratings import RANGE_SIGMAS, Tally
from league.ladders.selectors import (
    Board,
    BoardRow,
    Certainty,
    standing_certainty,
    standing_history,
    tally_counts,
)
from league.versiontests.selectors import AnyUser, matches_visible
from league.web.match_lists import MatchRow, match_rows

HISTORY_POINTS = 400
"""The chart shows at most this many matches (the latest), so the page stays light."""
HEAD_TO_HEAD_ROWS = 30
"""Opponents listed on a bot page: those met most often."""
WINDOW = 500
"""A bot page's head to head and results by seat count the bot's latest this many matches,
so the page reads a bounded number of rows however long the bot has played."""


# -- bot page ------------------------------------------------------------------------------

@dataclass
class BotPage:
    bot: Bot
    versions: list[BotVersion]
    standings: dict[int, Standing]
    history: dict[str, Any]
    matches: list[MatchRow]
    head_to_head: list[dict[str, Any]]
    seats: list[dict[str, Any]]
    ladder: Ladder | None = None
    opponents: int = 0
    """Opponents met in the window (``head_to_head`` lists the most frequent)."""
    window: int = WINDOW
    """Head to head and results by seat count the bot's latest this many matches."""

    @property
    def games(self) -> int:
        """Its ladder games in all, from the standings (no count over its matches)."""
        return sum(s.games for s in self.standings.values())


def bot_page(*, bot: Bot, user: AnyUser, matches: int = 20) -> BotPage:
    versions = list(bot.versions.defer("archive", "log").order_by("-number"))
    standings = {s.version_id: s for s in Standing.objects.filter(version__bot=bot)}
    latest = Latest([v.pk for v in versions])
    # A few more than shown: queued or cancelled ones among the latest are skipped.
    recent = match_rows(matches_visible(Match.objects.filter(pk__in=latest.matches(matches + 20))
                                        .exclude(status__in=[MatchStatus.QUEUED,
                                                             MatchStatus.CANCELLED]), user)
                        .order_by("-pk"), matches)
    opponents, met = head_to_head(bot=bot, latest=latest)
    return BotPage(bot=bot, versions=versions, standings=standings,
                   history=rating_history(bot=bot, latest=latest), matches=recent,
                   head_to_head=opponents, seats=results_by_seat(latest=latest),
                   ladder=Ladder.objects.filter(game=bot.game).first(), opponents=met)


LATEST_SQL = ("SELECT * FROM (SELECT id, match_id FROM ladders_participant "
              "WHERE version_id = %s ORDER BY match_id DESC LIMIT %s) AS v{n}")


class Latest:
    """A bot's latest participations, newest first, as a subquery for the page's others.
    Each version's latest ``n`` are read from the (version, match) index in its order and
    the newest ``n`` of those kept: at most ``n`` index entries a version, however many
    matches the bot has played (ordering all of them by match, as one query over the bot's
    versions must, read every one: ~20 ms a page for a bot of 20,000 matches on SQLite, and
    growing with its history). A subquery, not a list of ids: Django prepares each of 500
    values of a list in Python, ~10 ms a query. Match ids follow the order matches were
    made in."""

    def __init__(self, version_ids: list[int]) -> None:
        self.version_ids = version_ids or [0]  # no version: no row

    def sql(self, n: int) -> tuple[str, list[int]]:
        """``id, match_id`` of the latest ``n``."""
        branches = " UNION ALL ".join(LATEST_SQL.format(n=i)
                                      for i in range(len(self.version_ids)))
        return (f"{branches} ORDER BY match_id DESC LIMIT %s",
                [p for pk in self.version_ids for p in (pk, n)] + [n])

    def _column(self, column: str, n: int) -> RawSQL:
        sql, params = self.sql(n)
        return RawSQL(f"SELECT {column} FROM ({sql}) AS latest", params)

    def matches(self, n: int) -> RawSQL:
        return self._column("match_id", n)

    def participations(self, n: int) -> RawSQL:
        return self._column("id", n)

    def rows(self, n: int) -> list[tuple[int, int]]:
        with connection.cursor() as cursor:
            cursor.execute(*self.sql(n))
            return cursor.fetchall()


def rating_history(*, bot: Bot, latest: Latest) -> dict[str, Any]:
    """Chart data: per version, the rating (mu - 3 sigma) after each of its rated matches
    with the band mu +- 2 sigma (``lo``, ``hi``), or its score in each scored match, over its
    latest matches (``latest``, newest first); x is the match's place."""
    rows = list(standing_history(bot=bot).filter(
        pk__in=latest.participations(HISTORY_POINTS))
        # the time as the database writes it ("2026-11-23 12:00:00..." in UTC on both
        # PostgreSQL and SQLite): 400 datetimes parsed and formatted again cost more
        .values_list("version__number", "mu_after", "sigma_after", "score",
                     Cast("match__finished_at", TextField())))
    series: dict[int, list[dict[str, Any]]] = {}
    rated = False
    for x, (number, mu, sigma, score, finished) in enumerate(rows, start=1):
        point: dict[str, Any] = {"x": x, "t": (finished or "")[:16]}
        if mu is not None and sigma is not None:
            # the band the chart shades: mu +- 2 sigma, where its skill likely is (the
            # rating, mu - 3 sigma, is the cautious line below it; both from the same row)
            rated, point["y"] = True, round(mu - 3 * sigma, 2)
            point["lo"] = round(mu - RANGE_SIGMAS * sigma, 2)
            point["hi"] = round(mu + RANGE_SIGMAS * sigma, 2)
        elif score is not None:
            point["y"] = score
        else:
            continue
        series.setdefault(number, []).append(point)
    return {"label": "rating (μ − 3σ)" if rated else "score", "band": rated,
            "series": [{"label": f"v{n}", "points": p} for n, p in sorted(series.items())]}


def _tally(counts: dict[str, int]) -> dict[str, int]:
    return {"games": counts["games"], "wins": counts["wins"], "losses": counts["losses"],
            "draws": counts["draws"]}


def head_to_head(*, bot: Bot, latest: Latest, window: int = WINDOW,
                 limit: int = HEAD_TO_HEAD_ROWS) -> tuple[list[dict[str, Any]], int]:
    """Over the bot's latest ``window`` matches (of ``latest``): the ``limit`` opponent bots
    met most often, with games and this bot's W/L/D against them (from their seats: their
    loss is our win), and how many opponents it met; one aggregate query."""
    rows = list(Participant.objects.filter(match_id__in=latest.matches(window),
                                           match__status=MatchStatus.FINISHED,
                                           match__kind=MatchKind.LADDER)
                .exclude(version__bot=bot).exclude(version=None)
                .values("version__bot_id", "version__bot__name")
                .annotate(**tally_counts(flipped=True),
                          opponents=Window(Count("version__bot_id")))
                .order_by("-games", "version__bot__name")[:limit])
    met = rows[0]["opponents"] if rows else 0
    return [{"bot_id": r["version__bot_id"], "name": r["version__bot__name"],
             **_tally(r)} for r in rows], met


def results_by_seat(*, latest: Latest, window: int = WINDOW
                    ) -> list[dict[str, Any]]:
    """W/L/D (or the mean score) and forfeits per seat over the bot's latest ``window``
    matches (of ``latest``)."""
    rows = (Participant.objects.filter(pk__in=latest.participations(window),
                                       match__status=MatchStatus.FINISHED,
                                       match__kind=MatchKind.LADDER)
            .values("seat")
            .annotate(**tally_counts(), mean=Avg("score"),
                      forfeits=Count("id", filter=~Q(forfeit="")))
            .order_by("seat"))
    return [{"seat": r["seat"], "mean": r["mean"], "forfeits": r["forfeits"], **_tally(r)}
            for r in rows]


# -- version page --------------------------------------------------------------------------

@dataclass
class VersionPage:
    version: BotVersion
    validations: list[MatchRow]
    previous: BotVersion | None
    standing: Standing | None
    previous_standing: Standing | None
    against_previous: Tally = field(default_factory=Tally)
    """Over the version's latest ``window`` matches."""
    window: int = WINDOW
    certainty: Certainty | None = None
    """How its placement goes, and how sure the board is of it (a rated ladder's version)."""
    next_game: NextGame | None = None
    """Its next game (a version that plays: the bot's active one)."""


FIRST_MATCHES = 20
"""A version's validation matches are among its first this many: it plays nothing else until
one has passed (a failed one run again keeps its id)."""


def version_page(*, version: BotVersion) -> VersionPage:
    # Its first matches, from the (version, match) index: the version's other matches,
    # however many, are never read (a filter on the kind read every one: 0.2 s at 20,000).
    first = (Participant.objects.filter(version=version).order_by("match_id")
             .values("match_id")[:FIRST_MATCHES])
    validations = match_rows(Match.objects.filter(pk__in=Subquery(first),
                                                  kind=MatchKind.VALIDATION)
                             .order_by("-pk"), 5)
    previous = (BotVersion.objects.defer("archive", "log")
                .filter(bot_id=version.bot_id, number__lt=version.number)
                .order_by("-number").first())
    standings = {s.version_id: s for s in Standing.objects.select_related("ladder").filter(
        version_id__in=[version.pk] + ([previous.pk] if previous else []))}
    page = VersionPage(version=version, validations=validations, previous=previous,
                       standing=standings.get(version.pk),
                       previous_standing=standings.get(previous.pk) if previous else None)
    standing = page.standing
    if standing is not None and standing.ladder.rated:
        page.certainty = standing_certainty(ladder=standing.ladder, version_id=version.pk,
                                            games=standing.games, mu=standing.mu,
                                            sigma=standing.sigma)
    if version.status == VersionStatus.ACTIVE:
        page.next_game = next_game(version_id=version.pk)
    if previous is not None:  # over the version's latest matches, as on the bot page
        counts = (Participant.objects.filter(
            pk__in=Latest([version.pk]).participations(WINDOW),
            match__status=MatchStatus.FINISHED, match__participants__version=previous)
            .aggregate(**tally_counts()))
        page.against_previous = Tally(**_tally(counts))
    return page


# -- ladder page ---------------------------------------------------------------------------

def rating_trend(*, ladder: Ladder, version_ids: list[int], days: int = 7
                 ) -> dict[int, float]:
    """Per version: the board value it had when the window of the last ``days`` opened (its
    rating before its first match in the window), so the page shows how far it moved.
    Only rated ladders get a trend (a mean score's drift would be noise).

    The window opens at the first match finished since then, by id: ids follow the order
    matches were made in and a match ends minutes after it is made, so each version's first
    match in the window is one index probe, however long its history."""
    if not ladder.rated or not version_ids:
        return {}
    since = timezone.now() - timedelta(days=days)
    first = (Match.objects.filter(finished_at__gte=since).order_by("finished_at")
             .values_list("pk", flat=True).first())
    if first is None:
        return {}
    ids = list(version_ids)
    with connection.cursor() as cursor:
        cursor.execute(TREND_SQL.format(ids=", ".join(["%s"] * len(ids))),
                       [first, ladder.pk, MatchStatus.FINISHED, *ids])
        return {pk: value for pk, value in cursor.fetchall() if value is not None}


def ladder_younger_than(*, ladder: Ladder, days: int = 7) -> bool:
    """Whether no match of ``ladder`` finished before the last ``days``: then a "7-day trend"
    is every bot's whole rating since it joined, and the page says so."""
    since = timezone.now() - timedelta(days=days)
    return not Match.objects.filter(ladder=ladder, status=MatchStatus.FINISHED,
                                    finished_at__lt=since).exists()


TREND_SQL = """
SELECT v.id, (SELECT p.mu_before - 3 * p.sigma_before
              FROM ladders_participant p JOIN ladders_match m ON m.id = p.match_id
              WHERE p.version_id = v.id AND p.match_id >= %s AND p.mu_before IS NOT NULL
                AND m.ladder_id = %s AND m.status = %s
              ORDER BY p.match_id LIMIT 1)
FROM bots_botversion v WHERE v.id IN ({ids})
"""
"""Per version, one probe of ``participant_version_match`` (SQL that PostgreSQL and SQLite
both run; the ORM's version of it costs more to build than to run)."""


@dataclass
class UserBot:
    bot: Bot
    row: BoardRow | None = None
    """Its row on its ladder's board (rank, rating or mean score), if it plays there."""
    of: int = 0
    """How many bots that board ranks."""
    ladder: Ladder | None = None


def user_bots(*, username: str) -> tuple[User, list[UserBot]]:
    """A user's bots, each that plays with its place on its ladder's board: two queries a
    ladder they play on (their rows, ranked on the whole board, and the board's size)."""
    owner = User.objects.select_related("profile").filter(username=username).first()
    if owner is None or not owner.is_active:
        raise Http404("No such user.")
    bots = [UserBot(b) for b in Bot.objects.filter(owner=owner).select_related("active_version")
            .defer("active_version__archive", "active_version__log").order_by("game", "name")]
    playing = {b.bot.game for b in bots
               if b.bot.plays}
    for ladder in Ladder.objects.filter(game__in=playing):
        board = Board(ladder, owner.username)
        rows = {row.bot_id: row for row in board[:] if row.owner == owner.username}
        size = Board(ladder).count()
        for b in bots:
            if b.bot.pk in rows:
                b.row, b.of, b.ladder = rows[b.bot.pk], size, ladder
    return owner, bots


def my_bots(*, user: User) -> list[Bot]:
    versions = BotVersion.objects.defer("archive", "log").order_by("-number")
    return list(Bot.objects.filter(owner=user).order_by("game", "name")
                .prefetch_related(Prefetch("versions", queryset=versions)))


