"""The inbox: a notice for each thing that waits for a member, opened when it begins to wait
and closed when it no longer does, read or unread, counted in the nav, listed at
/api/me/notices/ and on /inbox/, and mailed at once where the member chose so, never twice."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from games.models import Game
from games.play import reads, seating, services
from inbox import services as inbox
from inbox.models import Choices, Notice
from league.services import clubs, leagues, tournaments
from league.tournament_spec import TournamentSpec

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what waits for the commit (the store's hooks, the inbox's announcements) as the
    test's own transaction would have committed it."""

    def run(action, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return action(*args, **kwargs)

    return run


def open_notices(user, kind=None) -> list[Notice]:
    rows = Notice.objects.filter(user=user, done_at__isnull=True).order_by("id")
    return list(rows.filter(kind=kind) if kind else rows)


def dsa(first, second, creator, **kwargs) -> Game:
    return services.game_create(
        slug=DSA,
        seats=[{"user": first}, {"user": second}],
        options={},
        created_by=creator,
        **kwargs,
    )


def play_until_turn_of(game, seat: int, users) -> None:
    game.refresh_from_db()
    while game.current_player != seat:
        player = users[game.current_player]
        action = reads.game_legal_actions(game=game, user=player, seat=game.current_player)[0]
        services.game_action_append(
            game=game.pk,
            seat=game.current_player,
            expected_version=game.version,
            action=action,
            user=player,
        )
        game.refresh_from_db()


# -- a matter has one open notice, closed when settled -------------------------------------------


def test_one_open_notice_a_matter_brought_up_to_date_not_repeated(alice):
    first = inbox.notify(alice.pk, "dispute", "bob disputes a game", "/games/1/", key="game:1:x")
    again = inbox.notify(alice.pk, "dispute", "bob and carol dispute", "/games/1/", key="game:1:x")
    assert first is not None and again is None
    [notice] = open_notices(alice)
    assert notice.text == "bob and carol dispute"
    assert inbox.done("game:1:x") == [alice.pk]
    assert open_notices(alice) == [] and Notice.objects.get().read_at is not None
    # Settled, it may wait again later: a new notice.
    assert inbox.notify(alice.pk, "dispute", "again", "/games/1/", key="game:1:x") is not None


def test_counts_unread_turns_and_invitations_in_one_query(alice, django_assert_num_queries):
    inbox.notify(alice.pk, "your_turn", "Your turn", "/games/1/", key="game:1:turn")
    inbox.notify(alice.pk, "invitation", "You are invited", "/games/2/", key="game:2:invite")
    inbox.notify(alice.pk, "club", "Welcome to the club", "/leagues/c/")
    with django_assert_num_queries(1):
        assert inbox.counts(alice.pk) == {"unread": 3, "turns": 1, "invitations": 1}
    inbox.mark_read(alice)
    # Read, the turn and the invitation still wait; the news is done.
    assert inbox.counts(alice.pk) == {"unread": 0, "turns": 1, "invitations": 1}
    assert [n.kind for n in open_notices(alice)] == ["your_turn", "invitation"]


# -- turns and invitations from the games' own writes --------------------------------------------


def test_a_turn_is_a_notice_until_it_passes_and_everything_closes_when_the_game_ends(
    alice, bob, committed
):
    game = committed(dsa, "alice", "bob", alice)
    game.refresh_from_db()
    assert game.current_player == 0
    assert open_notices(alice, "your_turn") == []  # nobody's turn while bob has not answered
    [invited] = open_notices(bob, "invitation")
    assert invited.text == "You are invited to play Deep Sea Adventure with alice"
    committed(seating.game_accept, game=game.pk, seat=1, user=bob)
    assert open_notices(bob, "invitation") == []
    [turn] = open_notices(alice, "your_turn")  # his acceptance begins her turn
    assert turn.text == "Your turn in Deep Sea Adventure against bob"
    assert turn.url == f"/games/{game.pk}/" and turn.key == f"game:{game.pk}:turn"
    committed(play_until_turn_of, game, 1, [alice, bob])
    assert open_notices(alice, "your_turn") == []
    assert len(open_notices(bob, "your_turn")) == 1
    committed(services.game_resign, game=game.pk, seat=1, user=bob)
    assert open_notices(alice) == [] and open_notices(bob) == []


def test_a_rematch_offer_is_its_own_kind(alice, bob, committed):
    from games.play import lobby

    game = committed(dsa, "alice", "bob", alice)
    committed(seating.game_accept, game=game.pk, seat=1, user=bob)
    committed(services.game_resign, game=game.pk, seat=0, user=alice)
    committed(lobby.game_rematch, game=game.pk, user=alice)
    [offer] = open_notices(bob, "rematch")
    assert offer.text.startswith("A rematch of Deep Sea Adventure is offered to you")


# -- club records: to confirm, disputed, corrected ------------------------------------------------


def record(api, **extra):
    return api.post(
        "/api/matches/",
        {
            "game": DSA,
            "played_at": "2026-11-20",
            "results": [{"player": "alice", "rank": 1}, {"player": "bob", "rank": 2}],
            **extra,
        },
        format="json",
    )


def test_a_record_waits_for_the_named_member_and_a_dispute_for_who_may_settle_it(
    api, api_for, alice, bob, make_user, committed
):
    carol = make_user("carol")
    club = leagues.league_create(name="Harbour Club", created_by=carol)
    clubs_join = club.membership_set
    clubs_join.create(user=alice)
    clubs_join.create(user=bob)
    made = committed(record, api, league=club.slug)
    assert made.status_code == 201, made.content
    game_id = made.json()["id"]
    [ask] = open_notices(bob, "record_to_confirm")
    assert ask.text == "alice recorded a game of Deep Sea Adventure with you: confirm it"
    assert ask.url == f"/games/{game_id}/"
    assert open_notices(alice, "record_to_confirm") == []  # her word is given
    answer = committed(
        api_for(bob).post, f"/api/matches/{game_id}/dispute/", {"reason": "swapped"}, format="json"
    )
    assert answer.status_code == 201, answer.content
    assert open_notices(bob, "record_to_confirm") == []
    # The recorder and the club's owner are told; bob, who disputed, is not.
    [for_alice] = open_notices(alice, "dispute")
    [for_carol] = open_notices(carol, "dispute")
    assert for_carol.text == "bob disputes the result of a game of Deep Sea Adventure: settle it"
    assert open_notices(bob, "dispute") == []
    corrected = committed(
        api.post,
        f"/api/matches/{game_id}/correct/",
        {"results": [{"player": "bob", "rank": 1}, {"player": "alice", "rank": 2}]},
        format="json",
    )
    assert corrected.status_code == 201, corrected.content
    assert open_notices(alice, "dispute") == [] and open_notices(carol, "dispute") == []
    [again] = open_notices(bob, "record_to_confirm")
    assert (
        again.text
        == "alice corrected the result of a game of Deep Sea Adventure with you: confirm it"
    )
    assert again.pk != ask.pk
    committed(api_for(bob).post, f"/api/matches/{game_id}/confirm/", {}, format="json")
    assert open_notices(bob) == [] and open_notices(alice) == []


# -- tournaments and clubs -------------------------------------------------------------------------


def test_check_in_waits_until_done_and_a_paired_round_names_the_table(
    alice, bob, make_user, committed
):
    carol = make_user("carol")
    cup = committed(
        tournaments.tournament_create,
        spec=TournamentSpec(
            name="Harbour Cup",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=1,
            mode="table",
            players=["alice", "bob", "carol"],
            check_in=True,
        ),
        created_by=alice,
    )
    [check_in] = open_notices(bob, "check_in")
    assert check_in.text == "Check in for Harbour Cup: round 1 drops whoever has not"
    committed(tournaments.entry_check_in, tournament=cup, player="bob", by=bob)
    committed(tournaments.entry_check_in, tournament=cup, player="alice", by=alice)
    assert open_notices(bob, "check_in") == []
    assert len(open_notices(carol, "check_in")) == 1
    committed(tournaments.round_pair, tournament=cup, by=alice)
    assert open_notices(carol, "check_in") == []  # dropped: check-in is over
    [paired] = Notice.objects.filter(user=bob, kind="round_paired")
    assert paired.text == "Round 1 of Harbour Cup: you play at table 1"
    assert paired.data["table"] == 1 and paired.url == f"/tournaments/{cup.pk}/"
    assert not Notice.objects.filter(user=carol, kind="round_paired").exists()


def test_a_request_to_join_waits_for_the_organisers_until_answered(alice, bob, committed):
    club = leagues.league_create(name="Quiet Club", created_by=alice, visibility="members")
    committed(clubs.join_ask, league=club, by=bob, message="hello")
    [asked] = open_notices(alice, "join_request")
    assert asked.text == "bob asks to join Quiet Club"
    committed(clubs.join_answer, league=club, player="bob", accept=True, by=alice)
    assert open_notices(alice, "join_request") == []
    [welcome] = open_notices(bob, "club")
    assert welcome.text == "Welcome to Quiet Club: your request was accepted"


# -- the API ---------------------------------------------------------------------------------------


def test_the_api_lists_notices_newest_first_in_the_contract_shape(api, alice, bob):
    first = inbox.notify(alice.pk, "club", "Welcome", "/leagues/c/")
    second = inbox.notify(alice.pk, "your_turn", "Your turn", "/games/9/", key="game:9:turn")
    inbox.notify(bob.pk, "club", "Not alice's", "/leagues/c/")
    answer = api.get("/api/me/notices/")
    assert answer.status_code == 200 and answer["X-Unread"] == "2"
    body = answer.json()
    assert [n["id"] for n in body] == [second.pk, first.pk]
    assert body[0] == {
        "id": second.pk,
        "kind": "your_turn",
        "text": "Your turn",
        "url": "/games/9/",
        "created": body[0]["created"],
        "read": False,
        "waiting": True,
    }
    assert [n["id"] for n in api.get(f"/api/me/notices/?before={second.pk}").json()] == [first.pk]


def test_marking_read_by_id_or_all_and_only_ones_own(api, alice, bob):
    mine = [inbox.notify(alice.pk, "club", f"News {i}", "/") for i in range(3)]
    theirs = inbox.notify(bob.pk, "club", "Bob's", "/")
    answer = api.post("/api/me/notices/read/", {"ids": [mine[0].pk, theirs.pk]}, format="json")
    assert answer.status_code == 200
    assert answer.json() == {"marked": 1, "unread": 2, "turns": 0, "invitations": 0}
    assert Notice.objects.get(pk=theirs.pk).read_at is None
    assert [n["read"] for n in api.get("/api/me/notices/?unread=1").json()] == [False, False]
    assert api.post("/api/me/notices/read/", {}, format="json").json()["marked"] == 2
    assert api.get("/api/me/notices/?unread=true").json() == []


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/me/notices/?unread=maybe", None),
        ("get", "/api/me/notices/?before=soon", None),
        ("post", "/api/me/notices/read/", {"ids": ["one"]}),
        ("post", "/api/me/notices/read/", {"ids": 3}),
        ("post", "/api/me/notices/read/", {"ids": [0]}),
    ],
)
def test_bad_input_is_a_400_and_changes_nothing(api, alice, method, path, body):
    inbox.notify(alice.pk, "club", "News", "/")
    answer = getattr(api, method)(path, body, format="json") if body else api.get(path)
    assert answer.status_code == 400, answer.content
    assert "error" in answer.json()
    assert Notice.objects.get().read_at is None


