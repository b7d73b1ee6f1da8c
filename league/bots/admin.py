"""Versions in the admin. Bots' admin, whose "disable" cancels matches, is ladders' (a
ladder's matches are above bots)."""

from django.contrib import admin
from django.http import HttpRequest

from league.bots.models import BotVersion


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):
    list_display = ["bot", "number", "language", "size", "status", "reason", "created_at"]
    list_filter = ["status", "language", "bot__game"]
    exclude = ["archive"]
    readonly_fields = ["bot", "number", "sha256", "size", "language", "entry", "filename",
                       "status", "reason", "log", "validated_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # versions come only through the upload service
