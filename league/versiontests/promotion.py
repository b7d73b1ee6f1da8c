"""What the end of an upload's test does to its candidate (issue 33, "upload with a test"):
H1 makes it the bot's active version, anything else leaves it off the ladder with why, and
the version that was active keeps playing. Runs in the test's finishing transaction, under
the test's row lock, so a test ends and settles its candidate once."""

from __future__ import annotations

from league.bots.models import Bot, BotVersion, VersionStatus
from league.ladders.seasons import finals_hold_of, version_hold
from league.ladders.services import version_make_active
from league.versiontests.models import TestState, VersionTest

OUTCOMES = {
    TestState.H0: "it is not stronger than v{baseline}",
    TestState.UNDECIDED: "no verdict within its {max_games} games",
    TestState.CANCELLED: "its test was cancelled ({reason})",
}


def promotion_settle(test: VersionTest) -> None:
    """Promote or leave out the candidate of an ended test that ``promotes``."""
    if not test.promotes:
        return
    version = BotVersion.objects.select_for_update().defer("archive").get(pk=test.candidate_id)
    if version.status != VersionStatus.TESTING:
        return  # settled already, or retired with its bot
    bot = Bot.objects.select_for_update(of=("self",)).get(pk=version.bot_id)
    baseline = test.baseline.number
    if test.state == TestState.H1:
        why = _why_not_promoted(test, bot)
        if not why and (season := finals_hold_of(ladder_id=test.ladder_id,
                                                 bot_id=bot.pk)) is not None:
            version_hold(version, season)  # its bot plays in frozen finals: it waits
            return
        if not why:
            version.reason = f"passed its test against v{baseline} (test {test.pk})"
            version_make_active(version=version, bot=bot, ladder=test.ladder)
            return
        stays = f"passed its test against v{baseline}, but {why}"
    else:
        outcome = OUTCOMES.get(test.state, "its test ended {state}").format(
            baseline=baseline, max_games=test.max_games, reason=test.reason or "no reason",
            state=test.state)
        stays = f"{outcome} (test {test.pk})"
    version.status = VersionStatus.RETIRED
    version.reason = f"{stays}: it stays inactive"[:2000]
    version.save(update_fields=["status", "reason"])


def _why_not_promoted(test: VersionTest, bot: Bot) -> str:
    """Why an H1 does not make the candidate active ("" when it does): it beat a version that
    is no longer the one playing, or its bot left the ladder meanwhile."""
    if bot.retired or bot.disabled:
        return f"{bot.name} left the ladder meanwhile"
    if bot.active_version_id != test.baseline_id:
        current = (BotVersion.objects.filter(pk=bot.active_version_id)
                   .values_list("number", flat=True).first())
        return (f"v{current} became the active version meanwhile" if current else
                "the version it was tested against is no longer active")
    return ""
