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
// Per language (SPEC 5, "Languages"): English pages are at their plain addresses, German
// and French ones under /de/, /fr/ (any two-letter prefix, with a region or not, is a
// language's: no page of Muster's sits at a two-letter top-level address). Copies are
// kept by address, so a page's English and German copies are two copies that never
// replace each other; the offline page and the words the scripts show (the language's
// jsi18n/ catalog) are kept per language too, and a page not kept is answered with the
// offline page in its own language.
//
// Pages are network first: a player with a network always sees the current page, and the
// kept copy is renewed. A share link that answers 404 (turned off or renewed) loses its
// kept pages at once.
//
// Whose they are (issue #45): the kept pages, table mode's unsent taps (IndexedDB, see
// static/js/play.js) and the list of them belong to one account. Every HTML answer says
// whom it was drawn for (X-Muster-Account, accounts/devices.py); the device's account is
// the last one an answer named. An answer that names another (someone else signed in, or
// nobody: logged out, the session expired, the password changed elsewhere) wipes all of
// it before anything is stored or shown, and so do logging in, signing up and logging
// out. A copy is shown only to the account it was kept for. Each wipe bumps `generation`:
// an answer asked for before it (the share links' re-check, a page still on its way) is
// stale, and neither stored nor believed.
//
// Logging out without a network forgets everything on the device at once and leaves the
// log-out pending: at the next contact it is sent before anything else.
"use strict";

const PAGES = "muster-pages-v2"; // v1's copies said nothing of whose they were
const STATIC = "muster-static-v1";
const STATE = "muster-state-v1"; // the device's account, and a log-out waiting to be sent
const KEPT_CACHES = [PAGES, STATIC, STATE];
const STATE_KEY = "/__muster/state";
const TABLE_DB = "muster-table"; // static/js/play.js TABLE_DB: table mode's offline taps
const OFFLINE_PAGE = "/offline/"; // under the language's prefix: /de/offline/
const SAVED_AT = "X-Muster-Saved-At";
const ASKED_AT = "X-Muster-Asked-At";
const ACCOUNT = "X-Muster-Account"; // accounts/devices.py HEADER
const KEPT = [
  /^\/armies\/$/,
  /^\/armies\/\d+\/play\/(?:cards\/\d+\/)?$/,
  /^\/armies\/\d+\/roster\/$/,
  /^\/s\/[A-Za-z0-9_-]+\/(?:play\/(?:cards\/\d+\/)?|roster\/)?$/,
];
const SHARE = /^\/s\/([A-Za-z0-9_-]+)\//; // of an address without its language prefix
const LANGUAGE = /^\/[a-z]{2}(?:-[a-z]{2,4})?(?=\/)/; // config/urls.py: i18n_patterns' prefix
const CATALOG = "/jsi18n/"; // config/urls.py: the scripts' words, under the language's prefix
const SIGN_IN = ["/accounts/login/", "/accounts/signup/"];
const LOG_OUT = "/accounts/logout/";
const RECHECK_EVERY = 60 * 1000; // share links re-checked at most once a minute

// "/de" for /de/armies/, "" for an English address; the address without it.
const prefixOf = (path) => LANGUAGE.exec(path)?.[0] ?? "";
const local = (path) => path.slice(prefixOf(path).length);

const kept = (url) =>
  url.origin === self.location.origin && !url.search && KEPT.some((re) => re.test(local(url.pathname)));
// Kept with the static files: the scripts' words are needed offline as much as the scripts.
const staticPath = (path) =>
  path.startsWith("/static/") || ["/manifest.webmanifest", CATALOG].includes(local(path));

// What the worker keeps for itself is not worth waiting on for long: a request that hangs
// (a network that drops halfway) would otherwise hold the worker's install forever.
const KEEP_WAIT_MS = 10 * 1000;
const waitAtMost = () => AbortSignal.timeout(KEEP_WAIT_MS);

// ------------------------------------------------------------ whose the device's copies are
// {account: the tag of the last account an answer named (null: none since the last wipe),
//  logout: {token} while a log-out made offline waits to be sent}. Kept in Cache Storage,
// as the worker may be stopped and started again between two pages.
let state = null; // null until read back
let generation = 0; // bumped by each wipe: what was asked for before it is stale
let wiping = Promise.resolve();

async function saveState() {
  const cache = await caches.open(STATE);
  const body = JSON.stringify(state);
  await cache.put(STATE_KEY, new Response(body, { headers: { "Content-Type": "application/json" } }));
}

