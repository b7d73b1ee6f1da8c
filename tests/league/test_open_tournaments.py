"""A tournament "open to the league's bots" (issue 38 item 6): at its start the league fills
the places its owners' entries left with bots of its game that play and whose owners take
challenges (the demo's do), the strongest on the ladder first; a bot whose owner refuses
challenges, one withdrawn, one retired or of another game stays out. Without the box only
owners enter. The form's box is checked in Chromium in test_tournament_words_browser.py."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from league.bots.models import Bot
from league.competitions.models import Entry
from league.competitions.services import entry_register, entry_withdraw
from league.ladders.models import Standing
from tests.league.conftest import People
from tests.league.pages import active
from tests.league.tournament_world import field, open_tournament, start


def rated(version: object, rating: float) -> None:
    Standing.objects.filter(version=version).update(mu=rating + 3, sigma=1.0)


@pytest.mark.parametrize("open_to_league_bots", [True, False])
def test_the_league_fills_the_free_places_with_bots_that_take_challenges(
        people: People, open_to_league_bots: bool) -> None:
    carol = User.objects.create_user("carol")
    own = field(people.alice, 1, prefix="own")
    t = open_tournament(people.alice, own, "round_robin", name="Open",
                        open_to_league_bots=open_to_league_bots, field_limit=3)
    strong, middle, weak = (active(carol, name) for name in ("strong", "middle", "weak"))
    rated(strong, 30), rated(middle, 20), rated(weak, 5)
    best = active(carol, "best-but-refuses")  # its owner refuses challenges
    rated(best, 40)
    Bot.objects.filter(pk=best.bot_id).update(accepts_challenges=False)
    gone = active(people.bob, "withdrew")
    rated(gone, 35)
    entry_register(tournament=t, bot=gone.bot, user=people.bob)
    entry_withdraw(tournament=t, bot=gone.bot, user=people.bob)
    retired = active(people.bob, "retired")
    Bot.objects.filter(pk=retired.bot_id).update(retired=True)
    active(carol, "other-game", game="blokus_duo")
    t = start(t)
    entered = dict(Entry.objects.filter(tournament=t, withdrawn=False)
                   .values_list("bot__name", "note"))
    if not open_to_league_bots:
        assert set(entered) == {"own0"}, entered
        assert t.state == "cancelled"  # one entry: too few, as before
        return
    # two places left: the two strongest that may be entered; the weakest left out
    assert set(entered) == {"own0", "strong", "middle"}, entered
    assert entered["own0"] == "" and entered["strong"].startswith("entered by the league")
    assert t.state == "running" and t.open_to_league_bots
