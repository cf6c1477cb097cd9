// The choices page (templates/inbox/choices.html): before the member has saved a time zone,
// offer the browser's own in place of UTC.
const select = document.querySelector("select[data-guess-zone]");
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
if (select && zone && [...select.options].some((option) => option.value === zone)) {
  select.value = zone;
}
