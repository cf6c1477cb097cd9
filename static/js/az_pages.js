// The projector's "find your table" list: when it holds more than fits, scroll it a screenful
// at a time every 6 seconds, back to A after Z (the page itself reloads every 30 seconds).
(function () {
  const list = document.getElementById("az-list");
  if (!list) return;
  setInterval(function () {
    if (list.scrollHeight <= list.clientHeight + 1) return;
    const next = list.scrollTop + list.clientHeight;
    list.scrollTop = next >= list.scrollHeight ? 0 : next;
  }, 6000);
})();
