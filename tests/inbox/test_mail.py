"""Mail about notices: the daily list at the member's hour in their zone, once a day however
many runs ask, with the games waiting for their move and the results waiting for their word;
never a notice in two mails; a one-click unsubscribe in every mail (RFC 8058); only to a
confirmed address."""

from __future__ import annotations

import datetime as dt
import threading
from email import message_from_string

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.db import close_old_connections, connection
from django.test.utils import CaptureQueriesContext

from inbox import delivery, kinds
from inbox import services as inbox
from inbox.digest import digest_send_due
from inbox.mail import unsubscribe_token
from inbox.models import Choices, Notice
from tests.conftest import is_postgres

pytestmark = pytest.mark.django_db
SITE = "https://hadal.example"
# Monday 7 December 2026, 16:05 UTC: 18:05 in Athens, 11:05 in New York.
AT = dt.datetime(2026, 12, 7, 16, 5, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def site(settings):
    settings.HADAL_SITE_URL = SITE


def verified(user) -> str:
    address = f"{user.username}@example.org"
    EmailAddress.objects.create(user=user, email=address, primary=True, verified=True)
    return address


def turn(user, game: int) -> Notice:
    return inbox.notify(
        user.pk,
        "your_turn",
        f"Your turn in Abyss against bob (game {game})",
        f"/games/{game}/",
        key=f"game:{game}:turn",
    )


def to_confirm(user, game: int) -> Notice:
    return inbox.notify(
        user.pk,
        "record_to_confirm",
        "bob recorded a game of Ventlife with you: confirm it",
        f"/games/{game}/",
        key=f"game:{game}:confirm",
    )


def lists_to(address: str) -> list:
    return [m for m in mail.outbox if m.to == [address] and "for you today" in m.subject]


# -- the daily list -------------------------------------------------------------------------------


def test_the_list_goes_at_the_members_hour_in_their_zone_and_not_before(alice):
    address = verified(alice)
    Choices.objects.create(user=alice, digest_hour=18, timezone="Europe/Athens")
    first = turn(alice, 1)
    record = to_confirm(alice, 2)
    assert digest_send_due(now=AT - dt.timedelta(minutes=10)) == 0  # 17:55 in Athens
    assert mail.outbox == [] and Notice.objects.filter(mailed_at__isnull=False).count() == 0
    assert digest_send_due(now=AT) == 1  # 18:05 in Athens
    [sent] = lists_to(address)
    assert sent.subject == "Hadal: 2 things for you today"
    body = sent.body
    assert body.index("Games waiting for your move:") < body.index(first.text)
    assert body.index("Results waiting for your word:") < body.index(record.text)
    assert f"{SITE}/inbox/{first.pk}/" in body and f"{SITE}/inbox/{record.pk}/" in body
    assert f"{SITE}/inbox/choices/" in body
    html, kind = sent.alternatives[0]
    assert kind == "text/html" and f'href="{SITE}/inbox/{first.pk}/"' in html
    assert Choices.objects.get(user=alice).digest_sent_on == dt.date(2026, 12, 7)
    assert set(Notice.objects.filter(mailed_at__isnull=False)) == {first, record}


def test_the_same_moment_is_another_hour_in_another_zone(alice, bob):
    verified(alice)
    verified(bob)
    Choices.objects.create(user=alice, digest_hour=18, timezone="Europe/Athens")
    Choices.objects.create(user=bob, digest_hour=18, timezone="America/New_York")
    turn(alice, 1)
    turn(bob, 2)
    assert digest_send_due(now=AT) == 1  # 11:05 in New York: not yet bob's hour
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]
    # His local day, not UTC's: 18:00 in New York is 23:00 UTC, and the day is still the 7th.
    assert digest_send_due(now=dt.datetime(2026, 12, 7, 23, 1, tzinfo=dt.UTC)) == 1
    assert Choices.objects.get(user=bob).digest_sent_on == dt.date(2026, 12, 7)


def test_once_a_day_however_many_runs_and_the_next_day_only_whats_new(alice):
    address = verified(alice)
    Choices.objects.create(user=alice, digest_hour=8, timezone="UTC")
    turn(alice, 1)
    assert digest_send_due(now=AT) == 1
    turn(alice, 2)  # after today's list
    assert digest_send_due(now=AT + dt.timedelta(minutes=10)) == 0
    assert digest_send_due(now=AT + dt.timedelta(hours=7)) == 0  # 23:05, the same day
    assert len(lists_to(address)) == 1
    assert digest_send_due(now=AT + dt.timedelta(hours=16)) == 1  # 08:05 the next day
    later = lists_to(address)[1]
    assert "(game 2)" in later.body and "(game 1)" not in later.body  # never a notice twice


