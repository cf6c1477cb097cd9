"""Admin for games: the stream head, its seats and its events, all read-only."""

from django.contrib import admin

from games.models import Event, Game, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "bot", "resigned")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class EventInline(admin.TabularInline):
    model = Event
    extra = 0
    fields = ("seq", "kind", "seat", "actor", "data", "created_at")
    readonly_fields = fields
    can_delete = False
    ordering = ("seq",)

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
    readonly_fields = tuple(field.name for field in Game._meta.concrete_fields)
    inlines = [SeatInline, EventInline]


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "kind", "seat", "actor", "created_at")
    list_filter = ("kind",)
    search_fields = ("game__id",)
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
