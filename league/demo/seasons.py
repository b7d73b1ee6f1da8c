"""The demo's seasons: the Stones ladder, where the demo's bots play most, runs seasons of 15
minutes that repeat, each carrying half of every rating's lead, so a league started a quarter
of an hour ago already shows a past season's table, its podium and the bots' places, and the
ladder's page counts down to the next end. Each ends in small finals: the top four play a
single elimination, made and played by the league a beat after the end. Made once: a ladder
with a season (staff may have set their own) is left alone."""

from __future__ import annotations

from datetime import timedelta

from league.ladders.models import Ladder, Season
from league.ladders.seasons import season_create

GAME = "stones"
LENGTH = timedelta(minutes=15)
CARRY = 0.5
FINALS = 4
FINALS_FORMAT = "single_elimination"


def demo_seasons_install() -> Season | None:
    """The demo's first season, if the ladder has none yet; the beat starts it at once."""
    ladder = Ladder.objects.filter(game=GAME, active=True).first()
    if ladder is None or Season.objects.filter(ladder=ladder).exists():
        return None
    return season_create(ladder=ladder, length=LENGTH, repeat=True, carry=CARRY,
                         finals_size=FINALS, finals_format=FINALS_FORMAT)
