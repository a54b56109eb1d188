// Editor lists (issue 19): weapons picked from a list, typing your own still possible.
// Loaded on the builder after builder.js; the editor is swapped in by htmx, so every
// listener sits on the document.

// A d10 weapon picked from the set's table is added to the weapons box as a line, and
// the box's own input event saves the unit. The select's input event goes no further:
// it would save again with the pick, which the server adds too (the no-JavaScript way).
document.addEventListener(
  "input",
  (event) => {
    const select = event.target;
    if (!(select instanceof HTMLSelectElement) || !select.dataset.appendTo) return;
    event.stopPropagation();
    const box = document.getElementById(select.dataset.appendTo);
    const picked = select.value;
    select.value = "";
    if (!box || !picked) return;
    const lines = box.value.split(/\r?\n/).filter((line) => line.trim());
    box.value = [...lines, picked].join("\n");
    box.dispatchEvent(new Event("input", { bubbles: true }));
  },
  true,
);

// A GEM missile weapon whose name is picked from the list brings its stats into the
// row's empty boxes, before the save this same input event sends.
const FIELDS = ["off", "att", "range", "radius"];

document.addEventListener(
  "input",
  (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || !box.list) return;
    const option = [...box.list.options].find((o) => o.value === box.value);
    const row = box.name.match(/^(.+-\d+)-name$/);
    if (!option || !row || !box.form) return;
    const field = (key) => box.form.elements.namedItem(`${row[1]}-${key}`);
    for (const key of FIELDS) {
      const input = field(key);
      if (input && !input.value.trim()) input.value = option.dataset[key];
    }
    const fire = field("fire");
    if (fire && option.dataset.fire) fire.value = option.dataset.fire;
    const heavy = field("heavy");
    if (heavy) heavy.checked = heavy.checked || option.dataset.heavy === "1";
  },
  true,
);
