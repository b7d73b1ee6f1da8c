from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from league.bots.models import Bot
from league.bots.services import bot_enable
from league.ladders.models import Ladder, Match, Participant, Standing
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
