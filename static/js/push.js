/* Telling this device of the member's notices (Web Push), on every page for a signed-in member.

   Where the server pushes (base.html's hadal-push-key), "Tell this device" (any
   button[data-push-optin]: the nav's, the settings page's, the devices list's, a game page's
   offer at your turn) asks the browser's leave, installs the service worker (/sw.js),
   subscribes with the server's key and hands the subscription to /api/me/push/. The game
   page's offer (#push-prompt) shows only where it can be taken up and has not been refused:
   leave not yet asked, no subscription here, not dismissed with "Not now" (kept in this
   browser). The devices list (#push-devices) marks this device, unsubscribes it when it is
   removed here, and sends a test. */

const KEY = document.querySelector("meta[name=hadal-push-key]")?.content || "";
const DISMISSED = "hadal-push-prompt-dismissed";

export const pushable = Boolean(KEY) && "serviceWorker" in navigator && "PushManager" in window
  && "Notification" in window;

/* A server that does not push: the button asks only for alerts while a page is open
   (notices.js raises them). */
const tabOnly = !KEY && "Notification" in window;

/* The worker is installed when the member asks for it, not before; the browser keeps it up
   to date from then on. */
async function registration() {
  await navigator.serviceWorker.register("/sw.js", {scope: "/"});
  return navigator.serviceWorker.ready;
}

/* This browser's subscription, or null. */
export async function subscriptionHere() {
  if (!pushable) return null;
  try {
    const installed = await navigator.serviceWorker.getRegistration("/");
    return installed ? await installed.pushManager.getSubscription() : null;
  } catch {
    return null;
  }
}

function cookie(name) {
  const found = document.cookie.split("; ").find((part) => part.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
}

function keyBytes(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - text.length % 4) % 4));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0));
}

/* "Firefox on Android", for the member's list of devices. */
function deviceName() {
  const agent = navigator.userAgent;
  const browser = /Edg\//.test(agent) ? "Edge" : /SamsungBrowser/.test(agent) ? "Samsung Internet"
    : /Firefox\//.test(agent) ? "Firefox" : /Chrom(e|ium)\//.test(agent) ? "Chrome"
      : /Safari\//.test(agent) ? "Safari" : "A browser";
  const system = /Android/.test(agent) ? "Android" : /iPhone/.test(agent) ? "iPhone"
    : /iPad/.test(agent) ? "iPad" : /Windows/.test(agent) ? "Windows"
      : /Mac OS X/.test(agent) ? "a Mac" : /Linux/.test(agent) ? "Linux" : "";
  return system ? `${browser} on ${system}` : browser;
}

function api(path, method, body) {
  return fetch(path, {
    method,
    credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRFToken": cookie("csrftoken")},
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

function say(words) {
  for (const node of document.querySelectorAll("[data-push-state]")) node.textContent = words;
}

/* Ask the browser's leave, subscribe and register this device: whether it worked. */
export async function tellThisDevice() {
  if (!pushable && !tabOnly) return false;
  const answer = await Notification.requestPermission();
  if (tabOnly && answer === "granted") {
    say("This browser will tell you while a Hadal page is open.");
    return true;
  }
  if (answer !== "granted") {
    say(answer === "denied"
      ? "This browser blocks notices from Hadal: allow them in its site settings."
      : "Nothing changed: this device was not allowed to be told.");
    return false;
  }
  try {
    const manager = (await registration()).pushManager;
    const subscription = await manager.getSubscription()
      || await manager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(KEY)});
    const sent = await api("/api/me/push/", "POST", {...subscription.toJSON(), label: deviceName()});
    if (!sent.ok) {
      const body = await sent.json().catch(() => ({}));
      say(`This device could not be told: ${body.error || sent.statusText}.`);
      return false;
    }
  } catch (error) {
    say(`This browser could not subscribe: ${error.message}`);
    return false;
  }
  say("This device will be told of your notices.");
  return true;
}

async function showState() {
  const here = await subscriptionHere();
  const denied = pushable && Notification.permission === "denied";
  for (const button of document.querySelectorAll("[data-push-optin]")) {
    button.hidden = tabOnly ? Notification.permission !== "default"
      : !pushable || Boolean(here) || denied;
  }
  if (tabOnly) {
    if (Notification.permission === "granted") say("This browser will tell you while a Hadal page is open.");
  } else if (!pushable) {
    say(KEY ? "This browser cannot be told of notices while Hadal is closed." : "");
  } else if (denied) {
    say("This browser blocks notices from Hadal: allow them in its site settings.");
  } else if (here) {
    say("This device is told of your notices.");
  }
  const prompt = document.getElementById("push-prompt");
  if (prompt) {
    prompt.hidden = !pushable || Boolean(here) || Notification.permission !== "default"
      || localStorage.getItem(DISMISSED) === "1";
  }
  for (const row of document.querySelectorAll("[data-push-device]")) {
    const mark = row.querySelector(".push-this");
    if (mark) mark.hidden = !here || row.dataset.endpoint !== here.endpoint;
  }
  return here;
}

function setup() {
  for (const button of document.querySelectorAll("[data-push-optin]")) {
    button.addEventListener("click", async () => {
      button.disabled = true;
      const done = await tellThisDevice();
      button.disabled = false;
      await showState();
      if (done && document.getElementById("push-devices")) window.location.reload();
    });
  }
  for (const button of document.querySelectorAll("[data-push-dismiss]")) {
    button.addEventListener("click", () => {
      localStorage.setItem(DISMISSED, "1");
      document.getElementById("push-prompt").hidden = true;
    });
  }
  for (const form of document.querySelectorAll("form[data-push-remove]")) {
    // Removing this very device also ends its subscription, so the browser forgets it too.
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const row = form.closest("[data-push-device]");
      const here = await subscriptionHere();
      if (here && row && row.dataset.endpoint === here.endpoint) {
        await here.unsubscribe().catch(() => {});
      }
      form.submit();
    });
  }
  for (const button of document.querySelectorAll("[data-push-test]")) {
    button.addEventListener("click", async () => {
      button.disabled = true;
      const sent = await api("/api/me/push/test/", "POST");
      const body = await sent.json().catch(() => ({}));
      button.disabled = false;
      if (!sent.ok) say(body.error || "The test could not be sent.");
      else if (body.sent) say(`Sent to ${body.sent} device${body.sent === 1 ? "" : "s"}: look out for it.`);
      else say("No device took it. Tell this device again, or remove the ones no longer yours.");
    });
  }
  showState();
}

setup();
