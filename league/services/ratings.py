"""Rating services: take finished games into the ratings in the order they ended.

``ratings_update`` is what the Celery task runs when a game ends: it rates every finished game
of that game type not yet rated, in order, in time that does not grow with the games rated
before (``RatedGame`` is the ledger of rated games, and the last of them the watermark). A
duplicate task finds nothing to do; a late one (a game that ended before games already rated)
makes it recompute that game type from the start, so the numbers always equal a full
recompute.

A game someone in it has not agreed to (league.consent) takes its place in the ledger held
(``consent`` "waiting"), rating nobody. When they agree (the task is asked again for that game,
or the sweep finds it) its marker goes and it is taken in as any late game is; a refusal makes
the marker final ("refused": never rated). The sweep re-reads only the waiting games'
agreement, so a game that stays held costs it a few queries and no recompute.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import F, Max

from games.models import Game, GameStatus
from league import consent
from league.models import RatedGame, Rating, RatingChange, RatingLedger
from league.ratings import EloLadder, Glicko2Ladder, OpenSkillLadder, day_number

BATCH = 2000
AGREED, WAITING = RatedGame.Consent.AGREED, RatedGame.Consent.WAITING


@dataclass
class Ladders:
    elo: EloLadder
    openskill: OpenSkillLadder
    glicko: Glicko2Ladder  # the rating shown (league.rating_scale)

    @classmethod
    def fresh(cls) -> Ladders:
        return cls(EloLadder(k=elo_k()), OpenSkillLadder(), Glicko2Ladder())


def elo_k() -> float:
    return settings.HADAL_ELO_K


@dataclass
class RecomputeResult:
    games: int
    players: int
    changed: int


def finished_games(slug: str):
    return (
        Game.objects.filter(slug=slug, status=GameStatus.FINISHED, result__isnull=False)
        .order_by("finished_at", "pk")
        .prefetch_related("seats")
    )


def _lock(slug: str) -> None:
    RatingLedger.objects.get_or_create(slug=slug)
    RatingLedger.objects.select_for_update().get(slug=slug)


def table_of(game: Game) -> tuple[list[int], list[int]] | str:
    """The game's players (user ids by seat) and ranks, or why it cannot be rated. Guests at
    a recorded table are left out; the members keep their ranks (Elo only compares them)."""
    seats = sorted(game.seats.all(), key=lambda s: s.index)
    members = [
        (seat.user_id, entry["rank"])
        for seat, entry in zip(seats, game.result)
        if seat.user_id is not None
    ]
    users = [user for user, _ in members]
    if len(users) < 2:
        return "fewer than two members"
    if len(set(users)) < len(users):
        return "one player held several seats"
    return users, [rank for _, rank in members]


def rated_tables(slug: str) -> list[tuple[list[int], list[int]]]:
    """The players and ranks of every game of ``slug`` the ratings take in, in order: those
    everyone in them agreed to (league.consent) with two members or more."""
    games = list(finished_games(slug))
    held = consent.holds(games)
    return [
        table
        for game in games
        if game.pk not in held and not isinstance(table := table_of(game), str)
    ]


def _rate(
    game: Game, ladders: Ladders, hold: consent.Hold | None = None
) -> tuple[RatedGame, list[RatingChange]]:
    """Rate one game on the ladders, unless it is ``hold``-en (league.consent); the rows that
    record it (not yet saved)."""
    table = table_of(game)
    if isinstance(table, str) or hold is not None:
        # Fewer than two members is no game to rate, whoever agreed; else it waits (or not).
        skipped, agreement = (
            (table, RatedGame.Consent.AGREED)
            if isinstance(table, str) or hold is None
            else hold.marked
        )
        return RatedGame(
            game=game,
            slug=game.slug,
            finished_at=game.finished_at,
            version=game.version,
            skipped=skipped,
            consent=agreement,
        ), []
    users, ranks = table
    elo = ladders.elo.rate(users, ranks)
    skill = ladders.openskill.rate(users, ranks)
    # Each player's deviation first grows with the days since their own last game.
    glicko = ladders.glicko.rate(users, ranks, when=day_number(game.finished_at))
    changes = [
        RatingChange(
            game=game,
            user_id=user,
            slug=game.slug,
            finished_at=game.finished_at,
            seat=seat,
            rank=rank,
            before=e_before,
            after=e_after,
            openskill_mu_before=s_before[0],
            openskill_sigma_before=s_before[1],
            openskill_mu_after=s_after[0],
            openskill_sigma_after=s_after[1],
            glicko_rating_before=g_before[0],
            glicko_deviation_before=g_before[1],
            glicko_rating_after=g_after[0],
            glicko_deviation_after=g_after[1],
        )
        for seat, (user, rank, (e_before, e_after), (s_before, s_after), (g_before, g_after)) in (
            enumerate(zip(users, ranks, elo, skill, glicko))
        )
    ]
    return RatedGame(
        game=game, slug=game.slug, finished_at=game.finished_at, version=game.version
    ), changes


def _rating_rows(slug: str, users: Iterable[Hashable], ladders: Ladders) -> list[Rating]:
    rows = []
    for user in users:
        mu, sigma = ladders.openskill.rating(user)
        glicko, deviation, volatility = ladders.glicko.rating(user)
        rows.append(
            Rating(
                user_id=user,
                slug=slug,
                rating=ladders.elo.rating(user),
                games=ladders.elo.games.get(user, 0),
                openskill_mu=mu,
                openskill_sigma=sigma,
                glicko_rating=glicko,
                glicko_deviation=deviation,
                glicko_volatility=volatility,
            )
        )
    return rows


@transaction.atomic
def ratings_update(*, slug: str, game_id: int | None = None) -> int:
    """Rate the finished games of ``slug`` not yet rated (recomputing where order or a
    correction demands); returns how many games were taken in.

    Given the game that just finished or was corrected (``game_id``), the cost does not grow
    with the games rated before it: only that game is checked, and the unrated games are those
    after the last one rated, read from an index. Without it (the sweep), every game is."""
    _lock(slug)
    if game_id is None:
        _release(RatedGame.objects.filter(slug=slug, consent=WAITING))  # those now unrated
        last = _last_rated(slug)
        unrated = list(finished_games(slug).filter(rated__isnull=True))
        corrected = (
            RatedGame.objects.filter(slug=slug, consent=AGREED)
            .exclude(version=F("game__version"))
            .exists()
        )
        late = bool(unrated) and last is not None and (unrated[0].finished_at, unrated[0].pk) < last
    else:
        asked = Game.objects.filter(pk=game_id, slug=slug).select_related("rated").first()
        ledger = getattr(asked, "rated", None)
        # A game someone had not agreed to: released if they now have, else kept up to date.
        waited = ledger is not None and ledger.consent != AGREED
        if ledger is not None and waited and _release([ledger]):
            ledger = None
        last = _last_rated(slug)
        unrated = list(_finished_after(slug, last))
        corrected = (
            asked is not None
            and ledger is not None
            and not waited
            and ledger.version != asked.version
        )
        late = (
            asked is not None
            and ledger is None
            and asked.status == GameStatus.FINISHED
            and last is not None
            and (asked.finished_at, asked.pk) < last
        )
    if not unrated and not corrected and not late:
        return 0
    if corrected or late:
        # A corrected result, or a game that ended before games already rated: the order
        # matters, so start over.
        recomputed = ratings_recompute(slug=slug)
        taken = len(unrated) + (1 if late and game_id is not None else 0)  # the late one too
        return taken or recomputed.games
    ladders = Ladders.fresh()
    touched = {seat.user_id for game in unrated for seat in game.seats.all()}
    # when each last played: their Glicko-2 deviation ages from there to their next game
    played = dict(
        RatingChange.objects.filter(slug=slug, user_id__in=touched)
        .values("user_id")
        .annotate(last=Max("finished_at"))
        .values_list("user_id", "last")
    )
    for row in Rating.objects.filter(slug=slug, user_id__in=touched):
        ladders.elo.ratings[row.user_id] = row.rating
        ladders.elo.games[row.user_id] = row.games
        ladders.openskill.set_rating(row.user_id, row.openskill_mu, row.openskill_sigma)
        last = played.get(row.user_id)
        ladders.glicko.set_rating(
            row.user_id,
            (row.glicko_rating, row.glicko_deviation, row.glicko_volatility),
            day_number(last) if last is not None else None,
        )
    rated, changes = [], []
    held = consent.holds(unrated)
    for game in unrated:
        marker, rows = _rate(game, ladders, held.get(game.pk))
        rated.append(marker)
        changes.extend(rows)
    RatedGame.objects.bulk_create(rated)
    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_create(
        _rating_rows(slug, {change.user_id for change in changes}, ladders),
        update_conflicts=True,
        unique_fields=["user", "slug"],
        update_fields=[
            "rating",
            "games",
            "openskill_mu",
            "openskill_sigma",
            "glicko_rating",
            "glicko_deviation",
            "glicko_volatility",
            "updated_at",
        ],
    )
    return len(unrated)


@transaction.atomic
def ratings_recompute(
    *, slug: str, progress: Callable[[int], None] | None = None
) -> RecomputeResult:
    """Rebuild every rating of ``slug`` from its finished games, in the order they ended."""
    return _rebuild(slug, progress)


@transaction.atomic
def ratings_rebuild(
    *, slugs: Iterable[str], progress: Callable[[int], None] | None = None
) -> dict[str, RecomputeResult]:
    """Rebuild the ratings of every game type of ``slugs`` in one transaction, so that they
    all change at its commit: a page reading several game types' ratings sees all of them as
    they were or all rebuilt, never some of each (docs/ratings.md, "Rebuilding the ratings").

    Each game type's ledger row is locked as its turn comes, in slug order (the one order every
    locker follows, so two rebuilds cannot deadlock), and held to the commit: a game ending
    meanwhile has its ``ratings_update`` wait there, then taken in after the rebuilt ones, as
    any game after the watermark is. ``progress`` is told of each game rebuilt."""
    return {slug: _rebuild(slug, progress) for slug in sorted(set(slugs))}


def _rebuild(slug: str, progress: Callable[[int], None] | None) -> RecomputeResult:
    """Rebuild ``slug``'s ratings inside the caller's transaction."""
    _lock(slug)
    before = dict(Rating.objects.filter(slug=slug).values_list("user_id", "rating"))
    RatingChange.objects.filter(slug=slug).delete()
    RatedGame.objects.filter(slug=slug).delete()
    Rating.objects.filter(slug=slug).delete()
    ladders = Ladders.fresh()
    games = 0
    games_in_order = finished_games(slug).iterator(chunk_size=BATCH)
    while batch := list(itertools.islice(games_in_order, BATCH)):
        rated, changes = [], []
        held = consent.holds(batch)
        for game in batch:
            marker, rows = _rate(game, ladders, held.get(game.pk))
            rated.append(marker)
            changes.extend(rows)
            if progress is not None:
                progress(1)
        games += len(batch)
        RatedGame.objects.bulk_create(rated)
        RatingChange.objects.bulk_create(changes)
    users = set(ladders.elo.ratings)
    Rating.objects.bulk_create(_rating_rows(slug, users, ladders), batch_size=BATCH)
    changed = sum(
        1
        for user in users
        if user not in before or abs(before[user] - ladders.elo.rating(user)) > 1e-9
    )
    changed += len(set(before) - users)
    return RecomputeResult(games=games, players=len(users), changed=changed)


def _last_rated(slug: str):
    """Where the ratings of ``slug`` stand: the (finished_at, game id) of the last game rated.
    Games are rated in that order, so every finished game after it is unrated."""
    return (
        RatedGame.objects.filter(slug=slug)
        .order_by("-finished_at", "-game_id")
        .values_list("finished_at", "game_id")
        .first()
    )


def _finished_after(slug: str, last):
    games = finished_games(slug)
    if last is None:
        return games
    finished_at, game_id = last
    # One range of the index on (slug, finished_at), less the ties already rated.
    return games.filter(finished_at__gte=finished_at).exclude(
        finished_at=finished_at, pk__lte=game_id
    )


def _release(markers: Iterable[RatedGame]) -> int:
    """Of the markers of games someone had not agreed to, remove those of games everyone now
    agrees to (they are then unrated, and taken in as late games are), and bring the others'
    up to date; how many were released."""
    markers = list(markers)
    if not markers:
        return 0
    games = Game.objects.filter(pk__in=[m.game_id for m in markers]).prefetch_related("seats")
    by_id = {game.pk: game for game in games}
    held = consent.holds(list(by_id.values()))
    released, changed = [], []
    for marker in markers:
        game, hold = by_id[marker.game_id], held.get(marker.game_id)
        if hold is None and game.status == GameStatus.FINISHED:
            released.append(marker.pk)
        elif hold is not None and (marker.skipped, marker.consent, marker.version) != (
            *hold.marked,
            game.version,
        ):
            (marker.skipped, marker.consent), marker.version = hold.marked, game.version
            changed.append(marker)
    RatedGame.objects.filter(pk__in=released).delete()
    RatedGame.objects.bulk_update(changed, ["skipped", "consent", "version"])
    return len(released)


def slugs_with_unrated_games() -> list[str]:
    """Game types with a finished game not rated yet, rated before a correction, or held until
    someone agreed who now has."""
    unrated = Game.objects.filter(status=GameStatus.FINISHED, rated__isnull=True)
    corrected = RatedGame.objects.filter(consent=AGREED).exclude(version=F("game__version"))
    held = list(Game.objects.filter(rated__consent=WAITING).prefetch_related("seats"))
    still = consent.holds(held)
    return sorted(
        set(unrated.values_list("slug", flat=True))
        | set(corrected.values_list("slug", flat=True))
        | {game.slug for game in held if game.pk not in still}
    )
