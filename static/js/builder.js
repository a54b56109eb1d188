// Every builder form posts the army version its page last saw, so an edit from a stale
// tab is refused instead of overwriting newer work (armies/views.py, _claim_version).
// Each response swaps in #army-version; this sends the newest one with the next save.
document.addEventListener("htmx:configRequest", (event) => {
  const current = document.getElementById("army-version");
  if (current && event.detail.formData.has("version")) {
    event.detail.formData.set("version", current.value);
  }
});
