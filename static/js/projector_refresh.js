// The projector shows each new round and result by loading itself again every 30 s. Someone
// using the page (a key or a tap, a screen reader's user say) holds the reloads off for a
// minute, so that nobody loses their place; a hidden tab does not reload at all.
const PERIOD_MS = 30_000;
const HOLD_MS = 60_000;
let lastUse = 0;
for (const kind of ["keydown", "pointerdown"]) {
  document.addEventListener(kind, () => { lastUse = Date.now(); });
}
setInterval(() => {
  if (document.hidden || Date.now() - lastUse < HOLD_MS) return;
  location.reload();
}, PERIOD_MS);
