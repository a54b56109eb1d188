// Light/dark colour mode: the stored choice, else the system preference.
// Loaded in <head> so the page never flashes the wrong theme.
(() => {
  const KEY = "muster-theme";
  const stored = () => localStorage.getItem(KEY);
  const preferred = () =>
    stored() || (window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
  const apply = (theme) => {
    document.documentElement.setAttribute("data-bs-theme", theme);
    const label = document.querySelector("#theme-toggle .theme-label");
    if (label) label.textContent = theme === "dark" ? "Light mode" : "Dark mode";
  };
  apply(preferred());
  document.addEventListener("DOMContentLoaded", () => {
    apply(preferred());
    const toggle = document.getElementById("theme-toggle");
    if (!toggle) return;
    toggle.addEventListener("click", () => {
      const next = document.documentElement.getAttribute("data-bs-theme") === "dark" ? "light" : "dark";
      localStorage.setItem(KEY, next);
      apply(next);
    });
  });
})();