const loaded = (async () => {
  let found = null;
  try {
    const kept = await (await caches.open(STATE)).match(STATE_KEY);
    found = kept ? await kept.json() : null;
  } catch {
    // Unreadable: as on a new device.
  }
  const logout = state?.logout ?? found?.logout ?? null;
  // A wipe while this was read (the worker was started by a log-in) says who is now.
  state = state ? { ...state, logout } : { account: found?.account ?? null, logout };
  // Whatever a wipe left half done (the worker stopped on the way) goes now.
  try {
    const cache = await caches.open(PAGES);
    for (const request of await cache.keys()) {
      const copy = await cache.match(request);
      if (!state.account || copy?.headers.get(ACCOUNT) !== state.account) await cache.delete(request);
    }
  } catch {
    // Nothing kept.
  }
})();

function deleteTableDb() {
  return new Promise((done) => {
    const request = indexedDB.deleteDatabase(TABLE_DB);
    // Blocked: a page holds it open for a moment; the deletion goes on once it closes.
    request.onsuccess = request.onerror = request.onblocked = () => done();
  });
}

// Everything kept for whoever was signed in goes: the pages, the list of them (it is read
// from the pages) and table mode's taps; the open pages are told (static/js/play.js drops
// the taps it holds). `account` is the one signed in now, when an answer said so.
function wipe(account = null) {
  generation += 1;
  state = { ...(state || { logout: null }), account };
  wiping = wiping
    .then(async () => {
      await saveState();
      await caches.delete(PAGES);
      await deleteTableDb();
      for (const client of await self.clients.matchAll({ includeUncontrolled: true })) {
        client.postMessage({ wiped: true });
      }
    })
    .catch(() => {});
  return wiping;
}

// An answer asked for at `asked` (the generation then) names `who`. Answers true when it
// speaks for the device as it is now: then the device's account is `who`, everything
// kept for another gone first. A stale answer (a wipe came in between) says nothing.
async function heard(who, asked) {
  await loaded;
  if (!who || asked !== generation) return false;
  if (state.account !== who) {
    if (state.account === null) {
      state = { ...state, account: who }; // nothing kept since the last wipe
      wiping = wiping.then(saveState).catch(() => {});
    } else wipe(who);
  }
  await wiping;
  return asked === generation || state.account === who;
}

// A log-out made offline, sent before anything else reaches the server. The token is the
// one on the log-out form; a stale one (the CSRF secret changed since the copy was kept)
// is refused, and one from a fresh page is tried. Throws while the network is out.
let sendingLogout = null;

async function postLogout(token) {
  const body = new URLSearchParams({ csrfmiddlewaretoken: token });
  return fetch(LOG_OUT, {
    method: "POST",
    body,
    credentials: "same-origin",
    headers: { "X-CSRFToken": token },
  });
}

async function freshToken() {
  const answer = await fetch(OFFLINE_PAGE, { credentials: "same-origin", cache: "no-store" });
  const found = /"X-CSRFToken": "([^"]+)"/.exec(await answer.text());
  return found ? found[1] : "";
}

function sendLogout() {
  sendingLogout ??= (async () => {
    let answer = await postLogout(state.logout.token || "");
    if (answer.status === 403) answer = await postLogout(await freshToken());
    if (answer.status >= 500) throw new Error(`the server answered ${answer.status}`);
    // Signed out; or refused for good (with a fresh token too): asking again at every
    // request would only be refused again.
    state = { ...state, logout: null };
    await saveState();
  })().finally(() => {
    sendingLogout = null;
  });
  return sendingLogout;
}

// Before the device sends anything to the server: a log-out made offline goes first.
async function contact() {
  await loaded;
  if (state.logout) await sendLogout();
}

// The page shown offline for a page not kept, in the language of `prefix` ("" English,
// "/de"), and the static files it loads. A network that fails meanwhile does not stop the
// worker installing (a phone would then keep nothing until its next visit): it is tried
// again after each page loaded online.
async function keepOfflinePage(prefix = "") {
  const cache = await caches.open(STATIC);
  const address = prefix + OFFLINE_PAGE;
  if (await cache.match(address)) return;
  try {
    const answer = await fetch(address, { credentials: "omit", signal: waitAtMost() });
    if (!answer.ok || answer.redirected) return;
    const html = await answer.clone().text();
    await cache.put(address, answer);
    const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)]
      .map((m) => m[1])
      .filter(staticPath);
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

