"""What matchmaking knows of each rated board, kept in the process from one fill of a ladder
to the next, so a fill reads the few standings that changed instead of every playing version.

A fresh read of a board is a row per playing version: thousands on a big ladder, most of a
tick. Between two fills only a few change, and the filler, holding the ladder's lock, can tell
which from what it reads anyway:

- a finished match changes its versions' standings in the transaction that ends it, so the
  standings to read again are those of the matches that were open at the last read (kept in
  ``Board.watched``) or made since (ladder matches are made only under the ladder's lock, so
  those made since are the ones with a higher id), and are open no longer;
- who is on the board (each playing bot's active version) is read again when the game's
  roster has changed (``bots.models.Roster``, moved on by the database's triggers on every
  write of a bot that could change it), as ids only, and a version new to it has its
  standing read;
- any other write of a standing (a new version's placement, ``standings_recount --fix``, the
  admin, a re-run match's versions) stamps its ``updated_at``, and the standings stamped since
  the last read, less ``STAMP_SLACK`` for the writer's clock and transaction, are read again.

A board is read in full on a process's first fill of a ladder, after the database server
restarted, and ``RELOAD_AFTER`` later (what no rule above foresees, such as a raw SQL write or
a restored backup, lasts no longer).
A read is kept only once its transaction commits (a rolled-back fill may have seen its own
writes), so several processes and threads each keep their own and need no coordination: the
ladder's lock orders their reads, and an older board read again is still right, only longer.
``tests/league/test_boards.py`` checks the kept board against a fresh read after random
finishes, placements, retirements and re-runs.
"""

from __future__ import annotations

import bisect
import threading
import time
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import NamedTuple

from django.db import connection, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from django.dispatch import receiver

from league.ladders.kinds import OWN_SHARE_KINDS
from league.ladders.lifecycle import OPEN
from league.ladders.models import Ladder, LadderKind, MatchKind
from league.ladders.pairing import PLACEMENT_PAIRINGS, Entry, pair_key
from league.ladders.ratings import RECENT_HALF_LIFE, Skill

MET_WINDOW = 200
"""How many of a ladder's latest matches count as recent meetings."""
RELOAD_AFTER = 600.0
"""Seconds after which a process reads a board in full again, whatever it has seen."""
STAMP_SLACK = 300.0
"""Seconds before the last read from which a stamped standing is read again: more than a
writer's clock may be off and than its transaction may take to commit."""

EPOCH = {"postgresql": "extract(epoch FROM s.recent_at)::float8",
         "sqlite": "(julianday(s.recent_at) - 2440587.5) * 86400.0"}
"""A standing's ``recent_at`` as seconds since the epoch: a float, not a datetime to parse."""
PLAYERS_SQL = """
SELECT 'p', s.version_id, s.id, s.mu, s.sigma, s.games, s.recent, {epoch} FROM bots_bot b
JOIN ladders_standing s ON s.ladder_id = %(ladder)s AND s.version_id = b.active_version_id
WHERE b.game = %(game)s AND NOT b.retired AND NOT b.disabled {only}
"""
"""Every playing version's standing (the board's rows, without what only a page shows). From
the game's bots (an index), not the ladder's standings, which keep every version that ever
played. ``only``: the few a fill reads again."""
ONLY = "AND s.version_id IN ({versions})"
CHANGED = "AND (s.version_id IN ({versions}) OR s.updated_at > %(since)s)"
ROSTER_SQL = """
SELECT 'r', changes, NULL, NULL, NULL, NULL, NULL, NULL FROM bots_roster WHERE game = %(game)s
"""
"""The game's roster (``bots.models.Roster``), as a row shaped like a player's."""
MEMBERS_SQL = """
SELECT 'm', active_version_id, NULL, NULL, NULL, NULL, NULL, NULL FROM bots_bot
WHERE game = %(game)s AND NOT retired AND NOT disabled AND active_version_id IS NOT NULL
  AND COALESCE((SELECT changes FROM bots_roster WHERE game = %(game)s), -1) <> %(roster)s
"""
"""The board's members (no standing), if the game's roster is not ``roster`` (-1: no roster
row; -2: read them whatever it is)."""
NO_ROSTER, ANY_ROSTER = -1, -2
SEATS_SQL = """
SELECT m.ladder_id, m.id, m.kind, m.status, p.version_id FROM ladders_match m
JOIN ladders_participant p ON p.match_id = m.id
WHERE m.ladder_id = %s AND m.status IN ({open}) AND m.kind NOT IN ({competitions})
UNION ALL
SELECT m.ladder_id, m.id, m.kind, m.status, p.version_id FROM ladders_match m
JOIN ladders_participant p ON p.match_id = m.id
WHERE m.ladder_id = %s AND m.kind = '{ladder}' AND m.id > %s AND m.status NOT IN ({open})
""".format(open=", ".join(f"'{status}'" for status in OPEN),
           competitions=", ".join(f"'{kind}'" for kind in OWN_SHARE_KINDS),
           ladder=MatchKind.LADDER)