def test_nothing_waiting_no_mail_and_the_day_is_not_spent(alice):
    address = verified(alice)
    Choices.objects.create(user=alice, digest_hour=8, timezone="UTC")
    inbox.notify(alice.pk, "tournament", "The Cup has ended", "/tournaments/1/")  # no mail
    finished = turn(alice, 1)
    inbox.done(finished.key)  # she moved before the list went
    assert digest_send_due(now=AT) == 0
    assert mail.outbox == [] and Choices.objects.get(user=alice).digest_sent_on is None
    turn(alice, 3)
    assert digest_send_due(now=AT + dt.timedelta(minutes=10)) == 1
    assert len(lists_to(address)) == 1


def test_only_the_kinds_the_member_wants_in_the_list_and_read_news_is_left_out(alice):
    address = verified(alice)
    Choices.objects.create(user=alice, digest_hour=0, mail={"your_turn": "none", "club": "digest"})
    turn(alice, 1)
    news = inbox.notify(alice.pk, "club", "You joined the Harbour Club", "/leagues/harbour/")
    seen = inbox.notify(alice.pk, "club", "You left the Reef Club", "/leagues/reef/")
    inbox.mark_read(alice, [seen.pk])
    request = inbox.notify(alice.pk, "join_request", "carol asks to join", "/leagues/h/")
    assert digest_send_due(now=AT) == 1
    [sent] = lists_to(address)
    assert "Also for you:" in sent.body and news.text in sent.body and request.text in sent.body
    assert "Your turn" not in sent.body and seen.text not in sent.body
    assert "Games waiting for your move" not in sent.body


def test_a_member_on_the_defaults_gets_the_list_at_18_utc(alice):
    address = verified(alice)
    turn(alice, 1)
    assert digest_send_due(now=AT) == 0  # 16:05 UTC
    assert not Choices.objects.filter(user=alice).exists()
    assert digest_send_due(now=AT.replace(hour=18)) == 1
    assert len(lists_to(address)) == 1
    row = Choices.objects.get(user=alice)
    assert (row.mail, row.digest_sent_on) == ({}, dt.date(2026, 12, 7))


def test_mail_only_to_a_confirmed_address(alice, bob):
    EmailAddress.objects.create(user=bob, email="bob@example.org", primary=True, verified=False)
    Choices.objects.create(user=bob, digest_hour=0)
    Choices.objects.create(user=alice, digest_hour=0)
    turn(alice, 1)
    turn(bob, 2)
    assert digest_send_due(now=AT) == 0
    assert mail.outbox == [] and not Notice.objects.filter(mailed_at__isnull=False).exists()
    EmailAddress.objects.filter(user=bob).update(verified=True)
    assert digest_send_due(now=AT) == 1
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]


def test_an_at_once_mail_is_not_repeated_in_the_list(alice, django_capture_on_commit_callbacks):
    address = verified(alice)
    Choices.objects.create(user=alice, digest_hour=0, mail={"dispute": "now"})
    with django_capture_on_commit_callbacks(execute=True):
        disputed = inbox.notify(alice.pk, "dispute", "bob disputes a result", "/games/5/")
    [at_once] = mail.outbox
    assert at_once.subject == "bob disputes a result"
    # She changes her mind: disputes in the list from now on. The one mailed stays mailed.
    Choices.objects.filter(user=alice).update(mail={"dispute": "digest"})
    delivery.forget_choices()
    turn(alice, 1)
    assert digest_send_due(now=AT) == 1
    [listed] = lists_to(address)
    assert disputed.text not in listed.body and "Your turn in Abyss" in listed.body


def test_a_notice_in_the_list_is_not_mailed_at_once_after(alice):
    verified(alice)
    Choices.objects.create(user=alice, digest_hour=0)
    notice = turn(alice, 1)
    assert digest_send_due(now=AT) == 1
    Choices.objects.filter(user=alice).update(mail={"your_turn": "now"})
    assert delivery.deliver(notice.pk)["mail"] is False
    assert len(mail.outbox) == 1


@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_send_one_list(alice):
    """Two workers, each on its own connection, run the same moment's digest."""
    if not is_postgres():
        pytest.skip("two connections at once need PostgreSQL")
    verified(alice)
    Choices.objects.create(user=alice, digest_hour=0)
    turn(alice, 1)
    sent: list[int] = []
    start = threading.Barrier(2)

    def worker():
        try:
            start.wait()
            sent.append(digest_send_due(now=AT))
        finally:
            close_old_connections()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(sent) == [0, 1] and len(mail.outbox) == 1


