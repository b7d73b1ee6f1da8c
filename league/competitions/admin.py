from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from league.competitions.errors import CompetitionError
from league.competitions.models import Challenge, Entry, Series, Tournament
from league.competitions.services import tournament_cancel


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["bot", "version", "seed", "withdrawn", "note", "registered_at"]
    readonly_fields = ["version", "seed", "registered_at"]
    raw_id_fields = ["bot"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "format", "state", "official", "starts_at", "created_by"]
    list_filter = ["state", "game", "format", "official"]
    search_fields = ["name", "created_by__username"]
    readonly_fields = ["seed", "started_at", "finished_at", "created_at"]
    inlines = [EntryInline]
    actions = ["cancel"]

    @admin.action(description="Cancel (games not yet played are cancelled)")
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for t in queryset:
            try:
                tournament_cancel(tournament=t, user=request.user, reason="cancelled by staff")
            except CompetitionError as error:
                messages.warning(request, str(error))


class ReadOnly(admin.ModelAdmin):
    """Rows the formats and the workers write: staff read them; an edit by hand would break
    what the rounds and tables are computed from (a tournament is cancelled, not edited)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Series)
class SeriesAdmin(ReadOnly):
    list_display = ["tournament", "round", "key", "kind", "first", "second", "games"]
    list_filter = ["tournament"]
    raw_id_fields = ["tournament", "first", "second"]


@admin.register(Challenge)
class ChallengeAdmin(ReadOnly):
    list_display = ["pk", "bot", "opponent_label", "games", "state", "challenger", "created_at"]
    list_filter = ["state"]
    raw_id_fields = ["bot", "version", "opponent", "opponent_version", "challenger"]
