// On a phone the header's links fold behind a Menu button (without scripts they stay shown).
const nav = document.querySelector(".nav");
const toggle = nav && nav.querySelector(".nav-toggle");
if (toggle) {
  nav.classList.add("nav-collapsible");
  toggle.hidden = false;
  toggle.addEventListener("click", () => {
    const open = nav.classList.toggle("open");
    toggle.setAttribute("aria-expanded", String(open));
  });
}
