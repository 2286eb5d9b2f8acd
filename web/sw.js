// Offline support, one build per page. Every file the site needs is precached at install, in a cache named
// after the build, so after one visit the site loads and trains with the network off.
//
// A new build installs at once and takes over every open page (skipWaiting, clients.claim), so a page
// opened or reloaded from then on runs it. A page that was already open goes on with the files of the build
// it started on until it reloads: the renderers it imports later, the Python worker a Cancel starts again
// and that worker's files all come from its own build's cache, never a mix of two builds (a module of one
// build calling another build's, or the new Python under the old page, would fail in ways nobody could
// explain). A person in the middle of their work is not interrupted; the page says a new version is
// ready (offline.js) and reloads when they agree, with their session kept (session-store.js).
//
// So this worker records which build each client (a page, the Python worker it starts) started on, in a
// cache of its own because a service worker's globals end whenever the browser stops it, and answers each
// client from that build's cache. A build's cache is deleted once no open client uses it.
// The build fills in the two values.
const BUILD = "__BUILD_VERSION__";
const PRECACHE = __PRECACHE_FILES__;
const PREFIX = "pellucid-";
const CACHE = PREFIX + BUILD;
const BUILD_CACHE = /^pellucid-[0-9a-f]{16}$/;
const CLIENTS = "pellucid-clients";  // client id -> {build, parent}

const known = new Map();  // the records read or written since this worker started

const recordUrl = (id) => new URL(`clients/${encodeURIComponent(id)}`, self.registration.scope).href;

function remember(id, record) {
  known.set(id, record);
  return caches.open(CLIENTS).then((book) => book.put(recordUrl(id), Response.json(record)));
}

async function recall(id) {
  if (!id) return null;
  if (!known.has(id)) {
    const saved = await (await caches.open(CLIENTS)).match(recordUrl(id));
    if (!saved) return null;
    known.set(id, await saved.json());
  }
  return known.get(id);
}

// The build a request is answered from. A page being opened gets this (the newest) build; a worker
// gets the build of the page that starts it; any other request that of the client making it. A client
// with no record started before any service worker of this kind knew it (a first visit's page, loaded
// from the network): it is taken as this build's, the one the network serves.
async function buildFor(event) {
  const { request, clientId, resultingClientId } = event;
  if (request.mode === "navigate") {
    if (resultingClientId) event.waitUntil(remember(resultingClientId, { build: BUILD }).then(() => sweep(resultingClientId)));
    return BUILD;
  }
  const record = await recall(clientId);
  const build = record ? record.build : BUILD;
  if (!record && clientId) event.waitUntil(remember(clientId, { build }));
  if (request.destination === "worker" && resultingClientId) {
    event.waitUntil(remember(resultingClientId, { build, parent: clientId }));
  }
  return build;
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((path) => new Request(path, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

// Pages open before this build was installed keep their records (their build's cache stays); pages this
// worker claims with no record (a first visit, loaded from the network) are recorded as this build's.
// Every page is told which build is now the newest: one of another build says a new version is ready.
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    await self.clients.claim();
    const open = await self.clients.matchAll({ includeUncontrolled: true, type: "all" });
    for (const client of open) {
      if (!(await recall(client.id))) await remember(client.id, { build: BUILD });
      if (client.type === "window") client.postMessage({ type: "newest-build", build: BUILD });
    }
    await sweep();
  })());
});

// Forgets the clients that are gone and deletes the caches of builds no open client uses. A worker is
// kept while the page that started it is open (browsers do not all list a page's workers); `starting`,
// a page being opened, is not listed yet.
async function sweep(starting = null) {
  const open = new Set((await self.clients.matchAll({ includeUncontrolled: true, type: "all" })).map((c) => c.id));
  const book = await caches.open(CLIENTS);
  const used = new Set([BUILD]);
  for (const key of await book.keys()) {
    const id = decodeURIComponent(key.url.split("/").pop());
    const record = await recall(id);
    if (!record) continue;
    if (id === starting || open.has(id) || open.has(record.parent)) {
      used.add(record.build);
    } else {
      known.delete(id);
      await book.delete(key);
    }
  }
  const names = await caches.keys();
  await Promise.all(names.filter((name) => BUILD_CACHE.test(name) && !used.has(name.slice(PREFIX.length)))
    .map((name) => caches.delete(name)));
}

// Same-origin GETs come from the client's build's cache; anything not precached (the on-demand
// scikit-learn wheels, whose names carry their version) is fetched once and kept in that cache. If that
// build's cache is gone (the browser cleared the site's storage), the network answers, as it would
// without this worker. Nothing is ever requested from another origin.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const name = PREFIX + (await buildFor(event));
    if (!(await caches.has(name))) return fetch(request);
    const cache = await caches.open(name);
    const cached = await cache.match(request, { ignoreSearch: true });
    if (cached) return cached;
    const response = await fetch(request);
    if (response.ok) cache.put(request, response.clone());
    return response;
  })());
});
