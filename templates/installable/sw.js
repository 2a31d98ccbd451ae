// Castellan's service worker (companion/web/views/installable.py), registered by castellan.js
// over HTTPS or on localhost only. It keeps the static files (fingerprinted: a changed file is a
// new URL), the help pages and the offline page, and nothing else. Table pages (/t/...), the home
// page and every other page come from the network and are never stored: a seat's page or anything
// behind a link's token is never in this phone's cache, where another link could show it. A page
// that cannot be fetched gets the offline page. Polls, moves and the API are left to the network,
// exactly as without the worker: the outbox (outbox.js) keeps the moves that do not get through.
"use strict";
var CACHE = {{ cache | tojson }};
var KEPT = {{ kept | tojson }};
var PAGES = {{ pages | tojson }};
var OFFLINE = {{ offline | tojson }};
// The stored pages answer whatever the server's Vary said: this phone's own cookie and language.
var MATCH = { ignoreVary: true };

// A table's polls and moves, and the API, never wait for this worker (Chromium's static routing;
// elsewhere the fetch handler below leaves them to the network all the same): a worker woken for
// each poll would add its start-up to every catch-up and every move.
var NETWORK = [
  { condition: { requestMethod: "POST" }, source: "network" },
  { condition: { urlPattern: "/t/*", requestMode: "cors" }, source: "network" },
  { condition: { urlPattern: "/api/*" }, source: "network" },
];

self.addEventListener("install", function (event) {
  var routed = event.addRoutes ? event.addRoutes(NETWORK).catch(function () {}) : null;
  event.waitUntil(
    Promise.all([routed, caches.open(CACHE).then(function (cache) { return cache.addAll(KEPT); })])
      .then(function () { return self.skipWaiting(); })
  );
});

// The caches of an older worker (other files, another language) go.
self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) {
          return name !== CACHE && name.indexOf("castellan-") === 0;
        }).map(function (name) { return caches.delete(name); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

// The offline page, or the browser's own error while it is not kept yet.
function offlinePage() {
  return caches.match(OFFLINE, MATCH).then(function (kept) { return kept || Response.error(); });
}

// A help page: the network's, kept up to date in the cache; the cache's when it cannot be reached.
function helpPage(request, path) {
  return fetch(request).then(function (response) {
    if (response.ok && !response.redirected) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { return cache.put(path, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(path, MATCH).then(function (kept) { return kept || offlinePage(); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) { return; }
  if (KEPT.indexOf(url.pathname + url.search) >= 0 && PAGES.indexOf(url.pathname) < 0) {
    event.respondWith(caches.match(request.url, MATCH).then(function (kept) { return kept || fetch(request); }));
  } else if (request.mode === "navigate" && PAGES.indexOf(url.pathname) >= 0) {
    event.respondWith(helpPage(request, url.pathname));
  } else if (request.mode === "navigate") {
    // Network only, never stored (a table page among them); the offline page when it fails.
    event.respondWith(fetch(request).catch(offlinePage));
  }
});
