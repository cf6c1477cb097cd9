/* The new-game form: offer only the seat counts the chosen game allows, show one row per
   seat, hide the username box of a seat given to a bot, and show the chosen game's options.
   Without this script every row shows and the server still checks everything. */

function start() {
  const form = document.getElementById("new-game");
  if (!form) return;
  const ranges = JSON.parse(document.getElementById("player-ranges").textContent);
  const game = form.elements.game;
  const players = form.elements.players;

  function update() {
    const range = ranges[game.value];
    if (range) {
      players.min = range.min;
      players.max = range.max;
      const count = Number(players.value) || range.min;
      players.value = Math.min(range.max, Math.max(range.min, count));
    }
    const count = Number(players.value);
    for (const row of form.querySelectorAll(".seat-row")) {
      const seat = Number(row.dataset.seat);
      row.hidden = seat >= count;
      const who = row.querySelector("select");
      const user = row.querySelector(".seat-user");
      user.hidden = who.value !== "person";
    }
    for (const options of form.querySelectorAll("fieldset.options")) {
      options.hidden = options.dataset.game !== game.value;
    }
  }

  form.addEventListener("change", update);
  players.addEventListener("input", update);
  update();
}

// A module runs once the document is parsed, so the form is there.
start();
