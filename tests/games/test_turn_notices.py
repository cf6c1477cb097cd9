"""Turn notices: the nav's count of games waiting for you (one query over the inbox), the tab's
title, and what a person's stream hub is sent once a write commits. The inbox itself, mail
included, is tested in tests/inbox/."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.live import push, streams
from games.models import Game
from games.play import reads, seating, services
from inbox.models import Notice

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


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    def run(action, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return action(*args, **kwargs)

    return run


def test_the_nav_counts_the_games_waiting_for_you_and_the_title_says_your_turn(
    client, alice, bob, committed
):
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert 'id="nav-turns" class="nav-turns" hidden' in page
    assert "<title>Games · Hadal</title>" in page
    games = [committed(dsa, "alice", "bob", alice) for _ in range(3)]  # seat 0 opens
    page = client.get("/").content.decode()
    assert 'id="nav-turns" class="nav-turns" hidden' in page  # nobody's turn: bob has not said
    for game in games:
        committed(seating.game_accept, game=game.pk, seat=1, user=bob)  # now it is alice's
    committed(services.game_resign, game=games[2].pk, seat=0, user=alice)
    waiting = committed(dsa, "bob", "alice", bob)  # bob's turn, not alice's
    assert Game.objects.get(pk=waiting.pk).current_player == 0
    page = client.get("/").content.decode()
    assert "Your turn: 2 games</a>" in page
    assert "<title>Your turn · Games · Hadal</title>" in page


def test_the_counts_are_one_query_over_the_inbox(client, alice, bob, committed):
    client.force_login(alice)
    for _ in range(3):
        committed(dsa, "alice", "bob", alice)
    client.get("/")
    with CaptureQueriesContext(connection) as queries:
        client.get("/")
    counts = [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"]]
    assert len([q for q in counts if '"inbox_notice"' in q]) == 1
    assert not [q for q in counts if '"games_seat"' in q]


def test_a_bot_seat_and_a_resigned_seat_wait_for_nobody(alice, committed):
    from inbox.services import counts

    game = committed(
        services.game_create,
        slug=DSA,
        seats=[{"bot": "random"}, {"user": "alice"}],
        options={},
        created_by=alice,
    )
    game.refresh_from_db()
    assert counts(alice.pk)["turns"] == (1 if game.current_player == 1 else 0)
    committed(services.game_resign, game=game.pk, seat=1, user=alice)
    assert counts(alice.pk)["turns"] == 0


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
    alice, bob, committed, django_capture_on_commit_callbacks
):
    with push.hub().subscribed_sync(push.user_channel(bob.pk)) as inbox:
        with django_capture_on_commit_callbacks(execute=False) as pending:
            game = dsa("bob", "alice", alice)
        assert heard(inbox) == []  # nothing before the commit
        while pending:
            callback = pending.pop(0)
            with django_capture_on_commit_callbacks(execute=False) as more:
                callback()
            pending += more
        messages = heard(inbox)
    # The hub carries only that bob's inbox changed (no count is made by the writer); his
    # stream, told so, reads what is new and the counts. Seat 0 is to play, but nobody's turn
    # begins before bob has taken his seat: he is invited.
    assert messages == [{"inbox": "changed"}]
    feed = streams.UserFeed(user=bob, after=0)
    assert feed.receive(json.dumps(messages[-1])) is None
    frames = [json.loads(line[6:]) for line in feed.catch_up().splitlines() if line[:6] == "data: "]
    kinds = [(f.get("type"), f.get("game"), f.get("seat")) for f in frames]
    assert kinds == [("invitation", game.pk, 0), ("counts", None, None)]
    assert frames[-1] == {"type": "counts", "unread": 1, "turns": 0, "invitations": 1}
    # His acceptance begins his turn.
    with push.hub().subscribed_sync(push.user_channel(bob.pk)) as inbox:
        committed(seating.game_accept, game=game.pk, seat=0, user=bob)
        assert heard(inbox)
    frames = [json.loads(line[6:]) for line in feed.catch_up().splitlines() if line[:6] == "data: "]
    assert [(f.get("type"), f.get("seat")) for f in frames] == [("your_turn", 0), ("counts", None)]
    assert frames[-1] == {"type": "counts", "unread": 1, "turns": 1, "invitations": 0}


def test_a_turn_passing_costs_the_inbox_two_statements_and_no_count(alice, bob, committed):
    """Closing the turn that passed and opening the next are one statement each, and nothing
    is counted for the streams: a listening stream reads the counts itself."""
    game = committed(dsa, "alice", "bob", alice)
    committed(seating.game_accept, game=game.pk, seat=1, user=bob)
    while True:
        game.refresh_from_db()
        had_it = game.current_player
        mover = alice if had_it == 0 else bob
        with CaptureQueriesContext(connection) as queries:
            committed(opening_move, game, mover)
        game.refresh_from_db()
        if game.current_player != had_it:
            break
    inbox_sql = [q["sql"] for q in queries.captured_queries if "inbox_notice" in q["sql"]]
    assert len(inbox_sql) == 2, inbox_sql
    assert sorted(sql.split()[0] for sql in inbox_sql) == ["INSERT", "UPDATE"]
    assert not [sql for sql in inbox_sql if "COUNT(" in sql]
    waiting = Notice.objects.filter(done_at__isnull=True, kind="your_turn")
    assert [n.user for n in waiting] == [bob if had_it == 0 else alice]
