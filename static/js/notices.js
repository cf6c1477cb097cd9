/* On every page for a signed-in member: their inbox's stream (/api/me/stream/) keeps the nav
   up to date without a reload (the bell's unread count, "Your turn: N games", the invitations'
   count, the tab's title), tells the page of each new notice ("hadal:notice", for the inbox page
   and the home page's list of what waits), and, if the member has allowed this browser's
   notifications but it is not told by push (push.js), raises one for a new notice while the
   page is hidden. */

import {subscriptionHere} from "./push.js";
import {openStream, turnTitle} from "./stream.js";

const STREAM = "/api/me/stream/";

async function alert(notice) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  if (!document.hidden) return;
  if (await subscriptionHere()) return;  // pushed: the service worker shows it (push.js)
  const shown = new Notification("Hadal", {body: notice.text, tag: `notice-${notice.id}`});
  shown.addEventListener("click", () => {
    window.focus();
    window.location.assign(`/inbox/${notice.id}/`);
  });
}

function setCount(node, count) {
  if (!node) return;
  node.textContent = String(count);
  node.hidden = count === 0;
}

function showCounts({unread, turns, invitations}) {
  const bell = document.getElementById("nav-bell");
  if (bell) {
    bell.dataset.count = unread;
    bell.setAttribute("aria-label", unread ? `Inbox: ${unread} unread` : "Inbox");
    setCount(document.getElementById("nav-bell-count"), unread);
  }
  const nav = document.getElementById("nav-turns");
  if (nav) {
    nav.hidden = turns === 0;
    nav.textContent = `Your turn: ${turns} game${turns === 1 ? "" : "s"}`;
    nav.dataset.count = turns;
  }
  const invited = document.getElementById("nav-invitations-count");
  if (invited) {
    setCount(invited, invitations);
    invited.setAttribute("aria-label", `${invitations} waiting`);
  }
  // A game page's title speaks for its own game (game.js).
  if (!document.getElementById("game")) turnTitle(turns > 0);
}

function listen() {
  if (!document.getElementById("nav-bell")) return;
  let connected = false;
  openStream(STREAM, {
    onOpen: () => {
      connected = true;
      document.body.dataset.streamOpen = "1";  // for the page tests: listening from now on
    },
    onMessage: (message) => {
      if (message.type === "counts") {
        showCounts(message);
        return;
      }
      if (message.id === undefined) return;
      document.dispatchEvent(new CustomEvent("hadal:notice", {detail: message}));
      // What was open when the stream (re)connected is not news: alert only what comes after.
      if (connected && !message.read && message.created
          && Date.now() - Date.parse(message.created) < 60000) alert(message);
    },
    onLost: () => {},
    // Alerts are for a hidden page: with them on, keep listening while hidden.
    whileHidden: () => "Notification" in window && Notification.permission === "granted",
  });
}

listen();
