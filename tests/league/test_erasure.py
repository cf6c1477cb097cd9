"""Erasure that keeps the log true (GDPR article 17): a member deletes their account, or an
operator erases them; their name, e-mail, password and the key of their notes go, their games,
ratings and standings stay as a former member's, and every log still verifies, offline too."""

from __future__ import annotations

import datetime as dt
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Person, Vacation
from accounts.people import FORMER_MEMBER
from games import logchain, store
from games.models import Event, Game, ScoreSheet
from games.play import services
from games.records.export import bundle_of
from inbox import services as inbox
from inbox.models import Notice, PushDevice
from league.models import Rating, Tournament, TournamentEvent
from league.services import erasure
from tests.games.test_fingerprint import play

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]
User = get_user_model()


@pytest.fixture(autouse=True)
def ledger(settings, tmp_path):
    settings.HADAL_ERASURE_LEDGER = str(tmp_path / "erasures.jsonl")
    return Path(settings.HADAL_ERASURE_LEDGER)


@pytest.fixture
def history(alice, bob, api_for):
    """Bob's history with alice: a finished game (rated), a club record bob recorded with a
    note and an Oceans sheet, and a game still being played."""
    finished = play(
        services.game_create(
            slug="deep-sea-adventure",
            seats=[{"user": "alice"}, {"user": "bob"}],
            options=None,
            created_by=alice,
            seated=True,
        ),
        [alice, bob],
    )
    recorded = api_for(bob).post(
        "/api/matches/",
        {
            "game": "oceans",
            "played_at": "2026-11-20T19:00:00Z",
            "notes": "bob's note: the harbour table",
            "results": [{"player": "bob", "rank": 1}, {"player": "alice", "rank": 2}],
            "sheet": {
                "players": [
                    {"player": "bob", "score_pile": 40},
                    {"player": "alice", "score_pile": 30},
                ]
            },
        },
        format="json",
    )
    assert recorded.status_code == 201, recorded.json()
    record = Game.objects.get(pk=recorded.json()["id"])
    assert api_for(alice).post(f"/api/matches/{record.pk}/confirm/").status_code == 201
    running = services.game_create(
        slug="deep-vents",
        seats=[{"user": "alice"}, {"user": "bob"}],
        options=None,
        created_by=alice,
        seated=True,
    )
    for game in (finished, record):
        game.refresh_from_db()
        assert game.status == "finished"
    return {"finished": finished, "record": record, "running": running}


def erase_from_the_page(client, user, password="pw-for-tests-only"):
    client.force_login(user)
    page = client.get("/accounts/delete/")
    assert page.status_code == 200 and b"Delete my account for good" in page.content
    return client.post("/accounts/delete/", {"username": user.username, "password": password})


def test_a_member_deletes_their_account_and_their_games_stay_true(
    client, alice, bob, history, ledger
):
    public_id = Person.objects.get(user=bob).public_id
    inbox.notify(alice.pk, "club", "bob asks to join the Harbour Club", "/leagues/harbour/")
    inbox.notify(alice.pk, "club", "bobby asks to join the Harbour Club", "/leagues/harbour/")
    inbox.notify(bob.pk, "club", "You are a member of the Harbour Club", "/leagues/harbour/")
    PushDevice.objects.create(user=bob, endpoint="https://push.example.org/b", p256dh="k", auth="a")
    starts = timezone.now() + dt.timedelta(days=3)
    Vacation.objects.create(user=bob, starts_at=starts, ends_at=starts + dt.timedelta(days=2))
    before = {k: Game.objects.get(pk=g.pk) for k, g in history.items()}
    call_command("recompute_ratings")
    dsa = Rating.objects.filter(slug="deep-sea-adventure")
    rated = sorted(dsa.values_list("user_id", "rating", "games"))
    done = erase_from_the_page(client, bob)
    assert done.status_code == 302
    bob.refresh_from_db()
    assert bob.username == f"former-member-{public_id[2:]}" and not bob.is_active
    assert not bob.email and not bob.has_usable_password()
    assert not client.login(username="bob", password="pw-for-tests-only")
    # Every log is as it was (the game being played has events more), and verifies.
    for name, game in history.items():
        game.refresh_from_db()
        assert store.verify_chain(game) == game.fingerprint
        was = before[name]
        assert game.events.get(seq=was.version).hash == was.fingerprint
    # The game being played was resigned by an event, and alice won it.
    running = history["running"]
    assert running.events.filter(kind="SeatResigned", seat=1).exists()
    assert running.status == "finished" and running.result[0]["rank"] == 1
    # No projection names bob; the pages say "a former member".
    for game in history.values():
        assert "bob" not in json.dumps(game.result)
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert "bob" not in page.replace("bob&#x27;s note", "")
        assert FORMER_MEMBER in page or "former-member" in page
    assert "bob" not in json.dumps(ScoreSheet.objects.get(game=history["record"]).sheet)
    # His ratings stay, a former member's, and the games rate him the same again (the game he
    # left running is finished now, and rated too: another game).
    assert dsa.filter(user=bob).exists()
    call_command("recompute_ratings")
    assert sorted(dsa.values_list("user_id", "rating", "games")) == rated
    assert ledger.read_text().count(public_id) == 1 and "bob" not in ledger.read_text()
    # Nothing reaches him any more, and alice's inbox names him as the pages do.
    assert not Notice.objects.filter(user=bob).exists()
    assert not PushDevice.objects.filter(user=bob).exists()
    assert not Vacation.objects.filter(user=bob).exists()
    texts = set(Notice.objects.filter(user=alice, kind="club").values_list("text", flat=True))
    assert texts == {
        "a former member asks to join the Harbour Club",
        "bobby asks to join the Harbour Club",
    }