def test_nobody_reads_an_inbox_signed_out(client):
    assert client.get("/api/me/notices/").status_code in (401, 403)


# -- pages ----------------------------------------------------------------------------------------


def test_the_bell_counts_unread_and_the_home_page_leads_with_what_waits(client, alice):
    inbox.notify(
        alice.pk,
        "record_to_confirm",
        "bob recorded a game: confirm it",
        "/games/4/",
        key="game:4:confirm",
    )
    inbox.notify(alice.pk, "club", "Welcome to the club", "/leagues/c/")
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert 'aria-label="Inbox: 2 unread"' in page
    waiting = page[page.index('id="waiting-for-you"') : page.index("Your games")]
    assert "bob recorded a game: confirm it" in waiting
    assert "Welcome to the club" not in waiting


def test_following_a_notice_reads_it_and_opens_its_page(client, alice, bob):
    notice = inbox.notify(alice.pk, "club", "Welcome", "/leagues/")
    client.force_login(bob)
    assert client.get(f"/inbox/{notice.pk}/").status_code == 404  # not bob's
    client.force_login(alice)
    page = client.get("/inbox/").content.decode()
    assert "Welcome" in page and 'class="notice unread"' in page
    followed = client.get(f"/inbox/{notice.pk}/")
    assert followed.status_code == 302 and followed["Location"] == "/leagues/"
    assert Notice.objects.get(pk=notice.pk).read_at is not None