"""A ladder's seats of its open matches (competitions' and exhibitions' aside: they have
shares of their own), and of its ladder matches made after a match id that have ended: two
halves, each read from an index (an OR of the two, SQLite read every match of the ladder).
The statuses and kinds are written into the SQL (constants), as SQLite matches an index's
condition only so. Several ladders' are read by one statement, a pair of halves each."""
MET_SQL = f"""
SELECT m.id, p.version_id FROM (SELECT id FROM ladders_match
  WHERE ladder_id = %(ladder)s AND kind = '{MatchKind.LADDER}' ORDER BY id DESC
  LIMIT %(window)s) m
LEFT JOIN ladders_participant p ON p.match_id = m.id
"""
"""The seats of the ladder's latest ladder matches (recent meetings), the newest among them."""
NONE = 2**62
"""An ``after`` that no match id reaches."""
NOVICE_GAMES = 2 * PLACEMENT_PAIRINGS
"""Games below which a player is still placing (a pairing is two games)."""


@dataclass(frozen=True)
class Seat:
    match: int
    kind: str
    open: bool
    version: int | None


def seats_read(ladder: Ladder, after: int = NONE) -> list[Seat]:
    """The seats of the ladder's open matches, and of those made after ``after``."""
    return ladders_seats_read({ladder.pk: after})[ladder.pk]


def ladders_seats_read(afters: Mapping[int, int]) -> dict[int, list[Seat]]:
    """``seats_read`` of several ladders (``{ladder id: after}``) in one statement."""
    seats: dict[int, list[Seat]] = {pk: [] for pk in afters}
    if not afters:
        return seats
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join([SEATS_SQL] * len(afters)),
                       [p for pk, after in afters.items() for p in (pk, pk, after)])
        for ladder, match, kind, status, version in cursor.fetchall():
            seats[ladder].append(Seat(match, kind, status in OPEN, version))
    return seats


class Player(NamedTuple):
    """What matchmaking reads of one playing version's standing (a tuple: a fill unpacks the
    whole board's at C speed)."""

    version: int
    standing: int
    skill: Skill
    games: int
    recent: float
    recent_at: float | None
    """``recent`` is as it counted at this time (seconds since the epoch)."""

    def recent_now(self, now: float) -> float:
        """``ratings.decayed`` of the recent count, on epoch seconds."""
        if self.recent_at is None or self.recent == 0.0:
            return 0.0
        return self.recent * 0.5 ** (max(0.0, now - self.recent_at) / RECENT_HALF_LIFE)

    @property
    def place(self) -> tuple[float, int, Player]:
        """Where it sorts on the board (``selectors.BOARD_ORDER``, rated): best first (μ − 3σ
        descending), then by standing id, which is unique: the player itself is never
        compared."""
        return (-(self.skill.mu - 3 * self.skill.sigma), self.standing, self)


@dataclass(frozen=True)
class Board:
    """A rated board as read under its ladder's lock; never changed once made."""

    players: dict[int, Player]
    order: list[tuple[float, int, Player]]
    """Every player's ``place``, in board order."""
    members: frozenset[int]
    """The playing bots' active versions (a member without a standing is not a player)."""
    roster: int | None
    """The game's roster (``bots.models.Roster``) when ``members`` were read."""
    watched: dict[int, tuple[int, ...]]
    """The ladder's open matches at the read, with their versions."""
    last_match: int
    """The newest ladder match of the ladder seen."""
    met: tuple[tuple[int, frozenset[int] | None], ...]
    """The latest ``MET_WINDOW`` ladder matches, oldest first: (id, its pair if it has one)."""
    read_at: float
    novices: frozenset[int] = frozenset()
    """The players with fewer games than a placement's (``NOVICE_GAMES``): the few a fill
    looks for among thousands, kept as the board is brought up to date."""
    loaded_at: float = field(default_factory=time.monotonic)

    def ranked(self) -> list[Player]:
        return [player for _, _, player in self.order]

    def entries(self, playing: Mapping[int, int], now: float) -> BoardEntries:
        """The board as pairing sees it (``pairing.Entry``), in board order, with each
        player's open matches (``playing``) counted in and its recent count decayed to
        ``now``; an entry is made when pairing first looks at it."""
        return BoardEntries(self.order, playing, now, self.novices, self.players)

    def recent_meetings(self) -> dict[frozenset[int], int]:
        met: dict[frozenset[int], int] = {}
        for _, pair in self.met:
            if pair is not None:
                met[pair] = met.get(pair, 0) + 1
        return met


