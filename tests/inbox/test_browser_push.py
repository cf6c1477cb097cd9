"""Web Push in headless Chromium on a 390 px phone: the game page offers, at your turn, to tell
this phone, and "Not now" is remembered; on the inbox, "Tell this device" subscribes and hands
the subscription to the server, and "Send a test" reaches the push service; the service worker
shows a push it is given.

Headless Chromium has no push service to subscribe with, so PushManager's subscribe answers
with a subscription to the test's own push service (tests/inbox/test_push.py), made from a key
pair the test holds: everything from there on (the page's script, the API, the encryption, the
VAPID signature) is real. The service worker is given its push through the DevTools protocol
(ServiceWorker.deliverPushMessage), as a push service would."""

from __future__ import annotations

import json

import pytest

from games.play import services
from inbox.models import PushDevice
from tests.accounts.browser import PHONE, TAP_PX, fits_a_phone
from tests.games.test_browser import browser_page
from tests.inbox.test_browser_bell import sign_in
from tests.inbox.test_push import Browser, push_on, push_service, vapid_claims  # noqa: F401

pytestmark = pytest.mark.browser
DSA = "deep-sea-adventure"


@pytest.fixture
def phone(live_server, transactional_db):
    yield from browser_page(live_server, viewport=PHONE)


def fake_subscribe(page, browser: Browser) -> None:
    """PushManager as a real push service would make it: subscribe gives ``browser``'s
    subscription, getSubscription it once made."""
    script = """((sub) => {
      const made = () => sessionStorage.getItem("fake-sub") === "1";
      const subscription = {
        endpoint: sub.endpoint,
        toJSON: () => sub,
        unsubscribe: async () => { sessionStorage.removeItem("fake-sub"); return true; },
      };
      PushManager.prototype.subscribe = async function () {
        sessionStorage.setItem("fake-sub", "1");
        return subscription;
      };
      PushManager.prototype.getSubscription = async function () {
        return made() ? subscription : null;
      };
    })(SUBSCRIPTION);"""
    page.add_init_script(script.replace("SUBSCRIPTION", json.dumps(browser.subscription)))


def test_your_turn_offers_to_tell_this_phone_and_not_now_is_remembered(phone, push_on, make_user):
    from playwright.sync_api import expect

    alice = make_user("alice")
    make_user("bob")
    game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )
    sign_in(phone, "alice")
    phone.goto(f"/games/{game.pk}/")
    assert phone.evaluate("Notification.permission") == "default"
    prompt = phone.locator("#push-prompt")
    expect(prompt).to_be_visible()
    expect(prompt).to_contain_text("Get told on this phone when it is your turn")
    # The offer fits the phone (the game page's own controls are the game tests' matter).
    assert phone.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    heights = prompt.locator("button").evaluate_all(
        "(buttons) => buttons.map((b) => b.getBoundingClientRect().height)"
    )
    assert len(heights) == 2 and min(heights) >= TAP_PX, heights
    prompt.get_by_role("button", name="Not now").click()
    expect(prompt).to_be_hidden()
    phone.reload()
    expect(phone.locator("#game")).to_be_visible()
    expect(prompt).to_be_hidden()


def test_tell_this_device_then_a_test_push_reaches_it(
    phone, push_on, push_service, make_user, live_server
):
    from playwright.sync_api import expect

    make_user("alice")
    here = Browser.new(f"{push_service.url}/this-phone")
    fake_subscribe(phone, here)
    phone.context.grant_permissions(["notifications"], origin=live_server.url)
    sign_in(phone, "alice")
    phone.goto("/inbox/choices/")
    devices = phone.locator("#push-devices")
    expect(devices).to_contain_text("No device is told yet.")
    fits_a_phone(phone)
    devices.get_by_role("button", name="Tell this device").click()
    expect(devices.locator("[data-push-device]")).to_have_count(1)
    expect(devices.locator(".push-this")).to_be_visible()  # "(this one)"
    expect(devices.get_by_role("button", name="Tell this device")).to_be_hidden()
    device = PushDevice.objects.get()
    assert device.endpoint == here.endpoint and device.label.startswith("Chrome on")
    fits_a_phone(phone)

    devices.get_by_role("button", name="Send a test").click()
    expect(devices.locator("[data-push-state]")).to_have_text("Sent to 1 device: look out for it.")
    [received] = push_service.received
    assert here.read(received)["body"] == "This device will be told of your notices."
    assert vapid_claims(received, push_on.HADAL_VAPID_PUBLIC_KEY)["aud"] == push_service.url

    # Removing this device here also ends its subscription.
    devices.get_by_role("button", name="Remove").click()
    expect(phone.locator("#push-none")).to_be_visible()
    assert not PushDevice.objects.exists()
    assert phone.evaluate("sessionStorage.getItem('fake-sub')") is None


def test_the_service_worker_shows_a_push(phone, push_on, make_user, live_server):
    make_user("alice")
    phone.context.grant_permissions(["notifications"], origin=live_server.url)
    sign_in(phone, "alice")
    phone.goto("/inbox/choices/")
    # As "Tell this device" installs it (a member who never asks gets no worker).
    assert phone.evaluate("navigator.serviceWorker.getRegistration('/')") is None
    scope = phone.evaluate(
        """navigator.serviceWorker.register("/sw.js", {scope: "/"})
             .then(() => navigator.serviceWorker.ready)
             .then((r) => r.active.scriptURL + " " + r.scope)"""
    )
    assert scope == f"{live_server.url}/sw.js {live_server.url}/"
    devtools = phone.context.new_cdp_session(phone)
    registrations: list[dict] = []
    devtools.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    devtools.send("ServiceWorker.enable")
    phone.wait_for_timeout(500)  # the registrations are told as events
    [registration] = [r for r in registrations if r["scopeURL"] == f"{live_server.url}/"]
    message = {
        "title": "Hadal",
        "body": "Your turn against bob",
        "url": "/inbox/7/",
        "tag": "game:7:turn",
    }
    devtools.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": live_server.url,
            "registrationId": registration["registrationId"],
            "data": json.dumps(message),
        },
    )
    shown = phone.evaluate(
        """async () => {
          const registration = await navigator.serviceWorker.ready;
          for (let i = 0; i < 50; i++) {
            const shown = await registration.getNotifications();
            if (shown.length) return shown.map((n) => ({
              title: n.title, body: n.body, tag: n.tag, url: n.data.url}));
            await new Promise((r) => setTimeout(r, 100));
          }
          return [];
        }"""
    )
    assert shown == [
        {
            "title": "Hadal",
            "body": "Your turn against bob",
            "tag": "game:7:turn",
            "url": f"{live_server.url}/inbox/7/",
        }
    ]
