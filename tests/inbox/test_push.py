"""Web Push: a notice reaches the member's devices through a push service, encrypted to each
device's keys and signed with the server's VAPID key, once per notice; a device the push
service no longer knows is removed, one that fails is counted. The push service here is real:
an HTTP server the test runs on 127.0.0.1, and the test decrypts what it received as a browser
would."""

from __future__ import annotations

import base64
import io
import json
import os
import threading
from dataclasses import dataclass, field
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.utils import timezone

from games.play import seating, services
from inbox import delivery, push
from inbox import services as inbox
from inbox.models import Choices, Notice, PushDevice
from tests.tokens import key_for

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


# -- a push service of the test's own ----------------------------------------------------------


@dataclass
class Received:
    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes


@dataclass
class PushService:
    """Takes pushes at http://127.0.0.1:<port>/<anything>, answering 201 unless told otherwise
    for a path (``answers``), and keeps what it received."""

    url: str = ""
    answers: dict[str, int] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)

    def to(self, path: str) -> list[Received]:
        return [r for r in self.received if r.path == path]


@pytest.fixture
def push_service():
    service = PushService()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            headers = {name.lower(): value for name, value in self.headers.items()}
            service.received.append(Received(self.path, headers, body))
            self.send_response(service.answers.get(self.path, 201))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    service.url = f"http://127.0.0.1:{server.server_address[1]}"
    yield service
    server.shutdown()
    server.server_close()


@pytest.fixture
def push_on(settings):
    """The server's own VAPID keys, as `manage.py vapid_keys` makes them; pushes to the test's
    push service on 127.0.0.1 let in."""
    settings.HADAL_VAPID_PUBLIC_KEY, settings.HADAL_VAPID_PRIVATE_KEY = push.vapid_key_pair()
    settings.HADAL_VAPID_SUBJECT = "mailto:operator@example.org"
    settings.HADAL_PUSH_ALLOW_LOOPBACK = True
    return settings


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """A browser's side of a subscription: its key pair and secret, as PushManager makes."""

    key: ec.EllipticCurvePrivateKey
    auth: bytes
    endpoint: str

    @classmethod
    def new(cls, endpoint: str) -> Browser:
        return cls(ec.generate_private_key(ec.SECP256R1()), os.urandom(16), endpoint)

    @property
    def subscription(self) -> dict:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
        }

    def read(self, received: Received) -> dict:
        """Decrypt a push as the browser does (RFC 8291, aes128gcm)."""
        assert received.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            received.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def device_for(user, browser: Browser, label: str = "") -> PushDevice:
    keys = browser.subscription["keys"]
    return push.push_device_register(
        user=user, endpoint=browser.endpoint, p256dh=keys["p256dh"], auth=keys["auth"], label=label
    )[0]


