"""Tournaments for the API and terminal tests that need no worker: made and entered through
the services, started by moving the clock past their start, and their games "played" by
finished matches written here, with results chosen by a fixed rule. The competitions' own
code (``progress.tournament_advance``) pairs every round from those results, as it does
when a worker ends a match; the tests with real workers are test_tournaments.py and
test_api_competitions_live.py."""

from __future__ import annotations

import datetime as dt
import hashlib

from django.contrib.auth.models import User
from django.utils import timezone

from league.bots.models import BotVersion
from league.competitions.models import SeriesGame, Tournament, TournamentState
from league.competitions.progress import tournament_advance
from league.competitions.services import entry_register, tournament_create
from league.ladders.models import Match, MatchKind, Participant
from tests.league import bots
from tests.league.pages import active


def bot_field(owners: list[User], n: int, game: str = "stones", prefix: str = "entrant"
              ) -> list[BotVersion]:
    """``n`` public bots with a validated version, owned in turn by ``owners``."""
    return [active(owners[i % len(owners)], f"{prefix}{i}", game=game,
                   source=[bots.RANDOM, bots.FIRST][i % 2]) for i in range(n)]


def make_tournament(creator: User, fmt: str = "round_robin", game: str = "stones",
                    **options: object) -> Tournament:
    """Open for registration now; starting in an hour (``start_now`` moves the clock)."""
    now = timezone.now()
    return tournament_create(user=creator, name=f"{fmt} cup", game=game, format=fmt,
                             registration_closes=now + dt.timedelta(minutes=59),
                             starts_at=now + dt.timedelta(hours=1), **options)


def enter(t: Tournament, versions: list[BotVersion]) -> None:
    for v in versions:
        entry_register(tournament=t, bot=v.bot, user=v.bot.owner)


def registration_over(t: Tournament) -> None:
    """As if the start time had come: registration closed, the beat's next tick starts it.

    Moved here rather than set a second ahead at creation: a loaded machine can take longer
    than any such margin to create and enter the field, and then the times are in the past
    when submitted, or registration closes before the last entry.
    """
    now = timezone.now()
    Tournament.objects.filter(pk=t.pk).update(registration_closes=now, starts_at=now)


def start_now(t: Tournament) -> Tournament:
    """``registration_over``, then the tick's advance, here and now."""
    registration_over(t)
    tournament_advance(tournament_id=t.pk)
    t.refresh_from_db()
    return t


def outcome(key: str, index: int) -> int | None:
    """Which seat wins a game (``None``: a draw), fixed by the series and the game."""
    value = hashlib.sha256(f"{key}:{index}".encode()).digest()[0] % 5
    return None if value == 4 else value % 2


def play_released(t: Tournament) -> int:
    """Finish every game the tournament owes now with a match of its own; how many. As
    ``progress.release`` does, a game of a bot disabled by staff gets none."""
    played = 0
    for g in (SeriesGame.objects.filter(series__tournament=t, match=None,
                                        first__bot__disabled=False)
              .exclude(second__bot__disabled=True)
              .select_related("series", "first", "second")):
        now = timezone.now()
        match = Match.objects.create(ladder=t.ladder, kind=MatchKind.TOURNAMENT, seed=g.index,
                                     status="finished", attempts=1, started_at=now,
                                     finished_at=now, reason="game-over", moves=10,
                                     result={}, options=t.options, limits=t.limits)
        seats = [g.first] + ([g.second] if g.second_id else [])
        winner = outcome(g.series.key, g.index)
        for seat, entry in enumerate(seats):
            if len(seats) == 1:
                result = {"score": float(100 + 37 * ((entry.pk * 7 + g.index) % 11))}
            elif winner is None:
                result = {"outcome": "draw"}
            else:
                result = {"outcome": "win" if seat == winner else "loss"}
            Participant.objects.create(match=match, seat=seat, version_id=entry.version_id,
                                       moves=5, **result)
        g.match = match
        g.save(update_fields=["match"])
        played += 1
    return played


def play_to_the_end(t: Tournament, rounds: int = 40) -> Tournament:
    for _ in range(rounds):
        tournament_advance(tournament_id=t.pk)
        t.refresh_from_db()
        if t.state != TournamentState.RUNNING:
            return t
        play_released(t)
    raise AssertionError(f"{t} did not finish in {rounds} passes")
