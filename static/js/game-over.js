/* The end of a game on its page. When the game ends while the page is open (the "hadal:game"
   event from static/js/game.js), the page is fetched again and its "Game over" panel (scores
   with their parts, rating changes, the replay and the rematch) put in place; if that fetch
   fails (the server busy, the connection down), it is tried again a few times, later each
   time. The panel heads the page's wide column, above the board, where its whole table fits;
   the short result in the side column is hidden. "Watch the replay" moves the replay slider to
   the start. */

function panelFromServer() {
  return fetch(window.location.href, {credentials: "same-origin"})
    .then((answer) => (answer.ok ? answer.text() : ""))
    .then((text) => {
      const panel = new DOMParser().parseFromString(text, "text/html")
        .getElementById("game-over");
      return panel ? document.importNode(panel, true) : null;
    })
    .catch(() => null);
}

function bindReplay(panel) {
  const link = panel.querySelector("#watch-replay");
  const slider = document.getElementById("replay");
  if (!link || !slider) return;
  link.addEventListener("click", () => {
    slider.value = slider.min;
    slider.dispatchEvent(new Event("input", {bubbles: true}));
  });
}

const RETRIES = 5;  // after 1, 2, 4, 8 and 16 seconds
let asked = false;

async function showPanel(attempt) {
  const panel = await panelFromServer();
  const result = document.getElementById("result");
  const board = document.getElementById("board");
  if (!result || !board || document.getElementById("game-over")) return;
  if (!panel) {
    if (attempt < RETRIES) setTimeout(() => showPanel(attempt + 1), 1000 * 2 ** attempt);
    return;
  }
  board.before(panel);
  result.hidden = true;
  bindReplay(panel);
}

function start() {
  const here = document.getElementById("game-over");
  if (here) bindReplay(here);
  document.addEventListener("hadal:game", (event) => {
    if (event.detail.game.status !== "finished" || asked || document.getElementById("game-over")) {
      return;
    }
    asked = true;
    showPanel(0);
  });
}

start();