// A page as kept for account `who`: the answer's body with the time it was stored in a
// header. Two answers for one page can arrive out of order (the first visit's copy is
// asked for by the worker while the player's next page is on its way): an answer asked for
// earlier than the kept copy never replaces it. Nothing is stored once a wipe came after
// generation `asked` or another account is the device's: checked just before the write,
// with nothing awaited in between (a wipe after it deletes what it wrote).
async function keepPage(key, answer, askedAt, who, asked) {
  const headers = new Headers(answer.headers);
  headers.set(SAVED_AT, new Date().toISOString());
  headers.set(ASKED_AT, String(askedAt));
  headers.set(ACCOUNT, who);
  const body = await answer.blob();
  await wiping;
  const cache = await caches.open(PAGES);
  const kept = await cache.match(key);
  if (kept && kept.headers.get(ACCOUNT) === who && Number(kept.headers.get(ASKED_AT)) > askedAt) return;
  if (asked !== generation || state.account !== who) return;
  await cache.put(key, new Response(body, { status: 200, headers }));
}

async function forgetShare(token) {
  const cache = await caches.open(PAGES);
  for (const request of await cache.keys()) {
    if (local(new URL(request.url).pathname).startsWith(`/s/${token}/`)) await cache.delete(request);
  }
}

// The kept copy, marked as one: <html data-offline-copy="2026-11-26T14:02:00.000Z">. Only
// to the account it was kept for.
async function keptCopy(key) {
  await loaded;
  await wiping;
  if (!state.account) return null;
  const cache = await caches.open(PAGES);
  const copy = await cache.match(key);
  if (!copy || copy.headers.get(ACCOUNT) !== state.account) return null;
  const html = await copy.text();
  const when = copy.headers.get(SAVED_AT) || "";
  const marked = html.replace(/<html\b/i, `<html data-offline-copy="${when}"`);
  const headers = new Headers(copy.headers);
  headers.delete("Content-Length");
  return new Response(marked, { status: 200, headers });
}

// With a log-out waiting to be sent, the page says so: <html data-logout-pending>. In the
// language of `prefix`, the asked page's.
async function offlinePage(prefix = "") {
  await loaded;
  const page = await caches.match(prefix + OFFLINE_PAGE);
  if (!page) return new Response("Offline, and this page is not kept on this device.", { status: 503 });
  if (!state.logout) return page;
  const html = (await page.text()).replace(/<html\b/i, '<html data-logout-pending="yes"');
  const headers = new Headers(page.headers);
  headers.delete("Content-Length");
  return new Response(html, { status: 200, headers });
}

let lastRecheck = 0;

// After a successful contact: is every kept share link still on? One that answers 404 was
// turned off or renewed: its kept pages go. A live one's kept share page is renewed.
// Answers true when every link was asked, false when the network failed on the way.
// Each link is asked for the account the device had when the check began: an answer for
// another, or one that a wipe overtook, is stored nowhere and ends the check.
async function recheckShares(now = false) {
  if (!now && Date.now() - lastRecheck < RECHECK_EVERY) return true;
  lastRecheck = Date.now();
  await loaded;
  await wiping;
  const asked = generation;
  const account = state.account;
  const cache = await caches.open(PAGES);
  const tokens = new Map(); // token: the share page's address in a language it is kept in
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    const found = SHARE.exec(local(path));
    if (found && !tokens.has(found[1])) tokens.set(found[1], `${prefixOf(path)}/s/${found[1]}/`);
  }
  for (const [token, address] of tokens) {
    try {
      await contact();
      const askedAt = Date.now();
      const answer = await fetch(address, { credentials: "same-origin" });
      const who = answer.headers.get(ACCOUNT);
      if (!(await heard(who, asked)) || who !== account || asked !== generation) return true;
      if (answer.status === 404) await forgetShare(token);
      else if (answer.ok && (await (await caches.open(PAGES)).match(address))) {
        await keepPage(address, answer, askedAt, who, asked);
      }
    } catch {
      return false; // no network (yet): next time
    }
  }
  return true;
}

// The network is said to be back: a log-out made offline goes first, then the share links
// are asked; again for a few seconds if the network is not quite back yet.
async function recheckWhenBack() {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      await contact();
      if (await recheckShares(true)) return;
    } catch {
      // Not back yet.
    }
    await new Promise((wait) => setTimeout(wait, 1000));
  }
}

