"""A version's statistics: its ladder matches summed by opponent version, seat and seed
(``VersionStats``), kept by the finishing transaction with one upsert a match and rebuilt
from the matches by ``manage.py stats_recount [--fix]``; and their reads for the pages.

The same function (``stats_rows``) turns a match into rows both when it finishes and when
history is recounted, so the two cannot count differently."""

from __future__ import annotations

import bisect
import functools
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Max, Sum, Window

from games import Outcome
from league.bots.models import Bot, BotVersion
from league.ladders.kinds import KINDS, PRIVATE_KINDS, Ending
from league.ladders.lifecycle import FINISHED
from league.ladders.models import (
    LENGTH_BOUNDS,
    MOVE_TIME_BOUNDS,
    Ladder,
    Match,
    Participant,
    Replay,
    VersionStats,
)
from league.redaction import public_text
from replay import MatchRecord
from sandbox import ForfeitKind, Limits

KEY = ("version_id", "opponent", "seat", "seed")
LENGTHS = tuple(f"length_{i}" for i in range(len(LENGTH_BOUNDS) + 1))
MOVE_TIMES = tuple(f"move_time_{i}" for i in range(len(MOVE_TIME_BOUNDS) + 1))
FORFEIT_COLUMNS = {
    ForfeitKind.TIMEOUT: "forfeit_timeout", ForfeitKind.CRASH: "forfeit_crash",
    ForfeitKind.ILLEGAL: "forfeit_illegal", ForfeitKind.MALFORMED: "forfeit_malformed",
    ForfeitKind.OUTPUT_LIMIT: "forfeit_limit", ForfeitKind.MEMORY_LIMIT: "forfeit_limit",
    ForfeitKind.COMPILE: "forfeit_start", ForfeitKind.PACKAGE: "forfeit_start"}
FORFEITS = ("forfeit_timeout", "forfeit_crash", "forfeit_illegal", "forfeit_malformed",
            "forfeit_limit", "forfeit_start")
FORFEIT_LABELS = {"forfeit_timeout": "timeouts", "forfeit_crash": "crashes",
                  "forfeit_illegal": "illegal moves", "forfeit_malformed": "malformed replies",
                  "forfeit_limit": "over a limit (output, memory)",
                  "forfeit_start": "could not start (compile, package)"}
SUMS = ("games", "wins", "losses", "draws", "scored", "score_sum", "score_sq_sum", *FORFEITS,
        "length_sum", *LENGTHS, "timed_moves", "move_time_sum", *MOVE_TIMES)
"""The columns a match adds to; ``move_time_max`` is kept as a maximum."""
COUNTED_KINDS = [k.name for k in KINDS.values() if k.ending == Ending.STANDINGS]
"""The ladder's own matches: those that count on its board (not challenges, tournaments,
tests or validations, whose opponents and limits are chosen for another purpose)."""

Row = dict[str, Any]


def stats_rows(*, rated: bool, seed: int, versions: Sequence[int | None],
               seats: Sequence[dict[str, Any]], record: MatchRecord | None,
               move_limit: float) -> list[Row]:
    """The rows one finished ladder match adds: one per seat a version played.
    ``seats`` are the participants' columns as finishing writes them (outcome, score,
    forfeit); ``record`` is None when the match could not be played (a version that does
    not start): it counts as a game and a forfeit, with no length and no move times."""
    rows = []
    two = len(versions) == 2
    for index, version_id in enumerate(versions):
        if version_id is None:
            continue
        fields = seats[index] if index < len(seats) else {}
        row: Row = dict.fromkeys(SUMS, 0)
        row.update(version_id=version_id, seat=index, seed=0 if rated else seed,
                   opponent=(versions[1 - index] or 0) if two else 0, games=1,
                   move_time_max=0.0)
        outcome = fields.get("outcome") or ""
        if outcome in (Outcome.WIN, Outcome.LOSS, Outcome.DRAW):
            row[{"win": "wins", "loss": "losses", "draw": "draws"}[outcome]] = 1
        if fields.get("score") is not None:
            row.update(scored=1, score_sum=fields["score"],
                       score_sq_sum=fields["score"] * fields["score"])
        if column := FORFEIT_COLUMNS.get(fields.get("forfeit") or ""):
            row[column] = 1
        if record is not None:
            length = len(record.moves)
            row["length_sum"] = length
            row[LENGTHS[bisect.bisect_right(LENGTH_BOUNDS, length)]] = 1
            # A bot's first move includes its start-up (``startup_time``): not a move time.
            # Rounded as the stored replay rounds them, so a recount agrees to the bucket.
            own = [round(m.time, 6) for m in record.moves if m.seat == index][1:]
            for seconds in own:
                share = seconds / move_limit
                row[MOVE_TIMES[bisect.bisect_left(MOVE_TIME_BOUNDS, share)]] += 1
            row["timed_moves"] = len(own)
            row["move_time_sum"] = sum(own)
            row["move_time_max"] = max(own, default=0.0) / move_limit
        rows.append(row)
    return rows


