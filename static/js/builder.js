// Every builder form posts the army version its page last saw, so an edit from a stale
// tab is refused instead of overwriting newer work (armies/services.py, changing()).
// Each response swaps in #army-version; this sends the newest one with the next save.
document.addEventListener("htmx:configRequest", (event) => {
  const current = document.getElementById("army-version");
  if (current && event.detail.formData.has("version")) {
    event.detail.formData.set("version", current.value);
  }
});

// Every change to the army goes out one after another (data-hx-sync on #main), each with the
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
    if (!posted || !current || form.hasAttribute("data-hx-post")) return;
    event.preventDefault();
    saveNow();
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

// --- The unit list: find by name, group by type/kind, reorder by dragging ----------
// These work on the rows as drawn; every list redraw (htmx:afterSettle) applies them again.

const GROUPED = "muster-group-units";

function rowsOf(list) {
  return [...list.querySelectorAll(":scope > .unit-row")];
}

function applyListTools() {
  const list = document.querySelector("#unit-list .unit-rows");
  const tools = document.querySelector(".unit-tools");
  if (!list || !tools) return;
  tools.hidden = rowsOf(list).length === 0;
  const filter = document.getElementById("unit-filter");
  const group = document.getElementById("unit-group");
  group.checked = localStorage.getItem(GROUPED) === "1";

  // Rows in list order (their place before grouping), then grouped if asked. Rows are
  // moved only when what the list shows changes: moving them loses the focus and scroll.
  const rows = rowsOf(list);
  if (!list.dataset.grouped) list.dataset.order = rows.map((r) => r.id).join(" ");
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = list.dataset.order
    .split(" ")
    .map((id) => byId.get(id))
    .filter(Boolean);
  for (const r of rows) if (!ordered.includes(r)) ordered.push(r);
  const sig = group.checked ? ordered.map((r) => `${r.id}:${r.dataset.group}`).join(" ") : "";
  if (sig !== (list.dataset.sig || "")) {
    for (const head of list.querySelectorAll(".unit-group-head")) head.remove();
    list.classList.toggle("list-group-numbered", !group.checked);
    if (group.checked) {
      const groups = new Map();
      for (const r of ordered) {
        const key = r.dataset.group || "";
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(r);
      }
      for (const [label, members] of groups) {
        const head = document.createElement("li");
        head.className = "list-group-item unit-group-head small";
        head.textContent = `${label} (${members.length})`;
        list.append(head, ...members);
      }
      list.dataset.grouped = "1";
    } else {
      list.append(...ordered);
      delete list.dataset.grouped;
    }
    list.dataset.sig = sig;
  }

  // Find by name: rows whose name does not hold what is typed are hidden.
  const wanted = filter.value.trim().toLowerCase();
  let shown = 0;
  for (const r of ordered) {
    const name = r.querySelector(".unit-name")?.textContent.toLowerCase() ?? "";
    const match = !wanted || name.includes(wanted);
    r.hidden = !match;
    if (match) shown += 1;
  }
  for (const head of list.querySelectorAll(".unit-group-head")) {
    let next = head.nextElementSibling;
    let any = false;
    while (next && !next.classList.contains("unit-group-head")) {
      if (!next.hidden) any = true;
      next = next.nextElementSibling;
    }
    head.hidden = !any;
  }
  const count = document.getElementById("unit-filter-count");
  const matching = ngettext(
    "%(shown)s of %(all)s unit matches “%(typed)s”.",
    "%(shown)s of %(all)s units match “%(typed)s”.",
    ordered.length,
  );
  count.textContent = wanted
    ? interpolate(matching, { shown, all: ordered.length, typed: filter.value.trim() }, true) +
      (shown ? "" : ` ${gettext("Clear the box to see them all.")}`)
    : "";
}

document.addEventListener("input", (event) => {
  if (event.target.id === "unit-filter") applyListTools();
});
document.addEventListener("change", (event) => {
  if (event.target.id === "unit-group") {
    localStorage.setItem(GROUPED, event.target.checked ? "1" : "0");
    applyListTools();
  }
});

