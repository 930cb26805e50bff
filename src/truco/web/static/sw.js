const SHELL = null;
// The service worker (docs/app.md). The server writes the app shell into the line above
// (truco/web/app_shell.py): its cache's name, which changes with any byte of the shell, the
// shell's URLs, the page routes with the file each one serves, and the offline page.
//
// It keeps only the shell, fetched without cookies when it installs, and never stores an
// answer afterwards: the API, records, account data and the WebSocket always go to the
// network. The game itself is played online only.

const CACHE = SHELL.cache;
const FILES = new Set(SHELL.files);
const PAGES = SHELL.pages.map(([pattern, file]) => [new RegExp(pattern), file]);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // "reload": the server's bytes, not the browser's HTTP cache (they are what the name hashes).
    await cache.addAll(SHELL.files.map((url) => new Request(url, { credentials: "omit", cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(SHELL.prefix) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// The shell file that answers `request`, or null: a shell URL itself, or a navigation to a page.
function shellFile(request) {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return null;
  if (FILES.has(url.pathname) && !url.search) return url.pathname;
  // A page's file is the same whatever its query says (the page's script reads it).
  if (request.mode !== "navigate") return null;
  const page = PAGES.find(([pattern]) => pattern.test(url.pathname));
  return page ? page[1] : null;
}

async function offline() {
  return (await caches.match(SHELL.offline, { cacheName: CACHE })) || Response.error();
}

async function fromShell(file, request) {
  const kept = await caches.match(file, { cacheName: CACHE });
  if (kept) return kept;
  try {
    return await fetch(request);
  } catch (e) {
    if (request.mode === "navigate") return offline();
    throw e;
  }
}

async function fromNetwork(request) {
  try {
    return await fetch(request);
  } catch (e) {
    return offline();
  }
}

self.addEventListener("fetch", (event) => {
  const file = shellFile(event.request);
  if (file) event.respondWith(fromShell(file, event.request));
  else if (event.request.mode === "navigate") event.respondWith(fromNetwork(event.request));
  // Anything else is not answered here: the browser asks the network as if there were no worker.
});
