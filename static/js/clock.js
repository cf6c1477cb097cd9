/* The game page's clock: each player's time left, the running one counting down.

   It reads the game as the page was served (#game-data) and follows the game page's updates
   (the "hadal:game" event static/js/game.js sends whenever it draws). The server's `clock`
   gives each seat's seconds left when it answered; the countdown runs from that moment on this
   machine's own clock, so a wrong time of day here does not matter. A "move" clock gives each
   move its seconds; a "bank" clock is each player's time for the whole game. */

const TICK_MS = 250;
const LOW_SECONDS = 10;

const card = document.getElementById("clock");
const list = document.getElementById("clock-seats");
const note = document.getElementById("clock-note");
const away = document.getElementById("clock-away"); // who is away, in words, from the server
let shown = null; // {game, mySeats, clock, at}

function readable(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

function left(seat) {
  const {clock, at} = shown;
  const base = clock.seats[seat].remaining;
  if (clock.running !== seat) return base;
  return Math.max(0, base - (performance.now() - at) / 1000);
}

function draw() {
  if (!shown || !shown.clock) return;
  const {game, mySeats, clock} = shown;
  const rows = game.seats.map((row, seat) => {
    const item = document.createElement("li");
    const running = clock.running === seat;
    const seconds = left(seat);
    // A player away from the board (a correspondence game): their clock waits for them.
    const waiting = (clock.paused || []).includes(seat);
    item.className = ["clock-seat", running ? "running" : "", waiting ? "paused" : "",
      running && seconds <= LOW_SECONDS ? "low" : ""].join(" ").trim();
    item.dataset.seat = seat;
    const name = document.createElement("span");
    name.className = "clock-name";
    name.textContent = mySeats.includes(seat) ? `${row.name} (you)` : row.name;
    const time = document.createElement("span");
    time.className = "clock-time";
    // A move clock: only the move under way has a time of its own.
    const kept = waiting && game.current_player === seat;
    time.textContent = clock.kind === "move" && !running && !kept ? "—" : readable(seconds);
    if (running) time.setAttribute("aria-live", "off");
    item.append(name, time);
    if (waiting) {
      const mark = document.createElement("span");
      mark.className = "clock-paused";
      mark.textContent = "away: the clock waits";
      item.append(mark);
    }
    return item;
  });
  list.replaceChildren(...rows);
  note.textContent = explain(game, clock);
  if (away && !(clock.paused || []).length) away.hidden = true;
}

function explain(game, clock) {
  const words = card.dataset.words || "";
  if (game.status !== "active") return words;
  if (clock.running === null || clock.running === undefined) {
    if ((clock.paused || []).includes(game.current_player)) {
      return `${words}. The player to move is away from the board: their clock waits.`;
    }
    const waiting = game.seats.some((row) => !row.accepted && !row.bot);
    if (waiting) return `${words}. The clock starts once everyone has taken their seat.`;
    return words;
  }
  if (left(clock.running) <= 0) return "Time is up: the move is being played…";
  return words;
}

function follow(game, mySeats) {
  shown = {game, mySeats, clock: game.clock, at: performance.now()};
  card.hidden = !game.clock;
  draw();
}

function start() {
  const data = document.getElementById("game-data");
  if (!card || !data) return;
  const page = JSON.parse(data.textContent);
  follow(page.game, page.my_seats || []);
  document.addEventListener("hadal:game", (event) => {
    follow(event.detail.game, event.detail.mySeats || []);
  });
  window.setInterval(draw, TICK_MS);
}

start();