def vapid_claims(received: Received, public_key: str) -> dict:
    """The claims of the VAPID Authorization header, once its signature has been verified with
    the server's public key (RFC 8292: ``vapid t=<JWT>, k=<key>``)."""
    scheme, _, rest = received.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert parts["k"] == public_key
    header, claims, signature = parts["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if not
    return json.loads(unb64url(claims))


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    def run(action, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return action(*args, **kwargs)

    return run


# -- the keys --------------------------------------------------------------------------------------


def test_vapid_keys_prints_a_pair_whose_halves_belong_together():
    out = io.StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())
    public, private = lines["HADAL_VAPID_PUBLIC_KEY"], lines["HADAL_VAPID_PRIVATE_KEY"]
    point = unb64url(public)
    assert len(point) == 65 and point[0] == 4  # an uncompressed P-256 point: applicationServerKey
    key = ec.derive_private_key(int.from_bytes(unb64url(private), "big"), ec.SECP256R1())
    assert (
        key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        == point
    )
    assert "=" not in public + private  # URL-safe base64 without padding


def test_a_key_that_is_not_a_pair_fails_the_system_check(settings):
    public, private = push.vapid_key_pair()
    settings.HADAL_VAPID_PUBLIC_KEY, settings.HADAL_VAPID_PRIVATE_KEY = public, private
    assert push.check_settings() == []
    settings.HADAL_VAPID_PUBLIC_KEY = push.vapid_key_pair()[0]
    assert [e.id for e in push.check_settings()] == ["inbox.E002"]
    settings.HADAL_VAPID_PRIVATE_KEY = "not-a-key"
    assert [e.id for e in push.check_settings()] == ["inbox.E001"]


# -- a notice pushed, once -------------------------------------------------------------------------


def test_a_notice_is_pushed_encrypted_and_signed_and_never_twice(
    push_on, push_service, alice, committed
):
    phone = Browser.new(f"{push_service.url}/push/alice-phone")
    device_for(alice, phone, "Firefox on Android")
    notice = committed(
        inbox.notify,
        alice.pk,
        "invitation",
        "You are invited to play Deep Sea Adventure with bob",
        "/games/7/",
        key="game:7:invite:0",
    )
    [received] = push_service.received
    assert received.path == "/push/alice-phone"
    assert phone.read(received) == {
        "title": "Hadal",
        "body": "You are invited to play Deep Sea Adventure with bob",
        "url": f"/inbox/{notice.pk}/",
        "tag": "game:7:invite:0",
    }
    assert received.headers["ttl"] == str(push.TTL_SECONDS)
    claims = vapid_claims(received, push_on.HADAL_VAPID_PUBLIC_KEY)
    assert claims["aud"] == push_service.url  # the endpoint's origin
    assert claims["sub"] == "mailto:operator@example.org"
    # The task run again (a worker lost, the broker redelivering): no second push.
    assert delivery.deliver(notice.pk) == {"mail": False, "push": False}
    assert len(push_service.received) == 1
    device = PushDevice.objects.get()
    assert device.last_sent_at is not None and device.failures == 0
    assert Notice.objects.get(pk=notice.pk).pushed_at is not None


def test_a_turn_in_a_game_is_pushed_to_each_device_of_whose_turn_it_is(
    push_on, push_service, alice, bob, committed
):
    phone = Browser.new(f"{push_service.url}/alice-phone")
    laptop = Browser.new(f"{push_service.url}/alice-laptop")
    device_for(alice, phone)
    device_for(alice, laptop)
    device_for(bob, Browser.new(f"{push_service.url}/bob"))
    Choices.objects.create(user=bob, push={"invitation": False})
    game = committed(
        services.game_create,
        slug=DSA,
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
    )
    assert push_service.to("/alice-phone") == []  # nobody's turn until bob takes his seat
    committed(seating.game_accept, game=game.pk, seat=1, user=bob)
    turn = Notice.objects.get(user=alice, kind="your_turn")
    assert phone.read(push_service.to("/alice-phone")[0])["url"] == f"/inbox/{turn.pk}/"
    assert laptop.read(push_service.to("/alice-laptop")[0])["tag"] == f"game:{game.pk}:turn"
    assert push_service.to("/bob") == []  # bob chose not to be pushed his invitations


def test_nothing_pushed_for_a_kind_not_chosen_news_kept_to_the_site_or_a_turn_gone(
    push_on, push_service, alice, committed
):
    device_for(alice, Browser.new(f"{push_service.url}/a"))
    Choices.objects.create(user=alice, push={"club": True, "dispute": False})
    committed(inbox.notify, alice.pk, "tournament", "The cup ended", "/tournaments/1/")  # off
    committed(inbox.notify, alice.pk, "dispute", "bob disputes", "/games/1/", key="game:1:d")
    committed(inbox.notify, alice.pk, "your_turn", "Your turn", "/games/2/", reach=False)
    assert push_service.received == []
    # A turn passed before its push left: nothing to tell.
    turn = inbox.notify(alice.pk, "your_turn", "Your turn", "/games/3/", key="game:3:turn")
    assert turn is not None
    inbox.done("game:3:turn")
    assert delivery.deliver(turn.pk)["push"] is False
    assert push_service.received == []
    committed(inbox.notify, alice.pk, "club", "Welcome to the club", "/leagues/c/")
    assert len(push_service.received) == 1  # a kind chosen on, which is off by default


def test_only_a_member_with_a_device_is_worth_a_task_and_only_with_keys_set(
    settings, push_service, alice
):
    notice = inbox.notify(alice.pk, "your_turn", "Your turn", "/games/1/")
    assert notice is not None
    settings.HADAL_PUSH_ALLOW_LOOPBACK = True
    assert delivery.worth_a_task(notice) is False  # push off: no keys
    settings.HADAL_VAPID_PUBLIC_KEY, settings.HADAL_VAPID_PRIVATE_KEY = push.vapid_key_pair()
    assert delivery.worth_a_task(notice) is False  # no device
    device = device_for(alice, Browser.new(f"{push_service.url}/a"))
    assert delivery.worth_a_task(notice) is True  # the cache forgot "no device" at once
    push.push_device_remove(user=alice, device_id=device.pk)
    assert delivery.worth_a_task(notice) is False


# -- pruning ---------------------------------------------------------------------------------------


def test_a_device_the_push_service_forgot_is_removed(push_on, push_service, alice):
    for path, answer in (("/gone", 410), ("/unknown", 404)):
        push_service.answers[path] = answer
        device_for(alice, Browser.new(push_service.url + path))
    kept = Browser.new(f"{push_service.url}/kept")
    device_for(alice, kept)
    sent = push.push_to(alice.pk, push.TEST_MESSAGE)
    assert (sent.sent, sent.removed, sent.failed) == (1, 2, 0)
    assert list(PushDevice.objects.values_list("endpoint", flat=True)) == [kept.endpoint]
    assert kept.read(push_service.to("/kept")[0])["body"] == push.TEST_MESSAGE["body"]


def test_a_failing_device_is_kept_and_counted_until_five_failures_in_a_row(
    push_on, push_service, alice
):
    push_service.answers["/busy"] = 500
    device = device_for(alice, Browser.new(f"{push_service.url}/busy"))
    for _ in range(push.GIVE_UP - 1):
        assert push.push_to(alice.pk, push.TEST_MESSAGE).failed == 1
    device.refresh_from_db()
    assert device.failures == push.GIVE_UP - 1 and device.last_sent_at is None
    push_service.answers["/busy"] = 201  # it recovers: counted anew
    assert push.push_to(alice.pk, push.TEST_MESSAGE).sent == 1
    device.refresh_from_db()
    assert device.failures == 0 and device.last_sent_at is not None
    push_service.answers["/busy"] = 500
    for _ in range(push.GIVE_UP):
        push.push_to(alice.pk, push.TEST_MESSAGE)
    assert not PushDevice.objects.exists()
    assert len(push_service.to("/busy")) == 2 * push.GIVE_UP


def test_a_push_service_that_does_not_answer_is_a_failure_not_an_error(push_on, alice):
    device_for(alice, Browser.new("http://127.0.0.1:9/nobody-listens"))
    sent = push.push_to(alice.pk, push.TEST_MESSAGE)
    assert (sent.sent, sent.failed) == (0, 1)
    assert PushDevice.objects.get().failures == 1


# -- the API ---------------------------------------------------------------------------------------


def test_registering_a_device_is_idempotent_on_its_endpoint(
    push_on, push_service, alice, bob, api, api_for
):
    phone = Browser.new(f"{push_service.url}/phone")
    made = api.post(
        "/api/me/push/", {**phone.subscription, "label": "Firefox on Android"}, format="json"
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert body == {
        "id": body["id"],
        "label": "Firefox on Android",
        "created": body["created"],
        "last_sent": None,
    }
    again = api.post("/api/me/push/", phone.subscription, format="json")
    assert again.status_code == 200 and again.json()["id"] == body["id"]
    assert again.json()["label"] == "Firefox on Android"  # no label given: the one it had
    # The browser renewed its keys, and bob signed in on it: one device, bob's, new keys.
    renewed = Browser.new(phone.endpoint)
    assert push.has_devices(alice.pk) is True
    moved = api_for(bob).post("/api/me/push/", renewed.subscription, format="json")
    assert moved.status_code == 200
    device = PushDevice.objects.get()
    assert device.user == bob and device.p256dh == renewed.subscription["keys"]["p256dh"]
    assert api.get("/api/me/push/").json() == []
    assert push.has_devices(alice.pk) is False  # the cache forgot her device too
    [listed] = api_for(bob).get("/api/me/push/").json()
    assert listed["id"] == body["id"]


def test_the_key_and_a_test_push_through_the_api(push_on, push_service, alice, api, settings):
    assert api.get("/api/me/push/key/").json() == {"key": push_on.HADAL_VAPID_PUBLIC_KEY}
    phone = Browser.new(f"{push_service.url}/phone")
    assert api.post("/api/me/push/", phone.subscription, format="json").status_code == 201
    answer = api.post("/api/me/push/test/")
    assert answer.status_code == 200
    assert answer.json() == {"sent": 1, "removed": 0, "failed": 0}
    assert phone.read(push_service.received[0])["title"] == "Hadal"
    assert api.get("/api/me/push/").json()[0]["last_sent"] is not None
    settings.HADAL_VAPID_PRIVATE_KEY = ""
    assert api.get("/api/me/push/key/").json() == {"key": None}
    off = api.post("/api/me/push/test/")
    assert off.status_code == 422 and "VAPID" in off.json()["error"]


def test_a_member_removes_their_own_device_only(push_on, push_service, alice, bob, api, api_for):
    mine = device_for(alice, Browser.new(f"{push_service.url}/a"))
    theirs = device_for(bob, Browser.new(f"{push_service.url}/b"))
    assert api.delete(f"/api/me/push/{theirs.pk}/").status_code == 404
    assert PushDevice.objects.filter(pk=theirs.pk).exists()
    assert api.delete(f"/api/me/push/{mine.pk}/").status_code == 204
    assert api.delete(f"/api/me/push/{mine.pk}/").status_code == 404
    assert list(PushDevice.objects.all()) == [theirs]


GOOD = Browser.new("https://push.example.org/send/abc").subscription


def with_keys(**keys) -> dict:
    return {**GOOD, "keys": {**GOOD["keys"], **keys}}


def not_on_the_curve() -> str:
    point = bytearray(unb64url(GOOD["keys"]["p256dh"]))
    point[-1] ^= 1  # the same x, a y that does not go with it
    return b64url(bytes(point))


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({**GOOD, "endpoint": "ftp://push.example.org/send/abc"}, 400, "https://"),
        ({**GOOD, "endpoint": "javascript:alert(1)"}, 400, "https://"),
        ({**GOOD, "endpoint": "data:text/plain,hello"}, 400, "https://"),
        ({**GOOD, "endpoint": "http://push.example.org/send/abc"}, 400, "https://"),
        ({**GOOD, "endpoint": "https://10.1.2.3/send/abc"}, 400, "host name"),
        ({**GOOD, "endpoint": "https://push.example.org/" + "a" * 1000}, 400, "1000"),
        ({**GOOD, "endpoint": "https://push.example.org:99999/send"}, 422, "port"),
        ({"keys": GOOD["keys"]}, 400, "endpoint"),
        ({"endpoint": GOOD["endpoint"]}, 400, "keys"),
        (with_keys(p256dh="BAAA"), 400, "65 bytes"),
        (with_keys(p256dh=GOOD["keys"]["p256dh"].replace("B", "C", 1)), 400, "65 bytes"),
        (with_keys(p256dh=not_on_the_curve()), 422, "P-256"),
        (with_keys(auth="c2hvcnQ"), 400, "16 bytes"),
        (with_keys(auth=GOOD["keys"]["auth"] + "\n"), 400, "16 bytes"),
        ([GOOD], 400, ""),
    ],
)
def test_a_bad_subscription_is_refused_clearly_and_nothing_is_stored(api, body, status, words):
    answer = api.post("/api/me/push/", body, format="json")
    assert answer.status_code == status, answer.content
    assert words in answer.json()["error"]
    assert not PushDevice.objects.exists()


