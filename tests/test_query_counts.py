"""Every page and API listing answers in the same number of queries at 10 rows as at 100.

Each test grows the rows a page shows (games, events, tables, ratings, members) from 10 to 100
with bulk inserts and counts the page's queries at both sizes: a query per row (an N+1) shows
as a difference. bench/bench_scale.py measures the same pages' times at millions of events.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Event, EventKind, Game, GameMode, GameStatus, Seat
from games.play import reads, services
from games.store import state_cache
from league.models import League, Membership, Rating, RatingChange
from league.services import leagues, tournaments
from league.services.ratings import ratings_update
from league.tournament_spec import TournamentSpec

pytestmark = pytest.mark.django_db
User = get_user_model()
DSA = "deep-sea-adventure"
SIZES = (10, 100)
_names = itertools.count()


def unique(prefix: str) -> str:
    return f"{prefix}{next(_names)}"


def new_users(count: int, prefix: str = "p") -> list:
    return User.objects.bulk_create([User(username=unique(prefix)) for _ in range(count)])


def new_games(
    count: int,
    *,
    player=None,
    status: str = GameStatus.ACTIVE,
    slug: str = DSA,
    mode: str = GameMode.PLAY,
) -> list[Game]:
    """``count`` two-seat games, each against an opponent of its own (so that a query per
    seat's user shows), with ``player`` in seat 0 if given; each with its GameCreated event."""
    now = timezone.now()
    finished = status == GameStatus.FINISHED
    opponents = new_users(count * (1 if player else 2), "opp")
    games = Game.objects.bulk_create(
        [
            Game(
                slug=slug,
                mode=mode,
                rules_version=0 if mode == GameMode.RECORD else 1,
                num_players=2,
                status=status,
                version=1,
                current_player=None if finished else 0,
                finished_at=now - dt.timedelta(minutes=count - i) if finished else None,
                result=None,
            )
            for i in range(count)
        ]
    )
    seated = iter(opponents)
    seats, events = [], []
    for game in games:
        first = player or next(seated)
        second = next(seated)
        seats += [Seat(game=game, index=0, user=first), Seat(game=game, index=1, user=second)]
        if finished:
            game.result = [
                {"player": first.username, "score": 2, "rank": 1},
                {"player": second.username, "score": 1, "rank": 2},
            ]
        events.append(created_event(game, actor=first))
    Seat.objects.bulk_create(seats)
    Event.objects.bulk_create(events)
    if finished:
        Game.objects.bulk_update(games, ["result"])
    return games


def created_event(game: Game, *, actor) -> Event:
    return Event(
        game=game,
        seq=1,
        batch=1,
        kind=EventKind.GAME_CREATED,
        data={"game": game.slug, "mode": game.mode, "num_players": 2},
        actor=actor,
    )


def query_counts(client, url: str, grow: Callable[[int], object], **how) -> list[int]:
    """The number of queries ``url`` makes after ``grow`` has brought its rows to each size."""
    counts, have = [], 0
    for size in SIZES:
        grow(size - have)
        have = size
        counts.append(queries_of(client, url, **how))
    return counts


def queries_of(client, url: str, *, cold: Callable[[], object] = lambda: None) -> int:
    """The queries of a second request: the first fills the process's caches (content types);
    ``cold`` empties what should not be cached."""
    client.get(url)
    cold()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(queries)


def assert_flat(counts: list[int]) -> None:
    assert counts[0] == counts[1], f"queries at {SIZES[0]} and {SIZES[1]} rows: {counts}"


@pytest.fixture
def member(client, alice):
    client.force_login(alice)
    return client


@pytest.fixture
def staff(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.org", "pw"))
    return client


# -- games ----------------------------------------------------------------------------------------


def test_the_home_page(member, alice):
    def grow(count):
        new_games(count, player=alice)
        new_games(count)
        new_games(count, status=GameStatus.FINISHED)

    assert_flat(query_counts(member, "/", grow))


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?scope=mine",
        "?scope=all",
        "?scope=all&status=active",
        "?scope=mine&status=finished",
        f"?scope=all&game={DSA}",
        f"?scope=all&status=finished&game={DSA}",
    ],
)
def test_the_games_api_listing(api, alice, query):
    def grow(count):
        new_games(count, player=alice)
        new_games(count, player=alice, status=GameStatus.FINISHED)
        new_games(count)

    assert_flat(query_counts(api, f"/api/games/{query}", grow))


