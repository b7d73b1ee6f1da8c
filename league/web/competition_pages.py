"""Reads for the competitions' pages that only the site needs: how many rounds a tournament
plays, its series as the page draws them (scores so far, games linked), its bracket laid out
in columns, which of a user's bots may enter or challenge, and a bot's tournaments and
challenges. Everything else comes from ``league.competitions.selectors``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache
from django.db.models import Max, QuerySet
from django.urls import reverse
from django.utils import timezone

import games
from league.bots.models import PLAYS, Bot
from league.competitions import formats
from league.competitions.formats import elimination, round_robin, swiss
from league.competitions.formats.bracket import rounds_of
from league.competitions.formats.tournament import ELIMINATION
from league.competitions.models import (
    DONE,
    Challenge,
    ChallengeGame,
    Entry,
    SeriesGame,
    Tournament,
    TournamentState,
)
from league.competitions.selectors import (
    SECTION_TITLES,
    GameView,
    SeriesView,
    TableRow,
    TournamentPage,
    challenges_of_bot,
    tournament_list,
    tournament_page,
    tournament_table,
)
from league.ladders.models import Match, MatchKind, MatchStatus, Participant
from league.ladders.selectors import tally_counts
from league.web.tie_break import Tie, first_place_tie

AnyUser = AbstractBaseUser | AnonymousUser

FORMAT_NAMES = {
    formats.Format.ROUND_ROBIN: "round robin",
    formats.Format.DOUBLE_ROUND_ROBIN: "double round robin",
    formats.Format.SWISS: "Swiss",
    formats.Format.SINGLE_ELIMINATION: "single elimination",
    formats.Format.DOUBLE_ELIMINATION: "double elimination",
    formats.Format.SCORED: "scored",
}


def format_name(value: str) -> str:
    try:
        return FORMAT_NAMES[formats.Format(value)]
    except ValueError:
        return value


def solo_games() -> list[str]:
    """Games played alone: their tournaments are scored, and nobody can be challenged."""
    return [g for g in games.game_ids() if games.make_game(g).num_players == 1]


# -- rounds ----------------------------------------------------------------------------------

def planned_rounds(fmt: formats.Format, field_size: int, options: formats.Options) -> int | None:
    """Rounds a tournament of ``field_size`` entries plays (elimination: without the bracket
    reset, played only if the grand final asks for it); None for a field too small."""
    if field_size < 2:
        return None
    if fmt == formats.Format.SCORED:
        return options.rounds or 1
    if fmt == formats.Format.SWISS:
        return min(options.rounds or swiss.default_rounds(field_size),
                   swiss.max_rounds(field_size))
    if fmt in (formats.Format.ROUND_ROBIN, formats.Format.DOUBLE_ROUND_ROBIN):
        field_entries = [formats.Entry(i, i) for i in range(1, field_size + 1)]
        return len(round_robin.schedule(field_entries, options,
                                        fmt == formats.Format.DOUBLE_ROUND_ROBIN))
    nodes = (elimination.double_bracket(field_size, options.bracket_reset)
             if fmt == formats.Format.DOUBLE_ELIMINATION
             else elimination.single_bracket(field_size, options.third_place))
    rounds = rounds_of(nodes, field_size)
    return max(rounds[n.key] for n in nodes if not n.reset)


def options_of(t: Tournament) -> formats.Options:
    return formats.Options(games=t.games, rounds=t.rounds, third_place=t.third_place,
                           bracket_reset=t.bracket_reset)


# -- a tournament's page ---------------------------------------------------------------------

@dataclass
class GameLine:
    game: GameView
    label: str
    """What the link says: the result once played, else where the game stands."""
    live: bool


@dataclass
class SeriesLine:
    """A series as the page draws it: both sides' game points so far (a bye: none)."""

    view: SeriesView
    first_points: float | None
    second_points: float | None
    games: list[GameLine]
    live: bool
    """A game of it is being played now."""

    @property
    def bye(self) -> bool:
        return self.view.kind == formats.PairingKind.BYE

    @property
    def solo(self) -> bool:
        return self.view.kind == formats.PairingKind.SOLO

    def points_of(self, entry: Entry | None) -> float | None:
        if entry is None or self.bye:
            return None
        return self.first_points if entry.pk == self.view.first.pk else self.second_points


@dataclass
class BracketNode:
    key: str
    sides: list[dict[str, Any]]
    series: SeriesLine | None
    void: bool
    """Nobody plays here: both sides are empty."""
    unneeded: bool
    """A bracket reset the grand final made unnecessary."""
    bye: bool
    reset: bool
    decided: bool


