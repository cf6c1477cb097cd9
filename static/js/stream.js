/* Live updates pushed by the server (server-sent events; the message format is in the API
   schema under /api/games/{id}/stream/ and /api/me/stream/).

   openStream(url, {after, onMessage, onOpen, onLost, whileHidden}) listens to a stream (a game's
   from after version `after`, if given): onMessage(data)
   for each message's JSON, onOpen() at each (re)connection, onLost() once if the stream cannot
   be had at all (no EventSource, or refused before it ever opened), so that the page may poll
   instead. EventSource reconnects after a drop by itself, resuming after the last event it saw
   (Last-Event-ID). The server ends a stream that has been quiet (or open) a long while; a page
   that is hidden then lets it rest, unless whileHidden() says it still needs it, and opens it
   again, from where it was, once it is looked at. It returns {close()}.

   followGame(url, {after, onHead, onLost}) is that for a game: onHead(message) runs each time a
   batch of events is complete (the game is at message.head).

   turnTitle(yours, game) puts "Your turn" at the front of the tab's title, or takes it away;
   with a game id it also tells the nav (notices.js) whether that game waits for the viewer. */

const YOUR_TURN = "Your turn · ";

export function openStream(url, {after, onMessage, onOpen = () => {}, onLost,
  whileHidden = () => false}) {
  if (!("EventSource" in window) || !url) {
    onLost();
    return {close() {}};
  }
  let source = null;
  let opened = false;
  let last = after === undefined ? "" : String(after);  // the event to resume after
  let resting = false;
  let closed = false;

  const open = () => {
    source = new EventSource(last ? `${url}?after=${encodeURIComponent(last)}` : url);
    source.addEventListener("open", () => { opened = true; onOpen(); });
    source.addEventListener("message", (message) => {
      if (message.lastEventId) last = message.lastEventId;
      let data;
      try {
        data = JSON.parse(message.data);
      } catch (err) {
        return;
      }
      onMessage(data);
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) {
        // Closed for good: refused before it ever opened (the page polls), or the game is
        // over and all of it was sent (a 204 ends it; nothing more will come).
        source.close();
        if (!opened) onLost();
      } else if (document.hidden && !whileHidden()) {
        // The server ended it (quiet too long) and nobody is looking: rest until they are.
        source.close();
        resting = true;
      }
    });
  };
  const wake = () => {
    if (resting && !closed && !document.hidden) {
      resting = false;
      open();
    }
  };
  document.addEventListener("visibilitychange", wake);
  open();
  return {
    close() {
      closed = true;
      document.removeEventListener("visibilitychange", wake);
      if (source) source.close();
    },
  };
}

export function followGame(url, {after, onHead, onLost}) {
  return openStream(url, {
    after,
    onMessage: (data) => {
      if (data.type === "event" && data.version === data.head) onHead(data);
    },
    onLost,
  });
}

export function turnTitle(yours, game) {
  if (game !== undefined) {
    document.dispatchEvent(new CustomEvent("hadal:turn", {detail: {game, yours}}));
  }
  const bare = document.title.startsWith(YOUR_TURN)
    ? document.title.slice(YOUR_TURN.length) : document.title;
  document.title = yours ? YOUR_TURN + bare : bare;
}
