"""Admin for ratings: read-only, since they are rebuilt from the games."""

from django.contrib import admin

from league.models import Rating, RatingChange


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


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
