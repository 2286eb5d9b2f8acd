// The one Python worker of the page, started by boot.js (written into index.html's head) before the page's
// modules loaded; a page without it (boot.js could not run) starts its own here. Modules import
// `python` to call it; main.js says what to do with its status, progress and crash reports (onPython),
// and is given the reports that came before it asked.
import { PyClient } from "./pyclient.js";

const early = [];
const hooks = {
  status: (message) => early.push(["status", message]),
  event: (event) => early.push(["event", event]),
  crash: (detail) => early.push(["crash", detail]),
};

export const python = new PyClient(new URL("./worker.js", import.meta.url), {
  onStatus: (message) => hooks.status(message),
  onEvent: (event) => hooks.event(event),
  onCrash: (detail) => hooks.crash(detail),
  adopt: (onmessage, onerror) => globalThis.pellucidBoot?.take(onmessage, onerror) ?? null,
});

export function onPython({ status, event, crash }) {
  Object.assign(hooks, { status, event, crash });
  for (const [kind, report] of early.splice(0)) hooks[kind](report);
}
