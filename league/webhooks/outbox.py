"""The outbox: a fact's messages, one per webhook of the club, written in the transaction that
makes the fact true. A fact rolled back leaves no message; one that commits always has its
messages, whatever happens to the process next (league.webhooks.sending sends them).

Where each fact is written:

- pairings and standings: in league.services.tournaments, in the pairing's transaction (a
  round's standings once its last table's result is in: :func:`on_game_write`);
- a game's result and a dispute: in the game's own write, through the store's in-transaction
  hook (games.store.within_write, subscribed in league.apps). games.signals.game_finished
  comes only after the commit, when a crash could lose it; the hook runs before, in the
  same transaction as the GameFinished or ResultDisputed event. A club record final at once
  is linked to its club after that write (league.services.leagues.match_record), which
  then writes it itself.

A webhook's messages are numbered by taking ``last_seq + 1`` in an UPDATE of its row, which
holds that row until the transaction ends: two facts for one webhook get their numbers in
the order they commit, so the sender never sees message n+1 before message n exists.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import DEFAULT_DB_ALIAS, connection, transaction
from django.db.models import Q
from django.utils import timezone

from games.catalog import game_name
from games.models import EventKind, GameStatus
from league.models import League, OutboxMessage, Table, Tournament, Webhook
from league.selectors import tournament_standings
from league.webhooks import facts
from league.webhooks.facts import Fact, Where

log = logging.getLogger(__name__)

# The game events whose write carries news for the clubs (games.store.within_write).
GAME_KINDS = frozenset({EventKind.GAME_FINISHED, EventKind.RESULT_DISPUTED})


def post(league_ids: Iterable[int], fact: Fact, *, webhooks: list[Webhook] | None = None) -> int:
    """Write ``fact`` for each working webhook of these leagues (or for ``webhooks``), in the
    caller's transaction, and have it sent once that commits. Returns how many messages."""
    if webhooks is None:
        webhooks = list(
            Webhook.objects.filter(
                league_id__in=set(league_ids), active=True, stopped_at__isnull=True
            ).order_by("pk")
        )
    if not webhooks:
        return 0
    now = timezone.now()
    messages = []
    with transaction.atomic():
        for hook in sorted(webhooks, key=lambda w: w.pk):  # one lock order: no deadlock
            messages.append(
                OutboxMessage(
                    webhook=hook,
                    seq=_next_seq(hook.pk),
                    type=fact.type,
                    text=fact.text[:2000],
                    data=fact.data,
                    created_at=now,
                    next_attempt_at=now,
                )
            )
        OutboxMessage.objects.bulk_create(messages)
    ids = [hook.pk for hook in webhooks]
    transaction.on_commit(lambda: send_soon(ids))
    return len(messages)


def _next_seq(webhook_id: int) -> int:
    table = Webhook._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET last_seq = last_seq + 1 WHERE id = %s RETURNING last_seq",
            [webhook_id],
        )
        return cursor.fetchone()[0]


def send_soon(webhook_ids: list[int]) -> None:
    from league.tasks import deliver_webhook

    for pk in webhook_ids:
        try:
            deliver_webhook.delay(pk)
        except Exception:
            # The broker is away: the beat's sweep (league.tasks.sweep_webhooks) sends it.
            log.exception("webhook %s: could not queue its send", pk)


# -- the facts of a game --------------------------------------------------------------------------


def on_game_write(before, after, events, _connection) -> None:
    """games.store.within_write: a game's result became final, or was disputed. Most games
    belong to no club with a webhook: for them this is one query. The clubs live in the
    default database; a game written elsewhere (the store's own test databases) is no club's."""
    if after.db != DEFAULT_DB_ALIAS:
        return
    hooked = list(
        Webhook.objects.filter(active=True, stopped_at__isnull=True)
        .filter(
            Q(league__games=after.id) | Q(league__tournaments__round_set__tables__game=after.id)
        )
        .distinct()
        .order_by("pk")
    )
    if not hooked:
        return
    places = _places(after.id)
    name = game_name(after.slug)
    for event in events:
        if event.kind == EventKind.GAME_FINISHED and after.status == GameStatus.FINISHED:
            for league_id, where in places:
                fact = facts.result_recorded(
                    game_id=after.id,
                    game=name,
                    where=where,
                    result=list(after.result or []),
                    corrected=before.status == GameStatus.FINISHED,
                )
                post([league_id], fact, webhooks=[w for w in hooked if w.league_id == league_id])
            _round_complete(after.id, hooked)
        elif event.kind == EventKind.RESULT_DISPUTED:
            by = _username(event.actor_id)
            reason = (event.data or {}).get("reason") or ""
            for league_id, where in places:
                fact = facts.result_disputed(
                    game_id=after.id, game=name, where=where, by=by, reason=reason
                )
                post([league_id], fact, webhooks=[w for w in hooked if w.league_id == league_id])


def _places(game_id: int) -> list[tuple[int, Where]]:
    """Each club the game is news for, and where it was played: a club's record, or a table
    of one of its tournaments."""
    found: dict[int, Where] = {
        league.pk: Where(league=league.name) for league in League.objects.filter(games=game_id)
    }
    table = (
        Table.objects.filter(game_id=game_id, round__void=False)
        .select_related("round__tournament__league")
        .first()
    )
    if table is not None and table.round.tournament.league_id is not None:
        tournament = table.round.tournament
        found[tournament.league_id] = Where(
            league=tournament.league.name,
            tournament=tournament.name,
            round=table.round.number,
            table=table.number,
        )
    return sorted(found.items())


def _round_complete(game_id: int, hooked: list[Webhook]) -> None:
    """The game's round, if it was a tournament's table, is complete with it: the standings."""
    table = (
        Table.objects.filter(game_id=game_id, round__void=False)
        .select_related("round__tournament")
        .first()
    )
    if table is None or table.round.tournament.league_id is None:
        return
    round_ = table.round
    if round_.tables.exclude(game__status=GameStatus.FINISHED).exists():
        return
    tournament = round_.tournament
    rows = [r for r in tournament_standings(tournament) if not r["dropped"]]
    fact = facts.standings_changed(tournament=tournament.name, after_round=round_.number, rows=rows)
    post(
        [tournament.league_id],
        fact,
        webhooks=[w for w in hooked if w.league_id == tournament.league_id],
    )


def _username(user_id: int | None) -> str:
    from django.contrib.auth import get_user_model

    if user_id is None:
        return ""
    return (
        get_user_model().objects.filter(pk=user_id).values_list("username", flat=True).first() or ""
    )


# -- the facts of a tournament --------------------------------------------------------------------


def round_paired(
    tournament: Tournament, number: int, tables: list[tuple[int, list[str]]], byes: list[str]
) -> None:
    if tournament.league_id is None:
        return
    fact = facts.round_paired(tournament=tournament.name, number=number, tables=tables, byes=byes)
    post([tournament.league_id], fact)


def club_result(game, league: League) -> None:
    """A club record final as it was written, now that it is the club's (match_record)."""
    if game.status != GameStatus.FINISHED:
        return
    fact = facts.result_recorded(
        game_id=game.pk,
        game=game_name(game.slug),
        where=Where(league=league.name),
        result=list(game.result or []),
        corrected=False,
    )
    post([league.pk], fact)
