/* Hadal's service worker, served at /sw.js so that it reaches every page (inbox.views).

   A push (inbox.push) carries JSON {"title", "body", "url", "tag"}: shown as a notification,
   a newer one of the same matter (tag: a game's turn) replacing the older. Tapping it opens
   its url (/inbox/<id>/: the notice is read, and its page opens) in a Hadal window already
   open, or in a new one. Nothing is cached here: the site works as before without it. */

const FALLBACK = "/inbox/";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function read(data) {
  if (!data) return {};
  try {
    return data.json();
  } catch {
    return {body: data.text()};
  }
}

/* Only a path on this site is opened: a push can lead nowhere else. */
function here(url) {
  try {
    const target = new URL(url || FALLBACK, self.location.origin);
    return target.origin === self.location.origin ? target.href : new URL(FALLBACK, self.location.origin).href;
  } catch {
    return new URL(FALLBACK, self.location.origin).href;
  }
}

self.addEventListener("push", (event) => {
  const message = read(event.data);
  const options = {
    body: message.body || "Something waits for you in your inbox.",
    icon: "/static/img/hadal-192.png",
    badge: "/static/img/hadal-192.png",
    data: {url: here(message.url)},
  };
  if (message.tag) {
    options.tag = message.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(message.title || "Hadal", options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || here(FALLBACK);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({type: "window", includeUncontrolled: true});
    for (const client of windows) {
      if (new URL(client.url).origin !== self.location.origin) continue;
      try {
        await client.focus();
        await client.navigate(url);
        return;
      } catch {
        // Not ours to steer (a window this worker does not control): open one instead.
      }
    }
    await self.clients.openWindow(url);
  })());
});
