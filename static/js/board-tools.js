/* Tools for any board on the game page.
   Zoom: a board drawn to the screen's width can be zoomed in to twice that, and scrolled.
   Help: whatever on a board explains itself on hover (an SVG <title>) explains itself on a
   tap too, in the line under the board, since a phone has no hover. */
const board = document.getElementById("board");
const zoom = document.getElementById("board-zoom");
const help = document.getElementById("board-help");

if (board && zoom) {
  zoom.hidden = false;
  zoom.addEventListener("click", () => {
    const zoomed = board.classList.toggle("zoomed");
    zoom.setAttribute("aria-pressed", String(zoomed));
    zoom.textContent = zoomed ? "Zoom out" : "Zoom in";
  });
}

function explanation(target) {
  for (let node = target; node && node !== board; node = node.parentNode) {
    const title = Array.from(node.children || []).find((child) => child.tagName === "title");
    if (title && title.textContent.trim()) return title.textContent.trim();
  }
  return "";
}

if (board && help) {
  board.addEventListener("click", (event) => {
    const text = explanation(event.target);
    help.textContent = text;
    help.hidden = !text;
  });
}