def test_the_notes_of_an_erased_member_can_no_longer_be_read(client, alice, bob, history):
    record = history["record"]
    client.force_login(alice)
    assert "the harbour table" in client.get(f"/games/{record.pk}/").content.decode()
    erase_from_the_page(client, bob)
    client.force_login(alice)
    assert "the harbour table" not in client.get(f"/games/{record.pk}/").content.decode()
    stored = Event.objects.get(game=record, kind="ResultRecorded").data["notes"]
    assert "harbour" not in json.dumps(stored)  # it never was in the clear


def test_an_erased_members_game_verifies_offline_naming_no_one(bob, history, tmp_path):
    erasure.member_erase(user=bob)
    public_id = Person.objects.get(user=bob).public_id
    for game in history.values():
        game.refresh_from_db()
        bundle = bundle_of(game)
        assert bundle["people"][public_id] is None  # the id stays, the name is gone
        raw = logchain.dump_bundle(bundle)
        assert b'"bob"' not in raw
        path = tmp_path / f"{game.pk}.json"
        path.write_bytes(raw)
        checked = subprocess.run(
            [sys.executable, "-I", "-S", str(REPO / "games" / "verify_log.py"), str(path)],
            capture_output=True,
            text=True,
        )
        assert checked.returncode == 0, checked.stderr
        assert "every hash matches" in checked.stdout


