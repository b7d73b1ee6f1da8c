"""The demo's competitions: an elimination cup that plays out within a minute of ``./dev up``
and a Swiss that is still running after it, both official, made by the demo's host and
entered with the demo's bots (those whose validation has not passed by the start sit out).
The Swiss comes back every 15 minutes (``competitions.recurring``), open to the league's bots,
so a league that has run for days still shows one going on and the next one listed.

Run again at every start: a cup is made only if the demo has none yet, a Swiss only if none
comes back already (or, stopped by staff, none is waiting or running)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from league.bots.models import Bot
from league.competitions.models import DONE, Tournament
from league.competitions.services import entry_register, tournament_create
from league.demo.catalogue import DEMO_USERS

HOST = "league-host"
CUP = "Demo cup (Stones)"
SWISS = "Demo Swiss (Blokus Duo)"


@dataclass(frozen=True)
class Plan:
    name: str
    game: str
    format: str
    games: int
    rounds: int | None
    start_in: timedelta
    third_place: bool = False
    description: str = ""
    every: timedelta | None = None


PLANS = (
    Plan(CUP, "stones", "single_elimination", 2, None, timedelta(seconds=20),
         third_place=True,
         description="The demo's Stones bots in a seeded bracket with a match for third "
                     "place: it plays out in about a minute."),
    Plan(SWISS, "blokus_duo", "swiss", 2, 3, timedelta(seconds=45),
         description="The demo's Blokus Duo bots over three Swiss rounds, each pairing two "
                     "games with seats swapped on one seed. It comes back every 15 minutes.",
         every=timedelta(minutes=15)),
)


def demo_host() -> AbstractBaseUser:
    """The staff account the demo's tournaments are made by (nobody signs in as it)."""
    user, made = get_user_model().objects.get_or_create(
        username=HOST, defaults={"is_staff": True})
    if made:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def demo_competitions_install() -> list[Tournament]:
    """Make the demo's tournaments that are missing; the ones made."""
    host = demo_host()
    made = []
    for plan in PLANS:
        existing = Tournament.objects.filter(name=plan.name, created_by=host)
        if plan.name == CUP and existing.exists():
            continue
        if existing.exclude(state__in=DONE).exists() or existing.filter(
                recurrence__active=True).exists():
            continue
        bots = list(Bot.objects.filter(game=plan.game, owner__username__in=DEMO_USERS,
                                       retired=False, disabled=False))
        if len(bots) < 2:
            continue
        now = timezone.now()
        starts = now + plan.start_in
        t = tournament_create(
            user=host, name=plan.name, game=plan.game, format=plan.format,
            games_per_series=plan.games, rounds=plan.rounds, third_place=plan.third_place,
            field_limit=max(len(bots), 2), registration_closes=starts, starts_at=starts,
            official=True, description=plan.description, every=plan.every,
            open_to_league_bots=plan.every is not None)
        for bot in bots:
            entry_register(tournament=t, bot=bot, user=host, operator=True)
        made.append(t)
    return made

