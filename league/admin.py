"""Admin for ratings: read-only, since they are rebuilt from the games."""

from django.contrib import admin

from games.admin import ReadOnlyAdmin
from league.models import (
    ClubEvent,
    Entry,
    InviteLink,
    JoinRequest,
    League,
    LeagueInvitation,
    Membership,
    Rating,
    RatingChange,
    Round,
    Season,
    Table,
    Tournament,
    TournamentEvent,
)


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "slug", "rating", "games", "openskill_mu", "openskill_sigma")
    list_filter = ("slug",)
    search_fields = ("user__username",)
    ordering = ("slug", "-rating")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("game", "user", "slug", "rank", "before", "after", "finished_at")
    list_filter = ("slug",)
    search_fields = ("user__username", "game__id")


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1


class InvitationInline(admin.TabularInline):
    """Who has been asked to join and has not answered; only they can accept."""

    model = LeagueInvitation
    extra = 0
    fields = ("user", "role", "invited_by", "created_at")
    readonly_fields = ("user", "invited_by", "created_at")

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # an organiser invites, on the league's page


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    """Seasons are validated by ``Season.clean``: dates in order, no overlap in a league."""

    list_display = ("name", "league", "starts_on", "ends_on")
    list_filter = ("league",)
    search_fields = ("name", "league__name")


class InviteLinkInline(admin.TabularInline):
    """Made and withdrawn by the organisers on the club page; shown here."""

    model = InviteLink
    extra = 0
    fields = ("created_at", "created_by", "expires_at", "max_uses", "uses", "revoked_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class JoinRequestInline(admin.TabularInline):
    """Answered by the organisers on the club page, so that the person is told."""

    model = JoinRequest
    extra = 0
    fields = ("user", "message", "created_at", "answer", "answered_by", "answered_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class ClubEventInline(admin.TabularInline):
    """The club's log: append-only."""

    model = ClubEvent
    extra = 0
    fields = ("created_at", "kind", "actor", "member", "data")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "visibility", "created_at")
    list_filter = ("visibility",)
    search_fields = ("name",)
    prepopulated_fields = {"slug": ("name",)}
    inlines = [
        MembershipInline,
        InvitationInline,
        SeasonInline,
        InviteLinkInline,
        JoinRequestInline,
        ClubEventInline,
    ]
    filter_horizontal = ("games",)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("user", "seed", "entered_after_round", "dropped_after_round", "answer")
    # The answer is the entrant's own (league.consent): nobody gives it for them here.
    readonly_fields = ("entered_after_round", "dropped_after_round", "answer")


class TournamentEventInline(admin.TabularInline):
    model = TournamentEvent
    extra = 0
    fields = ("kind", "data", "actor", "created_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Settings are editable here; pairings and results go through the organiser pages/API."""

    list_display = (
        "name",
        "slug",
        "format",
        "mode",
        "table_size",
        "rounds",
        "status",
        "created_at",
    )
    list_filter = ("slug", "format", "mode", "status")
    search_fields = ("name",)
    readonly_fields = ("status", "created_by", "created_at")
    filter_horizontal = ("organisers",)
    inlines = [EntryInline, TournamentEventInline]

    def has_delete_permission(self, request, obj=None):
        return False  # its tables hold games, whose logs are never deleted


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ("number", "game")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "attempt", "void", "created_at")
    list_filter = ("void",)
    inlines = [TableInline]
