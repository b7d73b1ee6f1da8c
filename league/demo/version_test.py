"""The demo's version test (issue 33): Testy Tess, a Stones bot whose first version plays at
random, and her second, the engine's perfect player, uploaded with a test: it becomes her
active version only once it beats the first, which a newcomer can watch being decided within
the first minutes of ``./dev up`` (the test is public).

Both versions are uploaded at once, the second asking for its test (``test_request``, as an
upload with a test does; the operator's own upload, so its checks that a person's upload
passes first are not asked: her first version is not active yet). Her second version's
validation may end before her first's: its test then starts at the beat's next tick
(``versiontests.uploads``). Made once: a league that has Tess already is left alone."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model

from league.bots.models import Bot
from league.demo.catalogue import BOTS
from league.ladders.services import version_upload

GAME = "stones"
NAME = "testy-tess"
OWNER = "carol"


def _source(player: str, summary: str) -> bytes:
    template = (BOTS / "builtin.py.tmpl").read_text()
    return template.format(summary=f"Testy Tess: {summary}", player=player,
                           time_limit='start.limits["move_time"]').encode()


WEAK = _source("random", "a uniformly random move (her second version, the perfect player, "
               "must beat this one in a version test to take its place).")
STRONG = _source("perfect", "the perfect player, uploaded with a test against her first "
                 "version: it takes her place on the ladder only if it wins the test.")


def demo_version_test_install() -> bool:
    """Upload Tess's two versions, the second with its test, unless she exists; whether she
    was made now."""
    owner = get_user_model().objects.filter(username=OWNER).first()
    if owner is None or Bot.objects.filter(game=GAME, name__iexact=NAME).exists():
        return False
    version_upload(owner=owner, game=GAME, name=NAME, filename="main.py", data=WEAK,
                   limited=False)
    version_upload(owner=owner, game=GAME, name=NAME, filename="main.py", data=STRONG,
                   limited=False, test_request={
                       "elo0": 0.0, "elo1": 50.0, "alpha": 0.05, "beta": 0.05,
                       "max_games": min(200, settings.LEAGUE_VERSION_TEST_MAX_GAMES),
                       "public": True})
    return True