def test_a_body_that_is_not_json_is_a_400(api):
    answer = api.post("/api/me/push/", "endpoint=https://x", content_type="application/json")
    assert answer.status_code == 400 and "error" in answer.json()
    assert not PushDevice.objects.exists()


def test_plain_http_to_this_machine_only_where_the_setting_lets_it_in(api, settings):
    local = {**GOOD, "endpoint": "http://127.0.0.1:8080/push"}
    assert api.post("/api/me/push/", local, format="json").status_code == 400
    settings.HADAL_PUSH_ALLOW_LOOPBACK = True
    assert api.post("/api/me/push/", local, format="json").status_code == 201
    other = {**GOOD, "endpoint": "http://push.example.org/push"}
    assert api.post("/api/me/push/", other, format="json").status_code == 400


def test_nobody_signed_out_and_no_token_without_read(client, alice):
    assert client.get("/api/me/push/").status_code in (401, 403)
    assert client.post("/api/me/push/", GOOD, content_type="application/json").status_code in (
        401,
        403,
    )
    from rest_framework.test import APIClient

    scoped = APIClient()
    scoped.credentials(HTTP_AUTHORIZATION=f"Token {key_for(alice, ['play'])}")
    refused = scoped.post("/api/me/push/", GOOD, format="json")
    assert refused.status_code == 403 and refused.json()["scope"] == "read"
    assert not PushDevice.objects.exists()