@dataclass
class BracketColumn:
    title: str
    round: int
    nodes: list[BracketNode]
    empty: bool = False
    """Every node in it is void (a phone leaves it out)."""
    joined: bool = False
    """Its nodes go two by two into the next column's (the bracket's lines join them)."""

    @property
    def groups(self) -> list[list[BracketNode]]:
        """Its nodes as the page draws them: two by two when joined, else one by one."""
        step = 2 if self.joined else 1
        return [self.nodes[i:i + step] for i in range(0, len(self.nodes), step)]


@dataclass
class BracketSection:
    key: str
    title: str
    columns: list[BracketColumn]


@dataclass
class TournamentView:
    page: TournamentPage
    fmt: formats.Format
    format_name: str
    current_round: int
    planned: int | None
    rounds: list[tuple[int, list[SeriesLine]]]
    bracket: list[BracketSection] = field(default_factory=list)
    winner: TableRow | None = None
    tie: Tie | None = None
    """The winner is first on a tie-break, level on points with the runner-up."""
    columns: set[str] = field(default_factory=set)
    live_games: int = 0

    @property
    def t(self) -> Tournament:
        return self.page.tournament

    @property
    def elimination(self) -> bool:
        return self.fmt in ELIMINATION

    @property
    def scored(self) -> bool:
        return self.fmt == formats.Format.SCORED

    @property
    def done(self) -> bool:
        return self.t.state in DONE

    @property
    def reset_round(self) -> bool:
        return self.planned is not None and self.current_round > self.planned


def _game_label(g: GameView, left: Entry) -> str:
    """A game as its series' line shows it: the result with the series' left side first
    (seats alternate, so a game's own 1-0 names whoever sat first), or where it stands."""
    if g.match_id is None:
        return g.status  # waiting, or not played (a side's bot was disabled)
    if g.status == MatchStatus.RUNNING:
        return "live"
    if g.status == MatchStatus.QUEUED:
        return "queued"
    if g.result in ("1-0", "0-1") and g.first is not None and g.first.pk != left.pk:
        return "0-1" if g.result == "1-0" else "1-0"
    return g.result


def series_line(view: SeriesView) -> SeriesLine:
    """Game points so far from each game's result: 1 a game won, 1/2 drawn."""
    first = second = 0.0
    lines = []
    for g in view.games:
        if g.result == "1-0" or g.result == "0-1":
            winner = g.first if g.result == "1-0" else g.second
            if winner is not None and winner.pk == view.first.pk:
                first += 1
            else:
                second += 1
        elif g.result == "½-½":
            first += 0.5
            second += 0.5
        lines.append(GameLine(g, _game_label(g, view.first), g.status == MatchStatus.RUNNING))
    if view.kind == formats.PairingKind.BYE:
        return SeriesLine(view, None, None, lines, False)
    if view.kind == formats.PairingKind.SOLO:
        return SeriesLine(view, None, None, lines, any(x.live for x in lines))
    return SeriesLine(view, first, second, lines, any(x.live for x in lines))


def _column_title(section: str, index: int, count: int, double: bool) -> str:
    from_end = count - 1 - index
    if section == "W":
        if from_end == 0:
            return "Winners' final" if double else "Final"
        if from_end == 1:
            return "Semi-finals"
        if from_end == 2:
            return "Quarter-finals"
        return f"Round of {2 ** (from_end + 1)}"
    if section == "L":
        return "Losers' final" if from_end == 0 else f"Losers' round {index + 1}"
    if section == "G":
        return "Grand final" if index == 0 else "Bracket reset"
    return "Third place"


def _bracket(page: TournamentPage, lines: dict[str, SeriesLine],
             fmt: formats.Format) -> list[BracketSection]:
    if page.bracket is None:
        return []
    keys = {title: key for key, title in SECTION_TITLES.items()}
    double = fmt == formats.Format.DOUBLE_ELIMINATION
    sections = []
    for title, columns in page.bracket.sections:
        key = keys.get(title, "W")
        out = []
        for i, nodes in enumerate(columns):
            drawn = []
            for n in nodes:
                sides = n["sides"]
                empty = [("label" in s and s["label"] == "bye") for s in sides]
                unneeded = bool(n["reset"] and n["decided"] and not n["played"])
                drawn.append(BracketNode(
                    key=str(n["key"]), sides=list(sides), series=lines.get(str(n["key"])),
                    void=all(empty) and not unneeded, unneeded=unneeded,
                    bye=any(empty) and not all(empty), reset=bool(n["reset"]),
                    decided=bool(n["decided"])))
            shown = [n for n in drawn if not n.void]
            number = min((int(n["round"]) for n, d in zip(nodes, drawn, strict=True)
                          if not d.void and not d.unneeded), default=0)
            out.append(BracketColumn(_column_title(key, i, len(columns), double), number,
                                     drawn, empty=not shown))
        for column, after in pairwise(out):
            column.joined = len(column.nodes) == 2 * len(after.nodes) > 0
        sections.append(BracketSection(key, title, out))
    return sections


