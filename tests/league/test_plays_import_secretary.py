"""Imports a club's secretary can use: games named as the site names them, the columns of the
play logs of BoardGameGeek and BG Stats, and plays already in the league found and skipped
unless asked for (docs/records.md, "Import and export")."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from core.errors import InvalidInput
from games.models import Game
from league.services import leagues
from league.services.plays import plays_import
from tests.league.members import join

pytestmark = pytest.mark.django_db

HEADER = "play,date,game,player,guest,score,rank\n"


@pytest.fixture
def club(alice, bob):
    league = leagues.league_create(name="Harbour club", created_by=alice)
    join(league, "bob", by=alice)
    return league


def imported(club, alice, text, **options):
    return plays_import(league=club, content=text, format="csv", by=alice, **options)


# -- games by the names the site shows ------------------------------------------------------------


def test_a_game_is_named_as_the_site_names_it_whatever_its_case_and_spaces(club, alice):
    text = HEADER + (
        "p1,2024-03-01,Deep Sea Adventure,alice,no,12,1\n"
        "p1,2024-03-01,Deep Sea Adventure,bob,no,8,2\n"
        "p2,2024-03-02,  deep sea ADVENTURE ,alice,no,3,2\n"
        "p2,2024-03-02,  deep sea ADVENTURE ,bob,no,9,1\n"
        "p3,2024-03-03,Oceans (with The Deep promo pack 2),alice,no,40,1\n"
        "p3,2024-03-03,Oceans (with The Deep promo pack 2),bob,no,30,2\n"
        "p4,2024-03-04,abyss,alice,no,40,1\n"
        "p4,2024-03-04,abyss,bob,no,30,2\n"
    )
    report = imported(club, alice, text)
    assert report.imported and not report.refused, report.lines()
    slugs = list(Game.objects.order_by("finished_at").values_list("slug", flat=True))
    assert slugs == ["deep-sea-adventure", "deep-sea-adventure", "oceans", "abyss"]


def test_an_unknown_game_names_the_games_it_could_be_in_the_sites_words(club, alice):
    text = HEADER + "p1,2024-03-01,Deep Sea Adventur,alice,no,12,1\n"
    report = imported(club, alice, text, dry_run=True)
    assert str(report.refused[0]) == (
        "row 2: game: unknown game 'Deep Sea Adventur' (did you mean Deep Sea Adventure?)"
    )


def test_a_game_like_none_of_the_sites_lists_them_all_by_name(club, alice):
    report = imported(club, alice, HEADER + "p1,2024-03-01,Catan,alice,no,12,1\n", dry_run=True)
    message = str(report.refused[0])
    assert message == (
        "row 2: game: unknown game 'Catan' (the games are Abyss, Deep Sea Adventure, Deep"
        " Vents, Oceans (with The Deep promo pack 2), Ventlife)"
    )
    assert "deep-sea-adventure" not in message


# -- the columns of BoardGameGeek's and BG Stats' play logs ---------------------------------------

# BoardGameGeek's plays, a row per player: the play's id and date, the game (item) name, each
# player's BGG username and name, score, win, start position, and the play's quantity and
# whether it was incomplete.
BGG = (
    "playid,date,objectname,quantity,incomplete,nowinstats,username,name,startposition,"
    "color,score,new,rating,win\n"
    "9001,2024-04-02,Abyss,1,0,0,al_bgg,alice,2,,61,0,0,1\n"
    "9001,2024-04-02,Abyss,1,0,0,,bob,1,,55,0,0,0\n"
    "9001,2024-04-02,Abyss,1,0,0,,Zoe,3,,40,1,0,0\n"
    "9002,2024-04-03,Deep Sea Adventure,1,0,0,,bob,1,,20,0,0,1\n"
    "9002,2024-04-03,Deep Sea Adventure,1,0,0,al_bgg,alice,2,,11,0,0,0\n"
)


def test_a_bgg_play_log_imports_players_by_name_and_ranks_from_wins_and_scores(club, alice):
    report = imported(club, alice, BGG)
    assert report.imported and not report.refused, report.lines()
    assert report.members == {"alice": "alice", "bob": "bob"} and report.guests == ["Zoe"]
    abyss = Game.objects.get(slug="abyss")
    # Seated by start position; the winner first, then by score.
    assert abyss.result == [
        {"player": "bob", "score": 55, "rank": 2},
        {"player": "alice", "score": 61, "rank": 1},
        {"player": "Zoe", "score": 40, "rank": 3},
    ]
    assert abyss.seats.get(index=2).guest == "Zoe"
    assert Game.objects.get(slug="deep-sea-adventure").result[0] == {
        "player": "bob",
        "score": 20,
        "rank": 1,
    }


def test_a_bgstats_style_csv_without_play_ids_groups_a_plays_rows(club, alice):
    # BG Stats' own field names (playDate, winner, seatOrder); no play id: the rows of one
    # play are those next to each other with the same date and game.
    text = (
        "playDate,game,player,score,winner,seatOrder\n"
        "2024-05-01 19:30:00,Oceans,Alice,41,true,1\n"
        "2024-05-01 19:30:00,Oceans,bob,37,false,2\n"
        "2024-05-02 20:00:00,Oceans,bob,50,true,1\n"
        "2024-05-02 20:00:00,Oceans,Alice,20,false,2\n"
    )
    report = imported(club, alice, text)
    assert report.imported and len(report.plays) == 2, report.lines()
    results = [g.result for g in Game.objects.order_by("finished_at")]
    assert [[line["player"] for line in r] for r in results] == [["alice", "bob"], ["bob", "alice"]]
    assert [[line["rank"] for line in r] for r in results] == [[1, 2], [1, 2]]


@pytest.mark.parametrize(
    "edit, message",
    [
        (("9001,2024-04-02,Abyss,1,0", "9001,2024-04-02,Abyss,1,1"), "row 2: incomplete:"),
        (("9001,2024-04-02,Abyss,1,0", "9001,2024-04-02,Abyss,2,0"), "row 2: quantity:"),
    ],
    ids=["incomplete", "quantity 2"],
)
def test_what_a_bgg_log_says_that_a_result_cannot_is_refused(club, alice, edit, message):
    report = imported(club, alice, BGG.replace(*edit, 1))
    assert not report.imported and str(report.refused[0]).startswith(message)
    assert not Game.objects.exists()


def test_bgg_xml_is_refused_saying_what_to_do(club, alice):
    xml = '<?xml version="1.0"?><plays username="x"><play id="1" date="2024-01-01"/></plays>'
    with pytest.raises(InvalidInput) as refused:
        imported(club, alice, xml)
    assert str(refused.value).startswith("this is XML, not CSV")


def test_a_csv_without_a_result_column_is_refused_whole(club, alice):
    with pytest.raises(InvalidInput) as refused:
        imported(club, alice, "play,date,game,player\n1,2024-01-01,Abyss,alice\n")
    assert str(refused.value).startswith("the CSV lacks the column rank")


# -- plays already in the league ------------------------------------------------------------------

CSV = HEADER + (
    "p1,2024-03-01,abyss,alice,no,80,1\n"
    "p1,2024-03-01,abyss,bob,no,75,2\n"
    "p1,2024-03-01,abyss,Zoe,yes,,3\n"
    "p2,2024-03-02,oceans,bob,no,30,1\n"
    "p2,2024-03-02,oceans,alice,no,20,2\n"
)


def test_importing_the_same_plays_again_skips_them_as_duplicates(club, alice):
    imported(club, alice, CSV)
    again = imported(club, alice, CSV)
    assert again.imported and not again.plays and Game.objects.count() == 2
    assert [p.where for p in again.duplicates] == ["play p1 (rows 2-4)", "play p2 (rows 5-6)"]
    assert again.lines()[:2] == [
        "created 0 plays",
        "skipped 2 plays already in the league (the same date, game and players):",
    ]
    assert "play p1 (rows 2-4): Abyss on 1 Mar 2024 with alice, bob, Zoe" in again.lines()


def test_a_duplicate_is_the_same_date_game_and_players_whatever_the_order_or_scores(club, alice):
    imported(club, alice, CSV)
    text = HEADER + (
        # the same players in another order, other scores, another time that day: a duplicate
        "n1,2024-03-01T20:15:00+00:00,Abyss,zoe,yes,,1\n"
        "n1,2024-03-01T20:15:00+00:00,Abyss,bob,no,,2\n"
        "n1,2024-03-01T20:15:00+00:00,Abyss,alice,no,,3\n"
        # another day, another game, or other players: new plays
        "n2,2024-03-03,abyss,alice,no,80,1\n"
        "n2,2024-03-03,abyss,bob,no,75,2\n"
        "n3,2024-03-01,deep-sea-adventure,alice,no,8,1\n"
        "n3,2024-03-01,deep-sea-adventure,bob,no,7,2\n"
        "n4,2024-03-01,abyss,alice,no,80,1\n"
        "n4,2024-03-01,abyss,bob,no,75,2\n"
    )
    report = imported(club, alice, text)
    assert [p.key for p in report.duplicates] == ["n1"]
    assert sorted(p.key for p in report.plays) == ["n2", "n3", "n4"]
    assert Game.objects.count() == 5


def test_a_play_recorded_twice_that_day_is_matched_once_each(club, alice):
    # Two plays of the same game by the same players that evening, both in the league: a file
    # with three such plays has two duplicates and one new play.
    two = CSV + CSV[len(HEADER) :].replace("p1,", "p9,").replace("p2,", "p8,")
    imported(club, alice, two)
    assert Game.objects.count() == 4
    three = two + CSV[len(HEADER) :].replace("p1,", "p7,").replace("p2,", "p6,")
    report = imported(club, alice, three, dry_run=True)
    assert len(report.duplicates) == 4 and len(report.plays) == 2


def test_a_dry_run_reports_the_duplicates(club, alice):
    imported(club, alice, CSV)
    report = imported(club, alice, CSV, dry_run=True)
    assert len(report.duplicates) == 2 and not report.plays
    assert report.lines()[1] == (
        "would skip 2 plays already in the league (the same date, game and players):"
    )


def test_duplicates_are_imported_anyway_when_asked(club, alice):
    imported(club, alice, CSV)
    report = imported(club, alice, CSV, import_duplicates=True)
    assert report.imported and len(report.plays) == 2 and Game.objects.count() == 4
    assert report.lines()[1] == (
        "imported anyway 2 plays already in the league (the same date, game and players):"
    )


def test_a_play_waiting_for_confirmation_counts_as_in_the_league(club, alice, make_user):
    make_user("carol")  # not in the league: her plays wait for her
    text = HEADER + "w1,2024-03-05,abyss,alice,no,9,1\nw1,2024-03-05,abyss,carol,no,5,2\n"
    first = imported(club, alice, text)
    assert first.waiting == {"carol": 1}
    again = imported(club, alice, text, dry_run=True)
    assert [p.key for p in again.duplicates] == ["w1"]


def test_the_command_skips_duplicates_unless_asked(club, alice, tmp_path):
    path = tmp_path / "plays.csv"
    path.write_text(CSV)
    out = StringIO()
    call_command("import_plays", str(path), "--league", club.slug, stdout=out, stderr=StringIO())
    out = StringIO()
    call_command("import_plays", str(path), "--league", club.slug, stdout=out, stderr=StringIO())
    assert "skipped 2 plays already in the league" in out.getvalue()
    assert Game.objects.count() == 2
    call_command(
        "import_plays",
        str(path),
        "--league",
        club.slug,
        "--import-duplicates",
        stdout=StringIO(),
        stderr=StringIO(),
    )
    assert Game.objects.count() == 4


# -- the league page ------------------------------------------------------------------------------


def upload(client, club, text, **fields):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = {"format": "csv", "file": SimpleUploadedFile("plays.csv", text.encode()), **fields}
    return client.post(f"/leagues/{club.slug}/import/", data)


def test_the_dry_run_report_leads_the_page_and_names_the_duplicates(client, club, alice):
    imported(club, alice, CSV)
    client.force_login(alice)
    body = upload(client, club, CSV, dry_run="on").content.decode()
    assert body.index('id="import-report"') < body.index('id="standings"')
    assert "would skip 2 plays already in the league" in body
    assert "play p1 (rows 2-4): Abyss on 1 Mar 2024 with alice, bob, Zoe" in body
    assert 'name="import_duplicates"' in body


def test_the_page_imports_duplicates_when_asked(client, club, alice):
    imported(club, alice, CSV)
    client.force_login(alice)
    assert upload(client, club, CSV).status_code == 302
    assert Game.objects.count() == 2
    assert upload(client, club, CSV, import_duplicates="on").status_code == 302
    assert Game.objects.count() == 4


def test_a_file_error_is_shown_at_the_top_too(client, club, alice):
    client.force_login(alice)
    body = upload(client, club, "name,score\nalice,1\n").content.decode()
    assert body.index("the CSV lacks the columns date, game") < body.index('id="standings"')