// "Move to position": Enter in the box presses that row's Move button (the shared form's
// own first button is disabled, so Enter alone sends nothing).
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || !event.target.classList?.contains("move-to-input")) return;
  event.preventDefault();
  event.target.closest(".move-to")?.querySelector(".move-to-button")?.click();
});

// Drag a row by its handle onto another: it takes that row's place in the list, through
// the same "move to position" save.
let dragged = null;
document.addEventListener("dragstart", (event) => {
  const handle = event.target.closest?.(".drag-handle");
  if (!handle) return;
  dragged = handle.closest(".unit-row");
  event.dataTransfer.effectAllowed = "move";
  event.dataTransfer.setData("text/plain", dragged.id);
});
document.addEventListener("dragover", (event) => {
  const row = event.target.closest?.(".unit-row");
  if (!dragged || !row || row === dragged) return;
  event.preventDefault();
  for (const r of document.querySelectorAll(".drop-target")) r.classList.remove("drop-target");
  row.classList.add("drop-target");
});
document.addEventListener("dragend", () => {
  dragged = null;
  for (const r of document.querySelectorAll(".drop-target")) r.classList.remove("drop-target");
});
document.addEventListener("drop", (event) => {
  const row = event.target.closest?.(".unit-row");
  if (!dragged || !row || row === dragged) return;
  event.preventDefault();
  const list = row.parentElement;
  const order = (list.dataset.order || rowsOf(list).map((r) => r.id).join(" ")).split(" ");
  const place = order.indexOf(row.id) + 1;
  const moved = dragged;
  dragged = null;
  if (place < 1) return;
  const [box, button] = moveControls(moved);
  box.value = String(place);
  button.click();
  row.classList.remove("drop-target");
});

// A row's "move to position" box and button: they come with its actions when the row is
// opened, so a row dragged unopened gets hidden ones (the list's redraw removes them).
function moveControls(row) {
  const box = row.querySelector(".move-to-input");
  const button = row.querySelector(".move-to-button");
  if (box && button) return [box, button];
  const pk = row.id.replace("unit-", "");
  const hiddenBox = document.createElement("input");
  Object.assign(hiddenBox, { type: "hidden", name: `to-${pk}` });
  const hiddenButton = document.createElement("button");
  Object.assign(hiddenButton, { type: "submit", name: "direction", value: "to", hidden: true });
  for (const el of [hiddenBox, hiddenButton]) el.setAttribute("form", "unit-actions");
  hiddenButton.setAttribute("formaction", `${row.dataset.url}move/`);
  row.append(hiddenBox, hiddenButton);
  window.htmx?.process(hiddenButton); // so htmx posts to its formaction, as for any row button
  return [hiddenBox, hiddenButton];
}

// --- The editor ----------------------------------------------------------------------

// The row buttons' saves say which unit is open in the editor: a new quantity is drawn
// into it too, so its next save does not put the old one back.
document.addEventListener("htmx:configRequest", (event) => {
  if (event.detail.elt?.id !== "unit-actions") return;
  const open = document.getElementById("editor")?.dataset.unit;
  if (open) event.detail.formData.set("open", open);
});

