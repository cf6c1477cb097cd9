// The projector's round clock: counts down from the round's start plus its length; 0:00 and
// "Time" once it is over. The server gives the start (seconds since 1970, moved on by any
// pause) and the minutes; while the round is paused, the seconds it has left, which stand
// still (the page reloads every 30 s).
(function () {
  const el = document.getElementById("timer");
  if (!el) return;
  const ends = (Number(el.dataset.ends) + Number(el.dataset.minutes) * 60) * 1000;
  const pausedLeft = el.dataset.pausedLeft;
  function shown(left) {
    const minutes = Math.floor(left / 60), seconds = left % 60;
    return minutes + ":" + String(seconds).padStart(2, "0");
  }
  function tick() {
    const left = Math.max(0, Math.round((ends - Date.now()) / 1000));
    el.textContent = left ? shown(left) : "Time";
    el.classList.toggle("over", !left);
  }
  if (pausedLeft !== undefined) {
    el.textContent = "Paused · " + shown(Math.max(0, Number(pausedLeft)));
    return;
  }
  tick();
  setInterval(tick, 1000);
})();
