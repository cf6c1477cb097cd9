/* Live updates pushed by the server (server-sent events; the message format is in the API
   schema under /api/games/{id}/stream/ and /api/me/stream/).

   followGame(url, {after, onHead, onLost}) listens to a game's stream: onHead(message) runs
   each time a batch of events is complete (the game is at message.head), onLost() once if the
   stream cannot be had at all (no EventSource, or the first connection refused), so that the
   page may poll instead. EventSource itself reconnects after a drop, resuming from the last
   event it saw (Last-Event-ID). It returns {close()}.

   turnTitle(yours, game) puts "Your turn" at the front of the tab's title, or takes it away;
   with a game id it also tells the nav (notices.js) whether that game waits for the viewer. */

const YOUR_TURN = "Your turn · ";

export function followGame(url, {after, onHead, onLost}) {
  if (!("EventSource" in window) || !url) {
    onLost();
    return {close() {}};
  }
  let opened = false;
  const source = new EventSource(`${url}?after=${encodeURIComponent(after)}`);
  source.addEventListener("open", () => { opened = true; });
  source.addEventListener("message", (message) => {
    let data;
    try {
      data = JSON.parse(message.data);
    } catch (err) {
      return;
    }
    if (data.type === "event" && data.version === data.head) onHead(data);
  });
  source.addEventListener("error", () => {
    // Closed for good: refused before it ever opened (the page polls), or the game is over
    // and all of it was sent (a 204 ends it; nothing more will come).
    if (source.readyState === EventSource.CLOSED) {
      source.close();
      if (!opened) onLost();
    }
  });
  return {close() { source.close(); }};
}

export function turnTitle(yours, game) {
  if (game !== undefined) {
    document.dispatchEvent(new CustomEvent("hadal:turn", {detail: {game, yours}}));
  }
  const bare = document.title.startsWith(YOUR_TURN)
    ? document.title.slice(YOUR_TURN.length) : document.title;
  document.title = yours ? YOUR_TURN + bare : bare;
}
