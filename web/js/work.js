// The page at work: the status line, the progress bar, the message area, and `run`, which marks the
// page busy around one piece of work and turns a failure into what the user should see, by its code.
import { byId, el } from "./dom.js";
import { store } from "./store.js";

const els = { status: byId("status"), progress: byId("progress"), note: byId("note"), message: byId("message") };

export function setStatus(state, text) {
  store.set({ status: { state, text } });
}

export function showMessage(text, detail = "") {
  store.set({ message: text ? { text, detail } : null });
}

export function showNote(text) {
  store.set({ note: text || "" });
}

// An error reaching the page, shown according to its code (pyclient.js sets it from the worker's reply).
export function showError(error) {
  switch (error.code) {
    case "cancelled":
      return;  // the user stopped it; the cancel flow says so
    case "crashed":
      return;  // the recover flow explains and restores the data
    case "internal":
      return showMessage(`Something went wrong inside pellucid: ${error.message}`, error.traceback || "");
    default:
      // data_error (bad input), not_loaded, and the page's own checks: the message says what to do.
      return showMessage(error.message);
  }
}

// Runs one piece of work with the page marked busy; resolves to its result, or null when it failed.
export async function run(label, work, { cancellable = false } = {}) {
  store.set({ busy: label, cancellable });
  setStatus("busy", label);
  try {
    return await work();
  } catch (error) {
    showError(error);
    return null;
  } finally {
    store.set({ busy: "", cancellable: false, progress: null });
    if (store.get().status.state === "busy") {
      if (store.get().starting) setStatus("loading", "Preparing the workbench…");
      else setStatus("ready", "Ready");
    }
  }
}

export function showProgress(event) {
  if (event.event !== "progress") return;
  store.set({ progress: Math.max(0, Math.min(1, Number(event.fraction) || 0)) });
  if (event.label) setStatus("busy", String(event.label));
}

store.subscribe(["status"], ({ status }) => {
  els.status.dataset.state = status.state;
  els.status.textContent = status.text;
});

store.subscribe(["progress"], ({ progress }) => {
  els.progress.hidden = progress === null;
  if (progress === null) els.progress.removeAttribute("value");
  else els.progress.value = progress;
});

store.subscribe(["note"], ({ note }) => {
  els.note.textContent = note;
  els.note.hidden = !note;
});

// The traceback of an internal error is kept out of the way, one click from the message.
store.subscribe(["message"], ({ message }) => {
  els.message.hidden = !message;
  if (!message) return els.message.replaceChildren();
  const detail = message.detail
    ? el("details", {}, el("summary", { text: "Details for a bug report" }), el("pre", { text: message.detail }))
    : null;
  els.message.replaceChildren(message.text, ...(detail ? [detail] : []));
});
