/* The inbox page: a notice that arrives while it is open goes to the top of the list; the home
   page: one that waits for the member joins "Waiting for you" (notices.js hears each on the
   member's stream and says "hadal:notice"). */

const list = document.getElementById("notice-list");
const waiting = document.getElementById("waiting-list");

function item(notice) {
  const li = document.createElement("li");
  li.className = notice.waiting ? "notice unread waiting" : "notice unread";
  li.dataset.notice = notice.id;
  const link = document.createElement("a");
  link.href = `/inbox/${notice.id}/`;
  const text = document.createElement("span");
  text.className = "notice-text";
  text.textContent = notice.text;
  const when = document.createElement("span");
  when.className = "notice-when muted";
  when.textContent = "just now";
  link.append(text, when);
  li.append(link);
  return li;
}

if (list && list.dataset.live) {
  document.addEventListener("hadal:notice", (event) => {
    const notice = event.detail;
    if (list.querySelector(`[data-notice="${notice.id}"]`)) return;
    document.getElementById("notice-none")?.remove();
    list.prepend(item(notice));
  });
}

if (waiting) {
  document.addEventListener("hadal:notice", (event) => {
    const notice = event.detail;
    if (!notice.waiting || waiting.querySelector(`[data-notice="${notice.id}"]`)) return;
    waiting.append(item(notice));
    document.getElementById("waiting-for-you").hidden = false;
  });
}
