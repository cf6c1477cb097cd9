"""The league pages: leagues, tournaments (with table-mode reporting and organiser controls)
and recording a club game. Every change goes through a page's form, and these tests check the
services did it (or refused, and nothing changed)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Event, Game, GameStatus
from games.records import reads as record_reads
from games.records import services as records
from games.records import table_results
from league import selectors
from league.models import League, Membership, Round, Season, Tournament
from league.services import leagues, tournaments
from league.services.ratings import ratings_update
from league.tournament_spec import TournamentSpec
from tests.games.shown import shown
from tests.league.members import join

pytestmark = pytest.mark.django_db
DSA, DV = "deep-sea-adventure", "deep-vents"


@pytest.fixture
def players(make_user):
    return {name: make_user(name) for name in ("ann", "ben", "cat", "dan")}


@pytest.fixture
def org(make_user):
    return make_user("org")


def as_user(client, user):
    client.logout()
    client.force_login(user)
    return client


def text(response) -> str:
    return response.content.decode()


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# -- navigation -----------------------------------------------------------------------------------


def test_the_nav_links_to_leagues_tournaments_and_recording(client):
    page = text(client.get(reverse("game-list")))
    for name in ("leagues", "tournaments", "match-new"):
        assert f'href="{reverse(name)}"' in page


# -- leagues --------------------------------------------------------------------------------------


def test_anyone_sees_the_leagues_and_a_signed_in_user_opens_one(client, alice):
    leagues.league_create(name="Harbour club", created_by=alice)
    page = client.get(reverse("leagues"))
    assert page.status_code == 200 and "Harbour club" in text(page)
    assert 'id="new-league"' not in text(page) and "to open a league" in text(page)

    response = as_user(client, alice).post(
        reverse("leagues"), {"name": "Trench society", "description": "Thursdays"}
    )
    league = League.objects.get(name="Trench society")
    assert response.status_code == 302
    assert response.url == reverse("league-detail", args=[league.slug])
    assert Membership.objects.get(league=league).role == "owner"


def test_a_league_name_taken_is_a_form_error(client, alice):
    leagues.league_create(name="Harbour club", created_by=alice)
    response = as_user(client, alice).post(reverse("leagues"), {"name": "Harbour Club"})
    assert response.status_code == 200
    assert "exists already" in text(response)
    assert League.objects.count() == 1


def test_an_anonymous_league_post_asks_to_sign_in(client):
    response = client.post(reverse("leagues"), {"name": "Ghost club"})
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert not League.objects.exists()


@pytest.fixture
def club(alice, bob):
    league = leagues.league_create(
        name="Harbour club", description="Deep games on Thursdays", created_by=alice
    )
    join(league, "bob", by=alice)
    return league


def test_the_league_page_shows_members_seasons_standings_games_and_tournaments(
    client, alice, bob, club
):
    leagues.season_add(league=club, name="Winter", starts_on=dt.date(2026, 1, 1), by=alice)
    game = leagues.match_record(
        game="oceans",
        played_at="2026-01-08",
        league=club.slug,
        results=[
            {"player": "alice", "score": 80, "rank": 1},
            {"player": "Zoe", "score": 70, "rank": 2, "guest": True},
            {"player": "bob", "score": 60, "rank": 3},
        ],
        recorded_by=bob,
    )
    leagues.match_confirm(game=game, by=alice)
    ratings_update(slug="oceans")
    cup = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Winter cup",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=1,
            mode="table",
            players=["alice", "bob"],
            league=club,
        ),
        created_by=alice,
    )
    page = client.get(reverse("league-detail", args=[club.slug]))
    assert page.status_code == 200
    body = text(page)
    assert "Deep games on Thursdays" in body
    assert [(m.user.username, m.role) for m in page.context["members"]] == [
        ("alice", "owner"),
        ("bob", "member"),
    ]
    assert "Winter" in body and "1 Jan 2026" in body
    # Winter runs from 1 Jan 2026 with no end: it is the current season, and shown.
    assert page.context["choice"].season.name == "Winter"
    assert [(r["player"], r["points"]) for r in page.context["standings"]] == [
        ("alice", 5),
        ("bob", 1),
    ]
    assert "Oceans (with The Deep promo pack 2)" in body
    assert f'href="{reverse("game-detail", args=[game.pk])}"' in body
    assert 'class="badge guest">guest' in body
    assert f'href="{reverse("tournament-detail", args=[cup.pk])}"' in body
    # Controls are for organisers only.
    assert 'id="add-member"' not in body and 'id="add-season"' not in body


def test_an_organiser_adds_a_member_and_a_season(client, alice, club, make_user):
    make_user("cat")
    page = as_user(client, alice).get(reverse("league-detail", args=[club.slug]))
    assert 'id="add-member"' in text(page) and 'id="add-season"' in text(page)

    response = client.post(
        reverse("league-member-add", args=[club.slug]), {"player": "cat", "role": "organiser"}
    )
    assert response.status_code == 302
    # Cat is asked, and is an organiser once she says yes.
    assert not club.membership_set.filter(user__username="cat").exists()
    assert club.invitations.get(user__username="cat").role == "organiser"
    assert "cat is invited to Harbour club" in " ".join(messages_of(client.get(response.url)))

    response = client.post(
        reverse("league-season-add", args=[club.slug]),
        {"name": "Spring", "starts_on": "2026-03-01", "ends_on": "2026-05-31"},
    )
    assert response.status_code == 302
    assert Season.objects.get(league=club).ends_on == dt.date(2026, 5, 31)


def test_league_forms_show_the_services_errors(client, alice, club):
    as_user(client, alice)
    response = client.post(
        reverse("league-member-add", args=[club.slug]), {"player": "nobody", "role": "member"}
    )
    assert response.status_code == 200 and "no player &#x27;nobody&#x27;" in text(response)
    assert response.context["member_form"]["player"].value() == "nobody"

    response = client.post(
        reverse("league-season-add", args=[club.slug]),
        {"name": "Backwards", "starts_on": "2026-05-01", "ends_on": "2026-04-01"},
    )
    assert response.status_code == 200 and "cannot end before it starts" in text(response)
    assert not Season.objects.exists()


def test_a_member_who_is_not_an_organiser_is_refused(client, bob, club, make_user):
    make_user("cat")
    as_user(client, bob)
    response = client.post(
        reverse("league-member-add", args=[club.slug]), {"player": "cat", "role": "organiser"}
    )
    assert response.status_code == 403
    assert "only the league&#x27;s organisers may invite members" in text(response)
    assert not club.membership_set.filter(user__username="cat").exists()
    assert not club.invitations.exists()
    response = client.post(
        reverse("league-season-add", args=[club.slug]), {"name": "Mine", "starts_on": "2026-01-01"}
    )
    assert response.status_code == 403 and not Season.objects.exists()


# -- recording a game -----------------------------------------------------------------------------


def record_post(**overrides):
    data = {"game": "oceans", "played_at": "2026-02-05", "notes": "a close one", "league": ""}
    for i in range(6):
        data.update({f"player_{i}": "", f"score_{i}": "", f"rank_{i}": ""})
    data.update(
        {
            "player_0": "alice",
            "score_0": "31",
            "rank_0": "1",
            "player_1": "Zoe",
            "guest_1": "on",
            "score_1": "27",
            "rank_1": "2",
            "player_2": "bob",
            "score_2": "27",
            "rank_2": "2",
        }
    )
    data.update(overrides)
    return data


def test_recording_needs_a_signed_in_user(client):
    response = client.get(reverse("match-new"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_the_record_form_offers_all_five_games_and_my_leagues(client, alice, bob, club):
    leagues.league_create(name="Other club", created_by=bob)
    page = as_user(client, alice).get(reverse("match-new"), {"league": club.slug})
    form = page.context["form"]
    assert [slug for slug, _ in form.fields["game"].choices] == [
        "abyss",
        DSA,
        DV,
        "oceans",
        "ventlife",
    ]
    assert list(form.fields["league"].queryset) == [club]
    assert form["league"].value() == club.pk
    assert len(form.rows()) == 6  # Deep Sea Adventure seats six
    # The date picker gets today in ISO form, whatever the site's date format.
    today = timezone.localdate().isoformat()
    assert f'type="date" name="played_at" value="{today}"' in text(page)


def test_recording_a_game_with_a_guest(client, alice, bob, club):
    response = as_user(client, alice).post(reverse("match-new"), record_post(league=str(club.pk)))
    game = Game.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("game-detail", args=[game.pk])
    assert game.mode == "record" and game.status == GameStatus.FINISHED
    assert [(s.user.username if s.user else None, s.guest) for s in game.seats.all()] == [
        ("alice", ""),
        (None, "Zoe"),
        ("bob", ""),
    ]
    assert game.result == [
        {"player": "alice", "score": 31, "rank": 1},
        {"player": "Zoe", "score": 27, "rank": 2},
        {"player": "bob", "score": 27, "rank": 2},
    ]
    recorded = shown(Event.objects.get(game=game, kind="ResultRecorded"))
    assert recorded["notes"] == "a close one" and recorded["played_at"].startswith("2026-02-05")
    assert list(club.games.all()) == [game]
    follow = client.get(response.url)
    assert f"Recorded Oceans (with The Deep promo pack 2) #{game.pk}." in messages_of(follow)


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"guest_1": ""}, "no member &#x27;Zoe&#x27;"),
        ({"rank_2": "4"}, "ranks must be in competition order"),
        ({"score_1": "40"}, "Zoe scored more than alice but is ranked below"),
        (
            {
                "player_1": "",
                "guest_1": "",
                "score_1": "",
                "rank_1": "",
                "player_2": "",
                "score_2": "",
                "rank_2": "",
            },
            "takes 2 to 4 players, not 1",
        ),
        ({"played_at": "2999-01-01"}, "played_at is in the future"),
    ],
)
def test_a_record_the_service_refuses_is_a_form_error_and_keeps_the_input(
    client, alice, bob, overrides, message
):
    response = as_user(client, alice).post(reverse("match-new"), record_post(**overrides))
    assert response.status_code == 200
    assert message in text(response)
    assert not Game.objects.exists()
    form = response.context["form"]
    assert form["player_0"].value() == "alice" and form["notes"].value() == "a close one"


def test_an_empty_record_asks_for_the_players(client, alice):
    data = record_post(
        player_0="",
        score_0="",
        rank_0="",
        player_1="",
        guest_1="",
        score_1="",
        rank_1="",
        player_2="",
        score_2="",
        rank_2="",
    )
    response = as_user(client, alice).post(reverse("match-new"), data)
    assert response.status_code == 200
    assert "Give each player&#x27;s name and rank" in text(response)
    assert not Game.objects.exists()


def test_a_record_row_needs_a_rank(client, alice, bob):
    response = as_user(client, alice).post(reverse("match-new"), record_post(rank_2=""))
    assert response.status_code == 200
    assert response.context["form"].errors["rank_2"] == ["Give the player's rank."]
    assert not Game.objects.exists()


def test_a_recorded_games_page_shows_its_result_and_events(client, alice):
    game = records.match_record(
        slug="oceans",
        played_at="2026-02-05",
        recorded_by=alice,
        results=[
            {"player": "alice", "score": 31, "rank": 1},
            {"player": "Zoe", "score": 27, "rank": 2, "guest": True},
        ],
    )
    response = client.get(reverse("game-detail", args=[game.pk]))
    assert response.status_code == 200
    body = text(response)
    assert "<td>1</td><td>alice</td>" in body and "Zoe (guest)" in body
    assert "Result recorded</strong> by alice" in body


# -- tournaments: creating ------------------------------------------------------------------------


def tournament_post(**overrides):
    data = {
        "name": "Autumn open",
        "game": DSA,
        "format": "swiss",
        "mode": "table",
        "table_size": "2",
        "rounds": "3",
        "advance": "1",
        "players": "ann\nben\n\ncat\ndan\n",
        "bye_points": "0",
        "move_seconds": "",
        "on_timeout": "random",
        "league": "",
    }
    data.update(overrides)
    return data


def test_the_tournament_pages_render(client, org, players):
    t = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Autumn open",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=3,
            mode="table",
            players=list(players),
        ),
        created_by=org,
    )
    listing = client.get(reverse("tournaments"))
    assert listing.status_code == 200
    assert f'href="{reverse("tournament-detail", args=[t.pk])}"' in text(listing)
    assert f'href="{reverse("tournament-new")}"' in text(listing)
    assert client.get(reverse("tournament-new")).status_code == 302  # sign in first
    assert as_user(client, org).get(reverse("tournament-new")).status_code == 200


def test_a_new_tournament_through_the_form(client, org, players):
    response = as_user(client, org).post(reverse("tournament-new"), tournament_post())
    t = Tournament.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("tournament-detail", args=[t.pk])
    assert (t.name, t.slug, t.format, t.mode, t.table_size, t.rounds) == (
        "Autumn open",
        DSA,
        "swiss",
        "table",
        2,
        3,
    )
    assert [e.user.username for e in t.entries.all()] == ["ann", "ben", "cat", "dan"]
    assert t.options == {} and list(t.organisers.all()) == [org]


def test_the_starting_bid_is_on_for_deep_vents_unless_unticked(client, org, players):
    form = as_user(client, org).get(reverse("tournament-new")).context["form"]
    assert form["starting_bid"].value() is True
    client.post(
        reverse("tournament-new"), tournament_post(game=DV, starting_bid="on", name="With bids")
    )
    client.post(reverse("tournament-new"), tournament_post(game=DV, name="Without"))
    assert Tournament.objects.get(name="With bids").options == {"starting_bid": True}
    assert Tournament.objects.get(name="Without").options == {"starting_bid": False}


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"players": "ann\nzed"}, "no player &#x27;zed&#x27;"),
        ({"players": "ann\nann\nben"}, "a player is entered twice"),
        ({"game": "oceans", "mode": "online"}, "recorded from tables only"),
        ({"table_size": "5"}, "table_size must be a whole number from 2 to 4"),
        ({"name": "   "}, "This field is required"),
        (
            {"format": "elimination", "table_size": "4", "players": "ann\nben"},
            "2 players cannot fill a table: tables of 4 seat at least 3",
        ),
    ],
)
def test_a_tournament_the_service_refuses_is_a_form_error(client, org, players, overrides, message):
    response = as_user(client, org).post(reverse("tournament-new"), tournament_post(**overrides))
    assert response.status_code == 200
    assert message in text(response)
    assert not Tournament.objects.exists()
    assert response.context["form"]["players"].value() == tournament_post(**overrides)["players"]


def test_an_online_tournament_with_a_clock(client, org, players):
    as_user(client, org)
    # The clock fields are the online event's (the form hides them for a table-mode event,
    # which has the round clock instead): a table-mode event ignores them.
    response = client.post(
        reverse("tournament-new"),
        tournament_post(mode="table", move_seconds="60", on_timeout="forfeit"),
    )
    assert response.status_code == 302
    assert Tournament.objects.get().time_control is None
    Tournament.objects.all().delete()
    response = client.post(
        reverse("tournament-new"),
        tournament_post(mode="online", move_seconds="60", on_timeout="forfeit"),
    )
    t = Tournament.objects.get()
    assert t.time_control == {"move_seconds": 60, "on_timeout": "forfeit"}
    assert "60 s a move, then forfeit" in text(client.get(response.url))


def test_an_online_tournaments_tables_link_to_their_games_and_take_no_reports(client, org, players):
    t = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Online open",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=1,
            mode="online",
            players=list(players),
        ),
        created_by=org,
    )
    tournaments.round_pair(tournament=t, by=org)
    table, (first, _) = first_table(t)
    for viewer in (org, players[first]):
        page = detail(as_user(client, viewer), t)
        seen = panel(page, table)
        assert seen.status == "active"
        assert (seen.report_form, seen.dispute_form, seen.override_form) == (None, None, None)
        assert f'href="{reverse("game-detail", args=[table.game_id])}"' in text(page)


def test_a_tournament_joins_only_a_league_its_creator_organises(client, alice, bob, club, players):
    theirs = leagues.league_create(name="Not mine", created_by=bob)
    form = as_user(client, alice).get(reverse("tournament-new")).context["form"]
    assert list(form.fields["league"].queryset) == [club]
    response = client.post(reverse("tournament-new"), tournament_post(league=str(theirs.pk)))
    assert response.status_code == 200 and not Tournament.objects.exists()
    client.post(reverse("tournament-new"), tournament_post(league=str(club.pk)))
    assert Tournament.objects.get().league == club


# -- tournaments: the page and the organiser's controls ------------------------------------------


@pytest.fixture
def open_(org, players):
    """A table-mode Swiss of four at tables of two, not yet paired."""
    return tournaments.tournament_create(
        spec=TournamentSpec(
            name="Autumn open",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=2,
            mode="table",
            players=list(players),
        ),
        created_by=org,
    )


def detail(client, t):
    return client.get(reverse("tournament-detail", args=[t.pk]))


def test_the_tournament_page_header_and_standings(client, open_):
    page = detail(client, open_)
    assert page.status_code == 200
    body = text(page)
    for fact in ("Deep Sea Adventure", "Swiss", "on tables, players report", "Open"):
        assert fact in body
    assert page.context["tiebreaks"] == ["Buchholz", "Score", "Share", "Wins", "Head to head"]
    assert [row["player"] for row in page.context["standings"]] == ["ann", "ben", "cat", "dan"]
    assert '<th class="num tiebreak">Head to head</th>' in body
    assert reverse("api-tournament-standings-csv", args=[open_.pk]) in body
    assert reverse("api-tournament-results-csv", args=[open_.pk]) in body
    assert "No round has been paired yet" in body
    assert 'id="organiser"' not in body


def test_organiser_controls_show_only_to_organisers(client, org, players, open_):
    assert 'id="organiser"' in text(detail(as_user(client, org), open_))
    page = detail(as_user(client, players["ann"]), open_)
    assert 'id="organiser"' not in text(page) and 'id="pair-next"' not in text(page)
    assert 'id="my-entry"' in text(page)


def test_a_player_cannot_pair_override_enter_or_drop_others(client, org, players, open_):
    as_user(client, players["ann"])
    response = client.post(reverse("tournament-pair", args=[open_.pk]))
    assert response.status_code == 403
    assert "only the tournament&#x27;s organisers may do that" in text(response)
    assert not Round.objects.exists()
    response = client.post(reverse("tournament-enter", args=[open_.pk]), {"player": "org"})
    assert response.status_code == 403 and open_.entries.count() == 4
    response = client.post(reverse("tournament-drop", args=[open_.pk]), {"player": "ben"})
    assert response.status_code == 403 and not open_.entries.get(user__username="ben").dropped

    tournaments.round_pair(tournament=open_, by=org)
    table = open_.round_set.get().tables.first()
    response = client.post(
        reverse("table-override", args=[open_.pk, table.pk]),
        result_post(f"t{table.pk}-override", [1, 2]),
    )
    assert response.status_code == 403
    assert record_reads.result_state(table.game)["status"] == "awaiting report"


def test_pairing_through_the_page_and_a_round_not_complete(client, org, open_):
    as_user(client, org)
    response = client.post(reverse("tournament-pair", args=[open_.pk]))
    assert response.status_code == 302
    assert client.get(response.url).context["messages"]
    assert open_.round_set.count() == 1
    page = detail(client, open_)
    assert [len(r["tables"]) for r in page.context["rounds"]] == [2]
    assert "Round 1" in text(page) and "awaiting report" in text(page)

    response = client.post(reverse("tournament-pair", args=[open_.pk]))
    assert response.status_code == 200
    assert "round 1 is not complete yet" in text(response)
    assert open_.round_set.count() == 1


def test_pairing_a_round_again_late_entry_and_drops(client, org, players, open_, make_user):
    make_user("eve")
    as_user(client, org)
    client.post(reverse("tournament-pair", args=[open_.pk]))
    response = client.post(reverse("tournament-enter", args=[open_.pk]), {"player": "eve"})
    assert response.status_code == 302
    response = client.post(reverse("tournament-repair", args=[open_.pk, 1]))
    assert response.status_code == 302
    rounds = list(selectors.live_rounds(open_))
    assert [r.attempt for r in rounds] == [2]
    assert rounds[0].byes.count() == 1  # five players at tables of two
    voided = Game.objects.filter(status=GameStatus.VOID).count()
    assert voided == 2

    response = client.post(reverse("tournament-enter", args=[open_.pk]), {"player": "nobody"})
    assert response.status_code == 200 and "no player &#x27;nobody&#x27;" in text(response)
    assert response.context["enter_form"]["player"].value() == "nobody"

    response = client.post(reverse("tournament-drop", args=[open_.pk]), {"player": "dan"})
    assert response.status_code == 200 and "Drop dan from" in text(response)  # asks first
    assert not open_.entries.get(user__username="dan").dropped
    response = client.post(
        reverse("tournament-drop", args=[open_.pk]), {"player": "dan", "confirmed": "yes"}
    )
    assert response.status_code == 302
    page = detail(client, open_)
    dan = next(r for r in page.context["standings"] if r["player"] == "dan")
    assert dan["dropped"] and 'class="badge dropped">dropped' in text(page)
    assert "dan" not in dict(page.context["drop_form"].fields["player"].choices)


def test_a_player_drops_themself(client, players, open_):
    response = as_user(client, players["cat"]).post(
        reverse("tournament-drop", args=[open_.pk]), {"player": "cat", "confirmed": "yes"}
    )
    assert response.status_code == 302
    assert open_.entries.get(user__username="cat").dropped
    page = detail(client, open_)
    assert "You withdrew before round 1" in text(page)


# -- tournaments: reporting results at the table --------------------------------------------------


def result_post(
    prefix: str,
    ranks: list[int],
    scores: list[int] | None = None,
    bid: tuple[str, int] | None = None,
) -> dict[str, str]:
    scores = scores or [10 - r for r in ranks]
    data = {}
    for i, (rank, score) in enumerate(zip(ranks, scores)):
        data[f"{prefix}-rank_{i}"] = str(rank)
        data[f"{prefix}-score_{i}"] = str(score)
    if bid:
        data[f"{prefix}-bid_player"], data[f"{prefix}-bid_amount"] = bid[0], str(bid[1])
    return data


@pytest.fixture
def paired(org, open_):
    tournaments.round_pair(tournament=open_, by=org)
    return open_


def first_table(t):
    table = t.round_set.get(void=False).tables.order_by("number").first()
    return table, selectors.table_out(table)["seats"]


def panel(page, table):
    return next(p for r in page.context["rounds"] for p in r["tables"] if p.id == table.pk)


def test_report_confirm_and_the_result_is_final(client, players, paired):
    table, (first, second) = first_table(paired)
    as_user(client, players[first])
    mine = panel(detail(client, paired), table)
    assert mine.report_form is not None and mine.confirm_version is None

    response = client.post(
        reverse("table-report", args=[paired.pk, table.pk]),
        result_post(f"t{table.pk}-report", [1, 2], [12, 7]),
    )
    assert response.status_code == 302
    assert response.url.endswith(f"#table-{table.pk}")
    follow = client.get(response.url)
    assert f"Table {table.number}: reported, awaiting confirmation." in messages_of(follow)
    assert panel(follow, table).status == "awaiting confirmation"
    assert panel(follow, table).waiting_for == [second]

    # The other player sees the report, a confirm button and a dispute form; no report form.
    page = detail(as_user(client, players[second]), paired)
    theirs = panel(page, table)
    table.game.refresh_from_db()
    assert theirs.report_form is None and theirs.dispute_form is not None
    assert theirs.confirm_version == table.game.version
    assert f"Reported by {first}" in text(page) and "Confirm this result" in text(page)
    response = client.post(
        reverse("table-confirm", args=[paired.pk, table.pk]),
        {"as_reported": "1", "version": str(theirs.confirm_version)},
    )
    assert response.status_code == 302
    table.game.refresh_from_db()
    assert table.game.status == GameStatus.FINISHED
    assert [r["rank"] for r in table.game.result] == [1, 2]
    page = detail(client, paired)
    assert panel(page, table).status == "final"
    assert panel(page, table).dispute_form is None
    top = page.context["standings"][0]
    assert (top["player"], top["points"], top["games"]) == (first, 1, 1)


def test_confirming_a_report_that_changed_since_the_page_was_loaded_is_refused(
    client, players, paired
):
    table, (first, second) = first_table(paired)
    table_results.result_report(
        game=table.game,
        user=players[first],
        results=[
            {"player": first, "rank": 1, "score": 5},
            {"player": second, "rank": 2, "score": 3},
        ],
    )
    stale = table.game.version
    table_results.result_report(
        game=table.game,
        user=players[first],
        results=[
            {"player": first, "rank": 2, "score": 3},
            {"player": second, "rank": 1, "score": 5},
        ],
    )
    response = as_user(client, players[second]).post(
        reverse("table-confirm", args=[paired.pk, table.pk]),
        {"as_reported": "1", "version": str(stale)},
    )
    assert response.status_code == 200 and "has changed since the page was loaded" in text(response)
    assert record_reads.result_state(table.game)["confirmed_by"] == [first]


def test_a_bad_report_is_a_form_error_that_keeps_the_input(client, players, paired):
    table, (first, _) = first_table(paired)
    response = as_user(client, players[first]).post(
        reverse("table-report", args=[paired.pk, table.pk]),
        result_post(f"t{table.pk}-report", [1, 2], [3, 9]),
    )
    assert response.status_code == 200
    assert "scored more than" in text(response)
    form = panel(response, table).report_form
    assert form.is_bound and form["score_1"].value() == "9"
    assert record_reads.result_state(table.game)["status"] == "awaiting report"


def test_only_the_players_at_the_table_report(client, players, paired):
    table, seats = first_table(paired)
    outsider = next(name for name in players if name not in seats)
    page = detail(as_user(client, players[outsider]), paired)
    assert panel(page, table).report_form is None
    response = client.post(
        reverse("table-report", args=[paired.pk, table.pk]),
        result_post(f"t{table.pk}-report", [1, 2]),
    )
    assert response.status_code == 403
    assert "only a player at this table" in text(response)
    assert record_reads.result_state(table.game)["status"] == "awaiting report"


def test_a_dispute_then_the_organiser_overrides(client, org, players, paired):
    table, (first, second) = first_table(paired)
    as_user(client, players[first]).post(
        reverse("table-report", args=[paired.pk, table.pk]),
        result_post(f"t{table.pk}-report", [1, 2], [12, 7]),
    )
    response = as_user(client, players[second]).post(
        reverse("table-confirm", args=[paired.pk, table.pk]),
        result_post(f"t{table.pk}-dispute", [2, 1], [7, 12]),
    )
    assert response.status_code == 302
    follow = client.get(response.url)
    assert "the result is disputed; the organiser decides it" in " ".join(messages_of(follow))
    disputed = panel(follow, table)
    assert disputed.status == "disputed"
    assert disputed.columns == [f"Reported by {first}", f"{second} says"]
    assert [[line["rank"] for line in row["lines"]] for row in disputed.rows] == [[1, 2], [2, 1]]
    assert disputed.override_form is None  # players do not settle it

    page = detail(as_user(client, org), paired)
    # Every table offers the organiser a link; the form is drawn for the table it names.
    assert panel(page, table).may_override and panel(page, table).override_form is None
    settle = panel(page, table).urls["settle"]
    assert f'href="{settle}"' in text(page)
    opened = client.get(settle)
    assert panel(opened, table).override_form is not None
    assert f'id="override-{table.pk}"' in text(opened)
    others = [p for r in opened.context["rounds"] for p in r["tables"] if p.id != table.pk]
    assert others and all(p.override_form is None and p.may_override for p in others)
    response = client.post(
        reverse("table-override", args=[paired.pk, table.pk]),
        result_post(f"t{table.pk}-override", [2, 1], [7, 12]),
    )
    assert response.status_code == 302
    table.game.refresh_from_db()
    assert table.game.status == GameStatus.FINISHED
    assert [(r["player"], r["rank"]) for r in table.game.result] == [(first, 2), (second, 1)]
    standings = {r["player"]: r["points"] for r in detail(client, paired).context["standings"]}
    assert (standings[first], standings[second]) == (0, 1)


def test_a_deep_vents_table_reports_the_winning_bid(client, org, players):
    t = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Vents cup",
            game=DV,
            format="swiss",
            table_size=2,
            rounds=1,
            mode="table",
            players=list(players),
        ),
        created_by=org,
    )
    tournaments.round_pair(tournament=t, by=org)
    table, (first, second) = first_table(t)
    as_user(client, players[first])
    form = panel(detail(client, t), table).report_form
    assert "bid_player" in form.fields and "bid_amount" in form.fields
    response = client.post(
        reverse("table-report", args=[t.pk, table.pk]),
        result_post(f"t{table.pk}-report", [1, 2], bid=(second, 3)),
    )
    assert response.status_code == 302
    assert record_reads.result_state(table.game)["bid"] == {"player": second, "amount": 3}
    assert f"Winning bid: <strong>{second}</strong>, 3" in text(detail(client, t))

    response = client.post(
        reverse("table-report", args=[t.pk, table.pk]),
        {**result_post(f"t{table.pk}-report", [1, 2]), f"t{table.pk}-report-bid_player": second},
    )
    assert response.status_code == 200 and "Give both who won the bid" in text(response)


def test_after_the_last_round_pairing_closes_the_tournament(client, org, players, make_user):
    t = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Short",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=1,
            mode="table",
            players=["ann", "ben"],
        ),
        created_by=org,
    )
    as_user(client, org).post(reverse("tournament-pair", args=[t.pk]))
    table, (first, second) = first_table(t)
    tournaments.table_override(
        tournament=t,
        table=table,
        by=org,
        results=[
            {"player": first, "rank": 1, "score": 2},
            {"player": second, "rank": 2, "score": 1},
        ],
    )
    response = client.post(reverse("tournament-pair", args=[t.pk]))
    assert response.status_code == 302
    follow = client.get(response.url)
    assert "the tournament is over" in " ".join(messages_of(follow))
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert 'id="pair-next"' not in text(follow)


def test_the_page_refreshes_itself_only_while_running(client, org, open_):
    assert "setInterval" not in text(detail(client, open_))
    tournaments.round_pair(tournament=open_, by=org)
    assert "setInterval" in text(detail(client, open_))


def test_the_form_seeds_by_rating(client, org, players):
    response = as_user(client, org).post(
        reverse("tournament-new"), tournament_post(seeding="rating")
    )
    assert response.status_code == 302
    assert Tournament.objects.get().seeding == "rating"
    form = client.get(reverse("tournament-new")).context["form"]
    assert form["seeding"].value() == "entry"