@functools.cache
def _upsert_sql(n: int) -> str:
    table = VersionStats._meta.db_table
    columns = [*KEY, *SUMS, "move_time_max"]
    values = ", ".join(["(" + ", ".join(["%s"] * len(columns)) + ")"] * n)
    # plain SQL that PostgreSQL and SQLite (3.24+) both run: one statement a match
    adds = ", ".join(f"{c} = {table}.{c} + EXCLUDED.{c}" for c in SUMS)
    return (f"INSERT INTO {table} ({', '.join(columns)}) VALUES {values} "
            f"ON CONFLICT ({', '.join(KEY)}) DO UPDATE SET {adds}, "
            f"move_time_max = CASE WHEN EXCLUDED.move_time_max > {table}.move_time_max "
            f"THEN EXCLUDED.move_time_max ELSE {table}.move_time_max END")


def stats_add(rows: list[Row]) -> None:
    """Add a match's rows to the kept sums: one statement, inside the caller's transaction.
    The rows go in by key order, so two transactions touching the same rows take their
    locks in one order (a ladder match's standings lock already puts a pair's matches one
    after the other)."""
    if not rows:
        return
    rows = sorted(rows, key=lambda r: tuple(r[k] for k in KEY))
    columns = [*KEY, *SUMS, "move_time_max"]
    with connection.cursor() as cursor:
        cursor.execute(_upsert_sql(len(rows)), [r[c] for r in rows for c in columns])


# -- recount -------------------------------------------------------------------------------

VERSION_BATCH = 500
"""Versions recounted together: their rows are held in memory (at 1M matches all of them at
once would be a row per version, opponent and seat: over a million)."""


def _rows_of(matches: list[tuple[int, int, int, Any]], ladders: dict[int, Ladder]
             ) -> Iterator[list[Row]]:
    """Each match's rows, from its participants and its replay."""
    ids = [m[0] for m in matches]
    seats: dict[int, list[tuple[int | None, str, float | None, str]]] = {}
    for match_id, version_id, outcome, score, forfeit in (
            Participant.objects.filter(match_id__in=ids).order_by("match_id", "seat")
            .values_list("match_id", "version_id", "outcome", "score", "forfeit")):
        seats.setdefault(match_id, []).append((version_id, outcome, score, forfeit))
    replays = dict(Replay.objects.filter(match_id__in=ids).values_list("match_id", "data"))
    for pk, ladder_id, seed, limits in matches:
        ladder = ladders[ladder_id]
        players = seats.get(pk, [])
        yield stats_rows(
            rated=ladder.rated, seed=seed, versions=[p[0] for p in players],
            seats=[{"outcome": p[1], "score": p[2], "forfeit": p[3]} for p in players],
            record=Replay.decode(replays[pk]) if pk in replays else None,
            move_limit=Limits.from_json(limits if limits is not None
                                        else ladder.limits).move_time)


def _recount_batch(version_ids: list[int], ladders: dict[int, Ladder]) -> dict[tuple, Row]:
    """The sums of ``version_ids`` as their finished ladder matches say."""
    batch = set(version_ids)
    match_ids = sorted(set(Participant.objects.filter(
        version_id__in=version_ids, match__kind__in=COUNTED_KINDS, match__status=FINISHED)
        .values_list("match_id", flat=True)))
    sums: dict[tuple, Row] = {}
    for i in range(0, len(match_ids), 500):
        matches = list(Match.objects.filter(pk__in=match_ids[i:i + 500]).order_by("pk")
                       .values_list("pk", "ladder_id", "seed", "limits"))
        for rows in _rows_of(matches, ladders):
            for row in rows:
                if row["version_id"] not in batch:
                    continue  # the opponent's side: counted with its own batch
                key = tuple(row[k] for k in KEY)
                if key not in sums:
                    sums[key] = row
                    continue
                kept = sums[key]
                for c in SUMS:
                    kept[c] += row[c]
                kept["move_time_max"] = max(kept["move_time_max"], row["move_time_max"])
    return sums


