from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from league.bots.models import Bot, BotVersion
from league.bots.services import bot_disable, bot_enable


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "owner", "active_version", "public", "retired", "disabled"]
    list_filter = ["game", "retired", "disabled", "public"]
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


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):
    list_display = ["bot", "number", "language", "size", "status", "reason", "created_at"]
    list_filter = ["status", "language", "bot__game"]
    exclude = ["archive"]
    readonly_fields = ["bot", "number", "sha256", "size", "language", "entry", "filename",
                       "status", "reason", "log", "validated_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # versions come only through the upload service