def test_the_runs_queries_do_not_grow_with_the_members(make_user):
    def run_with(members: int) -> int:
        users = [make_user(f"m{members}-{i}") for i in range(members)]
        for index, user in enumerate(users):
            verified(user)
            turn(user, 1000 * members + index)
        # One member whose hour has come; the others wait for theirs.
        Choices.objects.bulk_create(
            [Choices(user=user, digest_hour=0 if i == 0 else 23) for i, user in enumerate(users)]
        )
        with CaptureQueriesContext(connection) as queries:
            assert digest_send_due(now=AT) == 1
        Notice.objects.update(done_at=AT)
        return len(queries)

    few, many = run_with(3), run_with(30)
    assert few == many and few <= 10


def test_the_beat_runs_the_list_every_ten_minutes(settings):
    from config.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["send-digests"]
    assert entry["task"] == "inbox.tasks.send_digests" and entry["schedule"] == 600
    assert "inbox.tasks.send_digests" in app.tasks


# -- one-click unsubscribe ------------------------------------------------------------------------


def test_every_mail_carries_the_one_click_unsubscribe(alice, django_capture_on_commit_callbacks):
    verified(alice)
    Choices.objects.create(user=alice, digest_hour=0, mail={"invitation": "now"})
    with django_capture_on_commit_callbacks(execute=True):
        inbox.notify(alice.pk, "invitation", "You are invited to play Abyss", "/games/3/")
    turn(alice, 1)
    digest_send_due(now=AT)
    at_once, listed = mail.outbox
    for sent, stops in ((at_once, "invitation"), (listed, "digest")):
        link = f"{SITE}/inbox/unsubscribe/{unsubscribe_token(alice.pk, stops)}/"
        assert sent.extra_headers["List-Unsubscribe"] == f"<{link}>"
        assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert link in sent.body and f"{SITE}/inbox/choices/" in sent.body
        parsed = message_from_string(sent.message().as_string())
        assert parsed["List-Unsubscribe"].strip() == f"<{link}>"


def test_a_get_only_asks_and_the_one_click_post_stops_that_kind(client, alice):
    token = unsubscribe_token(alice.pk, "invitation")
    page = client.get(f"/inbox/unsubscribe/{token}/")
    assert page.status_code == 200
    assert "Yes, stop them" in page.content.decode()
    assert "You are invited to a game" in page.content.decode()
    assert not Choices.objects.filter(user=alice).exists()  # link scanners change nothing
    # As a mail client sends it: no session, no CSRF token, the RFC 8058 body.
    client.handler.enforce_csrf_checks = True
    done = client.post(
        f"/inbox/unsubscribe/{token}/",
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert done.status_code == 200 and "you will get no more" in done.content.decode()
    row = Choices.objects.get(user=alice)
    assert delivery.mail_choice(row, "invitation") == kinds.NONE
    assert delivery.mail_choice(row, "dispute") == kinds.NOW  # only that kind


def test_the_lists_link_stops_the_list_and_all_stops_every_mail(client, alice):
    Choices.objects.create(user=alice, mail={"club": "digest", "dispute": "now"})
    client.post(f"/inbox/unsubscribe/{unsubscribe_token(alice.pk, 'digest')}/")
    row = Choices.objects.get(user=alice)
    wanted = {name: delivery.mail_choice(row, name) for name in kinds.NAMES}
    assert kinds.DIGEST not in wanted.values() and wanted["dispute"] == kinds.NOW
    client.post(f"/inbox/unsubscribe/{unsubscribe_token(alice.pk, 'all')}/")
    row.refresh_from_db()
    assert {delivery.mail_choice(row, name) for name in kinds.NAMES} == {kinds.NONE}


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_tampered_token_is_refused_and_changes_nothing(client, alice, bob, method):
    token = unsubscribe_token(alice.pk, "all")
    for bad in (token[:-2] + ("AA" if not token.endswith("AA") else "BB"), "nonsense", "a:b:c"):
        answer = getattr(client, method)(f"/inbox/unsubscribe/{bad}/")
        assert answer.status_code == 400, bad
        assert "This link does not work" in answer.content.decode()
    # Signed for another purpose (the same key, another salt): refused too.
    from django.core import signing

    forged = signing.Signer(salt="something.else").sign_object({"u": bob.pk, "s": "all"})
    assert getattr(client, method)(f"/inbox/unsubscribe/{forged}/").status_code == 400
    assert not Choices.objects.exists()
