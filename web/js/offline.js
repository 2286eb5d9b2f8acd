// Registers the service worker that keeps the site working offline after one visit. Offline support is
// an extra: if the browser refuses it (a private window, a file:// page), the page works as before.
export function registerOffline() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("./sw.js").catch(() => {});
}
