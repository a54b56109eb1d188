// Muster's service worker (served at /sw.js by sharing/offline.py, scope "/").
//
// What it keeps on the device, and nothing else:
// - the pages the player opened that Muster promises offline: table mode, the roster and
//   the share page of an army (and the army list, the installed app's start page),
//   each stored when the player loads it with a network, never fetched behind their back;
// - the static files those pages loaded (stylesheets, scripts, icons);
// - /offline/, the page shown for a page the device does not keep.
// A page answered from the device carries data-offline-copy="<when it was stored>" on
// <html>; static/js/offline.js says so on the page and marks what needs the server.
//
// Pages are network first: a player with a network always sees the current page, and the
// kept copy is renewed. A share link that answers 404 (turned off or renewed) loses its
// kept pages at once; logging in or out removes every kept page.
"use strict";

const PAGES = "muster-pages-v1";
const STATIC = "muster-static-v1";
const KEPT_CACHES = [PAGES, STATIC];
const OFFLINE_PAGE = "/offline/";
const SAVED_AT = "X-Muster-Saved-At";
const ASKED_AT = "X-Muster-Asked-At";
const KEPT = [
  /^\/armies\/$/,
  /^\/armies\/\d+\/play\/(?:cards\/\d+\/)?$/,
  /^\/armies\/\d+\/roster\/$/,
  /^\/s\/[A-Za-z0-9_-]+\/(?:play\/(?:cards\/\d+\/)?|roster\/)?$/,
];
const SHARE = /^\/s\/([A-Za-z0-9_-]+)\//;
const SIGN_IN_OUT = ["/accounts/login/", "/accounts/logout/"];
const RECHECK_EVERY = 60 * 1000; // share links re-checked at most once a minute

const kept = (url) =>
  url.origin === self.location.origin && !url.search && KEPT.some((re) => re.test(url.pathname));

// What the worker keeps for itself is not worth waiting on for long: a request that hangs
// (a network that drops halfway) would otherwise hold the worker's install forever.
const KEEP_WAIT_MS = 10 * 1000;
const waitAtMost = () => AbortSignal.timeout(KEEP_WAIT_MS);

// The page shown offline for a page not kept, and the static files it loads. A network
// that fails meanwhile does not stop the worker installing (a phone would then keep
// nothing until its next visit): it is tried again after each page loaded online.
async function keepOfflinePage() {
  const cache = await caches.open(STATIC);
  if (await cache.match(OFFLINE_PAGE)) return;
  try {
    const answer = await fetch(OFFLINE_PAGE, { credentials: "omit", signal: waitAtMost() });
    if (!answer.ok) return;
    const html = await answer.clone().text();
    await cache.put(OFFLINE_PAGE, answer);
    const assets = [...html.matchAll(/(?:src|href)="(\/static\/[^"]+)"/g)].map((m) => m[1]);
    await Promise.all(assets.map((a) => keepStatic(a)));
  } catch {
    // No answer (yet): the next page loaded with a network tries again.
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      await keepOfflinePage();
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("muster-") && !KEPT_CACHES.includes(name)) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

async function keepStatic(path) {
  const cache = await caches.open(STATIC);
  if (await cache.match(path)) return;
  try {
    const answer = await fetch(path, { signal: waitAtMost() });
    if (answer.ok) await cache.put(path, answer);
  } catch {
    // Offline: it is kept the next time the page loads with a network.
  }
}

// A page as kept: the answer's body with the time it was stored in a header. Two answers
// for one page can arrive out of order (the first visit's copy is asked for by the worker
// while the player's next page is on its way): an answer asked for earlier than the kept
// copy never replaces it.
async function keepPage(key, answer, askedAt) {
  const headers = new Headers(answer.headers);
  headers.set(SAVED_AT, new Date().toISOString());
  headers.set(ASKED_AT, String(askedAt));
  const body = await answer.blob();
  const cache = await caches.open(PAGES);
  const kept = await cache.match(key);
  if (kept && Number(kept.headers.get(ASKED_AT)) > askedAt) return;
  await cache.put(key, new Response(body, { status: 200, headers }));
}

async function forgetShare(token) {
  const cache = await caches.open(PAGES);
  for (const request of await cache.keys()) {
    if (new URL(request.url).pathname.startsWith(`/s/${token}/`)) await cache.delete(request);
  }
}

async function forgetPages() {
  await caches.delete(PAGES);
}

// The kept copy, marked as one: <html data-offline-copy="2026-11-26T14:02:00.000Z">.
async function keptCopy(key) {
  const cache = await caches.open(PAGES);
  const copy = await cache.match(key);
  if (!copy) return null;
  const html = await copy.text();
  const when = copy.headers.get(SAVED_AT) || "";
  const marked = html.replace(/<html\b/i, `<html data-offline-copy="${when}"`);
  const headers = new Headers(copy.headers);
  headers.delete("Content-Length");
  return new Response(marked, { status: 200, headers });
}

async function offlinePage() {
  const page = await caches.match(OFFLINE_PAGE);
  return page || new Response("Offline, and this page is not kept on this device.", { status: 503 });
}

let lastRecheck = 0;

// After a successful contact: is every kept share link still on? One that answers 404 was
// turned off or renewed: its kept pages go. A live one's kept share page is renewed.
// Answers true when every link was asked, false when the network failed on the way.
async function recheckShares(now = false) {
  if (!now && Date.now() - lastRecheck < RECHECK_EVERY) return true;
  lastRecheck = Date.now();
  const cache = await caches.open(PAGES);
  const tokens = new Set();
  for (const request of await cache.keys()) {
    const found = SHARE.exec(new URL(request.url).pathname);
    if (found) tokens.add(found[1]);
  }
  for (const token of tokens) {
    try {
      const askedAt = Date.now();
      const answer = await fetch(`/s/${token}/`, { credentials: "same-origin" });
      if (answer.status === 404) await forgetShare(token);
      else if (answer.ok && (await cache.match(`/s/${token}/`))) await keepPage(`/s/${token}/`, answer, askedAt);
    } catch {
      return false; // no network (yet): next time
    }
  }
  return true;
}

// The network is said to be back: ask, and ask again for a few seconds if it is not yet.
async function recheckWhenBack() {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (await recheckShares(true)) return;
    await new Promise((wait) => setTimeout(wait, 1000));
  }
}

