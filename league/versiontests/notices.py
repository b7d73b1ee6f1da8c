"""A version test's end told to its owner (``league.notifications``): its verdict in words."""

from __future__ import annotations

from django.urls import reverse

from league.notifications.events import notify, site_link
from league.notifications.models import EventKind
from league.versiontests.models import TestState, VersionTest

VERDICTS = {
    TestState.H1: "{candidate} is stronger than {baseline}",
    TestState.H0: "{candidate} is not stronger than {baseline} by the margin tested",
    TestState.UNDECIDED: "No verdict within the cap of {cap} games",
    TestState.CANCELLED: "Cancelled: {reason}",
}
TITLES = {TestState.H1: "stronger", TestState.H0: "not stronger",
          TestState.UNDECIDED: "no verdict", TestState.CANCELLED: "cancelled"}
"""The verdict's words (the test's page says the same with its Elo estimate; its selectors
import this app's progress, which tells of the end, so they are not imported here)."""


def versiontest_decided(test: VersionTest) -> None:
    """In the transaction that ends it: told once it commits."""
    link = site_link(reverse("versiontest", args=[test.pk]))
    candidate, baseline = test.candidate, test.baseline
    words = VERDICTS.get(test.state, "{candidate}: {state}").format(
        candidate=f"v{candidate.number}", baseline=str(baseline), cap=test.max_games,
        reason=test.reason or "no reason given", state=test.state)
    words += f", after {2 * test.pairs} games"
    notify(user_id=test.owner_id, kind=EventKind.VERSIONTEST_DECIDED, about=str(test.pk),
           title=f"Version test of {test.bot.name} v{candidate.number}: "
                 f"{TITLES.get(test.state, test.state)}",
           text=f"Your version test of {candidate} against {baseline} has ended.\n\n"
                f"{words}.\n\nSee it: {link}",
           data={"test": {"id": test.pk, "state": test.state, "verdict": words,
                          "candidate": candidate.pk, "baseline": baseline.pk,
                          "llr": test.llr, "pairs": test.pairs}, "link": link})
