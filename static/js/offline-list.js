// The offline page (templates/offline.html): the pages this device keeps, by their titles.
(async () => {
  const list = document.getElementById("offline-kept");
  if (!list || !("caches" in window)) return;
  const cache = await caches.open("muster-pages-v1");
  const found = [];
  for (const request of await cache.keys()) {
    const answer = await cache.match(request);
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
