// The offline page (templates/offline.html): the pages this device keeps, by their titles;
// only those kept for the account the device last saw signed in (static/js/sw.js STATE),
// and in this page's language (/de/offline/ lists the German copies, as static/js/sw.js
// keeps them apart).
(async () => {
  const LANGUAGE = /^\/[a-z]{2}(?:-[a-z]{2,4})?(?=\/)/; // static/js/sw.js LANGUAGE
  const prefixOf = (path) => LANGUAGE.exec(path)?.[0] ?? "";
  const list = document.getElementById("offline-kept");
  if (!list || !("caches" in window)) return;
  const state = await (await caches.open("muster-state-v1")).match("/__muster/state");
  const account = state ? (await state.json()).account : null;
  const cache = await caches.open("muster-pages-v2");
  const found = [];
  for (const request of await cache.keys()) {
    const answer = await cache.match(request);
    if (!account || answer.headers.get("X-Muster-Account") !== account) continue;
    if (prefixOf(new URL(request.url).pathname) !== prefixOf(location.pathname)) continue;
    const html = await answer.text();
    const title = new DOMParser().parseFromString(html, "text/html").title || request.url;
    found.push({ path: new URL(request.url).pathname, title });
  }
  found.sort((a, b) => a.title.localeCompare(b.title));
  for (const { path, title } of found) {
    const a = document.createElement("a");
    a.href = path;
    a.textContent = title.replace(/ · Muster$/, "");
    const li = document.createElement("li");
    li.append(a);
    list.append(li);
  }
  document.getElementById("offline-none").hidden = found.length > 0;
})();