def tournament_view(t: Tournament, *, hidden: bool = False) -> TournamentView:
    page = tournament_page(t, hidden=hidden)
    fmt = formats.Format(t.format)
    rounds = [(number, [series_line(v) for v in views]) for number, views in page.rounds]
    lines = {line.view.key: line for _, views in rounds for line in views}
    playing = len(page.table) if page.table else len(page.entries)
    view = TournamentView(
        page=page, fmt=fmt, format_name=FORMAT_NAMES[fmt],
        current_round=rounds[-1][0] if rounds else 0,
        planned=planned_rounds(fmt, playing, options_of(t)),
        rounds=rounds, bracket=_bracket(page, lines, fmt),
        live_games=sum(1 for _, views in rounds for line in views for g in line.games
                       if g.live))
    if t.state == TournamentState.FINISHED and page.table:
        view.winner = page.table[0]
        view.tie = first_place_tie(page.table, fmt)
    view.columns = _columns(page.table, fmt, view.done)
    return view


def _columns(table: list[TableRow], fmt: formats.Format, done: bool) -> set[str]:
    """The standings' columns this format fills."""
    if fmt == formats.Format.SCORED:
        return {"mean", "played"}
    if fmt in ELIMINATION:
        # no points beside the record: "won 3" beside "2/0" read as a miscount; the record
        # says its byes itself ("2–0, 1 bye")
        return {"record", "played"} | ({"out"} if not done else set())
    shown = {"points", "record", "played", "draws", "game_points"}
    if any(row.byes for row in table):
        shown.add("byes")
    if any(row.buchholz is not None for row in table):
        shown.add("buchholz")
    if any(row.sonneborn_berger is not None for row in table):
        shown.add("sonneborn_berger")
    if fmt in ELIMINATION and not done:
        shown.add("out")
    return shown