def test_an_organiser_of_a_running_tournament_is_refused_with_the_reason(
    client, make_user, api_for
):
    org = make_user("org")
    for name in ("ann", "ben"):
        make_user(name)
    created = api_for(org).post(
        "/api/tournaments/",
        {
            "name": "Winter cup",
            "game": "deep-sea-adventure",
            "format": "swiss",
            "table_size": 2,
            "rounds": 1,
            "mode": "table",
            "players": ["ann", "ben"],
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    client.force_login(org)
    page = client.get("/accounts/delete/").content.decode()
    assert "the only organiser of Winter cup" in page
    refused = client.post("/accounts/delete/", {"username": "org", "password": "pw-for-tests-only"})
    assert refused.status_code == 200
    assert User.objects.get(pk=org.pk).username == "org"
    with pytest.raises(CommandError, match="org cannot be erased yet: .*Winter cup"):
        call_command("erase_member", "org", "--yes")
    # Another organiser takes it over: then it can be done.
    Tournament.objects.get(name="Winter cup").organisers.add(make_user("deputy"))
    call_command("erase_member", "org", "--yes")
    assert not User.objects.get(pk=org.pk).is_active


def test_the_confirmation_must_be_the_members_own(client, bob, history):
    client.force_login(bob)
    wrong = client.post("/accounts/delete/", {"username": "alice", "password": "pw-for-tests-only"})
    assert wrong.status_code == 200 and b"That is not your username" in wrong.content
    wrong = client.post("/accounts/delete/", {"username": "bob", "password": "nope"})
    assert b"That is not your password" in wrong.content
    assert User.objects.get(pk=bob.pk).username == "bob"


def test_the_command_asks_for_yes_and_names_what_it_does(bob, history, capsys):
    with pytest.raises(CommandError, match="run it again with --yes"):
        call_command("erase_member", "bob")
    assert User.objects.get(pk=bob.pk).is_active
    with pytest.raises(CommandError, match="no member is called 'nobody'"):
        call_command("erase_member", "nobody", "--yes")
    call_command("erase_member", "bob", "--yes")
    out = capsys.readouterr().out
    assert "1 game(s) in progress left" in out and "kept as a former member's" in out


def test_a_bot_is_never_erased():
    from accounts.bots import LEVELS, bot_user

    bot = bot_user(LEVELS[0])
    with pytest.raises(CommandError, match="a bot's account is not a person's"):
        call_command("erase_member", bot.username, "--yes")


def test_a_guest_is_erased_from_every_record(alice, api_for, capsys):
    recorded = api_for(alice).post(
        "/api/matches/",
        {
            "game": "deep-vents",
            "played_at": "2026-11-20T19:00:00Z",
            "results": [
                {"player": "alice", "rank": 1},
                {"player": "Mina", "guest": True, "rank": 2},
            ],
        },
        format="json",
    )
    game = Game.objects.get(pk=recorded.json()["id"])
    call_command("erase_member", "--guest", "Mina", "--yes")
    game.refresh_from_db()
    assert "Mina" not in json.dumps(game.result)
    assert game.seats.get(index=1).guest == "a former guest"
    assert store.verify_chain(game) == game.fingerprint
    with pytest.raises(CommandError, match="no guest is recorded as 'Mina'"):
        call_command("erase_member", "--guest", "Mina", "--yes")


def test_a_restored_database_is_erased_again_from_the_ledger(make_user, ledger, capsys):
    """A backup from before an erasure brings the name back: the ledger, kept apart from the
    database, erases it again."""
    carol = make_user("carol")
    public_id = Person.objects.create(public_id="m-carol00000", user=carol).public_id
    ledger.write_text(json.dumps({"public_id": public_id, "erased_at": "2026-12-07"}) + "\n")
    call_command("erase_member", "--ledger", str(ledger))
    assert "erased again: 1 (m-carol00000)" in capsys.readouterr().out
    assert not User.objects.get(pk=carol.pk).is_active
    call_command("erase_member", "--ledger", str(ledger))  # again: nothing left to do
    assert "erased again: 0" in capsys.readouterr().out
    ledger.write_text("not json\n")
    with pytest.raises(CommandError, match="line 1 is not an erasure"):
        call_command("erase_member", "--ledger", str(ledger))


def test_a_tournaments_own_log_forgets_the_name(make_user, api_for, client):
    org, ann = make_user("org"), make_user("ann")
    make_user("ben")
    created = (
        api_for(org)
        .post(
            "/api/tournaments/",
            {
                "name": "Spring",
                "game": "deep-sea-adventure",
                "format": "swiss",
                "table_size": 2,
                "rounds": 1,
                "mode": "table",
                "players": ["ann", "ben"],
            },
            format="json",
        )
        .json()
    )
    assert TournamentEvent.objects.filter(tournament_id=created["id"], data__icontains="ann")
    erasure.member_erase(user=ann)
    for event in TournamentEvent.objects.filter(tournament_id=created["id"]):
        assert '"ann"' not in json.dumps(event.data)


# -- a member's own data --------------------------------------------------------------------------


def test_a_member_downloads_their_data_as_json_and_csv(client, bob, history):
    inbox.notify(bob.pk, "club", "You are a member of the Harbour Club", "/leagues/harbour/")
    starts = timezone.now() + dt.timedelta(days=3)
    Vacation.objects.create(user=bob, starts_at=starts, ends_at=starts + dt.timedelta(days=2))
    call_command("recompute_ratings")  # the history's games, rated
    client.force_login(bob)
    archive = client.get("/accounts/data/")
    assert archive.status_code == 200 and archive["Content-Type"] == "application/zip"
    files = zipfile.ZipFile(io.BytesIO(archive.content))
    assert set(files.namelist()) == {
        "hadal-data.json",
        "games.csv",
        "ratings.csv",
        "rating_changes.csv",
    }
    data = json.loads(files.read("hadal-data.json"))
    assert data["member"]["username"] == "bob"
    assert {g["game"] for g in data["games"]} == {g.pk for g in history.values()}
    assert any("the harbour table" in note["text"] for note in data["notes"])
    # How the site reaches them is theirs too: the inbox, the choices, the days away.
    assert {"kind": "club", "text": "You are a member of the Harbour Club"}.items() <= next(
        n for n in data["notices"] if n["kind"] == "club"
    ).items()
    assert data["notice_choices"]["mail"]["invitation"] == "now"  # the default, spelt out
    assert [v["from"] for v in data["vacations"]] == [starts.isoformat()]
    assert data["devices"] == []
    games_csv = files.read("games.csv").decode()
    assert games_csv.splitlines()[0].startswith("game,name,mode,status")
    assert len(games_csv.splitlines()) == 1 + len(history)
    # the rating the pages show (Glicko-2) is theirs too, with each game's change
    mine = data["ratings"][0]
    row = bob.ratings.get(slug=mine["game"])
    assert (mine["glicko_rating"], mine["glicko_deviation"]) == (
        round(row.glicko_rating, 1),
        round(row.glicko_deviation, 1),
    )
    assert mine["glicko_deviation"] < 350
    assert "glicko_deviation_after" in files.read("rating_changes.csv").decode().splitlines()[0]
    assert data["rating_changes"][0]["glicko_before"] == 1500.0
    api = APIClient()
    assert api.get("/api/me/data/").status_code in (401, 403)
    api.force_authenticate(bob)
    assert api.get("/api/me/data/").json()["member"]["username"] == "bob"
    assert api.get("/api/me/data/archive/")["Content-Type"] == "application/zip"