// Opening a unit brings its editor into view. On a desk the editor sits in the column
// that stays on screen (builder.html .builder-side): that column scrolls to it. On a phone
// it sits above the list: the page scrolls up to it (its scroll-margin clears the total).
function showEditor(always) {
  const editor = document.getElementById("editor");
  const side = editor?.closest(".builder-side");
  if (!editor || !side) return;
  if (getComputedStyle(side).display !== "contents") {
    // The total sticks to the column's top: the editor's top goes just below it.
    const summary = document.getElementById("army-summary");
    const below = summary ? summary.getBoundingClientRect().bottom : side.getBoundingClientRect().top;
    side.scrollTop += editor.getBoundingClientRect().top - below - 8;
  } else if (always || editor.getBoundingClientRect().top < 0 || editor.getBoundingClientRect().top > window.innerHeight / 2) {
    measureBar();
    editor.scrollIntoView({ block: "start" });
  }
}
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.target?.id === "editor") showEditor(false);
});
// Chromium takes the focus away from whatever had it as it scrolls to #editor, which it
// does when the page has loaded: on a slow network the player may be typing in the
// editor by then, and the field they were in keeps the focus.
let blurredWhileLoading = null;
document.addEventListener(
  "focusout",
  (event) => {
    if (document.readyState !== "complete" && !event.relatedTarget) blurredWhileLoading = event.target;
  },
  true,
);
// Add unit (the picker, Start blank, Add copy) opens the new unit at #editor: the
// browser puts the editor's top at the top of the screen or column, under the total
// that sticks there, before the total's height is known. Once the page is laid out
// the editor is moved below it.
window.addEventListener("load", () => {
  if (window.location.hash === "#editor") showEditor(true);
  if (document.activeElement === document.body && blurredWhileLoading?.isConnected) {
    blurredWhileLoading.focus({ preventScroll: true });
  }
});

// A redrawn editor (a new type or kind brings its own fields) keeps the focus where the
// player was; without JavaScript the "Show its fields" button redraws it.
let focused = null;
document.addEventListener("htmx:beforeSwap", () => {
  focused = document.activeElement?.id || null;
});
function restoreFocus() {
  if (focused && document.activeElement === document.body) {
    document.getElementById(focused)?.focus();
  }
  focused = null;
}

function hideNoScriptButtons() {
  for (const b of document.querySelectorAll(".editor-switch-button")) b.hidden = true;
}

document.addEventListener("htmx:afterSettle", () => {
  applyListTools();
  hideNoScriptButtons();
  restoreFocus();
});
document.addEventListener("DOMContentLoaded", () => {
  applyListTools();
  hideNoScriptButtons();
});

// The editor's numbers follow each keystroke: the form's data-preview answers with the
// unit's price as typed and the army's total with it (armies/preview.py; it saves
// nothing), shown as soon as it comes, while the saves follow one by one on #main's
// queue. Only the answer to the newest typing is shown. A save answered after newer
// typing would put older numbers back for a moment, so its total and status are not
// swapped in (the save of the newer typing is queued behind it and brings them); its
// version and rows still go in.
let typed = 0;
let staleSave = false;
document.addEventListener(
  "input",
  (event) => {
    const form = event.target.closest?.("#unit-form");
    if (!form) return;
    typed += 1;
    form.dataset.unsaved = "true";
  },
  true,
);