def registration_open(t: Tournament, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return (t.state == TournamentState.REGISTRATION
            and t.registration_opens <= now < t.registration_closes)


def entrants_for(user: AnyUser, t: Tournament) -> tuple[list[Bot], list[Bot]]:
    """``user``'s bots of the tournament's game: those that may enter now (public, playing,
    not entered), and those that may not (for the page to say why)."""
    if not user.is_authenticated:
        return [], []
    entered = set(Entry.objects.filter(tournament=t, withdrawn=False)
                  .values_list("bot_id", flat=True))
    mine = list(Bot.objects.filter(owner_id=user.pk, game=t.game).order_by("name"))
    ok = [b for b in mine if b.plays and b.pk not in entered]
    return ok, [b for b in mine if b not in ok and b.pk not in entered]


# -- the list ----------------------------------------------------------------------------------

@dataclass
class ListRow:
    t: Tournament
    format_name: str
    current_round: int = 0
    planned: int | None = None
    winner: dict[str, Any] | None = None


def tournaments() -> dict[str, list[ListRow]]:
    """Running, upcoming and finished tournaments, each with what its row shows."""
    lists = tournament_list()
    running = list(lists["running"])
    current = dict(
        Tournament.objects.filter(pk__in=[t.pk for t in running])
        .annotate(current=Max("series__round")).values_list("pk", "current"))
    out: dict[str, list[ListRow]] = {"running": [], "upcoming": [], "finished": []}
    for t in running:
        out["running"].append(ListRow(
            t, format_name(t.format), current_round=current.get(t.pk) or 0,
            planned=planned_rounds(formats.Format(t.format), t.entered, options_of(t))))
    out["upcoming"] = [ListRow(t, format_name(t.format)) for t in lists["upcoming"]]
    for t in lists["finished"]:
        # a season's finals whose results are held back name no winner until released
        summary = (final_summary(t) if t.state == TournamentState.FINISHED
                   and not t.results_held else None)
        out["finished"].append(ListRow(t, format_name(t.format),
                                       winner=summary["winner"] if summary else None))
    return out


def final_summary(t: Tournament) -> dict[str, Any]:
    """A finished tournament's places and winner, kept once worked out: a finished
    tournament never changes."""
    stamp = t.finished_at.timestamp() if t.finished_at else 0
    key = f"tournament-final:{t.pk}:{stamp}"
    found = cache.get(key)
    if found is not None:
        return found
    table = tournament_table(t)
    top = table[0].entry if table else None
    found = {"ranks": {row.entry.pk: row.rank for row in table},
             "field": len(table),
             "winner": None if top is None else {
                 "bot_id": top.bot_id, "bot": top.bot.name,
                 "owner": top.bot.owner.get_username(),
                 "version": top.version.number if top.version else None}}
    cache.set(key, found, timeout=24 * 3600)
    return found


# -- a bot's page ----------------------------------------------------------------------------

@dataclass
class BotTournament:
    entry: Entry
    t: Tournament
    format_name: str
    place: int | None
    field_size: int | None


def bot_tournaments(bot: Bot, limit: int = 10) -> list[BotTournament]:
    entries = (Entry.objects.filter(bot=bot).select_related("tournament")
               .order_by("-tournament__starts_at")[:limit])
    out = []
    for e in entries:
        place = size = None
        if (e.tournament.state == TournamentState.FINISHED and not e.withdrawn
                and not e.tournament.results_held):
            summary = final_summary(e.tournament)
            place, size = summary["ranks"].get(e.pk), summary["field"]
        out.append(BotTournament(e, e.tournament, format_name(e.tournament.format), place,
                                 size))
    return out


@dataclass
class BotChallenge:
    challenge: Challenge
    made: bool
    """Made by this bot (else received)."""
    other: str
    other_bot: Bot | None
    wins: int
    losses: int
    draws: int


def bot_challenges(bot: Bot, user: AnyUser, limit: int = 10) -> list[BotChallenge]:
    """The bot's latest challenges, made and received, with its games won, lost and drawn;
    those with a bot ``user`` may not see are left out."""
    found = challenges_of_bot(bot.pk, limit=limit)
    tallies = challenge_tallies(found)
    out = []
    for c in found:
        wins, losses, draws = tallies.get(c.pk, (0, 0, 0))
        made = c.bot_id == bot.pk
        if made:
            other_bot = c.opponent
            other = c.opponent.name if c.opponent else f"built-in {c.opponent_builtin}"
        else:
            other_bot, other = c.bot, c.bot.name
            wins, losses = losses, wins
        out.append(BotChallenge(c, made, other, other_bot, wins, losses, draws))
    return out


def challenge_tallies(challenges: list[Challenge]) -> dict[int, tuple[int, int, int]]:
    """The challenger's games won, lost and drawn in each challenge: one query."""
    if not challenges:
        return {}
    version_of = {c.pk: c.version_id for c in challenges}
    rows = (Participant.objects
            .filter(match__challenge_game__challenge_id__in=list(version_of),
                    match__status=MatchStatus.FINISHED, version_id__in=set(version_of.values()))
            .values("match__challenge_game__challenge_id", "version_id")
            .annotate(**tally_counts()))
    out = {}
    for r in rows:
        pk = r["match__challenge_game__challenge_id"]
        if version_of[pk] == r["version_id"]:
            out[pk] = (r["wins"], r["losses"], r["draws"])
    return out


def challenger_bots(user: AnyUser, game: str, exclude: int | None = None) -> QuerySet[Bot]:
    """``user``'s bots that can play a challenge of ``game`` now."""
    if not user.is_authenticated:
        return Bot.objects.none()
    bots = Bot.objects.filter(PLAYS, owner_id=user.pk, game=game).order_by("name")
    return bots.exclude(pk=exclude) if exclude else bots


def competition_of(match: Match) -> dict[str, str] | None:
    """Where a tournament's or a challenge's game belongs, for its match page to link back."""
    if match.kind == MatchKind.TOURNAMENT:
        g = (SeriesGame.objects.filter(match_id=match.pk)
             .select_related("series__tournament").first())
        if g is None:
            return None
        t, s = g.series.tournament, g.series
        anchor = f"node-{s.key}" if t.format in ELIMINATION else f"series-{s.key}"
        return {"label": f"{t.name}: round {s.round}, series {s.key}, game {g.index + 1}",
                "url": f"{reverse('tournament', args=[t.pk])}#{anchor}"}
    if match.kind == MatchKind.CHALLENGE:
        row = ChallengeGame.objects.filter(match_id=match.pk).first()
        if row is None:
            return None
        return {"label": f"challenge {row.challenge_id}, game {row.index + 1}",
                "url": reverse("challenge", args=[row.challenge_id])}
    return None


def soon(t: Tournament, within: timedelta = timedelta(minutes=10)) -> bool:
    """Whether the tournament starts soon enough for its page to watch for the start."""
    return t.starts_at - timezone.now() <= within
