// Offline support: precache every file the site needs at start, versioned by build, so after one visit
// the site loads and trains with the network off. A new build installs a new cache and deletes the old
// one once it takes over, so a page never mixes files of two builds. The build fills in the two values.
const BUILD = "__BUILD_VERSION__";
const PRECACHE = __PRECACHE_FILES__;
const CACHE = `pellucid-${BUILD}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((path) => new Request(path, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("pellucid-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

// Same-origin GETs come from this build's cache; anything not precached (the on-demand scikit-learn
// wheels) is fetched once and kept in the same cache. Nothing is ever requested from another origin.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const cached = await cache.match(request, { ignoreSearch: true });
      if (cached) return cached;
      const response = await fetch(request);
      if (response.ok) cache.put(request, response.clone());
      return response;
    }),
  );
});
