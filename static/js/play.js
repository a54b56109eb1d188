// Table mode (templates/armies/play.html): each tap posts the game's version with htmx
// and the answer redraws the game, carrying the next version. A tap made while the last
// one is still on its way waits for it, then goes out from the redrawn page, so quick
// taps are counted one after another instead of being refused as stale.
const waiting = [];
let busy = false;

document.addEventListener(
  "click",
  (event) => {
    const button = event.target.closest("#game [data-tap]");
    if (!button || !busy) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    waiting.push(button.form?.getAttribute("action") + "|" + (button.value || ""));
  },
  true,
);

document.addEventListener("htmx:beforeRequest", (event) => {
  if (event.detail.elt.closest("#game")) busy = true;
});

document.addEventListener("htmx:beforeSwap", (event) => {
  // A refused tap (a counter at its limit) answers 422 with the game and why: show it.
  if (event.detail.xhr.status === 422) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});

document.addEventListener("htmx:afterRequest", (event) => {
  if (!event.detail.elt.closest || !busy) return;
  busy = false;
  const status = event.detail.xhr?.status;
  // After a refusal the player sees the game as it stands: taps that waited are dropped.
  if (status !== 200) waiting.length = 0;
  const next = waiting.shift();
  if (!next) return;
  const [action, value] = next.split("|");
  setTimeout(() => {
    const again = [...document.querySelectorAll("#game [data-tap]")].find(
      (b) => b.form?.getAttribute("action") === action && (b.value || "") === value,
    );
    if (again && !again.disabled) again.click();
    else waiting.length = 0;
  }, 0);
});
