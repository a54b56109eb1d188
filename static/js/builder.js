// Every builder form posts the army version its page last saw, so an edit from a stale
// tab is refused instead of overwriting newer work (armies/services.py, changing()).
// Each response swaps in #army-version; this sends the newest one with the next save.
document.addEventListener("htmx:configRequest", (event) => {
  const current = document.getElementById("army-version");
  if (current && event.detail.formData.has("version")) {
    event.detail.formData.set("version", current.value);
  }
});

// Every change to the army goes out one after another (hx-sync on #main), each with the
// version the one before it left. Forms that post the ordinary way (add a unit, copy from
// the library, accept new rules) wait for the saves still on their way, then send the
// version those left: otherwise a click straight after typing is refused as stale.
function whenIdle(then) {
  const busy = document.querySelector(".htmx-request");
  if (!busy) return then();
  busy.addEventListener("htmx:afterRequest", () => setTimeout(() => whenIdle(then), 0), {
    once: true,
  });
}

document.addEventListener(
  "submit",
  (event) => {
    const form = event.target;
    const posted = form.elements?.namedItem("version");
    const current = document.getElementById("army-version");
    if (!posted || !current || form.hasAttribute("hx-post")) return;
    event.preventDefault();
    // While it waits, the page is about to be left: typing into the editor now would
    // change the unit the player is leaving, so it takes no more input.
    if (document.querySelector(".htmx-request")) {
      document.getElementById("unit-form")?.setAttribute("inert", "");
    }
    whenIdle(() => {
      posted.value = document.getElementById("army-version").value;
      form.submit();
    });
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
