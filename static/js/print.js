// Roster sheet and print set: the Print button opens the browser's print dialog.
// It stays hidden without JavaScript, where the browser's own Print menu does the job.
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-print]")) {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  }
  // The running header of every printed page (print-set.css): a CSS string holding the
  // page's data-print-header, escaped as CSS wants (backslashes and quotes).
  const header = document.querySelector("[data-print-header]");
  if (header) {
    const text = header.dataset.printHeader.replace(/[\\"]/g, "\\$&").replace(/[\n\r\f]/g, " ");
    document.documentElement.style.setProperty("--print-header", `"${text}"`);
  }
});
