// Starts Python's worker before anything else on the page, as early as a bare Pyodide page starts its own:
// build.py writes this script into index.html's head, before the style sheet and the page's module
// preloads, so the worker's script is asked for while the HTML is still being read and does not wait
// behind the page's modules for a connection to the site (a script of its own would). What the worker says
// before the page listens (its first status lines) is kept and handed over with it, by python.js.
(() => {
  const worker = new Worker("js/worker.js", { type: "module" });
  const early = [];
  worker.onmessage = (message) => early.push(["message", message]);
  worker.onerror = (error) => {
    error.preventDefault();  // handed over to the page's own handler, which reports it
    early.push(["error", error]);
  };
  // The worker started above, once: the page's client takes it with its handlers, and is given at once
  // whatever the worker sent or raised before. Later workers (after a cancel) are the client's own.
  let taken = false;
  globalThis.pellucidBoot = {
    take(onmessage, onerror) {
      if (taken) return null;
      taken = true;
      worker.onmessage = onmessage;
      worker.onerror = onerror;
      for (const [kind, event] of early.splice(0)) (kind === "message" ? onmessage : onerror)(event);
      return worker;
    },
  };
})();
