// The page's side of offline support and of new versions. The service worker (sw.js) keeps every file of
// the site after one visit, and keeps each open page on the build it opened with: a new build published
// while a page is open never mixes its files into that page. The page then says that a new version is
// ready and reloads when the person agrees. It does not reload by itself: someone in the middle of their
// work keeps their page as it is, and gets the fixes when they choose; the reload keeps their session
// (the data, its roles and the run history are in this browser, session-store.js; the settings in the link).
// Offline support is an extra: if the browser refuses it (a private window, a file:// page), the page
// works as before.
import { byId } from "./dom.js";

let pageBuild = null;  // the build this page opened with, as its Python worker reports it
let newestBuild = null;  // the newest build installed, as the service worker announces it

// Called at once, before the service worker is registered: a new build may be installed at any time.
// (A first visit's page is taken over by its own build's service worker, which announces that build.)
export function watchForNewVersion() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", ({ data }) => {
    if (data?.type !== "newest-build") return;
    newestBuild = data.build;
    compareBuilds();
  });
  navigator.serviceWorker.startMessages();
  byId("reload-new-version").addEventListener("click", () => location.reload());
}

export function setPageBuild(build) {
  pageBuild = build;
  compareBuilds();
}

function compareBuilds() {
  if (pageBuild && newestBuild && newestBuild !== pageBuild) showNewVersion();
}

// `mixed`: the page's Python was started again from the new build's files (the service worker could not
// answer it from the page's own: the browser cleared the site's storage meanwhile), so the page says so,
// where no later message replaces it.
export function showNewVersion({ mixed = false } = {}) {
  if (mixed) {
    byId("new-version-text").textContent = "Pellucid was updated while this page was open, and its Python now " +
      "runs the new version. Reload to use the new version throughout; your data, settings and history are kept.";
  }
  byId("new-version").hidden = false;
}

// Precaching downloads the whole site once more: the page calls this once its start is done. A tab may
// stay open for days, so the browser is asked to look for a new build each time the page is shown again.
export function registerOffline() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("./sw.js").then((registration) => {
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") registration.update().catch(() => {});
    });
  }).catch(() => {});
}
