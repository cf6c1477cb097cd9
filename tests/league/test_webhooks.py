"""League webhooks against receivers the tests run: an HTTP server on 127.0.0.1 that checks
every signature with standardwebhooks' own Webhook.verify and keeps what arrives. Pairings,
results, standings and disputes each arrive once, in words; a fact rolled back sends nothing;
a receiver that was down gets everything once, in order, when it returns; two senders never
send one message twice; private addresses are refused; only organisers see or touch any of it.
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.db import connection, transaction
from django.utils import timezone
from standardwebhooks.webhooks import Webhook as Verifier

from league.models import OutboxMessage, Tournament, Webhook
from league.tasks import sweep_webhooks
from league.webhooks import sending
from tests.league.tournament_steps import pair

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


class Receiver:
    """A webhook receiver on 127.0.0.1: verifies each message against ``secret`` and keeps
    (webhook-id, body); answers ``status``. Stopped and started again on the same port."""

    def __init__(self) -> None:
        self.secret = ""
        self.status = 204
        self.delay = 0.0
        self.got: list[tuple[str, dict]] = []
        self.refused: list[str] = []
        self.lock = threading.Lock()
        self.port = 0
        self.server: ThreadingHTTPServer | None = None

    def start(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                raw = self.rfile.read(int(self.headers["Content-Length"]))
                try:
                    body = Verifier(receiver.secret).verify(raw, dict(self.headers))
                except Exception as exc:
                    receiver.refused.append(str(exc))
                    self.send_response(400)
                    self.end_headers()
                    return
                time.sleep(receiver.delay)
                if 200 <= receiver.status < 300:  # what it took in, not what it turned away
                    with receiver.lock:
                        receiver.got.append((self.headers["webhook-id"], body))
                self.send_response(receiver.status)
                self.end_headers()

            def log_message(self, *args):
                pass

        ThreadingHTTPServer.allow_reuse_address = True
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        assert self.server is not None
        self.server.shutdown()
        self.server.server_close()
        self.server = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def texts(self) -> list[str]:
        return [body.get("data", body).get("text") or body.get("content") for _, body in self.got]


@pytest.fixture(autouse=True)
def _loopback(settings):
    settings.HADAL_WEBHOOKS_ALLOW_LOOPBACK = True
    settings.HADAL_WEBHOOKS_TIMEOUT = 2


@pytest.fixture
def receiver():
    r = Receiver()
    r.start()
    yield r
    if r.server is not None:
        r.stop()


@pytest.fixture
def players(make_user):
    return {name: make_user(name) for name in ("ann", "ben", "cat", "dan")}


@pytest.fixture
def org(make_user):
    return make_user("org")


@pytest.fixture
def club(api_for, org, players):
    response = api_for(org).post("/api/leagues/", {"name": "Harbour Club"}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["slug"]


def add_hook(client, slug, url, fmt="plain"):
    return client.post(f"/api/leagues/{slug}/webhooks/", {"url": url, "format": fmt}, format="json")


@pytest.fixture
def hook(api_for, org, club, receiver):
    response = add_hook(api_for(org), club, receiver.url)
    assert response.status_code == 201, response.json()
    receiver.secret = response.json()["secret"]
    return Webhook.objects.get(pk=response.json()["id"])


def tournament(client, slug, **overrides):
    body = {
        "name": "Spring Open",
        "game": DSA,
        "format": "swiss",
        "table_size": 2,
        "rounds": 2,
        "mode": "table",
        "players": ["ann", "ben", "cat", "dan"],
        "league": slug,
        **overrides,
    }
    response = client.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def report(api_for, players, tid, table, *, agree=True):
    """The first seat wins: reported by the first seat, confirmed (or disputed) by the other."""
    seats = table["seats"]
    results = [{"player": p, "score": 10 - i, "rank": i + 1} for i, p in enumerate(seats)]
    url = f"/api/tournaments/{tid}/tables/{table['id']}/"
    assert api_for(players[seats[0]]).post(url + "report/", {"results": results}, format="json")
    other = (
        results if agree else [{**r, "rank": 3 - r["rank"], "score": r["rank"]} for r in results]
    )
    response = api_for(players[seats[1]]).post(url + "confirm/", {"results": other}, format="json")
    assert response.status_code == 201, response.json()


# -- each fact arrives once, in words -------------------------------------------------------------


def test_a_round_paired_arrives_in_words(
    api_for, org, club, hook, receiver, django_capture_on_commit_callbacks
):
    tid = tournament(api_for(org), club)
    with django_capture_on_commit_callbacks(execute=True):
        body = pair(api_for(org), tid)
    (text,) = receiver.texts()
    tables = "; ".join(f"table {t['number']} {' v '.join(t['seats'])}" for t in body["tables"])
    assert text == f"Round 1 of Spring Open is paired: {tables}"
    message_id, sent = receiver.got[0]
    assert sent["type"] == "round.paired" and sent["data"]["round"] == 1
    assert message_id == f"msg_{OutboxMessage.objects.get().pk}"
    assert OutboxMessage.objects.get().sent_at is not None


def test_results_then_standings_and_a_dispute_arrive_once_each(
    api_for, org, club, hook, receiver, players, django_capture_on_commit_callbacks
):
    tid = tournament(api_for(org), club)
    with django_capture_on_commit_callbacks(execute=True):
        first, second = pair(api_for(org), tid)["tables"]
    with django_capture_on_commit_callbacks(execute=True):
        report(api_for, players, tid, first)
    winner, loser = first["seats"]
    assert receiver.texts()[-1] == (
        f"Deep Sea Adventure at table {first['number']}, round 1 of Spring Open, result:"
        f" {winner} won with 10 and {loser} 2nd with 9"
    )
    with django_capture_on_commit_callbacks(execute=True):
        report(api_for, players, tid, second, agree=False)
    assert receiver.texts()[-1].startswith(
        f"{second['seats'][1]} disputes the result of Deep Sea Adventure at table"
        f" {second['number']}, round 1 of Spring Open"
    )
    # The organiser settles it: its result, and the round is complete, so the standings.
    results = [{"player": p, "score": 5 - i, "rank": i + 1} for i, p in enumerate(second["seats"])]
    with django_capture_on_commit_callbacks(execute=True):
        settled = api_for(org).post(
            f"/api/tournaments/{tid}/tables/{second['id']}/override/",
            {"results": results},
            format="json",
        )
    assert settled.status_code == 201, settled.json()
    types = [body["type"] for _, body in receiver.got]
    assert types == [
        "round.paired",
        "result.recorded",
        "result.disputed",
        "result.recorded",
        "standings.changed",
    ]
    assert receiver.texts()[-1].startswith("Spring Open standings after round 1: 1. ")
    assert len({message_id for message_id, _ in receiver.got}) == 5
    assert not receiver.refused


def test_a_club_record_arrives_in_slack_and_discord_words(
    api_for, org, club, receiver, players, django_capture_on_commit_callbacks
):
    client = api_for(org)
    secrets = []
    for fmt in ("slack", "discord"):
        response = add_hook(client, club, receiver.url, fmt)
        secrets.append(response.json()["secret"])
    assert secrets[0] != secrets[1]
    receiver.secret = secrets[0]  # the slack one; discord's then fails verification
    body = {
        "game": DSA,
        "played_at": "2026-11-20",
        "league": club,
        "results": [
            {"player": "org", "score": 30, "rank": 1},
            {"player": "Zoe", "score": 12, "rank": 2, "guest": True},
        ],
    }
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post("/api/matches/", body, format="json").status_code == 201
    assert receiver.got[0][1] == {
        "text": "Deep Sea Adventure at Harbour Club, result: org won with 30 and Zoe 2nd with 12"
    }
    assert len(receiver.refused) == 1  # the discord webhook's, signed with its own secret


def test_a_fact_rolled_back_sends_nothing(api_for, org, club, hook, players):
    from league.services.tournaments import round_pair

    tid = tournament(api_for(org), club)
    with pytest.raises(RuntimeError), transaction.atomic():
        round_pair(tournament=Tournament.objects.get(pk=tid), by=org)
        assert OutboxMessage.objects.count() == 1  # written with the pairing...
        raise RuntimeError("the pairing's transaction fails")
    assert OutboxMessage.objects.count() == 0  # ...and gone with it
    assert Webhook.objects.get().last_seq == 0


def test_a_result_rolled_back_sends_nothing(api_for, org, club, hook, players):
    tid = tournament(api_for(org), club)
    table = pair(api_for(org), tid)["tables"][0]
    before = OutboxMessage.objects.count()
    with pytest.raises(RuntimeError), transaction.atomic():
        report(api_for, players, tid, table)
        assert OutboxMessage.objects.filter(type="result.recorded").count() == 1
        raise RuntimeError("the result's transaction fails")
    assert OutboxMessage.objects.count() == before


# -- a receiver that is down ----------------------------------------------------------------------


def test_a_receiver_down_gets_every_message_once_in_order_when_back(
    api_for, org, club, hook, receiver, players, django_capture_on_commit_callbacks
):
    receiver.stop()
    tid = tournament(api_for(org), club)
    with django_capture_on_commit_callbacks(execute=True):
        tables = pair(api_for(org), tid)["tables"]
    for table in tables:
        with django_capture_on_commit_callbacks(execute=True):
            report(api_for, players, tid, table)
    for _ in range(3):  # the sweep finds the head message not due yet: nothing is tried
        sweep_webhooks()
    waiting = list(OutboxMessage.objects.order_by("seq"))
    assert [m.type for m in waiting] == [
        "round.paired",
        "result.recorded",
        "result.recorded",
        "standings.changed",
    ]
    head = waiting[0]
    assert head.sent_at is None and head.attempts >= 1 and "no answer" in head.last_error
    assert head.next_attempt_at > timezone.now()  # backoff recorded
    assert all(m.attempts == 0 for m in waiting[1:])  # nothing sent past the head
    # Each failure waits twice as long as the one before, up to an hour.
    now = timezone.now()
    for _ in range(12):
        now += timedelta(hours=1)
        sweep_webhooks(now.isoformat())
    head.refresh_from_db()
    assert head.attempts >= 10 and head.next_attempt_at - now == timedelta(hours=1)

    receiver.start()  # back, on the same port
    sweep_webhooks((now + timedelta(hours=1)).isoformat())
    assert [body["type"] for _, body in receiver.got] == [m.type for m in waiting]
    assert [mid for mid, _ in receiver.got] == [f"msg_{m.pk}" for m in waiting]
    sweep_webhooks((now + timedelta(hours=2)).isoformat())
    assert len(receiver.got) == 4  # once each
    assert not OutboxMessage.objects.filter(sent_at__isnull=True).exists()


def test_a_webhook_failing_for_three_days_stops_until_resumed(
    api_for, org, club, hook, receiver, django_capture_on_commit_callbacks
):
    receiver.status = 500
    client = api_for(org)
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(f"/api/leagues/{club}/webhooks/{hook.pk}/test/").status_code == 201
    message = OutboxMessage.objects.get()
    assert message.last_status == 500 and "answered 500" in message.last_error
    sweep_webhooks((timezone.now() + timedelta(days=3, hours=1)).isoformat())
    hook.refresh_from_db()
    assert hook.stopped_at is not None
    listed = client.get(f"/api/leagues/{club}/webhooks/").json()
    assert listed[0]["state"] == "stopped" and listed[0]["waiting"] == 1
    refused = client.post(f"/api/leagues/{club}/webhooks/{hook.pk}/test/")
    assert refused.status_code == 409
    receiver.status = 200
    with django_capture_on_commit_callbacks(execute=True):
        resumed = client.post(f"/api/leagues/{club}/webhooks/{hook.pk}/resume/")
    assert resumed.status_code == 200 and resumed.json()["state"] == "sending"
    assert [body["type"] for _, body in receiver.got] == ["test"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_senders_at_once_never_send_a_message_twice(receiver, org):
    from league.models import League

    league = League.objects.create(name="Harbour Club", slug="harbour-club")
    hook = Webhook.objects.create(
        league=league, url=receiver.url, format="plain", secret="whsec_" + "QUJD" * 8
    )
    receiver.secret = hook.secret
    receiver.delay = 0.02
    from league.webhooks import facts, outbox

    for n in range(20):
        with transaction.atomic():
            outbox.post([league.pk], facts.test(league=f"Harbour Club {n}", by="org"))
    # The messages were sent after each commit (eager Celery); mark them waiting again.
    receiver.got.clear()
    OutboxMessage.objects.update(sent_at=None, attempts=0)
    results = []

    def drain():
        try:
            results.append(sending.drain(hook.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=drain) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    sent = [body["data"]["league"] for _, body in receiver.got]
    assert sent == [f"Harbour Club {n}" for n in range(20)]
    assert sum(r.sent for r in results) == 20
    assert any(r.busy for r in results) or min(r.sent for r in results) == 0


# -- addresses ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("http://10.0.0.1/hook", 422),
        ("http://192.168.1.20/hook", 422),
        ("http://169.254.169.254/latest/meta-data", 422),
        ("http://[::1]/hook", 400),
        ("http://0.0.0.0/hook", 422),
        ("http://224.0.0.1/hook", 422),
        ("ftp://example.com/hook", 400),
        ("https://user:pw@example.com/hook", 400),
        ("javascript:alert(1)", 400),
        ("http://no-such-host.invalid/hook", 422),
        ("http://example.com:0/hook", 422),
        # Not printable ASCII: the schema's pattern and the server's agree (\S did not: NEL).
        ("http://example.com/a\u0085b", 400),
        ("http://example.com/a\u0011b", 400),
    ],
)
def test_a_private_or_malformed_address_is_refused(api_for, org, club, url, status):
    response = add_hook(api_for(org), club, url)
    assert response.status_code == status, response.json()
    assert not Webhook.objects.exists()


def test_loopback_is_refused_unless_the_setting_allows_it(api_for, org, club, settings):
    settings.HADAL_WEBHOOKS_ALLOW_LOOPBACK = False
    for url in ("http://127.0.0.1:9/hook", "http://localhost:9/hook"):
        response = add_hook(api_for(org), club, url)
        assert response.status_code == 422 and "public" in response.json()["error"]
    settings.HADAL_WEBHOOKS_ALLOW_LOOPBACK = True
    assert add_hook(api_for(org), club, "http://localhost:9/hook").status_code == 201


def test_an_address_turned_private_since_is_refused_at_send_time(
    api_for, org, club, hook, receiver, settings, django_capture_on_commit_callbacks
):
    settings.HADAL_WEBHOOKS_ALLOW_LOOPBACK = False  # as if its DNS now said 127.0.0.1
    with django_capture_on_commit_callbacks(execute=True):
        api_for(org).post(f"/api/leagues/{club}/webhooks/{hook.pk}/test/")
    message = OutboxMessage.objects.get()
    assert message.sent_at is None and "not a public address" in message.last_error
    assert receiver.got == []


def test_a_bad_format_is_a_400(api_for, org, club, receiver):
    response = add_hook(api_for(org), club, receiver.url, "teams")
    assert response.status_code == 400 and not Webhook.objects.exists()


# -- the API and the page -------------------------------------------------------------------------


def test_the_secret_is_shown_once_and_the_log_lists_deliveries(
    api_for, org, club, hook, receiver, django_capture_on_commit_callbacks
):
    client = api_for(org)
    listed = client.get(f"/api/leagues/{club}/webhooks/").json()
    assert listed == [
        {
            "id": hook.pk,
            "url": receiver.url,
            "format": "plain",
            "state": "sending",
            "stopped_at": None,
            "waiting": 0,
            "created_by": "org",
            "created_at": listed[0]["created_at"],
        }
    ]
    with django_capture_on_commit_callbacks(execute=True):
        tested = client.post(f"/api/leagues/{club}/webhooks/{hook.pk}/test/")
    assert tested.status_code == 201 and tested.json()["event"] == "Test"
    (log,) = client.get(f"/api/leagues/{club}/webhooks/{hook.pk}/deliveries/").json()
    assert log["state"] == "delivered" and log["attempts"] == 1 and log["last_status"] == 204
    assert log["text"] == "A test from Hadal, sent by org: Harbour Club's webhook works"
    assert receiver.got[0][1]["type"] == "test"
    removed = client.delete(f"/api/leagues/{club}/webhooks/{hook.pk}/")
    assert removed.status_code == 200 and not Webhook.objects.exists()
    assert client.delete(f"/api/leagues/{club}/webhooks/{hook.pk}/").status_code == 404


def test_only_organisers_see_or_touch_webhooks(api_for, club, hook, players, receiver):
    member = api_for(players["ann"])
    base = f"/api/leagues/{club}/webhooks/"
    assert member.get(base).status_code == 403
    assert add_hook(member, club, receiver.url).status_code == 403
    assert member.post(f"{base}{hook.pk}/test/").status_code == 403
    assert member.get(f"{base}{hook.pk}/deliveries/").status_code == 403
    assert member.delete(f"{base}{hook.pk}/").status_code == 403
    assert member.get("/api/leagues/no-such-club/webhooks/").status_code == 404
    assert Webhook.objects.count() == 1 and not OutboxMessage.objects.exists()


def test_the_club_page_adds_tests_and_logs_a_webhook_for_organisers_only(
    client, org, club, players, receiver, django_capture_on_commit_callbacks
):
    client.force_login(org)
    page = f"/leagues/{club}/"
    added = client.post(f"{page}webhooks/", {"url": receiver.url, "format": "discord"}, follow=True)
    hook = Webhook.objects.get()
    said = added.content.decode()
    assert f"shown this once: {hook.secret}" in said
    receiver.secret = hook.secret
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"{page}webhooks/{hook.pk}/test/")
    assert receiver.got[0][1] == {
        "content": "A test from Hadal, sent by org: Harbour Club's webhook works"
    }
    shown = client.get(page).content.decode()
    assert 'id="webhooks"' in shown and "Delivery log" in shown
    assert "<strong>Test</strong>: A test from Hadal" in shown and "Delivered" in shown
    assert hook.secret not in shown  # once only

    refused = client.post(f"{page}webhooks/", {"url": "http://10.0.0.1/", "format": "slack"})
    assert "public" in client.get(page).content.decode() and refused.status_code == 302
    assert Webhook.objects.count() == 1

    client.force_login(players["ann"])  # a member, not an organiser
    assert 'id="webhooks"' not in client.get(page).content.decode()
    client.post(f"{page}webhooks/{hook.pk}/remove/")
    client.post(f"{page}webhooks/", {"url": receiver.url, "format": "slack"})
    assert Webhook.objects.count() == 1
    assert client.post(f"{page}webhooks/{hook.pk}/explode/").status_code == 404

    client.force_login(org)
    client.post(f"{page}webhooks/{hook.pk}/remove/")
    assert not Webhook.objects.exists()


# -- a game that ends with a lone write: the store gives it a transaction --------------------------


def online_table(api_for, org, club):
    tid = tournament(api_for(org), club, mode="online")
    return tid, pair(api_for(org), tid)["tables"][0]


@pytest.mark.django_db(transaction=True)
def test_a_game_ended_by_a_lone_write_sends_its_result(api_for, org, club, hook, receiver, players):
    tid, table = online_table(api_for, org, club)
    loser, winner = table["seats"]
    game = table["game"]
    assert not connection.in_atomic_block  # a resignation is written alone, as moves are
    response = api_for(players[loser]).post(
        f"/api/games/{game}/resign/", {"seat": 0}, format="json"
    )
    assert response.status_code == 201, response.json()
    result = OutboxMessage.objects.get(type="result.recorded")
    assert result.sent_at is not None
    assert receiver.texts()[-1] == (
        f"Deep Sea Adventure at table 1, round 1 of Spring Open, result: {winner} won"
        f" and {loser} 2nd"
    )


@pytest.mark.django_db(transaction=True)
def test_a_lone_write_whose_outbox_fails_is_undone(
    api_for, org, club, hook, receiver, players, monkeypatch
):
    from games.models import Game, GameStatus
    from league.webhooks import outbox

    tid, table = online_table(api_for, org, club)
    game = Game.objects.get(pk=table["game"])

    def broken(*args, **kwargs):
        raise RuntimeError("the outbox cannot be written")

    monkeypatch.setattr(outbox, "post", broken)
    client = api_for(players[table["seats"][0]])
    with pytest.raises(RuntimeError):
        client.post(f"/api/games/{game.pk}/resign/", {"seat": 0}, format="json")
    after = Game.objects.get(pk=game.pk)
    assert after.status == GameStatus.ACTIVE and after.version == game.version