class BoardEntries(Sequence[Entry]):
    """A board's entries, each made when first looked at: a placement looks at the players
    still placing and a few places around its targets, not at the whole board, whose
    entries were most of a fill's time on a big ladder. Looking at them all (an ordinary
    pairing weighs every near pair) makes the rest at once. ``placing()`` says where the
    players still placing sit, from the players' tuples alone."""

    def __init__(self, order: Sequence[tuple[float, int, Player]], playing: Mapping[int, int],
                 now: float, novices: Collection[int] | None = None,
                 players: Mapping[int, Player] | None = None) -> None:
        self._order, self._playing, self._now = order, playing, now
        self._novices, self._players = novices, players
        self._made: dict[int, Entry] = {}

    def __len__(self) -> int:
        return len(self._order)

    def __getitem__(self, i: int) -> Entry:  # type: ignore[override]  (no slices: not needed)
        entry = self._made.get(i)
        if entry is None:
            if not -len(self._order) <= i < len(self._order):
                raise IndexError(i)
            i %= len(self._order)
            entry = self._made[i] = self._make(self._order[i][2])
        return entry

    def __iter__(self) -> Iterator[Entry]:
        made, make = self._made, self._make
        for i, (_, _, player) in enumerate(self._order):
            entry = made.get(i)
            if entry is None:
                entry = made[i] = make(player)
            yield entry

    def _make(self, player: Player) -> Entry:
        """``Player.recent_now``, inlined (made for every player when all are looked at)."""
        version, _, skill, games, recent, at = player
        open_now = self._playing.get(version, 0)
        if at is None or recent == 0.0:
            recent = 0.0
        else:
            recent *= 0.5 ** (max(0.0, self._now - at) / RECENT_HALF_LIFE)
        return Entry(version, skill, round(recent) + open_now, (games + open_now) // 2)

    def placing(self) -> list[tuple[int, int]]:
        """Where on the board the entries still placing sit (fewer than
        ``pairing.PLACEMENT_PAIRINGS`` pairings of two games, finished or open), each with its
        entry's ``placed``, in board order: read from the players' tuples, no entry made; from
        the board's novices when it knows them (a search each), else from every player."""
        busy, order, novices = self._playing.get, self._order, self._novices
        places: Iterable[tuple[int, tuple[float, int, Player]]]
        if novices is None or self._players is None or len(novices) * 16 > len(order):
            places = enumerate(order)  # many still placing: one pass beats a search each
        else:
            places = sorted((bisect.bisect_left(order, place), place)
                            for place in (self._players[v].place for v in novices))
        return [(i, (games + busy(version, 0)) // 2)
                for i, (_, _, (version, _, _, games, _, _)) in places
                if games < NOVICE_GAMES and games + busy(version, 0) < NOVICE_GAMES]


_kept: dict[int, Board] = {}
_kept_lock = threading.Lock()


def boards_forget() -> None:
    """Drop every kept board (tests that swap the database under a process)."""
    with _kept_lock:
        _kept.clear()


_server_started: object = None


@receiver(connection_created)
def _forget_after_a_restart(sender: object, connection: BaseDatabaseWrapper,
                            **_: object) -> None:
    """A fill commits without waiting for the disk (``matchmaking.ladder_fill``), so a
    PostgreSQL that crashed may have lost matches a kept board saw made; a board is not kept
    across a restart of the server."""
    global _server_started
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_postmaster_start_time()")
        (started,) = cursor.fetchone()
    if started != _server_started:
        boards_forget()
        _server_started = started


def board_known(ladder: Ladder) -> Board | None:
    """The board this process kept for the ladder, if it is recent enough to bring up to date."""
    board = _kept.get(ladder.pk)
    if board is None or time.monotonic() - board.loaded_at > RELOAD_AFTER:
        return None
    return board


def board_read(ladder: Ladder, seats: Sequence[Seat], known: Board | None) -> Board:
    """The ladder's rated board now; ``seats`` were read after taking the ladder's lock, with
    ``after=known.last_match`` when ``known``. Kept for the next fill once this one commits."""
    assert ladder.kind == LadderKind.RATED
    board = _refresh(ladder, seats, known) if known is not None else _load(ladder, seats)

    def keep() -> None:
        with _kept_lock:
            _kept[ladder.pk] = board

    transaction.on_commit(keep)
    return board


def board_fresh(ladder: Ladder) -> Board:
    """The board read in full, now, kept nowhere: what a kept board must equal."""
    return _load(ladder, seats_read(ladder))


class Read(NamedTuple):
    """What ``_read`` found."""

    players: list[Player]
    members: frozenset[int] | None
    """None when the roster had not changed (the caller's are still right)."""
    roster: int | None


def _read(ladder: Ladder, only: str = "", roster: int | None = ANY_ROSTER,
          **params: object) -> Read:
    """One statement: the players ``only`` says, the game's roster, and the board's members
    if the roster is not ``roster`` (``ANY_ROSTER``: whatever it is). One snapshot for all
    three, so members read are those of the roster read."""
    sql = f"{PLAYERS_SQL.format(epoch=EPOCH[connection.vendor], only=only)} UNION ALL " \
          f"{ROSTER_SQL} UNION ALL {MEMBERS_SQL}"
    with connection.cursor() as cursor:
        cursor.execute(sql, {"ladder": ladder.pk, "game": ladder.game,
                             "roster": NO_ROSTER if roster is None else roster, **params})
        rows = cursor.fetchall()
    players, members, read_roster = [], [], None
    for tag, version, standing, mu, sigma, games, recent, at in rows:
        if tag == "p":
            players.append(Player(version, standing, Skill(mu, sigma), games, recent, at))
        elif tag == "m":
            members.append(version)
        else:
            read_roster = version  # the roster's row carries its value in the first column
    changed = read_roster != roster or roster == ANY_ROSTER
    return Read(players, frozenset(members) if changed else None, read_roster)


def _watched(seats: Iterable[Seat]) -> dict[int, tuple[int, ...]]:
    watched: dict[int, list[int]] = {}
    for seat in seats:
        if seat.open:
            versions = watched.setdefault(seat.match, [])
            if seat.version is not None:
                versions.append(seat.version)
    return {match: tuple(versions) for match, versions in watched.items()}


def _pairs(rows: Iterable[tuple[int, int | None]]) -> list[tuple[int, frozenset[int] | None]]:
    """(match, its pair of versions or None), by match id, from (match, version) rows."""
    seats: dict[int, list[int]] = {}
    for match, version in rows:
        versions = seats.setdefault(match, [])
        if version is not None:
            versions.append(version)
    return [(match, pair_key(*v) if len(v) == 2 else None)
            for match, v in sorted(seats.items())]


def _load(ladder: Ladder, seats: Sequence[Seat]) -> Board:
    read_at = time.time()
    players, members, roster = _read(ladder)
    assert members is not None  # read whatever the roster
    with connection.cursor() as cursor:
        cursor.execute(MET_SQL, {"ladder": ladder.pk, "window": MET_WINDOW})
        met = _pairs(cursor.fetchall())
    return Board(players={p.version: p for p in players},
                 order=sorted(p.place for p in players),
                 members=members, roster=roster, watched=_watched(seats),
                 last_match=max((match for match, _ in met), default=0),
                 met=tuple(met), read_at=read_at,
                 novices=frozenset(p.version for p in players if p.games < NOVICE_GAMES))


def _refresh(ladder: Ladder, seats: Sequence[Seat], known: Board) -> Board:
    read_at = time.time()
    open_now = _watched(seats)
    made = [(s.match, s.version) for s in seats  # an open validation is no ladder match
            if s.kind == MatchKind.LADDER and s.match > known.last_match]
    ended = (known.watched.keys() | {match for match, _ in made}) - open_now.keys()
    touched = {v for match in ended for v in known.watched.get(match, ())}
    touched |= {v for match, v in made if match in ended and v is not None}
    # one statement: the players whose standings may have changed, the game's roster, and
    # the board's members if the roster has changed since they were read
    fresh, members, roster = _read(
        ladder, CHANGED.format(versions=",".join(map(str, sorted(touched))) or "0"),
        roster=known.roster, since=connection.ops.adapt_datetimefield_value(
            datetime.fromtimestamp(known.read_at - STAMP_SLACK, tz=UTC)))
    members = known.members if members is None else members
    joined = members - known.members  # a bot enabled again, a version made active
    if missing := joined - {p.version for p in fresh}:
        fresh += _read(ladder, ONLY.format(versions=",".join(map(str, sorted(missing)))),
                       roster=roster).players
    again = touched | joined
    players = dict(known.players)
    order = list(known.order)
    novices = set(known.novices)
    for version in (again | {p.version for p in fresh}) & players.keys():
        old = players.pop(version)
        del order[bisect.bisect_left(order, old.place)]
        novices.discard(version)
    for player in fresh:
        players[player.version] = player
        bisect.insort(order, player.place)
        if player.games < NOVICE_GAMES:
            novices.add(player.version)
    for version in players.keys() - members:  # left the board: retired, disabled, replaced
        del order[bisect.bisect_left(order, players.pop(version).place)]
        novices.discard(version)
    new = _pairs(made)
    met = (known.met + tuple(new))[-MET_WINDOW:] if new else known.met
    last = max([known.last_match, *(match for match, _ in new)])
    return Board(players=players, order=order, members=members, roster=roster,
                 watched=open_now,
                 last_match=last, met=met, read_at=read_at, novices=frozenset(novices),
                 loaded_at=known.loaded_at)

