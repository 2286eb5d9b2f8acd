// Starts the Python worker before anything else on the page. index.html runs this module first and on
// its own (an async module script with no imports), so Pyodide starts loading while the page's other
// modules are still being fetched and run, as early as a bare Pyodide page would start it. What the
// worker says before the page listens (its first status lines) is kept and handed over with it.

const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
const early = [];
worker.onmessage = (message) => early.push(["message", message]);
worker.onerror = (error) => {
  error.preventDefault();  // handed over to the page's own handler, which reports it
  early.push(["error", error]);
};

// The worker started above, once: the page's client takes it with its handlers, and is given at once
// whatever the worker sent or raised before. Later workers (after a cancel) are the client's own.
let taken = false;
export function takeBootWorker(onmessage, onerror) {
  if (taken) return null;
  taken = true;
  worker.onmessage = onmessage;
  worker.onerror = onerror;
  for (const [kind, event] of early.splice(0)) (kind === "message" ? onmessage : onerror)(event);
  return worker;
}
