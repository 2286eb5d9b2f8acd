// The page's side of the worker RPC: call(cmd, args) returns a promise of the result, or rejects
// with an Error carrying the Python error's type and message. restart() replaces a stuck worker.

export class PythonError extends Error {
  constructor({ type, message, traceback }) {
    super(message);
    this.name = type;
    this.traceback = traceback;
  }
}

export class PyClient {
  constructor(workerUrl, { onStatus = () => {}, onEvent = () => {}, onCrash = () => {} } = {}) {
    this.workerUrl = workerUrl;
    this.onStatus = onStatus;
    this.onEvent = onEvent;
    this.onCrash = onCrash;
    this.pending = new Map();
    this.nextId = 1;
    this.start();
  }

  start() {
    this.worker = new Worker(this.workerUrl, { type: "module" });
    this.worker.onmessage = (message) => this.receive(message.data);
    // An error nothing caught inside the worker means Python may be gone: fail what was waiting and
    // let the page start a new worker and restore its data.
    this.worker.onerror = (error) => {
      error.preventDefault?.();
      this.failPending("WorkerCrashed", `Python stopped unexpectedly (${error.message || "unknown error"}).`);
      this.onCrash(error.message || "unknown error");
    };
  }

  receive(data) {
    if (data.event === "status") return this.onStatus(data);
    if (data.event) return this.onEvent(data);
    const pending = this.pending.get(data.id);
    if (!pending) return;
    this.pending.delete(data.id);
    if (data.ok) pending.resolve(data.result);
    else pending.reject(new PythonError(data.error));
    if (!data.ok && data.error.type === "WorkerCrashed") this.onCrash(data.error.message);
  }

  failPending(type, message) {
    for (const { reject } of this.pending.values()) reject(new PythonError({ type, message }));
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
    this.failPending("Cancelled", "Stopped.");
    this.start();
  }
}
