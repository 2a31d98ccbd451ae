/* The table clock ticks on each phone without a request (templates/tables/_clock.html).
   The server's time is the truth: each fragment says the server's now (data-clock-now, ms) and each
   seat's seconds then; this phone's offset to the server is the largest (server now - own now) seen,
   the one least delayed by the network, so two phones side by side show the same time. "Own now" is
   the page's steady clock (performance.now), not the phone's time of day, which its owner or the
   network may set forward in the middle of a game: a largest offset would keep such a jump for the
   rest of the page's life. (A steady clock that stood still while the phone slept only makes the
   next offsets larger, which the largest takes at once.) The display changes on the server's whole
   seconds, alike on every phone. Without JavaScript the times stay as of the page's load. */
(function () {
  "use strict";
  var offset = null;
  var timer = null;

  function shown(seconds) {
    var whole = Math.max(0, Math.floor(seconds));
    var hours = Math.floor(whole / 3600), minutes = Math.floor((whole % 3600) / 60), rest = whole % 60;
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return hours ? hours + ":" + pad(minutes) + ":" + pad(rest) : minutes + ":" + pad(rest);
  }

  function tick() {
    var clock = document.querySelector("[data-clock-now]");
    if (!clock) { timer = null; return; }
    var serverNow = performance.now() + offset;
    var elapsed = (serverNow - Number(clock.dataset.clockNow)) / 1000;
    clock.querySelectorAll("[data-clock-dir]").forEach(function (span) {
      var seconds = Number(span.dataset.clockSeconds) + Number(span.dataset.clockDir) * elapsed;
      span.textContent = shown(seconds);
      var out = clock.querySelector('[data-clock-out="' + span.dataset.clockSeat + '"]');
      if (out && seconds <= 0) { out.hidden = false; }
    });
    timer = setTimeout(tick, 1000 - (((serverNow - Number(clock.dataset.clockNow)) % 1000) + 1000) % 1000 + 5);
  }

  // When the server's answer holding this clock reached the phone, on the steady clock: for the
  // page itself, its first byte (Navigation Timing), not the moment its scripts ran, which on a
  // slow phone or Wi-Fi comes a second or more later; for a fragment just put in, now.
  function arrived(loaded) {
    var page = loaded && performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    return page && page.responseStart > 0 ? page.responseStart : performance.now();
  }

  var sampled = null;  // the clock element this phone last measured its offset from

  function start(loaded) {
    var clock = document.querySelector("[data-clock-now]");
    if (!clock || clock === sampled) { return; }
    sampled = clock;
    var seen = Number(clock.dataset.clockNow) - arrived(loaded);
    offset = offset === null ? seen : Math.max(offset, seen);
    document.documentElement.dataset.clockOffset = String(offset);
    if (timer) { clearTimeout(timer); }
    tick();
  }

  document.addEventListener("DOMContentLoaded", function () {
    start(true);
    if (!document.getElementById("live")) { return; }  // not a table's page: no clock will come
    // Every new clock is a new measure of the offset, taken the moment it is put in: a tap's answer
    // swapped in by htmx, and the table another phone changed, which castellan.js's poll puts in
    // without htmx (and so without htmx's events).
    new MutationObserver(function () { start(false); }).observe(document.body, { childList: true, subtree: true });
  });
})();
