// The outbox: a move tapped while Castellan cannot be reached is kept on the phone (localStorage),
// with its form, its Idempotency-Key and the table version it was chosen on, and sent by itself,
// in order, once a request gets through again (the `online` event, the page shown again, a poll
// that succeeds, or "Send now"). The server stays the referee: nothing is drawn as recorded before
// it answers, and its answer (the table after the move, or its refusal) is what the page shows.
// A phone's own moves queued one after another go as a chain, each on the version the one before
// produced; a move from another phone in between still refuses the next, and that first refusal
// stops the outbox until the person sends each waiting move anyway or drops it.
(function () {
  "use strict";
  var STORE = "castellan-outbox";
  var ACTION = /^\/t\/[^\/]+\/(act|undo|finish)$/;
  var sending = null;  // the flush under way: one at a time
  var again = null;  // the flush planned after a busy answer
  var mood = null;  // "busy": the server asked for a moment; "failed": its answer was no answer to the move
  var BUSY = [429, 502, 503, 504];
  var PATIENCE = 20000;  // ms: a move's request still unanswered by then is given up, and sent again later

  function box() { return document.getElementById("outbox"); }
  function live() { return document.getElementById("live"); }
  // The table of this page: the path its moves post to begins with it.
  function table() {
    var el = live();
    return el ? el.getAttribute("data-live-url").replace(/\/live$/, "") : null;
  }
  function shown() {
    var el = live();
    return el ? parseInt(el.getAttribute("data-version"), 10) : -1;
  }

  function read() {
    try {
      var kept = JSON.parse(localStorage.getItem(STORE) || "{}");
      return { moves: kept.moves || [], stopped: kept.stopped || {}, chain: kept.chain || {} };
    } catch (error) {
      return { moves: [], stopped: {}, chain: {} };
    }
  }
  function write(state) { localStorage.setItem(STORE, JSON.stringify(state)); }
  function waiting(state) {
    var here = table();
    return state.moves.filter(function (move) { return move.table === here; });
  }

  // A key the server has not seen: crypto.randomUUID needs a secure context, getRandomValues does not.
  function newKey() {
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  // Each visible field of the form with what the move sent for it: a move kept late (its request
  // failed only after a while) is described, and its fields cleared, by what it sent, never by what
  // the person has typed since for the next move.
  function sentFields(form, formData) {
    var seen = {};
    return Array.prototype.map.call(form.querySelectorAll("input:not([type=hidden]), select, textarea"), function (field) {
      var values = formData.getAll(field.name);
      if (field.type === "radio" || field.type === "checkbox") {
        return { field: field, chosen: values.indexOf(field.value) >= 0 };
      }
      seen[field.name] = (seen[field.name] || 0) + 1;  // several fields of one name: the n-th value
      var value = values[seen[field.name] - 1];
      return { field: field, value: value === undefined ? "" : String(value) };
    });
  }

  // What the person will recognise in the list: the button tapped, then what was typed or chosen.
  function described(sent, submitter) {
    var parts = [];
    sent.forEach(function (one) {
      var field = one.field;
      var choice = field.type === "radio" || field.type === "checkbox";
      if (choice ? !one.chosen : !one.value) { return; }
      var label = field.labels && field.labels[0] ? field.labels[0].textContent.trim() : field.getAttribute("aria-label");
      parts.push(choice ? label : (label ? label + " " : "") + one.value);
    });
    var tapped = submitter ? submitter.textContent.replace(/\s+/g, " ").trim() : "";
    var text = tapped + (parts.length ? ": " + parts.join(", ") : "");
    return text.length > 90 ? text.slice(0, 89) + "…" : text;
  }

  // The fields back as they were for the next move, except those typed or chosen anew since.
  function cleared(sent) {
    sent.forEach(function (one) {
      var field = one.field;
      if (field.type === "radio" || field.type === "checkbox") {
        if (field.checked === one.chosen) { field.checked = field.defaultChecked; }
      } else if (field.value === one.value) {
        if (field.tagName === "SELECT") {
          Array.prototype.forEach.call(field.options, function (option) { option.selected = option.defaultSelected; });
        } else {
          field.value = field.defaultValue;
        }
      }
    });
  }

  // A move into the outbox; the form gets a fresh key and its fields back, for the next move.
  function keep(form, formData, submitter) {
    var fields = [];
    formData.forEach(function (value, name) { if (name !== "csrf_token") { fields.push([name, String(value)]); } });
    var sent = sentFields(form, formData);
    var state = read();
    var version = parseInt(formData.get("version"), 10);
    var before = waiting(state).slice(-1)[0];
    state.moves.push({
      id: newKey(),
      table: table(),
      url: new URL(form.getAttribute("hx-post"), location.href).pathname,
      fields: fields,
      version: version,
      // Chosen on the same table as the move before it: it goes on the version that one produces.
      after: before && before.version === version ? before.id : null,
      said: described(sent, submitter),
    });
    write(state);
    cleared(sent);
    var key = form.querySelector("input[name=idempotency_key]");
    if (key) { key.value = newKey(); }
  }

  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRF-Token"]; } catch (error) { return ""; }
  }

  function post(move, version) {
    var body = new URLSearchParams();
    move.fields.forEach(function (pair) { body.append(pair[0], pair[0] === "version" ? String(version) : pair[1]); });
    body.append("csrf_token", csrf());
    // A request that hangs (a Wi-Fi that drops mid-way) must not hold the outbox: it is given up, the
    // move waits, and its key makes the next sending a repeat if the first did arrive.
    var control = new AbortController();
    setTimeout(function () { control.abort(); }, PATIENCE);
    return fetch(move.url, {
      signal: control.signal,
      method: "POST",
      body: body,
      cache: "no-store",
      credentials: "same-origin",
      headers: { "HX-Request": "true", "HX-Target": "live", "X-CSRF-Token": csrf() },
    });
  }

  function versionOf(html) {
    var found = /data-version="(\d+)"/.exec(html);
    return found ? parseInt(found[1], 10) : -1;
  }

  // The server's table in place of the one shown (a newer one, or a refusal, which is said in it).
  function show(html, always) {
    var el = live();
    if (!el || (!always && versionOf(html) <= shown())) { return; }
    // Through htmx, as a tap's own answer is: castellan.js hears its swap (the form is no longer half-typed).
    window.htmx.swap(el, html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 20 });
  }

  // Send the waiting moves of this page's table, in order, until one fails to arrive or is refused.
  function flush(one) {
    if (sending) { return sending; }
    var state = read();
    var here = table();
    if (!here || state.stopped[here] || !waiting(state).length) { return Promise.resolve(); }
    said("sending");
    sending = next(one).then(function () { sending = null; draw(); }, function () { sending = null; draw(); });
    return sending;
  }

  function next(one) {
    var state = read();
    var move = waiting(state)[0];
    if (!move) { return Promise.resolve(); }
    var chain = state.chain[move.table];
    var version = move.rebased ? shown() : (move.after && chain && chain.id === move.after ? chain.produced : move.version);
    return post(move, version).then(function (response) {
      // A move sent again (its first answer lost): the table now, and the version the move made.
      var made = parseInt(response.headers.get("Castellan-Version-Made"), 10);
      var retry = parseInt(response.headers.get("Retry-After"), 10);
      return response.text().then(function (html) { return answered(move, response.status, html, one, made, retry); });
    });
  }

  // What the server said to one move: recorded (on to the next), refused (stop and say so), or
  // something that is no answer to the move (an expired form, the server's own trouble): it waits.
  // After "Send anyway" (``one``), the moves still waiting wait for the person's word too.
  function answered(move, status, html, one, made, retry) {
    var state = read();
    var refused = status === 403 || status === 409 || status === 422;
    if (BUSY.indexOf(status) >= 0) {
      // The server is busy or a proxy lost it for a moment: nothing was recorded, nothing needs the
      // person's word. The moves wait, and go again once the server's Retry-After has passed.
      mood = "busy";
      clearTimeout(again);
      again = setTimeout(function () { flush(); }, Math.min(Math.max(retry || 3, 1), 30) * 1000);
      return;
    }
    if (status !== 200 && !refused) {
      // No answer to the move (an expired form, the server's own trouble): the person decides.
      state.stopped[move.table] = true;
      write(state);
      mood = "failed";
      return;
    }
    mood = null;
    state.moves = state.moves.filter(function (other) { return other.id !== move.id; });
    if (refused || one) {
      // Only moves still waiting need the person's word; the refused one is said in place.
      if (waiting(state).length) { state.stopped[move.table] = true; }
    }
    if (!refused) {
      state.chain[move.table] = { id: move.id, produced: made >= 0 ? made : versionOf(html) };
    }
    write(state);
    if (refused || one || !waiting(state).length) {
      show(html, refused);
      if (!refused && !waiting(state).length) { said("sent"); }
      return;
    }
    return next();
  }

  // The status line and, when the outbox is stopped or waiting, its moves with what can be done.
  function said(what) {
    var el = box();
    if (!el) { return; }
    var count = waiting(read()).length;
    var text = what === "waiting" ? plural(el, count) : el.getAttribute("data-" + what);
    el.querySelector(".outbox-status").textContent = text;
    el.hidden = false;
    el.setAttribute("data-state", what);
  }

  // The sentence for this count, in the page's language: the server wrote it for a count of each
  // plural form (1, 2, 5 cover English, French and Polish); Intl.PluralRules says which one fits.
  function plural(el, count) {
    var rules = new Intl.PluralRules(document.documentElement.lang);
    var form = rules.select(count);
    var samples = [1, 2, 5];
    for (var i = 0; i < samples.length; i++) {
      if (rules.select(samples[i]) === form) { return el.getAttribute("data-waiting-" + samples[i]).replace("{n}", count); }
    }
    return el.getAttribute("data-waiting-5").replace("{n}", count);
  }

  function draw() {
    var el = box();
    if (!el) { return; }
    var state = read();
    var moves = waiting(state);
    var stopped = !!state.stopped[table()];
    var list = el.querySelector(".outbox-moves");
    list.textContent = "";
    moves.forEach(function (move) {
      var item = document.createElement("li");
      var name = document.createElement("span");
      name.textContent = el.getAttribute("data-pending").replace("{move}", move.said);
      item.appendChild(name);
      if (stopped) {
        item.appendChild(button(el.getAttribute("data-send-anyway"), "send-anyway", move.id));
        item.appendChild(button(el.getAttribute("data-drop"), "drop", move.id));
      }
      list.appendChild(item);
    });
    // Its paragraph: a button's own display (castellan.css) would overrule its hidden attribute.
    el.querySelector(".outbox-send").parentNode.hidden = stopped || !moves.length;
    if (moves.length) { said(stopped ? (mood === "failed" ? "failed" : "stopped") : (mood === "busy" ? "busy" : "waiting")); }
    else if (el.getAttribute("data-state") !== "sent") { el.hidden = true; }
  }

  function button(text, action, id) {
    var made = document.createElement("button");
    made.type = "button";
    made.className = "secondary";
    made.textContent = text;
    made.setAttribute("data-outbox", action);
    made.setAttribute("data-move", id);
    return made;
  }

  // "Send anyway": the move goes first, on the table as it is now shown; "Drop": it is forgotten.
  function decide(action, id) {
    var state = read();
    var move = state.moves.filter(function (other) { return other.id === id; })[0];
    if (!move) { return; }
    state.moves = state.moves.filter(function (other) { return other.id !== id; });
    if (action === "send-anyway") {
      move.rebased = true;
      state.moves.unshift(move);
      delete state.stopped[move.table];
    }
    if (!waiting(state).length) { delete state.stopped[table()]; }
    write(state);
    draw();
    if (action === "send-anyway") { flush(true); }
  }

  function tableMove(event) {
    var config = event.detail && event.detail.requestConfig;
    if (!config || config.verb !== "post") { return null; }
    var path = new URL(config.path, location.href).pathname;
    return ACTION.test(path) && path.indexOf(table() + "/") === 0 ? config : null;
  }

  // A move tapped while others wait goes behind them, never ahead.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = tableMove(event);
    var state = read();
    if (!config || state.stopped[table()] || !waiting(state).length) { return; }
    event.preventDefault();
    keep(config.elt.closest("form") || config.elt, config.formData, config.triggeringEvent && config.triggeringEvent.submitter);
    draw();
    flush();
  });
  // A move that did not arrive (or whose answer did not: its key makes the second sending a repeat).
  // Caught before castellan.js's own listener, which would say "could not be reached" instead.
  window.addEventListener("htmx:sendError", function (event) {
    var config = tableMove(event);
    if (!config) { return; }
    event.detail.kept = true;
    keep(config.elt.closest("form") || config.elt, config.formData, config.triggeringEvent && config.triggeringEvent.submitter);
    draw();
    var el = box();
    if (el) { el.scrollIntoView({ block: "nearest" }); }
  }, true);
  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("#outbox button");
    if (!target) { return; }
    if (target.classList.contains("outbox-send")) { flush(); } else { decide(target.getAttribute("data-outbox"), target.getAttribute("data-move")); }
  });

  // castellan.js asks before every poll it makes on waking up, and after every poll that gets through.
  // A poll waits while the outbox sends: the table it would show could lack the moves still to go.
  window.CastellanOutbox = { flush: flush, busy: function () { return !!sending; } };
  document.addEventListener("DOMContentLoaded", function () { draw(); flush(); });
})();

