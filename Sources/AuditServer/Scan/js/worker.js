/* The phone page's service worker: the page's own files are kept on the phone, so a reload with
 * the Wi-Fi gone still opens the page, with its scans waiting in localStorage (they are sent once
 * the server answers again). A file is fetched from the server first, so a new version is taken
 * as soon as the server answers; the kept copy is used when the server cannot be reached (or
 * takes more than 4 s). Nothing else is kept or answered here: API calls, frames and scans always
 * go to the server. The server fills in the list of files (ScanPage.swift). */

const FILES = ["/*FILES*/"];
const CACHE = 'auditstation-scan-files';
const PATIENCE_MS = 4000;

self.addEventListener('install', function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(FILES); }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener('activate', function (event) {
  event.waitUntil(self.clients.claim());
});

function kept(path) {
  return caches.open(CACHE).then(function (cache) { return cache.match(path); });
}

self.addEventListener('fetch', function (event) {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || FILES.indexOf(url.pathname) < 0) return;
  event.respondWith(new Promise(function (resolve) {
    let settled = false;
    function answer(response) { if (!settled && response) { settled = true; resolve(response); } }
    function fallBack() {
      kept(url.pathname).then(function (copy) { if (copy) answer(copy); });
    }
    const timer = setTimeout(fallBack, PATIENCE_MS);
    fetch(event.request).then(function (response) {
      clearTimeout(timer);
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then(function (cache) { return cache.put(url.pathname, copy); });
        answer(response);
      } else {
        kept(url.pathname).then(function (copy) { answer(copy || response); });
      }
    }, function () {
      clearTimeout(timer);
      kept(url.pathname).then(function (copy) { answer(copy || Response.error()); });
    });
  }));
});
