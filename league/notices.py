"""What league tells members in their inbox (inbox.services): rounds paired with their table,
check-in to do, a tournament over, requests to join their club and its answers. Each is written
in the transaction that makes it true, so a notice is never of something rolled back, and
never missing for something that stands."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.urls import reverse

from inbox import services as inbox
from league.models import League, Table, Tournament


def tell(
    user_ids: Iterable[int | None], kind: str, text: str, url: str, key: str = "", **data
) -> None:
    """Tell each member; a walk-in (no account: None) has no inbox and is skipped."""
    for user_id in sorted({u for u in user_ids if u is not None}):
        inbox.notify(user_id, kind, text, url, key=key, data=data)


def tournament_url(tournament: Tournament) -> str:
    return reverse("tournament-detail", args=[tournament.pk])


def round_paired(
    tournament: Tournament,
    number: int,
    tables: list[tuple[int | None, int | None, list[int | None]]],
) -> None:
    """Each player of round ``number``: their table's number and game, or their bye.
    ``tables`` lists (table number, game id, user ids); the byes come with no table."""
    from games.catalog import game_name

    online = tournament.mode == Tournament.Mode.ONLINE
    for table, game_id, user_ids in tables:
        if table is None:
            text = f"Round {number} of {tournament.name} is paired: you have a bye"
            url = tournament_url(tournament)
        else:
            text = f"Round {number} of {tournament.name}: you play at table {table}"
            if online:
                text += f" ({game_name(tournament.slug)} here, in your browser)"
            url = (
                reverse("game-detail", args=[game_id])
                if online and game_id
                else tournament_url(tournament)
            )
        extra = {"tournament": tournament.name, "round": number, "game": game_id, "table": table}
        tell(user_ids, "round_paired", text, url, **extra)
    # Check-in is over once round 1 is paired: whoever did not check in is dropped.
    inbox.done(f"tournament:{tournament.pk}:check-in")


def check_in_open(tournament: Tournament, user_id: int | None) -> None:
    """An entry in a tournament with check-in: it waits for the player to check in."""
    tell(
        [user_id],
        "check_in",
        f"Check in for {tournament.name}: round 1 drops whoever has not",
        tournament_url(tournament),
        key=f"tournament:{tournament.pk}:check-in",
    )


def check_in_closed(tournament: Tournament) -> None:
    """Check-in is over: nobody's check-in waits any longer (the no-shows are dropped)."""
    inbox.done(f"tournament:{tournament.pk}:check-in")


def checked_in(tournament: Tournament, user_id: int | None) -> None:
    if user_id is None:
        return
    inbox.done(f"tournament:{tournament.pk}:check-in", user_ids=[user_id])


def tournament_finished(tournament: Tournament, champion: str | None) -> None:
    players = tournament.entries.filter(waitlisted=False).values_list("user_id", flat=True)
    text = f"{tournament.name} is over" + (f": {champion} won" if champion else "")
    tell(players, "tournament", text, tournament_url(tournament))


def join_asked(league: League, organisers: Iterable[int], by) -> None:
    tell(
        organisers,
        "join_request",
        f"{by.username} asks to join {league.name}",
        reverse("league-detail", args=[league.slug]),
        key=f"league:{league.pk}:request:{by.pk}",
        league=league.slug,
    )


def join_answered(league: League, user_id: int) -> None:
    inbox.done(f"league:{league.pk}:request:{user_id}")


def club_news(users: Iterable[int], text: str, league: League, url: str = "", **extra: Any):
    tell(
        users,
        "club",
        text,
        url or reverse("league-detail", args=[league.slug]),
        league=league.slug,
        **extra,
    )


def record_stewards(sender, *, game, **kwargs) -> list[int]:
    """Who settles a dispute of ``game`` (games.signals.record_stewards): the organisers of the
    leagues it belongs to, and of the tournament whose table it is."""
    from league.models import ORGANISING, Membership

    ids = set(
        Membership.objects.filter(league__in=game.leagues.all(), role__in=ORGANISING).values_list(
            "user_id", flat=True
        )
    )
    table = Table.objects.filter(game=game).select_related("round__tournament").first()
    if table is not None:
        ids.update(table.round.tournament.organisers.values_list("pk", flat=True))
    return sorted(ids)
