"""Notices and their delivery logs for staff, read-only (a webhook's secret is never shown)."""

from django.contrib import admin

from league.notifications.models import Attempt, Notice


class AttemptInline(admin.TabularInline):
    model = Attempt
    extra = 0
    can_delete = False
    readonly_fields = ["number", "at", "url", "status_code", "ok", "error", "ms", "response"]


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ["created_at", "user", "kind", "title", "email_state", "webhook_state"]
    list_filter = ["kind", "email_state", "webhook_state"]
    search_fields = ["user__username", "public_id", "title"]
    readonly_fields = ["public_id", "key", "user", "kind", "title", "text", "data",
                       "created_at", "email_state", "email_to", "email_error", "webhook_state",
                       "webhook_attempts"]
    inlines = [AttemptInline]