def test_a_game_page_with_its_log(member, alice, bob):
    """A played game's page replays its log and shows it: moves made through the service."""
    game = services.game_create(
        slug="ventlife", seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )
    users = {0: alice, 1: bob}

    def grow(count):
        """``count`` more events (a move and the chance outcomes it leads to), cold cache."""
        game.refresh_from_db()
        target = game.version + count
        while game.version < target:
            seat = game.current_player
            action = reads.game_legal_actions(game=game, user=users[seat], seat=seat)[0]
            services.game_action_append(
                game=game, seat=seat, expected_version=game.version, action=action, user=users[seat]
            )
            game.refresh_from_db()

    # The page reads its state from the database, not from this process's cache of heads.
    assert_flat(query_counts(member, f"/games/{game.pk}/", grow, cold=state_cache.clear))


def test_a_recorded_game_page_with_many_confirmations(member, alice):
    """Each event's actor is a different member: their names come with the events."""
    (game,) = new_games(1, player=alice, mode=GameMode.RECORD)
    seq = itertools.count(2)

    def grow(count):
        Event.objects.bulk_create(
            [
                Event(
                    game=game,
                    seq=(n := next(seq)),
                    batch=n,
                    kind=EventKind.RESULT_CONFIRMED,
                    data={},
                    actor=user,
                )
                for user in new_users(count, "confirmer")
            ]
        )

    assert_flat(query_counts(member, f"/games/{game.pk}/", grow))


# -- players and ratings --------------------------------------------------------------------------


def rated(games: list[Game]) -> None:
    """Rating rows for finished games, as the ratings services would write them."""
    changes, ratings = [], {}
    for game in games:
        for seat in game.seats.all():
            changes.append(
                RatingChange(
                    game=game,
                    user_id=seat.user_id,
                    slug=game.slug,
                    finished_at=game.finished_at,
                    seat=seat.index,
                    rank=seat.index + 1,
                    before=1500,
                    after=1510 - 20 * seat.index,
                    openskill_mu_before=25,
                    openskill_mu_after=25,
                    openskill_sigma_before=8,
                    openskill_sigma_after=8,
                )
            )
            ratings[seat.user_id] = Rating(
                user_id=seat.user_id,
                slug=game.slug,
                rating=1500 + seat.user_id % 97,
                games=1,
                openskill_mu=25,
                openskill_sigma=8,
            )
    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_create(
        ratings.values(),
        update_conflicts=True,
        unique_fields=["user", "slug"],
        update_fields=["rating", "games"],
    )


@pytest.mark.parametrize("url", ["/players/alice/", "/api/players/alice/"])
def test_a_player_page(member, alice, url):
    """Rated in two game types, one of them recorded from tables only (no rule module)."""

    def grow(count):
        rated(new_games(count, player=alice, status=GameStatus.FINISHED))
        rated(new_games(count, player=alice, status=GameStatus.FINISHED, slug="oceans"))
        new_games(count, player=alice)

    assert_flat(query_counts(member, url, grow))


@pytest.mark.parametrize(
    "url", [f"/ratings/{DSA}/", f"/api/ratings/?game={DSA}", "/api/players/", "/ratings/"]
)
def test_the_leaderboards_and_players(member, url):
    def grow(count):
        rated(new_games(count, status=GameStatus.FINISHED))

    response_url = url
    if url == "/ratings/":  # a redirect to the most played game's board
        response = member.get(url)
        assert response.status_code == 302
        response_url = response["Location"]
    assert_flat(query_counts(member, response_url, grow))


