// Every page: the service worker (static/js/sw.js) registered, and what the page says and
// does without a network. A page answered from the device (<html data-offline-copy>) says
// when it was kept; while there is no network, every control that needs the server is
// switched off and says so, and every link to a page this device does not keep says it
// is unavailable. Controls inside [data-offline-ok] (table mode's taps) work offline.
// Logging out empties the device's kept pages before the log-out is sent; without a
// network the worker keeps the log-out until the next contact, and the page says so.
// An answer drawn for another account than this page's (signed out meanwhile, someone
// else signed in) tells the worker, which wipes what the device keeps (static/js/sw.js).
// Its words come from the page's language's catalog (gettext, config/urls.py jsi18n/);
// addresses may carry the language's prefix (/de/offline/), as in static/js/sw.js.
(() => {
  const PAGES = "muster-pages-v2";
  const TABLE_DB = "muster-table"; // static/js/play.js TABLE_DB: table mode's offline taps
  const ACCOUNT = "X-Muster-Account"; // accounts/devices.py HEADER
  const copyAt = document.documentElement.dataset.offlineCopy;
  const account = document.documentElement.dataset.account || "";
  let logoutPending = Boolean(document.documentElement.dataset.logoutPending);
  const LANGUAGE = /^\/[a-z]{2}(?:-[a-z]{2,4})?(?=\/)/; // static/js/sw.js LANGUAGE
  const prefix = LANGUAGE.exec(location.pathname)?.[0] ?? "";
  const local = (path) => path.slice((LANGUAGE.exec(path)?.[0] ?? "").length);
  const OFFLINE_PAGE = `${prefix}/offline/`;
  const LOGGED_OUT_HERE = gettext(
    "Logged out on this device: nothing of yours is kept on it any more. You will be logged out on the server too as soon as the network is back.",
  );

  const clock = (when) => {
    const d = new Date(when);
    if (Number.isNaN(d.getTime())) return "";
    const time = `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
    if (d.toDateString() === new Date().toDateString()) return time;
    const day = d.toLocaleDateString(document.documentElement.lang || undefined, { day: "numeric", month: "short" });
    return `${day}, ${time}`;
  };
  const copyFrom = (text) => interpolate(text, { when: clock(copyAt) }, true);

  const status = () => document.getElementById("offline-status");

  function link(box, href, text) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    box.append(" ", a);
  }

  // The status line: `text`, then a link to reload this page (back online) or to the list
  // of pages this device keeps (offline).
  function say(text, { reload = false, keptList = false } = {}) {
    const box = status();
    if (!box) return;
    box.replaceChildren(document.createTextNode(text));
    if (reload) link(box, location.href, gettext("Load the current page"));
    if (keptList && location.pathname !== OFFLINE_PAGE) link(box, OFFLINE_PAGE, gettext("What this device keeps"));
    box.hidden = !text;
  }

  const needsServer = (el) => !el.closest("[data-offline-ok]");
  // (getAttribute: a form with a field named "action" hides the property of that name.)
  const loggingOut = (form) =>
    Boolean(form) && local(new URL(form.getAttribute("action") || "", location.href).pathname) === "/accounts/logout/";

  // Marks and unmarks leave a control as they found it (its title, its description).
  function mark(el, title) {
    el.dataset.offlineTitle = el.getAttribute("title") || "";
    el.title = title;
  }

  let generation = 0; // bumped when the network returns: a marking under way stops

  async function markOffline() {
    const mine = ++generation;
    const controls = document.querySelectorAll(
      'form button:not([type="button"]), form input[type="submit"], button[data-copy-url],' +
        " button[data-hx-post], button[data-hx-get], input[data-hx-post], select[data-hx-post]",
    );
    for (const control of controls) {
      if (!needsServer(control) || control.dataset.offlineOff || loggingOut(control.form)) continue;
      control.dataset.offlineOff = control.disabled ? "was" : "yes";
      control.disabled = true;
      mark(control, gettext("Unavailable offline: this needs the server."));
      control.dataset.offlineDescribed = control.getAttribute("aria-describedby") || "";
      control.setAttribute("aria-describedby", "offline-status");
    }
    const links = [...document.querySelectorAll("main a[href], nav a[href]")].filter((a) => {
      if (a.closest("#offline-status")) return false;
      const url = new URL(a.href, location.href);
      const here = url.pathname === location.pathname && url.search === location.search;
      return url.origin === location.origin && !here && !a.dataset.offlineOff;
    });
    const known = "caches" in window;
    for (const a of links) {
      const url = new URL(a.href, location.href);
      // Any of Muster's caches: the offline page itself is kept with the static files. A
      // page kept for another account is not shown to this one (the worker says so too).
      const copy = known && !url.search ? await caches.match(url.pathname) : null;
      if (copy && [null, account].includes(copy.headers.get(ACCOUNT))) continue;
      if (mine !== generation) return;
      a.dataset.offlineOff = "yes";
      a.setAttribute("aria-disabled", "true");
      a.classList.add("offline-unavailable");
      mark(a, gettext("Unavailable offline: this device does not keep that page."));
    }
  }

  function markOnline() {
    generation += 1;
    for (const el of document.querySelectorAll("[data-offline-off]")) {
      if (el.dataset.offlineOff === "yes") {
        el.disabled = false;
        el.removeAttribute("aria-disabled");
      }
      if ("offlineDescribed" in el.dataset) {
        if (el.dataset.offlineDescribed) el.setAttribute("aria-describedby", el.dataset.offlineDescribed);
        else el.removeAttribute("aria-describedby");
        delete el.dataset.offlineDescribed;
      }
      el.classList.remove("offline-unavailable");
      if (el.dataset.offlineTitle) el.title = el.dataset.offlineTitle;
      else el.removeAttribute("title");
      delete el.dataset.offlineTitle;
      delete el.dataset.offlineOff;
    }
  }

  // A click on a link this device does not keep goes nowhere and says why.
  document.addEventListener("click", (event) => {
    const a = event.target.closest?.("a.offline-unavailable");
    if (!a) return;
    event.preventDefault();
    say(gettext("That page is not kept on this device: it opens when the network returns."), { keptList: true });
  });

  function show() {
    if (logoutPending) {
      say(LOGGED_OUT_HERE);
      if (navigator.onLine) markOnline();
      else markOffline();
    } else if (!navigator.onLine) {
      say(
        copyAt
          ? copyFrom(
              gettext(
                "Offline copy from %(when)s, kept on this device. Anything that needs the server is unavailable until the network returns.",
              ),
            )
          : gettext("No network: anything that needs the server is unavailable until it returns."),
        { keptList: true },
      );
      markOffline();
    } else {
      markOnline();
      say(copyAt ? copyFrom(gettext("Offline copy from %(when)s. Back online.")) : "", { reload: Boolean(copyAt) });
    }
  }

  window.addEventListener("online", () => {
    show();
    const worker = navigator.serviceWorker?.controller;
    if (!worker) return;
    const done = new MessageChannel();
    // The worker sends a log-out made offline before anything else, then answers.
    if (logoutPending) {
      done.port1.onmessage = ({ data }) => {
        if (!data?.loggedOut) return;
        logoutPending = false;
        say(gettext("Logged out on the server too."));
      };
    }
    worker.postMessage({ recheck: true }, [done.port2]);
  });

  // An answer drawn for someone else than this page was (the session ended, another
  // account signed in): the device keeps nothing of this page's account any more.
  function answered(who) {
    if (!who || !account || who === account) return;
    navigator.serviceWorker?.controller?.postMessage({ gone: account });
  }
  document.addEventListener("htmx:afterRequest", (event) => {
    answered(event.detail.xhr?.getResponseHeader(ACCOUNT));
  });
  window.addEventListener("offline", show);

  // A copy answered while the network was only flaky (navigator.onLine still true) is an
  // offline copy all the same: say so, and switch off what needs the server.
  function start() {
    // One-time notices ("New game started") belong to the visit that stored the copy.
    if (copyAt) for (const m of document.querySelectorAll(".messages")) m.remove();
    if (copyAt && navigator.onLine && !logoutPending) {
      say(
        copyFrom(
          gettext(
            "Offline copy from %(when)s, kept on this device: the server did not answer. Anything that needs it is unavailable.",
          ),
        ),
        { reload: true, keptList: true },
      );
      markOffline();
    } else {
      show();
    }
  }

  // Logging out (or in as someone else) leaves no private page on this device.
  async function forget() {
    const jobs = [];
    if ("caches" in window) jobs.push(caches.delete(PAGES));
    if ("indexedDB" in window) {
      jobs.push(
        new Promise((done) => {
          const request = indexedDB.deleteDatabase(TABLE_DB);
          request.onsuccess = request.onerror = request.onblocked = () => done();
        }),
      );
    }
    navigator.serviceWorker?.controller?.postMessage({ forget: "pages" });
    await Promise.all(jobs);
  }

  // How many taps made at the table (static/js/play.js) are on this device and not yet on
  // the server: 0 when there is no table database at all (it is not made here).
  function unsentTaps() {
    if (!("indexedDB" in window)) return Promise.resolve(0);
    return new Promise((done) => {
      const request = indexedDB.open(TABLE_DB);
      request.onupgradeneeded = () => request.transaction.abort(); // none yet: nothing unsent
      request.onerror = () => done(0);
      request.onsuccess = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains("games")) {
          db.close();
          done(0);
          return;
        }
        const all = db.transaction("games").objectStore("games").getAll();
        all.onsuccess = () => {
          db.close();
          done(all.result.reduce((n, game) => n + (game?.pending?.length || 0), 0));
        };
        all.onerror = () => {
          db.close();
          done(0);
        };
      };
    });
  }

  // Logging out forgets the table's taps with the rest: when some never reached the server
  // (made without a network), the player is asked first, and staying keeps them.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!loggingOut(form)) return;
    if (form.dataset.forgotten) return;
    event.preventDefault();
    unsentTaps().then((n) => {
      const lose = interpolate(
        ngettext(
          "%(n)s change made at the table without a network has not reached the server yet. Logging out deletes it from this device. Log out anyway?",
          "%(n)s changes made at the table without a network have not reached the server yet. Logging out deletes them from this device. Log out anyway?",
          n,
        ),
        { n },
        true,
      );
      if (n && !window.confirm(lose)) return;
      forget().finally(() => {
        form.dataset.forgotten = "yes";
        form.submit();
      });
    });
  });

  function register() {
    if (!("serviceWorker" in navigator)) return;
    // Whether this page's own request went through the worker (which then kept it), not
    // whether a worker controls it now: one that activates while the page loads claims it
    // before this runs, though the page came from the network and is not kept yet.
    const [loaded] = performance.getEntriesByType?.("navigation") ?? [];
    const controlled = Boolean(navigator.serviceWorker.controller) && (loaded?.workerStart ?? 1) > 0;
    navigator.serviceWorker
      .register("/sw.js", { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        // The worker claims the open pages once it is active, but not a page whose load was
        // under way then (a form sent during the first visit's install): that page asks.
        if (!navigator.serviceWorker.controller) registration.active?.postMessage({ claim: true });
        if (!navigator.onLine || copyAt) return;
        const assets = [
          ...document.querySelectorAll("script[src]"),
          ...document.querySelectorAll('link[rel="stylesheet"], link[rel="icon"], link[rel="apple-touch-icon"]'),
        ].map((el) => el.src || el.href);
        registration.active?.postMessage({ opened: location.pathname + location.search, assets, controlled });
      })
      .catch(() => {
        // No worker (a private window may refuse one): the site works, without offline copies.
      });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  register();
})();
