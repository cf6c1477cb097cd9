"""Turn notices: the nav's count of games waiting for you (one query), the tab's title, turn
e-mails (opt-in, once per turn, not for short clocks, to a verified address), and what a
person's stream is sent: their turn, an invitation, a tournament round paired. The settings
page that turns turn e-mails on is tested in tests/accounts/test_settings.py."""

from __future__ import annotations

import json

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Profile
from games.live import notices, push
from games.models import Game, GameStatus
from games.play import reads, services
from league.tournament_spec import TournamentSpec

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


def dsa(first: str, second: str, creator, **kwargs) -> Game:
    return services.game_create(
        slug=DSA,
        seats=[{"user": first}, {"user": second}],
        options={},
        created_by=creator,
        **kwargs,
    )


def opening_move(game: Game, user) -> None:
    """The seat to play makes its first legal move."""
    game.refresh_from_db()
    seat = game.current_player
    action = reads.game_legal_actions(game=game, user=user, seat=seat)[0]
    services.game_action_append(
        game=game.pk, seat=seat, expected_version=game.version, action=action, user=user
    )


# -- the nav and the title ------------------------------------------------------------------------


def test_the_nav_counts_the_games_waiting_for_you_and_the_title_says_your_turn(client, alice, bob):
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert 'id="nav-turns" class="nav-turns" hidden' in page
    assert "<title>Games · Hadal</title>" in page
    dsa("alice", "bob", alice)  # seat 0 opens: alice's turn
    dsa("alice", "bob", alice)
    finished = dsa("alice", "bob", alice)
    services.game_resign(game=finished.pk, seat=0, user=alice)
    waiting = dsa("bob", "alice", bob)  # bob's turn, not alice's
    assert Game.objects.get(pk=waiting.pk).current_player == 0
    page = client.get("/").content.decode()
    assert "Your turn: 2 games</a>" in page
    assert "<title>Your turn · Games · Hadal</title>" in page