@pytest.mark.parametrize(
    "url",
    [f"/ratings/{DSA}/", "/api/players/", "/api/games/?scope=all"],
)
def test_bot_accounts_are_told_apart_in_the_same_queries(member, url):
    """Whether each player is a bot account is read with the players (their profiles joined),
    never a query a row: every opponent here is one."""
    from accounts.models import Profile

    def grow(count):
        games = new_games(count, status=GameStatus.FINISHED)
        rated(games)
        opponents = {seat.user_id for game in games for seat in game.seats.all()}
        Profile.objects.bulk_create(
            [Profile(user_id=user, bot_since=timezone.now()) for user in opponents]
        )

    assert_flat(query_counts(member, url, grow))


# -- leagues and tournaments ----------------------------------------------------------------------


@pytest.mark.parametrize("page", ["/leagues/{slug}/", "/api/leagues/{slug}/", "/leagues/"])
def test_a_league_page(member, alice, page):
    league = leagues.league_create(name="Harbour club", created_by=alice)

    def grow(count):
        users = new_users(count, "member")
        Membership.objects.bulk_create([Membership(league=league, user=u) for u in users])
        finished = new_games(count, player=alice, status=GameStatus.FINISHED, mode="record")
        league.games.add(*finished)
        rated(finished)
        League.objects.bulk_create([League(name=unique("club"), slug=unique("club"))])

    assert_flat(query_counts(member, page.format(slug=league.slug), grow))


@pytest.mark.parametrize(
    "page",
    [
        "/tournaments/{pk}/",
        "/api/tournaments/{pk}/",
        "/api/tournaments/{pk}/rounds/",
        "/api/tournaments/{pk}/standings/",
        "/tournaments/",
        "/api/tournaments/",
    ],
)
def test_a_tournament_page_in_table_mode(member, alice, page):
    """One round of ``size`` tables; every second table has a result reported, and the
    tournament is paired again for each size (a round holds every entrant)."""
    state: dict = {}

    def grow(count):
        size = count + state.get("tables", 0)
        state["tables"] = size
        players = [u.username for u in new_users(2 * size, "entrant")]
        tournament = tournaments.tournament_create(
            spec=TournamentSpec(
                name=unique("Open "),
                game=DSA,
                format="swiss",
                table_size=2,
                rounds=1,
                mode="table",
                players=players,
            ),
            created_by=alice,
        )
        round_ = tournaments.round_pair(tournament=tournament, by=alice)
        for table in list(round_.tables.select_related("game"))[::2]:
            names = [s.user.username for s in table.game.seats.order_by("index")]
            tournaments.table_report(
                tournament=tournament,
                table=table,
                user=table.game.seats.get(index=0).user,
                results=[
                    {"player": names[0], "score": 3, "rank": 1},
                    {"player": names[1], "score": 1, "rank": 2},
                ],
            )
        state["pk"] = tournament.pk

    counts, have = [], 0
    for size in SIZES:
        grow(size - have)
        have = size
        counts.append(queries_of(member, page.format(pk=state["pk"])))
    assert_flat(counts)


def test_rating_one_game_does_not_read_every_rated_game(alice):
    """Rating the game that just ended costs the same with 10 or 100 games rated before it."""
    counts = []
    for size in SIZES:
        Game.objects.filter(status=GameStatus.FINISHED).update(status=GameStatus.VOID)
        earlier = new_games(size, status=GameStatus.FINISHED)
        assert ratings_update(slug=DSA, game_id=earlier[-1].pk) >= 1
        (last,) = new_games(1, status=GameStatus.FINISHED)
        Game.objects.filter(pk=last.pk).update(finished_at=timezone.now())
        with CaptureQueriesContext(connection) as queries:
            assert ratings_update(slug=DSA, game_id=last.pk) == 1
        counts.append(len(queries))
        # A query count cannot see a scan: every read of the games is also bounded, by the
        # game's id or by the index range after the last game rated.
        for query in queries.captured_queries:
            sql = query["sql"]
            if sql.startswith("SELECT") and '"games_game"' in sql:
                assert re.search(r'"games_game"\."(id" = \d|finished_at" >= \S)', sql), sql
    assert_flat(counts)


