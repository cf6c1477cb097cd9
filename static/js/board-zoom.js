// A board drawn to the screen's width can be zoomed in to twice that, and scrolled around.
const board = document.getElementById("board");
const button = document.getElementById("board-zoom");
if (board && button) {
  button.hidden = false;
  button.addEventListener("click", () => {
    const zoomed = board.classList.toggle("zoomed");
    button.setAttribute("aria-pressed", String(zoomed));
    button.textContent = zoomed ? "Zoom out" : "Zoom in";
  });
}