# -- mail at once, never twice ---------------------------------------------------------------------


def verified(user) -> None:
    EmailAddress.objects.create(
        user=user, email=f"{user.username}@example.org", primary=True, verified=True
    )


def test_an_invitation_is_mailed_at_once_and_once_only(alice, bob, committed):
    from inbox import delivery

    verified(bob)
    game = committed(dsa, "alice", "bob", alice)
    [sent] = mail.outbox
    assert sent.to == ["bob@example.org"]
    assert sent.subject == "You are invited to play Deep Sea Adventure with alice"
    [notice] = open_notices(bob, "invitation")
    assert f"/inbox/{notice.pk}/" in sent.body
    assert delivery.deliver(notice.pk) == {"mail": False, "push": False}  # delivered twice
    assert len(mail.outbox) == 1 and game.pk


def test_no_mail_for_a_kind_chosen_none_a_short_clock_or_a_turn_already_passed(
    alice, bob, committed
):
    from inbox import delivery

    verified(alice)
    verified(bob)
    Choices.objects.create(user=bob, mail={"invitation": "none", "your_turn": "now"})
    Choices.objects.create(user=alice, mail={"your_turn": "now"})
    committed(dsa, "alice", "bob", alice, time_control={"move_seconds": 30, "on_timeout": "random"})
    assert mail.outbox == []  # bob chose none; alice's turn in a game at the board
    game = committed(dsa, "alice", "bob", bob)  # alice is invited to play first
    assert not [m for m in mail.outbox if m.subject.startswith("Your turn in")]
    committed(seating.game_accept, game=game.pk, seat=0, user=alice)  # her turn begins
    [sent] = [m for m in mail.outbox if m.subject.startswith("Your turn in")]
    assert sent.to == ["alice@example.org"]
    turn = Notice.objects.get(key=f"game:{game.pk}:turn", done_at__isnull=True)
    Notice.objects.filter(pk=turn.pk).update(mailed_at=None)
    inbox.done(f"game:{game.pk}:turn")
    assert delivery.deliver(turn.pk)["mail"] is False  # she has moved: nothing to tell


def test_no_mail_to_an_address_nobody_confirmed(alice, bob, committed):
    EmailAddress.objects.create(user=bob, email="bob@example.org", primary=True, verified=False)
    committed(dsa, "alice", "bob", alice)
    assert mail.outbox == []


def test_a_record_waiting_for_its_players_is_not_called_active_on_the_home_page(
    client, api, alice, bob, committed
):
    made = committed(record, api)
    assert made.status_code == 201
    client.force_login(bob)
    page = client.get("/").content.decode()
    row = page[page.index(f"/games/{made.json()['id']}/") :]
    row = row[: row.index("</tr>")]
    assert "Waiting for confirmation" in row and "Active" not in row
    assert "alice recorded a game of Deep Sea Adventure with you: confirm it" in page
