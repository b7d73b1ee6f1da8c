"""Reads for competitions' pages and API: the list, a tournament's table, rounds and bracket,
a challenge's games; each in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet
from django.http import Http404

from league.competitions import formats
from league.competitions.formats import elimination
from league.competitions.models import (
    DONE,
    UPCOMING,
    Challenge,
    ChallengeGame,
    ChallengeState,
    Entry,
    Tournament,
    TournamentState,
)
from league.competitions.recurring import schedule_words
from league.competitions.results import (
    PENDING,
    GameRow,
    Pending,
    State,
    game_result,
    load,
)

RULES = {
    formats.Format.ROUND_ROBIN: "Everyone meets everyone once. A series won is 1 point, drawn "
    "1/2. Ties on points are broken by Sonneborn-Berger (the points of the opponents you "
    "beat, plus half of those you drew with), then game points, then seed.",
    formats.Format.DOUBLE_ROUND_ROBIN: "Everyone meets everyone twice, seats swapped. A series "
    "won is 1 point, drawn 1/2. Ties on points are broken by Sonneborn-Berger, then game "
    "points, then seed.",
    formats.Format.SWISS: "Each round pairs entries on equal points (no rematch while one can "
    "be avoided; an odd field gives one entry a bye, worth a series won, at most once each; "
    "first seats kept within one). A series won is 1 point, drawn 1/2. Ties are broken by "
    "Buchholz (the opponents' points; a bye counts as an opponent with your own points), "
    "then Sonneborn-Berger, then game points, then seed.",
    formats.Format.SINGLE_ELIMINATION: "Seeded bracket: seeds 1 and 2 can meet only in the "
    "final; a field short of a power of two gives the top seeds byes. One series lost and "
    "you are out. A series level after its games gets one extra game; level again, the "
    "better seed goes through.",
    formats.Format.DOUBLE_ELIMINATION: "Winners' and losers' brackets: a series lost drops you "
    "to the losers' bracket, a second ends your tournament. The losers' bracket winner meets "
    "the winners' bracket winner in the grand final; if it wins, both have lost once and a "
    "second final decides. A level series gets one extra game, then goes to the better seed.",
    formats.Format.SCORED: "Every entry plays the same seeds; entries rank by mean score "
    "(with its 95 % interval shown), then seed.",
}
SERIES_RULE = ("Each series is played with seats alternated, game by game; two games in a "
               "row share a seed with seats swapped, and every series of a round plays the "
               "same seeds.")


@dataclass(frozen=True)
class TableRow:
    rank: int
    entry: Entry
    points: float
    wins: int
    draws: int
    losses: int
    byes: int
    game_points: float
    buchholz: float | None
    sonneborn_berger: float | None
    played: int
    interval: float | None
    out: bool


@dataclass
class GameView:
    index: int
    match_id: int | None
    status: str
    first: Entry | None
    """The entry in seat 0 (a challenge's games say ``challenger_seat`` instead)."""
    second: Entry | None
    result: str
    """``1-0``, ``0-1``, ``½-½``, a score, or where it stands."""
    challenger_seat: int | None = None
    """A challenge's game: the seat its challenger sits in (``None`` in a tournament)."""


@dataclass
class SeriesView:
    key: str
    round: int
    kind: str
    first: Entry
    second: Entry | None
    games: list[GameView] = field(default_factory=list)
    score: str = ""
    winner: Entry | None = None
    decided_by: str = ""
    done: bool = False


@dataclass
class BracketView:
    """An elimination bracket in columns: its sections (winners', losers', finals), each a
    list of columns of nodes; a node names its sides (an entry, ``winner of W1.2``, a bye)."""

    sections: list[tuple[str, list[list[dict[str, object]]]]]


@dataclass
class TournamentPage:
    tournament: Tournament
    entries: list[Entry]
    table: list[TableRow]
    rounds: list[tuple[int, list[SeriesView]]]
    bracket: BracketView | None
    rules: str
    series_rule: str


def tournaments() -> QuerySet[Tournament]:
    """Tournaments with their creator, their ladder and their field's size (``entered``): the
    rows of the pages' and the API's lists and of a tournament's page."""
    return (Tournament.objects.select_related("created_by__profile", "ladder", "recurrence",
                                                 "finals_of")
            .annotate(entered=Count("entries", filter=Q(entries__withdrawn=False))))


def tournament_get(*, tournament_id: int) -> Tournament:
    tournament = tournaments().filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404(f"no tournament {tournament_id}; tournaments are listed at "
                      "/api/tournaments/")
    return tournament


def challenges() -> QuerySet[Challenge]:
    """Challenges with their bots, owners, versions (never their archives or logs) and
    challenger: the rows of the pages and the API."""
    return (Challenge.objects.select_related("bot__owner__profile", "version",
                                             "opponent__owner__profile", "opponent_version",
                                             "challenger__profile", "ladder")
            .defer("version__archive", "version__log", "opponent_version__archive",
                   "opponent_version__log"))


def challenge_get(*, challenge_id: int) -> Challenge:
    challenge = challenges().filter(pk=challenge_id).first()
    if challenge is None:
        raise Http404(f"no challenge {challenge_id}; challenges are listed at /api/challenges/")
    return challenge


def tournament_list() -> dict[str, QuerySet[Tournament]]:
    base = tournaments()
    return {
        "running": base.filter(state=TournamentState.RUNNING).order_by("starts_at"),
        "upcoming": base.filter(state__in=UPCOMING).order_by("starts_at"),
        "finished": base.filter(state__in=DONE).order_by("-finished_at")[:50],
    }


def _entries(t: Tournament) -> dict[int, Entry]:
    # a version's archive and log are never needed here, and an archive is up to 10 MiB
    return {e.pk: e for e in Entry.objects.filter(tournament=t).select_related(
        "bot__owner", "version").defer("version__archive", "version__log")
        .order_by("seed", "registered_at")}


def tournament_table(t: Tournament, state: State | None = None,
                     entries: dict[int, Entry] | None = None) -> list[TableRow]:
    state = state or load(t)
    entries = entries or _entries(t)
    if not state.entries:
        return []
    rows = formats.standings(state.fmt, state.entries, state.options, state.rounds,
                             state.results)
    return [TableRow(rank=s.rank, entry=entries[s.entry], points=s.points, wins=s.wins,
                     draws=s.draws, losses=s.losses, byes=s.byes, game_points=s.game_points,
                     buchholz=s.buchholz, sonneborn_berger=s.sonneborn_berger, played=s.played,
                     interval=s.interval, out=s.out) for s in rows]


def tournament_page(t: Tournament, *, hidden: bool = False) -> TournamentPage:
    """``hidden``: a season's finals whose results are held back from this reader
    (``finals.results_hidden``): the field, but no standings, rounds or bracket."""
    entries = _entries(t)
    fmt = formats.Format(t.format)
    if hidden:
        return TournamentPage(tournament=t, entries=[e for e in entries.values()
                                                     if not e.withdrawn],
                              table=[], rounds=[], bracket=None, rules=RULES[fmt],
                              series_rule=SERIES_RULE)
    state = load(t)
    return TournamentPage(
        tournament=t, entries=[e for e in entries.values() if not e.withdrawn],
        table=tournament_table(t, state, entries), rounds=_rounds(state, entries),
        # a bracket is drawn from the seeds, which exist once the tournament has started
        # with two entries or more (before that, or cancelled for too few, there is none)
        bracket=(_bracket(state, entries) if fmt in formats.tournament.ELIMINATION
                 and len(state.entries) >= 2 else None),
        rules=RULES[fmt], series_rule=SERIES_RULE)


def _result_text(result: object, game: GameRow) -> str:
    if isinstance(result, Pending):
        return game.status or "waiting"
    if isinstance(result, float):
        return f"{result:g}"
    if result is None:
        return "½-½"
    return "1-0" if result == game.first_id else "0-1"


def _rounds(state: State, entries: dict[int, Entry]) -> list[tuple[int, list[SeriesView]]]:
    out = []
    for r in state.rounds:
        views = []
        for p in r.pairings:
            view = SeriesView(key=p.key, round=r.number, kind=p.kind.value,
                              first=entries[p.first],
                              second=entries[p.second] if p.second else None)
            # the results as the series counts them (``load``): besides the matches', a game
            # given up after its replays, or never played as a side's bot was disabled
            counted = state.results.get(p.key, [])
            for i, g in enumerate(state.games.get(p.key, [])):
                result = counted[i] if i < len(counted) else PENDING
                status = (g.status if g.status is not None else
                          "not played" if i < len(counted) else "waiting")
                view.games.append(GameView(
                    index=g.index, match_id=g.match_id, status=status,
                    first=entries[g.first_id],
                    second=entries[g.second_id] if g.second_id else None,
                    result=_result_text(result, g)))
            if p.kind == formats.PairingKind.SOLO:
                scores = state.results.get(p.key, [])
                view.done = len(scores) >= p.games
                view.score = (f"mean {sum(scores) / len(scores):.1f}" if scores else "")
            else:
                done = formats.series_result(p, state.results.get(p.key, []))
                if done is not None:
                    view.done = True
                    view.score = f"{done.first_points:g} : {done.second_points:g}"
                    view.winner = entries[done.winner] if done.winner is not None else None
                    view.decided_by = done.decided_by.value
            views.append(view)
        out.append((r.number, views))
    return out


SECTION_TITLES = {"W": "Winners' bracket", "L": "Losers' bracket", "P": "Third place",
                  "G": "Grand final"}


def _bracket(state: State, entries: dict[int, Entry]) -> BracketView:
    b = elimination.bracket(state.entries, state.options, state.results,
                            state.fmt == formats.Format.DOUBLE_ELIMINATION)
    columns: dict[str, dict[int, list[dict[str, object]]]] = {}
    for s in b.states:
        section = s.node.key[0]
        sides = []
        for side, who in zip(s.node.sides, s.entries, strict=True):
            if isinstance(who, int):
                sides.append({"entry": entries[who], "won": s.winner == who})
            elif who is None:
                sides.append({"label": "bye"})
            else:
                sides.append({"label": f"{side.source.value} of {side.node}" if side.node
                              else f"seed {side.place}"})
        columns.setdefault(section, {}).setdefault(s.round, []).append(
            {"key": s.node.key, "round": s.round, "sides": sides, "played": s.played,
             "decided": s.decided, "reset": s.node.reset})
    order = [k for k in "WLPG" if k in columns]
    return BracketView([(SECTION_TITLES[k], [columns[k][r] for r in sorted(columns[k])])
                        for k in order])


# -- challenges ------------------------------------------------------------------------------

@dataclass
class ChallengePage:
    challenge: Challenge
    games: list[GameView]
    wins: int
    losses: int
    draws: int


def challenge_page(c: Challenge) -> ChallengePage:
    rows = list(ChallengeGame.objects.filter(challenge=c).select_related("match")
                .prefetch_related("match__participants").order_by("index"))
    wins = losses = draws = 0
    views = []
    for g in rows:
        # the challenger as entry 1, the opponent as 2, in the game's seats
        first, second = (1, 2) if g.challenger_seat == 0 else (2, 1)
        result = game_result(g.match, first, second)
        if result is PENDING or isinstance(result, Pending):
            # a game with no match in a challenge that is over was never played (a bot
            # disabled by staff)
            text = (g.match.status if g.match else
                    "waiting" if c.state == ChallengeState.PLAYING else "not played")
        elif result is None:
            text, draws = "draw", draws + 1
        elif result == 1:
            text, wins = "won", wins + 1
        else:
            text, losses = "lost", losses + 1
        views.append(GameView(index=g.index, match_id=g.match_id,
                              status=g.match.status if g.match else text,
                              first=None, second=None, result=text,
                              challenger_seat=g.challenger_seat))
    return ChallengePage(challenge=c, games=views, wins=wins, losses=losses, draws=draws)


def challenges_of_bot(bot_id: int, limit: int = 20) -> list[Challenge]:
    return list(challenges().filter(Q(bot_id=bot_id) | Q(opponent_id=bot_id))
                .order_by("-created_at")[:limit])



@dataclass(frozen=True)
class RecurringView:
    """A tournament that comes back, as its page says it: the schedule, and the editions
    before and after this one."""

    schedule: str
    active: bool
    previous: Tournament | None
    following: Tournament | None
    number: int
    """This one's place among the editions (1: the first)."""


def recurring_view(t: Tournament) -> RecurringView | None:
    r = t.recurrence
    if r is None:
        return None
    editions = r.editions.only("pk", "name", "starts_at", "state")
    return RecurringView(
        schedule=schedule_words(r, t.starts_at), active=r.active,
        previous=editions.filter(starts_at__lt=t.starts_at).order_by("-starts_at").first(),
        following=editions.filter(starts_at__gt=t.starts_at).order_by("starts_at").first(),
        number=editions.filter(starts_at__lte=t.starts_at).count())