// The save waits for a pause in the typing (the form's "input delay:400ms"); whatever
// would leave the unit first sends what was typed: a click outside the editor, another
// form, the page being left (then by sendBeacon, which outlives the page).
function unsavedForm() {
  const form = document.getElementById("unit-form");
  return form?.dataset.unsaved ? form : null;
}
function saveNow() {
  const form = unsavedForm();
  if (form) htmx.trigger(form, "submit");
}
document.addEventListener(
  "click",
  (event) => {
    if (!event.target.closest?.("#unit-form")) saveNow();
  },
  true,
);
// On a slow network the editor shows, and takes typing, before this script and htmx have
// run: once htmx is ready, what the fields hold that the page did not bring is sent like
// any typing (tests/browser/test_builder.py holds this script back to check). The form is
// autocomplete="off", so a browser going back to the page never fills in older values
// for this to send over newer ones.
function changedField(field) {
  if (!field.matches("select, textarea, input:not([type=hidden], [type=submit], [type=button])")) {
    return false;
  }
  if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
  if (field instanceof HTMLSelectElement) {
    const chosen = [...field.options].filter((option) => option.defaultSelected);
    if (!field.multiple && !chosen.length && field.options.length) chosen.push(field.options[0]);
    return [...field.options].some((option) => option.selected !== chosen.includes(option));
  }
  return field.value !== field.defaultValue;
}
document.addEventListener(
  "htmx:load",
  () => {
    const form = document.getElementById("unit-form");
    if (!form || ![...form.elements].some(changedField)) return;
    typed += 1;
    form.dataset.unsaved = "true";
    saveNow();
  },
  { once: true },
);
// The pause the save waits for may end after its editor was replaced (another unit
// opened): saveNow() already sent what it held, and a form no longer on the page asks
// for nothing more (its answer would find nothing of the page to update).
document.addEventListener("htmx:beforeRequest", (event) => {
  if (!event.detail.elt.isConnected) event.preventDefault();
});
// A save refused for a field it cannot take ("Not saved: fix the marked fields") stored
// nothing of the unit, the valid fields included: each refused field is marked where it
// is, and leaving the page asks first, so what was typed is never lost without a word.
function refusedSave() {
  return document.querySelector("#editor [data-testid='not-saved']") !== null;
}
function markRefusedFields() {
  const form = document.getElementById("unit-form");
  if (!form) return;
  for (const box of form.querySelectorAll(".invalid-feedback[id^='fb-']")) {
    const field = form.elements.namedItem(box.id.slice(3));
    if (!(field instanceof HTMLElement) || field.type === "hidden") continue;
    const bad = box.textContent.trim() !== "";
    field.classList.toggle("is-invalid", bad);
    if (bad) field.setAttribute("aria-invalid", "true");
    else field.removeAttribute("aria-invalid");
  }
}
document.addEventListener("htmx:afterSettle", markRefusedFields);
window.addEventListener("beforeunload", (event) => {
  if (!refusedSave()) return;
  event.preventDefault();
  event.returnValue = ""; // older browsers ask only when this is set
});
// Sent as the page is left: from beforeunload, while the page is still live (a beacon
// from pagehide alone never left a page the service worker controls), and from pagehide
// for a page left without beforeunload (a phone switching apps). Sent once.
function sendUnsaved() {
  const form = unsavedForm();
  if (!form) return;
  delete form.dataset.unsaved;
  const data = new FormData(form);
  data.set("version", document.getElementById("army-version")?.value ?? data.get("version"));
  navigator.sendBeacon(form.action, data);
}
window.addEventListener("beforeunload", sendUnsaved);
window.addEventListener("pagehide", sendUnsaved);
document.addEventListener("input", (event) => {
  const form = event.target.closest?.("#unit-form");
  if (!form?.dataset.preview) return;
  const asked = typed;
  fetch(form.dataset.preview, { method: "POST", body: new FormData(form), credentials: "same-origin" })
    .then((reply) => (reply.status === 200 ? reply.text() : null))
    .then((html) => {
      if (html && asked === typed) htmx.swap("#editor-price", html, { swapStyle: "none" });
    })
    .catch(() => {}); // the save that follows says what went wrong
});
document.addEventListener("htmx:configRequest", (event) => {
  if (event.detail.elt.id !== "unit-form") return;
  event.detail.headers["X-Muster-Typed"] = String(typed);
  delete event.detail.elt.dataset.unsaved; // this save carries it
});
document.addEventListener("htmx:beforeSwap", (event) => {
  const sent = event.detail.requestConfig?.headers?.["X-Muster-Typed"];
  staleSave = sent !== undefined && Number(sent) < typed;
});
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const id = event.detail.target?.id;
  if (staleSave && (id === "army-summary" || id === "editor-status")) {
    event.detail.shouldSwap = false;
  }
});

// On a phone the total bar sticks to the top of the screen, and it grows with the army's
// errors: whatever the page scrolls to (a unit's row, the editor) lands below it however
// tall it is (muster.css reads --bar-height).
function measureBar() {
  const bar = document.getElementById("army-summary");
  const phone = window.matchMedia("(max-width: 991.98px)").matches; // muster.css's lg
  const sticky = phone && bar && getComputedStyle(bar).position === "sticky";
  const root = document.documentElement.style;
  if (sticky) root.setProperty("--bar-height", `${bar.offsetHeight}px`);
  else root.removeProperty("--bar-height");
}
document.addEventListener("DOMContentLoaded", measureBar);
document.addEventListener("htmx:afterSettle", measureBar);
window.addEventListener("resize", measureBar);
