// The one Python worker of the page. Modules import `python` to call it; main.js says what to do with
// its status, progress and crash reports (onPython), once the modules that handle them are loaded.
import { PyClient } from "./pyclient.js";

const hooks = { status() {}, event() {}, crash() {} };

export const python = new PyClient(new URL("./worker.js", import.meta.url), {
  onStatus: (message) => hooks.status(message),
  onEvent: (event) => hooks.event(event),
  onCrash: (detail) => hooks.crash(detail),
});

export function onPython({ status, event, crash }) {
  Object.assign(hooks, { status, event, crash });
}
