/* On every page for a signed-in person: their stream (/api/me/stream/) keeps the nav's "Your
   turn" count and the tab's title up to date, and, if they have allowed it, the browser's
   notifications say when it becomes their turn or they are invited while the page is hidden.
   Notifications are asked for only when the person presses the button (data-turn-alerts). */

import {openStream, turnTitle} from "./stream.js";

const STREAM = "/api/me/stream/";

function setupAlertButtons() {
  const supported = "Notification" in window;
  for (const button of document.querySelectorAll("button[data-turn-alerts]")) {
    button.hidden = !supported || Notification.permission !== "default";
    button.addEventListener("click", async () => {
      const answer = await Notification.requestPermission();
      for (const other of document.querySelectorAll("button[data-turn-alerts]")) {
        other.hidden = answer !== "default";
      }
      showAlertState();
    });
  }
  showAlertState();
}

function showAlertState() {
  const words = !("Notification" in window) ? "This browser cannot show alerts."
    : Notification.permission === "granted" ? "Alerts are on in this browser."
      : Notification.permission === "denied"
        ? "Alerts are blocked in this browser; allow them in its site settings." : "";
  for (const node of document.querySelectorAll("[data-turn-alerts-state]")) {
    node.textContent = words;
  }
}

function alert(title, body, url) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  if (!document.hidden) return;
  const shown = new Notification(title, {body, tag: url});
  shown.addEventListener("click", () => { window.focus(); window.location.assign(url); });
}

function listen() {
  const nav = document.getElementById("nav-turns");
  if (!nav) return;
  const waiting = new Set();
  const show = () => {
    const count = waiting.size;
    nav.hidden = count === 0;
    nav.textContent = `Your turn: ${count} game${count === 1 ? "" : "s"}`;
    nav.dataset.count = count;
    // A game page's title speaks for its own game (game.js).
    if (!document.getElementById("game")) turnTitle(count > 0);
  };
  document.addEventListener("hadal:turn", (event) => {
    const {game, yours} = event.detail;
    if (yours) waiting.add(game);
    else waiting.delete(game);
    show();
  });
  openStream(STREAM, {
    // Each (re)connection starts with what waits now: count afresh from it.
    onOpen: () => waiting.clear(),
    onMessage: (notice) => {
      if (notice.type === "your_turn") {
        const fresh = !waiting.has(notice.game);
        waiting.add(notice.game);
        if (fresh) alert(`Your turn in ${notice.name}`, "The others have moved.", notice.url);
      } else if (notice.type === "invitation") {
        alert(`You are invited to ${notice.name}`, "Take your seat or decline.", notice.url);
      } else if (notice.type === "round_paired") {
        alert(`${notice.tournament}: round ${notice.round} is paired`, "", notice.url || "/");
      }
      show();
    },
    onLost: () => {},
    // Alerts are for a hidden page: with them on, keep listening while hidden.
    whileHidden: () => "Notification" in window && Notification.permission === "granted",
  });
}

setupAlertButtons();
listen();
