/* The table clock ticks on each phone without a request (templates/tables/_clock.html).
   The server's time is the truth: each fragment says the server's now (data-clock-now, ms) and each
   seat's seconds then; this phone's offset to the server is the largest (server now - own now) seen,
   the one least delayed by the network, so two phones side by side show the same time. The display
   changes on the server's whole seconds, alike on every phone. Without JavaScript the times stay as
   of the page's load. */
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
    var serverNow = Date.now() + offset;
    var elapsed = (serverNow - Number(clock.dataset.clockNow)) / 1000;
    clock.querySelectorAll("[data-clock-dir]").forEach(function (span) {
      var seconds = Number(span.dataset.clockSeconds) + Number(span.dataset.clockDir) * elapsed;
      span.textContent = shown(seconds);
      var out = clock.querySelector('[data-clock-out="' + span.dataset.clockSeat + '"]');
      if (out && seconds <= 0) { out.hidden = false; }
    });
    timer = setTimeout(tick, 1000 - (((serverNow - Number(clock.dataset.clockNow)) % 1000) + 1000) % 1000 + 5);
  }

  function start() {
    var clock = document.querySelector("[data-clock-now]");
    if (!clock) { return; }
    var seen = Number(clock.dataset.clockNow) - Date.now();
    offset = offset === null ? seen : Math.max(offset, seen);
    document.documentElement.dataset.clockOffset = String(offset);
    if (timer) { clearTimeout(timer); }
    tick();
  }

  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSettle", start);
})();
