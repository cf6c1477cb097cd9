"""Admin for games: the stream head, its seats and its events, all read-only.

The event log holds millions of rows, so its list never counts them all (an estimate from the
planner's statistics stands in for the total) and is ordered by the primary key, newest first;
a game's page shows only its last events, with a link to all of them in the event list.

Nothing here is edited, so the event list and a game's seats and events are drawn as plain
tables from values formatted once (games/admin_rows.py), not through the admin's per-cell
display machinery or a formset per inline: that machinery was nine tenths of those pages.
"""

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.core.paginator import Paginator
from django.db import connections
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.html import format_html

from games.admin_rows import event_rows, events_table, seats_table
from games.catalog import game_types
from games.models import Event, Game

LAST_EVENTS = 20  # shown on a game's admin page, the newest first
LIST_COLUMNS = ("id", "game", "seq", "kind", "seat", "actor", "created_at")


class EstimatedCountPaginator(Paginator):
    """Counts exactly up to ``EXACT_UP_TO`` rows and estimates beyond: an unfiltered list
    from PostgreSQL's statistics (``pg_class.reltuples``), a filtered one as "at least".

    A page still holds exactly its rows; only the number of pages is approximate, and only
    for tables too large for anyone to page through. An unfiltered list of a table the
    statistics put far beyond that (``ESTIMATE_FROM``) is not counted at all; a smaller one
    is counted in the same query that reads the estimate. The bounded count ignores the
    list's order, which would only make it sort."""

    EXACT_UP_TO = 10_000
    ESTIMATE_FROM = 100_000

    @cached_property
    def count(self) -> int:
        rows = self.object_list
        if not rows.query.has_filters():
            known = _estimated_or_counted(rows, self.ESTIMATE_FROM, self.EXACT_UP_TO + 1)
            if known is not None:
                estimate, bounded = known
                if bounded is None:
                    return estimate
                return bounded if bounded <= self.EXACT_UP_TO else max(bounded, estimate)
        return rows.order_by()[: self.EXACT_UP_TO + 1].count()


def _estimated_or_counted(rows, estimate_from: int, limit: int) -> tuple[int, int | None] | None:
    """(the planner's estimate of the table's rows, and unless that is ``estimate_from`` or
    more, a count of them up to ``limit``), in one query; None off PostgreSQL."""
    connection = connections[rows.db]
    if connection.vendor != "postgresql":
        return None
    table = connection.ops.quote_name(rows.model._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT greatest(reltuples, 0)::bigint, CASE WHEN reltuples < %s THEN"
            f" (SELECT count(*) FROM (SELECT 1 FROM {table} LIMIT %s) bounded) END"
            " FROM pg_class WHERE oid = %s::regclass",
            [estimate_from, limit, rows.model._meta.db_table],
        )
        estimate, bounded = cursor.fetchone()
    return estimate, bounded


class GameTypeFilter(admin.SimpleListFilter):
    """The game types from the catalog, not a DISTINCT over every game's slug (a scan of the
    games on every page of the list)."""

    title = "game"
    parameter_name = "slug__exact"

    def lookups(self, request, model_admin):
        return [(slug, kind.name) for slug, kind in game_types().items()]

    def queryset(self, request, queryset):
        return queryset.filter(slug=self.value()) if self.value() else queryset


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
    list_filter = (GameTypeFilter, "status")
    search_fields = ("id", "seats__user__username")
    # The index game_recent serves this order; the id makes it total, as the admin wants.
    ordering = ("-updated_at", "-id")
    paginator = EstimatedCountPaginator
    show_full_result_count = False
    fields = (
        *(field.name for field in Game._meta.concrete_fields),
        "seat_table",
        "last_events",
        "all_events",
    )
    readonly_fields = fields

    def get_queryset(self, request):
        # A game's page names its creator and scorekeeper: read with the game, not after.
        queryset = super().get_queryset(request)
        if request.resolver_match and request.resolver_match.url_name == "games_game_change":
            queryset = queryset.select_related("created_by", "scorekeeper")
        return queryset

    @admin.display(description="seats")
    def seat_table(self, game: Game) -> str:
        return seats_table(game.seats.select_related("user").order_by("index"))

    @admin.display(description=f"events (the last {LAST_EVENTS})")
    def last_events(self, game: Game) -> str:
        newest = game.events.select_related("actor").order_by("-seq")[:LAST_EVENTS]
        return events_table(event_rows(newest, data=True))

    @admin.display(description="events")
    def all_events(self, game: Game) -> str:
        # The version is the seq of the last event: the number of events, without a count.
        url = reverse("admin:games_event_changelist") + f"?game__id__exact={game.pk}"
        return format_html('<a href="{}">all {} events of this game</a>', url, game.version)


class EventChangeList(ChangeList):
    """The page's events with their cells formatted once (``event_rows``), reading only the
    columns those cells show (not the events' data nor their games' JSON)."""

    def get_queryset(self, request, exclude_parameters=None):
        return (
            super()
            .get_queryset(request, exclude_parameters)
            .only(*LIST_COLUMNS, "game__id", "game__slug", "actor__username")
        )

    def get_results(self, request):
        super().get_results(request)
        self.rows = event_rows(self.result_list)


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "kind", "seat", "actor", "created_at")
    list_filter = ("kind",)
    list_select_related = ("game", "actor")
    search_fields = ("game__id",)
    # The newest first, by the primary key's index: no join, no sort (and no other order
    # offered: any other would sort millions of rows).
    ordering = ("-id",)
    sortable_by = ()
    change_list_template = "admin/games/event/change_list.html"
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

    def get_changelist(self, request, **kwargs):
        return EventChangeList