async function page(event, url) {
  const key = url.pathname;
  let answer, asked, askedAt;
  try {
    await contact();
    asked = generation;
    askedAt = Date.now();
    answer = await fetch(event.request);
  } catch {
    return (kept(url) && (await keptCopy(key))) || offlinePage(prefixOf(key));
  }
  // Whom it was drawn for: another account than the device's wipes it all first.
  const who = answer.headers.get(ACCOUNT);
  const current = await heard(who, asked);
  const share = SHARE.exec(local(url.pathname));
  if (answer.status === 404 && share) {
    await forgetShare(share[1]);
  } else if (answer.ok && !answer.redirected && kept(url) && current) {
    await keepPage(key, answer.clone(), askedAt, who, generation);
  } else if (answer.redirected && kept(url)) {
    // Sent to the log-in page: this device no longer holds that session's pages.
    const cache = await caches.open(PAGES);
    await cache.delete(key);
  }
  event.waitUntil(Promise.all([recheckShares(), keepOfflinePage(prefixOf(key))]));
  return answer;
}

// Logging out: everything on the device goes first. Without a network the log-out waits
// on the device (sent at the next contact, before anything else), and the player is shown
// the offline page, which says so.
async function logOut(request) {
  let token = "";
  try {
    token = (await request.clone().formData()).get("csrfmiddlewaretoken") || "";
  } catch {
    // No form: the server refuses it as it would have.
  }
  await loaded;
  await wipe(null);
  try {
    await contact(); // an earlier log-out still waiting
    return await fetch(request);
  } catch {
    state = { ...state, logout: { token } };
    await saveState();
    return Response.redirect(prefixOf(new URL(request.url).pathname) + OFFLINE_PAGE, 303);
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

// The answer this worker gives `event`, or null to let it through untouched.
function answerFor(event, url) {
  const request = event.request;
  if (request.method === "POST" && SIGN_IN.includes(local(url.pathname))) {
    event.waitUntil(wipe(null)); // someone signs in: nothing of the last account stays
    return null;
  }
  if (request.method !== "GET") return null;
  if (request.mode === "navigate") return page(event, url);
  if (staticPath(url.pathname)) return staticFile(request);
  return null;
}

// While the worker has not read back what it keeps (it was just started), or a log-out
// made offline waits, every request waits for the log-out to be sent first.
async function afterContact(event, url) {
  let reached = true;
  try {
    await contact();
  } catch {
    reached = false;
  }
  const answer = answerFor(event, url);
  if (answer) return answer; // a page or a static file: from the device when unreached
  if (!reached) return Response.error();
  return fetch(event.request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && local(url.pathname) === LOG_OUT) {
    event.respondWith(logOut(request));
    return;
  }
  if (state === null || state.logout) {
    event.respondWith(afterContact(event, url));
    return;
  }
  const answer = answerFor(event, url);
  if (answer) event.respondWith(answer);
});

// From a page (static/js/offline.js):
// - {opened: url, assets: [...]}: a page loaded before this worker controlled it (the
//   first visit); keep it and the static files it loaded, as if it had come through here.
// - {forget: "pages"}: the player is logging out.
// - {gone: account}: an answer to the page (htmx, table mode's own requests) was drawn for
//   another account than the page: if the device's account is still that one, wipe.
// - {recheck: true}: the network is back: a log-out made offline goes, then are the kept
//   share links still on? Answered on the message's port once done.
// - {claim: true}: a page this worker does not control yet. Claiming at activation leaves
//   out a page whose navigation began before the worker was active and ended after.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.claim) {
    event.waitUntil(self.clients.claim());
    return;
  }
  if (data.recheck) {
    const answer = () => event.ports[0]?.postMessage({ rechecked: true, loggedOut: !state?.logout });
    event.waitUntil(recheckWhenBack().finally(answer));
    return;
  }
  if (data.forget === "pages") {
    event.waitUntil(wipe(null));
    return;
  }
  if (data.gone) {
    event.waitUntil(loaded.then(() => state.account === data.gone && wipe(null)));
    return;
  }
  if (!data.opened) return;
  event.waitUntil(
    (async () => {
      for (const asset of data.assets || []) {
        const url = new URL(asset, self.location.origin);
        if (url.origin === self.location.origin && staticPath(url.pathname)) {
          await keepStatic(url.pathname);
        }
      }
      const url = new URL(data.opened, self.location.origin);
      if (!kept(url)) return;
      if (data.controlled) return; // kept on its way through, above
      try {
        await contact();
        const asked = generation;
        const askedAt = Date.now();
        const answer = await fetch(url.pathname, { credentials: "same-origin" });
        const who = answer.headers.get(ACCOUNT);
        if (!(await heard(who, asked))) return;
        if (answer.ok && !answer.redirected) await keepPage(url.pathname, answer, askedAt, who, generation);
      } catch {
        // Offline already: nothing to keep yet.
      }
    })(),
  );
});
