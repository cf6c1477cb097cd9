"""Admin for games: the stream head, its seats and its events, all read-only.

The event log holds millions of rows, so its list never counts them all (an estimate from the
planner's statistics stands in for the total) and is ordered by the primary key, newest first;
a game's page shows only its last events, with a link to all of them in the event list.
"""

from django.contrib import admin
from django.core.paginator import Paginator
from django.db import connections
from django.forms.models import BaseInlineFormSet
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.html import format_html

from games.models import Event, Game, Seat

LAST_EVENTS = 20  # shown on a game's admin page: the admin draws each row slowly (~5 ms)


class EstimatedCountPaginator(Paginator):
    """Counts exactly up to ``EXACT_UP_TO`` rows and estimates beyond: an unfiltered list
    from PostgreSQL's statistics (``pg_class.reltuples``), a filtered one as "at least".

    A page still holds exactly its rows; only the number of pages is approximate, and only
    for tables too large for anyone to page through."""

    EXACT_UP_TO = 10_000

    @cached_property
    def count(self) -> int:
        rows = self.object_list
        bounded = rows[: self.EXACT_UP_TO + 1].count()
        if bounded <= self.EXACT_UP_TO or rows.query.has_filters():
            return bounded
        estimate = _estimated_rows(rows.db, rows.model._meta.db_table)
        return max(bounded, estimate or 0)


def _estimated_rows(alias: str, table: str) -> int | None:
    connection = connections[alias]
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples::bigint FROM pg_class WHERE oid = %s::regclass", [table])
        row = cursor.fetchone()
    return row[0] if row and row[0] >= 0 else None


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "bot", "resigned")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user")


class LastEventsFormSet(BaseInlineFormSet):
    """Only the game's last ``LAST_EVENTS`` events, newest first, their actors with them."""

    def get_queryset(self):
        if not hasattr(self, "_last_events"):
            self._last_events = self.queryset.select_related("actor").order_by("-seq")[:LAST_EVENTS]
        return self._last_events


class EventInline(admin.TabularInline):
    model = Event
    formset = LastEventsFormSet
    extra = 0
    fields = ("seq", "kind", "seat", "actor", "data", "created_at")
    readonly_fields = fields
    can_delete = False
    verbose_name_plural = f"events (the last {LAST_EVENTS})"

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    """For logs and projections: seen in the admin, changed only by the services."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    """Every column is a projection of the events, and even a save that changes no field would
    move ``updated_at``, where a move's clock starts: so the admin only shows a game."""

    list_display = (
        "id",
        "slug",
        "status",
        "version",
        "current_player",
        "created_at",
        "finished_at",
    )
    list_filter = ("slug", "status")
    search_fields = ("id", "seats__user__username")
    # The index game_recent serves this order; the id makes it total, as the admin wants.
    ordering = ("-updated_at", "-id")
    paginator = EstimatedCountPaginator
    show_full_result_count = False
    readonly_fields = (*(field.name for field in Game._meta.concrete_fields), "all_events")
    inlines = [SeatInline, EventInline]

    @admin.display(description="events")
    def all_events(self, game: Game) -> str:
        # The version is the seq of the last event: the number of events, without a count.
        url = reverse("admin:games_event_changelist") + f"?game__id__exact={game.pk}"
        return format_html('<a href="{}">all {} events of this game</a>', url, game.version)


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "kind", "seat", "actor", "created_at")
    list_filter = ("kind",)
    list_select_related = ("game", "actor")
    search_fields = ("game__id",)
    # The newest first, by the primary key's index: no join, no sort.
    ordering = ("-id",)
    paginator = EstimatedCountPaginator
    show_full_result_count = False
    readonly_fields = (
        "game",
        "seq",
        "kind",
        "data",
        "seat",
        "actor",
        "batch",
        "idempotency_key",
        "created_at",
    )