// The screen kept on while the table is in play (the Screen Wake Lock): taken when the page opens,
// again each time it comes back into view (the browser lets go of it when hidden), let go once the
// table is over (#ending) or the switch is turned off; the switch is remembered on this phone.
// Without a secure context (plain http on the LAN) there is no lock: the switch says what serves instead.
(function () {
  "use strict";
  var STORE = "castellan-awake";
  var lock = null;

  function toggle() { return document.getElementById("awake-switch"); }
  function wanted() {
    var el = toggle();
    return !!el && el.checked && !document.hidden && !document.getElementById("ending");
  }

  function hold() {
    if (!wanted()) { return letGo(); }
    if (lock || !navigator.wakeLock) { return; }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      sentinel.addEventListener("release", function () { if (lock === sentinel) { lock = null; } });
      if (!wanted()) { letGo(); }
    }, function () { lock = null; });
  }
  function letGo() {
    if (lock) { var held = lock; lock = null; held.release(); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var el = toggle();
    if (!el) { return; }
    if (!navigator.wakeLock) {
      el.checked = false;
      el.disabled = true;
      var why = document.querySelector("#awake .awake-why");
      why.textContent = document.getElementById("awake").getAttribute("data-insecure");
      why.hidden = false;
      return;
    }
    el.checked = localStorage.getItem(STORE) !== "off";
    el.addEventListener("change", function () {
      localStorage.setItem(STORE, el.checked ? "on" : "off");
      hold();
    });
    // A swapped table may be the one that is over.
    new MutationObserver(hold).observe(document.getElementById("main"), { childList: true, subtree: true });
    hold();
  });
  document.addEventListener("visibilitychange", hold);
})();