def test_a_member_keeps_at_most_twenty_devices_the_longest_unused_goes(alice):
    endpoints = [f"https://push.example.org/{n}" for n in range(push.DEVICES_PER_MEMBER + 1)]
    for endpoint in endpoints[:-1]:
        device_for(alice, Browser.new(endpoint))
    # Each told since, the first longest ago: the 21st, told nothing yet, replaces it.
    start = timezone.now() - timedelta(days=30)
    for n, endpoint in enumerate(endpoints[:-1]):
        PushDevice.objects.filter(endpoint=endpoint).update(last_sent_at=start + timedelta(n))
    device_for(alice, Browser.new(endpoints[-1]))
    kept = set(PushDevice.objects.values_list("endpoint", flat=True))
    assert kept == set(endpoints[1:])


def test_the_schema_states_the_subscriptions_rules(client):
    schema = client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert set(paths["/api/me/push/"]) == {"get", "post"}
    assert {"201", "200", "400", "422"} <= set(paths["/api/me/push/"]["post"]["responses"])
    assert paths["/api/me/push/{id}/"]["delete"]["x-scope"] == "read"
    assert "/api/me/push/test/" in paths and "/api/me/push/key/" in paths
    device = schema["components"]["schemas"]["PushDeviceIn"]["properties"]
    assert device["endpoint"]["maxLength"] == 1000
    assert device["endpoint"]["pattern"].startswith("^https://")
    keys = schema["components"]["schemas"]["PushKeysIn"]["properties"]
    assert keys["p256dh"]["pattern"] == push.P256DH_PATTERN
    assert keys["auth"]["pattern"] == push.AUTH_PATTERN


