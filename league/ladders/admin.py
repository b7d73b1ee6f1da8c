from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from league.bots.models import Bot
from league.bots.services import bot_enable
from league.ladders.models import (
    Ladder,
    Match,
    Participant,
    Season,
    SeasonPlace,
    SeasonState,
    Standing,
)
from league.ladders.seasons import SeasonError, finals_check, season_check, season_create
from league.ladders.services import bot_disable, match_rerun


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "owner", "active_version", "source_public", "retired",
                    "disabled"]
    list_filter = ["game", "retired", "disabled", "source_public"]
    search_fields = ["name", "owner__username"]
    readonly_fields = ["active_version", "created_at"]
    actions = ["disable", "enable"]

    @admin.action(description="Disable (leaves the board, queued matches cancelled)")
    def disable(self, request: HttpRequest, queryset: QuerySet[Bot]) -> None:
        for bot in queryset:
            bot_disable(bot=bot, reason=f"disabled by {request.user}")
        messages.info(request, f"disabled {queryset.count()} bot(s)")

    @admin.action(description="Enable again")
    def enable(self, request: HttpRequest, queryset: QuerySet[Bot]) -> None:
        for bot in queryset:
            bot_enable(bot=bot)


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ["title", "game", "kind", "backend", "active"]


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0
    can_delete = False
    fields = ["seat", "version", "builtin", "outcome", "score", "forfeit", "forfeit_detail",
              "moves", "time_used", "mu_before", "mu_after"]
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    """The queue: filter by status to see what waits, runs, or failed and why."""

    list_display = ["pk", "ladder", "kind", "status", "attempts", "claimed_by", "heartbeat_at",
                    "reason", "finished_at"]
    list_filter = ["status", "kind", "ladder"]
    inlines = [ParticipantInline]
    readonly_fields = [f.name for f in Match._meta.fields]
    actions = ["rerun"]

    @admin.action(description="Re-run (failed or cancelled matches)")
    def rerun(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        for match in queryset:
            match_rerun(match=match)
        messages.info(request, "re-queued the failed or cancelled ones")


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    list_display = ["ladder", "version", "mu", "sigma", "games", "wins", "losses", "draws"]
    list_filter = ["ladder"]


class SeasonForm(forms.ModelForm):
    """A new season is checked as the API's and the command's are (``seasons.season_check``);
    a season made stays as the tick moves it: its name, end and repeating may change."""

    repeat = forms.BooleanField(required=False, help_text="when it ends, the next one of the "
                                "same length follows (and repeats too)")

    class Meta:
        model = Season
        fields = ["ladder", "name", "starts_at", "ends_at", "carry", "finals_size",
                  "finals_format", "freeze_for_finals", "finals_release"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.instance.pk is None and not self.errors:
            try:
                season_check(ladder=data["ladder"], starts_at=data["starts_at"],
                             ends_at=data["ends_at"], carry=data["carry"], now=timezone.now())
                finals_check(ladder=data["ladder"], size=data["finals_size"],
                             format=data["finals_format"], release=data["finals_release"])
            except SeasonError as error:
                raise forms.ValidationError(str(error)) from None
        return data


class SeasonPlaceInline(admin.TabularInline):
    model = SeasonPlace
    extra = 0
    can_delete = False
    fields = ["place", "bot", "version", "games", "wins", "losses", "draws", "rating", "mean",
              "provisional"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    """Staff set seasons here: a start and an end, the carry, whether it repeats, its finals
    (the top N, the format, a freeze of their uploads, when their results show). The beat
    starts and ends them; an ended season's table is read-only, kept for ever."""

    list_display = ["ladder", "number", "name", "state", "starts_at", "ends_at", "carry",
                    "repeat_every", "finals_size"]
    list_filter = ["ladder", "state"]
    inlines = [SeasonPlaceInline]

    def get_form(self, request: HttpRequest, obj: Season | None = None, change: bool = False,
                 **kwargs: Any) -> Any:
        if obj is None:
            kwargs["form"] = SeasonForm
        return super().get_form(request, obj, change, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: Season | None = None) -> list[str]:
        if obj is None:
            return []
        fixed = ["ladder", "number", "state", "starts_at", "carry", "after_match",
                 "started_at", "ended_at", "finals_hold"]
        # the finals' options are the season's until it ends (then its finals are made)
        return fixed + (["ends_at", "repeat_every", "finals_size", "finals_format",
                         "freeze_for_finals", "finals_release"]
                        if obj.state == SeasonState.ENDED else [])

    def save_model(self, request: HttpRequest, obj: Season, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        data = form.cleaned_data
        made = season_create(ladder=data["ladder"], starts_at=data["starts_at"],
                             ends_at=data["ends_at"], name=data.get("name", ""),
                             carry=data["carry"], repeat=data.get("repeat", False),
                             finals_size=data["finals_size"],
                             finals_format=data["finals_format"],
                             freeze_for_finals=data["freeze_for_finals"],
                             finals_release=data["finals_release"])
        obj.pk = made.pk
        obj.refresh_from_db()
