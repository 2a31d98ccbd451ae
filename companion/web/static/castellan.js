// Castellan's own script: keep a table's screen up to date without reloading.
// The live fragment (#live) names its poll URL and version. Every poll sends the ETag of the
// version shown; the server answers 304 (a few bytes) until the table changes, then the new
// fragment. A phone that sleeps, or drops off the Wi-Fi, misses polls (and backs off while
// the network is gone); when it wakes or reconnects it polls at once.
// If the person is half-way through a form, the fresh table waits behind a note instead of
// wiping what they typed. While a tap's own request is out, a poll's answer is dropped: the tap's
// answer (with its "Recorded." and Undo) is the newer view, and swapping the poll's fragment in
// first would leave the tap's answer nowhere to land.
(function () {
  "use strict";
  var etag = null;
  var timer = null;
  var failures = 0;
  var dirty = false;
  var asking = 0;   // the page's own htmx requests now out
  var taps = 0;     // how many the page has sent: a poll that saw one go out drops its answer

  function live() { return document.getElementById("live"); }

  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(poll, ms);
  }

  function interval() {
    var el = live();
    var base = el ? parseInt(el.getAttribute("data-poll-ms"), 10) || 1500 : 1500;
    return Math.min(base * Math.pow(2, failures), 30000);
  }

  function swap(html) {
    var el = live();
    if (!el) { return; }
    var holder = document.createElement("div");
    holder.innerHTML = html.trim();
    var fresh = holder.firstElementChild;
    if (!fresh || fresh.id !== "live") { return; }
    // A seat this phone lost (data-lost) leaves the screen even over a form half filled in.
    if (dirty && !fresh.hasAttribute("data-lost")) {
      var note = el.querySelector(".stale-note");
      if (note) { note.hidden = false; }
      return;
    }
    el.replaceWith(fresh);
    invitations(fresh);
    if (window.htmx) { window.htmx.process(fresh); }
    settle(fresh);
  }

  // The referee's invitations as a fragment carries them (while a seat waits for its phone) take the
  // place of the page's, open or folded as the referee left them until every seat has joined.
  function invitations(fresh) {
    var carried = fresh.querySelector("template#invites-fresh");
    var before = document.getElementById("invites");
    var after = carried && carried.content.querySelector("#invites");
    if (!before || !after) { return; }
    if (!after.hasAttribute("data-all-joined")) { after.open = before.open; }
    before.replaceWith(document.importNode(after, true));
  }

  function version(html) {
    var found = /data-version="(\d+)"/.exec(html);
    return found ? parseInt(found[1], 10) : -1;
  }

  // The seats opened and claimed that a fragment shows (the referee's invitations): within one
  // version only ever more, so a fragment of the shown version showing more is newer.
  function seen(html) {
    var found = /data-seen="(\d+)"/.exec(html);
    return found ? parseInt(found[1], 10) : 0;
  }

  function newer(html) {
    var el = live();
    var shown = parseInt(el.getAttribute("data-version"), 10);
    shown = isNaN(shown) ? -1 : shown;
    var fresh = version(html);
    if (fresh !== shown) { return fresh > shown; }
    return seen(html) > (parseInt(el.getAttribute("data-seen"), 10) || 0);
  }

  function poll() {
    var el = live();
    if (!el || document.hidden) { return; }
    var outbox = window.CastellanOutbox;
    if (asking || (outbox && outbox.busy())) { schedule(interval()); return; }
    var sent = taps;
    var headers = { "Accept": "text/html" };
    if (etag) { headers["If-None-Match"] = etag; }
    fetch(el.getAttribute("data-live-url"), { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        failures = 0;
        reached();
        // 403: this phone's seat is no longer its own; the answer is the notice that replaces its view.
        if (response.status === 200 || response.status === 403) {
          return response.text().then(function (html) {
            if (asking || taps !== sent || !live()) { return; }  // a tap went out meanwhile: its answer wins
            etag = response.headers.get("ETag");
            var lost = response.status === 403;
            if (lost && !/data-lost/.test(html)) { return; }
            // Only a newer table: a poll read before a tap's move landed must not take the page back.
            if (lost || newer(html)) { swap(html); }
          });
        }
        if (response.status === 404) { failures = 8; }
      })
      .catch(function () { failures = Math.min(failures + 1, 5); })
      .then(function () { schedule(interval()); });
  }

  document.addEventListener("input", function (event) {
    if (live() && live().contains(event.target)) { dirty = true; }
  });
  // The answer to a tap is pinned to the bottom of the screen (castellan.css). When its own place
  // is just below the screen, scroll it there instead, so it covers nothing the person was using.
  function settleAnswer() {
    var answer = document.querySelector(".answer-fresh");
    var before = answer && answer.previousElementSibling;
    if (!before) { return; }
    var below = before.getBoundingClientRect().bottom + answer.offsetHeight + 12 - window.innerHeight;
    if (below > 0 && below < window.innerHeight / 3) { window.scrollBy(0, below); }
  }
  // A swap replaces the element that had the keyboard's focus, and the focus would fall back to the
  // page's top. For a keyboard user, give it to the new element in the same place (same id, or
  // same name and value), else to the answer. Never after a tap: focusing a field on a phone
  // would open its keyboard.
  var byKeyboard = false;
  var focused = null;
  document.addEventListener("keydown", function () { byKeyboard = true; }, true);
  document.addEventListener("pointerdown", function () { byKeyboard = false; }, true);
  document.addEventListener("htmx:beforeSwap", function () {
    var element = document.activeElement;
    focused = byKeyboard && element && element !== document.body
      ? { id: element.id, name: element.getAttribute("name"), value: element.getAttribute("value") }
      : null;
  });
  function successor(was) {
    if (was.id && document.getElementById(was.id)) { return document.getElementById(was.id); }
    if (was.name) {
      var selector = '[name="' + CSS.escape(was.name) + '"]';
      if (was.value !== null) { selector += '[value="' + CSS.escape(was.value) + '"]'; }
      var same = document.querySelector(selector);
      if (same) { return same; }
    }
    return document.querySelector(".answer-fresh [role=alert], .answer-fresh [role=status]");
  }
  function restoreFocus() {
    var was = focused;
    focused = null;
    if (!was || (document.activeElement && document.activeElement !== document.body)) { return; }
    var next = successor(was);
    if (!next) { return; }
    if (!next.matches("a[href], button, input, select, textarea, summary, [tabindex]")) {
      next.setAttribute("tabindex", "-1");
    }
    next.focus({ preventScroll: true });
  }
  // Counted from the request itself: the element that sent it is often swapped out before
  // htmx's own after-request event, which then never reaches the document.
  document.addEventListener("htmx:beforeSend", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (!xhr) { return; }
    asking += 1;
    taps += 1;
    xhr.addEventListener("loadend", function () { asking -= 1; });
  });
  // A tap that opens a next step (a firing cell, then its directions; a card turned over, then what
  // to do with it) leaves that step where the eye is: the element marked data-step, scrolled just
  // into view when part of it is off-screen. A step the page shows without asking the server (Square
  // Tactics: the cell, then the card) is named by data-then on the step before it. Never for the
  // keyboard, whose focus stays where it was.
  function showStep(step) {
    if (!step || byKeyboard) { return; }
    var box = step.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) { step.scrollIntoView({ block: "nearest" }); }
  }
  document.addEventListener("htmx:afterSettle", function () { showStep(document.querySelector("#live [data-step]")); });
  document.addEventListener("change", function (event) {
    var before = event.target.closest && event.target.closest("[data-then]");
    if (before) { showStep(document.querySelector(before.getAttribute("data-then"))); }
  });
  // The answer to the last tap stays pinned to the screen's foot until the next tap elsewhere in the
  // table; then it takes its own place, below, and covers none of the next turn's controls. An
  // attribute, not a class: htmx lends an element's old class to its successor until the swap
  // settles, and the next answer would land let go for that moment.
  document.addEventListener("click", function (event) {
    var answer = document.querySelector(".answer-fresh");
    if (!answer || !live() || !live().contains(event.target) || answer.contains(event.target)) { return; }
    answer.setAttribute("data-kept", "");
  });
  document.addEventListener("htmx:afterSwap", function () { dirty = false; etag = null; });
  document.addEventListener("htmx:afterSettle", restoreFocus);
  document.addEventListener("htmx:afterSettle", settleAnswer);

  // --- A tap records what the person meant (docs/taps.md) ---------------------------------------
  // A double tap, or a thumb that bounces, taps the same spot twice within about 300 ms. So:
  // - after any swap of the table, its new controls take no tap for SETTLE_MS (the table is marked
  //   data-settling: castellan.css lets taps through to nothing beneath it), and a tap that still
  //   reaches one is dropped;
  // - while a move's own request is out, the table takes no other tap: its answer is on its way;
  // - a destructive or turn-ending control (Undo, data-guard) that a swap put where the finger was is
  //   moved out of its way: the pinned answer is let go to its own place, else the page scrolls.
  var SETTLE_MS = 450;
  var settledAt = 0;
  var moving = 0;    // the table's own move requests (posts) now out
  var finger = null; // where the last tap in the table landed
  document.addEventListener("pointerdown", function (event) {
    finger = { x: event.clientX, y: event.clientY };
  }, true);
  function settle(table) {
    if (!table || table.id !== "live") { return; }
    settledAt = Date.now() + SETTLE_MS;
    table.setAttribute("data-settling", "");
    setTimeout(function () { table.removeAttribute("data-settling"); }, SETTLE_MS);
  }
  function guarded() { return document.querySelectorAll("#live .undo button, #live [data-guard]"); }
  function underFinger(element) {
    var box = element.getBoundingClientRect();
    return box.width > 0 && finger.x >= box.left - 8 && finger.x <= box.right + 8 &&
      finger.y >= box.top - 8 && finger.y <= box.bottom + 8;
  }
  function clearFinger() {
    if (!finger || byKeyboard) { return; }
    var controls = guarded();
    for (var i = 0; i < controls.length; i++) {
      if (!underFinger(controls[i])) { continue; }
      var pinned = controls[i].closest(".answer-fresh:not([data-kept])");
      if (pinned) { pinned.setAttribute("data-kept", ""); }
      if (underFinger(controls[i])) {
        window.scrollBy(0, controls[i].getBoundingClientRect().top - finger.y - 12);
      }
    }
  }
  // A part of the table swapped alone (Castle's ✓/✗ marks) moves no control: only the whole table settles.
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "live") { settle(live()); }
  });
  document.addEventListener("htmx:afterSettle", clearFinger);
  document.addEventListener("htmx:beforeSend", function (event) {
    var detail = event.detail || {};
    var from = detail.elt;
    if (!detail.xhr || !from || !live() || !live().contains(from)) { return; }
    if ((detail.requestConfig && detail.requestConfig.verb) !== "post") { return; }
    moving += 1;
    live().setAttribute("data-settling", "");
    detail.xhr.addEventListener("loadend", function () {
      moving -= 1;
      // Refused for want of the network: the table as it was takes taps again.
      if (!moving && live() && Date.now() >= settledAt) { live().removeAttribute("data-settling"); }
    });
  });
  document.addEventListener("click", function (event) {
    var table = live();
    if (byKeyboard || !table || !table.contains(event.target)) { return; }
    if (Date.now() < settledAt || moving) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  // Times are sent in UTC, labelled so; shown here in the phone's own time zone, named, and
  // written as the page's language writes them.
  function localTimes() {
    var times = document.querySelectorAll("time[data-local]");
    // The phone's own regional format when it speaks the page's language, else the page's language.
    var lang = document.documentElement.lang;
    var locale = (navigator.language || "").split("-")[0] === lang ? [] : lang;
    for (var i = 0; i < times.length; i++) {
      var at = new Date(times[i].getAttribute("datetime"));
      if (isNaN(at.getTime())) { continue; }
      var options = times[i].getAttribute("data-local") === "date"
        ? { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" }
        : { hour: "2-digit", minute: "2-digit", second: "2-digit", timeZoneName: "short" };
      times[i].textContent = at.toLocaleString(locale, options);
      times[i].removeAttribute("data-local");
    }
  }
  document.addEventListener("htmx:afterSettle", localTimes);
  // A field marked data-phone-zone and left empty gets this phone's time zone (Europe/Warsaw),
  // so that a file's dates (BG Stats') are the phone's; without script the server's are used.
  function phoneZone() {
    var fields = document.querySelectorAll("input[data-phone-zone]");
    var zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
    for (var i = 0; i < fields.length; i++) {
      if (zone && !fields[i].value) { fields[i].value = zone; }
    }
  }
  // The phone's time zone in a cookie, so that the server counts a player's days from this phone's
  // midnight (the wins over time); a page drawn before the server knew it is drawn again, once.
  function zoneCookie() {
    var zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!zone || !/^[A-Za-z0-9_+\/-]{1,64}$/.test(zone)) { return; }
    document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
    var drawn = document.querySelector("[data-zone-seen]");
    var kept = document.cookie.split("; ").indexOf("tz=" + zone) !== -1;
    if (drawn && kept && drawn.getAttribute("data-zone-seen") !== zone) { location.reload(); }
  }
  // A tap that fails (an expired form, too many moves at once, the server's own error, no network)
  // leaves the table as it was and says why in #trouble (base.html): the sentence of the error
  // page, or the page's own words when there is none or nothing came back.
  function troubleBox() { return document.getElementById("trouble"); }
  function trouble(text) {
    var box = troubleBox();
    if (!box) { return; }
    box.querySelector(".trouble-text").textContent = text;
    // Only now an alert, drawn as one: an empty one on every page would be one more live region.
    box.setAttribute("role", "alert");
    box.classList.remove("notice-success");
    box.style.inset = "";
    box.querySelector(".trouble-do").hidden = false;
    box.classList.add("notice", "notice-error");
    box.hidden = false;
    // Drawn where a finger may be (the tap that failed, or the next control): like a swapped table,
    // it takes no tap for SETTLE_MS, and a tap under way goes through to what it was meant for.
    box.setAttribute("data-settling", "");
    clearTimeout(troubleSettled);
    troubleSettled = setTimeout(function () { box.removeAttribute("data-settling"); }, SETTLE_MS);
  }
  var troubleSettled = null;
  function troubleOf(xhr) {
    // The error page's own box is drawn without a role, so the first alert with words is its sentence.
    var page = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
    var alerts = page.querySelectorAll("[role=alert]");
    for (var i = 0; i < alerts.length; i++) {
      var said = alerts[i].textContent.trim();
      if (said) { return said; }
    }
    return troubleBox() ? troubleBox().getAttribute("data-failed") : "";
  }
  // A start form's failure is said the same way: what was filled in stays, to be sent again.
  document.addEventListener("htmx:responseError", function (event) { trouble(troubleOf(event.detail.xhr)); });
  // A move the outbox kept (outbox.js) is said there, with what waits, and so is a look that fails
  // while moves wait there (Castle's check of a card): one box says "Not connected", and the banner
  // that would cover the table's foot goes. Anything else is said here.
  function unreachable(event) {
    var outbox = document.getElementById("outbox");
    var waiting = outbox && !outbox.hidden && /^(waiting|sending)$/.test(outbox.getAttribute("data-state"));
    if ((event.detail && event.detail.kept) || waiting) {
      troubleGone();
      if (troubleBox()) { troubleBox().removeAttribute("data-unreachable-shown"); }  // "Sent" says it is back
      return;
    }
    if (troubleBox()) {
      trouble(troubleBox().getAttribute("data-unreachable"));
      troubleBox().setAttribute("data-unreachable-shown", "");
      // A look that fails (Castle's check of the card just picked) is said at the top of the screen:
      // it fails as the finger leaves the field for the next control (a pile), and a box drawn at the
      // foot, under that finger, would take the tap meant for the pile.
      if (look(event)) { troubleBox().style.inset = "0 0 auto"; }
    }
  }
  function look(event) {
    var detail = event.detail || {};
    var config = detail.requestConfig;
    return !!(config && config.verb === "get" && detail.elt && live() && live().contains(detail.elt));
  }
  document.addEventListener("htmx:sendError", unreachable);
  document.addEventListener("htmx:timeout", unreachable);
  function troubleGone() {
    if (troubleBox()) { troubleBox().hidden = true; }
  }
  document.addEventListener("htmx:beforeSend", troubleGone);
  // The first request that gets through after "could not be reached" says so, as a status that
  // covers nothing (the box leaves the screen's foot), then goes by itself; the outbox sends.
  var connectedTimer = null;
  function reached() {
    var box = troubleBox();
    if (box && box.hasAttribute("data-unreachable-shown")) {
      box.removeAttribute("data-unreachable-shown");
      box.querySelector(".trouble-text").textContent = box.getAttribute("data-connected");
      box.setAttribute("role", "status");
      box.classList.remove("notice-error");
      box.classList.add("notice-success");
      box.style.inset = "0 0 auto";  // at the top, where it covers no control (the stylesheet is full)
      box.querySelector(".trouble-do").hidden = true;
      clearTimeout(troubleSettled);  // a status with nothing to tap: nothing to let taps through
      box.removeAttribute("data-settling");
      clearTimeout(connectedTimer);
      connectedTimer = setTimeout(function () { box.hidden = true; }, 4000);
    }
    var outbox = window.CastellanOutbox;
    if (outbox) { outbox.flush(); }
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.successful) { reached(); }
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#trouble button");
    if (!button) { return; }
    if (button.hasAttribute("data-reload")) { location.reload(); } else { troubleGone(); }
  });
  // On waking, the phone's own waiting moves go first, so that the table then polled includes them.
  function wake() {
    failures = 0;
    clearTimeout(timer);  // a poll due now would go before the waiting moves
    var outbox = window.CastellanOutbox;
    if (outbox) { outbox.flush().then(poll); } else { poll(); }
  }
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { wake(); }
  });
  window.addEventListener("online", wake);
  // The worker's offline page stands at the address that could not be fetched (a table page opened
  // again off the Wi-Fi, its moves waiting on the phone). It asks Castellan for that address every
  // few seconds, at once when the phone says it is online, and opens it as soon as an answer comes:
  // the event alone is no proof (it can come before the network carries anything).
  var retrying = null;
  function retry() {
    var offline = document.getElementById("not-connected");
    // Opened at its own address (not in place of another page), it has nothing to open again.
    if (!offline || location.pathname === offline.getAttribute("data-own-path")) { return; }
    clearTimeout(retrying);
    fetch(location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(function () { location.reload(); }, function () { retrying = setTimeout(retry, 5000); });
  }
  window.addEventListener("online", retry);
  window.addEventListener("pageshow", retry);
  window.addEventListener("pageshow", function (event) { if (event.persisted) { wake(); } });
  // The installable app's service worker (views/installable.py), where browsers allow one: over
  // HTTPS or on localhost. On plain http the page works as it always has. Its address names the
  // page's language, so that a new language brings a new worker, whose kept pages are in it.
  function installable() {
    var manifest = document.querySelector("link[rel=manifest][data-worker]");
    if (!window.isSecureContext || !("serviceWorker" in navigator) || !manifest) { return; }
    var worker = manifest.getAttribute("data-worker") + "?lang=" + encodeURIComponent(document.documentElement.lang);
    navigator.serviceWorker.register(worker).catch(function () {});  // without it, as on plain http
  }
  document.addEventListener("DOMContentLoaded", function () {
    localTimes();
    phoneZone();
    zoneCookie();
    installable();
    if (live()) { schedule(interval()); }
  });
})();
