// Roster sheet: the Print button opens the browser's print dialog.
// It stays hidden without JavaScript, where the browser's own Print menu does the job.
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-print]")) {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  }
});
