// Copy buttons, hidden without JavaScript (where the link or text can still be selected
// or opened and copied by hand):
// - [data-copy="<id>"] copies the value of that input (or the address of that link), and
//   says so in the element its aria-describedby names ("Copy link");
// - [data-copy-url] fetches that text export (plain, Markdown, BBCode) and copies it,
//   saying so in its block's [data-copy-status].
function copiedText(target) {
  return target instanceof HTMLInputElement ? target.value : target.href || target.textContent;
}

async function copyLink(button) {
  const target = document.getElementById(button.dataset.copy);
  const status = document.getElementById(button.getAttribute("aria-describedby") || "");
  if (!target) return;
  let done = false;
  try {
    await navigator.clipboard.writeText(copiedText(target));
    done = true;
  } catch {
    // No clipboard access (an http page, a refused permission): select it for Ctrl+C.
    if (target instanceof HTMLInputElement) target.select();
  }
  if (status) status.textContent = done ? gettext("Copied.") : gettext("Selected: press Ctrl+C (⌘C) to copy.");
}

async function copyExport(button) {
  const status = button.closest(".export-text")?.querySelector("[data-copy-status]");
  const say = (text) => {
    if (status) status.textContent = text;
  };
  const text = fetch(button.dataset.copyUrl, { credentials: "same-origin" }).then((reply) => {
    if (!reply.ok) throw new Error(interpolate(gettext("the server answered %(status)s"), { status: reply.status }, true));
    return reply.text();
  });
  try {
    if (window.ClipboardItem && navigator.clipboard.write) {
      // The item is written while the click still counts as the player's (Safari needs it).
      const blob = text.then((t) => new Blob([t], { type: "text/plain" }));
      await navigator.clipboard.write([new ClipboardItem({ "text/plain": blob })]);
    } else {
      await navigator.clipboard.writeText(await text);
    }
    say(interpolate(gettext("Copied as %(kind)s: paste it where you like."), { kind: button.dataset.copyLabel }, true));
  } catch (error) {
    say(
      interpolate(
        gettext("Could not copy (%(why)s): open the link and copy the text from there."),
        { why: error.message },
        true,
      ),
    );
  }
}

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.hidden = false;
    button.addEventListener("click", () => copyLink(button));
  }
  for (const button of document.querySelectorAll("[data-copy-url]")) {
    button.hidden = false;
    button.addEventListener("click", () => copyExport(button));
  }
});