async function page(event, url) {
  const key = url.pathname;
  try {
    const askedAt = Date.now();
    const answer = await fetch(event.request);
    const share = SHARE.exec(url.pathname);
    if (answer.status === 404 && share) {
      await forgetShare(share[1]);
    } else if (answer.ok && !answer.redirected && kept(url)) {
      await keepPage(key, answer.clone(), askedAt);
    } else if (answer.redirected && kept(url)) {
      // Sent to the log-in page: this device no longer holds that session's pages.
      const cache = await caches.open(PAGES);
      await cache.delete(key);
    }
    event.waitUntil(Promise.all([recheckShares(), keepOfflinePage()]));
    return answer;
  } catch {
    return (kept(url) && (await keptCopy(key))) || offlinePage();
  }
}

async function staticFile(request) {
  try {
    const answer = await fetch(request);
    if (answer.ok) {
      const cache = await caches.open(STATIC);
      await cache.put(new URL(request.url).pathname, answer.clone());
    }
    return answer;
  } catch (error) {
    const copy = await caches.match(new URL(request.url).pathname);
    if (copy) return copy;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && SIGN_IN_OUT.includes(url.pathname)) {
    event.waitUntil(forgetPages());
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(page(event, url));
  } else if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") {
    event.respondWith(staticFile(request));
  }
});

// From a page (static/js/offline.js):
// - {opened: url, assets: [...]}: a page loaded before this worker controlled it (the
//   first visit); keep it and the static files it loaded, as if it had come through here.
// - {forget: "pages"}: the player is logging out.
// - {recheck: true}: the network is back: are the kept share links still on?
// - {claim: true}: a page this worker does not control yet. Claiming at activation leaves
//   out a page whose navigation began before the worker was active and ended after.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.claim) {
    event.waitUntil(self.clients.claim());
    return;
  }
  if (data.recheck) {
    event.waitUntil(recheckWhenBack());
    return;
  }
  if (data.forget === "pages") {
    event.waitUntil(forgetPages());
    return;
  }
  if (!data.opened) return;
  event.waitUntil(
    (async () => {
      for (const asset of data.assets || []) {
        const url = new URL(asset, self.location.origin);
        if (url.origin === self.location.origin && url.pathname.startsWith("/static/")) {
          await keepStatic(url.pathname);
        }
      }
      const url = new URL(data.opened, self.location.origin);
      if (!kept(url)) return;
      if (data.controlled) return; // kept on its way through, above
      try {
        const askedAt = Date.now();
        const answer = await fetch(url.pathname, { credentials: "same-origin" });
        if (answer.ok && !answer.redirected) await keepPage(url.pathname, answer, askedAt);
      } catch {
        // Offline already: nothing to keep yet.
      }
    })(),
  );
});