def _differs(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return abs(a - b) > 1e-6 * max(1.0, abs(a), abs(b))
    return bool(a != b)


def stats_recount(*, fix: bool = False, batch: int = VERSION_BATCH
                  ) -> list[tuple[tuple, str]]:
    """Keys whose kept sums differ from history's (``(key, what)``), set right with ``fix``.
    Reads every finished ladder match and its replay (the move times are only there), a
    batch of versions at a time (a match of two batches is read by both): a backfill's
    cost, once. A batch is set right in a transaction of its own; a match of its versions
    finishing meanwhile may be counted twice or not at all, so run it with the workers
    stopped (or run it again: the second run finds what the first got wrong)."""
    ladders = {lad.pk: lad for lad in Ladder.objects.all()}
    versions = list(BotVersion.objects.order_by("pk").values_list("pk", flat=True))
    wrong: list[tuple[tuple, str]] = []
    for i in range(0, len(versions), batch):
        ids = versions[i:i + batch]
        counted = _recount_batch(ids, ladders)
        kept = {tuple(r[k] for k in KEY): r
                for r in VersionStats.objects.filter(version_id__in=ids).values()}
        found = []
        for key in sorted(set(counted) | set(kept)):
            mine, theirs = kept.get(key), counted.get(key)
            if mine is None:
                found.append((key, "missing"))
            elif theirs is None:
                found.append((key, "no such matches"))
            elif fields := [c for c in (*SUMS, "move_time_max")
                            if _differs(mine[c], theirs[c])]:
                found.append((key, ", ".join(fields)))
        if fix and found:
            with transaction.atomic():
                VersionStats.objects.filter(version_id__in=ids).delete()
                VersionStats.objects.bulk_create(
                    [VersionStats(**row) for row in counted.values()], batch_size=1000)
        wrong += found
    return wrong


# -- reads ---------------------------------------------------------------------------------

OPPONENT_ROWS = 30
FORFEIT_EXAMPLES = 5


def _sums() -> dict[str, Any]:
    return {c: Sum(c) for c in SUMS} | {"move_time_max": Max("move_time_max")}


@dataclass
class Totals:
    """A group's sums and what the pages show of them."""

    sums: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        # a sum by its column's name; 0 for a group with no rows (a version yet to play)
        if name in SUMS or name == "move_time_max":
            return self.sums.get(name) or 0
        raise AttributeError(name)

    @property
    def played(self) -> int:
        """Games with a length: played (not the ones whose version could not start)."""
        return sum(self.sums.get(c) or 0 for c in LENGTHS)

    @property
    def forfeits(self) -> int:
        return sum(self.sums.get(c) or 0 for c in FORFEITS)

    @property
    def mean_length(self) -> float | None:
        return self.length_sum / self.played if self.played else None

    @property
    def mean_score(self) -> float | None:
        return self.score_sum / self.scored if self.scored else None

    @property
    def mean_move_time(self) -> float | None:
        return self.move_time_sum / self.timed_moves if self.timed_moves else None

    @property
    def win_share(self) -> float | None:
        decided = self.wins + self.losses + self.draws
        return (self.wins + self.draws / 2) / decided if decided else None

    @property
    def win_percent(self) -> float | None:
        share = self.win_share
        return None if share is None else 100 * share

    @property
    def forfeit_percent(self) -> float | None:
        return 100 * self.forfeits / self.games if self.games else None

    def bars(self) -> list[dict[str, Any]]:
        """W/D/L as three widths out of 100 (the opponent rows' bars)."""
        decided = self.wins + self.draws + self.losses
        if not decided:
            return []
        x, out = 0.0, []
        for name, n in (("win", self.wins), ("draw", self.draws), ("loss", self.losses)):
            width = 100 * n / decided
            out.append({"kind": name, "x": round(x, 2), "width": round(width, 2), "n": n})
            x += width
        return out

    def forfeit_kinds(self) -> list[dict[str, Any]]:
        return [{"kind": c.removeprefix("forfeit_"), "label": FORFEIT_LABELS[c],
                 "count": self.sums.get(c) or 0} for c in FORFEITS]


def _histogram(sums: dict[str, Any], columns: Sequence[str], labels: Sequence[str]
               ) -> list[dict[str, Any]]:
    """Bars for an inline SVG: each bucket's count and its height out of 100."""
    counts = [sums.get(c) or 0 for c in columns]
    top = max(counts, default=0) or 1
    return [{"label": label, "count": n, "height": round(100 * n / top, 1),
             "share": round(100 * n / sum(counts)) if sum(counts) else 0,
             "x": i * 100 / len(counts)}
            for i, (label, n) in enumerate(zip(labels, counts, strict=True))]


LENGTH_LABELS = [f"<{LENGTH_BOUNDS[0]}"] + [
    f"{a}–{b - 1}" for a, b in itertools.pairwise(LENGTH_BOUNDS)] + [
    f"{LENGTH_BOUNDS[-1]}+"]
MOVE_TIME_LABELS = [f"≤{int(MOVE_TIME_BOUNDS[0] * 100)}%"] + [
    f"{int(a * 100)}–{int(b * 100)}%"
    for a, b in itertools.pairwise(MOVE_TIME_BOUNDS)] + ["over"]


@dataclass
class BotStats:
    bot: Bot
    versions: list[BotVersion]
    version: BotVersion | None
    ladder: Ladder | None
    totals: Totals = field(default_factory=lambda: Totals({}))
    opponents: list[dict[str, Any]] = field(default_factory=list)
    opponents_met: int = 0
    seats: list[dict[str, Any]] = field(default_factory=list)
    seeds: list[dict[str, Any]] = field(default_factory=list)
    by_version: list[dict[str, Any]] = field(default_factory=list)
    forfeits: list[dict[str, Any]] = field(default_factory=list)
    lengths: list[dict[str, Any]] = field(default_factory=list)
    move_times: list[dict[str, Any]] = field(default_factory=list)
    move_limit: float = 0.0


def bot_stats(*, bot: Bot, number: int | None = None) -> BotStats:
    """The statistics of one of the bot's versions (``number``; else the active one, else
    the newest): a fixed number of queries over its rows of ``VersionStats`` (one per
    opponent version met per seat) and its latest forfeits, however many matches it played.
    Raises ``BotVersion.DoesNotExist`` for a number the bot has no version of."""
    versions = list(bot.versions.defer("archive", "log").order_by("-number"))
    ladder = Ladder.objects.filter(game=bot.game).first()
    if number is not None:
        version = next((v for v in versions if v.number == number), None)
        if version is None:
            raise BotVersion.DoesNotExist(f"{bot.name} has no version {number}")
    else:
        version = next((v for v in versions if v.pk == bot.active_version_id),
                       versions[0] if versions else None)
    page = BotStats(bot=bot, versions=versions, version=version, ladder=ladder,
                    move_limit=ladder.sandbox_limits.move_time if ladder else 0.0)
    # every version's totals in one query: what changed between versions
    # by the versions' ids, not a join on the bot: read from the key's index (a join let
    # PostgreSQL scan the versions' table first, 70 ms at 30,000 versions against 1.3)
    mine = VersionStats.objects.filter(version_id__in=[v.pk for v in versions])
    by_version = {r["version_id"]: r for r in mine.values("version_id")
                  .annotate(**_sums())}
    page.by_version = [{"version": v, "totals": Totals(by_version.get(v.pk, {}))}
                       for v in versions]
    if version is None:
        return page
    rows = VersionStats.objects.filter(version=version)
    page.totals = Totals(by_version.get(version.pk, {}))
    page.lengths = _histogram(page.totals.sums, LENGTHS, LENGTH_LABELS)
    page.move_times = _histogram(page.totals.sums, MOVE_TIMES, MOVE_TIME_LABELS)
    page.seats = [{"seat": r["seat"], "totals": Totals(r)} for r in
                  rows.values("seat").annotate(**_sums()).order_by("seat")]
    if ladder is not None and not ladder.rated:
        page.seeds = [{"seed": r["seed"], "totals": Totals(r)} for r in
                      rows.values("seed").annotate(**_sums()).order_by("seed")]
    else:
        met = list(rows.exclude(opponent=0).values("opponent")
                   .annotate(**_sums(), met=_window_count())
                   .order_by("-games", "opponent")[:OPPONENT_ROWS])
        page.opponents_met = met[0]["met"] if met else 0
        names = {v.pk: v for v in BotVersion.objects.filter(pk__in=[r["opponent"] for r in met])
                 .select_related("bot").only("number", "bot__name", "bot_id")}
        page.opponents = [{"version": names.get(r["opponent"]), "totals": Totals(r)}
                          for r in met]
    page.forfeits = [{"match_id": p.match_id, "step": p.match.moves, "kind": p.forfeit,
                      "detail": public_text(p.forfeit_detail, 200),
                      "match_kind": p.match.kind, "finished_at": p.match.finished_at}
                     for p in Participant.objects.filter(version=version)
                     .exclude(forfeit="").exclude(match__kind__in=PRIVATE_KINDS)
                     .select_related("match")
                     .only("match_id", "forfeit", "forfeit_detail", "match__moves",
                           "match__kind", "match__finished_at")
                     .order_by("-match_id")[:FORFEIT_EXAMPLES]]
    return page


def _window_count() -> Any:
    """How many opponents in all, beside each of the top rows (one query, not two)."""
    return Window(Count("opponent"))

