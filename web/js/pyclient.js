// The page's side of the worker RPC: call(cmd, args) returns a promise of the result, or rejects
// with a PythonError. restart() replaces a stuck worker.

// A failed call. `code` says what kind of failure it is, and is what the page switches on:
// "data_error" (bad input; the message is for the user), "not_loaded" (an on-demand package is not
// loaded yet), "cancelled" (the user stopped the job), "crashed" (the worker died) or "internal" (a bug;
// `traceback` tells where). `name` is the error's type ("DataError", "WorkerCrashed", ...). `field` is
// the setting a data_error is about (docs/bridge.md, "Error fields"), or null.
export class PythonError extends Error {
  constructor({ code = "internal", type = "Error", message, traceback, field = null }) {
    super(message);
    this.code = code;
    this.name = type;
    this.traceback = traceback;
    this.field = field;
  }
}

export class PyClient {
  // `adopt(onmessage, onerror)`, if given, hands over a worker started earlier (boot.js) with those
  // handlers, or null; the client then starts its own.
  constructor(workerUrl, { onStatus = () => {}, onEvent = () => {}, onCrash = () => {}, adopt = () => null } = {}) {
    this.workerUrl = workerUrl;
    this.onStatus = onStatus;
    this.onEvent = onEvent;
    this.onCrash = onCrash;
    this.pending = new Map();
    this.nextId = 1;
    this.worker = adopt(this.handleMessage, this.handleError);
    if (!this.worker) this.start();
  }

  start() {
    this.worker = new Worker(this.workerUrl, { type: "module" });
    this.worker.onmessage = this.handleMessage;
    this.worker.onerror = this.handleError;
  }

  handleMessage = (message) => this.receive(message.data);

  // An error nothing caught inside the worker means Python may be gone: fail what was waiting and
  // let the page start a new worker and restore its data.
  handleError = (error) => {
    error.preventDefault?.();
    this.failPending("crashed", "WorkerCrashed", `Python stopped unexpectedly (${error.message || "unknown error"}).`);
    this.onCrash(error.message || "unknown error");
  };

  receive(data) {
    if (data.event === "status") return this.onStatus(data);
    if (data.event) return this.onEvent(data);
    const pending = this.pending.get(data.id);
    if (!pending) return;
    this.pending.delete(data.id);
    if (data.ok) pending.resolve(data.result);
    else pending.reject(new PythonError(data.error));
    if (!data.ok && data.error.code === "crashed") this.onCrash(data.error.message);
  }

  failPending(code, type, message) {
    for (const { reject } of this.pending.values()) reject(new PythonError({ code, type, message }));
    this.pending.clear();
  }

  call(cmd, args = {}, transfer = []) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, cmd, args }, transfer);
    });
  }

  // Stop whatever Python is doing by replacing the worker; callers restore their data into the new one.
  restart() {
    this.worker.terminate();
    this.failPending("cancelled", "Cancelled", "Stopped.");
    this.start();
  }
}
