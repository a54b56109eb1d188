// Every builder form posts the army version its page last saw, so an edit from a stale
// tab is refused instead of overwriting newer work (armies/views.py, _claim_version).
// Each response swaps in #army-version; this sends the newest one with the next save.
document.addEventListener("htmx:configRequest", (event) => {
  const current = document.getElementById("army-version");
  if (current && event.detail.formData.has("version")) {
    event.detail.formData.set("version", current.value);
  }
});

// Forms that post the ordinary way (add a unit, copy from the library) carry the version
// the page was drawn with: bring it up to date with the live saves' before it goes.
document.addEventListener(
  "submit",
  (event) => {
    const current = document.getElementById("army-version");
    const posted = event.target.elements?.namedItem("version");
    if (current && posted) posted.value = current.value;
  },
  true,
);

// The row of the unit open in the editor is marked. Opening another unit through htmx
// swaps only the editor, and list changes redraw rows without knowing what is open, so
// after every swap the mark follows the editor's data-unit.
document.addEventListener("htmx:afterSettle", () => {
  const editor = document.getElementById("editor");
  if (!editor) return;
  const open = editor.dataset.unit ? `unit-${editor.dataset.unit}` : null;
  for (const row of document.querySelectorAll(".unit-row")) {
    const isOpen = row.id === open;
    row.classList.toggle("active-unit", isOpen);
    if (isOpen) row.setAttribute("aria-current", "true");
    else row.removeAttribute("aria-current");
  }
});