# -- the admin ------------------------------------------------------------------------------------


def test_the_admin_event_list(staff):
    def grow(count):
        new_games(count)

    assert_flat(query_counts(staff, "/admin/games/event/", grow))


def test_the_admin_game_list(staff):
    assert_flat(query_counts(staff, "/admin/games/game/", new_games))


def test_a_games_admin_page_shows_its_last_events_in_a_fixed_number_of_queries(staff, alice):
    (game,) = new_games(1, player=alice)
    seq = itertools.count(2)

    def grow(count):
        Event.objects.bulk_create(
            [
                Event(
                    game=game,
                    seq=(n := next(seq)),
                    batch=n,
                    kind=EventKind.ACTION_APPLIED,
                    data={"action": {"type": "roll"}},
                    seat=0,
                    actor=user,
                )
                for user in new_users(count, "mover")
            ]
        )
        Game.objects.filter(pk=game.pk).update(version=n)

    assert_flat(query_counts(staff, f"/admin/games/game/{game.pk}/change/", grow))
    page = staff.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert f"?game__id__exact={game.pk}" in page and f"all {next(seq) - 1} events" in page
    assert staff.get(f"/admin/games/event/?game__id__exact={game.pk}").status_code == 200


# -- the plans on PostgreSQL ----------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.parametrize(
    ("url", "ordered_by_an_index"),
    [
        ("/api/games/?scope=all", True),
        ("/api/games/?scope=all&status=active", True),
        (f"/api/games/?scope=all&game={DSA}", True),
        (f"/api/games/?scope=all&status=finished&game={DSA}", True),
        # A player's own games: their seats by index, then the few of them sorted.
        ("/api/games/?scope=mine", False),
        ("/api/games/?scope=mine&status=finished", False),
        ("/", False),
        ("/admin/games/event/", True),
        ("/admin/games/game/", True),
    ],
)
def test_each_listing_reads_games_and_events_by_an_index(staff, alice, url, ordered_by_an_index):
    """The listings' own queries, explained with scans and sorts priced out of reach (the
    test tables are small enough that the planner would rather scan and sort): what remains
    is what no index can do. None scans games or events, and the listings over every game
    read their rows in order from an index. (Which index a filter picks is the planner's
    choice at this size; bench/bench_scale.py shows the plans at a million events.)"""
    for slug in (DSA, "ventlife", "abyss", "deep-vents"):  # most games finished, as in life
        new_games(10, player=alice, slug=slug)
        new_games(50, status=GameStatus.FINISHED, slug=slug)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_game")
    listing = (
        [q for q in capture(staff, url) if "LIMIT" in q and "COUNT(" not in q]
        if ordered_by_an_index
        else capture(staff, url)
    )
    assert listing
    with connection.cursor() as cursor:
        for setting in ("seqscan", "bitmapscan", "sort"):
            cursor.execute(f"SET LOCAL enable_{setting} = off")
        for sql in listing:
            if '"games_game"' not in sql and '"games_event"' not in sql:
                continue
            cursor.execute("EXPLAIN " + sql)
            plan = "\n".join(row[0] for row in cursor.fetchall())
            assert "Seq Scan on games_game" not in plan and "Seq Scan on games_event" not in plan, (
                sql,
                plan,
            )
            if ordered_by_an_index and "ORDER BY" in sql:
                assert "Sort" not in plan, (sql, plan)


def capture(client, url: str) -> list[str]:
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
