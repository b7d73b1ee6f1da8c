"""What a version test's page shows (issue 33): the LLR chart drawn on the server as inline
SVG (no script is needed to read it, and it grows with the page's live parts), the form that
starts a test on the bot's page, and the context both are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms

from league.bots.models import Bot, BotVersion
from league.ladders.models import MatchStatus
from league.versiontests.models import TestState, VersionTest
from league.versiontests.progress import PLAYABLE
from league.versiontests.selectors import Summary, versiontest_summary, versiontests_of_bot

WIDTH, HEIGHT = 600, 240
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 28
"""The chart's drawing box inside its viewBox: room on the left for the LLR's ticks and
below for the pairs'."""


@dataclass(frozen=True)
class Chart:
    """An LLR chart's shapes, in viewBox units."""

    line: str
    """The polyline's points: the LLR after each pair, from 0 before the first."""
    last: tuple[float, float] | None
    upper_y: float
    lower_y: float
    zero_y: float
    x_ticks: list[tuple[float, str]]
    y_ticks: list[tuple[float, str]]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def _nice_step(span: float, ticks: int = 5) -> float:
    raw = span / ticks
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if step >= raw:
            return step
    return raw


def llr_chart(history: list[float], lower: float, upper: float) -> Chart:
    """The LLR over pairs against its two bounds; the x axis reaches at least 10 pairs so a
    young test's first steps do not fill the width."""
    values = [0.0, *history]
    low = min(lower, *values) - 0.3
    high = max(upper, *values) + 0.3
    pairs = max(len(history), 10)

    def x(i: float) -> float:
        return round(LEFT + (WIDTH - RIGHT - LEFT) * i / pairs, 1)

    def y(v: float) -> float:
        return round(TOP + (HEIGHT - BOTTOM - TOP) * (high - v) / (high - low), 1)

    points = [(x(i), y(v)) for i, v in enumerate(values)]
    step = _nice_step(pairs)
    x_ticks = [(x(i), str(i)) for i in range(0, pairs + 1, int(step))]
    y_step = 1 if high - low <= 10 else _nice_step(high - low)
    first = int(low // y_step) * y_step + y_step
    y_ticks = []
    v = first
    while v < high:
        y_ticks.append((y(v), f"{v:g}"))
        v += y_step
    return Chart(line=" ".join(f"{px},{py}" for px, py in points),
                 last=points[-1] if history else None, upper_y=y(upper), lower_y=y(lower),
                 zero_y=y(0.0), x_ticks=x_ticks, y_ticks=y_ticks)




def validated(bot: Bot) -> list[BotVersion]:
    """The bot's versions that may play a test, newest first."""
    return list(bot.versions.filter(status__in=PLAYABLE).order_by("-number")
                .defer("archive", "log"))


def _label(version: BotVersion, bot: Bot) -> str:
    return f"v{version.number}" + (" (active)" if version.pk == bot.active_version_id else "")


class VersionTestForm(forms.Form):
    """Start a test of one of the bot's versions against another (the API also takes any
    playing bot's version as the baseline). Its choices come from ``versions`` (the bot's
    validated ones, newest first), read once for the whole bot page."""

    candidate = forms.TypedChoiceField(coerce=int)
    baseline = forms.TypedChoiceField(coerce=int)
    elo0 = forms.FloatField(initial=0.0, label="elo0", min_value=-1000, max_value=1000)
    elo1 = forms.FloatField(initial=50.0, label="elo1", min_value=-1000, max_value=1000)
    alpha = forms.FloatField(initial=0.05, label="α", min_value=0.001, max_value=0.499)
    beta = forms.FloatField(initial=0.05, label="β", min_value=0.001, max_value=0.499)
    public = forms.BooleanField(required=False, label="public",
                                help_text="anyone may see the test (else you and staff)")

    def __init__(self, *args: Any, bot: Bot, versions: list[BotVersion] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.versions = {v.pk: v for v in (validated(bot) if versions is None else versions)}
        choices = [(pk, _label(v, bot)) for pk, v in self.versions.items()]
        self.fields["candidate"].choices = choices
        self.fields["baseline"].choices = choices
        if not self.is_bound:
            # the newest against the active one; when the newest is the active one (a new
            # version that validated plays at once), against the one before it
            newest = list(self.versions)[:2]
            candidate = newest[0] if newest else None
            baseline = bot.active_version_id
            if baseline == candidate:
                baseline = newest[1] if len(newest) > 1 else None
            self.initial.setdefault("candidate", candidate)
            self.initial.setdefault("baseline", baseline)

    def clean_candidate(self) -> BotVersion:
        return self.versions[self.cleaned_data["candidate"]]

    def clean_baseline(self) -> BotVersion:
        return self.versions[self.cleaned_data["baseline"]]


def bot_versiontests(user: Any, bot: Bot, form: VersionTestForm | None, mine: bool,
                     every_version: list[BotVersion]) -> dict[str, Any]:
    """The bot page's tests: those ``user`` may see, and the owner's form (when the bot has
    two validated versions to compare). ``every_version``: the page's, newest first."""
    if mine and form is None and not bot.disabled and not bot.retired:
        versions = [v for v in every_version if v.status in PLAYABLE]
        if len(versions) >= 2:
            form = VersionTestForm(bot=bot, versions=versions)
    tests = list(versiontests_of_bot(user, bot.pk)[:10])
    return {"versiontests": [versiontest_summary(t, with_games=False) for t in tests],
            "versiontest_form": form if mine else None}


def versiontest_context(test: VersionTest, user: Any) -> dict[str, Any]:
    summary: Summary = versiontest_summary(test)
    return {"s": summary, "t": test, "chart": llr_chart(test.history, summary.lower,
                                                         summary.upper),
            "done": test.state != TestState.RUNNING,
            "is_owner": user.is_authenticated and user.pk == test.owner_id,
            "may_cancel": user.is_authenticated and (user.pk == test.owner_id
                                                     or user.is_staff),
            "live": sum(1 for g in summary.games if g.status == MatchStatus.RUNNING),
            "counts": list(zip(["0", "½", "1", "1½", "2"], test.counts or [0] * 5,
                               strict=True))}
