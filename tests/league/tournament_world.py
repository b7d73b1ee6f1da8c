"""Tournaments and challenges for the page tests, made through the services and played
without workers: each released game's match is finished here, as a worker would finish it,
and the beat's tick moves the competition on."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.contrib.auth.models import User
from django.utils import timezone

from league.bots.models import BotVersion
from league.competitions.models import Tournament, TournamentState
from league.competitions.progress import competitions_tick
from league.competitions.services import entry_register, tournament_create
from league.ladders.lifecycle import OPEN
from league.ladders.models import Match, Participant
from tests.league.pages import active

Winner = Callable[[list[Participant]], int | None]
"""Which seat wins a game (None: a draw)."""


def older_wins(seats: list[Participant]) -> int | None:
    """The seat holding the earlier-made version wins: a fixed order of strength."""
    return min(seats, key=lambda p: p.version_id or 0).seat


def field(owner: User, n: int, game: str = "stones", prefix: str = "bot") -> list[BotVersion]:
    return [active(owner, f"{prefix}{i}", game=game) for i in range(n)]


def open_tournament(owner: User, versions: list[BotVersion], fmt: str = "swiss",
                    game: str = "stones", **options: object) -> Tournament:
    """A tournament in registration with ``versions``' bots entered (by their owners)."""
    now = timezone.now()
    options.setdefault("name", f"{fmt} cup")
    t = tournament_create(user=owner, game=game, format=fmt,
                          registration_closes=now + dt.timedelta(hours=1),
                          starts_at=now + dt.timedelta(hours=2), **options)
    for v in versions:
        entry_register(tournament=t, bot=v.bot, user=v.bot.owner)
    return t


def start(t: Tournament) -> Tournament:
    """Bring the start forward to now and let the beat start it."""
    past = timezone.now() - dt.timedelta(seconds=1)
    Tournament.objects.filter(pk=t.pk).update(registration_closes=past, starts_at=past)
    competitions_tick()
    t.refresh_from_db()
    return t


def finish_open(matches: list[Match] | None = None, winner: Winner = older_wins) -> int:
    """Finish open competition matches as a worker would (the given ones, or all)."""
    if matches is None:
        matches = list(Match.objects.filter(status__in=OPEN, kind__in=["tournament",
                                                                       "challenge"]))
    for m in matches:
        seats = list(Participant.objects.filter(match=m).order_by("seat"))
        if len(seats) == 1:
            Participant.objects.filter(pk=seats[0].pk).update(score=100.0 + m.pk % 7)
        else:
            won = winner(seats)
            for p in seats:
                outcome = "draw" if won is None else "win" if p.seat == won else "loss"
                Participant.objects.filter(pk=p.pk).update(outcome=outcome)
        Match.objects.filter(pk=m.pk).update(status="finished", reason="game-over",
                                             finished_at=timezone.now(), moves=10,
                                             attempts=1)
    return len(matches)


def play_rounds(t: Tournament, rounds: int | None = None, winner: Winner = older_wins
                ) -> Tournament:
    """Play the started tournament's games round by round (``rounds`` of them, or to the
    end)."""
    for played in range(200):
        t.refresh_from_db()
        if t.state != TournamentState.RUNNING or (rounds is not None and played >= rounds):
            return t
        current = t.series.order_by("-round").values_list("round", flat=True).first()
        while True:
            competitions_tick()
            playing = Match.objects.filter(series_game__series__tournament=t,
                                           series_game__series__round=current,
                                           status__in=OPEN)
            if not finish_open(list(playing), winner):
                break
    t.refresh_from_db()
    return t
