"""A ladder with a past season (its table kept) and a running one, for the seasons' page,
API and browser tests: made through the services and the tick, as the beat would."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from league.ladders.models import Ladder, Season, Standing
from league.ladders.seasons import season_create, seasons_tick
from tests.league.conftest import People
from tests.league.pages import active

FINAL = [("queen-of-the-hill", 34.0, 1.8, 25, 20), ("runner-up", 30.0, 2.0, 20, 12),
         ("bronze-with-a-rather-long-name", 27.0, 1.9, 22, 10), ("fourth", 22.0, 1.5, 18, 6)]


@dataclass
class SeasonWorld:
    ladder: Ladder
    past: Season
    running: Season
    bots: dict[str, int]


def season_world(people: People) -> SeasonWorld:
    ladder = Ladder.objects.get(game="stones")
    versions = {name: active(people.alice if i % 2 else people.bob, name)
                for i, (name, *_) in enumerate(FINAL)}
    now = timezone.now()
    start = now - dt.timedelta(hours=1)
    past = season_create(ladder=ladder, starts_at=start, length=dt.timedelta(minutes=50),
                         now=start, name="Opening season", carry=0.5, repeat=True)
    seasons_tick(start)
    for name, mu, sigma, games, wins in FINAL:
        Standing.objects.filter(version=versions[name]).update(
            mu=mu, sigma=sigma, games=games, wins=wins, losses=games - wins - 1, draws=1)
    seasons_tick(past.ends_at)  # closes it; the next (50 minutes) runs until 40 from now
    past.refresh_from_db()
    running = Season.objects.get(ladder=ladder, state="running")
    return SeasonWorld(ladder, past, running,
                       {name: v.bot_id for name, v in versions.items()})
