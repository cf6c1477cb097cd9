"""Importing a club's history (CSV, BG Stats) into a league and exporting it again: records like
any other, rated in the order played, all or nothing unless the refused rows are skipped."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from core.errors import InvalidInput, NotYourSeat
from games.models import Event, Game
from league.models import RatingChange
from league.services import leagues
from league.services.plays import league_plays, plays_export, plays_import
from tests.games.shown import shown
from tests.league.members import join

pytestmark = pytest.mark.django_db

HEADER = "play,date,game,player,guest,score,rank\n"
CSV = HEADER + (
    "p2,2024-03-02,oceans,bob,no,30,1\n"
    "p2,2024-03-02,oceans,alice,no,20,2\n"
    "p1,2024-03-01,abyss,alice,no,80,1\n"
    "p1,2024-03-01,abyss,bob,no,75,2\n"
    "p1,2024-03-01,abyss,Zoe,yes,,3\n"
)


@pytest.fixture
def club(alice, bob):
    league = leagues.league_create(name="Harbour club", created_by=alice)
    join(league, "bob", by=alice)
    return league


def imported(club, alice, text=CSV, **options):
    return plays_import(league=club, content=text, format="csv", by=alice, **options)


def test_a_csv_import_records_each_play_final_and_in_the_league(club, alice):
    report = imported(club, alice)
    assert report.imported and not report.refused
    games = list(Game.objects.order_by("finished_at"))
    assert [g.slug for g in games] == ["abyss", "oceans"]  # created in the order played
    assert [g.status for g in games] == ["finished", "finished"]
    assert games[0].result == [
        {"player": "alice", "score": 80, "rank": 1},
        {"player": "bob", "score": 75, "rank": 2},
        {"player": "Zoe", "score": None, "rank": 3},
    ]
    assert games[0].finished_at.isoformat() == "2024-03-01T12:00:00+00:00"
    assert set(club.games.all()) == set(games)
    recorded = shown(Event.objects.get(game=games[0], kind="ResultRecorded"))
    assert recorded["notes"] == "imported (csv): play p1 (rows 4-6)"
    assert report.lines()[0] == "created 2 plays: 1 Abyss, 1 Oceans (with The Deep promo pack 2)"


def rated_in_2025(club, alice, on_commit):
    """An Abyss game of the league played on 2025-01-01 (bob first), rated already."""
    with on_commit(execute=True):
        leagues.match_record(
            game="abyss",
            played_at="2025-01-01",
            results=[{"player": "bob", "rank": 1}, {"player": "alice", "rank": 2}],
            recorded_by=alice,
            league=club.slug,
        )


def test_imported_plays_are_rated_in_the_order_they_were_played(
    club, alice, django_capture_on_commit_callbacks
):
    # A game played later and rated already: the imported, older plays go before it.
    rated_in_2025(club, alice, django_capture_on_commit_callbacks)
    assert RatingChange.objects.filter(slug="abyss").count() == 2
    with django_capture_on_commit_callbacks(execute=True):
        imported(club, alice)
    order = list(
        RatingChange.objects.filter(slug="abyss", user__username="alice").values_list(
            "finished_at__year", "rank"
        )
    )
    assert order == [(2024, 1), (2025, 2)]


def test_a_batch_around_a_rated_game_is_rated_whole_and_in_order(
    club, alice, django_capture_on_commit_callbacks
):
    # One play before the game already rated and one after: the batch's announcement names
    # the later one, yet both are rated at once, in the order played.
    rated_in_2025(club, alice, django_capture_on_commit_callbacks)
    text = HEADER + (
        "p1,2024-03-01,abyss,alice,no,80,1\n"
        "p1,2024-03-01,abyss,bob,no,75,2\n"
        "p2,2026-01-01,abyss,alice,no,60,2\n"
        "p2,2026-01-01,abyss,bob,no,70,1\n"
    )
    with django_capture_on_commit_callbacks(execute=True):
        imported(club, alice, text=text)
    order = list(
        RatingChange.objects.filter(slug="abyss", user__username="alice")
        .order_by("finished_at")
        .values_list("finished_at__year", "rank")
    )
    assert order == [(2024, 1), (2025, 2), (2026, 2)]


@pytest.mark.parametrize(
    "row, message",
    [
        ("p3,2024-03-05,abyss,bobby,no,1,1", "row 7: player: no member 'bobby'"),
        ("p3,2999-01-01,abyss,bob,no,1,1", "row 7: date is in the future"),
        ("p3,1850-01-01,abyss,bob,no,1,1", "row 7: date is before 1900"),
        ("p3,yesterday,abyss,bob,no,1,1", "row 7: date must be a date"),
        ("p3,2024-03-05,catan,bob,no,1,1", "row 7: game: unknown game 'catan'"),
        ("p3,2024-03-05,abyss,bob,maybe,1,1", "row 7: guest must be yes or no"),
        ("p3,2024-03-05,abyss,bob,no,lots,1", "row 7: score must be a number or empty"),
        ("p3,2024-03-05,abyss,bob,no,1,first", "row 7: rank must be a whole number"),
        ("p1,2024-03-05,abyss,carol,yes,1,4", "row 7: date: not the date of play p1 (row 4)"),
    ],
)
def test_a_bad_row_is_named_with_its_field_and_nothing_is_imported(club, alice, row, message):
    report = imported(club, alice, CSV + row + "\n")
    assert not report.imported
    assert message in [str(r) for r in report.refused][0]
    assert not Game.objects.exists()


def test_a_play_the_record_service_refuses_names_the_play(club, alice):
    text = HEADER + "p9,2024-03-05,abyss,alice,no,10,1\np9,2024-03-05,abyss,bob,no,20,2\n"
    report = imported(club, alice, CSV + text[len(HEADER) :])
    assert [str(r) for r in report.refused] == [
        "play p9 (rows 7-8): bob scored more than alice but is ranked below"
    ]
    assert not Game.objects.exists()


def test_skipping_the_refused_rows_imports_the_rest(club, alice):
    report = imported(club, alice, CSV + "p3,2024-03-05,abyss,bobby,no,1,1\n", skip_refused=True)
    assert report.imported and len(report.plays) == 2 and Game.objects.count() == 2
    assert [r.where for r in report.refused] == ["row 7", "play p3 (row 7)"]


def test_a_dry_run_reports_everything_and_creates_nothing(club, alice):
    report = imported(club, alice, CSV + "p3,2024-03-05,abyss,bobby,no,1,1\n", dry_run=True)
    assert not report.imported and len(report.plays) == 2
    assert report.lines()[0].startswith("would create 2 plays")
    assert "refused row 7: player: no member 'bobby' (write guest=yes for a guest)" in (
        report.lines()
    )
    assert not Game.objects.exists() and not Event.objects.exists()


def test_a_csv_with_missing_columns_is_refused_whole(club, alice):
    with pytest.raises(InvalidInput) as refused:
        imported(club, alice, "play,date,player,rank\n1,2024-01-01,alice,1\n")
    assert str(refused.value) == (
        "the CSV lacks the column game (it needs play, date, game, player, guest, score, rank;"
        " or date, game, player and a rank, win or score, as BoardGameGeek and BG Stats name"
        " them)"
    )


def test_only_an_organiser_imports(club, bob):
    with pytest.raises(NotYourSeat):
        plays_import(league=club, content=CSV, format="csv", by=bob)


# -- BG Stats -------------------------------------------------------------------------------------


def bgstats(**overrides):
    export = {
        "games": [
            {"id": 1, "name": "Oceans", "highestWins": True},
            {"id": 2, "name": "Catan", "highestWins": True},
        ],
        "players": [
            {"id": 1, "name": "Alice"},
            {"id": 2, "name": "bob"},
            {"id": 3, "name": "Zoe"},
        ],
        "locations": [{"id": 1, "name": "Harbour"}],
        "plays": [
            {
                "uuid": "A1",
                "playDate": "2024-05-01 19:30:00",
                "gameRefId": 1,
                "playerScores": [
                    {"playerRefId": 1, "score": "41", "winner": True, "seatOrder": 2, "rank": 0},
                    {"playerRefId": 2, "score": "37", "winner": False, "seatOrder": 1, "rank": 0},
                    {"playerRefId": 3, "score": "", "winner": False, "seatOrder": 3, "rank": 0},
                ],
            },
            {
                "uuid": "A2",
                "playDate": "2024-05-02 19:30:00",
                "gameRefId": 2,
                "playerScores": [{"playerRefId": 1, "score": "9", "winner": True, "rank": 1}],
            },
        ],
    }
    export.update(overrides)
    return json.dumps(export)


def test_a_bgstats_export_maps_players_to_members_or_guests_and_games_by_name(club, alice):
    report = plays_import(
        league=club, content=bgstats(), format="bgstats", by=alice, skip_refused=True
    )
    assert report.members == {"Alice": "alice", "bob": "bob"} and report.guests == ["Zoe"]
    assert [str(r) for r in report.refused] == [
        "play 2: gameRefId: 'Catan' is not a game Hadal knows"
    ]
    game = Game.objects.get()
    assert game.slug == "oceans" and game.finished_at.isoformat() == "2024-05-01T19:30:00+00:00"
    # Seats in BG Stats' seat order; the winner first, then by score (no ranks were given).
    assert game.result == [
        {"player": "bob", "score": 37, "rank": 2},
        {"player": "alice", "score": 41, "rank": 1},
        {"player": "Zoe", "score": None, "rank": 2},
    ]


@pytest.mark.parametrize(
    "content, message",
    [
        ("[1, 2]", "not a BG Stats export: it should be an object of tables"),
        (
            '{"games": [], "plays": []}',
            "not a BG Stats export: it has no players, locations tables",
        ),
        ("play,date\n", "the file is not JSON: Expecting value (line 1, column 1)"),
    ],
)
def test_a_file_of_another_shape_is_refused_whole(club, alice, content, message):
    with pytest.raises(InvalidInput) as refused:
        plays_import(league=club, content=content, format="bgstats", by=alice)
    assert str(refused.value).startswith(message)


# -- export and round trip ------------------------------------------------------------------------


def shape(plays):
    return [
        (p.date, p.game, [(s.player, s.guest, s.score, s.rank) for s in p.seats]) for p in plays
    ]


@pytest.mark.parametrize("format", ["csv", "bgstats"])
def test_export_then_import_gives_the_same_plays(club, alice, format):
    imported(club, alice)
    text, _ = plays_export(league=club, format=format)
    other = leagues.league_create(name="Second club", created_by=alice)
    join(other, "bob", by=alice)
    report = plays_import(league=other, content=text, format=format, by=alice)
    assert report.imported, report.lines()
    assert shape(league_plays(other)) == shape(league_plays(club))
    assert len(league_plays(other)) == 2


def test_the_commands_import_with_a_dry_run_and_export(club, alice, tmp_path):
    path = tmp_path / "plays.csv"
    path.write_text(CSV)
    out, err = StringIO(), StringIO()
    call_command(
        "import_plays", str(path), "--league", club.slug, "--dry-run", stdout=out, stderr=err
    )
    assert out.getvalue().startswith("would create 2 plays") and not Game.objects.exists()
    assert "2/2" in err.getvalue()  # the progress bar
    call_command("import_plays", str(path), "--league", club.slug, stdout=StringIO(), stderr=err)
    assert Game.objects.count() == 2
    exported = StringIO()
    call_command("export_plays", "--league", club.slug, stdout=exported)
    assert exported.getvalue().splitlines()[0] == HEADER.strip()
    assert len(exported.getvalue().splitlines()) == 6
    path.write_text(CSV + "p3,2024-03-05,abyss,bobby,no,1,1\n")
    with pytest.raises(CommandError, match="2 refused: nothing was imported"):
        call_command("import_plays", str(path), "--league", club.slug, stdout=out, stderr=err)
    assert Game.objects.count() == 2


# -- from the league page -------------------------------------------------------------------------


def upload(client, club, text=CSV, **fields):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = {"format": "csv", "file": SimpleUploadedFile("plays.csv", text.encode()), **fields}
    return client.post(f"/leagues/{club.slug}/import/", data)


def test_an_organiser_dry_runs_then_imports_from_the_league_page(client, club, alice):
    client.force_login(alice)
    page = client.get(f"/leagues/{club.slug}/").content.decode()
    assert 'id="import-plays"' in page and f"/leagues/{club.slug}/export/?format=bgstats" in page
    dry = upload(client, club, CSV + "p3,2024-03-05,abyss,bobby,no,1,1\n", dry_run="on")
    body = dry.content.decode()
    assert dry.status_code == 200 and "would create 2 plays" in body
    assert "refused row 7: player: no member &#x27;bobby&#x27;" in body
    assert not Game.objects.exists()
    done = upload(client, club)
    assert done.status_code == 302 and Game.objects.count() == 2
    download = client.get(f"/leagues/{club.slug}/export/", {"format": "csv"})
    assert download["Content-Disposition"] == 'attachment; filename="harbour-club-plays.csv"'
    assert download.content.decode().count("\n") == 6
    bgs = json.loads(client.get(f"/leagues/{club.slug}/export/", {"format": "bgstats"}).content)
    assert len(bgs["plays"]) == 2 and {g["name"] for g in bgs["games"]} == {
        "Abyss",
        "Oceans (with The Deep promo pack 2)",
    }


def test_a_member_who_is_not_an_organiser_cannot_import(client, club, bob):
    client.force_login(bob)
    page = client.get(f"/leagues/{club.slug}/").content.decode()
    assert 'id="import-plays"' not in page
    response = upload(client, club)
    assert response.status_code == 403 and not Game.objects.exists()


def test_a_file_of_the_wrong_shape_is_a_form_error(client, club, alice):
    client.force_login(alice)
    response = upload(client, club, "name,score\nalice,1\n")
    assert response.status_code == 200 and "the CSV lacks the columns" in response.content.decode()


# -- files as spreadsheets and hostile senders write them ------------------------------------------


@pytest.mark.parametrize(
    "line_end, bom",
    [("\r", ""), ("\r\n", ""), ("\n", "\ufeff"), ("\r", "\ufeff"), ("\r\n", "\ufeff")],
    ids=["CR (classic Mac, old Excel)", "CRLF", "BOM", "BOM and CR", "BOM and CRLF"],
)
def test_a_csv_reads_the_same_whatever_ends_its_lines(club, alice, line_end, bom):
    content = (bom + CSV.replace("\n", line_end)).encode()
    report = plays_import(league=club, content=content, format="csv", by=alice, dry_run=True)
    assert not report.refused, report.lines()
    expected = plays_import(league=club, content=CSV, format="csv", by=alice, dry_run=True)
    assert shape(report.plays) == shape(expected.plays)
    assert [p.where for p in report.plays] == [p.where for p in expected.plays]


def test_a_quoted_line_break_stays_in_its_field(club, alice):
    # Read as newline="" asks, csv finds the line ends itself, so a quoted one is text.
    text = CSV.replace("\n", "\r\n").replace("Zoe", '"Zoe\nSmith"')
    report = plays_import(league=club, content=text, format="csv", by=alice, dry_run=True)
    assert not report.refused, report.lines()
    assert report.plays[0].seats[-1].player == "Zoe\nSmith"


DEEP = 100_000


def one_play(old: str = "", new: str = "", count: int = 1, edit=None) -> str:
    """A BG Stats export of one Oceans play that imports cleanly, changed by ``edit`` and with
    ``old`` replaced by ``new``."""
    export = json.loads(bgstats())
    export["plays"] = export["plays"][:1]
    if edit is not None:
        edit(export)
    text = json.dumps(export)
    assert old in text
    return text.replace(old, new, count)


HOSTILE_BGSTATS = {
    "nested 100,000 deep": "[" * DEEP + "]" * DEEP,
    "a table nested 100,000 deep": one_play(
        '"locations": [', '"locations": [' + "[" * DEEP + "]" * DEEP + ", "
    ),
    "an extra key nested 100,000 deep": one_play(
        '"games": ', '"x": ' + '{"a":' * DEEP + "1" + "}" * DEEP + ', "games": '
    ),
    # the object, its locations table and 31 lists in it: 33 levels, one more than allowed
    "nested 33 deep": one_play('"locations": [', '"locations": [' + "[" * 31 + "]" * 31 + ", "),
    "a number of 5,000 digits": one_play('"seatOrder": 2', '"seatOrder": ' + "9" * 5000),
    "a score of 1e400": one_play('"score": "41"', '"score": 1e400'),
    "a score of NaN": one_play('"score": "41"', '"score": NaN'),
    "a score of -Infinity": one_play('"score": "41"', '"score": -Infinity'),
    "a score of 10**30": one_play('"score": "41"', '"score": 1' + "0" * 30),
    "a score as text of 400 digits": one_play('"score": "41"', '"score": "' + "9" * 400 + '"'),
    "a score that is a list": one_play('"score": "41"', '"score": [41]'),
    "a rank of 10**30": one_play('"rank": 0', '"rank": 1' + "0" * 30),
    "a rank that is text": one_play('"rank": 0', '"rank": "1"'),
    "a rank that is a fraction": one_play('"rank": 0', '"rank": 1.5'),
    "a game id that is a list": one_play(
        '"id": 1, "name": "Oceans"', '"id": [1], "name": "Oceans"'
    ),
    "a player id that is an object": one_play(
        '"id": 3, "name": "Zoe"', '"id": {"a": 3}, "name": "Zoe"'
    ),
    "a gameRefId that is a list": one_play('"gameRefId": 1', '"gameRefId": [1]'),
    "a playerRefId that is an object": one_play('"playerRefId": 3', '"playerRefId": {}'),
    "a game name that is an object": one_play('"name": "Oceans"', '"name": {"x": "Oceans"}'),
    "a player name that is a list": one_play('"name": "Zoe"', '"name": ["Zoe"]'),
    "a player's name of 10,000 letters": one_play(
        '"name": "Zoe"', '"name": "' + "Z" * 10_000 + '"'
    ),
    "playerScores that is an object": one_play(
        edit=lambda e: e["plays"][0].update(playerScores={"a": e["plays"][0]["playerScores"]})
    ),
    "a playDate that is a number": one_play(
        '"playDate": "2024-05-01 19:30:00"', '"playDate": 20240501'
    ),
    "a uuid that is an object": one_play('"uuid": "A1"', '"uuid": {"a": 1}'),
    "plays that is an object": one_play(edit=lambda e: e.update(plays={"a": e["plays"]})),
    "a NUL in a name": one_play('"name": "Zoe"', '"name": "Zo\\u0000e"'),
    "a lone surrogate in a name": one_play('"name": "Zoe"', '"name": "\\ud800"'),
    "a game that is not an object": one_play('"games": [', '"games": [7, '),
}


def test_the_hostile_files_start_from_one_that_imports(club, alice):
    report = plays_import(league=club, content=one_play(), format="bgstats", by=alice)
    assert report.imported and len(report.plays) == 1, report.lines()


@pytest.mark.parametrize("case", HOSTILE_BGSTATS)
def test_a_hostile_bgstats_file_is_a_clear_error_and_changes_nothing(club, alice, case):
    content = HOSTILE_BGSTATS[case].encode("utf-8", "surrogatepass")
    try:
        report = plays_import(league=club, content=content, format="bgstats", by=alice)
    except InvalidInput as refused:
        assert str(refused) and len(str(refused)) < 300, str(refused)[:300]
    else:
        assert report.refused and not report.imported, report.lines()
        assert all(len(str(r)) < 300 for r in report.refused)
    assert not Game.objects.exists() and not Event.objects.exists()


def test_a_bgstats_file_nested_too_deeply_says_so(club, alice):
    with pytest.raises(InvalidInput, match="nested deeper than"):
        plays_import(
            league=club, content=HOSTILE_BGSTATS["nested 100,000 deep"], format="bgstats", by=alice
        )


def test_the_command_reads_a_cr_csv_and_refuses_a_deep_file(club, alice, tmp_path):
    csv_file = tmp_path / "plays.csv"
    csv_file.write_bytes(CSV.replace("\n", "\r").encode())
    call_command(
        "import_plays", str(csv_file), "--league", club.slug, stdout=StringIO(), stderr=StringIO()
    )
    assert Game.objects.count() == 2
    deep = tmp_path / "plays.json"
    deep.write_text(HOSTILE_BGSTATS["a table nested 100,000 deep"])
    with pytest.raises(CommandError, match="nested deeper than"):
        call_command(
            "import_plays", str(deep), "--league", club.slug, stdout=StringIO(), stderr=StringIO()
        )
    assert Game.objects.count() == 2


def test_the_page_reads_a_cr_csv_and_refuses_a_deep_file(client, club, alice):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(alice)
    client.raise_request_exception = False
    done = upload(client, club, CSV.replace("\n", "\r"))
    assert done.status_code == 302 and Game.objects.count() == 2
    deep = client.post(
        f"/leagues/{club.slug}/import/",
        {
            "format": "bgstats",
            "file": SimpleUploadedFile(
                "plays.json", HOSTILE_BGSTATS["nested 100,000 deep"].encode()
            ),
        },
    )
    assert deep.status_code == 200 and "nested deeper than" in deep.content.decode()
    assert Game.objects.count() == 2