def test_the_count_is_one_query_and_the_admin_pages_do_not_ask_it(client, alice, bob):
    client.force_login(alice)
    for _ in range(3):
        dsa("alice", "bob", alice)
    client.get("/")
    with CaptureQueriesContext(connection) as queries:
        client.get("/")
    counts = [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"]]
    assert len([q for q in counts if '"games_seat"' in q]) == 1


def test_a_bot_seat_and_a_resigned_seat_wait_for_nobody(client, alice, bob):
    from games.context import games_waiting

    game = services.game_create(
        slug=DSA, seats=[{"bot": "random"}, {"user": "alice"}], options={}, created_by=alice
    )
    game.refresh_from_db()
    assert games_waiting(alice) == (1 if game.current_player == 1 else 0)
    services.game_resign(game=game.pk, seat=1, user=alice)
    assert games_waiting(alice) == 0


# -- turn e-mails ---------------------------------------------------------------------------------


def wants_mail(user) -> None:
    """``user`` asked for turn e-mails, and has verified their address."""
    EmailAddress.objects.create(
        user=user, email=f"{user.username}@example.org", primary=True, verified=True
    )
    Profile.objects.create(user=user, turn_emails=True)


def test_a_turn_email_goes_once_per_turn_to_whoever_asked(
    alice, bob, django_capture_on_commit_callbacks
):
    wants_mail(bob)
    with django_capture_on_commit_callbacks(execute=True):
        game = dsa("alice", "bob", alice)
    assert mail.outbox == []  # alice's turn; alice did not ask
    with django_capture_on_commit_callbacks(execute=True):
        while Game.objects.get(pk=game.pk).current_player == 0:
            opening_move(game, alice)
    game.refresh_from_db()
    assert game.current_player == 1
    [sent] = mail.outbox
    assert sent.to == ["bob@example.org"] and sent.subject == "Your turn in Deep Sea Adventure"
    assert f"/games/{game.pk}/" in sent.body
    # The same turn asked about again (a task delivered twice) sends nothing more.
    assert not notices.send_turn_email(game_id=game.pk, seat=1, version=game.version)
    assert len(mail.outbox) == 1


def test_no_turn_email_in_a_game_with_a_short_clock_or_for_one_who_did_not_ask(
    alice, bob, make_user, django_capture_on_commit_callbacks
):
    wants_mail(alice)
    with django_capture_on_commit_callbacks(execute=True):
        dsa("alice", "bob", bob, time_control={"move_seconds": 30, "on_timeout": "random"})
        dsa("bob", "alice", bob)  # bob's turn: bob did not ask
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        dsa("alice", "bob", bob, time_control={"move_seconds": 86400, "on_timeout": "random"})
    assert len(mail.outbox) == 1  # a day per move is a game played over days


def test_a_turn_email_goes_only_to_a_verified_primary_address(
    alice, bob, django_capture_on_commit_callbacks
):
    """An address nobody confirmed gets nothing; during a change of address, the old one,
    still the verified primary, gets the mail until the new one is confirmed."""
    Profile.objects.create(user=bob, turn_emails=True)
    bob.email = "bob@example.org"  # on the user row only, as before allauth
    bob.save()
    unverified = EmailAddress.objects.create(user=bob, email="bob@example.org", primary=True)
    with django_capture_on_commit_callbacks(execute=True):
        game = dsa("bob", "alice", alice)
    assert mail.outbox == []
    assert not notices.send_turn_email(game_id=game.pk, seat=0, version=game.version)
    unverified.delete()
    EmailAddress.objects.create(user=bob, email="bob@old.example", primary=True, verified=True)
    EmailAddress.objects.create(user=bob, email="bob@new.example", primary=False)
    game.refresh_from_db()
    assert notices.send_turn_email(game_id=game.pk, seat=0, version=game.version)
    [sent] = mail.outbox
    assert sent.to == ["bob@old.example"]


def test_whether_someone_asked_is_read_once_a_minute_and_forgotten_when_they_change_it(
    alice, bob, django_assert_num_queries, monkeypatch
):
    game = dsa("alice", "bob", alice)
    with django_assert_num_queries(1):
        assert not notices.wants_turn_email(game, bob.pk)
        assert not notices.wants_turn_email(game, bob.pk)  # kept: no second read
    wants_mail(bob)  # saving the Profile forgets the kept answer in this process
    with django_assert_num_queries(1):
        assert notices.wants_turn_email(game, bob.pk)
    # Changed where this process does not hear of it (a queryset update, another process):
    # the kept answer holds for a minute, then is read again.
    Profile.objects.filter(user=bob).update(turn_emails=False)
    assert notices.wants_turn_email(game, bob.pk)
    later = notices.time.monotonic() + notices.CHOICE_SECONDS + 1
    monkeypatch.setattr(notices.time, "monotonic", lambda: later)
    assert not notices.wants_turn_email(game, bob.pk)


def test_the_console_backend_is_the_default_outside_tests():
    from config import settings as project_settings

    assert project_settings.EMAIL_BACKEND.endswith("console.EmailBackend")


# -- a person's stream, as the hub hears it -------------------------------------------------------


def heard(inbox) -> list[dict]:
    messages = []
    while (message := inbox.get_sync(0.2)) is not None:
        messages.append(json.loads(message))
    return messages


def test_an_invitation_and_a_turn_are_published_once_the_write_commits(
    alice, bob, django_capture_on_commit_callbacks
):
    with push.hub().subscribed_sync(push.user_channel(bob.pk)) as inbox:
        with django_capture_on_commit_callbacks(execute=False) as pending:
            game = dsa("bob", "alice", alice)
        assert heard(inbox) == []  # nothing before the commit
        for callback in pending:
            callback()
        kinds = [(n["type"], n["game"], n["seat"]) for n in heard(inbox)]
    assert kinds == [("your_turn", game.pk, 0), ("invitation", game.pk, 0)]


def test_a_paired_tournament_round_tells_each_player(
    alice, bob, django_capture_on_commit_callbacks
):
    from league.services import tournaments

    tournament = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Harbour Cup",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=1,
            mode="online",
            players=["alice", "bob"],
        ),
        created_by=alice,
    )
    with push.hub().subscribed_sync(push.user_channel(bob.pk)) as inbox:
        with django_capture_on_commit_callbacks(execute=True):
            round_ = tournaments.round_pair(tournament=tournament, by=alice)
        notices_ = [n for n in heard(inbox) if n["type"] == "round_paired"]
    [table] = round_.tables.all()
    assert notices_ == [
        {
            "type": "round_paired",
            "tournament": "Harbour Cup",
            "round": 1,
            "game": table.game_id,
            "url": f"/tournaments/{tournament.pk}/",
        }
    ]
    assert table.game.status == GameStatus.ACTIVE
