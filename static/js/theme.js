// Light/dark colour mode: the stored choice, else the system preference.
// Loaded in <head> so the page never flashes the wrong theme.
//
// Every script's words come from the page's language's catalog (gettext, ngettext and
// interpolate: Django's JavaScriptCatalog, loaded just before this, config/urls.py). Should
// it not load (a page kept offline whose catalog never was), they show in English rather
// than stop the scripts.
window.gettext ??= (text) => text;
window.ngettext ??= (one, many, n) => (n === 1 ? one : many);
window.interpolate ??= (text, values, named) =>
  named
    ? text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]))
    : text.replace(/%s/g, () => String(values.shift()));

(() => {
  const KEY = "muster-theme";
  const stored = () => localStorage.getItem(KEY);
  const preferred = () =>
    stored() || (window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
  const apply = (theme) => {
    document.documentElement.setAttribute("data-bs-theme", theme);
    const label = document.querySelector("#theme-toggle .theme-label");
    if (label) label.textContent = theme === "dark" ? gettext("Light mode") : gettext("Dark mode");
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
