"""What a finished competition tells people (``league.notifications``): a challenge its
challenger, a tournament its creator and the owner of every bot entered."""

from __future__ import annotations

from django.urls import reverse

from league.competitions.models import Challenge, Entry, Tournament
from league.notifications.events import notify, site_link
from league.notifications.models import EventKind


def challenge_finished(c: Challenge) -> None:
    """In the transaction that finishes it: told once it commits."""
    link = site_link(reverse("challenge", args=[c.pk]))
    who = f"{c.bot.name} against {c.opponent_label}"
    notify(user_id=c.challenger_id, kind=EventKind.CHALLENGE_FINISHED, about=str(c.pk),
           title=f"Your challenge finished: {who}",
           text=f"Your challenge of {c.games} game{'s' if c.games != 1 else ''}, {who}, "
                f"has finished.\n\nSee the results: {link}",
           data={"challenge": {"id": c.pk, "bot": c.bot.name, "opponent": c.opponent_label,
                               "games": c.games}, "link": link})


def tournament_finished(t: Tournament) -> None:
    link = site_link(reverse("tournament", args=[t.pk]))
    owners = set(Entry.objects.filter(tournament=t, withdrawn=False)
                 .values_list("bot__owner_id", flat=True))
    for user_id in sorted(owners | ({t.created_by_id} if t.created_by_id else set())):
        notify(user_id=user_id, kind=EventKind.TOURNAMENT_FINISHED, about=str(t.pk),
               title=f"Tournament finished: {t.name}",
               text=f"The tournament {t.name} ({t.game}) has finished.\n\n"
                    f"See its results: {link}",
               data={"tournament": {"id": t.pk, "name": t.name, "game": t.game},
                     "link": link})