# -- the pages: installable, the worker, the opt-in --------------------------------------------------


def test_the_service_worker_is_served_at_the_root_for_the_whole_site(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    code = answer.content.decode()
    assert 'addEventListener("push"' in code and "showNotification" in code
    assert 'addEventListener("notificationclick"' in code and "openWindow" in code


def test_the_manifest_makes_the_site_installable(client):
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["name"] == "Hadal" and manifest["start_url"] == "/"
    assert manifest["display"] == "standalone" and manifest["theme_color"] == "#04101d"
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]
    page = client.get("/accounts/login/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


def test_the_choices_page_lists_the_devices_told_and_removes_one(push_on, client, alice, bob):
    phone = device_for(alice, Browser.new("https://push.example.org/phone"), "Firefox on Android")
    theirs = device_for(bob, Browser.new("https://push.example.org/bobs"), "Bob's phone")
    Choices.objects.create(user=alice, push={"your_turn": False})
    client.force_login(alice)
    page = client.get("/inbox/choices/").content.decode()
    devices = page[page.index('id="push-devices"') :]
    assert "Firefox on Android" in devices and "Bob's phone" not in devices
    assert "data-push-optin" in devices and "Tell this device" in devices
    told = devices[devices.index('id="push-told-of"') :]
    told = told[: told.index("</p>")]
    assert "You are invited to a game" in told and "It is your turn" not in told
    assert f'<meta name="hadal-push-key" content="{push_on.HADAL_VAPID_PUBLIC_KEY}">' in page
    assert client.post(f"/inbox/devices/{theirs.pk}/remove/").status_code == 404
    removed = client.post(f"/inbox/devices/{phone.pk}/remove/", {"next": "/inbox/choices/"})
    assert removed.status_code == 302 and removed["Location"] == "/inbox/choices/"
    assert list(PushDevice.objects.all()) == [theirs]


def test_without_keys_the_pages_offer_no_push(client, alice):
    client.force_login(alice)
    page = client.get("/inbox/choices/").content.decode()
    assert "hadal-push-key" not in page
    assert "does not tell phones of your notices yet" in page


def test_a_game_page_at_your_turn_offers_to_tell_this_phone(push_on, client, alice, bob):
    game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )
    game.refresh_from_db()
    assert game.current_player == 0
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    prompt = page[page.index('id="push-prompt"') :]
    prompt = prompt[: prompt.index("</div>")]
    assert "Get told on this phone when it is your turn" in prompt
    assert "data-push-optin" in prompt and "data-push-dismiss" in prompt
    client.force_login(bob)  # not his turn
    assert 'id="push-prompt"' not in client.get(f"/games/{game.pk}/").content.decode()
