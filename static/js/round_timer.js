// The projector's round clock: counts down from the round's start plus its length; 0:00 and
// "Time" once it is over. The server gives the start (seconds since 1970) and the minutes.
(function () {
  const el = document.getElementById("timer");
  if (!el) return;
  const ends = (Number(el.dataset.ends) + Number(el.dataset.minutes) * 60) * 1000;
  function tick() {
    const left = Math.max(0, Math.round((ends - Date.now()) / 1000));
    const minutes = Math.floor(left / 60), seconds = left % 60;
    el.textContent = left ? minutes + ":" + String(seconds).padStart(2, "0") : "Time";
    el.classList.toggle("over", !left);
  }
  tick();
  setInterval(tick, 1000);
})();
