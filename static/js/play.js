// Table mode (templates/table/play.html), the owner's page and the opponent's.
//
// Following the game: both pages ask the server every POLL_MS whether the game moved on
// (`data-poll` with ?at=<game>.<version>: 204 while it did not) and swap in the game as
// it stands when it did, so a second phone of the owner follows as the opponent's does.
//
// Online taps: each tap posts the game's version with htmx and the answer redraws what it
// changed, carrying the next version. A tap made while the last one is still on its way
// waits for it, then goes out from the redrawn page, so quick taps are counted one after
// another instead of being refused as stale.
//
// Offline taps (SPEC 5): without a network (or while earlier offline taps wait), each
// tap, undo and new game is counted on this page at once and kept on the device
// (IndexedDB "muster-table", one record per army: the last game the server sent, and the
// changes made since, each with the version it was made against). When the network
// returns they are sent in order, through the same version check as any tap. If the game
// moved on elsewhere, nothing is sent: the player sees both states and chooses.
//
// The taps belong to the account signed in when they were made (issue #45): each record
// carries the page's account tag (<html data-account>). An answer drawn for anyone else
// (the session ended, another account signed in), or the service worker's word that it
// wiped the device, drops them unsent.
(() => {
  // Every POLL_MS a poll goes out, whatever became of the one before: one left without an
  // answer (a busy server, a dropped packet) is abandoned, never waited for. (htmx's
  // "every 3s" queued each poll behind the last one, so one stuck poll held the page.)
  const POLL_MS = 2000;
  const RETRY_MS = 5000;
  const UNDO_STEPS = 50; // table/table.py UNDO_STEPS
  const TABLE_DB = "muster-table"; // static/js/offline.js TABLE_DB: emptied on log-out
  const ACCOUNT = "X-Muster-Account"; // accounts/devices.py HEADER
  const account = document.documentElement.dataset.account || "";

  const gameBox = () => document.getElementById("game");
  const army = Number(gameBox()?.dataset.army) || null; // set on the owner's page only
  const copyAt = document.documentElement.dataset.offlineCopy;
  const json = (id, root = document) => {
    const el = root.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  };
  const copy = (x) => JSON.parse(JSON.stringify(x));

  let cards = json("play-cards") || { limits: {}, labels: {}, commanders: [] };
  let record = null; // {army, account, base, pending, conflict}
  let syncing = false;
  let gone = false; // this page's account is no longer the device's: nothing is kept

  // ------------------------------------------------------------ online taps, one at a time
  const waiting = [];
  let busy = false;

  const offline = () =>
    Boolean(army && record && (!navigator.onLine || copyAt || record.pending.length || record.conflict || syncing));

  document.addEventListener(
    "click",
    (event) => {
      const button = event.target.closest?.("#game [data-tap]");
      if (!button || !army) return;
      if (offline()) {
        event.preventDefault();
        event.stopImmediatePropagation();
        if (button.id === "play-undo") change({ kind: "undo" });
        else change(readTap(button.value));
        return;
      }
      if (!busy) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      waiting.push(button.form?.getAttribute("action") + "|" + (button.value || ""));
    },
    true,
  );

  document.addEventListener(
    "submit",
    (event) => {
      if (event.target.id !== "new-game-form" || !offline()) return;
      event.preventDefault();
      if (!allowed(current(), { kind: "new" })) {
        say(gettext("Starting the first game needs the server: it starts when the network returns."));
        return;
      }
      change({ kind: "new" });
    },
    true,
  );

  let sent = 0; // taps sent from this page: a poll that saw one go out draws nothing
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.elt.closest?.("#game")) {
      busy = true;
      sent += 1;
    }
  });

  document.addEventListener("htmx:beforeSwap", (event) => {
    // A refused tap (a counter at its limit) answers 422 with the game and why: show it.
    if (event.detail.xhr.status === 422) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    if (!event.detail.elt.closest || !busy) return;
    busy = false;
    const status = event.detail.xhr?.status;
    // After a refusal the player sees the game as it stands: taps that waited are dropped.
    if (status !== 200) waiting.length = 0;
    const next = waiting.shift();
    if (!next) return;
    const [action, value] = next.split("|");
    setTimeout(() => {
      const again = [...document.querySelectorAll("#game [data-tap]")].find(
        (b) => b.form?.getAttribute("action") === action && (b.value || "") === value,
      );
      if (again && !again.disabled) again.click();
      else waiting.length = 0;
    }, 0);
  });

  // The network went while a tap was on its way: it is kept on the device like any other.
  document.addEventListener("htmx:sendError", (event) => {
    const elt = event.detail.elt;
    if (!army || !record || !elt.closest?.("#game")) return;
    busy = false;
    waiting.length = 0;
    const tap = event.detail.requestConfig?.formData?.get?.("tap");
    if (tap) change(readTap(tap));
    else if (elt.closest(".play-undo")) change({ kind: "undo" });
  });

  // Each answer carries the game's new version and state: the device keeps it.
  document.addEventListener("htmx:afterSettle", () => {
    const data = json("play-data");
    if (!record || !data || record.pending.length || record.conflict) return;
    record.base = data;
    save();
  });

  // ------------------------------------------------------------ the device's copy
  function readTap(value) {
    const cut = value.lastIndexOf(":");
    return { kind: "tap", key: value.slice(0, cut), step: Number(value.slice(cut + 1)) };
  }

  const valueOf = (state, key) => state[key] ?? (key === "turn" ? 1 : 0);

  function apply(s, op) {
    if (op.kind === "tap") {
      const before = valueOf(s.state, op.key);
      s.state = { ...s.state, [op.key]: before + op.step };
      s.history = [...s.history, [op.key, before]].slice(-UNDO_STEPS);
      s.version += 1;
    } else if (op.kind === "undo") {
      const [key, before] = s.history[s.history.length - 1];
      s.state = { ...s.state, [key]: before };
      s.history = s.history.slice(0, -1);
      s.version += 1;
    } else if (op.kind === "new") {
      Object.assign(s, { game: null, number: s.number + 1, version: 1, state: {}, history: [] });
    }
    return s;
  }

  // The game as this device has it: the last one the server sent, and the changes since.
  const current = () => record.pending.reduce(apply, copy(record.base));

  function allowed(s, op) {
    if (op.kind === "undo") return s.history.length > 0;
    if (op.kind === "new") return s.game !== null || s.number !== undefined;
    const bounds = cards.limits[op.key];
    if (!bounds || ![1, -1].includes(op.step)) return false;
    const after = valueOf(s.state, op.key) + op.step;
    return bounds[0] <= after && after <= bounds[1];
  }

  function change(op) {
    if (record.conflict) {
      document.querySelector('[data-testid="play-conflict"]')?.focus();
      return;
    }
    const now = current();
    if (!allowed(now, op)) return;
    Object.assign(op, { version: now.version, game: now.game, at: new Date().toISOString() });
    record.pending.push(op);
    paint(current());
    save().then(showPending);
    if (navigator.onLine) sync();
  }

  // ------------------------------------------------------------ IndexedDB
  function database() {
    return new Promise((done, fail) => {
      const request = indexedDB.open(TABLE_DB, 1);
      request.onupgradeneeded = () => request.result.createObjectStore("games", { keyPath: "army" });
      request.onsuccess = () => done(request.result);
      request.onerror = () => fail(request.error);
    });
  }

  async function load(key) {
    const db = await database();
    return new Promise((done, fail) => {
      const request = db.transaction("games").objectStore("games").get(key);
      request.onsuccess = () => {
        db.close();
        done(request.result || null);
      };
      request.onerror = () => {
        db.close();
        fail(request.error);
      };
    });
  }

  let saving = Promise.resolve();
  function save() {
    if (gone || !record) return saving;
    const snapshot = copy(record);
    saving = saving
      .then(async () => {
        const db = await database();
        await new Promise((done, fail) => {
          const tx = db.transaction("games", "readwrite");
          tx.objectStore("games").put(snapshot);
          tx.oncomplete = () => done();
          tx.onerror = () => fail(tx.error);
        });
        db.close();
      })
      .catch(() => say(gettext("This device would not keep the taps (is its storage full?): keep this page open.")));
    return saving;
  }

  // ------------------------------------------------------------ drawing the device's copy
  // Written as the page's language writes numbers (2,5 in German), to two places at most.
  const numbers = new Intl.NumberFormat(document.documentElement.lang || undefined, {
    maximumFractionDigits: 2,
    useGrouping: false,
  });
  const trim = (x) => numbers.format(x);
  const fraction = (text) => {
    const [top, bottom = "1"] = String(text).split("/");
    return Number(top) / Number(bottom);
  };

  function paint(s) {
    for (const [key, [low, high]] of Object.entries(cards.limits)) {
      const box = document.querySelector(`#game [data-counter="${CSS.escape(key)}"]`);
      if (!box) continue;
      const value = valueOf(s.state, key);
      const output = box.querySelector("output.play-value");
      if (output) output.textContent = value;
      const left = box.querySelector("[data-left]");
      if (left) left.textContent = `(${high - value} ${left.dataset.left})`;
      box.querySelectorAll(".play-box").forEach((b, i) => b.classList.toggle("ticked", i < value));
      const less = document.getElementById(`tap-${key}-less`);
      if (less) less.disabled = value <= low;
      const more = document.getElementById(`tap-${key}-more`);
      if (more && box.classList.contains("play-count")) more.disabled = value >= high;
    }
    const undo = document.getElementById("play-undo");
    if (undo) undo.disabled = s.history.length === 0;
    for (const n of document.querySelectorAll("#game [data-game-number]")) n.textContent = s.number;
    const version = document.getElementById("play-version");
    if (version) version.value = s.version;
    paintMorale(s);
    paintCommander(s);
  }

  function paintMorale(s) {
    const m = cards.morale;
    const section = document.getElementById("play-morale");
    if (!m || !section) return;
    const force = fraction(m.force);
    const breaks = fraction(m.break);
    const lost = m.units.reduce((sum, [key, each]) => sum + valueOf(s.state, key) * each, 0);
    const broken = lost >= breaks;
    const toBreak = Math.max(breaks - lost, 0);
    const counts = { lost: trim(lost), force: trim(force), breaks: trim(breaks) };
    section.querySelector("[data-morale-text]").textContent = ` ${interpolate(
      gettext("%(lost)s of %(force)s force points downed or dead; the force breaks at %(breaks)s."),
      counts,
      true,
    )}`;
    const meter = section.querySelector("meter");
    meter.value = lost;
    meter.textContent = interpolate(gettext("%(lost)s of %(force)s"), counts, true);
    meter.classList.toggle("broken", broken);
    section.classList.toggle("border-danger", broken);
    const status = section.querySelector("[data-morale-status]");
    status.className = broken ? "mb-0 mt-1 text-danger fw-bold" : "mb-0 mt-1";
    status.dataset.testid = broken ? "play-broken" : "play-holding";
    status.textContent = broken
      ? section.dataset.brokenText
      : interpolate(
          ngettext(
            "Holding: %(n)s more force point downed or dead and it breaks.",
            "Holding: %(n)s more force points downed or dead and it breaks.",
            toBreak,
          ),
          { n: trim(toBreak) },
          true,
        );
  }

  function paintCommander(s) {
    let anyDown = false;
    for (const [id, key, quantity] of cards.commanders || []) {
      const down = valueOf(s.state, key) >= quantity;
      anyDown ||= down;
      const badge = document.querySelector(`#card-${id} .play-commander`);
      if (!badge) continue;
      badge.textContent = down ? gettext("commander down") : gettext("commander in the fight");
      badge.classList.toggle("text-bg-danger", down);
      badge.classList.toggle("text-bg-success", !down);
    }
    const bar = document.querySelector("#play-commander strong");
    if (bar) {
      bar.textContent = anyDown ? gettext("down") : gettext("in the fight");
      bar.classList.toggle("text-danger", anyDown);
    }
  }

  // ------------------------------------------------------------ what the page says
  function say(text) {
    const box = document.querySelector('[data-testid="play-pending"]');
    if (!box) return;
    box.textContent = text;
    box.hidden = !text;
  }

  // `text` (from ngettext, with %(n)s) with `n` and `values` put in.
  const counted = (text, n, values = {}) => interpolate(text, { n, ...values }, true);

  function showPending() {
    if (!record || record.conflict) return;
    const n = record.pending.length;
    if (!n) return;
    if (!navigator.onLine) {
      say(
        counted(
          ngettext(
            "%(n)s change made offline, kept on this device: sent in order when the network returns.",
            "%(n)s changes made offline, kept on this device: sent in order when the network returns.",
            n,
          ),
          n,
        ),
      );
    } else if (syncing) {
      say(counted(ngettext("Sending %(n)s change made offline…", "Sending %(n)s changes made offline…", n), n));
    }
  }

  function describe(op) {
    if (op.kind === "undo") return gettext("Undo the last change");
    if (op.kind === "new") return gettext("End this game and start a new one");
    const what = { what: cards.labels[op.key] || op.key };
    return interpolate(op.step > 0 ? gettext("%(what)s: one more") : gettext("%(what)s: one less"), what, true);
  }

  function showConflict() {
    const place = document.getElementById("play-offline");
    const template = document.getElementById("play-conflict-template");
    place.querySelector('[data-testid="play-conflict"]')?.remove();
    if (!record.conflict || !template) return;
    say("");
    const panel = template.content.firstElementChild.cloneNode(true);
    const mine = current();
    const theirs = record.conflict.server;
    panel.querySelector("[data-conflict-why]").textContent = record.conflict.message;
    const rows = panel.querySelector("[data-conflict-rows]");
    const row = (label, here, there) => {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = label;
      tr.append(th);
      for (const text of [here, there]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      rows.append(tr);
    };
    if (mine.number !== theirs.number) {
      row(gettext("Game"), mine.number ?? gettext("none"), theirs.number ?? gettext("none"));
    }
    const keys = new Set([...Object.keys(cards.limits), ...Object.keys(theirs.state || {})]);
    for (const key of keys) {
      const here = valueOf(mine.state, key);
      const there = valueOf(theirs.state || {}, key);
      if (here !== there) row(cards.labels[key] || key, String(here), String(there));
    }
    const list = panel.querySelector("[data-conflict-changes]");
    for (const op of record.pending) {
      const li = document.createElement("li");
      li.textContent = describe(op);
      list.append(li);
    }
    panel.querySelector('[data-conflict="drop"]').addEventListener("click", keepServer);
    panel.querySelector('[data-conflict="again"]').addEventListener("click", makeAgain);
    place.append(panel);
  }

  // The player chose the server's game: the changes made here go, the page shows it.
  async function keepServer() {
    record.base = record.conflict.server;
    record.pending = [];
    record.conflict = null;
    await save();
    showConflict();
    say("");
    await poll(true);
  }

  // The player chose to make the same changes again, on the game as it stands now.
  async function makeAgain() {
    let s = copy(record.conflict.server);
    const again = [];
    for (const op of record.pending) {
      if (!allowed(s, op)) continue;
      again.push({ ...op, version: s.version, game: s.game });
      s = apply(s, op);
    }
    record.base = record.conflict.server;
    record.pending = again;
    record.conflict = null;
    await save();
    showConflict();
    paint(current());
    showPending();
    sync();
  }

  // ------------------------------------------------------------ another account
  // The taps on this page are dropped, never sent: the device is no longer this account's.
  function drop() {
    if (gone) return;
    gone = true;
    const unsent = record?.pending.length || 0;
    record = null;
    waiting.length = 0;
    document.querySelector('[data-testid="play-conflict"]')?.remove();
    if ("indexedDB" in window) indexedDB.deleteDatabase(TABLE_DB);
    const lost = counted(
      ngettext(
        "Signed out: the %(n)s change made offline was deleted from this device, not sent.",
        "Signed out: the %(n)s changes made offline were deleted from this device, not sent.",
        unsent,
      ),
      unsent,
    );
    say(unsent ? lost : "");
  }

  // An answer drawn for another account than this page (or for nobody): true, and the
  // device drops what it keeps of this one.
  function elsewhere(answer) {
    const who = answer.headers.get(ACCOUNT);
    if (!who || !account || who === account) return false;
    navigator.serviceWorker?.controller?.postMessage({ gone: account });
    drop();
    return true;
  }

  navigator.serviceWorker?.addEventListener("message", (event) => {
    if (event.data?.wiped) drop();
  });

  // ------------------------------------------------------------ sending, following
  const csrf = () => JSON.parse(document.body.dataset.hxHeaders || "{}")["X-CSRFToken"] || "";
  const parse = (html) => new DOMParser().parseFromString(html, "text/html");

  function urlFor(op) {
    const form = op.kind === "tap" ? "tap-form" : op.kind === "undo" ? null : "new-game-form";
    if (form) return document.getElementById(form)?.getAttribute("action");
    return document.querySelector(".play-undo")?.getAttribute("action");
  }

  async function send(op) {
    const body = new FormData();
    body.set("version", op.version);
    if (op.game) body.set("game", op.game); // the game it was made on, when the server made it
    if (op.kind === "tap") body.set("tap", `${op.key}:${op.step}`);
    return fetch(urlFor(op), {
      method: "POST",
      body,
      headers: { "HX-Request": "true", "X-CSRFToken": csrf() },
      credentials: "same-origin",
    });
  }

  const answered = (answer) => interpolate(gettext("the server answered %(status)s"), { status: answer.status }, true);

  async function sync() {
    if (syncing || !record || record.conflict || !record.pending.length) return;
    if (!navigator.onLine) return;
    syncing = true;
    const count = record.pending.length;
    showPending();
    try {
      // Moved on elsewhere since the first change was made? Then nothing is sent.
      const first = record.pending[0];
      const check = await fetch(`${gameBox().dataset.poll}?at=${first.game}.${first.version}`, {
        headers: { "HX-Request": "true" },
        cache: "no-store",
      });
      if (elsewhere(check)) return;
      if (check.status === 200) {
        const server = json("play-data", parse(await check.text()));
        conflictWith(server, gettext("The game is not as this device left it."));
        return;
      }
      if (check.status !== 204) throw new Error(answered(check));
      while (record?.pending.length) {
        const op = record.pending[0];
        if (!urlFor(op)) throw new Error(gettext("this page cannot send that change"));
        const answer = await send(op);
        if (elsewhere(answer)) return;
        const doc = parse(await answer.text());
        const server = json("play-data", doc);
        if (!record) return; // dropped meanwhile
        if (answer.status === 200 && server) {
          record.base = server;
          record.pending.shift();
          await save();
          continue;
        }
        if ((answer.status === 409 || answer.status === 422) && server) {
          const why = doc.querySelector('[data-testid="play-error"]')?.textContent.trim();
          conflictWith(server, why || gettext("The server refused a change made here."));
          return;
        }
        throw new Error(answered(answer));
      }
      say(
        counted(
          ngettext(
            "Sent: the %(n)s change made offline is on the server.",
            "Sent: the %(n)s changes made offline are on the server.",
            count,
          ),
          count,
        ),
      );
      syncing = false;
      await poll(true);
    } catch (error) {
      if (!record) return; // dropped meanwhile: nothing left to send
      if (navigator.onLine) {
        say(
          counted(
            ngettext(
              "%(n)s change made offline not sent yet (%(why)s): kept on this device, tried again in a moment.",
              "%(n)s changes made offline not sent yet (%(why)s): kept on this device, tried again in a moment.",
              record.pending.length,
            ),
            record.pending.length,
            { why: error.message || gettext("no answer") },
          ),
        );
      } else showPending();
    } finally {
      syncing = false;
    }
  }

  function conflictWith(server, message) {
    record.conflict = { server, message, at: new Date().toISOString() };
    save();
    paint(current());
    showConflict();
    const panel = document.querySelector('[data-testid="play-conflict"]');
    panel?.focus();
  }

  // The game as the server has it now swapped in, when it is not what this page shows.
  async function poll(force = false) {
    const box = gameBox();
    if (!box?.dataset.poll || !navigator.onLine) return;
    if (!force && document.hidden) return;
    const quiet = () => !army || !record || !(busy || syncing || record.pending.length || record.conflict);
    if (!quiet()) return;
    const data = json("play-data");
    const at = force || !data?.game ? "now" : `${data.game}.${data.version}`;
    const sentBefore = sent;
    inFlight?.abort();
    const stop = new AbortController();
    inFlight = stop;
    try {
      const answer = await fetch(`${box.dataset.poll}?at=${at}`, {
        headers: { "HX-Request": "true" },
        cache: "no-store",
        signal: stop.signal,
      });
      if (elsewhere(answer) || answer.status !== 200) return;
      const doc = parse(await answer.text());
      const fresh = doc.getElementById("game");
      const server = json("play-data", doc);
      if (!fresh || !quiet() || sent !== sentBefore) return; // a tap went out: the next poll
      if (!force && JSON.stringify(server) === JSON.stringify(json("play-data"))) return;
      fresh.removeAttribute("data-hx-swap-oob");
      const focused = document.activeElement?.id;
      gameBox().replaceWith(fresh);
      window.htmx?.process(fresh);
      if (focused) document.getElementById(focused)?.focus();
      cards = json("play-cards") || cards;
      if (record && server) {
        record.base = server;
        save();
      }
    } catch {
      // Abandoned for the next one, or the network went: the next poll asks again.
    } finally {
      if (inFlight === stop) inFlight = null;
    }
  }

  let inFlight = null;
  function follow() {
    poll();
    setTimeout(follow, POLL_MS);
  }

  function retry() {
    if (record?.pending.length && !record.conflict && !syncing) sync();
    setTimeout(retry, RETRY_MS);
  }

  window.addEventListener("online", () => {
    showPending();
    if (record?.pending.length) sync();
    else poll();
  });
  window.addEventListener("offline", showPending);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) poll();
  });

  async function start() {
    if (army) {
      const data = json("play-data") || { game: null };
      try {
        record = await load(army);
      } catch {
        record = null;
      }
      // Kept for another account (a wipe the page never heard of): not this page's.
      if (gone) return;
      if (record?.account && record.account !== account) record = null;
      if (!record) record = { army, account, base: data, pending: [], conflict: null };
      record.account = account;
      const newer = (a, b) =>
        a.game !== null &&
        (b.game === null || a.number > b.number || (a.number === b.number && a.version > b.version));
      if (!record.base || newer(data, record.base)) record.base = data;
      if (record.pending.length || record.conflict || JSON.stringify(record.base) !== JSON.stringify(data)) {
        paint(current());
      }
      await save();
      if (record.conflict) showConflict();
      else showPending();
      retry();
    }
    setTimeout(follow, POLL_MS);
  }

  start();
})();
